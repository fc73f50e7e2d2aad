// See wait_tracker.h.
#include "watch/wait_tracker.h"

#include <algorithm>

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

Event WaitTracker::Ended(const Wait& old, const Event& head, std::optional<int64_t> now_us) {
  Event ev = WaitEvent(EventType::kWaitEnded, head, old.waiter, {});
  ev.wait_change->waited_ms = WaitedUntil(old, now_us);
  return ev;
}

// `b` waits on in the statement `old` waited in: for the same lock (nothing
// to say) or for another (wait_changed, into `changed`). Returns its wait.
WaitTracker::Wait WaitTracker::WaitsOn(const Wait& old, const Backend& b, std::optional<int64_t> now_us,
                                       const Event& head, const std::vector<WaitEdge>& edges,
                                       std::vector<Event>* changed) {
  Wait w{b, now_us, old.carried_ms};
  if (SameLock(old.waiter, b)) return w;
  std::optional<double> total = WaitedUntil(old, now_us);
  w.carried_ms = total && b.wait_age_ms ? std::optional<double>(std::max(0.0, *total - *b.wait_age_ms))
                                        : std::nullopt;
  Event ev = WaitEvent(EventType::kWaitChanged, head, b, edges);
  ev.wait_change->previous_mode = old.waiter.wait_mode;
  ev.wait_change->previous_lock = old.waiter.wait_lock;
  ev.wait_change->waited_ms = total;
  changed->push_back(std::move(ev));
  return w;
}

void WaitTracker::UpdateWaits(const std::map<std::string, Backend>& backends,
                              const std::vector<WaitEdge>& edges, const Event& head,
                              std::vector<Event>* out) {
  std::optional<int64_t> now_us;
  if (head.epoch_ms) now_us = *head.epoch_ms * 1000;
  auto waits_on = [&](const std::string& id, const Wait& old) {
    auto b = backends.find(id);
    return b != backends.end() && !b->second.wait_mode.empty() && SameStatement(old, b->second, now_us);
  };
  std::vector<Event> ended, changed, started;
  // Missing from the last poll and not waiting on now: the held wait_ended.
  for (auto& [id, m] : missing_)
    if (!waits_on(id, m.wait)) ended.push_back(std::move(m.ended));
  // Waited at the last poll: missing now (held), or waiting no more.
  std::map<std::string, Missing> missing;
  for (const auto& [id, old] : waits_)
    if (!backends.count(id)) missing[id] = {old, Ended(old, head, now_us)};
    else if (!waits_on(id, old)) ended.push_back(Ended(old, head, now_us));
  std::map<std::string, Wait> waits;
  for (const auto& [id, b] : backends) {
    if (b.wait_mode.empty()) continue;
    const Wait* old = nullptr;
    if (auto w = waits_.find(id); w != waits_.end()) old = &w->second;
    else if (auto m = missing_.find(id); m != missing_.end()) old = &m->second.wait;
    if (old && waits_on(id, *old)) {
      waits[id] = WaitsOn(*old, b, now_us, head, edges, &changed);
    } else {
      started.push_back(WaitEvent(EventType::kWaitStarted, head, b, edges));
      waits[id] = Wait{b, now_us};
    }
  }
  for (auto* events : {&ended, &changed, &started})
    for (Event& ev : *events) out->push_back(std::move(ev));
  waits_ = std::move(waits);
  missing_ = std::move(missing);
}

std::vector<Event> WaitTracker::Finish() {
  std::vector<Event> out;
  for (auto& [id, m] : missing_) out.push_back(std::move(m.ended));
  missing_.clear();
  return out;
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
