// The same server run given twice: its stderr log and its csvlog (or the
// same file twice) hold the same deadlocks and lock waits. An event of one
// input that another input already gave (same victim or waiter pid, same
// second, same edges or lock) is a repeat: counted and shown once, and the
// analyzer says which input repeated which. Two servers' logs stay apart:
// their pids, times and locks do not all coincide. docs/postgresql.md#repeats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "model/event.h"

namespace lockgraph {

/// Keys of the deadlocks and lock waits seen so far; not thread-safe.
class RepeatFilter {
 public:
  /// The earlier input that already gave this event, or nullopt (first
  /// sight, an event of the same input, or one with no time to compare).
  /// Remembers the event's key for later inputs either way.
  std::optional<size_t> Repeats(const Event& event, size_t input);

 private:
  // Hash of the key -> the input that gave it first: 16 bytes an event.
  std::unordered_map<uint64_t, size_t> first_input_;
};

/// The key of a deadlock or lock wait: pid, time to the second, and its
/// edges (waiter, blocker, mode, lock) or its lock; empty when it has no
/// time lockgraph can read, or is of another type.
std::string RepeatKey(const Event& event);

}  // namespace lockgraph
