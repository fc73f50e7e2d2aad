// PG005 foreign-key-parent-child: fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

TEST_CASE("PG005 fires: the victim's insert waits in its foreign-key check (CONTEXT)",
          "[rules][PG005]") {
  Report r = AnalyzeText(excerpts::kForeignKey);
  auto f = DeadlockFindings(r, "PG005");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kError);
  CHECK(f[0].message ==
        "10400's write to order_lines waits for 10411, which locks orders rows with SELECT ... "
        "FOR UPDATE, in its foreign-key check (FOR KEY SHARE on a row of orders: see CONTEXT)");
  CHECK(f[0].hint ==
        "Every insert into order_lines (and every update of its foreign key) takes FOR KEY SHARE "
        "on the referenced row of orders. That lock conflicts only with FOR UPDATE, DELETE and "
        "updates of the orders id. Lock orders rows with `FOR NO KEY UPDATE` instead of FOR "
        "UPDATE when the key does not change: it does not conflict with the foreign-key check. "
        "Lock the parent row first, in one order (by id) in every transaction, before inserting "
        "its children. Lowering the isolation level does not help: row locks are held until "
        "commit at every level. Nor does a longer lock_timeout or deadlock_timeout: it only "
        "delays the abort.");
  CHECK(f[0].evidence.back() ==
        "CONTEXT: SQL statement \"SELECT 1 FROM ONLY \"public\".\"orders\" x WHERE \"id\" "
        "OPERATOR(pg_catalog.=) $1 FOR KEY SHARE OF x\"");
  CHECK(RuleIds(OnlyDeadlock(r)) == "PG005");
}

TEST_CASE("PG005 fires: an INSERT that is not the victim waits for the parent's locker",
          "[rules][PG005]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kForeignKeyParentVictim), "PG005");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "10552's write to order_lines waits for 10569, which locks orders rows with SELECT ... "
        "FOR UPDATE (an INSERT waits for another transaction's row lock only in a foreign-key "
        "check, or on a duplicate key)");
  CHECK(f[0].hint.find("updates of the orders key.") != std::string::npos);
}

TEST_CASE("PG005 stays silent without a child write", "[rules][PG005]") {
  for (const char* excerpt : {excerpts::kRowOrder, excerpts::kTableOrder, excerpts::kUpgradeRow,
                              excerpts::kDdlDeadlock, excerpts::kFunction, excerpts::kRetryStorm}) {
    INFO(excerpt);
    CHECK(EventFindings(AnalyzeText(excerpt), "PG005").empty());
  }
}
