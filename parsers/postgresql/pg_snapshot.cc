// See pg_snapshot.h.
#include "parsers/postgresql/pg_snapshot.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "graph/blocking_trees.h"
#include "graph/wait_for_graph.h"
#include "parsers/postgresql/lock_conflicts.h"
#include "parsers/postgresql/pg_blocking.h"
#include "parsers/postgresql/pg_row_index.h"

namespace lockgraph {
namespace {

// Milliseconds from `earlier` to `later`, when both are timestamps.
std::optional<double> AgeMs(std::string_view later, std::string_view earlier) {
  auto a = PgTimestampMicros(later), b = PgTimestampMicros(earlier);
  if (!a || !b) return std::nullopt;
  return double(*a - *b) / 1000.0;
}

void DescribeActivity(const PgLockRow& r, std::string_view sampled_at, Backend* b) {
  b->state = r.state;
  b->backend_type = r.backend_type;
  if (!r.wait_event_type.empty())
    b->wait_event = std::string(r.wait_event_type) + ":" + std::string(r.wait_event);
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

// Holds by lock key, then strongest mode first; stable. Keys are made once
// per lock, not in every comparison.
void SortHolds(std::vector<HeldLock>* holds) {
  if (holds->size() < 2) return;
  struct Sortable {
    std::string key;
    int level;
    HeldLock* lock;
  };
  std::vector<Sortable> order;
  order.reserve(holds->size());
  for (HeldLock& h : *holds) order.push_back({h.lock.Key(), PgLockModeLevel(h.mode), &h});
  std::stable_sort(order.begin(), order.end(), [](const Sortable& x, const Sortable& y) {
    if (x.key != y.key) return x.key < y.key;
    return x.level > y.level;
  });
  std::vector<HeldLock> sorted;
  sorted.reserve(holds->size());
  for (const Sortable& s : order) sorted.push_back(std::move(*s.lock));
  *holds = std::move(sorted);
}

// The lock of row `r` on its process: the one it waits for, or one it
// holds that someone waits for (`contested`).
void AddLock(const PgLockRow& r, bool contested, Backend* b) {
  if (!r.granted) {
    b->wait_mode = r.mode;
    b->wait_age_ms = AgeMs(r.sampled_at, r.waitstart);
    b->wait_lock = PgLockRowTarget(r);
  } else if (contested) {
    b->holds.push_back({std::string(r.mode), PgLockRowTarget(r)});
  }
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
  return PgSnapshotBackends(snapshot, IndexPgRows(snapshot.rows));
}

std::map<std::string, Backend> PgSnapshotBackends(const PgSnapshot& snapshot,
                                                  const PgRowIndex& index) {
  // The processes' first rows, then the map made in id order by appending
  // (no search of it per row, no Backend moved), then each row added.
  std::unordered_map<std::string_view, uint32_t> first_row;
  for (size_t i = 0; i < snapshot.rows.size(); ++i)
    first_row.try_emplace(index.process[i], uint32_t(i));
  std::vector<std::pair<std::string_view, uint32_t>> ids(first_row.begin(), first_row.end());
  std::sort(ids.begin(), ids.end());
  std::map<std::string, Backend> backends;
  std::unordered_map<std::string_view, Backend*> backend_of;
  backend_of.reserve(ids.size());
  for (const auto& [id, row] : ids) {
    auto it = backends.emplace_hint(backends.end(), std::string(id), Backend());
    Backend& b = it->second;
    const PgLockRow& r = snapshot.rows[row];
    b.id = it->first;
    b.pid = r.pid;
    DescribeActivity(r, r.sampled_at, &b);
    backend_of.emplace(it->first, &b);
  }
  for (size_t i = 0; i < snapshot.rows.size(); ++i)
    AddLock(snapshot.rows[i], index.contested[index.lock[i]], backend_of[index.process[i]]);
  for (auto& [id, b] : backends) SortHolds(&b.holds);
  return backends;
}

namespace {

// PgSnapshotBackends() that frees each row once read: the map grows as the
// rows go (searched once per row, where the other appends in id order).
std::map<std::string, Backend> TakeBackends(PgLockRows* rows, const PgRowIndex& index) {
  std::map<std::string, Backend> backends;
  for (size_t i = 0; !rows->empty(); ++i) {
    const PgLockRow& r = rows->front();
    auto [it, inserted] = backends.try_emplace(index.process[i]);
    if (inserted) {
      it->second.id = it->first;
      it->second.pid = r.pid;
      DescribeActivity(r, r.sampled_at, &it->second);
    }
    AddLock(r, index.contested[index.lock[i]], &it->second);
    rows->pop_front();
  }
  for (auto& [id, b] : backends) SortHolds(&b.holds);
  return backends;
}

// AnalyzePgSnapshot(); when `rows_read` is given (the snapshot's own rows),
// they are freed as the backends are made from them (after the edges),
// before the trees and events are: the rows of a 100,000-waiter snapshot and its
// events need not be held at the same time. The result then has only the
// events: its backends and edges were moved into them.
PgSnapshotAnalysis Analyze(const PgSnapshot& snapshot, PgLockRows* rows_read) {
  const std::string sampled_at =
      snapshot.rows.empty() ? snapshot.sampled_at : std::string(snapshot.rows.front().sampled_at);
  const uint64_t locks = snapshot.rows.size();
  PgSnapshotAnalysis out;
  WaitForGraph graph;
  {
    const PgRowIndex index = IndexPgRows(snapshot.rows);
    std::vector<WaitEdge> edges = PgBlockingEdges(snapshot.rows, index, snapshot.has_blocking_pids);
    out.backends = rows_read ? TakeBackends(rows_read, index) : PgSnapshotBackends(snapshot, index);
    if (rows_read) PgLockRows().swap(*rows_read);
    // Made after the rows are gone, not beside them. The graph takes the
    // edges over (no copy) and hands them back below.
    graph.AddWaits(std::move(edges));
  }
  const std::map<std::string, Backend>& backends = out.backends;
  std::vector<Event>& events = out.events;
  uint64_t waiting = 0;
  for (const auto& [id, b] : backends) waiting += !b.wait_mode.empty();
  const uint64_t backend_count = backends.size();
  // Without a caller for them (rows_read), the backends and edges move into
  // the trees and cycles instead of being copied there.
  TreesAndCycles found =
      rows_read ? TakeTreesAndCycles(graph, graph.ReleaseEdges(), std::move(out.backends))
                : FindTreesAndCycles(graph, graph.edges(), backends);
  if (rows_read) out.backends.clear();
  else out.edges = graph.ReleaseEdges();

  Event head = Base(EventType::kSnapshot, snapshot, sampled_at);
  SnapshotInfo info;
  info.sampled_at = sampled_at;
  info.blocking = snapshot.has_blocking_pids ? "pg_blocking_pids" : "conflict_matrix";
  info.locks = locks;
  info.backends = backend_count;
  info.waiting = waiting;
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

}  // namespace

PgSnapshotAnalysis AnalyzePgSnapshot(const PgSnapshot& snapshot) {
  return Analyze(snapshot, nullptr);
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
  for (Event& ev : Analyze(current_, &current_.rows).events) {
    sink_.OnEvent(std::move(ev));
    // A sink need not take the event: free it (its tree, and the findings
    // the rules added) now, not after the last of a snapshot's trees.
    ev = Event();
  }
  current_ = PgSnapshot();
}

}  // namespace lockgraph
