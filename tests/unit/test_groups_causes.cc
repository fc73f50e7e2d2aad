// Causes before shapes (issue 16): deadlocks grouped first by cause (the
// explaining rule and the set of statement shapes, whatever the cycle's
// length or order), exact shapes inside; incomplete reports of unrelated
// statements apart. On real logs: samples/postgresql/scenarios.log and
// groups.log, and excerpts of rules.log.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

namespace {

// The excerpt without its DETAIL (log_error_verbosity = terse keeps only
// ERROR, HINT?, CONTEXT and STATEMENT): an incomplete deadlock.
std::string WithoutDetail(const std::string& excerpt) {
  std::string out;
  size_t at = 0;
  while (at < excerpt.size()) {
    size_t end = excerpt.find('\n', at);
    std::string line = excerpt.substr(at, end - at + 1);
    at = end + 1;
    if (line.find(" DETAIL:  ") != std::string::npos || line[0] == '\t') continue;
    out += line;
  }
  return out;
}

}  // namespace

TEST_CASE("causes: scenarios.log's inventory deadlocks are one cause of many shapes",
          "[groups][causes]") {
  Report r = AnalyzeSample("postgresql/scenarios.log");
  REQUIRE(!r.causes.empty());
  const DeadlockCause& inventory = r.causes.front();
  CHECK(inventory.count == 43);
  CHECK(inventory.rule == "PG001");
  CHECK(inventory.statements ==
        std::vector<std::string>{"update inventory set qty = qty - ? where sku = ?"});
  CHECK(inventory.signatures.size() == 15);  // the 17 groups of the run: 15 + 2 on accounts
  CHECK(r.groups.size() == 17);
  uint64_t in_groups = 0;
  for (const DeadlockGroup& g : r.groups)
    if (g.cause == inventory.id) in_groups += g.count;
  CHECK(in_groups == 43);
  // Every group belongs to a listed cause, and the counts add up.
  uint64_t total = 0;
  for (const DeadlockCause& c : r.causes) total += c.count;
  CHECK(total == r.summary.deadlocks);
}

TEST_CASE("causes: two statements of two shapes are two causes (groups.log)", "[groups][causes]") {
  Report r = AnalyzeSample("postgresql/groups.log");
  REQUIRE(r.causes.size() == 2);
  CHECK(r.causes[0].count == 6);
  CHECK(r.causes[0].signatures.size() == 1);
  CHECK(r.causes[1].count == 4);
  CHECK(r.causes[1].signatures.size() == 1);
  CHECK(r.causes[0].id != r.causes[1].id);
}

TEST_CASE("causes: the same deadlock twice is one cause of one shape", "[groups][causes]") {
  Report r = AnalyzeText(std::string(excerpts::kRowOrder) + excerpts::kRowOrder);
  REQUIRE(r.causes.size() == 1);
  CHECK(r.causes[0].count == 2);
  CHECK(r.causes[0].signatures.size() == 1);
}

TEST_CASE("signatures: incomplete deadlocks of unrelated statements do not share one",
          "[groups][signature]") {
  Report a = AnalyzeText(WithoutDetail(excerpts::kRowOrder));
  Report b = AnalyzeText(WithoutDetail(excerpts::kTableOrder));
  const Event& da = OnlyDeadlock(a);
  const Event& db = OnlyDeadlock(b);
  CHECK_FALSE(da.deadlock->complete);
  CHECK_FALSE(db.deadlock->complete);
  CHECK(da.signature != db.signature);
  REQUIRE(a.causes.size() == 1);
  REQUIRE(b.causes.size() == 1);
  CHECK(a.causes[0].id != b.causes[0].id);
  CHECK(a.causes[0].statements ==
        std::vector<std::string>{"update accounts set balance = balance - ? where id = ?"});
  // The same statement twice, incomplete both times: one signature.
  Report twice = AnalyzeText(WithoutDetail(excerpts::kRowOrder) + WithoutDetail(excerpts::kRowOrder));
  REQUIRE(twice.groups.size() == 1);
  CHECK(twice.groups[0].count == 2);
}
