// PG003 table-order-inversion: fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

TEST_CASE("PG003 fires: stock then ledger against ledger then stock", "[rules][PG003]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kTableOrder), "PG003");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kError);
  CHECK(f[0].message ==
        "the transactions touch ledger and stock in different orders: 9972 holds ledger and "
        "waits for stock; 9959 holds stock and waits for ledger");
  CHECK(f[0].hint ==
        "Touch these tables in one fixed order in every transaction, for example ledger, then "
        "stock (alphabetical, or parents before children), moving the statements of the "
        "transactions that go the other way: 9972 holds ledger and waits for stock; 9959 holds "
        "stock and waits for ledger. Or lock everything the transaction needs up front (`SELECT "
        "... FOR UPDATE` on each table, in that order). Lowering the isolation level does not "
        "help: row locks are held until commit at every level. Nor does a longer lock_timeout or "
        "deadlock_timeout: it only delays the abort.");
  CHECK(f[0].evidence.back() == "9959 waits in table ledger");
}

TEST_CASE("PG003 fires on relation locks of two tables inside PL/pgSQL (reference §9.4)",
          "[rules][PG003]") {
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
  auto f = DeadlockFindings(r, "PG003");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "the transactions touch metric_sessions_current and metric_xacts_current in different "
        "orders: 4136 holds metric_sessions_current and waits for metric_xacts_current; 4178 "
        "holds metric_xacts_current and waits for metric_sessions_current");
  CHECK(RuleIds(OnlyDeadlock(r)) == "PG003 PG008");
}

TEST_CASE("PG003 stays silent: one table, foreign keys, DDL, advisory locks", "[rules][PG003]") {
  for (const char* excerpt : {excerpts::kRowOrder, excerpts::kUpgradeRow, excerpts::kForeignKey,
                              excerpts::kForeignKeyParentVictim, excerpts::kDdlDeadlock,
                              excerpts::kAdvisoryXact, excerpts::kFunction}) {
    INFO(excerpt);
    CHECK(DeadlockFindings(AnalyzeText(excerpt), "PG003").empty());
  }
}
