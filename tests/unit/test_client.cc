// The client input format on inline output: each driver's form of the
// deadlock error, a deadlock deep in a test log, messages without DETAIL,
// errors that are not deadlocks (silent), repeats, and hostile text.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "client_problems.h"
#include "support.h"

namespace lockgraph {
namespace {

using namespace lockgraph::test;  // the client problems

std::vector<const Event*> DeadlocksOf(const Report& r) {
  std::vector<const Event*> out;
  for (const Event& ev : r.events)
    if (ev.deadlock) out.push_back(&ev);
  return out;
}

TEST_CASE("client: JDBC's PSQLException of IQSS/dataverse#2460", "[client]") {
  // platforms.md §1.10: a Java stack trace, the DETAIL's second edge unindented.
  Report r = test::AnalyzeText(
      "[#|2015-08-20T12:00:00.000-0400|WARNING|glassfish 4.1|javax.enterprise.ejb.container|\n"
      "javax.ejb.EJBException: Transaction aborted\n"
      "\tat com.sun.ejb.containers.BaseContainer.completeNewTx(BaseContainer.java:5162)\n"
      "Caused by: org.postgresql.util.PSQLException: ERROR: deadlock detected\n"
      "  Detail: Process 32317 waits for ShareLock on transaction 2435586; blocked by process 32312.\n"
      "Process 32312 waits for ShareLock on transaction 2435585; blocked by process 32317.\n"
      "  Hint: See server log for query details.\n"
      "  Where: SQL statement \"SELECT 1 FROM ONLY \"public\".\"dvobject\" x WHERE \"id\" "
      "OPERATOR(pg_catalog.=) $1 FOR SHARE OF x\"\n"
      "\tat org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2198)\n");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "client");
  CHECK(r.inputs[0].lines.total == 9);
  CHECK(r.inputs[0].lines.parsed == 5);
  CHECK(r.inputs[0].lines.unparsed == 0);
  REQUIRE(r.events.size() == 1);
  const Event& ev = r.events[0];
  CHECK(ev.source.kind == "client");
  CHECK(ev.source.first_line == 4);
  CHECK(ev.source.last_line == 8);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.victim == "32317");
  CHECK(test::CycleString(d) ==
        "32317 -ShareLock/transaction 2435586-> 32312; 32312 -ShareLock/transaction 2435585-> 32317");
  CHECK_FALSE(d.complete);
  CHECK(d.problems == std::vector<std::string>{kNoStatements, kVictimInferred});
  CHECK(d.hint == "See server log for query details.");
  REQUIRE(d.context.size() == 1);
  CHECK(d.context[0].kind == ContextFrame::Kind::kSqlStatement);
  CHECK(d.context[0].statement ==
        "SELECT 1 FROM ONLY \"public\".\"dvobject\" x WHERE \"id\" OPERATOR(pg_catalog.=) $1 FOR "
        "SHARE OF x");
  REQUIRE(d.processes.size() == 2);
  CHECK(d.processes[0].id == "32317");
  CHECK(d.processes[1].id == "32312");
}

