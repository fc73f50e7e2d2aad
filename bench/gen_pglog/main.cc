// gen_pglog: a deterministic generator of realistic PostgreSQL 15 server logs
// (stderr with log_line_prefix '%m [%p] %q%u@%d/%a ', csvlog, jsonlog, and
// that stderr text through syslog as rsyslog writes it) of any size, for
// lockgraph's benchmark (bench/run.sh, issue 7).
//
//   gen_pglog --format stderr|csvlog|jsonlog|syslog --size 1G [--seed N]
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
#include "generator.h"

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

namespace gen_pglog {
namespace {

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
               "usage: gen_pglog --format stderr|csvlog|jsonlog|syslog --size SIZE[K|M|G] [--seed N]\n"
               "                 [--deadlocks-per-10k R] [--waits-per-10k R] [--pid-max N] -o FILE\n"
               "Writes FILE and FILE.expected.json (exact counts). Defaults: size 64M, seed 1,\n"
               "2 deadlocks and 10 lock-wait scenarios per 10,000 ordinary records, pid_max 32768.\n");
  return 2;
}

}  // namespace
}  // namespace gen_pglog

int main(int argc, char** argv) {
  gen_pglog::Options o;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto val = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--format" && (v = val())) {
      std::string_view f = v;
      if (f == "stderr") o.fmt = gen_pglog::Fmt::kStderr;
      else if (f == "csvlog" || f == "csv") o.fmt = gen_pglog::Fmt::kCsv;
      else if (f == "jsonlog" || f == "json") o.fmt = gen_pglog::Fmt::kJson;
      else if (f == "syslog") o.fmt = gen_pglog::Fmt::kSyslog;
      else return gen_pglog::Usage();
    } else if (a == "--size" && (v = val())) {
      if (!gen_pglog::ParseSize(v, o.size)) return gen_pglog::Usage();
    } else if (a == "--seed" && (v = val())) {
      o.seed = std::strtoull(v, nullptr, 10);
    } else if (a == "--deadlocks-per-10k" && (v = val())) {
      o.deadlocks_per_10k = std::strtod(v, nullptr);
    } else if (a == "--waits-per-10k" && (v = val())) {
      o.waits_per_10k = std::strtod(v, nullptr);
    } else if (a == "--pid-max" && (v = val())) {
      o.pid_max = static_cast<uint32_t>(std::strtoul(v, nullptr, 10));
      if (o.pid_max < 2000 || o.pid_max > 4194304) return gen_pglog::Usage();
    } else if ((a == "-o" || a == "--out") && (v = val())) {
      o.out = v;
    } else {
      return gen_pglog::Usage();
    }
  }
  if (o.out.empty()) return gen_pglog::Usage();
  gen_pglog::Generator g(o);
  return g.Run();
}
