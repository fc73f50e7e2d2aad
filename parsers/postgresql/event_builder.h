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
  /// this message can yield an event (deadlock, lock wait, lock timeout...).
  /// Readers use it to skip assembling the parts of uninteresting records.
  static bool IsInteresting(std::string_view message);

  /// Takes one whole record. Records of other messages are ignored, except
  /// that they tell the lock-wait tracker the backend moved on.
  void OnRecord(LogRecord&& record);
  /// End of input: waits still open end with outcome "unknown".
  void Finish();

 private:
  /// Names relations where it can, then hands the event to the sink.
  void Emit(Event&& event);

  ParseSink& sink_;
  std::unique_ptr<RelationNames> names_;
  std::unique_ptr<LockWaitTracker> waits_;
};

}  // namespace lockgraph
