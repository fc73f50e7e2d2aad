// Cloud platform exports (parsers/platform, docs/postgresql.md#cloud-exports):
// sniffing on lines published by users and tools, one deadlock with its
// exact cycle through each envelope, line counts, entries out of order, and
// the renderings of the sample run (scripts/render/platforms.py) against
// the csvlog of the same run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parsers/platform/entry_orderer.h"
#include "parsers/postgresql/csv_record_reader.h"
#include "support.h"

namespace lockgraph {
namespace {

using nlohmann::json;

// The first deadlock of samples/postgresql/scenarios.csv, as stderr lines
// under Cloud SQL's prefix (every part one Cloud Logging entry).
const char* const kGcpParts[] = {
    "2026-12-02 10:15:19.504 UTC [6544]: [2-1] db=lockgraph,user=postgres ERROR:  deadlock detected",
    "2026-12-02 10:15:19.504 UTC [6544]: [2-1] db=lockgraph,user=postgres DETAIL:  Process 6544 "
    "waits for ShareLock on transaction 729; blocked by process 6531.\n\tProcess 6531 waits for "
    "ShareLock on transaction 730; blocked by process 6544.\n\tProcess 6544: UPDATE accounts SET "
    "balance = balance + 20 WHERE id = 1;\n\tProcess 6531: UPDATE accounts SET balance = balance "
    "+ 10 WHERE id = 2;",
    "2026-12-02 10:15:19.504 UTC [6544]: [2-1] db=lockgraph,user=postgres HINT:  See server log "
    "for query details.",
    "2026-12-02 10:15:19.504 UTC [6544]: [2-1] db=lockgraph,user=postgres CONTEXT:  while "
    "updating tuple (0,1) in relation \"accounts\"",
    "2026-12-02 10:15:19.504 UTC [6544]: [2-1] db=lockgraph,user=postgres STATEMENT:  UPDATE "
    "accounts SET balance = balance + 20 WHERE id = 1;",
};
const char* const kCycle =
    "6544 -ShareLock/transaction 729-> 6531; 6531 -ShareLock/transaction 730-> 6544";

json GcpEntry(const std::string& payload, int micro, const char* type = "cloudsql_database") {
  char ts[40];
  std::snprintf(ts, sizeof ts, "2026-12-02T10:15:19.504%03dZ", micro);
  const bool alloy = std::string(type) != "cloudsql_database";
  return {{"insertId", "s=lg;i=" + std::to_string(micro)},
          {"logName", alloy ? "projects/p/logs/alloydb.googleapis.com%2Fpostgres.log"
                            : "projects/p/logs/cloudsql.googleapis.com%2Fpostgres.log"},
          {"resource", {{"type", type}}},
          {"severity", "INFO"},
          {"textPayload", payload},
          {"timestamp", ts}};
}

std::string Ndjson(const std::vector<json>& entries) {
  std::string out;
  for (const json& e : entries) out += e.dump() + "\n";
  return out;
}

std::vector<std::string> Cycles(const Report& r) {
  std::vector<std::string> out;
  for (const Event& ev : r.events)
    if (ev.deadlock) out.push_back(test::CycleString(*ev.deadlock) + " | " + ev.deadlock->statement);
  return out;
}

const std::string kExpected =
    std::string(kCycle) + " | UPDATE accounts SET balance = balance + 20 WHERE id = 1;";

TEST_CASE("platform: Cloud SQL entries as published are sniffed with their prefix", "[platform]") {
  // pgbadger t/fixtures/cloudsql.log.gz, line 1 (2020, no timestamp in the prefix).
  const std::string old_form =
      R"js({"insertId":"s=a4e36fd29d8545e3aef2b7163cf53485;i=1dbcc;b=85f82a56dac248e3a65a14f508238942;m=2147d16607;t=5a4a9e154566e;x=5e80158e9fa557ac-0@a1","logName":"projects/sk5-formations-thomas/logs/cloudsql.googleapis.com%2Fpostgres.log","receiveTimestamp":"2020-05-02T13:00:22.45390538Z","resource":{"labels":{"database_id":"sk5-formations-thomas:temp-thomas-2020-04-30","project_id":"sk5-formations-thomas","region":"europe"},"type":"cloudsql_database"},"severity":"INFO","textPayload":"[24667]: [1-1] db=[unknown],user=[unknown] LOG:  connection received: host=127.0.0.1 port=59760","timestamp":"2020-05-02T13:00:20.382318Z"})js"
      "\n";
  Report r = test::AnalyzeText(old_form);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "gcp-logging");
  CHECK(r.inputs[0].detected == "[%p]: [%l-1] db=%d,user=%u ");
  CHECK(r.inputs[0].lines.total == 1);
  CHECK(r.inputs[0].lines.parsed == 1);

