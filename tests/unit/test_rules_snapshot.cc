// Rules on pg_locks snapshots (issue 16): PG013 unbroken-lock-cycle and
// PG014 idle-in-transaction-blocker, firing and silent side by side, on the
// real snapshot of samples/postgresql/snapshots/ (scripts/make-snapshot-samples.sh).
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;

TEST_CASE("PG013 fires on the advisory cycle of the snapshot, only there", "[rules][PG013]") {
  Report r = AnalyzeSample("postgresql/snapshots/snapshot.csv");
  auto f = EventFindings(r, "PG013");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kError);
  CHECK(f[0].message ==
        "13922 and 13957 wait for each other in a circle that the server has not broken "
        "(advisory locks)");
  // Nothing on the blocking trees, nor on logs (deadlocks the server broke).
  for (const Event& ev : r.events)
    if (!ev.cycle) CHECK(RuleIds(ev).find("PG013") == std::string::npos);
  CHECK(EventFindings(test::AnalyzeText(excerpts::kAdvisoryXact), "PG013").empty());
}

TEST_CASE("PG014 fires on the idle-in-transaction root blocker, silent on active roots",
          "[rules][PG014]") {
  Report r = AnalyzeSample("postgresql/snapshots/snapshot.csv");
  auto f = EventFindings(r, "PG014");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].message ==
        "13828 is idle in transaction for 2.5 s (transaction open 2.6 s) and blocks 13849; its "
        "last query: UPDATE inventory SET qty = qty - 1 WHERE sku = 1;");
  CHECK(f[0].evidence[1] == "13828 holds ExclusiveLock on transaction 734");
  // The other two trees have active roots (pg_sleep): silent.
  int trees = 0;
  for (const Event& ev : r.events) trees += ev.chain ? 1 : 0;
  CHECK(trees == 3);
}

TEST_CASE("PG010 names the root blockers of trees whose waits reach --max-wait", "[rules][PG010]") {
  Report r = AnalyzeSample("postgresql/snapshots/snapshot.csv");
  std::vector<std::string> messages;
  for (const Event& ev : r.events)
    if (ev.chain)
      for (const Finding& f : ev.findings)
        if (f.rule_id == "PG010") messages.push_back(f.message);
  CHECK(messages ==
        std::vector<std::string>{
            "root blocker 13681 (active) holds up 13707 and 13731; 13707 has waited 3403.5 ms for "
            "ShareLock on transaction 731",
            "root blocker 13828 (idle in transaction) holds up 13849; 13849 has waited 2455.9 ms "
            "for ShareLock on transaction 734"});
  // The DDL tree's waits (606 ms, 328 ms) are under the default 1000 ms; at
  // 500 ms it fires too.
  RuleSelection lower;
  lower.settings.max_wait_ms = 500;
  AnalyzeOptions options;
  options.rules = lower;
  Analyzer analyzer(options, nullptr);
  std::string error;
  REQUIRE(analyzer.AnalyzeInput(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/snapshots/snapshot.csv", &error));
  Report low = std::move(analyzer.Finish());
  int fired = 0;
  for (const Event& ev : low.events)
    for (const Finding& f : ev.findings) fired += ev.chain && f.rule_id == "PG010";
  CHECK(fired == 3);
}

TEST_CASE("PG006 fires on the DDL that queues readers in the snapshot", "[rules][PG006]") {
  Report r = AnalyzeSample("postgresql/snapshots/snapshot.csv");
  std::vector<std::string> messages;
  for (const Event& ev : r.events)
    for (const Finding& f : ev.findings)
      if (f.rule_id == "PG006") messages.push_back(f.message);
  CHECK(messages == std::vector<std::string>{
                        "14101's ALTER TABLE watch_ddl ADD COLUMN added int; waits 0.6 s for "
                        "AccessExclusiveLock on watch_ddl behind 14076; 14132 queue behind it"});
}
