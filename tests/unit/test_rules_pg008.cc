// PG008 deadlock-in-function: fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

TEST_CASE("PG008 fires: transfer() line 5, called by both participants", "[rules][PG008]") {
  Report r = AnalyzeText(excerpts::kFunction);
  auto f = DeadlockFindings(r, "PG008");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kNote);
  CHECK(f[0].message ==
        "11483 deadlocked inside PL/pgSQL function transfer(integer,integer,double precision) "
        "line 5 (UPDATE accounts SET balance = balance + 1 WHERE id = p_to); 11507 calls it too");
  CHECK(f[0].hint ==
        "Look at transfer(integer,integer,double precision) line 5: the statement there waits for "
        "a lock another transaction holds. The log shows only the other processes' top-level "
        "calls, not the statements inside them. Make the function take its row locks in one "
        "order at its start, e.g. `PERFORM 1 FROM accounts WHERE id IN (...) ORDER BY id FOR "
        "UPDATE;` before it changes the rows.");
  CHECK(RuleIds(OnlyDeadlock(r)) == "PG001 PG008");
}

TEST_CASE("PG008 stays silent without a function frame in CONTEXT", "[rules][PG008]") {
  // The foreign-key check runs through SPI too, but in no function.
  for (const char* excerpt : {excerpts::kRowOrder, excerpts::kForeignKey, excerpts::kDdlDeadlock,
                              excerpts::kAdvisorySession}) {
    INFO(excerpt);
    CHECK(DeadlockFindings(AnalyzeText(excerpt), "PG008").empty());
  }
}
