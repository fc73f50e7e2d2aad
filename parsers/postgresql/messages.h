// Parsers for the text of PostgreSQL lock messages: the deadlock DETAIL
// (edges, then one query per process), the five log_lock_waits messages and
// their holder/queue DETAIL, and CONTEXT frames. Pure functions, no state.
// Formats: shared/docs/reference/postgresql-logs.md §3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// The deadlock DETAIL read positionally (reference §10, pitfall 3): N
/// "waits for" lines, then N "Process P: query" entries in the same order.
struct DeadlockDetail {
  std::vector<WaitEdge> edges;          // as listed
  std::vector<Participant> processes;   // one per edge waiter, same order
  std::vector<std::string> problems;    // empty when the report is whole
};
/// What ParseDeadlockDetail expects after the edges.
struct DeadlockDetailOptions {
  /// The server log writes "Process P: query" lines after the edges (the
  /// default); a driver's copy of the DETAIL in client output has only the
  /// edges: false reads the edges and stops there, without a problem.
  bool queries_follow = true;
};
DeadlockDetail ParseDeadlockDetail(std::string_view detail,
                                   const DeadlockDetailOptions& options = {});

/// Rotates a listed cycle so that it starts at `victim`; checks that it is
/// closed (edge i's blocker is edge i+1's waiter, the last's the first's).
/// Adds to `problems` what does not hold; returns true when closed.
bool OrderCycleFromVictim(std::string_view victim, std::vector<WaitEdge>* edges,
                          std::vector<Participant>* processes,
                          std::vector<std::string>* problems);

/// One log_lock_waits (or log_lock_failures) message.
struct LockWaitMessage {
  std::string kind;  // still_waiting, acquired, avoided_deadlock,
                     // detected_deadlock, failed, could_not_obtain
  int64_t pid = 0;
  std::string mode;
  std::string tag;
  std::optional<double> after_ms;
};
std::optional<LockWaitMessage> ParseLockWaitMessage(std::string_view message);

/// The parts of an English timed lock-wait message, ParseLockWaitMessage's
/// first reading: what FullMatch of
///   process (\d+) (VERB) (\S+) on (.+?)(?: by rearranging queue order)?
///   after (\d+)\.(\d+) ms(?: at character \d+)?
/// captures, found in two: the head anchored at the start, the tail at its
/// leftmost start after the tag's first byte, anchored at the end; the lazy
/// tag is what lies between (without a '\n'). Views into `message`.
struct TimedWaitParts {
  std::string_view pid, verb, mode, tag, ms, frac;
};
std::optional<TimedWaitParts> MatchTimedWait(std::string_view message);

/// "Process(es) holding the lock: 1, 2. Wait queue: 3, 4." (never translated).
struct HolderList {
  std::vector<int64_t> holders;
  std::vector<int64_t> queue;
};
std::optional<HolderList> ParseHolderDetail(std::string_view detail);

/// Splits CONTEXT into frames, innermost first, and recognises row waits,
/// PL/pgSQL and SQL function frames and SPI statements, in English and in
/// the catalogue's translations (implemented in context_frames.cc).
std::vector<ContextFrame> ParseContext(std::string_view context);

/// True when a query looks cut at track_activity_query_size (default 1024).
bool LooksClipped(std::string_view query);

}  // namespace lockgraph
