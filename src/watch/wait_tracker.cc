// See wait_tracker.h.
#include "watch/wait_tracker.h"

namespace lockgraph {
namespace {

std::string WaitKey(const Backend& b) { return b.id + "|" + b.wait_mode + "|" + b.wait_lock.Key(); }

std::string EdgesShape(const std::vector<WaitEdge>& edges) {
  std::string s;
  for (const WaitEdge& e : edges)
    s += e.waiter + ">" + e.blocker + " " + e.mode + " " + e.lock.Key() + " " +
         EdgeBasisName(e.basis) + ";";
  return s;
}

std::string ChainShape(const BlockingTree& t) {
  return t.members.front().backend.id + " " + t.members.front().backend.state + ": " +
         EdgesShape(t.edges);
}

Event WaitEvent(EventType type, const Event& snapshot, const Backend& waiter,
                const std::vector<WaitEdge>& edges) {
  Event ev;
  ev.type = type;
  ev.time = snapshot.time;
  ev.epoch_ms = snapshot.epoch_ms;
  ev.source = snapshot.source;
  ev.server = snapshot.server;
  ev.pid = waiter.pid;
  WaitChange change;
  change.waiter = waiter;
  for (const WaitEdge& e : edges)
    if (e.waiter == waiter.id) change.blocked_by.push_back(e.blocker);
  ev.wait_change = std::move(change);
  return ev;
}

}  // namespace

std::vector<Event> WaitTracker::Update(const std::map<std::string, Backend>& backends,
                                       const std::vector<WaitEdge>& edges,
                                       const std::vector<Event>& events) {
  std::vector<Event> out;
  if (events.empty() || !events.front().snapshot) return out;
  const Event& head = events.front();
  std::optional<int64_t> now_us;
  if (head.epoch_ms) now_us = *head.epoch_ms * 1000;

  std::map<std::string, Wait> waits;
  for (const auto& [id, b] : backends)
    if (!b.wait_mode.empty()) waits[WaitKey(b)] = {b, now_us};
  for (const auto& [key, old] : waits_) {
    if (waits.count(key)) continue;
    Event ev = WaitEvent(EventType::kWaitEnded, head, old.waiter, {});
    // It still waited at the last poll: at most its age then plus the time since.
    if (old.waiter.wait_age_ms && old.sampled_us && now_us)
      ev.wait_change->waited_ms = *old.waiter.wait_age_ms + double(*now_us - *old.sampled_us) / 1000;
    out.push_back(std::move(ev));
  }
  for (const auto& [key, w] : waits)
    if (!waits_.count(key)) out.push_back(WaitEvent(EventType::kWaitStarted, head, w.waiter, edges));
  waits_ = std::move(waits);

  std::map<std::string, std::string> chains;
  std::set<std::string> cycles;
  std::string shape;
  for (const Event& ev : events) {
    if (ev.chain && !ev.chain->members.empty()) {
      std::string s = ChainShape(*ev.chain);
      auto old = chains_.find(ev.chain->members.front().backend.id);
      if (old == chains_.end() || old->second != s) out.push_back(ev);
      chains[ev.chain->members.front().backend.id] = s;
      shape += "chain " + s + "\n";
    } else if (ev.cycle) {
      std::string s = EdgesShape(ev.cycle->edges);
      if (!cycles_.count(s)) out.push_back(ev);
      cycles.insert(s);
      shape += "cycle " + s + "\n";
    }
  }
  chains_ = std::move(chains);
  cycles_ = std::move(cycles);
  shape_changed_ = first_ || shape != shape_;
  shape_ = std::move(shape);
  first_ = false;
  return out;
}

}  // namespace lockgraph
