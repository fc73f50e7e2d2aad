// LineMarks (parsers/postgresql/line_marks.h) gives the line ends and the
// label marks a byte-by-byte search gives, with each of its instruction
// sets, on blocks of every length from 0 to 300 bytes and on random text
// made of the bytes it looks for ('\n', ':', ' ') and others, including
// marks that straddle two 64-byte words and the block's end. And
// CommonLabelBefore answers as LabelStartAt and LookupLabel do.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <string_view>

#include "parsers/postgresql/label_scan.h"
#include "parsers/postgresql/labels.h"
#include "parsers/postgresql/line_marks.h"

using namespace lockgraph;

namespace {

constexpr size_t kNone = std::string_view::npos;

size_t NaiveLineEnd(std::string_view s, size_t from) {
  const size_t at = s.find('\n', from);
  return at == kNone ? s.size() : at;
}

size_t NaiveLabelMark(std::string_view s, size_t from, size_t end) {
  for (size_t i = from; i + 3 <= end; ++i)
    if (s[i] == ':' && s[i + 1] == ' ' && s[i + 2] == ' ') return i;
  return kNone;
}

void CheckBlock(LineMarks& marks, const std::string& block) {
  marks.Scan(block);
  INFO("block of " << block.size() << " bytes: " << block);
  for (size_t from = 0; from <= block.size(); ++from) {
    REQUIRE(marks.LineEnd(from) == NaiveLineEnd(block, from));
    for (size_t end = from; end <= block.size(); end += 1 + end % 7)
      REQUIRE(marks.FirstLabelMark(from, end) == NaiveLabelMark(block, from, end));
  }
}

}  // namespace

TEST_CASE("LineMarks finds what a byte-by-byte search finds", "[stderr-blocks]") {
  std::mt19937 rng(7);
  const std::string alphabet = "\n:  ab:\n0";
  std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
  for (LineMarks::Simd simd : {LineMarks::Simd::kBest, LineMarks::Simd::kAvx512,
                               LineMarks::Simd::kAvx2, LineMarks::Simd::kSse2}) {
    LineMarks marks(simd);
    for (size_t n = 0; n <= 300; ++n) {
      std::string block;
      for (size_t i = 0; i < n; ++i) block += alphabet[pick(rng)];
      CheckBlock(marks, block);
    }
    // A mark across words 0 and 1 (its spaces at bytes 64 and 65), and one
    // whose second space would be past the block's end.
    CheckBlock(marks, std::string(63, 'x') + ":  LOG:  x\n");
    CheckBlock(marks, std::string(62, 'x') + ": ");
    CheckBlock(marks, std::string(61, 'x') + ":  ");
  }
}

TEST_CASE("LineMarks and LabelStartAt give FindLabelStart's answer on real lines", "[stderr-blocks]") {
  const std::string block =
      "2026-11-29 08:09:34.001 UTC [10045] shop_app@shop/checkout-worker LOG:  duration: 0.3 ms\n"
      "\t       a.balance,\n"
      "2026-11-29 08:09:34.007 UTC [10036] shop_app@shop/shop-api ERROR:  deadlock detected\n"
      "[1]:>LOG:  x\n"
      "no label here: at all\n"
      "LOG:  x";
  LineMarks marks;
  marks.Scan(block);
  for (size_t p = 0; p < block.size();) {
    const size_t nl = marks.LineEnd(p);
    const std::string_view line = std::string_view(block).substr(p, nl - p);
    const size_t colon = marks.FirstLabelMark(p, p + std::min(line.size(), kLabelSearchBytes));
    std::string_view word, want_word;
    const size_t got = LabelStartAt(line, colon == kNone ? kNone : colon - p, &word);
    const size_t want = FindLabelStart(line, &want_word);
    INFO(line);
    CHECK(got == want);
    if (want != kNone) CHECK(word == want_word);
    p = nl + 1;
  }
}

TEST_CASE("CommonLabelBefore answers as LabelStartAt and LookupLabel, wherever the colon is",
          "[stderr-blocks]") {
  size_t answered = 0;
  for (std::string_view line :
       {"2026-11-29 08:09:34.001 UTC [10045] shop_app@shop/checkout-worker LOG:  duration: 0.3 ms",
        "2026-11-29 08:09:34.007 UTC [10036] u@d/a STATEMENT:  INSERT INTO t VALUES (1)",
        "[1]:>DETAIL:  Process 1 waits", "LOG:  x", "ERROR:  y", "xLOG:  x", "]ERROR:  x",
        "LOG", "DETAIL", ":LOG", ">STATEMENT", "u@d/a ERRORS:  x", "a ERROR", " LOGLOG:  "}) {
    for (size_t colon = 0; colon <= line.size(); ++colon) {
      size_t start = 99;
      const LabelInfo* common = CommonLabelBefore(line, colon, &start);
      if (!common) continue;
      ++answered;
      std::string_view word;
      INFO(line << " | colon " << colon);
      REQUIRE(LabelStartAt(line, colon, &word) == start);
      const std::optional<LabelInfo> looked_up = LookupLabel(word);
      REQUIRE(looked_up);
      CHECK(looked_up->label == common->label);
      CHECK(looked_up->canonical == common->canonical);
    }
  }
  CHECK(answered == 13);  // counted by hand: every line but "xLOG:  x" once
}