TEST_CASE("client: a pytest failure at line 5000 of a test log", "[client]") {
  std::string text = "============================= test session starts ==============================\n";
  for (int i = 2; i < 5000; ++i)
    text += "tests/test_orders.py::test_case_" + std::to_string(i) + " PASSED\n";
  text +=
      "E       psycopg2.errors.DeadlockDetected: deadlock detected\n"         // 5000
      "E       DETAIL:  Process 4211 waits for ShareLock on transaction 9001; blocked by process 4302.\n"
      "E       Process 4302 waits for ExclusiveLock on tuple (0,5) of relation 16390 of database 16384; "
      "blocked by process 4211.\n"
      "E       HINT:  See server log for query details.\n"
      "E       CONTEXT:  while locking tuple (0,5) in relation \"orders\"\n"  // 5004
      "\n"
      "tests/test_orders.py:88: DeadlockDetected\n"
      "=========================== short test summary info ============================\n"
      "FAILED tests/test_orders.py::test_checkout - psycopg2.errors.DeadlockDetected: deadlock detected\n"
      "======================= 1 failed, 4998 passed in 61.20s ========================\n";
  Report r = test::AnalyzeText(text);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "client");  // nothing PostgreSQL-like in the first 200 lines
  CHECK(r.inputs[0].lines.total == 5009);
  CHECK(r.inputs[0].lines.parsed == 6);  // the report and its summary line
  CHECK(r.inputs[0].lines.unparsed == 0);
  CHECK(r.diagnostics.empty());
  REQUIRE(r.events.size() == 1);  // the summary line repeats the failure
  const Event& ev = r.events[0];
  CHECK(ev.source.first_line == 5000);
  CHECK(ev.source.last_line == 5004);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.victim == "4211");
  CHECK(test::CycleString(d) ==
        "4211 -ShareLock/transaction 9001-> 4302; "
        "4302 -ExclusiveLock/tuple (0,5) of relation 16390 of database 16384-> 4211");
  CHECK(d.edges[1].lock.type == "tuple");
  REQUIRE(d.context.size() == 1);
  CHECK(d.context[0].action == "locking");
  CHECK(d.context[0].relation == "orders");
  CHECK(d.problems == std::vector<std::string>{kNoStatements, kVictimInferred});
}

TEST_CASE("client: pytest --tb=no leaves only the summary line, still a deadlock", "[client]") {
  Report r = test::AnalyzeText(
      "============================= test session starts ==============================\n"
      "collected 1 item\n"
      "=========================== short test summary info ============================\n"
      "FAILED tests/test_orders.py::test_checkout - psycopg2.errors.DeadlockDetected: deadlock detected\n");
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].source.first_line == 4);
  CHECK(r.events[0].deadlock->problems == std::vector<std::string>{kNoStatements, kNoDetail});
}

TEST_CASE("client: a Rails log line with Ruby Logger's prefix", "[client]") {
  Report r = test::AnalyzeText(
      "I, [2026-12-03T10:00:00.000000 #4242]  INFO -- : Started POST \"/orders\" for 10.0.0.1\n"
      "E, [2026-12-03T10:00:01.250000 #4242] ERROR -- : ActiveRecord::Deadlocked: "
      "PG::TRDeadlockDetected: ERROR:  deadlock detected\n"
      "DETAIL:  Process 501 waits for ShareLock on transaction 77; blocked by process 502.\n"
      "Process 502 waits for ShareLock on transaction 78; blocked by process 501.\n"
      "HINT:  See server log for query details.\n"
      "CONTEXT:  while updating tuple (3,9) in relation \"orders\"\n"
      ": UPDATE \"orders\" SET \"state\" = $1 WHERE \"orders\".\"id\" = $2\n"
      "I, [2026-12-03T10:00:01.260000 #4242]  INFO -- : Completed 500 Internal Server Error in 1260ms\n");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "client");
  REQUIRE(r.events.size() == 1);
  const Event& ev = r.events[0];
  CHECK(ev.source.first_line == 2);
  CHECK(ev.source.last_line == 6);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.victim == "501");
  CHECK(test::CycleString(d) == "501 -ShareLock/transaction 77-> 502; 502 -ShareLock/transaction 78-> 501");
  CHECK(d.statement.empty());  // Rails prints the SQL; nothing says it is the victim's whole statement
  REQUIRE(d.context.size() == 1);
  CHECK(d.context[0].tuple == "(3,9)");
  CHECK(d.context[0].relation == "orders");
  CHECK(d.problems == std::vector<std::string>{kNoStatements, kVictimInferred});
}

