// gen_pglog: a deterministic generator of realistic PostgreSQL 15 server logs
// (stderr with log_line_prefix '%m [%p] %q%u@%d/%a ', csvlog, jsonlog) of any
// size, for lockgraph's benchmark (bench/run.sh, issue 7).
//
//   gen_pglog --format stderr|csvlog|jsonlog --size 1G [--seed N]
//             [--deadlocks-per-10k R] [--waits-per-10k R] [--pid-max N] -o FILE
//
// Writes FILE and FILE.expected.json: the exact number of deadlock reports,
// lock waits (by outcome), records and physical lines in FILE. Same arguments,
// same bytes.
//
// Every record has the shape PostgreSQL 15.18 writes with
//   logging_collector = on, log_lock_waits = on, log_connections = on,
//   log_disconnections = on, log_min_duration_statement = 0,
//   log_checkpoints = on, log_autovacuum_min_duration = 0, lc_messages = C,
//   log_timezone = UTC, deadlock_timeout = 1s
// as captured from a real server (samples/postgresql/ and a run of
// scripts/pg-cluster.sh with those settings): duration lines (simple and
// extended protocol with DETAIL parameters, multi-line SQL), connections,
// disconnections, FATAL at startup, errors with DETAIL/HINT/CONTEXT/STATEMENT
// and ` at character N`, checkpoints, autovacuum/autoanalyze reports, lock
// waits (still waiting, repeated still waiting, avoided deadlock, acquired,
// or cancelled by lock_timeout, statement_timeout or the client; row, tuple
// and relation locks; chains) and deadlocks of 2 to 6 processes whose edges mix
// `ShareLock on transaction X` and `ExclusiveLock on tuple (b,o) of relation R
// of database D`, each preceded by the victim's `detected deadlock while
// waiting` LOG. Query texts are single-line, multi-line, PL/pgSQL calls
// (stacked CONTEXT) or start and end with a newline. Records of many backends
// interleave; the lines of one record stay together (logging_collector writes
// each message whole). Every scenario is finished before the file ends, so
// no wait is left open and the expected counts are exact.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

// ---------------------------------------------------------------- random

// xoshiro256** seeded by splitmix64; ranges by multiply-shift, so the output
// depends on nothing but the seed (no <random> distributions, whose results
// differ between standard libraries).
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t x = seed;
    for (auto& v : s_) {
      x += 0x9e3779b97f4a7c15ULL;
      uint64_t z = x;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      v = z ^ (z >> 31);
    }
  }
  uint64_t next() {
    const uint64_t r = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return r;
  }
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64); }
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo + 1))); }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// ---------------------------------------------------------------- text helpers

void AppU(std::string& o, uint64_t v) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  o.append(b, r.ptr);
}
void AppI(std::string& o, int64_t v) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  o.append(b, r.ptr);
}
void Pad(std::string& o, uint64_t v, int width) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  for (int n = static_cast<int>(r.ptr - b); n < width; ++n) o += '0';
  o.append(b, r.ptr);
}
// "%ld.%03d": milliseconds with microseconds, as PostgreSQL prints durations.
void AppMs(std::string& o, int64_t us) {
  AppI(o, us / 1000);
  o += '.';
  Pad(o, static_cast<uint64_t>(us % 1000), 3);
}
void AppHex(std::string& o, uint64_t v) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v, 16);
  o.append(b, r.ptr);
}

// stderr: every embedded newline is followed by a TAB (append_with_tabs).
void AppTabbed(std::string& o, std::string_view s) {
  size_t i = 0;
  while (true) {
    const void* nl = std::memchr(s.data() + i, '\n', s.size() - i);
    if (!nl) {
      o.append(s.data() + i, s.size() - i);
      return;
    }
    size_t j = static_cast<const char*>(nl) - s.data();
    o.append(s.data() + i, j - i);
    o += "\n\t";
    i = j + 1;
  }
}
// csvlog: "..." with every " doubled (appendCSVLiteral); newlines stay raw.
void AppCsv(std::string& o, std::string_view s) {
  o += '"';
  size_t i = 0;
  while (true) {
    const void* q = std::memchr(s.data() + i, '"', s.size() - i);
    if (!q) {
      o.append(s.data() + i, s.size() - i);
      break;
    }
    size_t j = static_cast<const char*>(q) - s.data();
    o.append(s.data() + i, j + 1 - i);
    o += '"';
    i = j + 1;
  }
  o += '"';
}
// jsonlog: escape_json.
void AppJson(std::string& o, std::string_view s) {
  o += '"';
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    o.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '\b': o += "\\b"; break;
      case '\f': o += "\\f"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      default: {
        static const char* hex = "0123456789abcdef";
        o += "\\u00";
        o += hex[c >> 4];
        o += hex[c & 15];
      }
    }
  }
  o.append(s.data() + run, s.size() - run);
  o += '"';
}

// ---------------------------------------------------------------- time