  // darold/pgbadger#747: the console download, a pretty-printed array.
  const std::string array = R"js([
  {
    "textPayload": "2022-07-30 05:04:30.061 UTC [4075710]: [2-1] db=redacted_production,user=redacted_admin STATEMENT:  SELECT \"reasons\".* FROM \"reasons\" WHERE \"reasons\".\"id\" IN (103, 74, 88, 79)",
    "insertId": "s=dae075e20970467694b8d6255e6bab26;i=c74058;b=08fca606ae1942789f34157f32eab680;m=5f63da18332;t=5e4feb3a1281e;x=7e65830180008d9-0-0@a1",
    "resource": {
      "type": "cloudsql_database",
      "labels": {
        "region": "us-central",
        "database_id": "redacted-production:redacted-core-production-pg-11",
        "project_id": "redacted-production"
      }
    },
    "timestamp": "2022-07-30T05:04:30.062622Z",
    "severity": "INFO",
    "labels": {
      "LOG_BUCKET_NUM": "60"
    },
    "logName": "projects/redacted-production/logs/cloudsql.googleapis.com%2Fpostgres.log",
    "receiveTimestamp": "2022-07-30T05:05:00.846932756Z"
  }
]
)js";
  r = test::AnalyzeText(array);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "gcp-logging");
  CHECK(r.inputs[0].detected == "%m [%p]: [%l-1] db=%d,user=%u ");
  CHECK(r.inputs[0].lines.total == 21);
  CHECK(r.inputs[0].lines.parsed == 21);
  CHECK(r.inputs[0].lines.unparsed == 0);
}

TEST_CASE("platform: AlloyDB's [file.c:line] tag is taken off", "[platform]") {
  // darold/pgbadger#762 (AlloyDB console download), the textPayload line.
  const std::string published =
      "2022-12-16 04:00:37.721 UTC [1598979]: [13-1] db=alloydbadmin,user=alloydbadmin ERROR:  "
      "[nbtinsert.c:671]  duplicate key value violates unique constraint \"pg_class_oid_index\"";
  Report r = test::AnalyzeText(Ndjson({GcpEntry(published, 1, "alloydb.googleapis.com/Instance")}));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "gcp-logging");
  CHECK(r.inputs[0].detected == "%m [%p]: [%l-1] db=%d,user=%u ");

  std::vector<json> entries;
  int micro = 0;
  for (const char* part : kGcpParts) {
    std::string p = part;
    if (micro == 0) p.replace(p.find("ERROR:  ") + 8, 0, "[deadlock.c:1135]  ");
    entries.push_back(GcpEntry(p, ++micro, "alloydb.googleapis.com/Instance"));
  }
  r = test::AnalyzeText(Ndjson(entries));
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.inputs[0].lines.parsed == 5);
}

