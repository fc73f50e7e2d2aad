// The gate of `lockgraph check` (src/gate/check_gate.h), baselines
// (src/gate/baseline.h) and the GitHub annotation escaping, on a real log of
// three deadlocks of one shape (tests/golden/pg-rules-three-alike).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gate/check_gate.h"
#include "emit/emitter.h"
#include "support.h"

using namespace lockgraph;

namespace {

Report ThreeAlike() {
  return test::AnalyzeText(
      test::ReadFile(std::string(LOCKGRAPH_TEST_DIR) + "/golden/pg-rules-three-alike/input.log"));
}

std::string TempFile(const std::string& name, const std::string& text) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST_CASE("check: without a baseline every deadlock counts", "[check]") {
  Report report = ThreeAlike();
  REQUIRE(report.summary.deadlocks == 3);
  REQUIRE(report.groups.size() == 1);
  const std::string sig = report.groups[0].signature;
  CheckLimits limits;
  CheckResult c = EvaluateCheck(report, limits);
  CHECK(c.Failed());
  CHECK(c.deadlocks_failed);
  CHECK(c.new_deadlocks == 3);
  CHECK(c.known_deadlocks == 0);
  REQUIRE(c.broken.size() == 1);
  CHECK(c.broken[0].rfind("3 deadlocks (limit 0): " + sig + " x3 (", 0) == 0);
  CHECK(CheckVerdict(c, report).rfind("lockgraph check: FAIL: 3 deadlocks (limit 0): ", 0) == 0);

  limits.max_deadlocks = 3;  // within the limit
  c = EvaluateCheck(report, limits);
  CHECK(!c.Failed());
  CHECK(CheckVerdict(c, report) == "lockgraph check: ok: 3 deadlocks (limit 3)");

  limits.fail_on = {"PG001"};  // the rule fires on each of the three
  c = EvaluateCheck(report, limits);
  REQUIRE(c.broken.size() == 1);
  CHECK(c.broken[0] == "PG001 found 3 times (--fail-on)");
}

TEST_CASE("check: a baseline of the same log passes; unknown entries are stale", "[check]") {
  Report report = ThreeAlike();
  Baseline made = MakeBaseline(report, 0);
  REQUIRE(made.deadlocks.size() == 1);
  made.deadlocks.push_back({"ffffffffffffffff", "a fixed deadlock"});  // sorts last
  std::string path = TempFile("lockgraph-test-baseline.json", BaselineToJson(made));
  Baseline loaded;
  std::string error;
  REQUIRE(LoadBaseline(path, &loaded, &error));
  CHECK(loaded.HasDeadlock(report.groups[0].signature));
  CHECK(loaded.HasDeadlock("ffffffffffffffff"));
  CHECK(!loaded.HasDeadlock("0000000000000000"));

  CheckLimits limits;
  limits.baseline = &loaded;
  limits.baseline_file = "b.json";
  limits.fail_on = {"PG001"};
  CheckResult c = EvaluateCheck(report, limits);
  CHECK(!c.Failed());  // known deadlocks: neither the limit nor --fail-on counts them
  CHECK(c.known_deadlocks == 3);
  CHECK(c.new_deadlocks == 0);
  CHECK(c.stale == std::vector<std::string>{"deadlock ffffffffffffffff (a fixed deadlock)"});
  CHECK(CheckVerdict(c, report) ==
        "lockgraph check: ok: 0 new deadlocks (limit 0), 3 in the baseline; 1 baseline entry no "
        "longer seen: deadlock ffffffffffffffff (a fixed deadlock)");
  std::filesystem::remove(path);
}

TEST_CASE("baseline: the file is sorted JSON with a version", "[check]") {
  Baseline b;
  b.deadlocks = {{"0a", "update t set a = ? | update t set a = ?"}, {"0b", "x"}};
  b.lock_waits = {{"1c", "ShareLock on transactionid: update t set a = ?"}};
  b.causes = {{"2d", "PG001 | update t set a = ?"}};
  CHECK(BaselineToJson(b) ==
        "{\n"
        "  \"lockgraph_baseline\": 2,\n"
        "  \"deadlocks\": [\n"
        "    {\n      \"signature\": \"0a\",\n"
        "      \"what\": \"update t set a = ? | update t set a = ?\"\n    },\n"
        "    {\n      \"signature\": \"0b\",\n      \"what\": \"x\"\n    }\n"
        "  ],\n"
        "  \"lock_waits\": [\n"
        "    {\n      \"key\": \"1c\",\n"
        "      \"what\": \"ShareLock on transactionid: update t set a = ?\"\n    }\n"
        "  ],\n"
        "  \"findings\": [],\n"
        "  \"causes\": [\n"
        "    {\n      \"cause\": \"2d\",\n"
        "      \"what\": \"PG001 | update t set a = ?\"\n    }\n"
        "  ]\n"
        "}\n");
  Baseline loaded;
  std::string error;
  // Version 2 reads back whole; version 1 (no causes) is still read.
  REQUIRE(LoadBaseline(TempFile("lockgraph-v2-baseline.json", BaselineToJson(b)), &loaded, &error));
  CHECK(loaded.causes.size() == 1);
  CHECK(loaded.deadlocks.size() == 2);
  Baseline v1;
  REQUIRE(LoadBaseline(TempFile("lockgraph-v1-baseline.json",
                                "{\"lockgraph_baseline\": 1, \"deadlocks\": [{\"signature\": \"0a\"}]}"),
                       &v1, &error));
  CHECK(v1.HasDeadlock("0a"));
  CHECK(v1.causes.empty());
  CHECK(!LoadBaseline(TempFile("lockgraph-bad-baseline.json", "{\"lockgraph_baseline\": 3}"), &loaded,
                      &error));
  CHECK(error.find("not a lockgraph baseline of version 1 or 2") != std::string::npos);
  CHECK(!LoadBaseline(TempFile("lockgraph-bad-baseline.json", "[1,2]"), &loaded, &error));
  CHECK(error.find("not a JSON object") != std::string::npos);
  CHECK(!LoadBaseline(TempFile("lockgraph-bad-baseline.json", "{\"lockgraph_baseline\": 1, "
                                                              "\"deadlocks\": [{\"what\": 1}]}"),
                      &loaded, &error));
  CHECK(error.find("an entry of 'deadlocks' has no string 'signature'") != std::string::npos);
}

TEST_CASE("github: workflow-command escaping of properties and messages", "[check]") {
  Report report;
  DeadlockGroup g;
  g.signature = "00ff";
  g.count = 1;
  g.first_time = g.last_time = "t";
  g.first_source = g.last_source = {"a,b:c%d\r\ne.log", 3, 4, {}};
  g.members = {{"fp:1", "ShareLock transactionid", "update t set a = ? -- 100%"}};
  report.groups.push_back(g);
  std::unique_ptr<Emitter> github;
  for (auto& e : RegisterBuiltinEmitters())
    if (e->Name() == "github") github = std::move(e);
  REQUIRE(github);
  std::ostringstream out;
  github->Write(report, out);
  CHECK(out.str() ==
        "::error file=a%2Cb%3Ac%25d%0D%0Ae.log,line=3,endLine=4,title=lockgraph%3A deadlock 00ff "
        "x1::deadlock 00ff x1: update t set a = ? -- 100%25%0A1 deadlock of signature 00ff%0A"
        "first: t a,b:c%25d%0D%0Ae.log:3-4%0Alast: t a,b:c%25d%0D%0Ae.log:3-4%0A"
        "  update t set a = ? -- 100%25%0A\n");
}

TEST_CASE("check --baseline-by cause: a new shape of a known cause is known", "[check]") {
  Report report = test::AnalyzeText(
      test::ReadFile(std::string(LOCKGRAPH_SOURCE_DIR) + "/samples/postgresql/scenarios.log"));
  REQUIRE(!report.causes.empty());
  const DeadlockCause& inventory = report.causes.front();
  REQUIRE(inventory.signatures.size() > 1);  // one cause, many shapes
  // A baseline that knows one shape of the cause, and the cause.
  Baseline full = MakeBaseline(report, 0);
  Baseline one;
  one.causes = full.causes;
  for (const Baseline::Entry& e : full.deadlocks)
    if (e.key == inventory.signatures.front()) one.deadlocks.push_back(e);
  REQUIRE(one.deadlocks.size() == 1);
  uint64_t first_shape = 0;
  for (const DeadlockGroup& g : report.groups)
    if (g.signature == inventory.signatures.front()) first_shape = g.count;
  CheckLimits limits;
  limits.baseline = &one;
  CheckResult by_signature = EvaluateCheck(report, limits);
  CHECK(by_signature.known_deadlocks == first_shape);
  CHECK(by_signature.new_deadlocks == report.summary.deadlocks - first_shape);
  limits.baseline_by_cause = true;
  CheckResult by_cause = EvaluateCheck(report, limits);
  // Every cause is in the file: nothing is new, and every shape is known.
  CHECK(by_cause.new_deadlocks == 0);
  CHECK(by_cause.known_deadlocks == report.summary.deadlocks);
  CHECK(!by_cause.deadlocks_failed);
  // Without the inventory cause, only its first shape stays known.
  one.causes.erase(std::remove_if(one.causes.begin(), one.causes.end(),
                                  [&](const Baseline::Entry& e) { return e.key == inventory.id; }),
                   one.causes.end());
  CheckResult without = EvaluateCheck(report, limits);
  CHECK(without.new_deadlocks == inventory.count - first_shape);
}