// "YYYY-MM-DD HH:MM:SS" of a UTC epoch second (Howard Hinnant's civil_from_days).
void AppCivil(std::string& o, int64_t sec) {
  int64_t days = sec / 86400, rem = sec % 86400;
  int64_t z = days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  uint64_t doe = static_cast<uint64_t>(z - era * 146097);
  uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = static_cast<int64_t>(yoe) + era * 400;
  uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  uint64_t mp = (5 * doy + 2) / 153;
  uint64_t d = doy - (153 * mp + 2) / 5 + 1;
  uint64_t m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
  Pad(o, static_cast<uint64_t>(y), 4);
  o += '-';
  Pad(o, m, 2);
  o += '-';
  Pad(o, d, 2);
  o += ' ';
  Pad(o, static_cast<uint64_t>(rem / 3600), 2);
  o += ':';
  Pad(o, static_cast<uint64_t>(rem / 60 % 60), 2);
  o += ':';
  Pad(o, static_cast<uint64_t>(rem % 60), 2);
}

// ---------------------------------------------------------------- world

enum class Fmt { kStderr, kCsv, kJson };

struct Table {
  const char* name;
  uint32_t oid;
  const char* key;
  const char* set;  // SET clause of the row update
  const char* func;  // PL/pgSQL wrapper, e.g. "reserve_item"
  uint32_t rows;     // contended rows: keys 1..rows
  uint32_t blocks;   // heap pages they sit in
};
struct Db {
  const char* name;
  uint32_t oid;
  std::vector<Table> tables;
  std::vector<const char*> users;
  std::vector<const char*> apps;  // "" = no application_name
};

const std::vector<Db>& Dbs() {
  static const std::vector<Db> dbs = {
      {"shop", 16384,
       {{"inventory", 16402, "sku", "qty = qty - 1", "reserve_item", 2000, 14},
        {"orders", 16411, "id", "status = 'paid', updated_at = now()", "pay_order", 2000000, 40000},
        {"customers", 16420, "id", "last_seen = now()", "touch_customer", 300000, 6000},
        {"carts", 16433, "id", "updated_at = now()", "touch_cart", 20000, 250}},
       {"shop_app", "shop_app", "shop_app", "checkout"},
       {"shop-api", "shop-api", "checkout-worker", "", "PostgreSQL JDBC Driver"}},
      {"billing", 16385,
       {{"accounts", 24611, "id", "balance = balance - 10.00", "debit", 300, 3},
        {"invoices", 24620, "id", "state = 'sent'", "send_invoice", 100000, 2500},
        {"ledger_totals", 24633, "account_id", "total = total + 1", "bump_total", 300, 2}},
       {"billing", "billing", "postgres"},
       {"billing-cron", "psql", "PostgreSQL JDBC Driver", ""}},
  };
  return dbs;
}

struct Proc {
  uint32_t pid = 0;
  bool client = true;
  const char* backend_type = "client backend";
  const Db* db = nullptr;
  const char* user = "";
  const char* app = "";
  std::string host;
  uint32_t port = 0;
  int64_t start_us = 0;
  std::string sid;        // %c
  std::string start_str;  // session_start "YYYY-MM-DD HH:MM:SS UTC"
  uint32_t line_num = 0;  // csvlog/jsonlog per-message counter
  uint32_t backend_id = 0;
  uint32_t lxid = 0;
  bool busy = false;  // owned by a scenario
  bool alive = true;
};

// One message. Parts that are empty are absent.
struct Rec {
  uint32_t proc = 0;
  uint8_t phase = 2;  // 0 connection received, 1 authenticated (no app yet), 2 normal
  const char* sev = "LOG";
  const char* state = "00000";
  const char* btype = nullptr;  // overrides the process's backend_type
  std::string msg;
  int cursor = 0;
  std::string detail, hint, context, statement;
  std::string ps;  // command tag (sessions)
  std::string vxid;
  uint64_t txid = 0;
  // Lock-wait reports: the message ends with "after X ms", computed when the
  // record is written: 1 = first report (deadlock_timeout + jitter, starts the
  // wait clock), 2 = later report (time since the start).
  uint8_t after_kind = 0;
  int wait_slot = -1;

  void Reset() {
    phase = 2;
    sev = "LOG";
    state = "00000";
    btype = nullptr;
    msg.clear();
    cursor = 0;
    detail.clear();
    hint.clear();
    context.clear();
    statement.clear();
    ps.clear();
    vxid.clear();
    txid = 0;
    after_kind = 0;
    wait_slot = -1;
  }
};

struct Scenario {
  std::deque<Rec> steps;  // a deque: builders keep references across Add()
  size_t next = 0;
  uint64_t due = 0;  // record number at which the next step is written
  uint64_t id = 0;
  std::vector<int64_t> wait_start;  // per wait slot, µs
  std::vector<uint32_t> procs;      // sessions to release at the end
  bool checkpoint = false;
};

struct Counts {
  uint64_t records = 0, lines = 0, bytes = 0;
  uint64_t deadlocks = 0, tuple_edges = 0, deadlock_sizes[8] = {};
  uint64_t lock_waits = 0, acquired = 0, deadlock_outcome = 0, timeout = 0, cancelled = 0;
  uint64_t still_waiting = 0, detected = 0, acquired_reports = 0, avoided = 0;
  uint64_t connections = 0, disconnections = 0, errors = 0, statements = 0;
  uint64_t checkpoints = 0, autovacuum = 0, multiline_statements = 0;
};

struct Options {
  Fmt fmt = Fmt::kStderr;
  uint64_t size = 64ull << 20;
  uint64_t seed = 1;
  double deadlocks_per_10k = 2.0;
  double waits_per_10k = 10.0;
  uint32_t pid_max = 32768;
  std::string out;
};

// ---------------------------------------------------------------- SQL text

