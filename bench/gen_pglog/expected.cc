// FILE.expected.json: the exact counts of what gen_pglog wrote, which
// bench/check_counts.py compares with lockgraph's report. See generator.h.
#include "generator.h"
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gen_pglog {

int Generator::WriteExpected() {
  std::string path = opt_.out + ".expected.json";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "gen_pglog: %s: %s\n", path.c_str(), std::strerror(errno));
    return 2;
  }
  const char* const kNames[] = {"stderr", "csvlog", "jsonlog", "syslog"};
  const char* fmt = kNames[static_cast<int>(opt_.fmt)];
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

}  // namespace gen_pglog
