// The shape shared by the PostgreSQL record readers of the structured
// layouts (csvlog, jsonlog, syslog): physical lines in, whole LogRecords out
// through callbacks, so that tests can read records without an event
// builder. RecordReaderParser (record_reader_parser.h) adapts any of them
// to LineParser.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "model/log_record.h"
#include "parsers/input_format.h"

namespace lockgraph {

/// Where a record reader delivers its output. Every callback may be empty
/// (then that output is dropped); none may throw.
struct RecordCallbacks {
  /// One whole record, in input order of its first line.
  std::function<void(LogRecord&&)> on_record;
  /// One input line that belongs to no record (also counted as unparsed).
  std::function<void(uint64_t line_no, std::string_view text)> on_unparsed;
  std::function<void(Diagnostic&&)> on_diagnostic;
  /// Decides from the primary message whether the parts (detail, hint,
  /// context, statement) and the session are worth copying; records it
  /// rejects are delivered with time, pid, severity, sqlstate and message
  /// only, or not at all when `deliver_uninteresting` is false (their lines
  /// still count as parsed). Empty: keep everything.
  std::function<bool(std::string_view message)> interesting;
  /// Decides whether a DETAIL whose primary line is missing from the input
  /// still makes a record (RecordAssembler, syslog). Empty: it does not.
  std::function<bool(std::string_view detail)> orphan_detail;
  /// Default true. The csvlog and jsonlog readers honour it; the syslog
  /// reader leaves it to its RecordAssembler, which always delivers.
  bool deliver_uninteresting = true;
};

}  // namespace lockgraph