// Statement templates. Markers: \x01 id, \x02 small int, \x03 amount,
// \x04 word, \x05 interval count.
struct Tpl {
  const char* tag;  // command tag
  const char* db;   // database it belongs to ("" = any)
  const char* text;
  const char* ext;  // extended-protocol text with $n, or nullptr
  int nparams;
};

const std::vector<Tpl>& Templates() {
  static const std::vector<Tpl> t = {
      {"SELECT", "shop", "SELECT id, customer_id, status, total FROM orders WHERE id = \x01;",
       "SELECT id, customer_id, status, total FROM orders WHERE id = $1", 1},
      {"SELECT", "shop", "SELECT count(*) FROM order_items WHERE order_id = \x01;",
       "SELECT count(*) FROM order_items WHERE order_id = $1", 1},
      {"UPDATE", "shop", "UPDATE orders SET status = 'shipped', updated_at = now() WHERE id = \x01;",
       "UPDATE orders SET status = $1, updated_at = now() WHERE id = $2", 2},
      {"INSERT", "shop", "INSERT INTO order_items (order_id, sku, qty, price) VALUES (\x01, \x01, \x02, \x03);",
       "INSERT INTO order_items (order_id, sku, qty, price) VALUES ($1, $2, $3, $4)", 4},
      {"UPDATE", "shop", "UPDATE inventory SET qty = qty - \x02 WHERE sku = \x01;",
       "UPDATE inventory SET qty = qty - $1 WHERE sku = $2", 2},
      {"SELECT", "shop", "SELECT c.id, c.email, c.created_at\n  FROM customers c\n WHERE c.id = \x01;", nullptr, 0},
      {"SELECT", "shop",
       "SELECT o.id,\n       o.total,\n       c.email\n  FROM orders o\n  JOIN customers c ON c.id = o.customer_id\n"
       " WHERE o.created_at >= now() - interval '\x05 days'\n ORDER BY o.created_at DESC\n LIMIT 50;",
       nullptr, 0},
      {"SELECT", "shop",
       "WITH recent AS (\n    SELECT customer_id, sum(total) AS spent\n      FROM orders\n"
       "     WHERE created_at > now() - interval '30 days'\n     GROUP BY customer_id\n)\n"
       "SELECT c.email, r.spent\n  FROM recent r\n  JOIN customers c USING (customer_id)\n ORDER BY r.spent DESC\n LIMIT \x02;",
       nullptr, 0},
      {"DELETE", "shop", "DELETE FROM carts WHERE updated_at < now() - interval '\x05 hours';", nullptr, 0},
      {"INSERT", "shop", "INSERT INTO carts (customer_id, created_at) VALUES (\x01, now()) RETURNING id;",
       "INSERT INTO carts (customer_id, created_at) VALUES ($1, now()) RETURNING id", 1},
      {"SELECT", "shop", "SELECT sku, qty FROM inventory WHERE sku = ANY('{\x01,\x01,\x01}'::int[]);", nullptr, 0},
      {"SELECT", "billing", "SELECT * FROM ledger WHERE account_id = \x01 ORDER BY posted_at DESC LIMIT 20;",
       "SELECT * FROM ledger WHERE account_id = $1 ORDER BY posted_at DESC LIMIT 20", 1},
      {"INSERT", "billing", "INSERT INTO ledger (account_id, amount, memo) VALUES (\x01, \x03, '\x04');",
       "INSERT INTO ledger (account_id, amount, memo) VALUES ($1, $2, $3)", 3},
      {"UPDATE", "billing", "UPDATE invoices SET state = 'paid', paid_at = now() WHERE id = \x01;",
       "UPDATE invoices SET state = $1, paid_at = now() WHERE id = $2", 2},
      {"SELECT", "billing",
       "SELECT a.id,\n       a.balance,\n       sum(l.amount) AS pending\n  FROM accounts a\n"
       "  LEFT JOIN ledger l ON l.account_id = a.id AND l.posted_at IS NULL\n WHERE a.id = \x01\n GROUP BY a.id, a.balance;",
       nullptr, 0},
      {"SELECT", "", "SELECT 1;", "SELECT 1", 0},
      {"SELECT", "", "SELECT now();", nullptr, 0},
      {"SET", "", "SET statement_timeout = '\x05s';", nullptr, 0},
      {"SHOW", "", "SHOW transaction_isolation;", nullptr, 0},
  };
  return t;
}

const std::vector<const char*>& Words() {
  static const std::vector<const char*> w = {"refund", "monthly fee", "adjustment", "promo", "chargeback",
                                             "correction", "late fee", "transfer", "bonus", "rounding"};
  return w;
}

// ---------------------------------------------------------------- generator

class Generator {
 public:
  explicit Generator(const Options& o) : opt_(o), rng_(o.seed * 0x2545F4914F6CDD1DULL + 12345) {
    buf_.reserve(kFlushAt + (1 << 20));
    now_us_ = 1795910400LL * 1000000;  // 2026-11-28 00:00:00 UTC
    now_us_ += rng_.range(0, 86400) * 1000000LL;
    pid_in_use_.assign(opt_.pid_max + 1, false);
    next_pid_ = 300 + static_cast<uint32_t>(rng_.range(0, opt_.pid_max / 2));
    next_xid_ = 5000000 + rng_.range(0, 1000000);
    checkpointer_ = NewBackground("checkpointer");
    procs_[checkpointer_].start_us -= 3600LL * 1000000;
    RefreshSessionStrings(procs_[checkpointer_]);
    for (int i = 0; i < 60; ++i) NewSession(/*log_it=*/false);
  }

