// The ordinary records between lock scenarios: statements, transaction
// control, errors, failed startups, autovacuum and checkpoints. See generator.h.
#include "generator.h"
#include <cstring>

namespace gen_pglog {

void Generator::Expand(std::string& o, const char* t) {
  for (const char* c = t; *c; ++c) {
    switch (*c) {
      case '\x01': AppU(o, static_cast<uint64_t>(rng_.range(1, 2000000))); break;
      case '\x02': AppU(o, static_cast<uint64_t>(rng_.range(1, 50))); break;
      case '\x03':
        AppU(o, static_cast<uint64_t>(rng_.range(0, 2000)));
        o += '.';
        Pad(o, static_cast<uint64_t>(rng_.range(0, 99)), 2);
        break;
      case '\x04': o += rng_.pick(Words()); break;
      case '\x05': AppU(o, static_cast<uint64_t>(rng_.range(1, 90))); break;
      default: o += *c;
    }
  }
}

void Generator::AppDuration(std::string& o, bool slow) {
  o += "duration: ";
  int64_t us = slow ? rng_.range(5000, 9000000) : (rng_.chance(0.8) ? rng_.range(3, 900) : rng_.range(900, 60000));
  AppMs(o, us);
  o += " ms  ";
}

const Tpl& Generator::PickTemplate(const Db* db) {
  const auto& ts = Templates();
  while (true) {
    const Tpl& t = ts[rng_.below(ts.size())];
    if (!*t.db || std::strcmp(t.db, db->name) == 0) return t;
  }
}

void Generator::StatementRecord(uint32_t si) {
  Proc& p = procs_[si];
  const Tpl& t = PickTemplate(p.db);
  bool multi = std::strchr(t.text, '\n') != nullptr;
  if (t.ext && rng_.chance(0.35)) {
    // Extended protocol, as JDBC/pgbench: parse, bind, execute, the latter
    // two with DETAIL parameters.
    std::string params;
    if (t.nparams) {
      params = "parameters: ";
      for (int k = 1; k <= t.nparams; ++k) {
        if (k > 1) params += ", ";
        params += '$';
        AppU(params, static_cast<uint64_t>(k));
        params += " = '";
        Expand(params, k == 1 && t.tag[0] == 'U' && t.nparams == 2 && t.text[7] == 'o' ? "shipped" : "\x01");
        params += '\'';
      }
    }
    bool named = std::strcmp(p.app, "PostgreSQL JDBC Driver") == 0;
    std::string name = named ? "S_" + std::to_string(rng_.range(1, 40)) : "<unnamed>";
    static const char* phases[] = {"parse ", "bind ", "execute "};
    for (int ph = 0; ph < 3; ++ph) {
      Rec& r = Tmp(si);
      r.ps = t.tag;
      ZeroVxid(p, r.vxid);
      AppDuration(r.msg, false);
      r.msg += phases[ph];
      r.msg += name;
      r.msg += ": ";
      r.msg += t.ext;
      if (ph > 0) r.detail = params;
      ++counts_.statements;
      Emit(r, nullptr);
    }
    return;
  }
  Rec& r = Tmp(si);
  r.ps = t.tag;
  ZeroVxid(p, r.vxid);
  AppDuration(r.msg, multi && rng_.chance(0.3));
  r.msg += "statement: ";
  Expand(r.msg, t.text);
  ++counts_.statements;
  if (multi) ++counts_.multiline_statements;
  Emit(r, nullptr);
}

void Generator::TxControl(uint32_t si, const char* word) {
  Proc& p = procs_[si];
  Rec& r = Tmp(si);
  r.ps = word;
  ZeroVxid(p, r.vxid);
  AppDuration(r.msg, false);
  r.msg += "statement: ";
  r.msg += word;
  ++counts_.statements;
  Emit(r, nullptr);
}

void Generator::ErrorRecord(uint32_t si) {
  Proc& p = procs_[si];
  Rec& r = Tmp(si);
  r.sev = "ERROR";
  NewVxid(p, r.vxid);
  ++counts_.errors;
  const bool shop = p.db == &Dbs()[0];
  const char* tbl = shop ? "orders" : "invoices";
  uint64_t id = static_cast<uint64_t>(rng_.range(1, 2000000));
  switch (rng_.below(10)) {
    case 0:
      r.state = "23505";
      r.ps = "INSERT";
      r.txid = static_cast<uint64_t>(next_xid_++);
      r.msg = std::string("duplicate key value violates unique constraint \"") + tbl + "_pkey\"";
      r.detail = "Key (id)=(" + std::to_string(id) + ") already exists.";
      r.statement = std::string("INSERT INTO ") + tbl + " (id, created_at) VALUES (" + std::to_string(id) + ", now());";
      break;
    case 1:
      r.state = "42P01";
      r.ps = "SELECT";
      r.msg = "relation \"order_archive\" does not exist";
      r.statement = "SELECT * FROM order_archive WHERE id = " + std::to_string(id) + ";";
      r.cursor = 15;
      break;
    case 2:
      r.state = "42703";
      r.ps = "SELECT";
      r.msg = "column \"custmer_id\" does not exist";
      r.hint = std::string("Perhaps you meant to reference the column \"") + tbl + ".customer_id\".";
      r.statement = std::string("SELECT id, custmer_id FROM ") + tbl + " WHERE id = " + std::to_string(id) + ";";
      r.cursor = 12;
      break;
    case 3:
      r.state = "42601";
      r.ps = "idle";
      r.msg = "syntax error at or near \"FORM\"";
      r.statement = std::string("SELECT * FORM ") + tbl + ";";
      r.cursor = 10;
      break;
    case 4:
      r.state = "23503";
      r.ps = "INSERT";
      r.txid = static_cast<uint64_t>(next_xid_++);
      r.msg = "insert or update on table \"order_items\" violates foreign key constraint \"order_items_order_id_fkey\"";
      r.detail = "Key (order_id)=(" + std::to_string(id) + ") is not present in table \"orders\".";
      r.statement = "INSERT INTO order_items (order_id, sku, qty, price)\n     VALUES (" + std::to_string(id) +
                    ", 17, 1, 9.99);";
      break;
    case 5:
      r.state = "22012";
      r.ps = "SELECT";
      r.msg = "division by zero";
      r.context = "PL/pgSQL function ratio(integer) line 1 at RETURN";
      r.statement = "SELECT ratio(0);";
      break;
    case 6:
      r.state = "42883";
      r.ps = "SELECT";
      r.msg = "function nofunc(integer) does not exist";
      r.hint = "No function matches the given name and argument types. You might need to add explicit type casts.";
      r.statement = "SELECT nofunc(1);";
      r.cursor = 8;
      break;
    case 7:
      r.state = "25P02";
      r.ps = "SELECT";
      ZeroVxid(p, r.vxid);
      r.msg = "current transaction is aborted, commands ignored until end of transaction block";
      r.statement = "SELECT 2;";
      break;
    case 8:
      r.state = "23502";
      r.ps = "INSERT";
      r.txid = static_cast<uint64_t>(next_xid_++);
      r.msg = std::string("null value in column \"customer_id\" of relation \"") + tbl +
              "\" violates not-null constraint";
      r.detail = "Failing row contains (" + std::to_string(id) + ", null, 0.00, new).";
      r.statement = std::string("INSERT INTO ") + tbl + " (id, customer_id) VALUES (" + std::to_string(id) + ", NULL);";
      break;
    default:
      r.state = "57014";
      r.ps = "SELECT";
      r.msg = "canceling statement due to statement timeout";
      r.statement = "SELECT count(*)\n  FROM order_items oi\n  JOIN orders o ON o.id = oi.order_id\n WHERE o.created_at > now() - interval '400 days';";
      break;
  }
  Emit(r, nullptr);
}

// FATAL at startup (no session follows, no disconnection line).
void Generator::FatalStartup() {
  uint32_t i = NewProcSlot();
  Proc& p = procs_[i];
  p.db = &Dbs()[0];
  p.user = "shop_app";
  p.pid = AllocPid();
  p.host = "10.0.9." + std::to_string(rng_.range(2, 250));
  p.port = static_cast<uint32_t>(rng_.range(32768, 60999));
  p.start_us = now_us_;
  p.backend_id = static_cast<uint32_t>(rng_.range(3, 300));
  RefreshSessionStrings(p);
  ++counts_.connections;
  Rec& r = Tmp(i);
  r.phase = 0;
  r.btype = "not initialized";
  r.msg = "connection received: host=" + p.host + " port=" + std::to_string(p.port);
  Emit(r, nullptr);
  static const Db kBad{"shop_staging", 0, {}, {}, {}};
  p.db = &kBad;
  Rec& f = Tmp(i);
  f.phase = 1;
  f.sev = "FATAL";
  f.state = "3D000";
  f.ps = "startup";
  NewVxid(p, f.vxid);
  f.msg = "database \"shop_staging\" does not exist";
  ++counts_.errors;
  Emit(f, nullptr);
  FreeSlot(i);
}

void Generator::Autovacuum() {
  ++counts_.autovacuum;
  uint32_t i = NewBackground("autovacuum worker");
  Proc& p = procs_[i];
  const Db& db = Dbs()[rng_.below(2)];
  const Table& t = db.tables[rng_.below(db.tables.size())];
  bool vacuum = rng_.chance(0.5);
  Rec& r = Tmp(i);
  NewVxid(p, r.vxid);
  std::string& m = r.msg;
  auto rate = [&](int64_t max_milli) {
    int64_t v = rng_.range(0, max_milli);
    AppI(m, v / 1000);
    m += '.';
    Pad(m, static_cast<uint64_t>(v % 1000), 3);
  };
  if (vacuum) {
    int64_t pages = rng_.range(10, 90000), removed = rng_.range(0, 500000), remain = rng_.range(1000, 9000000);
    int64_t cutoff = next_xid_ - rng_.range(0, 2000);
    m += "automatic vacuum of table \"";
    m += db.name;
    m += ".public.";
    m += t.name;
    m += "\": index scans: 1\npages: 0 removed, ";
    AppI(m, pages);
    m += " remain, ";
    AppI(m, pages / 3 + 1);
    m += " scanned (";
    rate(100000);
    m += "% of total)\ntuples: ";
    AppI(m, removed);
    m += " removed, ";
    AppI(m, remain);
    m += " remain, 0 are dead but not yet removable\nremovable cutoff: ";
    AppI(m, cutoff);
    m += ", which was ";
    AppI(m, next_xid_ - cutoff);
    m += " XIDs old when operation ended\nindex scan needed: ";
    AppI(m, pages / 5 + 1);
    m += " pages from table (";
    rate(100000);
    m += "% of total) had ";
    AppI(m, removed);
    m += " dead item identifiers removed\nindex \"";
    m += t.name;
    m += "_pkey\": pages: ";
    AppI(m, pages / 7 + 2);
    m += " in total, 0 newly deleted, 0 currently deleted, 0 reusable\navg read rate: ";
    rate(90000);
    m += " MB/s, avg write rate: ";
    rate(90000);
    m += " MB/s\nbuffer usage: ";
    AppI(m, rng_.range(100, 90000));
    m += " hits, ";
    AppI(m, rng_.range(0, 5000));
    m += " misses, ";
    AppI(m, rng_.range(0, 5000));
    m += " dirtied\nWAL usage: ";
    AppI(m, rng_.range(1, 90000));
    m += " records, ";
    AppI(m, rng_.range(0, 900));
    m += " full page images, ";
    AppI(m, rng_.range(1000, 9000000));
    m += " bytes\nsystem usage: CPU: user: 0.0";
    AppI(m, rng_.range(0, 9));
    m += " s, system: 0.00 s, elapsed: ";
    rate(9000);
    m += " s";
  } else {
    r.txid = static_cast<uint64_t>(next_xid_++);
    m += "automatic analyze of table \"";
    m += db.name;
    m += ".public.";
    m += t.name;
    m += "\"\navg read rate: ";
    rate(90000);
    m += " MB/s, avg write rate: ";
    rate(90000);
    m += " MB/s\nbuffer usage: ";
    AppI(m, rng_.range(100, 90000));
    m += " hits, ";
    AppI(m, rng_.range(0, 5000));
    m += " misses, ";
    AppI(m, rng_.range(0, 5000));
    m += " dirtied\nsystem usage: CPU: user: 0.0";
    AppI(m, rng_.range(0, 9));
    m += " s, system: 0.00 s, elapsed: ";
    rate(9000);
    m += " s";
  }
  Emit(r, nullptr);
  FreeSlot(i);
}

void Generator::NormalRecord() {
  uint64_t k = rng_.below(10000);
  if (k < 120) {
    if (sessions_.size() < 110) {
      NewSession(true);
      return;
    }
  } else if (k < 240) {
    if (sessions_.size() > 40) {
      for (int tries = 0; tries < 16; ++tries) {
        size_t idx = rng_.below(sessions_.size());
        if (!procs_[sessions_[idx]].busy) {
          EndSession(idx);
          return;
        }
      }
    }
  } else if (k < 245) {
    FatalStartup();
    return;
  } else if (k < 470) {
    uint32_t s = IdleSession();
    if (s != UINT32_MAX) {
      ErrorRecord(s);
      return;
    }
  } else if (k < 485) {
    Autovacuum();
    return;
  } else if (k < 1400) {
    uint32_t s = IdleSession();
    if (s != UINT32_MAX) {
      static const char* words[] = {"BEGIN", "COMMIT", "ROLLBACK"};
      uint64_t w = rng_.below(20);
      TxControl(s, words[w < 9 ? 0 : (w < 19 ? 1 : 2)]);
      return;
    }
  }
  uint32_t s = IdleSession();
  if (s == UINT32_MAX) s = NewSession(true);
  StatementRecord(s);
}

void Generator::StartCheckpoint() {
  Scenario& s = NewScenario();
  s.checkpoint = true;
  ++counts_.checkpoints;
  Rec& a = Add(s, checkpointer_);
  a.msg = rng_.chance(0.9) ? "checkpoint starting: time" : "checkpoint starting: wal";
  Rec& b = Add(s, checkpointer_);
  int64_t bufs = rng_.range(100, 200000);
  std::string& m = b.msg;
  m += "checkpoint complete: wrote ";
  AppI(m, bufs);
  m += " buffers (";
  AppI(m, bufs * 1000 / 2097152 / 10);
  m += '.';
  AppI(m, bufs * 1000 / 2097152 % 10);
  m += "%); 0 WAL file(s) added, ";
  AppI(m, rng_.range(0, 3));
  m += " removed, ";
  AppI(m, rng_.range(0, 40));
  m += " recycled; write=";
  int64_t w = rng_.range(1000, 270000);
  AppMs(m, w);
  m += " s, sync=0.";
  Pad(m, static_cast<uint64_t>(rng_.range(1, 999)), 3);
  m += " s, total=";
  AppMs(m, w + rng_.range(1, 900));
  m += " s; sync files=";
  AppI(m, rng_.range(1, 300));
  m += ", longest=0.";
  Pad(m, static_cast<uint64_t>(rng_.range(1, 300)), 3);
  m += " s, average=0.00";
  AppI(m, rng_.range(1, 9));
  m += " s; distance=";
  int64_t dist = rng_.range(1000, 900000);
  AppI(m, dist);
  m += " kB, estimate=";
  AppI(m, dist + rng_.range(0, 90000));
  m += " kB";
}

}  // namespace gen_pglog