TEST_CASE("platform: a deadlock through Cloud Logging NDJSON and a newest-first array",
          "[platform]") {
  std::vector<json> entries;
  int micro = 0;
  for (const char* part : kGcpParts) entries.push_back(GcpEntry(part, ++micro));
  Report r = test::AnalyzeText(Ndjson(entries));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "gcp-logging");
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.inputs[0].lines.total == 5);
  CHECK(r.inputs[0].lines.parsed == 5);

  // The console lists newest first; another service's entry and a broken
  // one among them.
  std::vector<json> reversed(entries.rbegin(), entries.rend());
  json other = {{"logName", "projects/p/logs/run.googleapis.com%2Fstderr"},
                {"resource", {{"type", "cloud_run_revision"}}},
                {"textPayload", "[INFO] Starting gunicorn 23.0.0"},
                {"timestamp", "2026-12-02T10:15:19.504500Z"}};
  reversed.insert(reversed.begin() + 2, other);
  std::string text = "[\n";
  for (size_t i = 0; i < reversed.size(); ++i)
    text += reversed[i].dump(2) + (i + 1 < reversed.size() ? ",\n" : "\n");
  text += "]\n";
  const uint64_t total = uint64_t(std::count(text.begin(), text.end(), '\n'));
  r = test::AnalyzeText(text);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "gcp-logging");
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.inputs[0].lines.total == total);
  CHECK(r.inputs[0].lines.parsed == total);
  CHECK(r.inputs[0].lines.unparsed == 0);
  std::vector<std::string> notes;
  for (const Diagnostic& d : r.diagnostics) notes.push_back(d.message);
  CHECK(notes == std::vector<std::string>{
                     "1 Cloud Logging entries (8 lines) are not PostgreSQL server log entries and "
                     "were skipped",
                     "the Cloud Logging entries are newest first (a console download): read in "
                     "reverse"});
}

TEST_CASE("platform: entries slightly out of order and a broken entry", "[platform]") {
  // A sink delivers the DETAIL before its ERROR (timestamps tell the order).
  std::vector<json> entries;
  int micro = 0;
  for (const char* part : kGcpParts) entries.push_back(GcpEntry(part, ++micro));
  std::swap(entries[0], entries[1]);
  std::string text = Ndjson(entries) + "{\"logName\": \"projects/p/logs/cloudsql.googleapis.com%2Fpostgres.log\", \"textPayload\": \n";
  Report r = test::AnalyzeText(text);
  REQUIRE(r.inputs.size() == 1);
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.inputs[0].lines.total == 6);
  CHECK(r.inputs[0].lines.parsed == 5);
  CHECK(r.inputs[0].lines.unparsed == 1);
  REQUIRE(r.unparsed.size() == 1);
  CHECK(r.unparsed[0].line == 6);
}

TEST_CASE("platform: a cut NDJSON line costs only itself", "[platform]") {
  // A line cut inside a string, and one cut between values: each is one
  // line not understood; the entries after them are read.
  std::vector<json> entries;
  int micro = 0;
  for (const char* part : kGcpParts) entries.push_back(GcpEntry(part, ++micro));
  std::string text = Ndjson({entries[0], entries[1]}) +
                     "{\"logName\":\"projects/p/logs/cloudsql.googleapis.com%2Fpostgres.log\",\"text\n" +
                     "{\"logName\": {\"a\": 1,\n" + Ndjson({entries[2], entries[3], entries[4]});
  Report r = test::AnalyzeText(text);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "gcp-logging");
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.inputs[0].lines.total == 7);
  CHECK(r.inputs[0].lines.parsed == 5);
  CHECK(r.inputs[0].lines.unparsed == 2);
  std::vector<uint64_t> lines;
  for (const UnparsedLine& u : r.unparsed) lines.push_back(u.line);
  CHECK(lines == std::vector<uint64_t>{3, 4});
}

