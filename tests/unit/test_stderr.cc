// The stderr pipeline end to end (prefix, assembly, events) on the real
// excerpts of reference §9, TABs restored where the publisher lost them.
#include <catch2/catch.hpp>

#include "support.h"

using namespace lockgraph;
using test::AnalyzeText;
using test::CycleString;

TEST_CASE("§9.4: relation-lock deadlock inside PL/pgSQL, multi-line query", "[stderr]") {
  Report r = AnalyzeText(
      "2021-01-21 12:58:34.900 CET [4136] ERROR:  deadlock detected\n"
      "2021-01-21 12:58:34.900 CET [4136] DETAIL:  Process 4136 waits for ShareLock on relation "
      "16820 of database 16566; blocked by process 4178.\n"
      "\tProcess 4178 waits for RowExclusiveLock on relation 16778 of database 16566; blocked by "
      "process 4136.\n"
      "\tProcess 4136: SELECT * FROM history_tables()\n"
      "\tProcess 4178: \n"
      "\tINSERT INTO monitoring.metric_sessions_current\n"
      "\tVALUES ('2021-01-21T12:55:29.121626+01:00', 8, 'template1', (NULL, 0, 0, 0, 0, 0, 0, 0, 0))\n"
      "\t\n"
      "2021-01-21 12:58:34.900 CET [4136] HINT:  See server log for query details.\n"
      "2021-01-21 12:58:34.900 CET [4136] CONTEXT:  SQL statement \"LOCK TABLE "
      "metric_xacts_current IN SHARE MODE\"\n"
      "\tPL/pgSQL function history_tables() line 14 at EXECUTE\n"
      "2021-01-21 12:58:34.900 CET [4136] STATEMENT:  SELECT * FROM history_tables()\n");
  REQUIRE(r.events.size() == 1);
  const Event& ev = r.events[0];
  CHECK(ev.type == EventType::kDeadlock);
  CHECK(ev.time == "2021-01-21 12:58:34.900 CET");
  CHECK(*ev.pid == 4136);
  CHECK(ev.source.first_line == 1);
  CHECK(ev.source.last_line == 12);
  CHECK_FALSE(ev.truncated);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.victim == "4136");
  CHECK(d.complete);
  CHECK(d.problems.empty());
  CHECK(CycleString(d) ==
        "4136 -ShareLock/relation 16820 of database 16566-> 4178; "
        "4178 -RowExclusiveLock/relation 16778 of database 16566-> 4136");
  CHECK(d.edges[0].lock.type == "relation");
  CHECK(d.edges[0].lock.Field("relation") == "16820");
  REQUIRE(d.processes.size() == 2);
  CHECK(d.processes[0].query == "SELECT * FROM history_tables()");
  CHECK(d.processes[1].query ==
        "\nINSERT INTO monitoring.metric_sessions_current\nVALUES "
        "('2021-01-21T12:55:29.121626+01:00', 8, 'template1', (NULL, 0, 0, 0, 0, 0, 0, 0, 0))\n");
  CHECK(d.hint == "See server log for query details.");
  CHECK(d.statement == "SELECT * FROM history_tables()");
  REQUIRE(d.context.size() == 2);
  CHECK(d.context[0].statement == "LOCK TABLE metric_xacts_current IN SHARE MODE");
  CHECK(d.context[1].function == "history_tables()");
  CHECK(*d.context[1].line == 14);
  CHECK(d.context[1].statement == "EXECUTE");
  CHECK(r.summary.deadlocks == 1);
  CHECK(r.summary.lines.total == 12);
  CHECK(r.summary.lines.parsed == 12);
  CHECK(r.summary.lines.unparsed == 0);
  CHECK(r.inputs[0].detected == "%m [%p] ");
}

