// The text parsers of parsers/postgresql/messages.h on the server's exact
// formats (reference §3.1, §3.2, §3.5).
#include <catch2/catch.hpp>

#include "parsers/postgresql/messages.h"
#include "support.h"

using namespace lockgraph;

TEST_CASE("deadlock DETAIL: edges, then queries in the same order", "[messages]") {
  DeadlockDetail d = ParseDeadlockDetail(
      "Process 4508 waits for ShareLock on transaction 6207443; blocked by process 4496.\n"
      "Process 4496 waits for ShareLock on transaction 6207444; blocked by process 4506.\n"
      "Process 4506 waits for ShareLock on transaction 6207445; blocked by process 4508.\n"
      "Process 4508: UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;\n"
      "Process 4496: update test_no_pk set amount =amount+100 where acc_no=2;\n"
      "Process 4506: update test_no_pk set amount =amount+100 where acc_no=3;");
  CHECK(d.problems.empty());
  Deadlock dl;
  dl.edges = d.edges;
  CHECK(test::CycleString(dl) ==
        "4508 -ShareLock/transaction 6207443-> 4496; 4496 -ShareLock/transaction 6207444-> 4506; "
        "4506 -ShareLock/transaction 6207445-> 4508");
  REQUIRE(d.processes.size() == 3);
  CHECK(d.processes[0].id == "4508");
  CHECK(*d.processes[0].pid == 4508);
  CHECK(d.processes[0].query == "UPDATE test_no_pk SET amount = amount + 100.00 WHERE acc_no = 1;");
  CHECK(d.processes[1].query == "update test_no_pk set amount =amount+100 where acc_no=2;");
  CHECK(d.processes[2].query == "update test_no_pk set amount =amount+100 where acc_no=3;");
}

TEST_CASE("deadlock DETAIL: a query that contains another process's line is kept whole",
          "[messages]") {
  DeadlockDetail d = ParseDeadlockDetail(
      "Process 1 waits for ShareLock on transaction 10; blocked by process 2.\n"
      "Process 2 waits for ExclusiveLock on tuple (0,5) of relation 16390 of database 5; "
      "blocked by process 1.\n"
      "Process 1: SELECT 'Process 1: fake\n"
      "Process 3: also fake'\n"
      "Process 2:\n"
      "UPDATE t SET x = 1\n");
  CHECK(d.problems.empty());
  REQUIRE(d.processes.size() == 2);
  CHECK(d.processes[0].query == "SELECT 'Process 1: fake\nProcess 3: also fake'");
  CHECK(d.processes[1].query == "\nUPDATE t SET x = 1\n");
  CHECK(d.edges[1].lock.type == "tuple");
}

TEST_CASE("deadlock DETAIL: missing query lines are a problem, not invented", "[messages]") {
  DeadlockDetail d = ParseDeadlockDetail(
      "Process 22301 waits for ShareLock on transaction 10754518; blocked by process 22350.\n"
      "Process 22350 waits for ShareLock on transaction 10754360; blocked by process 22301.\n"
      "Process 22301: UPDATE host");
  REQUIRE(d.problems.size() == 1);
  CHECK(d.problems[0] == "query line of process 22350 missing");
  CHECK(d.processes[0].query == "UPDATE host");
}

TEST_CASE("cycle order: rotated to the victim, and an open chain is incomplete",
          "[messages]") {
  DeadlockDetail d = ParseDeadlockDetail(
      "Process 2 waits for ShareLock on transaction 10; blocked by process 1.\n"
      "Process 1 waits for ShareLock on transaction 11; blocked by process 2.\n"
      "Process 2: a\nProcess 1: b");
  std::vector<std::string> problems;
  CHECK(OrderCycleFromVictim("1", &d.edges, &d.processes, &problems));
  CHECK(d.edges[0].waiter == "1");
  CHECK(d.processes[0].query == "b");
  CHECK(problems.empty());

  DeadlockDetail open = ParseDeadlockDetail(
      "Process 2 waits for ShareLock on transaction 10; blocked by process 1.\n"
      "Process 1 waits for ShareLock on transaction 11; blocked by process 3.\n"
      "Process 2: a\nProcess 1: b");
  CHECK_FALSE(OrderCycleFromVictim("2", &open.edges, &open.processes, &problems));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] == "edge 2 (1 -> 3) is not followed by an edge of 3: the cycle is incomplete");
}

