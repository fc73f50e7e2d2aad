// Pairs the log_lock_waits reports of each backend into one LockWait with a
// start, an end and an outcome, and computes each wait's blocking chain from
// the waits open at the moment it is first reported.
// Algorithm: docs/postgresql.md#lock-waits.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>

#include "model/event.h"
#include "model/log_record.h"
#include "parsers/postgresql/messages.h"

namespace lockgraph {

class LockWaitTracker {
 public:
  using Emit = std::function<void(Event&&)>;
  explicit LockWaitTracker(Emit emit) : emit_(std::move(emit)) {}

  /// A lock-wait report `msg` read from `record`.
  void OnReport(const LockWaitMessage& msg, const LogRecord& record);
  /// Any other record of a backend: ends that backend's open wait, with an
  /// outcome read from the record (lock timeout, cancel, deadlock...).
  void OnOtherRecord(const LogRecord& record);
  /// End of input: open waits end with outcome "unknown".
  void Finish();
  size_t open_waits() const { return open_.size(); }

 private:
  struct Open {
    Event event;  // type kLockWait, lock_wait set
  };
  void Start(const LockWaitMessage& msg, const LogRecord& record);
  void Close(int64_t pid, WaitOutcome outcome, const LogRecord* ender);
  std::vector<int64_t> ChainFrom(int64_t pid, const std::vector<int64_t>& holders) const;

  Emit emit_;
  std::map<int64_t, Open> open_;  // by pid; ordered for deterministic Finish
};

/// The outcome a non-wait record implies for its backend's open wait, or
/// nullopt when the record says nothing about it.
std::optional<WaitOutcome> OutcomeOfRecord(const LogRecord& record);

}  // namespace lockgraph
