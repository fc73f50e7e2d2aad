// jsonlog: the line parser and record reader (reference §6.4, §6.6,
// pitfall 24), sniffing, and the events the format yields.
#include <catch2/catch.hpp>

#include "parsers/builtin_formats.h"
#include "parsers/postgresql/jsonlog_reader.h"
#include "record_test_util.h"
#include "support.h"

namespace lockgraph {
namespace {

using record_test::Collected;
using record_test::Lines;
using record_test::Read;
using test::CycleString;

// PostgreSQL 15.18, a two-process deadlock (samples/postgresql/scenarios.json,
// lines 6-9): "still waiting" and "acquired" have no state_code (00000).
constexpr std::string_view kTwoWay =
    R"({"timestamp":"2026-12-02 10:08:51.854 UTC","user":"postgres","dbname":"lockgraph","pid":19073,"remote_host":"127.0.0.1","remote_port":57784,"session_id":"6b0fee33.4a81","line_num":1,"ps":"UPDATE waiting","session_start":"2026-12-02 10:08:51 UTC","vxid":"3/14","txid":729,"error_severity":"LOG","message":"process 19073 still waiting for ShareLock on transaction 730 after 100.101 ms","detail":"Process holding the lock: 19089. Wait queue: 19073.","context":"while updating tuple (0,2) in relation \"accounts\"","statement":"UPDATE accounts SET balance = balance + 10 WHERE id = 2;","application_name":"lg_two_way_A","backend_type":"client backend","query_id":0}
{"timestamp":"2026-12-02 10:08:52.251 UTC","user":"postgres","dbname":"lockgraph","pid":19089,"remote_host":"127.0.0.1","remote_port":57792,"session_id":"6b0fee33.4a91","line_num":1,"ps":"UPDATE waiting","session_start":"2026-12-02 10:08:51 UTC","vxid":"4/4","txid":730,"error_severity":"LOG","message":"process 19089 detected deadlock while waiting for ShareLock on transaction 729 after 100.115 ms","detail":"Process holding the lock: 19073. Wait queue: .","context":"while updating tuple (0,1) in relation \"accounts\"","statement":"UPDATE accounts SET balance = balance + 20 WHERE id = 1;","application_name":"lg_two_way_B","backend_type":"client backend","query_id":0}
{"timestamp":"2026-12-02 10:08:52.251 UTC","user":"postgres","dbname":"lockgraph","pid":19089,"remote_host":"127.0.0.1","remote_port":57792,"session_id":"6b0fee33.4a91","line_num":2,"ps":"UPDATE","session_start":"2026-12-02 10:08:51 UTC","vxid":"4/4","txid":730,"error_severity":"ERROR","state_code":"40P01","message":"deadlock detected","detail":"Process 19089 waits for ShareLock on transaction 729; blocked by process 19073.\nProcess 19073 waits for ShareLock on transaction 730; blocked by process 19089.\nProcess 19089: UPDATE accounts SET balance = balance + 20 WHERE id = 1;\nProcess 19073: UPDATE accounts SET balance = balance + 10 WHERE id = 2;","hint":"See server log for query details.","context":"while updating tuple (0,1) in relation \"accounts\"","statement":"UPDATE accounts SET balance = balance + 20 WHERE id = 1;","application_name":"lg_two_way_B","backend_type":"client backend","query_id":0}
{"timestamp":"2026-12-02 10:08:52.252 UTC","user":"postgres","dbname":"lockgraph","pid":19073,"remote_host":"127.0.0.1","remote_port":57784,"session_id":"6b0fee33.4a81","line_num":2,"ps":"UPDATE waiting","session_start":"2026-12-02 10:08:51 UTC","vxid":"3/14","txid":729,"error_severity":"LOG","message":"process 19073 acquired ShareLock on transaction 730 after 497.460 ms","context":"while updating tuple (0,2) in relation \"accounts\"","statement":"UPDATE accounts SET balance = balance + 10 WHERE id = 2;","application_name":"lg_two_way_A","backend_type":"client backend","query_id":0}
)";

// A background process: no user, dbname, remote_host, vxid, ps.
constexpr std::string_view kPostmaster =
    R"({"timestamp":"2026-12-02 10:08:51.015 UTC","pid":19032,"session_id":"6b0fee32.4a58","line_num":1,"session_start":"2026-12-02 10:08:50 UTC","txid":0,"error_severity":"LOG","message":"starting PostgreSQL 15.18","backend_type":"postmaster","query_id":0})";