  int Run() {
    out_ = std::fopen(opt_.out.c_str(), "wb");
    if (!out_) {
      std::fprintf(stderr, "gen_pglog: %s: %s\n", opt_.out.c_str(), std::strerror(errno));
      return 2;
    }
    const double p_dl = opt_.deadlocks_per_10k / 10000.0;
    const double p_wait = opt_.waits_per_10k / 10000.0;
    while (counts_.bytes + buf_.size() < opt_.size) {
      if (Scenario* s = DueScenario()) {
        Step(*s);
        continue;
      }
      NormalRecord();
      if (rng_.chance(p_dl)) StartDeadlock();
      if (rng_.chance(p_wait)) StartLockWait();
      if (rng_.chance(0.0002)) StartCheckpoint();
    }
    // Finish every scenario so that the counts are exact: no wait is left open.
    while (!active_.empty()) {
      Scenario* s = active_.front().get();
      for (auto& a : active_)
        if (a->due < s->due || (a->due == s->due && a->id < s->id)) s = a.get();
      Step(*s);
    }
    Flush();
    if (std::fclose(out_) != 0) {
      std::fprintf(stderr, "gen_pglog: %s: %s\n", opt_.out.c_str(), std::strerror(errno));
      return 2;
    }
    return WriteExpected();
  }

 private:
  static constexpr size_t kFlushAt = 4 << 20;

  // ------------------------------------------------ processes

  // Like the kernel: pids grow (by a few: other processes fork too), wrap
  // at pid_max to 300 and skip the ones in use. With pid_max = 32768 (this
  // Debian 12 machine's value) a 1 GB log reuses every pid many times.
  uint32_t AllocPid() {
    next_pid_ += static_cast<uint32_t>(rng_.range(1, 9));
    while (true) {
      if (next_pid_ >= opt_.pid_max) next_pid_ = 300 + next_pid_ % 7;
      if (!pid_in_use_[next_pid_]) break;
      ++next_pid_;
    }
    pid_in_use_[next_pid_] = true;
    return next_pid_;
  }
  void FreeSlot(uint32_t i) {
    pid_in_use_[procs_[i].pid] = false;
    free_slots_.push_back(i);
  }

  void RefreshSessionStrings(Proc& p) {
    p.sid.clear();
    AppHex(p.sid, static_cast<uint64_t>(p.start_us / 1000000));
    p.sid += '.';
    AppHex(p.sid, p.pid);
    p.start_str.clear();
    AppCivil(p.start_str, p.start_us / 1000000);
    p.start_str += " UTC";
  }

  uint32_t NewProcSlot() {
    if (!free_slots_.empty()) {
      uint32_t i = free_slots_.back();
      free_slots_.pop_back();
      procs_[i] = Proc();
      return i;
    }
    procs_.emplace_back();
    return static_cast<uint32_t>(procs_.size() - 1);
  }

  uint32_t NewBackground(const char* type) {
    uint32_t i = NewProcSlot();
    Proc& p = procs_[i];
    p.pid = AllocPid();
    p.client = false;
    p.backend_type = type;
    p.start_us = now_us_;
    p.backend_id = static_cast<uint32_t>(rng_.range(1, 9));
    RefreshSessionStrings(p);
    return i;
  }

  // A client session; with log_it, its two connection records are written.
  uint32_t NewSession(bool log_it) {
    uint32_t i = NewProcSlot();
    Proc& p = procs_[i];
    const auto& dbs = Dbs();
    p.db = &dbs[rng_.below(10) < 7 ? 0 : 1];
    p.user = rng_.pick(p.db->users);
    p.app = rng_.pick(p.db->apps);
    p.pid = AllocPid();
    p.host.clear();
    p.host += "10.0.";
    AppU(p.host, static_cast<uint64_t>(rng_.range(1, 4)));
    p.host += '.';
    AppU(p.host, static_cast<uint64_t>(rng_.range(2, 250)));
    p.port = static_cast<uint32_t>(rng_.range(32768, 60999));
    p.start_us = now_us_ - (log_it ? 0 : rng_.range(1, 3600) * 1000000LL);
    p.backend_id = static_cast<uint32_t>(rng_.range(3, 300));
    p.lxid = static_cast<uint32_t>(rng_.range(1, 50));
    RefreshSessionStrings(p);
    sessions_.push_back(i);
    if (log_it) {
      ++counts_.connections;
      Rec& r = Tmp(i);
      r.phase = 0;
      r.btype = "not initialized";
      r.msg += "connection received: host=";
      r.msg += p.host;
      r.msg += " port=";
      AppU(r.msg, p.port);
      Emit(r, nullptr);
      Rec& a = Tmp(i);
      a.phase = 1;
      a.ps = "authentication";
      NewVxid(p, a.vxid);
      a.msg += "connection authorized: user=";
      a.msg += p.user;
      a.msg += " database=";
      a.msg += p.db->name;
      if (*p.app) {
        a.msg += " application_name=";
        a.msg += p.app;
      }
      Emit(a, nullptr);
    }
    return i;
  }