TEST_CASE("the five log_lock_waits messages and log_lock_failures", "[messages]") {
  auto m = ParseLockWaitMessage(
      "process 4496 still waiting for ShareLock on transaction 6207444 after 223.755 ms");
  REQUIRE(m);
  CHECK(m->kind == "still_waiting");
  CHECK(m->pid == 4496);
  CHECK(m->mode == "ShareLock");
  CHECK(m->tag == "transaction 6207444");
  CHECK(*m->after_ms == Approx(223.755));

  m = ParseLockWaitMessage(
      "process 2129 acquired AccessShareLock on relation 96570405 of database 16384 after "
      "13555.814 ms at character 15");
  REQUIRE(m);
  CHECK(m->kind == "acquired");
  CHECK(m->tag == "relation 96570405 of database 16384");
  CHECK(*m->after_ms == Approx(13555.814));

  m = ParseLockWaitMessage(
      "process 7 avoided deadlock for AccessExclusiveLock on relation 999 of database 5 by "
      "rearranging queue order after 1000.003 ms");
  REQUIRE(m);
  CHECK(m->kind == "avoided_deadlock");
  CHECK(m->tag == "relation 999 of database 5");

  m = ParseLockWaitMessage(
      "process 4508 detected deadlock while waiting for ShareLock on transaction 6207443 after "
      "205.386 ms");
  REQUIRE(m);
  CHECK(m->kind == "detected_deadlock");
  m = ParseLockWaitMessage("process 9 failed to acquire ExclusiveLock on tuple (1,2) of "
                           "relation 3 of database 4 after 1.000 ms");
  REQUIRE(m);
  CHECK(m->kind == "failed");
  m = ParseLockWaitMessage("process 9 could not obtain ShareLock on transaction 5");
  REQUIRE(m);
  CHECK(m->kind == "could_not_obtain");
  CHECK_FALSE(m->after_ms);
  CHECK_FALSE(ParseLockWaitMessage("duration: 2.448 ms  statement: commit;"));
}

TEST_CASE("holder and wait-queue DETAIL", "[messages]") {
  auto h = ParseHolderDetail("Process holding the lock: 4506. Wait queue: 4496.");
  REQUIRE(h);
  CHECK(h->holders == std::vector<int64_t>{4506});
  CHECK(h->queue == std::vector<int64_t>{4496});
  h = ParseHolderDetail("Processes holding the lock: 1, 2. Wait queue: 3, 4, 5.");
  REQUIRE(h);
  CHECK(h->holders == std::vector<int64_t>{1, 2});
  CHECK(h->queue == std::vector<int64_t>{3, 4, 5});
  h = ParseHolderDetail("Process holding the lock: 4496. Wait queue: .");
  REQUIRE(h);
  CHECK(h->queue.empty());
  h = ParseHolderDetail("Process holding the lock: 12, Wait queue: 13.");  // 18+ failures
  REQUIRE(h);
  CHECK(h->queue == std::vector<int64_t>{13});
}

TEST_CASE("CONTEXT frames", "[messages]") {
  auto frames = ParseContext(
      "while locking updated version (3,4) of tuple in relation \"a\"b\"\n"
      "SQL statement \"SELECT 1 FROM ONLY \"public\".\"p\" x WHERE id = $1 FOR KEY SHARE OF x\"\n"
      "PL/pgSQL function transfer(integer,integer) line 7 at SQL statement");
  REQUIRE(frames.size() == 3);
  CHECK(frames[0].kind == ContextFrame::Kind::kRowWait);
  CHECK(frames[0].tuple == "(3,4)");
  CHECK(frames[0].relation == "a\"b");
  CHECK(frames[1].kind == ContextFrame::Kind::kSqlStatement);
  CHECK(frames[1].statement ==
        "SELECT 1 FROM ONLY \"public\".\"p\" x WHERE id = $1 FOR KEY SHARE OF x");
  CHECK(frames[2].kind == ContextFrame::Kind::kFunction);
  CHECK(frames[2].function == "transfer(integer,integer)");
  CHECK(*frames[2].line == 7);
  CHECK(frames[2].statement == "SQL statement");

  frames = ParseContext("while updating tuple (0,7) in relation \"test_no_pk\"");
  REQUIRE(frames.size() == 1);
  CHECK(frames[0].action == "updating");
  CHECK(frames[0].relation == "test_no_pk");

  frames = ParseContext("SQL statement \"UPDATE t\n   SET x = 1\"\nPL/pgSQL function f() line 3 at SQL statement");
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].statement == "UPDATE t\n   SET x = 1");
  CHECK(frames[1].function == "f()");
}
