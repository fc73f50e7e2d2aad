// One assembled server log message: the primary line plus its DETAIL, HINT,
// CONTEXT and STATEMENT parts, whatever the input layout (stderr, csvlog,
// jsonlog, syslog). Format readers produce it; the PostgreSQL event builder
// (parsers/postgresql/event_builder.h) turns the interesting ones into events.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/event.h"

namespace lockgraph {

struct LogRecord {
  SourceSpan source;
  std::string time;             // %m / %t / log_time, as written
  std::optional<int64_t> pid;
  std::string severity;         // canonical English: LOG, ERROR, FATAL, ...
  std::string sqlstate;         // "40P01"; empty when the format has none
  std::string message;
  std::string detail;
  std::string hint;
  std::string context;
  std::string statement;
  SessionInfo session;
  /// The record was cut (end of input inside it, a missing part, an
  /// unterminated CSV quote): keep it, but say so.
  bool truncated = false;
  /// The record begins at a part (a DETAIL) whose primary line is not in
  /// the input: `message`, `severity` and `sqlstate` are empty.
  bool primary_missing = false;
};

}  // namespace lockgraph