TEST_CASE("platform: Cloud SQL's (k/n) parts of a long line are joined", "[platform]") {
  // Long lines come as several entries "(1/2) prefix text", "(2/2) rest"
  // (the public Cloud SQL log fetcher that merges them matches
  // r"^(\((?P<part>\d+)/(?P<parts>\d+)\)\s)").
  std::vector<json> entries;
  int micro = 0;
  for (const char* part : kGcpParts) {
    const std::string p = part;
    if (entries.size() == 1) {
      const size_t cut = p.find("Process 6531: UPDATE");
      entries.push_back(GcpEntry("(1/2) " + p.substr(0, cut), ++micro));
      entries.push_back(GcpEntry("(2/2) " + p.substr(cut), ++micro));
    } else {
      entries.push_back(GcpEntry(p, ++micro));
    }
  }
  Report r = test::AnalyzeText(Ndjson(entries));
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "gcp-logging");
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].deadlock->complete);
  CHECK(r.inputs[0].lines.parsed == 6);
}

// The pganalyze collector's Azure test record (input/system/azure/logs_test.go
// lines 25-39), with the deadlock's parts as records of their own.
json AzureRecord(const std::string& message, const std::string& detail, const std::string& level) {
  json props = {{"timestamp", "2026-12-02 10:15:19.504 UTC"}, {"processId", 6544},
                {"errorLevel", level}, {"sqlerrcode", "40P01"}, {"message", message}};
  if (!detail.empty()) props["detail"] = detail;
  return {{"properties", props}, {"time", "2026-12-02T10:15:19.510Z"},
          {"resourceId", "/SUBSCRIPTIONS/0/RESOURCEGROUPS/LG/PROVIDERS/MICROSOFT.DBFORPOSTGRESQL/"
                         "FLEXIBLESERVERS/LG"},
          {"category", "PostgreSQLLogs"}, {"operationName", "LogEvent"}};
}

std::vector<json> AzureDeadlock() {
  const std::string prefix =
      "2026-12-02 10:15:19.504 UTC [6544] [user=postgres,db=lockgraph,app=lg_two_way_B] ";
  return {AzureRecord(prefix + "ERROR:  deadlock detected",
                      "Process 6544 waits for ShareLock on transaction 729; blocked by process "
                      "6531.\nProcess 6531 waits for ShareLock on transaction 730; blocked by "
                      "process 6544.\nProcess 6544: UPDATE accounts SET balance = balance + 20 "
                      "WHERE id = 1;\nProcess 6531: UPDATE accounts SET balance = balance + 10 "
                      "WHERE id = 2;",
                      "ERROR"),
          AzureRecord(prefix + "STATEMENT:  UPDATE accounts SET balance = balance + 20 WHERE id = 1;",
                      "", "STATEMENT")};
}

TEST_CASE("platform: Azure diagnostic records, Event Hub batch and PT1H.json", "[platform]") {
  // pganalyze input/system/azure/logs_test.go lines 25-39, as published.
  const std::string published = R"js({"records": [{
	"properties": {
		"timestamp": "2023-02-27 22:21:11.823 UTC",
		"processId": 2030,
		"errorLevel": "LOG",
		"sqlerrcode": "00000",
		"message": "2023-02-27 22:21:11.823 UTC [2030] [user=postgres,db=postgres,app=pgbench] LOG:  duration: 0.053 ms  bind <unnamed>: UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2;",
		"detail": "parameters: $1 = '4234', $2 = '2'"
	},
	"time": "2023-02-27T22:21:11.830Z",
	"resourceId": "/SUBSCRIPTIONS/00000000-0000-0000-0000-000000000000/RESOURCEGROUPS/TEST/PROVIDERS/MICROSOFT.DBFORPOSTGRESQL/FLEXIBLESERVERS/PGANALYZE-TEST",
	"location": "eastus",
	"category": "PostgreSQLLogs",
	"operationName": "LogEvent"
}]}
)js";
  Report r = test::AnalyzeText(published);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "azure-diagnostics");
  CHECK(r.inputs[0].detected == "%m [%p] %q[user=%u,db=%d,app=%a] ");
  CHECK(r.inputs[0].lines.total == 15);
  CHECK(r.inputs[0].lines.parsed == 15);

  // One Event Hub batch on one line.
  json batch = {{"records", AzureDeadlock()}};
  r = test::AnalyzeText(batch.dump() + "\n");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "azure-diagnostics");
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.inputs[0].lines.parsed == 1);
  // PT1H.json: one record per line, and a record of another category.
  std::vector<json> records = AzureDeadlock();
  json session = AzureRecord("connection", "", "LOG");
  session["category"] = "PostgreSQLFlexSessions";
  records.push_back(session);
  r = test::AnalyzeText(Ndjson(records));
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.inputs[0].lines.total == 3);
  CHECK(r.inputs[0].lines.parsed == 3);
}

