// See pg_blocking.h.
#include "parsers/postgresql/pg_blocking.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <set>

#include "model/process_id.h"
#include "parsers/postgresql/lock_conflicts.h"
#include "parsers/postgresql/pg_row_index.h"

namespace lockgraph {
namespace {

struct Row {
  const PgLockRow* row;
  std::string_view id;
  LockTarget target;  // waiting rows only: no edge names a granted row's lock
  size_t index;       // position in the snapshot
};

// `last`: the waiter's last edge, which takes its target over (a snapshot
// has 100,000 waiters, most with one edge).
WaitEdge MakeEdge(Row& waiter, std::string_view blocker, EdgeBasis basis, bool derived,
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

// The rows of lock number `lock`, in snapshot order.
std::vector<Row> Group(const PgLockRows& rows, const PgRowIndex& index, uint32_t lock) {
  std::vector<Row> group;
  group.reserve(index.lock_begin[lock + 1] - index.lock_begin[lock]);
  for (uint32_t k = index.lock_begin[lock]; k < index.lock_begin[lock + 1]; ++k) {
    const uint32_t i = index.by_lock[k];
    const PgLockRow& r = rows[i];
    group.push_back({&r, index.process[i], r.granted ? LockTarget() : PgLockRowTarget(r), i});
  }
  return group;
}

using RowsById = std::multimap<std::string_view, const Row*>;

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
      return std::string(r.id);
  return "0";
}

void ReportedEdges(std::vector<Row>& group, std::vector<WaitEdge>* out) {
  RowsById by_id;
  for (const Row& r : group) by_id.emplace(r.id, &r);
  for (Row& w : group) {
    if (w.row->granted || !w.row->blocking_pids) continue;
    std::set<std::string, std::less<>> seen;
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
    std::map<std::string_view, EdgeBasis> blockers;  // hard wins over soft
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

// A process id's place in ProcessIdLess order, parsed once: pids as
// numbers first, then other ids as text.
struct IdOrder {
  bool number;
  int64_t value;
  const std::string* text;
  explicit IdOrder(const std::string& id) : number(false), value(0), text(&id) {
    auto r = std::from_chars(id.data(), id.data() + id.size(), value);
    number = !id.empty() && r.ec == std::errc() && r.ptr == id.data() + id.size();
  }
  bool operator<(const IdOrder& o) const {
    if (number != o.number) return number;
    return number ? value < o.value : *text < *o.text;
  }
};

// By waiter, then blocker (ProcessIdLess); stable. Sorts numbers, then
// puts each edge in its place in the same vector (no second vector of
// 100,000 edges).
std::vector<WaitEdge> SortedEdges(std::vector<WaitEdge> edges) {
  struct Sortable {
    IdOrder waiter, blocker;
    uint32_t edge;
  };
  std::vector<Sortable> order;
  order.reserve(edges.size());
  for (size_t i = 0; i < edges.size(); ++i)
    order.push_back({IdOrder(edges[i].waiter), IdOrder(edges[i].blocker), uint32_t(i)});
  std::stable_sort(order.begin(), order.end(), [](const Sortable& a, const Sortable& b) {
    if (a.waiter < b.waiter || b.waiter < a.waiter) return a.waiter < b.waiter;
    return a.blocker < b.blocker;
  });
  // Position i takes edge order[i].edge: follow each cycle of the permutation.
  std::vector<uint32_t> from(edges.size());
  for (size_t i = 0; i < order.size(); ++i) from[i] = order[i].edge;
  order = {};
  for (size_t start = 0; start < from.size(); ++start) {
    if (from[start] == start) continue;
    WaitEdge held = std::move(edges[start]);
    size_t at = start;
    while (from[at] != start) {
      edges[at] = std::move(edges[from[at]]);
      size_t next = from[at];
      from[at] = uint32_t(at);
      at = next;
    }
    edges[at] = std::move(held);
    from[at] = uint32_t(at);
  }
  return edges;
}

}  // namespace

std::string PgRowProcessId(const PgLockRow& row) {
  if (row.pid) return std::to_string(*row.pid);
  return "prepared " + std::string(row.virtualtransaction);
}

std::vector<WaitEdge> PgBlockingEdges(const PgLockRows& rows, bool use_blocking_pids) {
  return PgBlockingEdges(rows, IndexPgRows(rows), use_blocking_pids);
}

std::vector<WaitEdge> PgBlockingEdges(const PgLockRows& rows, const PgRowIndex& index,
                                      bool use_blocking_pids) {
  std::vector<WaitEdge> edges;
  size_t waiting = 0;
  for (const PgLockRow& r : rows) waiting += !r.granted;
  edges.reserve(waiting);  // most waiters have one edge
  for (uint32_t lock = 0; lock < index.locks(); ++lock) {
    // A lock nobody waits for gives no edge.
    if (!index.contested[lock]) continue;
    std::vector<Row> group = Group(rows, index, lock);
    if (use_blocking_pids) ReportedEdges(group, &edges);
    else DerivedEdges(std::move(group), &edges);
  }
  return SortedEdges(std::move(edges));
}

}  // namespace lockgraph
