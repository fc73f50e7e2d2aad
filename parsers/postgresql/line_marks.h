// The line ends and the label marks (":  ") of a block of stderr lines,
// found 64 bytes at a time in one pass over the block, so that the line
// loop asks a bit mask where a line ends and where its label is instead of
// searching each line twice (memchr, then FindLabelStart). Measured in
// docs/performance.md (the block's marks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace lockgraph {

/// Not thread-safe; reused block after block (its arrays keep their size).
class LineMarks {
 public:
  /// The instructions the masks are made with: the widest the processor
  /// has by default; tests ask for each in turn (a level the processor
  /// lacks falls back to the next below it).
  enum class Simd { kBest, kAvx512, kAvx2, kSse2 };
  explicit LineMarks(Simd simd = Simd::kBest) : simd_(simd) {}

  /// Marks `block`; the marks keep no pointer to it.
  void Scan(std::string_view block);

  /// Where the line that starts at `from` ends: its '\n', or the block's
  /// size when it has none.
  size_t LineEnd(size_t from) const {
    const size_t at = FirstBit(newline_, from, size_);
    return at == std::string_view::npos ? size_ : at;
  }

  /// The first ":  " that starts at or after `from` and ends at or before
  /// `end`, or npos: FindLabelStart's colon for the line [from, end).
  size_t FirstLabelMark(size_t from, size_t end) const {
    return end < from + 3 ? std::string_view::npos : FirstBit(label_, from, end - 2);
  }

 private:
  // The first set bit of `masks` at or after bit `from`, before bit `end`
  // (npos: none). Asked once or twice a line: inline.
  static size_t FirstBit(const std::vector<uint64_t>& masks, size_t from, size_t end) {
    if (from >= end) return std::string_view::npos;
    size_t w = from >> 6;
    uint64_t bits = masks[w] & (~uint64_t{0} << (from & 63));
    const size_t last = (end - 1) >> 6;
    while (!bits) {
      if (++w > last) return std::string_view::npos;
      bits = masks[w];
    }
    const size_t at = (w << 6) + size_t(__builtin_ctzll(bits));
    return at < end ? at : std::string_view::npos;
  }

  Simd simd_;
  size_t size_ = 0;
  std::vector<uint64_t> newline_;   // bit i of word w: byte 64w+i is '\n'
  std::vector<uint64_t> label_;     // bit i of word w: ":  " starts at 64w+i
};

}  // namespace lockgraph