  void EndSession(size_t session_index) {
    uint32_t i = sessions_[session_index];
    Proc& p = procs_[i];
    ++counts_.disconnections;
    Rec& r = Tmp(i);
    r.ps = "idle";
    int64_t us = now_us_ - p.start_us + rng_.range(0, 999);
    r.msg += "disconnection: session time: ";
    AppI(r.msg, us / 3600000000LL);
    r.msg += ':';
    Pad(r.msg, static_cast<uint64_t>(us / 60000000LL % 60), 2);
    r.msg += ':';
    Pad(r.msg, static_cast<uint64_t>(us / 1000000LL % 60), 2);
    r.msg += '.';
    Pad(r.msg, static_cast<uint64_t>(us / 1000 % 1000), 3);
    r.msg += " user=";
    r.msg += p.user;
    r.msg += " database=";
    r.msg += p.db->name;
    r.msg += " host=";
    r.msg += p.host;
    r.msg += " port=";
    AppU(r.msg, p.port);
    Emit(r, nullptr);
    p.alive = false;
    sessions_[session_index] = sessions_.back();
    sessions_.pop_back();
    FreeSlot(i);
  }

  void NewVxid(Proc& p, std::string& out) {
    out.clear();
    AppU(out, p.backend_id);
    out += '/';
    AppU(out, ++p.lxid);
  }
  void ZeroVxid(const Proc& p, std::string& out) {
    out.clear();
    AppU(out, p.backend_id);
    out += "/0";
  }

  // An idle session (not owned by a scenario), or UINT32_MAX.
  uint32_t IdleSession(const Db* db = nullptr) {
    for (int tries = 0; tries < 64; ++tries) {
      uint32_t i = sessions_[rng_.below(sessions_.size())];
      if (!procs_[i].busy && (!db || procs_[i].db == db)) return i;
    }
    return UINT32_MAX;
  }

  Rec& Tmp(uint32_t proc) {
    tmp_.Reset();
    tmp_.proc = proc;
    return tmp_;
  }

  // ------------------------------------------------ SQL

