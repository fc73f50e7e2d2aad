// PrefixSkeleton (parsers/postgresql/prefix_skeleton.h) is a necessary
// condition: no line that a prefix's RE2 matches may fail it, on every text
// input of samples/ and tests/corpus/, for the known prefixes and for odd
// ones (padding, %%, %q, unknown escapes). And it does turn lines away.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "parsers/postgresql/prefix.h"
#include "parsers/postgresql/prefix_skeleton.h"
#include "support.h"

using namespace lockgraph;

TEST_CASE("PrefixSkeleton never turns away a line the prefix matches", "[prefix]") {
  static const std::vector<std::string> lines = test::SampleTextLines(400);
  REQUIRE(lines.size() > 5000);
  std::vector<std::string> prefixes = KnownPrefixes();
  for (const char* odd : {"%*", "%-10m [%p] ", "%m%q [%p] ", "%%%m ", "[%p] %m ", "%m [%5p] %z ",
                          "%t:%r:%u@%d:[%p]:", "%m %-%x ", "%n [%p] ", "%s %c %l ", "%", "%m%",
                          "%t%p ", "%m: "})
    prefixes.push_back(odd);
  size_t matched = 0, turned_away = 0;
  for (const std::string& prefix : prefixes) {
    std::string error;
    auto m = PrefixMatcher::Compile(prefix, &error);
    REQUIRE(m);
    const PrefixSkeleton skeleton(prefix);
    PrefixedLine out;
    SessionInfo session;
    for (const std::string& line : lines) {
      const bool may = skeleton.MayMatch(line);
      turned_away += !may;
      if (!m->Match(line, &out, &session)) continue;
      ++matched;
      INFO("prefix '" << prefix << "', line: " << line);
      CHECK(may);
    }
  }
  CHECK(matched > 10000);
  CHECK(turned_away > matched);
}

TEST_CASE("PrefixSkeleton: the literals in order, the time's digits, nothing after %q", "[prefix]") {
  const std::string ms = "2026-12-05 10:00:00.123 UTC [42] app@shop LOG:  statement: SELECT 1";
  const std::string s = "2026-12-05 10:00:00 UTC [42]: [3-1] user=app,db=shop LOG:  x";
  CHECK(PrefixSkeleton("%m [%p] ").MayMatch(ms));
  CHECK_FALSE(PrefixSkeleton("%t [%p] ").MayMatch(ms));     // ".123" where %t ends
  CHECK_FALSE(PrefixSkeleton("%m [%p] ").MayMatch(s));      // no milliseconds
  CHECK(PrefixSkeleton("%t [%p]: [%l-1] user=%u,db=%d ").MayMatch(s));
  CHECK_FALSE(PrefixSkeleton("%t [%p]: [%l-1] db=%d,user=%u ").MayMatch(s));  // literals out of order
  CHECK_FALSE(PrefixSkeleton("db=%d,user=%u ").MayMatch(ms));
  CHECK(PrefixSkeleton("%m [%p] %q[user=%u,db=%d] ").MayMatch(ms));  // optional after %q
  CHECK(PrefixSkeleton("%-25m [%p] ").MayMatch("  " + ms));  // padded: no time check
  CHECK(PrefixSkeleton("").MayMatch("LOG:  x"));
  CHECK(PrefixSkeleton("%m ").MayMatch("2026-12-05 10:00:00.123LOG:  x"));  // nothing after %m required
  CHECK_FALSE(PrefixSkeleton("%m").MayMatch("2026-12-05 10:00"));
  CHECK_FALSE(PrefixSkeleton("100%% %p ").MayMatch("100 % 42 LOG:  x"));
  CHECK(PrefixSkeleton("100%% %p ").MayMatch("100% 42 LOG:  x"));
}
