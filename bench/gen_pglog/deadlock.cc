// Deadlock episodes of 2 to 6 processes with transaction and tuple edges,
// as PostgreSQL's DeadLockReport writes them. See generator.h.
#include "generator.h"

namespace gen_pglog {

// A deadlock of n processes, victim M0. Edge i: Mi waits for M(i+1).
// Transaction edges: Mi updates the row M(i+1) holds. Tuple edges: Mi
// updates the row that M(i+1) is itself waiting for, and waits for the
// tuple lock M(i+1) holds (never two tuple edges in a row; the last edge,
// blocked by the victim, is a transaction edge, since the victim waits last).
void Generator::StartDeadlock() {
  static const int sizes[] = {2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6};
  const int n = sizes[rng_.below(sizeof sizes / sizeof sizes[0])];
  std::vector<uint32_t> ps;
  const Db* db;
  if (!Claim(static_cast<size_t>(n), ps, db)) return;
  Scenario& s = NewScenario();
  s.procs = ps;
  std::vector<bool> tuple(n, false);
  if (n >= 3)
    for (int i = 0; i < n - 1; ++i)
      if ((i == 0 || !tuple[i - 1]) && rng_.chance(i == 0 ? 0.15 : 0.35)) tuple[i] = true;
  // Held rows, one per member (same table for most deadlocks).
  const Table* same = &db->tables[rng_.below(db->tables.size())];
  std::vector<Row> held;  // distinct rows: each is locked by one member
  while (static_cast<int>(held.size()) < n) {
    Row r = NewRow(*db, rng_.chance(0.7) ? same : nullptr);
    bool dup = false;
    for (const Row& h : held) dup |= h.t == r.t && h.key == r.key;
    if (!dup) held.push_back(r);
  }
  std::vector<Txn> tx;
  for (int i = 0; i < n; ++i) {
    tx.push_back(Begin(s, ps[i]));
    UpdateText own = MakeUpdate(held[i], 0);
    DurationStep(s, tx[i], own.tag, own.query, 0);
  }
  // What each member waits for.
  std::vector<UpdateText> want(n);
  std::vector<std::string> mode(n), lock(n), ctx(n);
  for (int i = 0; i < n; ++i) {
    int nx = (i + 1) % n;
    if (tuple[i]) {
      const Row& r = held[(i + 2) % n];
      want[i] = MakeUpdate(r, 0);
      mode[i] = "ExclusiveLock";
      lock[i] = TupleTag(*db, r);
      ++counts_.tuple_edges;
    } else {
      const Row& r = held[nx];
      want[i] = MakeUpdate(r, PickStyle());
      mode[i] = "ShareLock";
      lock[i] = "transaction " + std::to_string(tx[nx].xid);
      ctx[i] = RowContext(r) + want[i].frames;
    }
  }
  // The other members start waiting first (M(n-1) down to M1); some waited
  // less than deadlock_timeout when the cycle closed and log nothing.
  s.wait_start.assign(n, 0);
  std::vector<bool> logged(n, false);
  for (int i = n - 1; i >= 1; --i) {
    if (!rng_.chance(0.85)) continue;
    logged[i] = true;
    ++counts_.lock_waits;
    ++counts_.still_waiting;
    Rec& r = Report(s, tx[i], want[i].tag, "still waiting for", mode[i], lock[i], i, 1);
    r.detail = HolderDetail(tx[(i + 1) % n].proc, {tx[i].proc});
    r.context = ctx[i];
    r.statement = want[i].query;
  }
  // The victim closes the cycle.
  ++counts_.lock_waits;
  ++counts_.detected;
  ++counts_.deadlock_outcome;
  ++counts_.deadlocks;
  ++counts_.deadlock_sizes[n];
  ++counts_.errors;
  Rec& d = Report(s, tx[0], want[0].tag, "detected deadlock while waiting for", mode[0], lock[0], 0, 1);
  d.detail = "Process holding the lock: " + std::to_string(procs_[tx[1].proc].pid) + ". Wait queue: .";
  d.context = ctx[0];
  d.statement = want[0].query;
  Rec& e = Add(s, tx[0].proc);
  e.sev = "ERROR";
  e.state = "40P01";
  e.ps = want[0].tag;
  e.vxid = tx[0].vxid;
  e.txid = tx[0].xid;
  e.msg = "deadlock detected";
  for (int i = 0; i < n; ++i) {
    if (i) e.detail += '\n';
    e.detail += "Process " + std::to_string(procs_[tx[i].proc].pid) + " waits for " + mode[i] + " on " + lock[i] +
                "; blocked by process " + std::to_string(procs_[tx[(i + 1) % n].proc].pid) + ".";
  }
  for (int i = 0; i < n; ++i)
    e.detail += "\nProcess " + std::to_string(procs_[tx[i].proc].pid) + ": " + want[i].query;
  e.hint = "See server log for query details.";
  e.context = ctx[0];
  e.statement = want[0].query;
  // The victim rolls back; the others go through in reverse order.
  for (int i = n - 1; i >= 1; --i) {
    if (logged[i]) {
      ++counts_.acquired;
      ++counts_.acquired_reports;
      Rec& a = Report(s, tx[i], want[i].tag, "acquired", mode[i], lock[i], i, 2);
      a.context = ctx[i];
      a.statement = want[i].query;
    }
    DurationStep(s, tx[i], want[i].tag, want[i].query, logged[i] ? 1000 : 500);
    Commit(s, tx[i]);
  }
  Commit(s, tx[0], "ROLLBACK");
}

}  // namespace gen_pglog