TEST_CASE("§9.10: empty prefix, report cut at end of file: kept, flagged", "[stderr]") {
  Report r = AnalyzeText(
      "ERROR:  deadlock detected\n"
      "DETAIL:  Process 22301 waits for ShareLock on transaction 10754518; blocked by process "
      "22350.\n"
      "\tProcess 22350 waits for ShareLock on transaction 10754360; blocked by process 22301.\n"
      "\tProcess 22301: UPDATE host\n"
      "\t\t\tSET lastused = now() AT TIME ZONE 'utc'\n"
      "\t\t\tWHERE lower(hostname) = lower($1)\n");
  REQUIRE(r.events.size() == 1);
  const Event& ev = r.events[0];
  CHECK(ev.truncated);
  // No %p: the first edge's waiter is the backend that detected the
  // deadlock and logged it (docs/postgresql.md).
  CHECK(*ev.pid == 22301);
  const Deadlock& d = *ev.deadlock;
  CHECK(d.victim == "22301");
  CHECK_FALSE(d.complete);
  CHECK(d.problems == std::vector<std::string>{"query line of process 22350 missing",
                                               "the record is cut (end of input)"});
  CHECK(CycleString(d) ==
        "22301 -ShareLock/transaction 10754518-> 22350; 22350 -ShareLock/transaction "
        "10754360-> 22301");
  CHECK(d.processes[0].query ==
        "UPDATE host\n\t\tSET lastused = now() AT TIME ZONE 'utc'\n\t\tWHERE lower(hostname) = "
        "lower($1)");
  CHECK(r.summary.deadlocks_incomplete == 1);
}

TEST_CASE("§9.2: still waiting then acquired pair into one wait", "[stderr]") {
  Report r = AnalyzeText(
      "2022-02-17 16:27:06.567 UTC [2129] [queryid=0] postgres@stackoverflow LOG:  process 2129 "
      "still waiting for AccessShareLock on relation 96570405 of database 16384 after 1000.153 ms "
      "at character 15\n"
      "2022-02-17 16:27:06.567 UTC [2129] [queryid=0] postgres@stackoverflow DETAIL:  Process "
      "holding the lock: 2120. Wait queue: 2129.\n"
      "2022-02-17 16:27:06.567 UTC [2129] [queryid=0] postgres@stackoverflow STATEMENT:  select * "
      "from t1;\n"
      "2022-02-17 16:27:19.122 UTC [2120] [queryid=8085340880788646241] postgres@stackoverflow "
      "LOG:  duration: 2.448 ms  statement: commit;\n"
      "2022-02-17 16:27:19.122 UTC [2129] [queryid=0] postgres@stackoverflow LOG:  process 2129 "
      "acquired AccessShareLock on relation 96570405 of database 16384 after 13555.814 ms at "
      "character 15\n"
      "2022-02-17 16:27:19.122 UTC [2129] [queryid=0] postgres@stackoverflow STATEMENT:  select * "
      "from t1;\n"
      "2022-02-17 16:27:19.123 UTC [2129] [queryid=-4623036638694764959] postgres@stackoverflow "
      "LOG:  duration: 13556.339 ms  statement: select * from t1;\n");
  REQUIRE(r.events.size() == 1);
  const Event& ev = r.events[0];
  REQUIRE(ev.lock_wait);
  const LockWait& w = *ev.lock_wait;
  CHECK(w.waiter == "2129");
  CHECK(w.mode == "AccessShareLock");
  CHECK(w.lock.type == "relation");
  CHECK(w.lock.Field("relation") == "96570405");
  CHECK(w.outcome == WaitOutcome::kAcquired);
  CHECK(w.start_time == "2022-02-17 16:27:06.567 UTC");
  CHECK(w.end_time == "2022-02-17 16:27:19.122 UTC");
  CHECK(*w.waited_ms == Approx(13555.814));
  CHECK(w.holders == std::vector<int64_t>{2120});
  CHECK(w.queue == std::vector<int64_t>{2129});
  CHECK(w.chain == std::vector<int64_t>{2129, 2120});
  CHECK(w.statement == "select * from t1;");
  REQUIRE(w.reports.size() == 2);
  CHECK(w.reports[0].kind == "still_waiting");
  CHECK(w.reports[1].kind == "acquired");
  CHECK(ev.source.first_line == 1);
  CHECK(ev.source.last_line == 6);  // the acquired record's STATEMENT
  CHECK(ev.session.user == "postgres");
  REQUIRE(ev.session.query_id);
  CHECK(*ev.session.query_id == 0);
}

