// See wait_tracker.h.
#include "watch/wait_tracker.h"

#include <algorithm>
#include <set>

namespace lockgraph {
namespace {

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

bool SameLock(const Backend& a, const Backend& b) {
  return a.wait_mode == b.wait_mode && a.wait_lock.Key() == b.wait_lock.Key();
}

}  // namespace

std::vector<Event> WaitTracker::Update(const std::map<std::string, Backend>& backends,
                                       const std::vector<WaitEdge>& edges,
                                       const std::vector<Event>& events) {
  std::vector<Event> out;
  if (events.empty() || !events.front().snapshot) return out;
  UpdateWaits(backends, edges, events.front(), &out);
  UpdateShapes(events, events.front(), &out);
  first_ = false;
  return out;
}

// The process still runs the statement it waited in at the last poll: its
// state has not changed since (state_change is older than the last poll),
// or, when the ages are unknown, it shows the same query.
bool WaitTracker::SameStatement(const Wait& old, const Backend& now, std::optional<int64_t> now_us) {
  if (now.state_age_ms && old.sampled_us && now_us)
    return *now.state_age_ms * 1000 >= double(*now_us - *old.sampled_us);
  return now.query == old.waiter.query && now.state == old.waiter.state;
}

// How long it waited, at most, until `now_us`: the earlier locks of its
// statement, its age at the last poll, and the time since.
std::optional<double> WaitTracker::WaitedUntil(const Wait& old, std::optional<int64_t> now_us) {
  if (!old.carried_ms || !old.waiter.wait_age_ms || !old.sampled_us || !now_us) return std::nullopt;
  return *old.carried_ms + *old.waiter.wait_age_ms + double(*now_us - *old.sampled_us) / 1000;
}

void WaitTracker::UpdateWaits(const std::map<std::string, Backend>& backends,
                              const std::vector<WaitEdge>& edges, const Event& head,
                              std::vector<Event>* out) {
  std::optional<int64_t> now_us;
  if (head.epoch_ms) now_us = *head.epoch_ms * 1000;
  std::map<std::string, Wait> waits;
  std::vector<Event> changed, started;
  std::set<std::string> ended;  // waited at the last poll, and that wait is over
  for (const auto& [id, old] : waits_)
    if (!backends.count(id) || backends.at(id).wait_mode.empty()) ended.insert(id);
  for (const auto& [id, b] : backends) {
    if (b.wait_mode.empty()) continue;
    Wait w{b, now_us};
    auto old = waits_.find(id);
    if (old != waits_.end() && SameStatement(old->second, b, now_us)) {
      w.carried_ms = old->second.carried_ms;
      if (SameLock(old->second.waiter, b)) {
        waits[id] = std::move(w);
        continue;
      }
      std::optional<double> total = WaitedUntil(old->second, now_us);
      w.carried_ms = total && b.wait_age_ms ? std::optional<double>(std::max(0.0, *total - *b.wait_age_ms))
                                            : std::nullopt;
      Event ev = WaitEvent(EventType::kWaitChanged, head, b, edges);
      ev.wait_change->previous_mode = old->second.waiter.wait_mode;
      ev.wait_change->previous_lock = old->second.waiter.wait_lock;
      ev.wait_change->waited_ms = total;
      changed.push_back(std::move(ev));
    } else {
      if (old != waits_.end()) ended.insert(id);  // another statement waits now
      started.push_back(WaitEvent(EventType::kWaitStarted, head, b, edges));
    }
    waits[id] = std::move(w);
  }
  for (const std::string& id : ended) {
    const Wait& old = waits_.at(id);
    Event ev = WaitEvent(EventType::kWaitEnded, head, old.waiter, {});
    ev.wait_change->waited_ms = WaitedUntil(old, now_us);
    out->push_back(std::move(ev));
  }
  for (Event& ev : changed) out->push_back(std::move(ev));
  for (Event& ev : started) out->push_back(std::move(ev));
  waits_ = std::move(waits);
}

void WaitTracker::UpdateShapes(const std::vector<Event>& events, const Event& head,
                               std::vector<Event>* out) {
  std::map<std::string, Seen> chains, cycles;
  std::vector<Event> fresh;
  std::string shape;
  for (const Event& ev : events) {
    if (ev.chain && !ev.chain->members.empty()) {
      const std::string& root = ev.chain->members.front().backend.id;
      std::string s = ChainShape(*ev.chain);
      auto old = chains_.find(root);
      if (old == chains_.end() || old->second.shape != s) fresh.push_back(ev);
      shape += "chain " + s + "\n";
      chains[root] = {std::move(s), ev};
    } else if (ev.cycle) {
      std::string s = EdgesShape(ev.cycle->edges);
      if (!cycles_.count(s)) fresh.push_back(ev);
      shape += "cycle " + s + "\n";
      cycles[s] = {s, ev};
    }
  }
  for (auto* seen : {&chains_, &cycles_})
    for (const auto& [key, old] : *seen) {
      if ((seen == &chains_ ? chains : cycles).count(key)) continue;
      Event ev = old.event;
      ev.type = seen == &chains_ ? EventType::kChainEnded : EventType::kCycleEnded;
      ev.time = head.time;
      ev.epoch_ms = head.epoch_ms;
      ev.source = head.source;
      out->push_back(std::move(ev));
    }
  for (Event& ev : fresh) out->push_back(std::move(ev));
  chains_ = std::move(chains);
  cycles_ = std::move(cycles);
  shape_changed_ = first_ || shape != shape_;
  shape_ = std::move(shape);
}

}  // namespace lockgraph
