// See innodb_report.h. Edges: a waiter's lock matched by a conflicting lock
// that a HOLDS section prints under another transaction, or a CONFLICTING WITH lock whose
// trx id is another transaction's, is `reported`; a waiting transaction the
// report gives no blocker is taken to wait for the next transaction printed
// (InnoDB prints the cycle in order), `derived`. docs/mysql.md#edges.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "graph/wait_for_graph.h"
#include "parsers/mysql/innodb_report.h"
#include "text/number.h"

namespace lockgraph {
namespace {

LockField Num(const char* name, const std::string& v) { return {name, v, true}; }
LockField Text(const char* name, const std::string& v) { return {name, v, false}; }

LockTarget Target(const InnodbLock& l) {
  LockTarget t;
  t.text = l.line.text;
  for (const std::string& r : l.records) t.text += "\n" + r;  // --show-records
  if (!l.line.record) {
    t.type = "table";
    t.fields = {Text("database", l.line.database), Text("table", l.line.table)};
    return t;
  }
  t.type = "record";
  t.fields = {Text("database", l.line.database), Text("table", l.line.table),
              Text("index", l.line.index), Num("space", l.line.space), Num("page", l.line.page)};
  if (l.heaps.size() == 1) {
    t.fields.push_back(Num("heap_no", std::to_string(l.heaps[0])));
  } else if (!l.heaps.empty()) {
    std::string list;
    for (int64_t h : l.heaps) list += (list.empty() ? "" : ",") + std::to_string(h);
    t.fields.push_back(Text("heap_no", list));
  }
  if (l.heaps.empty()) return t;  // no record listed (no dump printed): nothing to say
  bool supremum = std::find(l.heaps.begin(), l.heaps.end(), 1) != l.heaps.end();
  t.fields.push_back(Text("supremum", supremum ? "true" : "false"));
  return t;
}

// The same lockable thing: one table, or records of one page with a heap
// number in common (or no record list to compare).
bool SameTarget(const InnodbLock& a, const InnodbLock& b) {
  if (a.line.record != b.line.record || a.line.table != b.line.table ||
      a.line.database != b.line.database)
    return false;
  if (!a.line.record) return true;
  if (a.line.space != b.line.space || a.line.page != b.line.page) return false;
  if (a.heaps.empty() || b.heaps.empty()) return true;
  for (int64_t h : a.heaps)
    if (std::find(b.heaps.begin(), b.heaps.end(), h) != b.heaps.end()) return true;
  return false;
}

bool Flag(const std::string& mode, std::string_view flag) {
  return mode.find("," + std::string(flag)) != std::string::npos;
}

// True when a lock held in `held` makes a request for `wanted` wait (lock0lock.cc:
// gap locks block only insert intentions, insert intentions block nothing; the
// table matrix of reference B5).
bool Conflicts(const InnodbLock& wanted, const InnodbLock& held) {
  const std::string &w = wanted.line.mode, &h = held.line.mode;
  std::string wb = w.substr(0, w.find(',')), hb = h.substr(0, h.find(','));
  if (!wanted.line.record) {
    static const char* kOrder[] = {"IS", "IX", "S", "X", "AUTO_INC"};
    static const bool kCompatible[5][5] = {{1, 1, 1, 0, 1}, {1, 1, 0, 0, 1}, {1, 0, 1, 0, 0},
                                           {0, 0, 0, 0, 0}, {1, 1, 0, 0, 0}};
    int a = -1, b = -1;
    for (int i = 0; i < 5; ++i) a = wb == kOrder[i] ? i : a, b = hb == kOrder[i] ? i : b;
    return a < 0 || b < 0 || !kCompatible[a][b];
  }
  if (Flag(h, "INSERT_INTENTION")) return false;
  if (Flag(w, "INSERT_INTENTION")) return !Flag(h, "REC_NOT_GAP");
  if (Flag(h, "GAP") || Flag(w, "GAP")) return false;
  return !(wb == "S" && hb == "S");
}

std::string ProcessId(const InnodbTrx& t) {
  if (t.thread) return std::to_string(t.thread->thread_id);
  return "(transaction " + std::to_string(t.number) + ")";
}

Participant MakeParticipant(const InnodbTrx& t) {
  Participant p;
  p.id = ProcessId(t);
  if (t.thread) {
    p.pid = t.thread->thread_id;
    p.session.user = t.thread->user;
    p.session.host = t.thread->host;
    if (auto q = ParseNumber<int64_t>(t.thread->query_id)) p.session.query_id = *q;
  }
  p.query = t.query;
  while (!p.query.empty() && (p.query.back() == '\n' || p.query.back() == ' ' || p.query.back() == '\t'))
    p.query.pop_back();  // 8.0 prints a blank line after the SQL text
  auto add = [&](const char* name, const std::string& v, bool numeric) {
    if (!v.empty()) p.attributes.push_back({name, v, numeric});
  };
  if (t.trx) {
    add("trx_id", t.trx->trx_id, false);
    const std::string& rest = t.trx->state;  // 5.0 goes on with ", process no ..."
    add("state", "ACTIVE " + t.trx->active + (rest.empty() || rest[0] == ',' ? "" : " ") + rest, false);
  }
  add("tables_in_use", t.tables_in_use, true);
  add("tables_locked", t.tables_locked, true);
  if (t.structs) {
    if (t.structs->lock_wait) add("lock_wait", "true", false);
    add("lock_structs", t.structs->lock_structs, true);
    add("heap_size", t.structs->heap_size, true);
    add("row_locks", t.structs->row_locks, true);
    add("undo_log_entries", t.structs->undo_entries, true);
  }
  if (t.thread) {
    add("os_thread_handle", t.thread->os_thread_handle, false);
    add("thread_state", t.thread->state, false);
  }
  if (!t.waiting.empty()) {
    p.wait_mode = t.waiting.front().line.mode;
    p.wait_resource = Target(t.waiting.front()).Label();
  }
  return p;
}

WaitEdge MakeEdge(const InnodbTrx& waiter, const InnodbTrx& blocker, const InnodbLock* held,
                  EdgeBasis basis) {
  const InnodbLock& w = waiter.waiting.front();
  WaitEdge e;
  e.waiter = ProcessId(waiter);
  e.blocker = ProcessId(blocker);
  e.mode = w.line.mode;
  e.lock = Target(w);
  e.basis = basis;
  e.derived = basis == EdgeBasis::kDerived;
  e.line = w.line_no;
  if (held) e.blocker_mode = held->line.mode;
  return e;
}

// The graph key of the transaction printed i-th: transactions, not
// connection ids, since an edited paste can print one id twice.
std::string TrxKey(size_t i) { return "#" + std::to_string(i); }

// Every edge the report states, then the derived ones; one per pair. Each
// edge's waiter and blocker are also given as transaction indexes in `pairs`.
std::vector<WaitEdge> Edges(const InnodbReport& r, std::vector<std::pair<size_t, size_t>>* pairs) {
  std::map<std::string, size_t> by_trx_id;
  for (size_t i = 0; i < r.trxs.size(); ++i)
    if (r.trxs[i].trx) by_trx_id[r.trxs[i].trx->trx_id] = i;
  std::vector<WaitEdge> edges;
  std::set<std::pair<size_t, size_t>> seen;
  auto add = [&](size_t w, size_t b, const InnodbLock* held, EdgeBasis basis) {
    if (w != b && seen.insert({w, b}).second) {
      edges.push_back(MakeEdge(r.trxs[w], r.trxs[b], held, basis));
      pairs->push_back({w, b});
    }
  };
  for (size_t i = 0; i < r.trxs.size(); ++i) {
    const InnodbTrx& t = r.trxs[i];
    if (t.waiting.empty()) continue;
    for (const InnodbLock& c : t.conflicting)  // MariaDB: names the holder by trx id
      if (auto it = by_trx_id.find(c.line.trx_id); it != by_trx_id.end()) add(i, it->second, &c, EdgeBasis::kReported);
    if (auto it = by_trx_id.find(t.waits_for_trx); !t.waits_for_trx.empty() && it != by_trx_id.end()) {
      const InnodbLock* held = nullptr;  // AliSQL names the holder in the WAITING header
      for (const InnodbLock& h : r.trxs[it->second].holds)
        if (!held && SameTarget(t.waiting.front(), h)) held = &h;
      add(i, it->second, held, EdgeBasis::kReported);
    }
    for (size_t j = 0; j < r.trxs.size(); ++j)  // HOLDS under transaction j
      for (const InnodbLock& h : r.trxs[j].holds)
        if (j != i && SameTarget(t.waiting.front(), h) && Conflicts(t.waiting.front(), h))
          add(i, j, &h, EdgeBasis::kReported);
  }
  if (r.too_deep || r.trxs.size() < 2) return edges;
  for (size_t i = 0; i < r.trxs.size(); ++i) {
    if (r.trxs[i].waiting.empty()) continue;
    bool has = false;
    for (const auto& [w, b] : seen) has = has || w == i;
    if (!has) add(i, (i + 1) % r.trxs.size(), nullptr, EdgeBasis::kDerived);
  }
  return edges;
}

// Orders the processes and edges as the rest of lockgraph expects: the cycle
// through the victim first (victim first), other waits in other_edges.
// The graph is keyed by transaction (TrxKey); `victim_trx` is the victim's
// index when the report names it.
void OrderByCycle(std::vector<WaitEdge> edges, const std::vector<std::pair<size_t, size_t>>& pairs,
                  std::optional<size_t> victim_trx, Deadlock* d) {
  WaitForGraph g;
  for (size_t i = 0; i < d->processes.size(); ++i) g.AddProcess(TrxKey(i));
  for (size_t i = 0; i < edges.size(); ++i)
    g.AddWait(TrxKey(pairs[i].first), edges[i].mode, edges[i].lock, TrxKey(pairs[i].second),
              edges[i].basis);
  std::vector<size_t> cycle;
  if (victim_trx) cycle = g.CycleThrough(*g.FindProcess(TrxKey(*victim_trx)));
  for (WaitForGraph::Vertex v = 0; cycle.empty() && v < g.process_count(); ++v) cycle = g.CycleThrough(v);
  std::vector<char> on(edges.size(), 0);
  for (size_t i : cycle) {
    on[i] = 1;
    d->edges.push_back(edges[i]);
  }
  for (size_t i = 0; i < edges.size(); ++i)
    if (!on[i]) d->other_edges.push_back(std::move(edges[i]));
  std::vector<Participant> ordered;
  std::vector<char> taken(d->processes.size(), 0);
  for (size_t i : cycle)
    if (size_t k = pairs[i].first; !taken[k]) taken[k] = 1, ordered.push_back(d->processes[k]);
  for (size_t k = 0; k < d->processes.size(); ++k)
    if (!taken[k]) ordered.push_back(std::move(d->processes[k]));
  d->processes = std::move(ordered);
  if (cycle.empty() && !edges.empty()) d->problems.push_back("the reported waits make no cycle");
}

// Returns the index of the victim's transaction when the report names one.
std::optional<size_t> ReadVictim(const InnodbReport& r, Deadlock* d) {
  if (r.too_deep) {
    d->problems.push_back(
        "TOO DEEP OR LONG SEARCH IN THE LOCK TABLE WAITS-FOR GRAPH: InnoDB gave up the search and "
        "rolled back the transaction shown; no cycle and no victim line are printed");
    return std::nullopt;
  }
  if (!r.victim_trx_id.empty()) {  // AliSQL: the victim named by its trx id
    for (size_t i = 0; i < r.trxs.size(); ++i)
      if (r.trxs[i].trx && r.trxs[i].trx->trx_id == r.victim_trx_id) {
        d->victim = ProcessId(r.trxs[i]);
        d->victims = {d->victim};
        return i;
      }
    d->problems.push_back("the report rolls back transaction " + r.victim_trx_id +
                          ", which it does not print");
    return std::nullopt;
  }
  if (!r.victim) {
    d->problems.push_back("no WE ROLL BACK TRANSACTION line: the victim is not known");
    return std::nullopt;
  }
  for (size_t i = 0; i < r.trxs.size(); ++i)
    if (r.trxs[i].number == *r.victim && *r.victim != 0) {
      d->victim = ProcessId(r.trxs[i]);
      d->victims = {d->victim};
      return i;
    }
  d->problems.push_back("the report rolls back transaction (" + std::to_string(*r.victim) +
                        "), which it does not print" +
                        (*r.victim == 0 ? " (MariaDB before MDEV-29187 printed (0))" : ""));
  return std::nullopt;
}

// Two transactions printing one connection id (an edited or anonymised
// paste: InnoDB prints each transaction's own thread): which to KILL is
// not known, so the report says so.
void CheckDistinctIds(const InnodbReport& r, Deadlock* d) {
  std::set<int64_t> seen, told;
  for (const InnodbTrx& t : r.trxs)
    if (t.thread && !seen.insert(t.thread->thread_id).second && told.insert(t.thread->thread_id).second)
      d->problems.push_back("more than one transaction prints thread id " +
                            std::to_string(t.thread->thread_id) +
                            " (an edited paste?): the connections cannot be told apart");
}

}  // namespace

Event BuildInnodbDeadlock(const InnodbReport& r) {
  Event ev;
  ev.type = EventType::kDeadlock;
  ev.engine = "mysql";
  ev.time = r.time;
  ev.source.file = r.file;
  ev.source.first_line = r.first_line;
  ev.source.last_line = r.last_line;
  ev.truncated = r.cut;
  Deadlock& d = ev.deadlock.emplace();
  d.message = r.too_deep ? "TOO DEEP OR LONG SEARCH IN THE LOCK TABLE WAITS-FOR GRAPH" : r.form;
  d.sqlstate = "40001";
  for (const InnodbTrx& t : r.trxs) {
    d.processes.push_back(MakeParticipant(t));
    if (!t.thread) d.problems.push_back("transaction (" + std::to_string(t.number) + ") has no thread id line");
    if (!t.trx) d.problems.push_back("transaction (" + std::to_string(t.number) + ") has no TRANSACTION line");
  }
  if (r.trxs.empty()) d.problems.push_back("the report prints no transaction");
  CheckDistinctIds(r, &d);
  std::optional<size_t> victim_trx = ReadVictim(r, &d);
  std::vector<std::pair<size_t, size_t>> pairs;
  std::vector<WaitEdge> edges = Edges(r, &pairs);
  OrderByCycle(std::move(edges), pairs, victim_trx, &d);
  for (const Participant& p : d.processes)
    if (p.id == d.victim) ev.session = p.session;
  for (const std::string& p : r.problems) d.problems.push_back(p);
  if (r.cut) d.problems.push_back("the report is cut (end of input or of the section)");
  d.complete = d.problems.empty();
  return ev;
}

}  // namespace lockgraph
