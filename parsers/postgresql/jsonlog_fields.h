// What a jsonlog line's keys mean, shared by the two JSON parsers of the
// jsonlog reader (simdjson's On-Demand API first, nlohmann's SAX parser for
// whatever simdjson's path declines): the key table, and the writes of a
// value into a LogRecord, so that both parsers fill records identically.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/log_record.h"

namespace lockgraph {

/// A key of jsonlog (reference §6.4) or of CloudNativePG's "record" object.
enum class JsonlogKey {
  kNone, kTime, kUser, kDatabase, kPid, kHost, kPort, kSessionId, kLineNum,
  kCommandTag, kVxid, kXid, kSeverity, kSqlstate, kMessage, kDetail, kHint,
  kContext, kStatement, kApplication, kBackendType, kQueryId,
};

/// The field a key names; kNone for every other key (ignored).
JsonlogKey LookupJsonlogKey(std::string_view name);

/// Empties every field of *r that a jsonlog line can set (each string keeps
/// its capacity), and the flags; `source` is left alone.
void ClearJsonlogRecord(LogRecord* r);

/// Writes the values of one line into a LogRecord, key by key, in the order
/// the line gives them (the last of duplicate keys wins). Copyable; holds a
/// pointer to the record, which must outlive it. Not thread-safe.
class JsonlogFieldWriter {
 public:
  explicit JsonlogFieldWriter(LogRecord* r) : r_(r) {}

  /// A string value, or the text of a number that is not an int64.
  void Text(JsonlogKey key, std::string_view v);
  /// An integer value (a number without fraction or exponent that fits int64).
  void Integer(JsonlogKey key, int64_t v);
  /// After the whole line: a record needs a timestamp and a message; fills
  /// the defaults (sqlstate "00000" when absent, host:port, the canonical
  /// severity). Returns whether the line was a record.
  bool Finish();

 private:
  std::string* TextField(JsonlogKey key);

  LogRecord* r_;
  bool has_time_ = false, has_message_ = false, has_sqlstate_ = false;
  std::string port_;
};

}  // namespace lockgraph