TEST_CASE("platform: Azure Log Analytics CSV of AzureDiagnostics, newest first", "[platform]") {
  // The record_*_s columns pgBadger recognises (pgbadger lines 5057-5080).
  const std::string csv = R"js(TimeGenerated [UTC],Category,record_error_severity_s,record_log_time_s,record_message_s,record_detail_s,record_process_id_s,record_query_s,record_sql_state_code_s,record_user_name_s,record_database_name_s
2026-12-02T10:15:19Z,PostgreSQLLogs,ERROR,2026-12-02 10:15:19.504 UTC,deadlock detected,"Process 6544 waits for ShareLock on transaction 729; blocked by process 6531.
Process 6531 waits for ShareLock on transaction 730; blocked by process 6544.
Process 6544: UPDATE accounts SET balance = balance + 20 WHERE id = 1;
Process 6531: UPDATE accounts SET balance = balance + 10 WHERE id = 2;",6544,"UPDATE accounts SET balance = balance + 20 WHERE id = 1;",40P01,postgres,lockgraph
2026-12-02T10:15:19Z,PostgreSQLLogs,LOG,2026-12-02 10:15:19.176 UTC,process 6531 still waiting for ShareLock on transaction 730 after 105.327 ms,Process holding the lock: 6544. Wait queue: 6531.,6531,"UPDATE accounts SET balance = balance + 10 WHERE id = 2;",00000,postgres,lockgraph
not,a,row
)js";
  Report r = test::AnalyzeText(csv);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "azure-log-analytics");
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.summary.lock_waits == 1);
  CHECK(r.inputs[0].lines.total == 7);  // the header, 4 + 1 lines of rows, one bad line
  CHECK(r.inputs[0].lines.parsed == 6);
  CHECK(r.inputs[0].lines.unparsed == 1);
}

TEST_CASE("platform: Azure Log Analytics CSV of PGSQLServerLogs", "[platform]") {
  // Columns named on https://docs.azure.cn/en-us/azure-monitor/reference/tables/PGSQLServerLogs
  // (Message: the stderr line with its prefix, as properties.message).
  const std::string csv = R"js(TimeGenerated [UTC],Category,ErrorLevel,Message,Detail,LogicalServerName
2026-12-02T10:15:19.504Z,PostgreSQLLogs,STATEMENT,"2026-12-02 10:15:19.504 UTC [6544] [user=postgres,db=lockgraph,app=lg] STATEMENT:  UPDATE accounts SET balance = balance + 20 WHERE id = 1;",,lg
2026-12-02T10:15:19.504Z,PostgreSQLLogs,ERROR,"2026-12-02 10:15:19.504 UTC [6544] [user=postgres,db=lockgraph,app=lg] ERROR:  deadlock detected","Process 6544 waits for ShareLock on transaction 729; blocked by process 6531.
Process 6531 waits for ShareLock on transaction 730; blocked by process 6544.
Process 6544: UPDATE accounts SET balance = balance + 20 WHERE id = 1;
Process 6531: UPDATE accounts SET balance = balance + 10 WHERE id = 2;",lg
2026-12-02T10:15:19.176Z,PostgreSQLLogs,LOG,"2026-12-02 10:15:19.176 UTC [6531] [user=postgres,db=lockgraph,app=lg] LOG:  process 6531 still waiting for ShareLock on transaction 730 after 105.327 ms","Process holding the lock: 6544. Wait queue: 6531.",lg
)js";
  // Newest first, as the portal exports: the parts of one message share a
  // timestamp, the older wait below them tells the order.
  Report r = test::AnalyzeText(csv);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "azure-log-analytics");
  CHECK(r.inputs[0].detected == "%m [%p] %q[user=%u,db=%d,app=%a] ");
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
  CHECK(r.summary.lock_waits == 1);
  CHECK(r.inputs[0].lines.total == 7);
  CHECK(r.inputs[0].lines.parsed == 7);
}

