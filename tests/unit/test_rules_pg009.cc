// PG009 retry-storm (run-level): fires and stays silent, side by side.
#include <catch2/catch.hpp>

#include "rule_excerpts.h"
#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;
using test::AnalyzeText;

namespace {

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("PG009 fires: pgbench retries at once, 4 deadlocks in 0.2 s", "[rules][PG009]") {
  Report r = AnalyzeText(excerpts::kRetryStorm);
  auto f = RunFindings(r, "PG009");
  REQUIRE(f.size() == 1);
  CHECK(f[0].severity == Severity::kWarning);
  CHECK(f[0].message ==
        "4 deadlocks of the same statements within 0.2 s (update counters set n = n + ? where "
        "id = ?) in 3 cycle shapes");
  CHECK(f[0].hint ==
        "Fix the cause first (PG001 on these deadlocks). Then retry only SQLSTATE 40P01 "
        "(deadlock_detected) and 40001 (serialization_failure), at most about 3 times, after a "
        "random sleep with full jitter (sleep random(0, min(cap, base * 2^attempt))), and never "
        "retry other errors: an immediate retry re-runs the same interleaving, as here: 4 "
        "deadlocks in 0.2 s. A longer deadlock_timeout or lock_timeout does not help.");
  CHECK(f[0].signatures.size() == 3);
  // The groups it covers list it among their rules.
  REQUIRE(r.groups.size() == 3);
  for (const DeadlockGroup& g : r.groups) CHECK(g.rules == std::vector<std::string>{"PG001", "PG009"});
}

TEST_CASE("PG009 fires on the sample's storm and names the repeated victims", "[rules][PG009]") {
  Report r = AnalyzeSample("postgresql/rules.log");
  auto f = RunFindings(r, "PG009");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message.rfind("27 deadlocks of the same statements within 2.6 s", 0) == 0);
  CHECK(f[0].message.find("; the same backends were victims again: 11954 x11, 11956 x10") !=
        std::string::npos);
  CHECK(f[0].evidence[2] == "victims' applications: lg_r_retry");
}

TEST_CASE("PG009 fires: one backend the victim again and again, different statements",
          "[rules][PG009]") {
  // Three real deadlocks of different statements, 3.5 s apart in all; their
  // victims' pids rewritten to one backend.
  std::string log = std::string(excerpts::kRowOrder) +
                    Replace(excerpts::kTableOrder, "9972", "9658") +
                    Replace(excerpts::kUpgradeRow, "10118", "9658");
  auto f = RunFindings(AnalyzeText(log), "PG009");
  REQUIRE(f.size() == 1);
  CHECK(f[0].message ==
        "backends were the deadlock victim again and again within seconds, in deadlocks of "
        "different statements: 9658 x3 in 3.5 s");
  CHECK(f[0].signatures.empty());
}

TEST_CASE("PG009 stays silent: two repeats, repeats far apart, different statements",
          "[rules][PG009]") {
  const std::string once = excerpts::kRowOrder;
  CHECK(RunFindings(AnalyzeText(once + once), "PG009").empty());
  // Three times, 30 s apart (timestamps rewritten).
  std::string later = Replace(once, "11:26:15.084", "11:26:45.084");
  std::string latest = Replace(once, "11:26:15.084", "11:27:15.084");
  CHECK(RunFindings(AnalyzeText(once + later + latest), "PG009").empty());
  // Different statements, different victims, within seconds.
  CHECK(RunFindings(AnalyzeText(once + excerpts::kTableOrder + excerpts::kUpgradeRow), "PG009")
            .empty());
}