TEST_CASE("jsonlog: every field of real records, state_code absent means 00000") {
  Collected out = Read<JsonlogReader>(kTwoWay);
  CHECK(out.unparsed.empty());
  CHECK(out.counts.total == 4);
  CHECK(out.counts.parsed == 4);
  REQUIRE(out.records.size() == 4);

  const LogRecord& w = out.records[0];
  CHECK(w.source.file == "test.log");
  CHECK(w.source.first_line == 1);
  CHECK(w.source.last_line == 1);
  CHECK(w.time == "2026-12-02 10:08:51.854 UTC");
  CHECK(w.pid == 19073);
  CHECK(w.severity == "LOG");
  CHECK(w.sqlstate == "00000");
  CHECK(w.message == "process 19073 still waiting for ShareLock on transaction 730 after 100.101 ms");
  CHECK(w.detail == "Process holding the lock: 19089. Wait queue: 19073.");
  CHECK(w.hint.empty());
  CHECK(w.context == R"(while updating tuple (0,2) in relation "accounts")");
  CHECK(w.statement == "UPDATE accounts SET balance = balance + 10 WHERE id = 2;");
  CHECK(w.session.user == "postgres");
  CHECK(w.session.database == "lockgraph");
  CHECK(w.session.host == "127.0.0.1:57784");
  CHECK(w.session.session_id == "6b0fee33.4a81");
  CHECK(w.session.session_line == 1u);
  CHECK(w.session.command_tag == "UPDATE waiting");
  CHECK(w.session.vxid == "3/14");
  CHECK(w.session.xid == 729u);
  CHECK(w.session.application == "lg_two_way_A");
  CHECK(w.session.backend_type == "client backend");
  CHECK(w.session.query_id == 0);
  CHECK_FALSE(w.truncated);

  const LogRecord& e = out.records[2];
  CHECK(e.source.first_line == 3);
  CHECK(e.time == "2026-12-02 10:08:52.251 UTC");
  CHECK(e.pid == 19089);
  CHECK(e.severity == "ERROR");
  CHECK(e.sqlstate == "40P01");
  CHECK(e.message == "deadlock detected");
  CHECK(e.detail ==
        "Process 19089 waits for ShareLock on transaction 729; blocked by process 19073.\n"
        "Process 19073 waits for ShareLock on transaction 730; blocked by process 19089.\n"
        "Process 19089: UPDATE accounts SET balance = balance + 20 WHERE id = 1;\n"
        "Process 19073: UPDATE accounts SET balance = balance + 10 WHERE id = 2;");
  CHECK(e.hint == "See server log for query details.");
  CHECK(e.context == R"(while updating tuple (0,1) in relation "accounts")");
  CHECK(e.statement == "UPDATE accounts SET balance = balance + 20 WHERE id = 1;");
  CHECK(e.session.host == "127.0.0.1:57792");
  CHECK(e.session.session_line == 2u);
  CHECK(e.session.command_tag == "UPDATE");
  CHECK(e.session.vxid == "4/4");
  CHECK(e.session.xid == 730u);
  CHECK(e.session.application == "lg_two_way_B");

  const LogRecord& a = out.records[3];
  CHECK(a.sqlstate == "00000");
  CHECK(a.message == "process 19073 acquired ShareLock on transaction 730 after 497.460 ms");
  CHECK(a.detail.empty());
}

TEST_CASE("jsonlog: absent keys stay empty, unknown keys are ignored") {
  std::string line(kPostmaster);
  line.insert(line.size() - 1, R"(,"func_name":"PostmasterMain","file_line_num":1203,"extra":{"message":"not me"},"list":[1,"x"])");
  Collected out = Read<JsonlogReader>(line);
  REQUIRE(out.records.size() == 1);
  const LogRecord& r = out.records[0];
  CHECK(r.pid == 19032);
  CHECK(r.message == "starting PostgreSQL 15.18");
  CHECK(r.session.user.empty());
  CHECK(r.session.database.empty());
  CHECK(r.session.host.empty());
  CHECK(r.session.vxid.empty());
  CHECK(r.session.command_tag.empty());
  CHECK(r.session.application.empty());
  CHECK(r.session.backend_type == "postmaster");
  CHECK(r.session.xid == 0u);
  CHECK(r.statement.empty());
}

