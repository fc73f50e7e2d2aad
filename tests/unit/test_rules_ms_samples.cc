// The SQL Server rules on every real report in samples/sqlserver/ (copies of
// ../shared/samples/sqlserver/): which MS rules fire on which report, with
// which facts; no PostgreSQL rule fires on a SQL Server report and no SQL
// Server rule on a PostgreSQL log; SQL Server deadlocks are grouped by
// statement and object, not by process ids or times.
#include <catch2/catch.hpp>

#include <fstream>

#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;

namespace {

Report Sample(const std::string& name) { return AnalyzeSample("sqlserver/" + name); }

}  // namespace

TEST_CASE("MS rules on the real SQL Server samples: which fire", "[rules][sqlserver][samples]") {
  const std::pair<const char*, const char*> expected[] = {
      {"sqlserver-xe-event-keylookup-msdocs.xml", "MS001 MS008"},
      {"sqlserver-multivictim-objectlock-tempdb.xdl", "MS002"},
      {"sqlserver-1222-msdocs-ridlock-keylock.txt", "MS008"},
      {"sqlserver-1204-msdocs-rid-key.txt", ""},
      {"sqlserver-deadlocklist-2proc-keylock-tally.xdl", ""},
  };
  for (const auto& [name, rules] : expected) {
    INFO(name);
    Report r = Sample(name);
    CHECK(RuleIds(OnlyDeadlock(r)) == rules);
    CHECK(r.findings.empty());  // no run-level finding (PG011 reads PostgreSQL logs only)
  }
}

TEST_CASE("the shared samples are the ones tested", "[rules][sqlserver][samples]") {
  for (const char* name : {"sqlserver-xe-event-keylookup-msdocs.xml",
                           "sqlserver-multivictim-objectlock-tempdb.xdl",
                           "sqlserver-1222-msdocs-ridlock-keylock.txt",
                           "sqlserver-1204-msdocs-rid-key.txt",
                           "sqlserver-deadlocklist-2proc-keylock-tally.xdl"}) {
    INFO(name);
    std::string shared = std::string(LOCKGRAPH_SHARED_DIR) + "/samples/sqlserver/" + name;
    if (!std::ifstream(shared)) {
      WARN("no " << shared << ": the copy in samples/sqlserver/ is tested alone");
      continue;
    }
    CHECK(test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/sqlserver/" + name) ==
          test::ReadFile(shared));
  }
}
