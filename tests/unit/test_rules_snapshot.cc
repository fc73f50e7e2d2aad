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