TEST_CASE("parts of one backend's message survive other backends' lines between them",
          "[stderr]") {
  Report r = AnalyzeText(
      "2026-12-02 10:00:01.000 UTC [11] ERROR:  deadlock detected\n"
      "2026-12-02 10:00:01.000 UTC [12] LOG:  duration: 1.0 ms  statement: select 1\n"
      "2026-12-02 10:00:01.000 UTC [11] DETAIL:  Process 11 waits for ShareLock on transaction "
      "5; blocked by process 12.\n"
      "2026-12-02 10:00:01.000 UTC [12] DETAIL:  not ours\n"
      "\tProcess 12 waits for ShareLock on transaction 6; blocked by process 11.\n"
      "2026-12-02 10:00:01.000 UTC [11] HINT:  See server log for query details.\n"
      "2026-12-02 10:00:01.000 UTC [11] STATEMENT:  update a set x = 1 where id = 2\n");
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  // The TAB line follows pid 12's DETAIL, so it is pid 12's text: the
  // deadlock report of pid 11 has one edge and says so.
  CHECK(CycleString(d) == "11 -ShareLock/transaction 5-> 12");
  CHECK_FALSE(d.complete);
  CHECK(d.statement == "update a set x = 1 where id = 2");
}

TEST_CASE("CRLF line ends, unparsed lines counted and listed", "[stderr]") {
  Report r = AnalyzeText(
      "2026-12-02 10:00:01.000 UTC [11] ERROR:  deadlock detected\r\n"
      "2026-12-02 10:00:01.000 UTC [11] DETAIL:  Process 11 waits for ShareLock on transaction "
      "5; blocked by process 12.\r\n"
      "\tProcess 12 waits for ShareLock on transaction 6; blocked by process 11.\r\n"
      "\tProcess 11: update a\r\n"
      "\tProcess 12: update b\r\n"
      "garbage line\r\n"
      "2026-12-02 10:00:01.000 UTC [11] HINT:  See server log for query details.\r\n");
  REQUIRE(r.events.size() == 1);
  const Deadlock& d = *r.events[0].deadlock;
  CHECK(d.complete);
  CHECK(d.processes[1].query == "update b");
  CHECK(r.summary.lines.unparsed == 1);
  REQUIRE(r.unparsed.size() == 1);
  CHECK(r.unparsed[0].line == 6);
  CHECK(r.unparsed[0].text == "garbage line");
}

TEST_CASE("blocking chain from concurrent waits; lock timeout ends a wait", "[stderr]") {
  Report r = AnalyzeText(
      "2026-12-02 10:00:01.000 UTC [20] LOG:  process 20 still waiting for ShareLock on "
      "transaction 900 after 100.100 ms\n"
      "2026-12-02 10:00:01.000 UTC [20] DETAIL:  Process holding the lock: 10. Wait queue: 20.\n"
      "2026-12-02 10:00:02.000 UTC [30] LOG:  process 30 still waiting for ShareLock on "
      "transaction 901 after 100.200 ms\n"
      "2026-12-02 10:00:02.000 UTC [30] DETAIL:  Process holding the lock: 20. Wait queue: 30.\n"
      "2026-12-02 10:00:03.000 UTC [30] ERROR:  canceling statement due to lock timeout\n"
      "2026-12-02 10:00:04.000 UTC [20] LOG:  process 20 acquired ShareLock on transaction 900 "
      "after 3000.000 ms\n");
  REQUIRE(r.events.size() == 2);
  const LockWait& first = *r.events[0].lock_wait;
  CHECK(first.waiter == "20");
  CHECK(first.outcome == WaitOutcome::kAcquired);
  CHECK(first.chain == std::vector<int64_t>{20, 10});
  const LockWait& second = *r.events[1].lock_wait;
  CHECK(second.waiter == "30");
  CHECK(second.outcome == WaitOutcome::kTimeout);
  CHECK(second.chain == std::vector<int64_t>{30, 20, 10});
  CHECK(second.end_time == "2026-12-02 10:00:03.000 UTC");
}

TEST_CASE("an unknown format is an error naming the formats and the flag", "[stderr]") {
  // Empty: any other text is read as application output (the client format).
  Report r = AnalyzeText("");
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message.find("unknown input format") != std::string::npos);
  CHECK(r.diagnostics[0].message.find("--input-format") != std::string::npos);
}

TEST_CASE("a forced --prefix is used as given", "[stderr]") {
  Report r = AnalyzeText(
      "10:00 <7> ERROR:  deadlock detected\n"
      "10:00 <7> DETAIL:  Process 7 waits for ExclusiveLock on advisory lock [5,0,1,1]; blocked "
      "by process 8.\n"
      "\tProcess 8 waits for ExclusiveLock on advisory lock [5,0,2,1]; blocked by process 7.\n"
      "\tProcess 7: select pg_advisory_lock(1)\n\tProcess 8: select pg_advisory_lock(2)\n"
      "10:00 <7> HINT:  See server log for query details.\n",
      "stderr", "%* <%p> ", true);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].deadlock->complete);
  CHECK(r.events[0].deadlock->edges[1].lock.Field("objid") == "2");
}

