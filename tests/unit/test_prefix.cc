// log_line_prefix compilation and detection on real prefixes (reference
// §6.2 and the excerpts of §9): every sample line must match exactly the
// fields it carries.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "parsers/postgresql/prefix.h"

using namespace lockgraph;

namespace {

struct Parsed {
  bool ok = false;
  PrefixedLine line;
  SessionInfo session;
};

Parsed MatchWith(const std::string& prefix, const std::string& line) {
  static std::string keep;  // string_views point into the line
  keep = line;
  Parsed p;
  std::string error;
  auto m = PrefixMatcher::Compile(prefix, &error);
  REQUIRE(m);
  p.ok = m->Match(keep, &p.line, &p.session);
  return p;
}

}  // namespace

TEST_CASE("Debian prefix '%m [%p] %q%u@%d ' with user and database", "[prefix]") {
  Parsed p = MatchWith("%m [%p] %q%u@%d ",
                       "2024-10-23 14:50:42.630 MSK [22870] postgres@testlock LOG:  process 22870 "
                       "still waiting");
  REQUIRE(p.ok);
  CHECK(p.line.time == "2024-10-23 14:50:42.630 MSK");
  CHECK(*p.line.pid == 22870);
  CHECK(p.session.user == "postgres");
  CHECK(p.session.database == "testlock");
  CHECK(p.line.label == PartLabel::kPrimary);
  CHECK(p.line.severity == "LOG");
  CHECK(p.line.text == "process 22870 still waiting");
}

TEST_CASE("%q stops the prefix for background processes", "[prefix]") {
  Parsed p = MatchWith("%m [%p] %q%u@%d ",
                       "2026-12-02 10:00:00.000 UTC [61] LOG:  checkpoint starting: time");
  REQUIRE(p.ok);
  CHECK(*p.line.pid == 61);
  CHECK(p.session.user.empty());
  CHECK(p.line.text == "checkpoint starting: time");
}

TEST_CASE("pgBadger-style prefix with %l, [unknown] and a TAB-free CONTEXT", "[prefix]") {
  Parsed p = MatchWith("%t [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ",
                       "2021-09-25 05:13:21 CDT [30400]: [3-1] user=temboard,db=temboard,"
                       "app=[unknown],client=[local] CONTEXT:  SQL statement \"TRUNCATE x\"");
  REQUIRE(p.ok);
  CHECK(p.line.time == "2021-09-25 05:13:21 CDT");
  CHECK(*p.line.pid == 30400);
  CHECK(*p.session.session_line == 3);
  CHECK(p.session.application.empty());
  CHECK(p.session.host == "[local]");
  CHECK(p.line.label == PartLabel::kContext);
  CHECK(p.line.text == "SQL statement \"TRUNCATE x\"");
}

TEST_CASE("RDS prefix with colons, verbose SQLSTATE, IPv6 host", "[prefix]") {
  Parsed p = MatchWith("%t:%r:%u@%d:[%p]:",
                       "2020-03-11 20:41:46 CET:[local]:postgres@postgres:[13566]:ERROR:  40P01: "
                       "deadlock detected");
  REQUIRE(p.ok);
  CHECK(*p.line.pid == 13566);
  CHECK(p.line.sqlstate == "40P01");
  CHECK(p.line.text == "deadlock detected");

  p = MatchWith("%h %m [%p] %u@%d ",
                "fd12:4cf1:ee2e:0:a000:4c:90f1:5ff0 2025-10-10 13:44:31.727 UTC [69654] "
                "supabase_admin@postgres LOG:  process 69654 acquired ShareLock");
  REQUIRE(p.ok);
  CHECK(p.session.host == "fd12:4cf1:ee2e:0:a000:4c:90f1:5ff0");
  CHECK(p.session.user == "supabase_admin");
  CHECK(*p.line.pid == 69654);
}

TEST_CASE("translated labels map to English", "[prefix]") {
  Parsed p = MatchWith("%m [%p] %q%u@%d ",
                       "2024-10-23 15:07:13.328 MSK [22870] postgres@testlock КОНТЕКСТ:  при "
                       "изменении кортежа");
  REQUIRE(p.ok);
  CHECK(p.line.label == PartLabel::kContext);
  p = MatchWith("%m [%p] ", "2024-10-23 15:07:43.352 MSK [23550] ОШИБКА:  x");
  REQUIRE(p.ok);
  CHECK(p.line.severity == "ERROR");
}

TEST_CASE("padding, %c, %x, %v, %e, %Q", "[prefix]") {
  Parsed p = MatchWith("%m %-8u%c %x %v %e [%Q] ",
                       "2026-12-02 10:00:00.123 UTC bob     5f1c2a3b.1a2b 748 3/12 40P01 [-46] "
                       "ERROR:  deadlock detected");
  REQUIRE(p.ok);
  CHECK(p.session.user == "bob");
  CHECK(p.session.session_id == "5f1c2a3b.1a2b");
  CHECK(*p.session.xid == 748);
  CHECK(p.session.vxid == "3/12");
  CHECK(p.line.sqlstate == "40P01");
  CHECK(*p.session.query_id == -46);
}

TEST_CASE("a line without the prefix does not match", "[prefix]") {
  CHECK_FALSE(MatchWith("%m [%p] ", "just some text").ok);
  CHECK_FALSE(MatchWith("%m [%p] ", "2026-12-02 10:00:00.123 UTC [12] UNKNOWN:  x").ok);
}