TEST_CASE("jsonlog: remote_host without remote_port, [local] and IPv6") {
  LogRecord r;
  CHECK(ParseJsonlogLine(R"({"timestamp":"t","pid":1,"remote_host":"[local]","error_severity":"LOG","message":"m"})", &r) == JsonLineKind::kRecord);
  CHECK(r.session.host == "[local]");
  CHECK(ParseJsonlogLine(R"({"timestamp":"t","pid":1,"remote_host":"fd12::5","remote_port":5432,"error_severity":"LOG","message":"m"})", &r) == JsonLineKind::kRecord);
  CHECK(r.session.host == "fd12::5:5432");
  // The reused record is reset between lines.
  CHECK(ParseJsonlogLine(R"({"timestamp":"t","error_severity":"LOG","message":"m"})", &r) == JsonLineKind::kRecord);
  CHECK(r.session.host.empty());
  CHECK_FALSE(r.pid.has_value());
}

TEST_CASE("jsonlog: lines that are not records are unparsed, every line counted") {
  const std::string text = std::string(kPostmaster) + "\n" +
      "not json at all\n"
      "[1,2,3]\n"
      R"({"timestamp":"2026-12-02 10:08:51.015 UTC","error_severity":"LOG"})" "\n"
      R"({"timestamp":"2026-12-02 10:08:51.015 UTC","pid":1,"message":"cut here)" "\n"
      "\n"
      "42\n" +
      std::string(kPostmaster) + "\r\n";
  Collected out = Read<JsonlogReader>(text);
  CHECK(out.counts.total == 8);
  CHECK(out.counts.parsed == 2);
  CHECK(out.counts.unparsed == 6);
  REQUIRE(out.records.size() == 2);
  CHECK(out.records[1].source.first_line == 8);
  REQUIRE(out.unparsed.size() == 6);
  CHECK(out.unparsed[0] == std::make_pair(uint64_t{2}, std::string("not json at all")));
  CHECK(out.unparsed[1].first == 3);
  CHECK(out.unparsed[2].first == 4);
  CHECK(out.unparsed[3].first == 5);
  CHECK(out.unparsed[4] == std::make_pair(uint64_t{6}, std::string()));
  CHECK(out.unparsed[5].first == 7);
}

TEST_CASE("jsonlog: CloudNativePG records, csvlog columns as strings") {
  const std::string text =
      R"({"level":"info","ts":1619781249.7188137,"logger":"postgres","msg":"record","logging_pod":"cluster-1","record":{"log_time":"2021-04-30 11:14:09.718 UTC","user_name":"app","database_name":"shop","process_id":"25","connection_from":"10.1.2.3:40312","session_id":"608be681.19","session_line_num":"7","command_tag":"UPDATE","session_start_time":"2021-04-30 11:14:00 UTC","virtual_transaction_id":"3/9","transaction_id":"744","error_severity":"ERREUR","sql_state_code":"40P01","message":"deadlock detected","detail":"Process 25 waits for ShareLock on transaction 743; blocked by process 31.\nProcess 31 waits for ShareLock on transaction 744; blocked by process 25.\nProcess 25: UPDATE t SET v = 1 WHERE id = 1;\nProcess 31: UPDATE t SET v = 2 WHERE id = 2;","hint":"See server log for query details.","internal_query":"","internal_query_pos":"","context":"while updating tuple (0,1) in relation \"t\"","query":"UPDATE t SET v = 1 WHERE id = 1;","query_pos":"","location":"","application_name":"psql","backend_type":"client backend","query_id":"-17"}})" "\n"
      R"({"level":"info","ts":1619781250.1,"logger":"instance-manager","msg":"Checking for free disk space"})" "\n";
  Collected out = Read<JsonlogReader>(text);
  CHECK(out.counts.parsed == 1);
  CHECK(out.counts.unparsed == 1);
  REQUIRE(out.records.size() == 1);
  const LogRecord& r = out.records[0];
  CHECK(r.time == "2021-04-30 11:14:09.718 UTC");
  CHECK(r.pid == 25);
  CHECK(r.severity == "ERROR");
  CHECK(r.sqlstate == "40P01");
  CHECK(r.message == "deadlock detected");
  CHECK(r.detail.substr(0, 74) ==
        "Process 25 waits for ShareLock on transaction 743; blocked by process 31.\n");
  CHECK(r.hint == "See server log for query details.");
  CHECK(r.context == R"(while updating tuple (0,1) in relation "t")");
  CHECK(r.statement == "UPDATE t SET v = 1 WHERE id = 1;");
  CHECK(r.session.user == "app");
  CHECK(r.session.database == "shop");
  CHECK(r.session.host == "10.1.2.3:40312");
  CHECK(r.session.session_id == "608be681.19");
  CHECK(r.session.session_line == 7u);
  CHECK(r.session.command_tag == "UPDATE");
  CHECK(r.session.vxid == "3/9");
  CHECK(r.session.xid == 744u);
  CHECK(r.session.application == "psql");
  CHECK(r.session.backend_type == "client backend");
  CHECK(r.session.query_id == -17);
  REQUIRE(out.unparsed.size() == 1);
  CHECK(out.unparsed[0].first == 2);
}