  void Expand(std::string& o, const char* t) {
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

  void AppDuration(std::string& o, bool slow) {
    o += "duration: ";
    int64_t us = slow ? rng_.range(5000, 9000000) : (rng_.chance(0.8) ? rng_.range(3, 900) : rng_.range(900, 60000));
    AppMs(o, us);
    o += " ms  ";
  }

  const Tpl& PickTemplate(const Db* db) {
    const auto& ts = Templates();
    while (true) {
      const Tpl& t = ts[rng_.below(ts.size())];
      if (!*t.db || std::strcmp(t.db, db->name) == 0) return t;
    }
  }

  void StatementRecord(uint32_t si) {
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

  void TxControl(uint32_t si, const char* word) {
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

  void ErrorRecord(uint32_t si) {
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
  void FatalStartup() {
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

  void Autovacuum() {
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

  void NormalRecord() {
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

  // ------------------------------------------------ scenarios

  Scenario* DueScenario() {
    Scenario* best = nullptr;
    for (auto& a : active_)
      if (a->due <= counts_.records && (!best || a->due < best->due || (a->due == best->due && a->id < best->id)))
        best = a.get();
    return best;
  }

  void Step(Scenario& s) {
    Emit(s.steps[s.next], &s);
    ++s.next;
    if (s.next < s.steps.size()) {
      // A checkpoint completes minutes later; a lock scenario's records
      // are spread over the next few hundred records.
      s.due = counts_.records + static_cast<uint64_t>(s.checkpoint ? rng_.range(2000, 40000) : rng_.range(1, 120));
      return;
    }
    for (uint32_t p : s.procs) procs_[p].busy = false;
    for (size_t i = 0; i < active_.size(); ++i)
      if (active_[i].get() == &s) {
        active_[i] = std::move(active_.back());
        active_.pop_back();
        break;
      }
  }

  Scenario& NewScenario() {
    active_.push_back(std::make_unique<Scenario>());
    Scenario& s = *active_.back();
    s.id = next_scenario_id_++;
    s.due = counts_.records + static_cast<uint64_t>(rng_.range(1, 50));
    return s;
  }

  Rec& Add(Scenario& s, uint32_t proc) {
    s.steps.emplace_back();
    Rec& r = s.steps.back();
    r.proc = proc;
    return r;
  }

  void StartCheckpoint() {
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

  // A row lock owned by a transaction.
  struct Row {
    const Table* t;
    uint64_t key;
    uint32_t block, offset;
  };
  Row NewRow(const Db& db, const Table* t = nullptr) {
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
  std::string TuplePos(const Row& r) { return "(" + std::to_string(r.block) + "," + std::to_string(r.offset) + ")"; }
  std::string TupleTag(const Db& db, const Row& r) {
    return "tuple " + TuplePos(r) + " of relation " + std::to_string(r.t->oid) + " of database " + std::to_string(db.oid);
  }
  std::string RowContext(const Row& r) {
    return "while updating tuple " + TuplePos(r) + " in relation \"" + r.t->name + "\"";
  }

  // How one session's row update is written: plain, multi-line, or through a
  // PL/pgSQL function (then the CONTEXT stacks the SQL statement and the
  // function frame).
  struct UpdateText {
    std::string query;    // what pg_stat_activity shows / STATEMENT
    std::string inner;    // the UPDATE itself
    std::string tag;      // command tag
    std::string frames;   // extra CONTEXT frames after the row-wait line
  };
  UpdateText MakeUpdate(const Row& r, int style) {
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
  int PickStyle() {
    uint64_t v = rng_.below(100);
    return v < 72 ? 0 : (v < 88 ? 1 : (v < 95 ? 2 : 3));
  }

  struct Txn {
    uint32_t proc;
    uint64_t xid;
    std::string vxid;
  };
  Txn Begin(Scenario& s, uint32_t proc) {
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
  void DurationStep(Scenario& s, const Txn& t, const std::string& tag, const std::string& query, int64_t ms_floor) {
    Rec& r = Add(s, t.proc);
    r.ps = tag;
    r.vxid = t.vxid;
    r.txid = t.xid;
    r.msg += "duration: ";
    AppMs(r.msg, ms_floor * 1000 + rng_.range(3, 900));
    r.msg += " ms  statement: ";
    r.msg += query;
  }
  void Commit(Scenario& s, const Txn& t, const char* word = "COMMIT") {
    Rec& r = Add(s, t.proc);
    r.ps = word;
    r.vxid = t.vxid;
    r.txid = t.xid;
    AppDuration(r.msg, false);
    r.msg += "statement: ";
    r.msg += word;
  }
  // A lock-wait report of `t`'s backend; returns it so the caller can add parts.
  Rec& Report(Scenario& s, const Txn& t, const std::string& tag, const char* verb, const std::string& mode,
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
  std::string HolderDetail(uint32_t holder, std::initializer_list<uint32_t> queue) {
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
  bool Claim(size_t n, std::vector<uint32_t>& out, const Db*& db) {
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

  void StartLockWait() {
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

  // How a row wait ends: the lock is granted, or the statement is cancelled
  // by lock_timeout, statement_timeout or the client (pg_cancel_backend).
  enum WaitEnd { kAcquired, kLockTimeout, kStatementTimeout, kUserCancel };

  // H updates a row; W waits for H's transaction, then acquires it (or is
  // cancelled).
  void RowWait(WaitEnd end) {
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
  void ChainWait() {
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
  void TupleWait() {
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
  void RelationWait() {
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

  // A deadlock of n processes, victim M0. Edge i: Mi waits for M(i+1).
  // Transaction edges: Mi updates the row M(i+1) holds. Tuple edges: Mi
  // updates the row that M(i+1) is itself waiting for, and waits for the
  // tuple lock M(i+1) holds (never two tuple edges in a row; the last edge,
  // blocked by the victim, is a transaction edge, since the victim waits last).
  void StartDeadlock() {
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

  // ------------------------------------------------ writing

  void Emit(const Rec& r, Scenario* s) {
    now_us_ += rng_.range(20, 1400);
    Proc& p = procs_[r.proc];
    ++p.line_num;
    ++counts_.records;
    const std::string* msg = &r.msg;
    if (r.after_kind) {
      int64_t waited;
      if (r.after_kind == 1) {
        waited = 1000000 + rng_.range(5, 400);
        s->wait_start[r.wait_slot] = now_us_ - waited;
      } else {
        waited = now_us_ - s->wait_start[r.wait_slot];
      }
      msg_.assign(r.msg);
      msg_ += "after ";
      AppMs(msg_, waited);
      msg_ += " ms";
      msg = &msg_;
    }
    // %m: identical on every line of a message.
    int64_t sec = now_us_ / 1000000;
    if (sec != cached_sec_) {
      cached_sec_ = sec;
      sec_str_.clear();
      AppCivil(sec_str_, sec);
    }
    ts_.assign(sec_str_);
    ts_ += '.';
    Pad(ts_, static_cast<uint64_t>(now_us_ / 1000 % 1000), 3);
    ts_ += " UTC";
    switch (opt_.fmt) {
      case Fmt::kStderr: WriteStderr(r, p, *msg); break;
      case Fmt::kCsv: WriteCsv(r, p, *msg); break;
      case Fmt::kJson: WriteJson(r, p, *msg); break;
    }
    if (buf_.size() >= kFlushAt) Flush();
  }

  void WriteStderr(const Rec& r, const Proc& p, const std::string& msg) {
    prefix_.assign(ts_);
    prefix_ += " [";
    AppU(prefix_, p.pid);
    prefix_ += "] ";
    if (p.client) {
      if (r.phase == 0) {
        prefix_ += "[unknown]@[unknown]/[unknown] ";
      } else {
        prefix_ += p.user;
        prefix_ += '@';
        prefix_ += p.db->name;
        prefix_ += '/';
        prefix_ += (r.phase == 1 || !*p.app) ? "[unknown]" : p.app;
        prefix_ += ' ';
      }
    }
    std::string& o = buf_;
    o += prefix_;
    o += r.sev;
    o += ":  ";
    AppTabbed(o, msg);
    if (r.cursor) {
      o += " at character ";
      AppI(o, r.cursor);
    }
    o += '\n';
    auto part = [&](const char* label, const std::string& text) {
      if (text.empty()) return;
      o += prefix_;
      o += label;
      AppTabbed(o, text);
      o += '\n';
    };
    part("DETAIL:  ", r.detail);
    part("HINT:  ", r.hint);
    part("CONTEXT:  ", r.context);
    part("STATEMENT:  ", r.statement);
  }

  void WriteCsv(const Rec& r, const Proc& p, const std::string& msg) {
    std::string& o = buf_;
    o += ts_;
    o += ',';
    if (p.client && r.phase >= 1) {
      AppCsv(o, p.user);
      o += ',';
      AppCsv(o, p.db->name);
      o += ',';
    } else {
      o += ",,";
    }
    AppU(o, p.pid);
    o += ',';
    if (p.client) {
      o += '"';
      o += p.host;
      o += ':';
      AppU(o, p.port);
      o += '"';
    }
    o += ',';
    o += p.sid;
    o += ',';
    AppU(o, p.line_num);
    o += ',';
    if (p.client) AppCsv(o, r.ps);
    o += ',';
    o += p.start_str;
    o += ',';
    o += r.vxid;
    o += ',';
    AppU(o, r.txid);
    o += ',';
    o += r.sev;
    o += ',';
    o += r.state;
    o += ',';
    AppCsv(o, msg);
    o += ',';
    if (!r.detail.empty()) AppCsv(o, r.detail);
    o += ',';
    if (!r.hint.empty()) AppCsv(o, r.hint);
    o += ",,,";  // internal_query, internal_query_pos
    if (!r.context.empty()) AppCsv(o, r.context);
    o += ',';
    if (!r.statement.empty()) AppCsv(o, r.statement);
    o += ',';
    if (r.cursor) AppI(o, r.cursor);
    o += ",,";  // location
    AppCsv(o, (p.client && r.phase == 2) ? p.app : "");
    o += ',';
    AppCsv(o, r.btype ? r.btype : p.backend_type);
    o += ",,0\n";  // leader_pid, query_id
  }

  void WriteJson(const Rec& r, const Proc& p, const std::string& msg) {
    std::string& o = buf_;
    o += "{\"timestamp\":\"";
    o += ts_;
    o += '"';
    if (p.client && r.phase >= 1) {
      o += ",\"user\":";
      AppJson(o, p.user);
      o += ",\"dbname\":";
      AppJson(o, p.db->name);
    }
    o += ",\"pid\":";
    AppU(o, p.pid);
    if (p.client) {
      o += ",\"remote_host\":\"";
      o += p.host;
      o += "\",\"remote_port\":";
      AppU(o, p.port);
    }
    o += ",\"session_id\":\"";
    o += p.sid;
    o += "\",\"line_num\":";
    AppU(o, p.line_num);
    if (p.client) {
      o += ",\"ps\":";
      AppJson(o, r.ps);
    }
    o += ",\"session_start\":\"";
    o += p.start_str;
    o += '"';
    if (!r.vxid.empty()) {
      o += ",\"vxid\":\"";
      o += r.vxid;
      o += '"';
    }
    o += ",\"txid\":";
    AppU(o, r.txid);
    o += ",\"error_severity\":\"";
    o += r.sev;
    o += '"';
    if (std::strcmp(r.state, "00000") != 0) {
      o += ",\"state_code\":\"";
      o += r.state;
      o += '"';
    }
    o += ",\"message\":";
    AppJson(o, msg);
    if (!r.detail.empty()) {
      o += ",\"detail\":";
      AppJson(o, r.detail);
    }
    if (!r.hint.empty()) {
      o += ",\"hint\":";
      AppJson(o, r.hint);
    }
    if (!r.context.empty()) {
      o += ",\"context\":";
      AppJson(o, r.context);
    }
    if (!r.statement.empty()) {
      o += ",\"statement\":";
      AppJson(o, r.statement);
      if (r.cursor) {
        o += ",\"cursor_position\":";
        AppI(o, r.cursor);
      }
    }
    if (p.client && r.phase == 2 && *p.app) {
      o += ",\"application_name\":";
      AppJson(o, p.app);
    }
    o += ",\"backend_type\":";
    AppJson(o, r.btype ? r.btype : p.backend_type);
    o += ",\"query_id\":0}\n";
  }

  void Flush() {
    if (buf_.empty()) return;
    counts_.lines += static_cast<uint64_t>(std::count(buf_.begin(), buf_.end(), '\n'));
    counts_.bytes += buf_.size();
    if (std::fwrite(buf_.data(), 1, buf_.size(), out_) != buf_.size()) {
      std::fprintf(stderr, "gen_pglog: write %s: %s\n", opt_.out.c_str(), std::strerror(errno));
      std::exit(2);
    }
    buf_.clear();
  }

  int WriteExpected() {
    std::string path = opt_.out + ".expected.json";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
      std::fprintf(stderr, "gen_pglog: %s: %s\n", path.c_str(), std::strerror(errno));
      return 2;
    }
    const char* fmt = opt_.fmt == Fmt::kStderr ? "stderr" : (opt_.fmt == Fmt::kCsv ? "csvlog" : "jsonlog");
    const Counts& c = counts_;
    std::string rels;  // relation OID -> name, to check relation_name
    for (const Db& db : Dbs())
      for (const Table& t : db.tables) {
        if (!rels.empty()) rels += ", ";
        rels += "\"" + std::to_string(t.oid) + "\": \"" + t.name + "\"";
      }
    std::string sizes;
    for (int n = 2; n <= 6; ++n) {
      if (n > 2) sizes += ", ";
      sizes += "\"" + std::to_string(n) + "\": " + std::to_string(c.deadlock_sizes[n]);
    }
    std::fprintf(f,
                 "{\n"
                 "  \"generator\": \"gen_pglog\",\n"
                 "  \"format\": \"%s\",\n"
                 "  \"log_line_prefix\": \"%%m [%%p] %%q%%u@%%d/%%a \",\n"
                 "  \"seed\": %llu,\n"
                 "  \"deadlocks_per_10k\": %g,\n"
                 "  \"waits_per_10k\": %g,\n"
                 "  \"pid_max\": %u,\n"
                 "  \"bytes\": %llu,\n"
                 "  \"lines\": %llu,\n"
                 "  \"records\": %llu,\n"
                 "  \"deadlocks\": %llu,\n"
                 "  \"deadlock_sizes\": {%s},\n"
                 "  \"tuple_edges\": %llu,\n"
                 "  \"relations\": {%s},\n"
                 "  \"lock_waits\": %llu,\n"
                 "  \"lock_waits_by_outcome\": {\"acquired\": %llu, \"deadlock\": %llu, \"timeout\": %llu, "
                 "\"cancelled\": %llu},\n"
                 "  \"reports\": {\"still_waiting\": %llu, \"detected_deadlock\": %llu, \"acquired\": %llu, "
                 "\"avoided_deadlock\": %llu},\n"
                 "  \"other\": {\"statements\": %llu, \"multiline_statements\": %llu, \"errors\": %llu, "
                 "\"connections\": %llu, \"disconnections\": %llu, \"checkpoints\": %llu, \"autovacuum\": %llu}\n"
                 "}\n",
                 fmt, static_cast<unsigned long long>(opt_.seed), opt_.deadlocks_per_10k, opt_.waits_per_10k, opt_.pid_max,
                 (unsigned long long)c.bytes, (unsigned long long)c.lines, (unsigned long long)c.records,
                 (unsigned long long)c.deadlocks, sizes.c_str(), (unsigned long long)c.tuple_edges, rels.c_str(),
                 (unsigned long long)c.lock_waits, (unsigned long long)c.acquired,
                 (unsigned long long)c.deadlock_outcome, (unsigned long long)c.timeout,
                 (unsigned long long)c.cancelled, (unsigned long long)c.still_waiting,
                 (unsigned long long)c.detected, (unsigned long long)c.acquired_reports,
                 (unsigned long long)c.avoided, (unsigned long long)c.statements,
                 (unsigned long long)c.multiline_statements, (unsigned long long)c.errors,
                 (unsigned long long)c.connections, (unsigned long long)c.disconnections,
                 (unsigned long long)c.checkpoints, (unsigned long long)c.autovacuum);
    return std::fclose(f) == 0 ? 0 : 2;
  }

  Options opt_;
  Rng rng_;
  std::FILE* out_ = nullptr;
  std::string buf_, prefix_, ts_, sec_str_, msg_;
  int64_t cached_sec_ = -1;
  int64_t now_us_ = 0;
  uint32_t next_pid_ = 0;
  std::vector<bool> pid_in_use_;
  int64_t next_xid_ = 0;
  uint64_t next_scenario_id_ = 0;
  std::deque<Proc> procs_;
  std::vector<uint32_t> free_slots_;
  std::vector<uint32_t> sessions_;
  uint32_t checkpointer_ = 0;
  std::vector<std::unique_ptr<Scenario>> active_;
  Rec tmp_;
  Counts counts_;
};

bool ParseSize(const char* s, uint64_t& out) {
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s || v < 0) return false;
  double mul = 1;
  switch (*end) {
    case 'k': case 'K': mul = 1024; ++end; break;
    case 'm': case 'M': mul = 1024.0 * 1024; ++end; break;
    case 'g': case 'G': mul = 1024.0 * 1024 * 1024; ++end; break;
    default: break;
  }
  if (*end == 'B' || *end == 'b') ++end;
  if (*end) return false;
  out = static_cast<uint64_t>(v * mul);
  return true;
}

int Usage() {
  std::fprintf(stderr,
               "usage: gen_pglog --format stderr|csvlog|jsonlog --size SIZE[K|M|G] [--seed N]\n"
               "                 [--deadlocks-per-10k R] [--waits-per-10k R] [--pid-max N] -o FILE\n"
               "Writes FILE and FILE.expected.json (exact counts). Defaults: size 64M, seed 1,\n"
               "2 deadlocks and 10 lock-wait scenarios per 10,000 ordinary records, pid_max 32768.\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto val = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--format" && (v = val())) {
      std::string_view f = v;
      if (f == "stderr") o.fmt = Fmt::kStderr;
      else if (f == "csvlog" || f == "csv") o.fmt = Fmt::kCsv;
      else if (f == "jsonlog" || f == "json") o.fmt = Fmt::kJson;
      else return Usage();
    } else if (a == "--size" && (v = val())) {
      if (!ParseSize(v, o.size)) return Usage();
    } else if (a == "--seed" && (v = val())) {
      o.seed = std::strtoull(v, nullptr, 10);
    } else if (a == "--deadlocks-per-10k" && (v = val())) {
      o.deadlocks_per_10k = std::strtod(v, nullptr);
    } else if (a == "--waits-per-10k" && (v = val())) {
      o.waits_per_10k = std::strtod(v, nullptr);
    } else if (a == "--pid-max" && (v = val())) {
      o.pid_max = static_cast<uint32_t>(std::strtoul(v, nullptr, 10));
      if (o.pid_max < 2000 || o.pid_max > 4194304) return Usage();
    } else if ((a == "-o" || a == "--out") && (v = val())) {
      o.out = v;
    } else {
      return Usage();
    }
  }
  if (o.out.empty()) return Usage();
  Generator g(o);
  return g.Run();
}