TEST_CASE("client: pytest --color=yes", "[client]") {
  Report r = test::AnalyzeText(
      "\x1b[1m\x1b[31mE       psycopg.errors.DeadlockDetected: deadlock detected\x1b[0m\n"
      "\x1b[1m\x1b[31mE       DETAIL:  Process 20 waits for ShareLock on transaction 3; blocked by "
      "process 21.\x1b[0m\n"
      "\x1b[1m\x1b[31mE       Process 21 waits for ShareLock on transaction 4; blocked by process "
      "20.\x1b[0m\n"
      "\x1b[1m\x1b[31mE       HINT:  See server log for query details.\x1b[0m\n"
      "\x1b[1m\x1b[31mE       CONTEXT:  while updating tuple (0,1) in relation \"t\"\x1b[0m\n");
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(test::CycleString(d) == "20 -ShareLock/transaction 3-> 21; 21 -ShareLock/transaction 4-> 20");
  CHECK(d.hint == "See server log for query details.");
  REQUIRE(d.context.size() == 1);
  CHECK(d.context[0].text == "while updating tuple (0,1) in relation \"t\"");
  CHECK(r.events[0].source.last_line == 5);
}

TEST_CASE("client: messages without DETAIL are deadlocks with no edge", "[client]") {
  Report r = test::AnalyzeText(
      "2026/12/03 10:00:00 transfer failed: ERROR: deadlock detected (SQLSTATE 40P01)\n"
      "    transfer_test.go:35: pq: deadlock detected\n"
      "[main] ERROR com.acme.Orders - could not place order: ERROR: deadlock detected\n"
      "Traceback (most recent call last):\n"
      "  File \"app.py\", line 3, in <module>\n"
      "sqlalchemy.exc.OperationalError: (psycopg2.errors.DeadlockDetected) deadlock detected\n");
  const std::vector<const Event*> d = DeadlocksOf(r);
  REQUIRE(d.size() == 4);
  const uint64_t lines[] = {1, 2, 3, 6};
  for (size_t i = 0; i < d.size(); ++i) {
    CHECK(d[i]->source.first_line == lines[i]);
    CHECK(d[i]->source.last_line == lines[i]);
    CHECK(d[i]->source.kind == "client");
    CHECK(d[i]->deadlock->victim.empty());
    CHECK(d[i]->deadlock->edges.empty());
    CHECK_FALSE(d[i]->deadlock->complete);
    CHECK(d[i]->deadlock->problems == std::vector<std::string>{kNoStatements, kNoDetail});
  }
  CHECK(r.summary.deadlocks == 4);
  CHECK(r.summary.deadlocks_incomplete == 4);
}

TEST_CASE("client: a DETAIL the app printed apart, or escaped on one line", "[client]") {
  Report r = test::AnalyzeText(
      "2026-12-03T10:00:00Z level=error msg=\"tx failed\" err=\"ERROR: deadlock detected (SQLSTATE 40P01)\"\n"
      "2026-12-03T10:00:00Z level=error msg=\"detail\" detail=\"Process 7 waits for ExclusiveLock on "
      "advisory lock [16384,0,1,1]; blocked by process 8.\\nProcess 8 waits for ExclusiveLock on "
      "advisory lock [16384,0,2,1]; blocked by process 7.\"\n");
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(r.events[0].source.first_line == 1);
  CHECK(r.events[0].source.last_line == 2);
  CHECK(test::CycleString(d) ==
        "7 -ExclusiveLock/advisory lock [16384,0,1,1]-> 8; 8 -ExclusiveLock/advisory lock "
        "[16384,0,2,1]-> 7");
  CHECK(d.victim == "7");
  CHECK(d.problems == std::vector<std::string>{kNoStatements, kVictimInferred});
}

