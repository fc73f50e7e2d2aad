// The hand scans of parsers/postgresql/message_scan.h answer only with
// what their regexes capture, byte for byte (the same place and length of
// each group): on the text after every label of every line of samples/ and
// tests/corpus/, and on those texts changed at random with the pieces that
// make choices hard (the regexes' own words, digits, commas, dots, quotes,
// blanks, a newline, a UTF-8 letter). And they do answer for the lines the
// regexes match, so that RE2 is left only the odd ones.
#include <catch2/catch.hpp>
#include <re2/re2.h>

#include <random>
#include <string>
#include <vector>

#include "parsers/postgresql/message_scan.h"
#include "support.h"

using namespace lockgraph;

namespace {

bool Same(std::string_view scanned, const re2::StringPiece& regex) {
  return scanned.data() == regex.data() && scanned.size() == regex.size();
}

// The texts after "LABEL:  " (and each line of them), and made-up ones.
std::vector<std::string> Texts() {
  std::vector<std::string> texts;
  for (const std::string& line : test::SampleTextLines(4000)) {
    const size_t colon = line.find(":  ");
    texts.push_back(colon == std::string::npos ? line : line.substr(colon + 3));
  }
  // Shapes the samples lack: a queue rearranged, in and after the tag.
  for (const char* made : {
           "process 4 avoided deadlock for AccessExclusiveLock on relation 1 of database 2 by "
           "rearranging queue order after 1000.5 ms",
           "process 4 acquired ShareLock on by rearranging queue order after 3.25 ms",
           "process 4 acquired ShareLock on x by rearranging queue order after 3.25 ms at "
           "character 17",
           "process 4 still waiting for ShareLock on transaction 9 after 1 after 2.5 ms",
           "Processes holding the lock: 1, 2. Wait queue: .",
           "while locking tuple (0,1) in relation \"a \" b\""})
    texts.push_back(made);
  static const std::vector<std::string> pieces = {
      "Process ", "Processes", " waits for ", " on ", "; blocked by process ", ".", ",", " ",
      "  ", "12", "7", "ShareLock", "transaction 42", " holding the lock: ", " Wait queue: ",
      "while ", "updating", "locking", "checking uniqueness of", " tuple ", "(1,2)", "(",
      ")", " in relation \"", "\"", "process ", "still waiting for ", "acquired ",
      " by rearranging queue order", " after ", "1000.5", " ms", " at character 9", "\n",
      "\t", "é", "x"};
  std::mt19937 rng(20261206);
  const size_t real = texts.size();
  for (int i = 0; i < 40000; ++i) {
    std::string t = texts[rng() % real];
    for (int edits = 1 + int(rng() % 3); edits > 0; --edits) {
      const size_t at = t.empty() ? 0 : rng() % (t.size() + 1);
      const std::string& piece = pieces[rng() % pieces.size()];
      switch (rng() % 3) {
        case 0: t.insert(at, piece); break;
        case 1: t.erase(at, 1 + rng() % 4); break;
        default: t.replace(at, std::min<size_t>(piece.size(), t.size() - at), piece);
      }
    }
    texts.push_back(std::move(t));
  }
  return texts;
}

const std::vector<std::string>& AllTexts() {
  static const std::vector<std::string> texts = Texts();
  return texts;
}

}  // namespace

// Where `scan` answers, `re` matches the whole text with the same groups,
// field by field; and the scan answers for 95% of the texts `re` matches
// (more than `at_least` of them).
template <typename Result, size_t N>
void ExpectLikeRegex(const RE2& re, bool (*scan)(std::string_view, Result*),
                     std::string_view Result::*const (&fields)[N], size_t at_least) {
  size_t matched = 0, scanned = 0;
  for (const std::string& t : AllTexts()) {
    re2::StringPiece g[N + 1];  // [0] is the whole match
    const bool regex = re.Match(t, 0, t.size(), RE2::ANCHOR_BOTH, g, int(N + 1));
    Result s;
    const bool answered = scan(t, &s);
    matched += regex;
    scanned += answered;
    if (!answered) continue;
    INFO("'" << t << "'");
    REQUIRE(regex);
    for (size_t i = 0; i < N; ++i) {
      INFO("group " << i + 1);
      CHECK(Same(s.*fields[i], g[i + 1]));
    }
  }
  CHECK(matched > at_least);
  CHECK(scanned * 100 >= matched * 95);
}

