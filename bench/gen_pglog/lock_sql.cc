// Building blocks of lock scenarios: contended rows, the SQL that updates
// them, transactions, lock-wait reports and claiming idle sessions. See generator.h.
#include "generator.h"
#include <algorithm>

namespace gen_pglog {

Generator::Row Generator::NewRow(const Db& db, const Table* t) {
  Row r;
  r.t = t ? t : &db.tables[rng_.below(db.tables.size())];
  // Contention sits on hot rows, often in small tables whose rows are all
  // in the first pages: tuple positions like (0,5) recur in several
  // tables, as in samples/postgresql (accounts and inventory).
  // A row's position follows from its key (one row, one slot).
  r.key = static_cast<uint64_t>(rng_.range(1, r.t->rows));
  const uint64_t per_block = (r.t->rows + r.t->blocks - 1) / r.t->blocks;
  r.block = static_cast<uint32_t>((r.key - 1) / per_block);
  r.offset = static_cast<uint32_t>((r.key - 1) % per_block + 1);
  return r;
}
std::string Generator::TuplePos(const Row& r) { return "(" + std::to_string(r.block) + "," + std::to_string(r.offset) + ")"; }
std::string Generator::TupleTag(const Db& db, const Row& r) {
  return "tuple " + TuplePos(r) + " of relation " + std::to_string(r.t->oid) + " of database " + std::to_string(db.oid);
}
std::string Generator::RowContext(const Row& r) {
  return "while updating tuple " + TuplePos(r) + " in relation \"" + r.t->name + "\"";
}

Generator::UpdateText Generator::MakeUpdate(const Row& r, int style) {
  UpdateText u;
  std::string k = std::to_string(r.key);
  u.inner = std::string("UPDATE ") + r.t->name + " SET " + r.t->set + " WHERE " + r.t->key + " = " + k;
  if (style == 1) {
    u.query = std::string("UPDATE ") + r.t->name + "\n   SET " + r.t->set + "\n WHERE " + r.t->key + " = " + k + ";";
    u.tag = "UPDATE";
  } else if (style == 3) {  // an ORM's text: starts and ends with a newline (reference 9.4, 9.7)
    u.query = std::string("\n    UPDATE ") + r.t->name + "\n       SET " + r.t->set + "\n     WHERE " + r.t->key +
              " = " + k + "\n";
    u.tag = "UPDATE";
  } else if (style == 2) {
    u.query = std::string("SELECT ") + r.t->func + "(" + k + ", 1);";
    u.tag = "SELECT";
    u.frames = "\nSQL statement \"" + u.inner + "\"\nPL/pgSQL function " + r.t->func +
               "(integer,integer) line 4 at SQL statement";
  } else {
    u.query = u.inner + ";";
    u.tag = "UPDATE";
  }
  return u;
}
int Generator::PickStyle() {
  uint64_t v = rng_.below(100);
  return v < 72 ? 0 : (v < 88 ? 1 : (v < 95 ? 2 : 3));
}

Generator::Txn Generator::Begin(Scenario& s, uint32_t proc) {
  Proc& p = procs_[proc];
  Txn t{proc, static_cast<uint64_t>(next_xid_++), {}};
  NewVxid(p, t.vxid);
  Rec& b = Add(s, proc);
  b.ps = "BEGIN";
  b.vxid = t.vxid;
  AppDuration(b.msg, false);
  b.msg += "statement: BEGIN";
  return t;
}
void Generator::DurationStep(Scenario& s, const Txn& t, const std::string& tag, const std::string& query, int64_t ms_floor) {
  Rec& r = Add(s, t.proc);
  r.ps = tag;
  r.vxid = t.vxid;
  r.txid = t.xid;
  r.msg += "duration: ";
  AppMs(r.msg, ms_floor * 1000 + rng_.range(3, 900));
  r.msg += " ms  statement: ";
  r.msg += query;
}
void Generator::Commit(Scenario& s, const Txn& t, const char* word) {
  Rec& r = Add(s, t.proc);
  r.ps = word;
  r.vxid = t.vxid;
  r.txid = t.xid;
  AppDuration(r.msg, false);
  r.msg += "statement: ";
  r.msg += word;
}
// A lock-wait report of `t`'s backend; returns it so the caller can add parts.
Rec& Generator::Report(Scenario& s, const Txn& t, const std::string& tag, const char* verb, const std::string& mode,
            const std::string& lock, int slot, uint8_t after_kind) {
  Rec& r = Add(s, t.proc);
  r.ps = tag + " waiting";
  r.vxid = t.vxid;
  r.txid = t.xid;
  r.msg = "process " + std::to_string(procs_[t.proc].pid) + " " + verb + " " + mode + " on " + lock + " ";
  r.wait_slot = slot;
  r.after_kind = after_kind;
  return r;
}
std::string Generator::HolderDetail(uint32_t holder, std::initializer_list<uint32_t> queue) {
  std::string d = "Process holding the lock: " + std::to_string(procs_[holder].pid) + ". Wait queue: ";
  bool first = true;
  for (uint32_t q : queue) {
    if (!first) d += ", ";
    first = false;
    d += std::to_string(procs_[q].pid);
  }
  d += '.';
  return d;
}

// Picks n idle sessions of one database and marks them busy.
bool Generator::Claim(size_t n, std::vector<uint32_t>& out, const Db*& db) {
  db = &Dbs()[rng_.below(10) < 7 ? 0 : 1];
  out.clear();
  for (int tries = 0; tries < 400 && out.size() < n; ++tries) {
    uint32_t i = sessions_[rng_.below(sessions_.size())];
    if (procs_[i].busy || procs_[i].db != db) continue;
    if (std::find(out.begin(), out.end(), i) != out.end()) continue;
    out.push_back(i);
  }
  if (out.size() < n) return false;
  for (uint32_t i : out) procs_[i].busy = true;
  return true;
}

}  // namespace gen_pglog