TEST_CASE("jsonlog: records the callback finds uninteresting carry the message only") {
  Collected out;
  RecordCallbacks cb = out.Callbacks();
  cb.interesting = [](std::string_view m) { return m == "deadlock detected"; };
  JsonlogReader reader("test.log", std::move(cb));
  uint64_t n = 0;
  for (const std::string& line : Lines(kTwoWay)) reader.ParseLine(line, ++n);
  reader.Finish();
  REQUIRE(out.records.size() == 4);
  const LogRecord& slim = out.records[0];
  CHECK(slim.pid == 19073);
  CHECK(slim.time == "2026-12-02 10:08:51.854 UTC");
  CHECK(slim.severity == "LOG");
  CHECK(slim.sqlstate == "00000");
  CHECK(slim.message == "process 19073 still waiting for ShareLock on transaction 730 after 100.101 ms");
  CHECK(slim.source.first_line == 1);
  CHECK(slim.detail.empty());
  CHECK(slim.statement.empty());
  CHECK(slim.session.user.empty());
  CHECK(out.records[2].detail.size() > 200);
  CHECK(out.records[2].session.application == "lg_two_way_B");
  // A slim record does not leave its parts behind for the next one.
  CHECK(out.records[3].detail.empty());
  CHECK(out.records[3].statement.empty());
}

TEST_CASE("jsonlog: with deliver_uninteresting off only interesting records are built") {
  Collected out;
  RecordCallbacks cb = out.Callbacks();
  cb.interesting = [](std::string_view m) { return m == "deadlock detected"; };
  cb.deliver_uninteresting = false;
  JsonlogReader reader("test.log", std::move(cb));
  uint64_t n = 0;
  for (const std::string& line : Lines(kTwoWay)) reader.ParseLine(line, ++n);
  reader.Finish();
  REQUIRE(out.records.size() == 1);
  CHECK(out.records[0].message == "deadlock detected");
  CHECK(out.records[0].source.first_line == 3);
  CHECK(reader.counts().parsed == 4);
  CHECK(reader.counts().unparsed == 0);
}

TEST_CASE("jsonlog sniff: JSON records match; csvlog and CloudNativePG noise do not fool it") {
  auto format = MakePgJsonlogFormat();
  CHECK(format->Name() == "jsonlog");
  SniffResult yes = format->Sniff(Lines(kTwoWay), {});
  CHECK(yes.verdict == SniffResult::Verdict::kMatch);
  CHECK(yes.score == 4);
  CHECK(yes.reason == "4 of 4 lines are jsonlog records");

  SniffResult csv = format->Sniff(
      {R"(2025-01-20 09:41:51.713 MSK,"postgres","locks",4496,"[local]",678dec59.1190,5,"UPDATE waiting",2025-01-20 09:25:29 MSK,9/10,6207443,LOG,00000,"x",,,,,,,,,"psql")"},
      {});
  CHECK(csv.verdict == SniffResult::Verdict::kNoMatch);
  CHECK(csv.reason == "only 0 of 1 lines are JSON objects");

  SniffResult other = format->Sniff({R"({"level":"info","msg":"hello"})", R"({"a":1})"}, {});
  CHECK(other.verdict == SniffResult::Verdict::kNoMatch);
  CHECK(other.reason == "no JSON object has timestamp, error_severity and message");
}

TEST_CASE("jsonlog two-way deadlock: one event 19089 -> 19073 -> 19089, victim 19089") {
  record_test::CollectingSink sink;
  auto format = MakePgJsonlogFormat();
  LineCounts counts = record_test::ParseWith(*format, kTwoWay, sink);
  CHECK(counts.parsed == 4);
  std::vector<const Event*> deadlocks;
  for (const Event& ev : sink.events)
    if (ev.type == EventType::kDeadlock) deadlocks.push_back(&ev);
  REQUIRE(deadlocks.size() == 1);
  const Event& ev = *deadlocks[0];
  CHECK(ev.pid == 19089);
  CHECK(ev.source.first_line == 3);
  CHECK(ev.session.application == "lg_two_way_B");
  const Deadlock& d = *ev.deadlock;
  CHECK(d.victim == "19089");
  CHECK(d.complete);
  CHECK(CycleString(d) ==
        "19089 -ShareLock/transaction 729-> 19073; 19073 -ShareLock/transaction 730-> 19089");
}

}  // namespace
}  // namespace lockgraph
