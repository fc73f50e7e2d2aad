// Reads PostgreSQL jsonlog (15+, reference §6.4, pitfall 24) into
// LogRecords: one JSON object per line, absent keys omitted, state_code
// omitted for 00000. Also reads the CloudNativePG wrapper (§6.6), whose
// "record" object carries the csvlog columns as JSON strings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parsers/input_format.h"
#include "parsers/postgresql/record_reader.h"

namespace lockgraph {

enum class JsonLineKind {
  kNotObject,    // not JSON, or JSON but not an object
  kOtherObject,  // a JSON object without timestamp and message
  kRecord,       // a server log record: *record is filled
};

/// Parses one line into *record (every field reset first; its buffers are
/// reused). Keys of jsonlog and of a CloudNativePG "record" are read;
/// others are ignored. A record needs a timestamp and a message. Without
/// state_code (jsonlog omits it for 00000) sqlstate is "00000".
/// `record->source` is left alone. Never throws.
JsonLineKind ParseJsonlogLine(std::string_view line, LogRecord* record);

/// Streaming jsonlog reader: every line is one record (parsed) or unparsed.
/// Not thread-safe; not copyable.
class JsonlogReader {
 public:
  JsonlogReader(std::string file, RecordCallbacks callbacks);
  JsonlogReader(const JsonlogReader&) = delete;
  JsonlogReader& operator=(const JsonlogReader&) = delete;

  void ParseLine(std::string_view line, uint64_t line_no);
  void Finish() {}
  const LineCounts& counts() const { return counts_; }
  /// Every line is a record of its own: a block may be cut at any line
  /// (record_chunks.h), and no line is ever held.
  static bool MayStartRecord(std::string_view) { return true; }
  uint64_t pending_lines() const { return 0; }

 private:
  std::string file_;
  RecordCallbacks cb_;
  LogRecord scratch_;  // parse target reused for every line
  LineCounts counts_;
};

}  // namespace lockgraph
