// What changed between two polls of one server, as the events `watch
// --format ndjson` ships: wait_started, wait_ended, chains whose shape
// changed, new cycles. Also says whether the picture changed at all, so that
// piped text, json and dot print only polls that show something new.
// docs/watch.md#events.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// One per server. Not thread-safe; copyable.
class WaitTracker {
 public:
  /// Takes one poll: its processes by id, its wait edges and its events
  /// (one `snapshot` first, then cycles and chains). Returns, in this order:
  /// wait_ended per process that waited at the last poll and no longer
  /// waits (or now runs another statement), and per process missing from
  /// the last poll that is still not waiting in the same statement (see
  /// below), stamped with the poll that missed it; wait_changed per process that
  /// still waits in the same statement but for another lock (its blocker
  /// went away and it queued behind the next holder: one wait, not two);
  /// wait_started per process waiting now that did not wait at the last
  /// poll (on the first poll: every wait); chain_ended per root blocker
  /// that no longer roots a chain and cycle_ended per cycle gone, each a
  /// copy of its last event stamped with this poll; then copies of the
  /// chain events whose shape is new and of the cycle events that are new.
  ///
  /// A process that waited and is missing from a poll may be between two
  /// locks of one statement: granted the first, not yet queued for the
  /// next (a tuple lock, then the new holder's transaction; the members of
  /// a multixact one by one). A snapshot lists only contested locks, so it
  /// shows such a process nowhere. Its wait_ended therefore waits for the
  /// next poll: waiting again in the same statement, it gets wait_changed
  /// (or nothing, on the same lock) and its wait goes on.
  std::vector<Event> Update(const std::map<std::string, Backend>& backends,
                            const std::vector<WaitEdge>& edges, const std::vector<Event>& events);

  /// The wait_ended events still held for processes missing from the last
  /// poll (see Update), for a watch that stops; afterwards there are none.
  std::vector<Event> Finish();

  /// True when the last Update saw chains or cycles of another shape than
  /// the one before (members, edges, the root's state; never ages), or was
  /// the first.
  bool shape_changed() const { return shape_changed_; }

 private:
  struct Wait {
    Backend waiter;                      // as last seen
    std::optional<int64_t> sampled_us;   // when last seen
    /// Time waited for earlier locks of the same statement (wait_changed);
    /// unknown when an age was.
    std::optional<double> carried_ms = 0.0;
  };
  struct Missing {
    Wait wait;    // as at the last poll that saw it
    Event ended;  // stamped with the poll that missed it
  };
  struct Seen {
    std::string shape;
    Event event;  // the last one, for its *_ended copy
  };
  static bool SameStatement(const Wait& old, const Backend& now, std::optional<int64_t> now_us);
  static std::optional<double> WaitedUntil(const Wait& old, std::optional<int64_t> now_us);
  static Event Ended(const Wait& old, const Event& head, std::optional<int64_t> now_us);
  static Wait WaitsOn(const Wait& old, const Backend& b, std::optional<int64_t> now_us,
                      const Event& head, const std::vector<WaitEdge>& edges, std::vector<Event>* changed);
  void UpdateWaits(const std::map<std::string, Backend>& backends,
                   const std::vector<WaitEdge>& edges, const Event& head, std::vector<Event>* out);
  void UpdateShapes(const std::vector<Event>& events, const Event& head, std::vector<Event>* out);

  std::map<std::string, Wait> waits_;   // by process id
  std::map<std::string, Missing> missing_;  // by process id: waited, then missing from the last poll
  std::map<std::string, Seen> chains_;  // by root blocker id
  std::map<std::string, Seen> cycles_;  // by shape
  std::string shape_;
  bool first_ = true;
  bool shape_changed_ = false;
};

}  // namespace lockgraph