TEST_CASE("client: errors that are not deadlocks stay silent", "[client]") {
  Report r = test::AnalyzeText(
      "psycopg2.errors.SerializationFailure: could not serialize access due to concurrent update\n"
      "org.postgresql.util.PSQLException: ERROR: canceling statement due to lock timeout\n"
      "  Where: while updating tuple (0,1) in relation \"items\"\n"
      "ActiveRecord::RecordNotUnique: PG::UniqueViolation: ERROR:  duplicate key value violates "
      "unique constraint \"items_pkey\"\n"
      "DETAIL:  Key (id)=(1) already exists.\n"
      "INFO: retrying after a deadlock detected earlier\n"
      "error: could not obtain lock on row in relation \"items\"\n"
      "The word deadlock detected in a sentence.\n");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "client");
  CHECK(r.events.empty());
  CHECK(r.inputs[0].lines.total == 8);
  CHECK(r.inputs[0].lines.parsed == 0);
  CHECK(r.inputs[0].lines.unparsed == 0);
  CHECK(r.unparsed.empty());
}

TEST_CASE("client: a chained exception repeats one deadlock; a new one is new", "[client]") {
  const std::string report =
      "DETAIL:  Process 10 waits for ShareLock on transaction 5; blocked by process 11.\n"
      "Process 11 waits for ShareLock on transaction 6; blocked by process 10.\n";
  Report r = test::AnalyzeText(
      "psycopg2.errors.DeadlockDetected: deadlock detected\n" + report +
      "\nThe above exception was the direct cause of the following exception:\n\n"
      "django.db.utils.OperationalError: deadlock detected\n" + report +
      "psycopg2.errors.DeadlockDetected: deadlock detected\n"
      "DETAIL:  Process 10 waits for ShareLock on transaction 7; blocked by process 11.\n"
      "Process 11 waits for ShareLock on transaction 8; blocked by process 10.\n");
  const std::vector<const Event*> d = DeadlocksOf(r);
  REQUIRE(d.size() == 2);
  CHECK(d[0]->source.first_line == 1);
  CHECK(d[0]->source.last_line == 3);
  CHECK(d[1]->source.first_line == 10);
  CHECK(test::CycleString(*d[1]->deadlock) ==
        "10 -ShareLock/transaction 7-> 11; 11 -ShareLock/transaction 8-> 10");
  CHECK(r.inputs[0].lines.parsed == 9);  // both reports and the repeat
}

TEST_CASE("client: a cut DETAIL is kept, flagged, nothing invented", "[client]") {
  Report r = test::AnalyzeText(
      "asyncpg.exceptions.DeadlockDetectedError: deadlock detected\n"
      "DETAIL:  Process 1 waits for ShareLock on transaction 50; blocked by process 2.\n"
      "Process 2 waits for ShareLock on transaction 51; blocked by process 3.\n"
      "HINT:  See server log for query details.\n");
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(test::CycleString(d) == "1 -ShareLock/transaction 50-> 2; 2 -ShareLock/transaction 51-> 3");
  REQUIRE(d.processes.size() == 3);  // 3 is named as a blocker only
  CHECK(d.processes[2].id == "3");
  CHECK(d.problems ==
        std::vector<std::string>{kNoStatements, kVictimInferred,
                                 "edge 2 (2 -> 3) is not followed by an edge of 3: the cycle is "
                                 "incomplete"});
}

TEST_CASE("client: edges without the error line are a deadlock, flagged", "[client]") {
  Report r = test::AnalyzeText(
      "some test output\n"
      "  Process 5 waits for ShareLock on transaction 9; blocked by process 6.\n"
      "  Process 6 waits for ShareLock on transaction 10; blocked by process 5.\n"
      "more output\n");
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].source.first_line == 2);
  CHECK(r.events[0].source.last_line == 3);
  CHECK(r.events[0].deadlock->problems ==
        std::vector<std::string>{kNoStatements, kNoErrorLine, kVictimInferred});
}

