// One server run written as stderr, csvlog and jsonlog at once
// (samples/postgresql/scenarios.*, see its README): the three readers must
// find the same deadlocks and the same lock waits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "support.h"

namespace lockgraph {
namespace {

struct Seen {
  std::string format;
  std::vector<std::string> deadlocks;  // in log order
  std::vector<std::string> waits;      // sorted
};

Seen Analyze(const std::string& file) {
  Report r = test::AnalyzeText(
      test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/" + file));
  Seen seen;
  if (!r.inputs.empty()) seen.format = r.inputs[0].format;
  for (const Event& ev : r.events) {
    if (ev.deadlock) {
      const Deadlock& d = *ev.deadlock;
      seen.deadlocks.push_back(ev.time + " victim " + d.victim + ": " + test::CycleString(d) +
                               (d.complete ? "" : " (incomplete)") + " | " + d.statement);
    } else if (ev.lock_wait) {
      const LockWait& w = *ev.lock_wait;
      seen.waits.push_back(w.waiter + " " + w.mode + " " + w.lock.text + " " +
                           WaitOutcomeName(w.outcome) + " " + w.statement);
    }
  }
  std::sort(seen.waits.begin(), seen.waits.end());
  return seen;
}

TEST_CASE("stderr, csvlog and jsonlog of one run give the same events", "[samples]") {
  const Seen stderr_log = Analyze("scenarios.log");
  const Seen csv = Analyze("scenarios.csv");
  const Seen json = Analyze("scenarios.json");
  CHECK(stderr_log.format == "stderr");
  CHECK(csv.format == "csvlog");
  CHECK(json.format == "jsonlog");
  // The README of the samples counts the deadlocks of the run ("**33**").
  const std::string readme =
      test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/README.md");
  const std::string key = "`deadlock detected` errors: **";
  const size_t at = readme.find(key);
  REQUIRE(at != std::string::npos);
  const size_t expected = std::stoul(readme.substr(at + key.size()));
  REQUIRE(expected > 0);
  REQUIRE(stderr_log.deadlocks.size() == expected);
  CHECK(csv.deadlocks == stderr_log.deadlocks);
  CHECK(json.deadlocks == stderr_log.deadlocks);
  REQUIRE_FALSE(stderr_log.waits.empty());
  CHECK(csv.waits == stderr_log.waits);
  CHECK(json.waits == stderr_log.waits);
}

}  // namespace
}  // namespace lockgraph
