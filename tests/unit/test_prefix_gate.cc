// PrefixMatcher::Match asks its label gate (the prefix, a run of label
// characters, a colon) before the full regex (the prefix and every
// language's labels), which then is compiled only for lines that pass:
// DetectPrefix no longer compiles it for the prefixes that lose. The gate
// must let through every line the full regex matches: checked on every
// line of samples/ and tests/corpus/ and on made-up lines of every known
// label after prefix texts, for the known prefixes and odd ones.
#include <catch2/catch.hpp>
#include <re2/re2.h>

#include <random>
#include <string>
#include <vector>

#include "parsers/postgresql/labels.h"
#include "parsers/postgresql/prefix.h"
#include "support.h"

using namespace lockgraph;

namespace {

bool MatchesAtStart(const RE2& re, const std::string& line) {
  return re.Match(line, 0, line.size(), RE2::ANCHOR_START, nullptr, 0);
}

// Every word of LabelAlternation(), unescaped (RE2::QuoteMeta escapes with
// a backslash; UTF-8 stays as it is).
std::vector<std::string> LabelWords() {
  std::vector<std::string> words(1);
  const std::string& alternation = LabelAlternation();
  for (size_t i = 0; i < alternation.size(); ++i) {
    if (alternation[i] == '|') {
      words.emplace_back();
    } else if (alternation[i] == '\\' && i + 1 < alternation.size()) {
      words.back() += alternation[++i];
    } else {
      words.back() += alternation[i];
    }
  }
  return words;
}

const std::vector<std::string>& Prefixes() {
  static const std::vector<std::string> prefixes = [] {
    std::vector<std::string> all = KnownPrefixes();
    for (const char* odd : {"%*", "%-10m [%p] ", "%m%q [%p] ", "%%%m ", "[%p] %m ",
                            "%t:%r:%u@%d:[%p]:", "%p%l ", "%u%d ", "%m: "})
      all.push_back(odd);
    return all;
  }();
  return prefixes;
}

// Lines of a prefix text, a label and what follows it, as servers in every
// language write them and as pastes leave them.
std::vector<std::string> MadeUpLines() {
  static const std::vector<std::string> heads = {
      "", "2026-11-29 08:09:34.001 UTC ", "2026-11-29 08:09:34 CET [12345] ",
      "2026-11-29 08:09:34.001 UTC [10045] app@shop/worker ", "< 2026-11-29 08:09:34.001 UTC > ",
      "2026-11-29 08:09:34 UTC:10.0.0.1(5432):app@shop:[77]:", "[12345] ", "  ",
      "2026-11-29 08:09:34 UTC [9]: [3-1] user=a,db=b,app=c,client=d ", "é ", "x:",
      "2026-11-29 08:09:34 UTC [9]: [3-1] ", "2026-11-29 08:09:34 UTC [9]: user=a,db=b,app=c,client=d ",
      "2026-11-29 08:09:34.001 UTC [9]: [3-1] user=a,db=b,app=c,client=d ",
      "2026-11-29 08:09:34 UTC [9]: [3-1] db=b,user=a,app=c,client=d ",
      "db=b,user=a,app=c,client=d ", "2026-11-29 08:09:34.001 UTC a b [12] ",
      "[12345] 2026-11-29 08:09:34.001 UTC ", "2026-11-29 08:09:34.001 UTC: ",
      "%2026-11-29 08:09:34.001 UTC ", "123453 ", "2026-11-29 08:09:34.001 UTC 0 "};
  static const std::vector<std::string> tails = {":  text", " :  text", ":", ":x", "  :  t",
                                                  ":  40P01: deadlock detected"};
  std::vector<std::string> lines;
  for (const std::string& word : LabelWords())
    for (const std::string& head : heads)
      for (const std::string& tail : tails) lines.push_back(head + word + tail);
  std::mt19937 rng(20261207);
  const std::vector<std::string> words = LabelWords();
  std::uniform_int_distribution<size_t> pick(0, words.size() - 1);
  for (int i = 0; i < 20000; ++i)
    lines.push_back(heads[i % heads.size()] + words[pick(rng)] + " " + words[pick(rng)] +
                    tails[i % tails.size()]);
  return lines;
}

}  // namespace

TEST_CASE("The label gate lets through every line the full regex matches", "[prefix]") {
  std::vector<std::string> lines = test::SampleTextLines(2000);
  REQUIRE(lines.size() > 5000);
  const std::vector<std::string> made_up = MadeUpLines();
  lines.insert(lines.end(), made_up.begin(), made_up.end());
  for (const std::string& prefix : Prefixes()) {
    auto m = PrefixMatcher::Compile(prefix, nullptr);
    REQUIRE(m);
    INFO("prefix '" << prefix << "'");
    REQUIRE(m->label_gate().ok());
    REQUIRE(m->full_regex().ok());
    size_t full = 0, gate = 0;
    for (const std::string& line : lines) {
      const bool by_full = MatchesAtStart(m->full_regex(), line);
      const bool by_gate = MatchesAtStart(m->label_gate(), line);
      full += by_full;
      gate += by_gate;
      if (by_full && !by_gate) FAIL_CHECK("the gate refuses '" << line << "'");
    }
    CHECK(full > 0);
    CHECK(gate >= full);
  }
}

TEST_CASE("The label gate refuses the lines of another prefix", "[prefix]") {
  // What ends a prefix or follows it is not a label character.
  RE2 label_char(LabelCharClass());
  REQUIRE(label_char.ok());
  for (const char* c : {"[", "]", "@", "/", "=", ",", "0", "6", ":", "<", ">", "(", ")"})
    CHECK_FALSE(RE2::FullMatch(c, label_char));
  for (const char* c : {"A", "Z", "1", "5", " ", "é", "错", "О"}) CHECK(RE2::FullMatch(c, label_char));

  // What DetectPrefix meets: lockgraph's own sample lines tried under the
  // prefixes that lose. Their full regexes are never compiled there.
  auto m = PrefixMatcher::Compile("%m ", nullptr);
  REQUIRE(m);
  const std::string line =
      "2026-11-29 08:09:34.001 UTC [10045] shop_app@shop/checkout-worker LOG:  duration: 0.363 ms";
  CHECK_FALSE(MatchesAtStart(m->label_gate(), line));
  PrefixedLine out;
  SessionInfo session;
  CHECK_FALSE(m->Match(line, &out, &session));
  CHECK(m->Match("2026-11-29 08:09:34.001 UTC LOG:  duration: 0.363 ms", &out, &session));
  CHECK(out.severity == "LOG");
  // A translated label still passes: any character beyond ASCII may be one.
  CHECK(MatchesAtStart(m->label_gate(), "2026-11-29 08:09:34.001 UTC ОШИБКА:  взаимоблокировка"));
  CHECK(MatchesAtStart(m->label_gate(), "2026-11-29 08:09:34.001 UTC 错误:  检测到死锁"));
}
