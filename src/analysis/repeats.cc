// See repeats.h.
#include "analysis/repeats.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "analysis/log_time.h"

namespace lockgraph {

std::string RepeatKey(const Event& ev) {
  if (ev.deadlock) {
    std::optional<int64_t> ms = LogClockMs(ev.time);
    if (!ms || ev.deadlock->edges.empty()) return {};
    std::vector<std::string> edges;
    for (const WaitEdge& e : ev.deadlock->edges)
      edges.push_back(e.waiter + ">" + e.blocker + " " + e.mode + " " + e.lock.Key());
    std::sort(edges.begin(), edges.end());
    std::string key = "d|" + ev.engine + "|" + std::to_string(*ms / 1000) + "|" + ev.deadlock->victim;
    for (const std::string& e : edges) key += "|" + e;
    return key;
  }
  if (ev.lock_wait) {
    const LockWait& w = *ev.lock_wait;
    std::optional<int64_t> ms = LogClockMs(w.start_time);
    if (!ms) return {};
    return "w|" + ev.engine + "|" + std::to_string(*ms / 1000) + "|" + w.waiter + "|" + w.mode + "|" +
           w.lock.Key() + "|" + WaitOutcomeName(w.outcome);
  }
  return {};
}

std::optional<size_t> RepeatFilter::Repeats(const Event& event, size_t input) {
  std::string key = RepeatKey(event);
  if (key.empty()) return std::nullopt;
  auto [it, fresh] = first_input_.emplace(std::hash<std::string>{}(key), input);
  if (fresh || it->second == input) return std::nullopt;
  return it->second;
}

}  // namespace lockgraph
