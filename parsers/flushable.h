// The pause of a growing input (`lockgraph follow`): a LineParser that
// holds records open across lines also implements FlushableParser, so that
// a record can leave when the log goes quiet instead of waiting for the
// next line. Kept out of input_format.h: most parsers never hold a record.
#pragma once

#include "parsers/input_format.h"

namespace lockgraph {

class FlushableParser {
 public:
  virtual ~FlushableParser() = default;
  /// The input paused at a line boundary. PostgreSQL writes each message
  /// whole (one write(), all of its lines), so a record still open is
  /// complete: deliver it now. Unlike LineParser::Finish(), lock waits
  /// stay open and parsing goes on.
  virtual void Flush() = 0;
};

/// Flushes `parser` when it holds records open; nothing for the others
/// (csvlog, jsonlog: a record leaves with its last line).
inline void FlushParser(LineParser& parser) {
  if (auto* f = dynamic_cast<FlushableParser*>(&parser)) f->Flush();
}

}  // namespace lockgraph
