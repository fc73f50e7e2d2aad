// PG001 inconsistent-row-lock-order: the cases that fire and the cases that
// must stay silent, on real PostgreSQL 15 excerpts (rule_excerpts.h).
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

TEST_CASE("PG001 fires: the same UPDATE takes accounts 3 and 4 in opposite orders",
          "[rules][PG001]") {
  Report r = AnalyzeText(excerpts::kRowOrder);
  auto f = DeadlockFindings(r, "PG001");
  REQUIRE(f.size() == 1);
  CHECK(f[0].rule_name == "inconsistent-row-lock-order");
  CHECK(f[0].severity == Severity::kError);
  CHECK(f[0].message ==
        "9658 and 9627 lock accounts rows in different orders: 9658 holds id = 4 and waits for "
        "id = 3; 9627 holds id = 3 and waits for id = 4");
  CHECK(f[0].hint ==
        "Lock accounts rows in one order in every transaction, sorted by id: sort the keys "
        "before the statements that lock them, or lock them all first with `SELECT 1 FROM "
        "accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`. Here 9658 took id = 4 before id = 3 "
        "and 9627 took id = 3 before id = 4. Lowering the isolation level does not help: row "
        "locks are held until commit at every level. Nor does a longer lock_timeout or "
        "deadlock_timeout: it only delays the abort.");
  CHECK(f[0].evidence == std::vector<std::string>{
                              "lines 1-8: deadlock detected, victim 9658",
                              "edge 1: 9658 waits for ShareLock on transaction 742, blocked by 9627",
                              "edge 2: 9627 waits for ShareLock on transaction 743, blocked by 9658",
                              "process 9658 (victim): UPDATE accounts SET balance = balance - 40 WHERE id = 3;",
                              "process 9627: UPDATE accounts SET balance = balance - 30 WHERE id = 4;",
                              "same statement shape: update accounts set balance = balance - ? where id = ?"});
}

TEST_CASE("PG001 fires without keys when a function is called with opposite arguments",
          "[rules][PG001]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kFunction), "PG001");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "11483 and 11507 lock accounts rows in different orders (same statement, keys not in "
        "the log)");
  CHECK(f[0].hint.rfind("Lock the rows in one order in every transaction", 0) == 0);
}

TEST_CASE("PG001 fires on every deadlock of the retry storm (2, 3 and 4 processes)",
          "[rules][PG001]") {
  Report r = AnalyzeText(excerpts::kRetryStorm);
  REQUIRE(r.events.size() == 4);
  for (const Event& ev : r.events) CHECK(RuleIds(ev) == "PG001");
  // 4-process cycle with tuple edges: only the transaction edges prove who holds what.
  CHECK(r.events[0].findings[0].message ==
        "11953, 11955, 11954 and 11956 lock counters rows in different orders: 11955 holds id = 1 "
        "and waits for id = 2; 11956 holds id = 2 and waits for id = 1");
}

TEST_CASE("PG001 stays silent: other tables, one row, advisory, relation and DDL waits",
          "[rules][PG001]") {
  for (const char* excerpt : {excerpts::kTableOrder, excerpts::kUpgradeRow, excerpts::kForeignKey,
                              excerpts::kForeignKeyParentVictim, excerpts::kAdvisoryXact,
                              excerpts::kAdvisorySession, excerpts::kDdlDeadlock}) {
    INFO(excerpt);
    CHECK(DeadlockFindings(AnalyzeText(excerpt), "PG001").empty());
  }
}
