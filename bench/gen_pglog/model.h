// The model of gen_pglog: its random source, the simulated cluster
// (databases, processes), a log record before formatting, a multi-record
// scenario, the counts it promises, and the text helpers of the three formats.
// The generator itself is in generator.h; what it writes is described in main.cc.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace gen_pglog {

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

/// Appends v in decimal.
void AppU(std::string& o, uint64_t v);
void AppI(std::string& o, int64_t v);
/// Appends v in decimal, left-padded with zeros to `width` digits.
void Pad(std::string& o, uint64_t v, int width);
/// "%ld.%03d": milliseconds with microseconds, as PostgreSQL prints durations.
void AppMs(std::string& o, int64_t us);
/// Appends v in lower-case hexadecimal.
void AppHex(std::string& o, uint64_t v);
/// stderr: every embedded newline is followed by a TAB (append_with_tabs).
void AppTabbed(std::string& o, std::string_view s);
/// csvlog: "..." with every " doubled (appendCSVLiteral); newlines stay raw.
void AppCsv(std::string& o, std::string_view s);
/// jsonlog: a quoted string escaped as escape_json does.
void AppJson(std::string& o, std::string_view s);
/// "YYYY-MM-DD HH:MM:SS" of a UTC epoch second.
void AppCivil(std::string& o, int64_t sec);

// ---------------------------------------------------------------- world

enum class Fmt { kStderr, kCsv, kJson, kSyslog };

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
/// The two databases of the simulated cluster; the first is "shop".
const std::vector<Db>& Dbs();

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
  uint64_t syslog_seq = 0;  // syslog: the process's messages so far
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

/// Every statement template; PickTemplate() filters by database.
const std::vector<Tpl>& Templates();
/// Memo words for the \x04 marker.
const std::vector<const char*>& Words();

}  // namespace gen_pglog