TEST_CASE("a chain that comes back to its waiter is a cycle, with no root blocker",
          "[stderr]") {
  Report r = AnalyzeText(
      "2026-12-02 10:00:01.000 UTC [20] LOG:  process 20 still waiting for ShareLock on "
      "transaction 901 after 100.100 ms\n"
      "2026-12-02 10:00:01.000 UTC [20] DETAIL:  Process holding the lock: 30. Wait queue: 20.\n"
      "2026-12-02 10:00:02.000 UTC [30] LOG:  process 30 detected deadlock while waiting for "
      "ShareLock on transaction 900 after 100.200 ms\n"
      "2026-12-02 10:00:02.000 UTC [30] DETAIL:  Process holding the lock: 20. Wait queue: .\n"
      "2026-12-02 10:00:02.000 UTC [30] ERROR:  deadlock detected\n"
      "2026-12-02 10:00:02.000 UTC [30] DETAIL:  Process 30 waits for ShareLock on transaction "
      "900; blocked by process 20.\n"
      "\tProcess 20 waits for ShareLock on transaction 901; blocked by process 30.\n"
      "\tProcess 30: update b\n\tProcess 20: update a\n"
      "2026-12-02 10:00:02.000 UTC [30] HINT:  See server log for query details.\n"
      "2026-12-02 10:00:02.100 UTC [20] LOG:  process 20 acquired ShareLock on transaction 901 "
      "after 1100.000 ms\n");
  REQUIRE(r.events.size() == 3);
  const LockWait& victim_wait = *r.events[1].lock_wait;
  CHECK(victim_wait.waiter == "30");
  CHECK(victim_wait.outcome == WaitOutcome::kDeadlock);
  CHECK(victim_wait.chain == std::vector<int64_t>{30, 20, 30});
  CHECK(victim_wait.chain_is_cycle);
  CHECK(victim_wait.reports[0].kind == "detected_deadlock");
  CHECK(r.events[0].lock_wait->chain == std::vector<int64_t>{20, 30});
  CHECK_FALSE(r.events[0].lock_wait->chain_is_cycle);
  CHECK(CycleString(*r.events[2].deadlock) ==
        "30 -ShareLock/transaction 900-> 20; 20 -ShareLock/transaction 901-> 30");
}

TEST_CASE("a tuple position in another record does not name a relation", "[stderr]") {
  // Small hot tables all have rows at (0,N): only one record's own CONTEXT
  // and tuple lock may tie an OID to a name (the bench found this).
  Report r = AnalyzeText(
      "2026-12-02 10:00:01.000 UTC [7623] LOG:  process 7623 still waiting for ShareLock on "
      "transaction 753 after 1000.162 ms\n"
      "2026-12-02 10:00:01.000 UTC [7623] CONTEXT:  while updating tuple (0,5) in relation "
      "\"accounts\"\n"
      "2026-12-02 10:00:02.000 UTC [7601] LOG:  process 7601 still waiting for ExclusiveLock on "
      "tuple (0,5) of relation 16392 of database 16384 after 1000.134 ms\n"
      "2026-12-02 10:00:03.000 UTC [31] ERROR:  deadlock detected\n"
      "2026-12-02 10:00:03.000 UTC [31] DETAIL:  Process 31 waits for ShareLock on transaction "
      "9; blocked by process 32.\n"
      "\tProcess 32 waits for ExclusiveLock on tuple (3,7) of relation 16500 of database 16384; "
      "blocked by process 31.\n"
      "\tProcess 31: update a\n\tProcess 32: update a\n"
      "2026-12-02 10:00:03.000 UTC [31] HINT:  See server log for query details.\n"
      "2026-12-02 10:00:03.000 UTC [31] CONTEXT:  while updating tuple (3,7) in relation "
      "\"inventory\"\n"
      "2026-12-02 10:00:04.000 UTC [40] LOG:  process 40 still waiting for ExclusiveLock on "
      "tuple (9,9) of relation 16500 of database 16384 after 1000.000 ms\n");
  REQUIRE(r.events.size() == 4);
  CHECK(r.events[1].lock_wait->lock.relation_name.empty());  // 16392 is not "accounts"
  CHECK(r.events[2].deadlock->edges[1].lock.relation_name == "inventory");
  CHECK(r.events[3].lock_wait->lock.relation_name == "inventory");  // learnt, same OID
}
