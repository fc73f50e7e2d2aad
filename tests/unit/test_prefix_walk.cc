// PrefixWalk (parsers/postgresql/prefix_walk.h) answers only with what the
// prefix's RE2 captures: on the prefixes of every text input of samples/
// and tests/corpus/, and on prefixes pieced together at random from the
// parts that make choices hard ('@' and '/' inside names, zones with ':',
// digits after digits, spaces), for the known prefixes and odd ones. And
// it does answer for most real lines.
#include <catch2/catch.hpp>
#include <re2/re2.h>

#include <random>
#include <string>
#include <vector>

#include "parsers/postgresql/label_scan.h"
#include "parsers/postgresql/prefix.h"
#include "parsers/postgresql/prefix_walk.h"
#include "support.h"

using namespace lockgraph;

namespace {

// The text before each line's label, as PrefixMatcher::Match cuts it.
std::vector<std::string> SamplePrefixes() {
  std::vector<std::string> prefixes;
  for (const std::string& line : test::SampleTextLines(2000)) {
    std::string_view word;
    const size_t start = FindLabelStart(line, &word);
    if (start != std::string_view::npos) prefixes.push_back(line.substr(0, start));
  }
  return prefixes;
}

// A prefix text made of pieces that real prefixes have, in random order.
std::string RandomPrefix(std::mt19937& rng) {
  static const std::vector<std::string> pieces = {
      "2026-11-29 08:09:34.001", "2026-11-29 08:09:34", "2026-11-29 08:09:3", " UTC", " +02",
      " CET:10", " ", "  ", "[", "]", "[12345]", "[local]", "@", "/", ":", "::", "-", ".", "12",
      "7", "-3/45", "3/4", "40P01", "6530ab12.2f1", "user", "db", "app name", "a@b", "x/y",
      "[unknown]", "user=", ",db=", ",app=", ",client=", "< ", " >", "10.0.0.1(5432)",
      "[queryid=", "1.500", "%", "\t", "é"};
  std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1), count(0, 9);
  std::string s;
  for (size_t n = count(rng); n > 0; --n) s += pieces[pick(rng)];
  return s;
}

const std::vector<std::string>& Prefixes() {
  static const std::vector<std::string> prefixes = [] {
    std::vector<std::string> all = KnownPrefixes();
    for (const char* odd : {"%*", "%-10m [%p] ", "%m%q [%p] ", "%%%m ", "[%p] %m ", "%m [%5p] %z ",
                            "%t:%r:%u@%d:[%p]:", "%m %-%x ", "%n [%p] ", "%s %c %l ", "%", "%m%",
                            "%t%p ", "%m: ", "%m [%p] %e %v %x %Q ", "%p%l ", "%u%d ", "%a@%u ",
                            "%m [%p] %q%q%u@%d %a ", "%c %P %v:", "%i %b [%L] %h "})
      all.push_back(odd);
    return all;
  }();
  return prefixes;
}

// Checks one prefix text; true when the walk answered.
bool Agrees(const PrefixMatcher& m, const std::string& text) {
  const int n = 1 + m.prefix_groups();
  std::vector<re2::StringPiece> walked(static_cast<size_t>(n)), regex(static_cast<size_t>(n));
  if (!m.walk().Match(text, walked.data(), n)) return false;
  INFO("prefix '" << m.prefix() << "', text '" << text << "'");
  REQUIRE(m.prefix_regex().Match(text, 0, text.size(), RE2::ANCHOR_BOTH, regex.data(), n));
  for (int g = 0; g < n; ++g) {
    INFO("group " << g);
    CHECK(walked[size_t(g)].data() == regex[size_t(g)].data());
    CHECK(walked[size_t(g)].size() == regex[size_t(g)].size());
  }
  return true;
}

}  // namespace

TEST_CASE("PrefixWalk captures what the prefix's RE2 captures, on real lines", "[prefix]") {
  static const std::vector<std::string> texts = SamplePrefixes();
  REQUIRE(texts.size() > 5000);
  for (const std::string& prefix : Prefixes()) {
    auto m = PrefixMatcher::Compile(prefix, nullptr);
    REQUIRE(m);
    size_t matched = 0, walked = 0;
    for (const std::string& text : texts) {
      const int n = 1 + m->prefix_groups();
      std::vector<re2::StringPiece> groups(static_cast<size_t>(n));
      matched += m->prefix_regex().Match(text, 0, text.size(), RE2::ANCHOR_BOTH, groups.data(), n);
      walked += Agrees(*m, text);
    }
    // The prefixes of the samples' own logs: nearly every line is walked.
    if (prefix == "%m [%p] %q%u@%d/%a " || prefix == "%m [%p] %q%u@%d " || prefix == "%m [%p] ") {
      INFO("prefix '" << prefix << "': " << walked << " walked of " << matched << " matched");
      CHECK(matched > 100);
      CHECK(walked * 100 >= matched * 95);
    }
  }
}

TEST_CASE("PrefixWalk captures what the prefix's RE2 captures, on made-up prefixes", "[prefix]") {
  std::mt19937 rng(20261206);
  std::vector<std::string> texts;
  for (int i = 0; i < 20000; ++i) texts.push_back(RandomPrefix(rng));
  size_t walked = 0;
  for (const std::string& prefix : Prefixes()) {
    auto m = PrefixMatcher::Compile(prefix, nullptr);
    REQUIRE(m);
    for (const std::string& text : texts) walked += Agrees(*m, text);
  }
  CHECK(walked > 1000);  // the walk answers on some of them, not only "cannot tell"
}

TEST_CASE("PrefixWalk walks the lazy fields, the zone and the digits as RE2 does", "[prefix]") {
  struct Case {
    const char* prefix;
    const char* text;
    bool walked;
  };
  for (const Case& c : std::vector<Case>{
           // The first '@' and the first '/' after it; the rest is the application.
           {"%m [%p] %q%u@%d/%a ", "2026-11-29 08:09:34.001 UTC [10045] a@b@c/d/e f ", true},
           // An application name with spaces (the JDBC driver's own).
           {"%m [%p] %q%u@%d/%a ",
            "2026-11-29 08:09:34.007 UTC [10225] checkout@shop/PostgreSQL JDBC Driver ", true},
           // A zone that runs into the next literal: RDS's ":": the zone gives back.
           {"%t:%r:%u@%d:[%p]:", "2026-11-29 08:09:34 UTC:10.0.0.1(5432):u@d:[12]:", true},
           // No zone at all, then the literal.
           {"%m [%p] ", "2026-11-29 08:09:34.001 [7] ", true},
           // A space inside %u before its '@': [^ ]*? cannot reach it.
           {"%m [%p] %q%u@%d ", "2026-11-29 08:09:34.001 UTC [7] a b@c ", false},
           // %q's part is absent (a background process): only RE2 can tell.
           {"%m [%p] %q%u@%d ", "2026-11-29 08:09:34.001 UTC [7] ", false},
           // Digits after digits: the first run gives one back (only RE2).
           {"%p%l ", "12345 ", false},
           // Not ASCII: RE2 reads UTF-8 characters.
           {"%m [%p] %q%u@%d ", "2026-11-29 08:09:34.001 UTC [7] é@d ", false},
       }) {
    auto m = PrefixMatcher::Compile(c.prefix, nullptr);
    REQUIRE(m);
    INFO(c.prefix << " | " << c.text);
    CHECK(Agrees(*m, c.text) == c.walked);
  }
}
