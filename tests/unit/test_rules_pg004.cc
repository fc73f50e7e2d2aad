// PG004 lock-upgrade: fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

TEST_CASE("PG004 fires: both read account 15 FOR SHARE, then both update it", "[rules][PG004]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kUpgradeRow), "PG004");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kError);
  CHECK(f[0].message ==
        "10118 and 10104 each hold a shared lock on accounts id = 15 and each wait to lock it "
        "exclusively");
  CHECK(f[0].hint ==
        "Both transactions first took a shared lock on the same accounts row (SELECT ... FOR "
        "SHARE or FOR KEY SHARE, or a foreign-key check from a child insert) and then wanted to "
        "change it. Take the lock the change needs at the start: `SELECT ... FROM accounts WHERE "
        "id = 15 FOR UPDATE` (FOR NO KEY UPDATE when the key does not change) instead of FOR "
        "SHARE, so that the second transaction waits before it holds anything; or make the "
        "change in one statement (`UPDATE ... RETURNING`). Lowering the isolation level does not "
        "help: row locks are held until commit at every level. Nor does a longer lock_timeout or "
        "deadlock_timeout: it only delays the abort.");
}

TEST_CASE("PG004 fires: both LOCK TABLE audit IN SHARE MODE, then both INSERT (csvlog)",
          "[rules][PG004]") {
  // samples/postgresql/rules.csv. (The stderr log writes this message as
  // "deadlock detected at character 13"; csvlog keeps the position apart.)
  Report r = AnalyzeText(
      "2026-12-02 11:26:19.701 UTC,\"postgres\",\"lockgraph\",10266,\"127.0.0.1:59964\","
      "6b10005b.281a,1,\"INSERT\",2026-12-02 11:26:19 UTC,3/52,0,ERROR,40P01,\"deadlock "
      "detected\",\"Process 10266 waits for RowExclusiveLock on relation 16411 of database 16384; "
      "blocked by process 10252.\nProcess 10252 waits for RowExclusiveLock on relation 16411 of "
      "database 16384; blocked by process 10266.\nProcess 10266: INSERT INTO audit VALUES (2, "
      "'b');\nProcess 10252: INSERT INTO audit VALUES (1, 'a');\",\"See server log for query "
      "details.\",,,,\"INSERT INTO audit VALUES (2, 'b');\",13,,\"lg_r_upgrade_table_B\",\"client "
      "backend\",,0\n",
      "csvlog");
  auto f = DeadlockFindings(r, "PG004");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "10266 and 10252 each hold a lock on audit and each wait for RowExclusiveLock on it");
  CHECK(f[0].hint ==
        "Each transaction first took a lock on audit that lets the others in too (LOCK TABLE ... "
        "IN SHARE MODE, CREATE INDEX, or a read) and then asked for RowExclusiveLock. Take the "
        "lock the writes need at the start, in a mode that conflicts with itself: `LOCK TABLE "
        "audit IN SHARE ROW EXCLUSIVE MODE` instead of SHARE MODE, so that the second transaction "
        "waits before it holds anything. Retrying only repeats the deadlock.");
  CHECK(DeadlockFindings(r, "PG003").empty());
  CHECK(DeadlockFindings(r, "PG006").empty());
}

TEST_CASE("PG004 stays silent: different rows, different tables, advisory keys",
          "[rules][PG004]") {
  for (const char* excerpt : {excerpts::kRowOrder, excerpts::kTextOrder, excerpts::kTableOrder,
                              excerpts::kForeignKey, excerpts::kAdvisoryXact,
                              excerpts::kDdlDeadlock, excerpts::kFunction}) {
    INFO(excerpt);
    CHECK(DeadlockFindings(AnalyzeText(excerpt), "PG004").empty());
  }
}