TEST_CASE("client: hostile text", "[client]") {
  std::string text = std::string("E   psycopg2.errors.DeadlockDetected: deadlock detected") +
                     std::string(1, '\0') + "\x1b[31m\n" +
      "E   DETAIL:  Process 99999999999999999999999 waits for ShareLock on transaction 1; blocked by "
      "process 2.\n"
      "E   Process 2 waits for ShareLock on transaction 2; blocked by process 99999999999999999999999.\n"
      "E   HINT:  \x1b[0m" + std::string(100000, 'x') + "\n"
      "E   CONTEXT:  while updating tuple (0,1) in relation \"a\nb\"\n"
      "Process 3 waits for ShareLock on transaction 3; blocked by process 3.\n"
      "ERROR: deadlock detected" + std::string(5000, ';') + "\n"
      "\xff\xfe deadlock detected pq: deadlock detected\r\n";
  Report r = test::AnalyzeText(text, "client");
  CHECK(r.inputs[0].lines.total == 9);
  CHECK(r.inputs[0].lines.unparsed == 0);
  const std::vector<const Event*> d = DeadlocksOf(r);
  REQUIRE(d.size() == 4);
  // 1: the edges as printed (a pid past int64 keeps its text as the id).
  CHECK(test::CycleString(*d[0]->deadlock) ==
        "99999999999999999999999 -ShareLock/transaction 1-> 2; "
        "2 -ShareLock/transaction 2-> 99999999999999999999999");
  CHECK(d[0]->deadlock->victim == "99999999999999999999999");
  CHECK(d[0]->deadlock->hint == std::string(100000, 'x'));  // the colour code is no text
  CHECK(d[0]->source.first_line == 1);
  CHECK(d[0]->source.last_line == 5);
  CHECK_FALSE(d[0]->deadlock->complete);
  // 2: a self-wait printed without an error line, after the first report's edges.
  CHECK(test::CycleString(*d[1]->deadlock) == "3 -ShareLock/transaction 3-> 3");
  CHECK(d[1]->source.first_line == 7);
  // 3 and 4: bare messages.
  CHECK(d[2]->source.first_line == 8);
  CHECK(d[2]->deadlock->edges.empty());
  CHECK(d[3]->source.first_line == 9);
  CHECK(d[3]->deadlock->edges.empty());
}

TEST_CASE("client: server logs are still read by their own formats", "[client]") {
  Report r = test::AnalyzeText(
      "2026-12-02 10:00:00.000 UTC [7] ERROR:  deadlock detected\n"
      "2026-12-02 10:00:00.000 UTC [7] DETAIL:  Process 7 waits for ShareLock on transaction 5; "
      "blocked by process 8.\n"
      "\tProcess 8 waits for ShareLock on transaction 6; blocked by process 7.\n"
      "\tProcess 7: update t set v = 1 where id = 2\n"
      "\tProcess 8: update t set v = 1 where id = 1\n"
      "2026-12-02 10:00:00.000 UTC [7] STATEMENT:  update t set v = 1 where id = 2\n");
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "stderr");
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].source.kind.empty());
  CHECK(r.events[0].deadlock->complete);
}

TEST_CASE("client: a server log quoting a driver error in a statement stays a server log", "[client]") {
  std::string text;
  for (int i = 0; i < 6; ++i)
    text += "2026-12-02 10:00:0" + std::to_string(i) + ".000 UTC [9] LOG:  checkpoint starting: time\n";
  text +=
      "2026-12-02 10:00:07.000 UTC [9] LOG:  statement: INSERT INTO app_log VALUES "
      "('org.postgresql.util.PSQLException: ERROR: deadlock detected')\n"
      "2026-12-02 10:00:08.000 UTC [9] LOG:  checkpoint complete\n";
  Report r = test::AnalyzeText(text);
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].format == "stderr");
  CHECK(r.events.empty());
}

TEST_CASE("client: an empty input is no client output either", "[client]") {
  Report r = test::AnalyzeText("");
  CHECK(r.diagnostics.empty());
  CHECK(r.inputs.at(0).format == "empty");
}

}  // namespace
}  // namespace lockgraph