TEST_CASE("prefix detection picks the prefix of real excerpts", "[prefix]") {
  int matched = 0;
  auto p = DetectPrefix({"2022-02-17 16:27:06.567 UTC [2129] [queryid=0] postgres@stackoverflow "
                         "LOG:  process 2129 still waiting",
                         "2022-02-17 16:27:06.567 UTC [2129] [queryid=0] postgres@stackoverflow "
                         "DETAIL:  Process holding the lock: 2120. Wait queue: 2129."},
                        &matched);
  REQUIRE(p);
  CHECK(*p == "%m [%p] [queryid=%Q] %u@%d ");
  CHECK(matched == 2);

  p = DetectPrefix({"2021-01-21 12:58:34.900 CET [4136] ERROR:  deadlock detected",
                    "2021-01-21 12:58:34.900 CET [4136] DETAIL:  Process 4136 waits",
                    "\tProcess 4178: x"},
                   &matched);
  REQUIRE(p);
  CHECK(*p == "%m [%p] ");

  p = DetectPrefix({"ERROR:  deadlock detected", "DETAIL:  Process 1 waits"}, &matched);
  REQUIRE(p);
  CHECK(*p == "");

  // Unknown layouts fall back to "any text, then the label", pid from [N].
  p = DetectPrefix({"myhost pg: <12:00> [77] LOG:  a", "myhost pg: <12:00> [77] DETAIL:  b"},
                   &matched);
  REQUIRE(p);
  CHECK(*p == "%*");
  Parsed q = MatchWith("%*", "myhost pg: <12:00> [77] LOG:  a");
  REQUIRE(q.ok);
  CHECK(*q.line.pid == 77);

  CHECK_FALSE(DetectPrefix({"hello", "world"}, &matched));
}

TEST_CASE("QuickPid reads the pid from the literal text around %p", "[prefix]") {
  std::string error;
  auto m = PrefixMatcher::Compile("%m [%p] %q%u@%d ", &error);
  REQUIRE(m);
  CHECK(m->QuickPid("2026-12-02 10:00:00.000 UTC [4211] app@shop ") == std::optional<int64_t>(4211));
  CHECK_FALSE(m->QuickPid("2026-12-02 10:00:00.000 UTC [x] "));
  auto rds = PrefixMatcher::Compile("%t:%r:%u@%d:[%p]:", &error);
  CHECK(rds->QuickPid("2020-03-11 20:41:46 CET:[local]:postgres@postgres:[13566]:") ==
        std::optional<int64_t>(13566));
  auto first = PrefixMatcher::Compile("%p %m ", &error);
  CHECK(first->QuickPid("77 2026-12-02 10:00:00.000 UTC ") == std::optional<int64_t>(77));
  auto glued = PrefixMatcher::Compile("%m%p", &error);
  CHECK_FALSE(glued->QuickPid("2026-12-02 10:00:00.000 UTC77"));
  auto none = PrefixMatcher::Compile("%m ", &error);
  CHECK_FALSE(none->QuickPid("2026-12-02 10:00:00.000 UTC "));
}

TEST_CASE("FindLabelStart: the first \"WORD:  \" of the first 512 bytes, on any line", "[prefix]") {
  // The plain definition, byte by byte, against the SIMD one on random
  // lines made of the bytes that matter (word ends, colons, spaces) and
  // others, of every length around the 16-byte steps and the 512-byte cut.
  auto reference = [](std::string_view line, std::string_view* word) -> size_t {
    std::string_view head = line.substr(0, 512);
    size_t colon = std::string_view::npos;
    for (size_t i = 0; i + 3 <= head.size(); ++i)
      if (head[i] == ':' && head[i + 1] == ' ' && head[i + 2] == ' ') {
        colon = i;
        break;
      }
    if (colon == std::string_view::npos || colon == 0) return std::string_view::npos;
    size_t start = colon;
    while (start > 0 && std::string_view(" ]:>").find(head[start - 1]) == std::string_view::npos)
      --start;
    *word = head.substr(start, colon - start);
    return start;
  };
  const std::string alphabet = "  ::]>\tLOGERRDTA\xc3\xa9x1[";
  uint64_t state = 42;
  auto next = [&] { return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
  size_t found = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string line;
    const size_t len = next() % (n % 10 == 0 ? 600 : 70);
    for (size_t i = 0; i < len; ++i) line += alphabet[next() % alphabet.size()];
    if (n % 2 && !line.empty()) line.insert(next() % line.size(), ":  ");  // a label's end
    std::string_view got_word, want_word;
    const size_t got = FindLabelStart(line, &got_word);
    const size_t want = reference(line, &want_word);
    INFO(line);
    REQUIRE(got == want);
    if (want != std::string_view::npos) {
      REQUIRE(got_word == want_word);
      ++found;
    }
  }
  CHECK(found > 8000);
  std::string_view word;
  CHECK(FindLabelStart("2026-12-05 10:00:00.123 UTC [7] u@d/psql STATEMENT:  x", &word) == 41u);
  CHECK(word == "STATEMENT");
  CHECK(FindLabelStart("LOG:  x", &word) == 0u);
  CHECK(word == "LOG");
  CHECK(FindLabelStart("[1]:>LOG:  x", &word) == 5u);
  CHECK(FindLabelStart(":  x", &word) == std::string_view::npos);
  CHECK(FindLabelStart("no label here", &word) == std::string_view::npos);
}
