// PG006 ddl-vs-dml: fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

TEST_CASE("PG006 fires: ALTER TABLE in a cycle with an AccessExclusiveLock edge",
          "[rules][PG006]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kDdlDeadlock), "PG006");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].message ==
        "11348's ALTER TABLE settings ADD COLUMN note2 text; waits for AccessExclusiveLock on "
        "settings inside a deadlock: its transaction holds what the others need");
  CHECK(f[0].hint ==
        "Give schema changes a short lock timeout and retry them: `SET lock_timeout = '2s';` "
        "before the DDL, in its own short transaction, retried on SQLSTATE 55P03 "
        "(lock_not_available). The DDL then gives up instead of queueing every query on the "
        "table behind it or joining a cycle. A longer timeout makes the queue longer, not "
        "shorter. Do not hold other locks in the migration's transaction: commit the DML first.");
}

TEST_CASE("PG006 fires: the ALTER waits, and queries queue behind it", "[rules][PG006]") {
  Report r = AnalyzeText(excerpts::kDdlQueue);
  REQUIRE(r.events.size() == 3);
  std::vector<std::string> messages;
  for (const Event& ev : r.events)
    for (const Finding& f : ev.findings)
      if (f.rule_id == "PG006") messages.push_back(f.message);
  CHECK(messages == std::vector<std::string>{
                        "11021 waited 2077.0 ms for AccessExclusiveLock on settings (ALTER TABLE "
                        "settings ADD COLUMN note text;) behind 10998; every later query on "
                        "settings queues behind it",
                        "11040 waited 1663.2 ms for RowExclusiveLock on settings, queued behind "
                        "ALTER TABLE settings ADD COLUMN note text; (11021), which waited for "
                        "AccessExclusiveLock ahead of it",
                        "11054 waited 1282.3 ms for AccessShareLock on settings, queued behind "
                        "ALTER TABLE settings ADD COLUMN note text; (11021), which waited for "
                        "AccessExclusiveLock ahead of it"});
}

TEST_CASE("PG006 stays silent on row and advisory deadlocks and on row lock waits",
          "[rules][PG006]") {
  for (const char* excerpt : {excerpts::kRowOrder, excerpts::kTableOrder, excerpts::kUpgradeRow,
                              excerpts::kAdvisoryXact, excerpts::kRowOrderWait,
                              excerpts::kAdvisorySessionWait}) {
    INFO(excerpt);
    CHECK(EventFindings(AnalyzeText(excerpt), "PG006").empty());
  }
}
