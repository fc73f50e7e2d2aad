// See pg_snapshot.h.
#include "parsers/postgresql/pg_snapshot.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "graph/blocking_trees.h"
#include "graph/wait_for_graph.h"
#include "parsers/postgresql/lock_conflicts.h"
#include "parsers/postgresql/pg_blocking.h"

namespace lockgraph {
namespace {

// Milliseconds from `earlier` to `later`, when both are timestamps.
std::optional<double> AgeMs(const std::string& later, const std::string& earlier) {
  auto a = PgTimestampMicros(later), b = PgTimestampMicros(earlier);
  if (!a || !b) return std::nullopt;
  return double(*a - *b) / 1000.0;
}

void DescribeActivity(const PgLockRow& r, const std::string& sampled_at, Backend* b) {
  b->state = r.state;
  b->backend_type = r.backend_type;
  if (!r.wait_event_type.empty()) b->wait_event = r.wait_event_type + ":" + r.wait_event;
  uint64_t xid = 0;
  auto res = std::from_chars(r.backend_xid.data(), r.backend_xid.data() + r.backend_xid.size(), xid);
  if (!r.backend_xid.empty() && res.ec == std::errc()) b->xid = xid;
  b->xact_age_ms = AgeMs(sampled_at, r.xact_start);
  b->state_age_ms = AgeMs(sampled_at, r.state_change);
  b->query = r.query;
  b->session.user = r.usename;
  b->session.database = r.datname;
  b->session.application = r.application_name;
  b->session.host = r.client_addr;
  b->session.backend_type = r.backend_type;
}

std::set<std::string> ContestedKeys(const std::vector<PgLockRow>& rows) {
  std::set<std::string> keys;
  for (const PgLockRow& r : rows)
    if (!r.granted) keys.insert(PgLockRowTarget(r).Key());
  return keys;
}

Event Base(EventType type, const PgSnapshot& s, const std::string& sampled_at) {
  Event ev;
  ev.type = type;
  ev.time = sampled_at;
  if (auto us = PgTimestampMicros(sampled_at)) ev.epoch_ms = *us / 1000;
  ev.source = s.source;
  ev.server = s.server;
  return ev;
}

}  // namespace

std::map<std::string, Backend> PgSnapshotBackends(const PgSnapshot& snapshot) {
  std::map<std::string, Backend> backends;
  const std::set<std::string> contested = ContestedKeys(snapshot.rows);
  for (const PgLockRow& r : snapshot.rows) {
    std::string id = PgRowProcessId(r);
    auto [it, inserted] = backends.try_emplace(id);
    Backend& b = it->second;
    if (inserted) {
      b.id = id;
      b.pid = r.pid;
      DescribeActivity(r, r.sampled_at, &b);
    }
    LockTarget target = PgLockRowTarget(r);
    if (!r.granted) {
      b.wait_mode = r.mode;
      b.wait_age_ms = AgeMs(r.sampled_at, r.waitstart);
      b.wait_lock = std::move(target);
    } else if (contested.count(target.Key())) {
      b.holds.push_back({r.mode, std::move(target)});
    }
  }
  for (auto& [id, b] : backends)
    std::stable_sort(b.holds.begin(), b.holds.end(), [](const HeldLock& x, const HeldLock& y) {
      if (x.lock.Key() != y.lock.Key()) return x.lock.Key() < y.lock.Key();
      return PgLockModeLevel(x.mode) > PgLockModeLevel(y.mode);
    });
  return backends;
}

PgSnapshotAnalysis AnalyzePgSnapshot(const PgSnapshot& snapshot) {
  const std::string sampled_at =
      snapshot.rows.empty() ? snapshot.sampled_at : snapshot.rows.front().sampled_at;
  PgSnapshotAnalysis out;
  out.backends = PgSnapshotBackends(snapshot);
  out.edges = PgBlockingEdges(snapshot.rows, snapshot.has_blocking_pids);
  const std::map<std::string, Backend>& backends = out.backends;
  const std::vector<WaitEdge>& edges = out.edges;
  std::vector<Event>& events = out.events;
  WaitForGraph graph;
  for (const WaitEdge& e : edges) graph.AddWait(e.waiter, e.mode, e.lock, e.blocker, e.basis);
  TreesAndCycles found = FindTreesAndCycles(graph, edges, backends);

  Event head = Base(EventType::kSnapshot, snapshot, sampled_at);
  SnapshotInfo info;
  info.sampled_at = sampled_at;
  info.blocking = snapshot.has_blocking_pids ? "pg_blocking_pids" : "conflict_matrix";
  info.locks = snapshot.rows.size();
  info.backends = backends.size();
  for (const auto& [id, b] : backends) info.waiting += !b.wait_mode.empty();
  info.chains = found.trees.size();
  info.cycles = found.cycles.size();
  info.poll_ms = snapshot.poll_ms;
  head.snapshot = std::move(info);
  events.push_back(std::move(head));
  for (WaitCycle& c : found.cycles) {
    Event ev = Base(EventType::kCycle, snapshot, sampled_at);
    ev.pid = c.members.front().pid;
    ev.cycle = std::move(c);
    events.push_back(std::move(ev));
  }
  for (BlockingTree& t : found.trees) {
    Event ev = Base(EventType::kChain, snapshot, sampled_at);
    ev.pid = t.members.front().backend.pid;
    ev.chain = std::move(t);
    events.push_back(std::move(ev));
  }
  return out;
}

void PgSnapshotCollector::Add(PgLockRow&& row, uint64_t last_line) {
  if (!current_.rows.empty() && row.sampled_at != current_.rows.front().sampled_at) Break();
  if (current_.rows.empty()) current_.source.first_line = row.line;
  current_.source.last_line = last_line;
  current_.rows.push_back(std::move(row));
}

void PgSnapshotCollector::Break() {
  if (current_.rows.empty()) return;
  current_.source.file = file_;
  current_.has_blocking_pids = has_blocking_pids_;
  for (Event& ev : AnalyzePgSnapshot(current_).events) sink_.OnEvent(std::move(ev));
  current_ = PgSnapshot();
}

}  // namespace lockgraph
