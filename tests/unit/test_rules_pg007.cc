// PG007 advisory-lock-order: fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

TEST_CASE("PG007 fires: transaction-level keys 101 and 102 in opposite orders",
          "[rules][PG007]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kAdvisoryXact), "PG007");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kError);
  CHECK(f[0].message ==
        "10723 holds advisory lock 102 and waits for 101; 10707 holds advisory lock 101 and "
        "waits for 102");
  CHECK(f[0].hint ==
        "Take advisory locks in one order everywhere: sort the keys and lock them one by one in "
        "that order (here 10723 took 102 before 101 and 10707 took 101 before 102), or derive "
        "one key for the whole resource set.");
}

TEST_CASE("PG007 fires: session-level (int, int) keys, with the pooler warning",
          "[rules][PG007]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kAdvisorySession), "PG007");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "10874 holds advisory lock (7, 202) and waits for (7, 201); 10860 holds advisory lock "
        "(7, 201) and waits for (7, 202) (session-level locks)");
  CHECK(f[0].hint.find("pg_advisory_lock is session-level: it outlives the transaction") !=
        std::string::npos);
  CHECK(f[0].hint.find("PgBouncer pool_mode = transaction") != std::string::npos);
}

TEST_CASE("PG007 notes a wait on a session-level advisory lock, not one ending in deadlock",
          "[rules][PG007]") {
  Report r = AnalyzeText(excerpts::kAdvisorySessionWait);
  auto f = EventFindings(r, "PG007");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kNote);
  CHECK(f[0].message ==
        "10860 waited 510.5 ms for session-level advisory lock (7, 202) held by 10874 (SELECT "
        "pg_advisory_lock(7, 202);)");
  // The whole scenario log: only 10860's wait gets the note, not the victim's.
  Report all = AnalyzeText(std::string(excerpts::kAdvisorySessionWait) + excerpts::kAdvisorySession);
  CHECK(EventFindings(all, "PG007").size() == 2);  // the note and the deadlock
}

TEST_CASE("PG007 stays silent without advisory locks", "[rules][PG007]") {
  for (const char* excerpt : {excerpts::kRowOrder, excerpts::kTableOrder, excerpts::kDdlDeadlock,
                              excerpts::kDdlQueue, excerpts::kFunction}) {
    INFO(excerpt);
    CHECK(EventFindings(AnalyzeText(excerpt), "PG007").empty());
  }
}
