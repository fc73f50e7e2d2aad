// PG002 numeric-keys-in-text-order: fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

TEST_CASE("PG002 fires: 9828 locked id 10 before 9, 9809 went 9 then 10", "[rules][PG002]") {
  auto f = DeadlockFindings(AnalyzeText(excerpts::kTextOrder), "PG002");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].message ==
        "9828 locked id = 10 before id = 9, the order of a text sort ('10' < '9'), not of a "
        "numeric one; 9809 went 9 then 10");
  CHECK(f[0].hint ==
        "Sort the id values as numbers before locking accounts rows: the keys were sorted as "
        "strings somewhere (JavaScript's default `ids.sort()`, keys read from JSON or a URL as "
        "text, a varchar column). Use `ids.sort((a, b) => a - b)` or convert to integers first, "
        "or let PostgreSQL order them: `SELECT 1 FROM accounts WHERE id = ANY($1::bigint[]) ORDER "
        "BY id FOR UPDATE`. Lowering the isolation level does not help: row locks are held until "
        "commit at every level. Nor does a longer lock_timeout or deadlock_timeout: it only delays "
        "the abort.");
}

TEST_CASE("PG002 stays silent: keys 3 and 4 go down in both orders", "[rules][PG002]") {
  // 9658 holds 4 and wants 3: no sort at all, not a text sort.
  CHECK(DeadlockFindings(AnalyzeText(excerpts::kRowOrder), "PG002").empty());
  // Keys unknown, one row, not integer rows.
  for (const char* excerpt : {excerpts::kFunction, excerpts::kUpgradeRow, excerpts::kTableOrder,
                              excerpts::kAdvisoryXact})
    CHECK(DeadlockFindings(AnalyzeText(excerpt), "PG002").empty());
}

TEST_CASE("PG002 stays silent once the statement was seen locking keys unsorted",
          "[rules][PG002]") {
  // The same SELECT ... FOR UPDATE first deadlocks going 4 -> 3 (unsorted),
  // then 10 -> 9: a text sort no longer explains it.
  std::string unsorted = excerpts::kTextOrder;
  for (auto [from, to] : {std::pair<std::string, std::string>{"id = 9 FOR", "id = 3 FOR"},
                          {"id = 10 FOR", "id = 4 FOR"}}) {
    for (size_t at = unsorted.find(from); at != std::string::npos; at = unsorted.find(from))
      unsorted.replace(at, from.size(), to);
  }
  Report r = AnalyzeText(unsorted + excerpts::kTextOrder);
  REQUIRE(r.events.size() == 2);
  CHECK(RuleIds(r.events[0]) == "PG001");
  CHECK(RuleIds(r.events[1]) == "PG001");
}