TEST_CASE("platform: CloudNativePG's wrapper keeps every part of a deadlock", "[platform]") {
  // pgbadger t/fixtures/cnpg.log.gz, line 1.
  const std::string published =
      R"js({"level":"info","ts":1669575482.0968924,"logger":"postgres","msg":"record","logging_pod":"myapp-pg-cluster-1","record":{"log_time":"2022-11-27 18:58:02.096 UTC","user_name":"postgres","database_name":"postgres","process_id":"600","connection_from":"[local]","session_id":"6383b33a.258","session_line_num":"4","command_tag":"idle","session_start_time":"2022-11-27 18:58:02 UTC","transaction_id":"0","error_severity":"LOG","sql_state_code":"00000","message":"disconnection: session time: 0:00:00.007 user=postgres database=postgres host=[local]","application_name":"pg_isready","backend_type":"client backend","query_id":"0"}})js"
      "\n";
  Report r = test::AnalyzeText(published);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "jsonlog");
  CHECK(r.inputs[0].lines.parsed == 1);
  json rec = {{"log_time", "2026-12-02 10:15:19.504 UTC"}, {"process_id", "6544"},
              {"error_severity", "ERROR"}, {"sql_state_code", "40P01"},
              {"message", "deadlock detected"},
              {"detail", "Process 6544 waits for ShareLock on transaction 729; blocked by process "
                         "6531.\nProcess 6531 waits for ShareLock on transaction 730; blocked by "
                         "process 6544.\nProcess 6544: UPDATE accounts SET balance = balance + 20 "
                         "WHERE id = 1;\nProcess 6531: UPDATE accounts SET balance = balance + 10 "
                         "WHERE id = 2;"},
              {"context", "while updating tuple (0,1) in relation \"accounts\""},
              {"query", "UPDATE accounts SET balance = balance + 20 WHERE id = 1;"}};
  json line = {{"level", "info"}, {"ts", 1796206519.504}, {"logger", "postgres"},
               {"msg", "record"}, {"logging_pod", "lg-1"}, {"record", rec}};
  r = test::AnalyzeText(line.dump() + "\n");
  CHECK(Cycles(r) == std::vector<std::string>{kExpected});
}

TEST_CASE("platform: timestamps made comparable, order decided and mended", "[platform]") {
  CHECK(SortableTime("2022-07-30T05:04:30.0626Z") == "2022-07-30T05:04:30.062600000Z");
  CHECK(SortableTime("2022-07-30 05:04:30.061 UTC") == "2022-07-30T05:04:30.061000000 UTC");
  CHECK(SortableTime("2023-08-17T10:00:08Z") == "2023-08-17T10:00:08.000000000Z");
  CHECK(SortableTime("") == "");

  std::vector<std::string> got;
  auto collect = [&](uint64_t line, std::string_view payload) {
    got.push_back(std::to_string(line) + ":" + std::string(payload));
  };
  {
    // Oldest first with jitter (4 before 3), and an entry without a time
    // that stays after the one before it.
    EntryOrderer orderer(collect, 8);
    orderer.Add(SortableTime("2026-01-01T00:00:01Z"), 1, "a");
    orderer.Add(SortableTime("2026-01-01T00:00:04Z"), 2, "d");
    orderer.Add(SortableTime("2026-01-01T00:00:03Z"), 3, "c");
    orderer.Add(SortableTime(""), 4, "c2");
    orderer.Add(SortableTime("2026-01-01T00:00:05Z"), 5, "e");
    orderer.Finish();
    CHECK_FALSE(orderer.newest_first());
  }
  CHECK(got == std::vector<std::string>{"1:a", "3:c", "4:c2", "2:d", "5:e"});
  got.clear();
  {
    // Newest first (a console download), 40 entries: spilled and replayed
    // backwards; equal times keep the reversed file order.
    EntryOrderer orderer(collect, 8);
    for (int i = 40; i >= 1; --i) {
      char ts[32];
      std::snprintf(ts, sizeof ts, "2026-01-01T00:00:%02dZ", i / 2 + 1);
      orderer.Add(SortableTime(ts), uint64_t(41 - i), std::to_string(i));
    }
    orderer.Finish();
    CHECK(orderer.newest_first());
  }
  REQUIRE(got.size() == 40);
  for (int i = 1; i <= 40; ++i) CHECK(got[size_t(i - 1)] == std::to_string(41 - i) + ":" + std::to_string(i));
}

