// See pg_snapshot.h.
#include "parsers/postgresql/pg_snapshot.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
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

// Milliseconds from `later` (already read) to `earlier`, when both are
// timestamps.
std::optional<double> AgeMs(std::optional<int64_t> later, std::string_view earlier) {
  const std::optional<int64_t> b = PgTimestampMicros(earlier);
  if (!later || !b) return std::nullopt;
  return double(*later - *b) / 1000.0;
}

void DescribeActivity(const PgLockRow& r, std::string_view sampled_at, Backend* b) {
  b->state = r.state;
  b->backend_type = r.backend_type;
  if (!r.wait_event_type.empty())
    b->wait_event = std::string(r.wait_event_type) + ":" + std::string(r.wait_event);
  uint64_t xid = 0;
  auto res = std::from_chars(r.backend_xid.data(), r.backend_xid.data() + r.backend_xid.size(), xid);
  if (!r.backend_xid.empty() && res.ec == std::errc()) b->xid = xid;
  const std::optional<int64_t> now = PgTimestampMicros(sampled_at);
  b->xact_age_ms = AgeMs(now, r.xact_start);
  b->state_age_ms = AgeMs(now, r.state_change);
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
    b->wait_age_ms = AgeMs(PgTimestampMicros(r.sampled_at), r.waitstart);
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

// The processes of a snapshot in id order (that of the backends' map), each
// with its rows in row order: what describing one needs, without a map.
struct ProcessRows {
  std::vector<std::string_view> ids;  // views into the index
  std::vector<uint32_t> begin;        // per process, then one more: into rows
  std::vector<uint32_t> rows;

  size_t size() const { return ids.size(); }
};

ProcessRows GroupByProcess(const PgRowIndex& index) {
  std::unordered_map<std::string_view, uint32_t> number;  // in order of first row
  std::vector<uint32_t> process_of(index.process.size());
  std::vector<std::string_view> seen;
  for (size_t i = 0; i < index.process.size(); ++i) {
    auto [it, inserted] = number.try_emplace(index.process[i], uint32_t(seen.size()));
    if (inserted) seen.push_back(index.process[i]);
    process_of[i] = it->second;
  }
  std::vector<uint32_t> order(seen.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return seen[a] < seen[b]; });
  std::vector<uint32_t> rank(seen.size());
  ProcessRows out;
  out.ids.reserve(seen.size());
  for (uint32_t k = 0; k < order.size(); ++k) {
    rank[order[k]] = k;
    out.ids.push_back(seen[order[k]]);
  }
  // A counting sort keeps row order within each process.
  out.begin.assign(seen.size() + 1, 0);
  for (uint32_t p : process_of) ++out.begin[rank[p] + 1];
  std::partial_sum(out.begin.begin(), out.begin.end(), out.begin.begin());
  out.rows.resize(process_of.size());
  std::vector<uint32_t> next(out.begin.begin(), out.begin.end() - 1);
  for (size_t i = 0; i < process_of.size(); ++i)
    out.rows[next[rank[process_of[i]]]++] = uint32_t(i);
  return out;
}

// Process `k` as its rows describe it: pg_stat_activity from its first
// row, the lock it waits for, its granted locks on contested objects.
Backend DescribeProcess(const PgLockRows& rows, const PgRowIndex& index, const ProcessRows& procs,
                        size_t k) {
  Backend b;
  const uint32_t first_row = procs.rows[procs.begin[k]];
  const PgLockRow first = rows[first_row];  // unpacked once, for its activity and its lock
  b.id = procs.ids[k];
  b.pid = first.pid;
  DescribeActivity(first, first.sampled_at, &b);
  AddLock(first, index.contested[index.lock[first_row]], &b);
  for (uint32_t j = procs.begin[k] + 1; j < procs.begin[k + 1]; ++j) {
    const uint32_t i = procs.rows[j];
    AddLock(rows[i], index.contested[index.lock[i]], &b);
  }
  SortHolds(&b.holds);
  return b;
}

// Processes that wait: whose last waiting row names a mode (the Backend's
// wait_mode), counted without describing them.
uint64_t CountWaiting(const PgRowIndex& index, const ProcessRows& procs) {
  uint64_t waiting = 0;
  for (size_t k = 0; k < procs.size(); ++k) {
    bool names_mode = false;
    for (uint32_t j = procs.begin[k]; j < procs.begin[k + 1]; ++j)
      if (index.waits[procs.rows[j]]) names_mode = index.names_mode[procs.rows[j]];
    waiting += names_mode;
  }
  return waiting;
}

// Every process described, by id.
std::map<std::string, Backend> Backends(const PgSnapshot& snapshot, const PgRowIndex& index,
                                        const ProcessRows& procs) {
  std::map<std::string, Backend> backends;
  for (size_t k = 0; k < procs.size(); ++k)
    backends.emplace_hint(backends.end(), std::string(procs.ids[k]),
                          DescribeProcess(snapshot.rows, index, procs, k));
  return backends;
}

using Emit = std::function<void(Event&&)>;

