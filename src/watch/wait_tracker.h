// What changed between two polls of one server, as the events `watch
// --format ndjson` ships: wait_started, wait_ended, chains whose shape
// changed, new cycles. Also says whether the picture changed at all, so that
// piped text, json and dot print only polls that show something new.
// docs/watch.md#events.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
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
  /// waits for that lock, wait_started per process waiting for a lock it
  /// did not wait for at the last poll (on the first poll: every wait),
  /// then copies of the chain events whose shape is new and of the cycle
  /// events that are new. Waits are keyed by process, mode and lock.
  std::vector<Event> Update(const std::map<std::string, Backend>& backends,
                            const std::vector<WaitEdge>& edges, const std::vector<Event>& events);

  /// True when the last Update saw chains or cycles of another shape than
  /// the one before (members, edges, the root's state; never ages), or was
  /// the first.
  bool shape_changed() const { return shape_changed_; }

 private:
  struct Wait {
    Backend waiter;
    std::optional<int64_t> sampled_us;
  };
  std::map<std::string, Wait> waits_;       // by WaitKey
  std::map<std::string, std::string> chains_;  // root id -> shape
  std::set<std::string> cycles_;             // shapes
  std::string shape_;
  bool first_ = true;
  bool shape_changed_ = false;
};

}  // namespace lockgraph
