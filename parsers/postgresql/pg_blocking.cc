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
  PgLockRow row;  // unpacked once for its group; its columns view the rows' text
  std::string_view id;
  size_t index;  // position in the snapshot
};

PgBlockingLink MakeLink(const Row& waiter, std::string blocker, EdgeBasis basis, bool derived) {
  return {uint32_t(waiter.index), std::move(blocker), basis, derived};
}

// The rows of lock number `lock`, in snapshot order.
std::vector<Row> Group(const PgLockRows& rows, const PgRowIndex& index, uint32_t lock) {
  std::vector<Row> group;
  group.reserve(index.lock_begin[lock + 1] - index.lock_begin[lock]);
  for (uint32_t k = index.lock_begin[lock]; k < index.lock_begin[lock + 1]; ++k) {
    const uint32_t i = index.by_lock[k];
    group.push_back({rows[i], index.process[i], i});
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
    if (!PgLockModesConflict(waiter.row.mode, r.row.mode)) continue;
    if (r.row.granted) return EdgeBasis::kHard;
    basis = EdgeBasis::kSoft;
  }
  return basis;
}

// pg_blocking_pids() says 0 for a prepared transaction: name it by the
// prepared holder on the same lock when there is one.
std::string BlockerId(int64_t pid, const Row& waiter, const std::vector<Row>& group) {
  if (pid != 0) return std::to_string(pid);
  for (const Row& r : group)
    if (!r.row.pid && r.row.granted && PgLockModesConflict(waiter.row.mode, r.row.mode))
      return std::string(r.id);
  return "0";
}

void ReportedEdges(const std::vector<Row>& group, std::vector<PgBlockingLink>* out) {
  RowsById by_id;
  for (const Row& r : group) by_id.emplace(r.id, &r);
  for (const Row& w : group) {
    if (w.row.granted || !w.row.blocking_pids) continue;
    std::set<std::string, std::less<>> seen;
    std::vector<std::pair<std::string, EdgeBasis>> blockers;
    for (int64_t pid : *w.row.blocking_pids) {
      std::string id = BlockerId(pid, w, group);
      if (id == w.id || !seen.insert(id).second) continue;
      EdgeBasis basis = Classify(w, id, by_id);
      blockers.emplace_back(std::move(id), basis);
    }
    for (auto& [id, basis] : blockers) out->push_back(MakeLink(w, std::move(id), basis, false));
  }
}

void DerivedEdges(std::vector<Row> group, std::vector<PgBlockingLink>* out) {
  // Waiters in (approximate) queue order: by waitstart, then row order.
  auto start = [](const Row& r) {
    auto t = PgTimestampMicros(r.row.waitstart);
    return t ? *t : std::numeric_limits<int64_t>::max();
  };
  std::stable_sort(group.begin(), group.end(), [&](const Row& a, const Row& b) {
    if (a.row.granted != b.row.granted) return a.row.granted;
    if (a.row.granted) return false;
    return start(a) < start(b);
  });
  for (size_t i = 0; i < group.size(); ++i) {
    const Row& w = group[i];
    if (w.row.granted) continue;
    std::map<std::string_view, EdgeBasis> blockers;  // hard wins over soft
    for (size_t j = 0; j < group.size(); ++j) {
      const Row& other = group[j];
      if (other.id == w.id || !PgLockModesConflict(w.row.mode, other.row.mode)) continue;
      if (other.row.granted) blockers[other.id] = EdgeBasis::kHard;
      else if (j < i) blockers.emplace(other.id, EdgeBasis::kSoft);
    }
    for (const auto& [id, basis] : blockers)
      out->push_back(MakeLink(w, std::string(id), basis, true));
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
// moves each link once into its place.
std::vector<PgBlockingLink> SortedLinks(std::vector<PgBlockingLink> links,
                                        const PgRowIndex& index) {
  struct Sortable {
    IdOrder waiter, blocker;
    uint32_t link;
  };
  std::vector<Sortable> order;
  order.reserve(links.size());
  for (size_t i = 0; i < links.size(); ++i)
    order.push_back({IdOrder(index.process[links[i].waiter_row]), IdOrder(links[i].blocker),
                     uint32_t(i)});
  std::stable_sort(order.begin(), order.end(), [](const Sortable& a, const Sortable& b) {
    if (a.waiter < b.waiter || b.waiter < a.waiter) return a.waiter < b.waiter;
    return a.blocker < b.blocker;
  });
  std::vector<PgBlockingLink> sorted;
  sorted.reserve(links.size());
  for (const Sortable& s : order) sorted.push_back(std::move(links[s.link]));
  return sorted;
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
  const std::vector<PgBlockingLink> links = PgBlockingLinks(rows, index, use_blocking_pids);
  std::vector<WaitEdge> edges;
  edges.reserve(links.size());
  for (const PgBlockingLink& link : links) edges.push_back(PgLinkEdge(rows, index, link));
  return edges;
}

std::vector<PgBlockingLink> PgBlockingLinks(const PgLockRows& rows, const PgRowIndex& index,
                                            bool use_blocking_pids) {
  std::vector<PgBlockingLink> links;
  // Most waiters have one edge.
  links.reserve(std::count(index.waits.begin(), index.waits.end(), true));
  for (uint32_t lock = 0; lock < index.locks(); ++lock) {
    // A lock nobody waits for gives no edge.
    if (!index.contested[lock]) continue;
    std::vector<Row> group = Group(rows, index, lock);
    if (use_blocking_pids) ReportedEdges(group, &links);
    else DerivedEdges(std::move(group), &links);
  }
  return SortedLinks(std::move(links), index);
}

WaitEdge PgLinkEdge(const PgLockRows& rows, const PgRowIndex& index, const PgBlockingLink& link) {
  const PgLockRow& r = rows[link.waiter_row];
  WaitEdge e;
  e.waiter = index.process[link.waiter_row];
  e.blocker = link.blocker;
  e.mode = r.mode;
  e.lock = PgLockRowTarget(r);
  e.basis = link.basis;
  e.line = r.line;
  e.derived = link.derived;
  return e;
}

}  // namespace lockgraph