// The events of a snapshot, in output order: the `snapshot`, a `cycle` per
// knot, a `chain` per tree, each made only when its turn comes.
void EmitEvents(const PgSnapshot& snapshot, SnapshotInfo info, const TreeAndCycleShapes& shapes,
                const TreeAndCycleShapes::Describe& describe,
                const TreeAndCycleShapes::EdgeAt& edge, const Emit& emit) {
  const std::string sampled_at = info.sampled_at;
  Event head = Base(EventType::kSnapshot, snapshot, sampled_at);
  info.chains = shapes.trees();
  info.cycles = shapes.cycles();
  head.snapshot = std::move(info);
  emit(std::move(head));
  for (size_t i = 0; i < shapes.cycles(); ++i) {
    Event ev = Base(EventType::kCycle, snapshot, sampled_at);
    ev.cycle = shapes.Cycle(i, describe, edge);
    ev.pid = ev.cycle->members.front().pid;
    emit(std::move(ev));
  }
  for (size_t i = 0; i < shapes.trees(); ++i) {
    Event ev = Base(EventType::kChain, snapshot, sampled_at);
    ev.chain = shapes.Tree(i, describe, edge);
    ev.pid = ev.chain->members.front().backend.pid;
    emit(std::move(ev));
  }
}

SnapshotInfo Info(const PgSnapshot& snapshot, uint64_t backends, uint64_t waiting) {
  SnapshotInfo info;
  info.sampled_at =
      snapshot.rows.empty() ? snapshot.sampled_at : std::string(snapshot.rows.front().sampled_at);
  info.blocking = snapshot.has_blocking_pids ? "pg_blocking_pids" : "conflict_matrix";
  info.locks = snapshot.rows.size();
  info.backends = backends;
  info.waiting = waiting;
  info.poll_ms = snapshot.poll_ms;
  return info;
}

// The events of a snapshot, each tree's processes and edges made from the
// rows when the tree is sent and freed with it: no description of every
// process nor every edge is held at once (a 100,000-waiter snapshot has
// that many of each).
void AnalyzeEventByEvent(const PgSnapshot& snapshot, const Emit& emit) {
  const PgLockRows& rows = snapshot.rows;
  const PgRowIndex index = IndexPgRows(rows);
  const std::vector<PgBlockingLink> links =
      PgBlockingLinks(rows, index, snapshot.has_blocking_pids);
  const ProcessRows procs = GroupByProcess(index);
  WaitForGraph graph;
  graph.Reserve(links.size());
  for (const PgBlockingLink& link : links)
    graph.AddLink(index.process[link.waiter_row], link.blocker);
  constexpr uint32_t kUnknown = UINT32_MAX;  // a blocker without rows: its id only
  std::vector<uint32_t> process_of(graph.process_count(), kUnknown);
  for (size_t k = 0; k < procs.size(); ++k)
    if (auto v = graph.FindProcess(procs.ids[k])) process_of[*v] = uint32_t(k);
  const TreeAndCycleShapes shapes(graph);
  EmitEvents(
      snapshot, Info(snapshot, procs.size(), CountWaiting(index, procs)), shapes,
      [&](WaitForGraph::Vertex v) {
        if (process_of[v] != kUnknown) return DescribeProcess(rows, index, procs, process_of[v]);
        return shapes.IdOnly(v);
      },
      [&](size_t e) { return PgLinkEdge(rows, index, links[e]); }, emit);
}

}  // namespace

std::map<std::string, Backend> PgSnapshotBackends(const PgSnapshot& snapshot) {
  return PgSnapshotBackends(snapshot, IndexPgRows(snapshot.rows));
}

std::map<std::string, Backend> PgSnapshotBackends(const PgSnapshot& snapshot,
                                                  const PgRowIndex& index) {
  return Backends(snapshot, index, GroupByProcess(index));
}

PgSnapshotAnalysis AnalyzePgSnapshot(const PgSnapshot& snapshot) {
  PgSnapshotAnalysis out;
  const PgRowIndex index = IndexPgRows(snapshot.rows);
  const ProcessRows procs = GroupByProcess(index);
  out.backends = Backends(snapshot, index, procs);
  WaitForGraph graph;
  graph.AddWaits(PgBlockingEdges(snapshot.rows, index, snapshot.has_blocking_pids));
  const TreeAndCycleShapes shapes(graph);
  EmitEvents(
      snapshot, Info(snapshot, procs.size(), CountWaiting(index, procs)), shapes,
      shapes.DescribeFrom(out.backends), [&](size_t e) { return graph.edges()[e]; },
      [&](Event&& ev) { out.events.push_back(std::move(ev)); });
  out.edges = graph.ReleaseEdges();
  return out;
}

void PgSnapshotCollector::Add(PgLockRow&& row, uint64_t last_line) {
  if (!current_.rows.empty() && row.sampled_at != current_.rows.back().sampled_at) Break();
  if (current_.rows.empty()) current_.source.first_line = row.line;
  current_.source.last_line = last_line;
  current_.rows.push_back(std::move(row));
}

void PgSnapshotCollector::Break() {
  if (current_.rows.empty()) return;
  current_.source.file = file_;
  current_.has_blocking_pids = has_blocking_pids_;
  // A sink need not take the event: it is freed (its tree, and the
  // findings the rules added) before the next is made.
  AnalyzeEventByEvent(current_, [&](Event&& ev) { sink_.OnEvent(std::move(ev)); });
  current_ = PgSnapshot();
}

}  // namespace lockgraph