TEST_CASE("ScanEdge captures what its regex captures", "[message_scan]") {
  static const RE2 kEdge(R"(Process (\d+) waits for (\S+) on (.+); blocked by process (\d+)\.)");
  static constexpr std::string_view EdgeScan::*kFields[] = {&EdgeScan::waiter, &EdgeScan::mode,
                                                            &EdgeScan::tag, &EdgeScan::blocker};
  ExpectLikeRegex(kEdge, &ScanEdge, kFields, 300);
}

TEST_CASE("ScanHolders captures what its regex captures", "[message_scan]") {
  static const RE2 kHolders(
      R"(Process(?:es)? holding the lock: ([\d, ]*)[.,] Wait queue: ([\d, ]*)\.)");
  static constexpr std::string_view HoldersScan::*kFields[] = {&HoldersScan::holders,
                                                               &HoldersScan::queue};
  ExpectLikeRegex(kHolders, &ScanHolders, kFields, 300);
  // A comma before " Wait queue": the run gives it back (RE2's order).
  HoldersScan s;
  const std::string comma = "Process holding the lock: 1, 2, Wait queue: 3.";
  REQUIRE(ScanHolders(comma, &s));
  CHECK(s.holders == "1, 2");
  CHECK(s.queue == "3");
}

TEST_CASE("ScanRowWait captures what its regex captures", "[message_scan]") {
  static const RE2 kRowWait(
      R"re(while (updating|deleting|locking|rechecking updated|inserting index|)re"
      R"re(checking uniqueness of|checking exclusion constraint on) tuple )re"
      R"re((\(\d+,\d+\)) in relation "(.*)")re");
  static constexpr std::string_view RowWaitScan::*kFields[] = {
      &RowWaitScan::action, &RowWaitScan::tuple, &RowWaitScan::relation};
  ExpectLikeRegex(kRowWait, &ScanRowWait, kFields, 100);
}

TEST_CASE("ScanTimedWait reads what the head and tail regexes read", "[message_scan]") {
  static const RE2 kHead(
      R"(process (\d+) (still waiting for|acquired|avoided deadlock for|)"
      R"(detected deadlock while waiting for|failed to acquire) (\S+) on )");
  static const RE2 kTail(
      R"((?: by rearranging queue order)? after (\d+)\.(\d+) ms(?: at character \d+)?$)");
  size_t matched = 0, scanned = 0;
  for (const std::string& t : AllTexts()) {
    re2::StringPiece head[4], tail[3];
    bool regex = kHead.Match(t, 0, t.size(), RE2::ANCHOR_START, head, 4);
    const size_t from = regex ? head[0].size() : 0;
    regex = regex && from < t.size() &&
            kTail.Match(t, from + 1, t.size(), RE2::UNANCHORED, tail, 3);
    TimedWaitScan s;
    const bool scan = ScanTimedWait(t, &s);
    matched += regex;
    scanned += scan;
    INFO("'" << t << "'");
    if (!scan) continue;
    REQUIRE(regex);
    CHECK(Same(s.pid, head[1]));
    CHECK(Same(s.verb, head[2]));
    CHECK(Same(s.mode, head[3]));
    CHECK(s.tag.data() == t.data() + from);
    CHECK(s.tag.data() + s.tag.size() == tail[0].data());
    CHECK(Same(s.ms, tail[1]));
    CHECK(Same(s.frac, tail[2]));
  }
  CHECK(matched > 300);
  CHECK(scanned * 100 >= matched * 95);
}
