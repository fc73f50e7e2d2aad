// Turns assembled PostgreSQL log records into events: deadlock reports into
// Deadlock events, log_lock_waits reports into paired LockWait events.
// Every PostgreSQL input format (stderr, csvlog, jsonlog, syslog) feeds one
// of these; see docs/postgresql.md for the messages recognised.
#pragma once

#include <memory>

#include "model/log_record.h"
#include "parsers/input_format.h"

namespace lockgraph {

class LockWaitTracker;
class RelationNames;

class PgEventBuilder {
 public:
  explicit PgEventBuilder(ParseSink& sink);
  ~PgEventBuilder();
  PgEventBuilder(const PgEventBuilder&) = delete;
  PgEventBuilder& operator=(const PgEventBuilder&) = delete;

  /// Cheap test on the primary message text alone: true when a record with
  /// this message can yield an event or end a wait (deadlock, lock wait,
  /// lock timeout, cancel). Readers use it to skip the parts, and the stderr
  /// reader to skip whole records; OnRecord ignores the other records.
  static bool IsInteresting(std::string_view message) {
    // Inline for the most frequent record of a busy log, a duration of
    // log_min_duration_statement: the call cost more than the test.
    if (message.starts_with("duration: ")) return false;
    return IsInterestingOther(message);
  }

  /// True when a DETAIL opens with a deadlock report's first edge
  /// ("Process P waits for ..."): such a DETAIL is a deadlock even when the
  /// input lost the ERROR line before it.
  static bool IsOrphanDetail(std::string_view detail);

  /// Takes one whole record; records that are not IsInteresting() are
  /// ignored, so that every reader gives the same events.
  void OnRecord(LogRecord&& record);
  /// End of input: waits still open end with outcome "unknown".
  void Finish();
  /// Where the events go from now on (the stderr reader makes them on the
  /// sink's thread: ParseSink::Defer).
  void set_sink(ParseSink& sink) { sink_ = &sink; }

 private:
  /// IsInteresting() for a message that does not start with "duration: ".
  static bool IsInterestingOther(std::string_view message);

  /// Names relations where it can, then hands the event to the sink.
  void Emit(Event&& event);

  ParseSink* sink_;
  std::unique_ptr<RelationNames> names_;
  std::unique_ptr<LockWaitTracker> waits_;
};

}  // namespace lockgraph
