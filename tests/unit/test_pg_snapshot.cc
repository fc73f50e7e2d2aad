// pg_locks snapshots: the conflict matrix, who blocks whom (server-reported
// and derived), trees and cycles, on inline dumps and on the real snapshots
// of samples/postgresql/snapshots/ (scripts/make-snapshot-samples.sh).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>

#include "emit/event_json.h"
#include "parsers/postgresql/csv_record_reader.h"
#include "parsers/postgresql/lock_conflicts.h"
#include "parsers/postgresql/pg_blocking.h"
#include "parsers/postgresql/pg_lock_row.h"
#include "support.h"

namespace lockgraph {
namespace {

constexpr const char* kPlainHeader =
    "locktype,database,relation,page,tuple,virtualxid,transactionid,classid,objid,objsubid,"
    "virtualtransaction,pid,mode,granted,fastpath,waitstart\n";

std::string EdgeString(const WaitEdge& e) {
  return e.waiter + " -" + e.mode + " on " + e.lock.Label() + "-> " + e.blocker + " " +
         EdgeBasisName(e.basis) + (e.derived ? " derived" : "");
}

std::string EdgesString(const std::vector<WaitEdge>& edges) {
  std::string s;
  for (const WaitEdge& e : edges) s += (s.empty() ? "" : "; ") + EdgeString(e);
  return s;
}

// Every edge of the snapshot's trees and cycles, each once, in event order.
std::string SnapshotEdges(const Report& r) {
  std::vector<WaitEdge> edges;
  for (const Event& ev : r.events) {
    if (ev.chain) edges.insert(edges.end(), ev.chain->edges.begin(), ev.chain->edges.end());
    if (ev.cycle) edges.insert(edges.end(), ev.cycle->edges.begin(), ev.cycle->edges.end());
  }
  return EdgesString(edges);
}

// "chain 4967 <- 4992 <- 5018 | cycle 5232 -> 5259" for the events of a report.
std::string Shapes(const Report& r) {
  std::string s;
  for (const Event& ev : r.events) {
    std::string one;
    if (ev.chain) {
      one = "chain";
      for (const auto& m : ev.chain->members)
        one += (m.depth ? " <-" + std::to_string(m.depth) + " " : " ") + m.backend.id;
    } else if (ev.cycle) {
      one = "cycle";
      for (const Backend& b : ev.cycle->members) one += " " + b.id + " ->";
      one += " " + ev.cycle->members.front().id;
    } else {
      continue;
    }
    s += (s.empty() ? "" : " | ") + one;
  }
  return s;
}

std::map<std::string, std::string> Pids() {
  std::map<std::string, std::string> pids;
  std::ifstream in(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/snapshots/pids.env");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') pids[line.substr(0, line.find('='))] = line.substr(line.find('=') + 1);
  return pids;
}

std::string Sample(const char* name) {
  return std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/snapshots/" + name;
}

}  // namespace

TEST_CASE("the conflict matrix is lock.c's, row by row", "[snapshot]") {
  const char* modes[] = {"AccessShareLock",  "RowShareLock", "RowExclusiveLock",
                         "ShareUpdateExclusiveLock", "ShareLock", "ShareRowExclusiveLock",
                         "ExclusiveLock", "AccessExclusiveLock"};
  std::string matrix;
  for (const char* requested : modes) {
    for (const char* held : modes) matrix += PgLockModesConflict(requested, held) ? 'X' : '.';
    matrix += '\n';
  }
  CHECK(matrix ==
        ".......X\n"
        "......XX\n"
        "....XXXX\n"
        "...XXXXX\n"
        "..XX.XXX\n"
        "..XXXXXX\n"
        ".XXXXXXX\n"
        "XXXXXXXX\n");
  CHECK_FALSE(PgLockModesConflict("SIReadLock", "AccessExclusiveLock"));
  CHECK_FALSE(PgLockModesConflict("AccessExclusiveLock", "no such mode"));
}

TEST_CASE("derived: a waiter on transaction X is blocked by X's ExclusiveLock holder", "[snapshot]") {
  Report r = test::AnalyzeText(std::string(kPlainHeader) +
                               "transactionid,,,,,,900,,,,3/1,100,ExclusiveLock,t,f,\n"
                               "transactionid,,,,,,900,,,,4/1,200,ShareLock,f,f,2026-01-01 00:00:01+00\n"
                               "transactionid,,,,,,901,,,,4/1,200,ExclusiveLock,t,f,\n");
  REQUIRE(r.inputs.at(0).format == "pglocks-csv");
  CHECK(SnapshotEdges(r) == "200 -ShareLock on transaction 900-> 100 hard derived");
  CHECK(Shapes(r) == "chain 100 <-1 200");
  REQUIRE(r.events.front().snapshot);
  CHECK(r.events.front().snapshot->blocking == "conflict_matrix");
}

TEST_CASE("derived: waiters queue by waitstart, not by row order; soft edges point forward only",
          "[snapshot]") {
  // 30 is listed first but began waiting after 20: 30 queues behind 20
  // (soft), 20 waits for the holder 10 (hard); AccessShareLock does not
  // conflict with 10's AccessShareLock.
  Report r = test::AnalyzeText(
      std::string(kPlainHeader) +
      "relation,5,77,,,,,,,,9/1,30,AccessShareLock,f,f,2026-01-01 00:00:02.5+00\n"
      "relation,5,77,,,,,,,,8/1,20,AccessExclusiveLock,f,f,2026-01-01 00:00:01+00\n"
      "relation,5,77,,,,,,,,7/1,10,AccessShareLock,t,f,\n");
  CHECK(SnapshotEdges(r) ==
        "20 -AccessExclusiveLock on relation 77-> 10 hard derived; "
        "30 -AccessShareLock on relation 77-> 20 soft derived");
  CHECK(Shapes(r) == "chain 10 <-1 20 <-2 30");
}

TEST_CASE("derived: a process never conflicts with itself (lock upgrade)", "[snapshot]") {
  Report r = test::AnalyzeText(std::string(kPlainHeader) +
                               "relation,5,77,,,,,,,,7/1,10,AccessShareLock,t,t,\n"
                               "relation,5,77,,,,,,,,7/1,10,AccessExclusiveLock,f,f,\n"
                               "relation,5,77,,,,,,,,8/1,40,RowShareLock,t,f,\n");
  CHECK(SnapshotEdges(r) == "10 -AccessExclusiveLock on relation 77-> 40 hard derived");
}

TEST_CASE("derived: two waiters in a cycle over two locks, no root", "[snapshot]") {
  Report r = test::AnalyzeText(std::string(kPlainHeader) +
                               "advisory,5,,,,,,0,1,1,3/1,100,ExclusiveLock,t,f,\n"
                               "advisory,5,,,,,,0,2,1,3/1,100,ExclusiveLock,f,f,\n"
                               "advisory,5,,,,,,0,2,1,4/1,200,ExclusiveLock,t,f,\n"
                               "advisory,5,,,,,,0,1,1,4/1,200,ExclusiveLock,f,f,\n"
                               "advisory,5,,,,,,0,2,1,5/1,300,ShareLock,f,f,\n");
  CHECK(Shapes(r) == "cycle 100 -> 200 -> 100");
  const WaitCycle& c = *r.events.at(1).cycle;
  CHECK(EdgesString(c.edges) ==
        "100 -ExclusiveLock on advisory lock [5,0,2,1]-> 200 hard derived; "
        "200 -ExclusiveLock on advisory lock [5,0,1,1]-> 100 hard derived");
  CHECK(c.waiting_behind == std::vector<std::string>{"300"});
}

TEST_CASE("derived: a prepared transaction (pid NULL) blocks under its virtualtransaction",
          "[snapshot]") {
  Report r = test::AnalyzeText(std::string(kPlainHeader) +
                               "transactionid,,,,,,777,,,,-1/777,,ExclusiveLock,t,f,\n"
                               "transactionid,,,,,,777,,,,4/1,50,ShareLock,f,f,\n");
  CHECK(SnapshotEdges(r) == "50 -ShareLock on transaction 777-> prepared -1/777 hard derived");
}

TEST_CASE("a row that is not a pg_locks row is counted and said why", "[snapshot]") {
  Report r = test::AnalyzeText(std::string(kPlainHeader) +
                               "transactionid,,,,,,900,,,,3/1,100,ExclusiveLock,maybe,f,\n"
                               "transactionid,,,,,,900,,,,3/1,100\n");
  CHECK(r.summary.lines.total == 3);
  CHECK(r.summary.lines.unparsed == 2);
  REQUIRE(r.diagnostics.size() == 3);
  CHECK(r.diagnostics[0].message == "pg_locks row not understood: granted is not t/f");
  CHECK(r.diagnostics[1].message == "pg_locks row not understood: 12 fields, the header has 16");
  // One line of three understood: the input is flagged as read poorly.
  CHECK(r.inputs.at(0).poorly_understood);
  CHECK(r.diagnostics[2].message.find("the pglocks-csv reader understood only 1 of 3 lines") == 0);
}

TEST_CASE("timestamps as psql and as JSON write them", "[snapshot]") {
  CHECK(PgTimestampMicros("1970-01-01 00:00:00+00") == 0);
  CHECK(PgTimestampMicros("2026-12-02 11:05:39.648408+00") == 1796209539648408);
  CHECK(PgTimestampMicros("2026-12-02T11:05:39.648408+00:00") == 1796209539648408);
  CHECK(PgTimestampMicros("2026-12-02 12:35:39.648408+01:30") == 1796209539648408);
  CHECK(PgTimestampMicros("2026-12-02 03:05:39.648408-08") == 1796209539648408);
  CHECK_FALSE(PgTimestampMicros("Wed Dec 02 11:05:39.648408 2026 UTC"));
  CHECK_FALSE(PgTimestampMicros("2026-12-02 11:05:39 UTC"));
  // Fields with something else than digits (from_chars' rules: a sign may
  // lead, nothing else), a cut time, an offset that runs on.
  CHECK_FALSE(PgTimestampMicros("2026-1x-02 11:05:39+00"));
  CHECK_FALSE(PgTimestampMicros("2026-12-02 11:0 :39+00"));
  CHECK_FALSE(PgTimestampMicros("2026-12-02 11:05:3"));
  CHECK_FALSE(PgTimestampMicros("2026-12-02 11:05:39+0"));
  CHECK_FALSE(PgTimestampMicros("2026-12-02 11:05:39+00:00:00:00"));
  CHECK(PgTimestampMicros("2026-12-02 11:05:39+00:30:15") == 1796209539000000 - (30 * 60 + 15) * 1000000LL);
}

TEST_CASE("real snapshots: trees, cycle and edges, the same from csv, json and pg_locks",
          "[snapshot]") {
  auto p = Pids();
  REQUIRE(p.size() >= 15);
  const std::string shapes = "cycle " + p["advisory_cycle.F"] + " -> " + p["advisory_cycle.G"] +
                             " -> " + p["advisory_cycle.F"] + " | chain " + p["chain.A"] +
                             " <-1 " + p["chain.B"] + " <-2 " + p["chain.C"] + " | chain " +
                             p["idle_blocker.D"] + " <-1 " + p["idle_blocker.E"] + " | chain " +
                             p["ddl_queue.H"] + " <-1 " + p["ddl_queue.I"] + " <-2 " +
                             p["ddl_queue.J"];
  const std::string db = p["database"], rel = p["ddl_queue.relation"];
  auto edges = [&](const char* tail) {
    auto e = [&](const std::string& w, const std::string& m, const std::string& l,
                 const std::string& b, const char* basis) {
      return w + " -" + m + " on " + l + "-> " + b + " " + basis + tail;
    };
    return e(p["advisory_cycle.F"], "ExclusiveLock", "advisory lock [" + db + ",0,102,1]",
             p["advisory_cycle.G"], "hard") + "; " +
           e(p["advisory_cycle.G"], "ExclusiveLock", "advisory lock [" + db + ",0,101,1]",
             p["advisory_cycle.F"], "hard") + "; " +
           e(p["chain.B"], "ShareLock", "transaction " + p["chain.A.xid"], p["chain.A"], "hard") +
           "; " +
           e(p["chain.C"], "ShareLock", "transaction " + p["chain.B.xid"], p["chain.B"], "hard") +
           "; " +
           e(p["idle_blocker.E"], "ShareLock", "transaction " + p["idle_blocker.D.xid"],
             p["idle_blocker.D"], "hard") + "; " +
           e(p["ddl_queue.I"], "AccessExclusiveLock", "relation watch_ddl", p["ddl_queue.H"],
             "hard") + "; " +
           e(p["ddl_queue.J"], "AccessShareLock", "relation watch_ddl", p["ddl_queue.I"], "soft");
  };
  for (const char* file : {"snapshot.csv", "snapshot.json", "pg_locks.csv"}) {
    INFO(file);
    Report r = test::AnalyzeText(test::ReadFile(Sample(file)));
    const bool plain = std::string(file) == "pg_locks.csv";
    REQUIRE(r.inputs.at(0).format == (std::string(file).find(".json") != std::string::npos
                                          ? "pglocks-json" : "pglocks-csv"));
    CHECK(r.summary.lines.unparsed == 0);
    CHECK(r.summary.snapshots == 1);
    CHECK(Shapes(r) == shapes);
    std::string want = edges(plain ? " derived" : "");
    // A plain dump has no relation names.
    if (plain) want = std::regex_replace(want, std::regex("relation watch_ddl"), "relation " + rel);
    CHECK(SnapshotEdges(r) == want);
    const Event& idle = r.events.at(3);
    REQUIRE(idle.chain);
    CHECK(idle.chain->members.front().backend.state == (plain ? "" : "idle in transaction"));
  }
}

TEST_CASE("a pg_locks CSV is read by its header's names, in any column order", "[snapshot]") {
  // The real snapshot with its columns written in reverse order (a field
  // psql left empty stays empty, every other one is quoted, multi-line
  // queries keep their lines): the same events, field for field.
  const std::string original = test::ReadFile(Sample("snapshot.csv"));
  std::string reversed;
  CsvRecordReader csv;
  for (const std::string& line : test::SplitLines(original)) {
    if (csv.Feed(line) != CsvRecordReader::State::kComplete) continue;
    for (size_t i = csv.size(); i-- > 0;) {
      if (!csv.missing(i)) {
        reversed += '"';
        for (char c : csv.field(i)) reversed += c == '"' ? std::string("\"\"") : std::string(1, c);
        reversed += '"';
      }
      reversed += i ? "," : "\n";
    }
  }
  REQUIRE(reversed != original);
  const Report a = test::AnalyzeText(original), b = test::AnalyzeText(reversed);
  REQUIRE(a.events.size() == b.events.size());
  CHECK(a.events.size() > 4);
  for (size_t i = 0; i < a.events.size(); ++i) {
    INFO("event " << i);
    CHECK(EventJsonText(a.events[i], -1, 0) == EventJsonText(b.events[i], -1, 0));
  }
  CHECK(Shapes(a) == Shapes(b));
  CHECK(SnapshotEdges(a) == SnapshotEdges(b));
}

}  // namespace lockgraph
