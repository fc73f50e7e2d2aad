// Lock-wait episodes: a row wait ending in acquired or cancelled, a chain,
// a tuple-lock wait and a relation wait (with avoided deadlock). See generator.h.
#include "generator.h"

namespace gen_pglog {

void Generator::StartLockWait() {
  uint64_t k = rng_.below(100);
  if (k < 53)
    RowWait(kAcquired);
  else if (k < 63)
    RowWait(kLockTimeout);
  else if (k < 67)
    RowWait(kStatementTimeout);
  else if (k < 70)
    RowWait(kUserCancel);
  else if (k < 83)
    ChainWait();
  else if (k < 93)
    RelationWait();
  else
    TupleWait();
}

// H updates a row; W waits for H's transaction, then acquires it (or is
// cancelled).
void Generator::RowWait(WaitEnd end) {
  std::vector<uint32_t> ps;
  const Db* db;
  if (!Claim(2, ps, db)) return;
  Scenario& s = NewScenario();
  s.procs = ps;
  Row row = NewRow(*db);
  int style = PickStyle();
  UpdateText u = MakeUpdate(row, style);
  Txn h = Begin(s, ps[0]);
  DurationStep(s, h, u.tag, u.query, 0);
  Txn w = Begin(s, ps[1]);
  const std::string xlock = "transaction " + std::to_string(h.xid);
  const std::string ctx = RowContext(row) + u.frames;
  s.wait_start.push_back(0);
  ++counts_.lock_waits;
  ++counts_.still_waiting;
  Rec& sw = Report(s, w, u.tag, "still waiting for", "ShareLock", xlock, 0, 1);
  sw.detail = HolderDetail(h.proc, {w.proc});
  sw.context = ctx;
  sw.statement = u.query;
  if (rng_.chance(0.05)) {  // PostgreSQL <= 18 may repeat the report (SIGHUP)
    ++counts_.still_waiting;
    Rec& again = Report(s, w, u.tag, "still waiting for", "ShareLock", xlock, 0, 2);
    again.detail = sw.detail;
    again.context = ctx;
    again.statement = u.query;
  }
  if (end != kAcquired) {
    ++(end == kUserCancel ? counts_.cancelled : counts_.timeout);
    ++counts_.errors;
    Rec& e = Add(s, w.proc);
    e.sev = "ERROR";
    e.state = end == kLockTimeout ? "55P03" : "57014";
    e.ps = u.tag;
    e.vxid = w.vxid;
    e.txid = w.xid;
    e.msg = end == kLockTimeout        ? "canceling statement due to lock timeout"
            : end == kStatementTimeout ? "canceling statement due to statement timeout"
                                       : "canceling statement due to user request";
    e.context = ctx;
    e.statement = u.query;
    Commit(s, w, "ROLLBACK");
    Commit(s, h);
    return;
  }
  Commit(s, h);
  ++counts_.acquired;
  ++counts_.acquired_reports;
  Rec& a = Report(s, w, u.tag, "acquired", "ShareLock", xlock, 0, 2);
  a.context = ctx;
  a.statement = u.query;
  DurationStep(s, w, u.tag, u.query, 1000);
  Commit(s, w);
}

// A holds row 1; B holds row 2 and waits for A; C waits for B.
void Generator::ChainWait() {
  std::vector<uint32_t> ps;
  const Db* db;
  if (!Claim(3, ps, db)) return;
  Scenario& s = NewScenario();
  s.procs = ps;
  Row r1 = NewRow(*db), r2 = NewRow(*db);
  while (r2.t == r1.t && r2.key == r1.key) r2 = NewRow(*db);
  UpdateText u1 = MakeUpdate(r1, PickStyle()), u2b = MakeUpdate(r2, 0), u2 = MakeUpdate(r2, PickStyle());
  Txn a = Begin(s, ps[0]);
  DurationStep(s, a, u1.tag, u1.query, 0);
  Txn b = Begin(s, ps[1]);
  DurationStep(s, b, u2b.tag, u2b.query, 0);
  Txn c = Begin(s, ps[2]);
  s.wait_start.assign(2, 0);
  counts_.lock_waits += 2;
  counts_.still_waiting += 2;
  Rec& bw = Report(s, b, u1.tag, "still waiting for", "ShareLock", "transaction " + std::to_string(a.xid), 0, 1);
  bw.detail = HolderDetail(a.proc, {b.proc});
  bw.context = RowContext(r1) + u1.frames;
  bw.statement = u1.query;
  Rec& cw = Report(s, c, u2.tag, "still waiting for", "ShareLock", "transaction " + std::to_string(b.xid), 1, 1);
  cw.detail = HolderDetail(b.proc, {c.proc});
  cw.context = RowContext(r2) + u2.frames;
  cw.statement = u2.query;
  Commit(s, a);
  counts_.acquired += 2;
  counts_.acquired_reports += 2;
  Rec& ba = Report(s, b, u1.tag, "acquired", "ShareLock", "transaction " + std::to_string(a.xid), 0, 2);
  ba.context = RowContext(r1) + u1.frames;
  ba.statement = u1.query;
  DurationStep(s, b, u1.tag, u1.query, 1000);
  Commit(s, b);
  Rec& ca = Report(s, c, u2.tag, "acquired", "ShareLock", "transaction " + std::to_string(b.xid), 1, 2);
  ca.context = RowContext(r2) + u2.frames;
  ca.statement = u2.query;
  DurationStep(s, c, u2.tag, u2.query, 1000);
  Commit(s, c);
}

// H holds the row; W1 waits for H's transaction (holding the tuple lock);
// W2 waits for the tuple lock held by W1 (no CONTEXT on tuple waits).
void Generator::TupleWait() {
  std::vector<uint32_t> ps;
  const Db* db;
  if (!Claim(3, ps, db)) return;
  Scenario& s = NewScenario();
  s.procs = ps;
  Row row = NewRow(*db);
  UpdateText u = MakeUpdate(row, 0);
  Txn h = Begin(s, ps[0]);
  DurationStep(s, h, u.tag, u.query, 0);
  Txn w1 = Begin(s, ps[1]);
  Txn w2 = Begin(s, ps[2]);
  const std::string xlock = "transaction " + std::to_string(h.xid);
  const std::string tlock = TupleTag(*db, row);
  s.wait_start.assign(2, 0);
  counts_.lock_waits += 2;
  counts_.still_waiting += 2;
  Rec& a = Report(s, w1, u.tag, "still waiting for", "ShareLock", xlock, 0, 1);
  a.detail = HolderDetail(h.proc, {w1.proc});
  a.context = RowContext(row);
  a.statement = u.query;
  Rec& b = Report(s, w2, u.tag, "still waiting for", "ExclusiveLock", tlock, 1, 1);
  b.detail = HolderDetail(w1.proc, {w2.proc});
  b.statement = u.query;
  Commit(s, h);
  counts_.acquired += 2;
  counts_.acquired_reports += 2;
  Rec& c = Report(s, w1, u.tag, "acquired", "ShareLock", xlock, 0, 2);
  c.context = RowContext(row);
  c.statement = u.query;
  DurationStep(s, w1, u.tag, u.query, 1000);
  Commit(s, w1);
  Rec& d = Report(s, w2, u.tag, "acquired", "ExclusiveLock", tlock, 1, 2);
  d.statement = u.query;
  DurationStep(s, w2, u.tag, u.query, 1000);
  Commit(s, w2);
}

// H takes an ACCESS EXCLUSIVE lock (ALTER TABLE / LOCK TABLE); W's SELECT
// waits during parse analysis: ` at character N`, no CONTEXT.
void Generator::RelationWait() {
  std::vector<uint32_t> ps;
  const Db* db;
  if (!Claim(2, ps, db)) return;
  Scenario& s = NewScenario();
  s.procs = ps;
  const Table& t = db->tables[rng_.below(db->tables.size())];
  Txn h = Begin(s, ps[0]);
  std::string ddl = rng_.chance(0.5) ? std::string("LOCK TABLE ") + t.name + " IN ACCESS EXCLUSIVE MODE;"
                                     : std::string("ALTER TABLE ") + t.name + " ADD COLUMN note_" +
                                           std::to_string(rng_.range(1, 999)) + " text;";
  DurationStep(s, h, ddl[0] == 'L' ? "LOCK TABLE" : "ALTER TABLE", ddl, 0);
  Txn w = {ps[1], 0, {}};
  NewVxid(procs_[w.proc], w.vxid);
  std::string q = std::string("SELECT * FROM ") + t.name + " WHERE " + t.key + " = " +
                  std::to_string(rng_.range(1, 200000)) + ";";
  int cursor = 15;
  const std::string rlock = "relation " + std::to_string(t.oid) + " of database " + std::to_string(db->oid);
  s.wait_start.push_back(0);
  ++counts_.lock_waits;
  ++counts_.still_waiting;
  // A soft deadlock resolved by reordering the queue: `avoided deadlock`,
  // then `still waiting` from the same pass of the wait loop.
  const bool avoided = rng_.chance(0.15);
  if (avoided) {
    ++counts_.avoided;
    Rec& av = Report(s, w, "SELECT", "avoided deadlock for", "AccessShareLock", rlock, 0, 1);
    av.msg.insert(av.msg.size() - 1, " by rearranging queue order");
    av.detail = HolderDetail(h.proc, {w.proc});
    av.statement = q;
    av.cursor = cursor;
  }
  Rec& sw = Report(s, w, "SELECT", "still waiting for", "AccessShareLock", rlock, 0, avoided ? 2 : 1);
  sw.detail = HolderDetail(h.proc, {w.proc});
  sw.statement = q;
  sw.cursor = cursor;
  bool timeout = rng_.chance(0.3);
  if (timeout) {
    ++counts_.timeout;
    ++counts_.errors;
    Rec& e = Add(s, w.proc);
    e.sev = "ERROR";
    e.state = "55P03";
    e.ps = "SELECT";
    e.vxid = w.vxid;
    e.msg = "canceling statement due to lock timeout";
    e.statement = q;
    e.cursor = cursor;
    Commit(s, h);
    return;
  }
  Commit(s, h);
  ++counts_.acquired;
  ++counts_.acquired_reports;
  Rec& a = Report(s, w, "SELECT", "acquired", "AccessShareLock", rlock, 0, 2);
  a.statement = q;
  a.cursor = cursor;
  Rec& d = Add(s, w.proc);
  d.ps = "SELECT";
  ZeroVxid(procs_[w.proc], d.vxid);
  d.msg = "duration: ";
  AppMs(d.msg, 1000000 + rng_.range(1000, 900000));
  d.msg += " ms  statement: ";
  d.msg += q;
}

}  // namespace gen_pglog
