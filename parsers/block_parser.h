// Parsing on every core: a LineParser whose format allows it also takes
// whole blocks of lines and parses the parts of each block at once, on
// several threads, with the same output as line by line. Kept out of
// input_format.h: only csvlog and jsonlog do it; stderr takes blocks only to
// walk its lines without a call through the reader for each.
// docs/performance.md#parallel-parsing.
#pragma once

#include <cstddef>
#include <string_view>

#include "parsers/input_format.h"

namespace lockgraph {

class BlockParser {
 public:
  virtual ~BlockParser() = default;
  /// Parse with `threads` threads at once from now on (1: on the caller's
  /// alone). Call before the first ParseBlock.
  virtual void UseThreads(unsigned threads) = 0;
  /// How many bytes a block should hold to keep every thread busy.
  virtual size_t BlockBytes() const = 0;
  /// `lines`: the input's next bytes, whole lines ('\n' after the last),
  /// but at the end of input (`at_end`), where the last line may lack it.
  /// Parses what it can and returns how many bytes it took, whole lines
  /// from the start; the caller passes the rest again, followed by more.
  /// It may take 0 bytes when one record is longer than the block, and
  /// takes everything at the end. Delivers exactly what ParseLine() for
  /// each line would have, in the same order. Do not mix with ParseLine().
  virtual size_t ParseBlock(std::string_view lines, bool at_end) = 0;
  /// False for a parser that reads its blocks on one thread whatever
  /// UseThreads() says: blocks are then only a faster way through a file's
  /// lines, and are worth taking with --threads 1 too.
  virtual bool ParsesOnThreads() const { return true; }
};

/// The parser's block interface, or null when it reads line by line only.
inline BlockParser* AsBlockParser(LineParser& parser) {
  return dynamic_cast<BlockParser*>(&parser);
}

}  // namespace lockgraph
