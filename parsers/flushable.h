// The pause of a growing input (`lockgraph follow`, and `analyze` reading a
// pipe): a LineParser that holds records open across lines also implements
// FlushableParser, so that a record can leave when the log goes quiet
// instead of waiting for the next line. Kept out of input_format.h: most
// parsers never hold a record. docs/follow.md#latency, docs/cli.md.
#pragma once

#include "parsers/input_format.h"

namespace lockgraph {

/// How long an input stays quiet at a line boundary before its open records
/// leave: `lockgraph follow --quiet`'s default, and `analyze`'s pipes.
constexpr int kQuietFlushMs = 50;

/// What a pause closes.
enum class FlushMode {
  /// Every open record, unflagged (follow: the pause is the record's end).
  kAll,
  /// analyze: the output must be the same whether or not the input paused.
  /// Every open record leaves but one that the end of input would flag as
  /// cut (the last record, an ERROR that stops before its HINT): it stays
  /// open until more lines or the end come. A reader whose pause would
  /// change what it reports (the ordering window of a cloud export) does
  /// nothing.
  kSameOutput,
};

class FlushableParser {
 public:
  virtual ~FlushableParser() = default;
  /// The input paused at a line boundary. PostgreSQL writes each message
  /// whole (one write(), all of its lines), so a record still open is
  /// complete: deliver it now (see FlushMode). Unlike LineParser::Finish(),
  /// lock waits stay open and parsing goes on.
  virtual void Flush(FlushMode mode) = 0;
};

/// Flushes `parser` when it holds records open; nothing for the others
/// (csvlog, jsonlog: a record leaves with its last line).
inline void FlushParser(LineParser& parser, FlushMode mode = FlushMode::kAll) {
  if (auto* f = dynamic_cast<FlushableParser*>(&parser)) f->Flush(mode);
}

}  // namespace lockgraph
