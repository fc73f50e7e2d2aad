// See pg_blocking.h.
#include "parsers/postgresql/pg_blocking.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "model/process_id.h"
#include "parsers/postgresql/lock_conflicts.h"

namespace lockgraph {
namespace {

struct Row {
  const PgLockRow* row;
  std::string id;
  LockTarget target;  // waiting rows only: no edge names a granted row's lock
  size_t index;       // position in the snapshot
};

// `last`: the waiter's last edge, which takes its target over (a snapshot
// has 100,000 waiters, most with one edge).
WaitEdge MakeEdge(Row& waiter, const std::string& blocker, EdgeBasis basis, bool derived,
                  bool last) {
  WaitEdge e;
  e.waiter = waiter.id;
  e.blocker = blocker;
  e.mode = waiter.row->mode;
  e.lock = last ? std::move(waiter.target) : waiter.target;
  e.basis = basis;
  e.line = waiter.row->line;
  e.derived = derived;
  return e;
}

// Rows grouped by lock, each group in snapshot order.
std::map<std::string, std::vector<Row>> ByTarget(const PgLockRows& rows) {
  std::map<std::string, std::vector<Row>> groups;
  for (size_t i = 0; i < rows.size(); ++i) {
    LockTarget t = PgLockRowTarget(rows[i]);
    std::string key = t.Key();
    if (rows[i].granted) t = LockTarget();
    groups[key].push_back({&rows[i], PgRowProcessId(rows[i]), std::move(t), i});
  }
  return groups;
}

using RowsById = std::multimap<std::string, const Row*>;

// How the server's blocker `id` blocks `waiter`, judged from the rows of
// the same lock.
EdgeBasis Classify(const Row& waiter, const std::string& id, const RowsById& by_id) {
  EdgeBasis basis = EdgeBasis::kReported;
  auto [begin, end] = by_id.equal_range(id);
  for (auto it = begin; it != end; ++it) {
    const Row& r = *it->second;
    if (!PgLockModesConflict(waiter.row->mode, r.row->mode)) continue;
    if (r.row->granted) return EdgeBasis::kHard;
    basis = EdgeBasis::kSoft;
  }
  return basis;
}

// pg_blocking_pids() says 0 for a prepared transaction: name it by the
// prepared holder on the same lock when there is one.
std::string BlockerId(int64_t pid, const Row& waiter, const std::vector<Row>& group) {
  if (pid != 0) return std::to_string(pid);
  for (const Row& r : group)
    if (!r.row->pid && r.row->granted && PgLockModesConflict(waiter.row->mode, r.row->mode))
      return r.id;
  return "0";
}

void ReportedEdges(std::vector<Row>& group, std::vector<WaitEdge>* out) {
  RowsById by_id;
  for (const Row& r : group) by_id.emplace(r.id, &r);
  for (Row& w : group) {
    if (w.row->granted || !w.row->blocking_pids) continue;
    std::set<std::string> seen;
    std::vector<std::pair<std::string, EdgeBasis>> blockers;
    for (int64_t pid : *w.row->blocking_pids) {
      std::string id = BlockerId(pid, w, group);
      if (id == w.id || !seen.insert(id).second) continue;
      EdgeBasis basis = Classify(w, id, by_id);
      blockers.emplace_back(std::move(id), basis);
    }
    for (size_t i = 0; i < blockers.size(); ++i)
      out->push_back(MakeEdge(w, blockers[i].first, blockers[i].second, false,
                              i + 1 == blockers.size()));
  }
}

void DerivedEdges(std::vector<Row> group, std::vector<WaitEdge>* out) {
  // Waiters in (approximate) queue order: by waitstart, then row order.
  auto start = [](const Row& r) {
    auto t = PgTimestampMicros(r.row->waitstart);
    return t ? *t : std::numeric_limits<int64_t>::max();
  };
  std::stable_sort(group.begin(), group.end(), [&](const Row& a, const Row& b) {
    if (a.row->granted != b.row->granted) return a.row->granted;
    if (a.row->granted) return false;
    return start(a) < start(b);
  });
  for (size_t i = 0; i < group.size(); ++i) {
    Row& w = group[i];
    if (w.row->granted) continue;
    std::map<std::string, EdgeBasis> blockers;  // hard wins over soft
    for (size_t j = 0; j < group.size(); ++j) {
      const Row& other = group[j];
      if (other.id == w.id || !PgLockModesConflict(w.row->mode, other.row->mode)) continue;
      if (other.row->granted) blockers[other.id] = EdgeBasis::kHard;
      else if (j < i) blockers.emplace(other.id, EdgeBasis::kSoft);
    }
    size_t left = blockers.size();
    for (const auto& [id, basis] : blockers) out->push_back(MakeEdge(w, id, basis, true, --left == 0));
  }
}

}  // namespace

std::string PgRowProcessId(const PgLockRow& row) {
  if (row.pid) return std::to_string(*row.pid);
  return "prepared " + row.virtualtransaction;
}

std::vector<WaitEdge> PgBlockingEdges(const PgLockRows& rows, bool use_blocking_pids) {
  std::vector<WaitEdge> edges;
  for (auto& [key, group] : ByTarget(rows)) {
    if (use_blocking_pids) ReportedEdges(group, &edges);
    else DerivedEdges(std::move(group), &edges);
  }
  std::stable_sort(edges.begin(), edges.end(), [](const WaitEdge& a, const WaitEdge& b) {
    if (a.waiter != b.waiter) return ProcessIdLess(a.waiter, b.waiter);
    return ProcessIdLess(a.blocker, b.blocker);
  });
  return edges;
}

}  // namespace lockgraph