// --- The renderings of the sample run -------------------------------------

struct Seen {
  std::vector<std::string> deadlocks;
  std::vector<std::string> waits;
};

Seen Events(const Report& r) {
  Seen seen;
  for (const Event& ev : r.events) {
    if (ev.deadlock) {
      const Deadlock& d = *ev.deadlock;
      seen.deadlocks.push_back(ev.time + " victim " + d.victim + ": " + test::CycleString(d) +
                               (d.complete ? "" : " (incomplete)") + " | " + d.statement);
    } else if (ev.lock_wait) {
      const LockWait& w = *ev.lock_wait;
      seen.waits.push_back(w.waiter + " " + w.mode + " " + w.lock.text + " " +
                           WaitOutcomeName(w.outcome) + " " + w.statement);
    }
  }
  // Events are listed in input line order: newest first for a console
  // download. Compare them in time order.
  std::sort(seen.deadlocks.begin(), seen.deadlocks.end());
  std::sort(seen.waits.begin(), seen.waits.end());
  return seen;
}

// The first `records` whole records of the csvlog.
std::string CsvlogHead(const std::string& text, size_t records) {
  CsvRecordReader csv;
  size_t pos = 0;
  while (records > 0 && pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    if (csv.Feed(std::string_view(text).substr(pos, nl - pos)) ==
        CsvRecordReader::State::kComplete)
      --records;
    pos = nl + 1;
  }
  return text.substr(0, pos);
}

TEST_CASE("platform: every rendering of the sample run gives the csvlog's events", "[platform]") {
  const std::string dir = std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/";
  // scripts/render/platforms.py prints how many records it rendered.
  const Seen want =
      Events(test::AnalyzeText(CsvlogHead(test::ReadFile(dir + "scenarios.csv"), 143)));
  REQUIRE(want.deadlocks.size() > 5);
  REQUIRE(want.waits.size() > 5);
  const std::vector<std::pair<std::string, std::string>> files = {
      {"platform-gcp-ndjson.json", "gcp-logging"},
      {"platform-gcp-array.json", "gcp-logging"},
      {"platform-alloydb.json", "gcp-logging"},
      {"platform-azure-records.json", "azure-diagnostics"},
      {"platform-azure-pt1h.json", "azure-diagnostics"},
      {"platform-azure-la.csv", "azure-log-analytics"},
      {"platform-cnpg.json", "jsonlog"},
      {"platform-gcp-ndjson-bzip2.json.bz2", "gcp-logging"},
      {"platform-gcp-ndjson-xz.json.xz", "gcp-logging"},
      {"platform-gcp-ndjson-zstd.json.zst", "gcp-logging"},
  };
  for (const auto& [file, format] : files) {
    INFO(file);
    Report r = test::AnalyzeText(test::ReadFile(dir + "rendered/" + file));
    REQUIRE(r.inputs.size() == 1);
    CHECK(r.inputs[0].format == format);
    CHECK(r.inputs[0].lines.unparsed == 0);
    const Seen got = Events(r);
    CHECK(got.deadlocks == want.deadlocks);
    CHECK(got.waits == want.waits);
  }
}

}  // namespace
}  // namespace lockgraph
