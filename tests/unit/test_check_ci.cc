// The CI side of `lockgraph check` (issue 17): pg_locks snapshots judged by
// the gate (src/gate/snapshot_gate.h), repository-relative paths
// (src/emit/source_paths.h), and the Code Quality report's shape.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "gate/check_gate.h"
#include "emit/emitter.h"
#include "emit/source_paths.h"
#include "support.h"

using namespace lockgraph;
namespace fs = std::filesystem;

namespace {

// A real snapshot (samples/postgresql/snapshots/README.md): three blocking
// trees (longest waits 3.4 s, 2.5 s, 606 ms) and the advisory-lock cycle
// 13922 -> 13957 -> 13922 (1.7 s and 1.5 s).
Report Snapshot() {
  return test::AnalyzeText(test::ReadFile(std::string(LOCKGRAPH_TEST_DIR) +
                                          "/../samples/postgresql/snapshots/snapshot.csv"));
}

}  // namespace

TEST_CASE("check: a lock cycle in a snapshot fails like a deadlock", "[check][snapshot]") {
  Report report = Snapshot();
  REQUIRE(report.summary.snapshots == 1);
  CheckLimits limits;
  CheckResult c = EvaluateCheck(report, limits);
  REQUIRE(c.cycles.size() == 1);
  CHECK(c.deadlocks_failed);
  REQUIRE(c.broken.size() == 1);
  CHECK(c.broken[0] == "1 lock cycle in a snapshot (limit 0): 13922 -> 13957 -> 13922");
  CHECK(CheckVerdict(c, report) ==
        "lockgraph check: FAIL: 1 lock cycle in a snapshot (limit 0): 13922 -> 13957 -> 13922");

  limits.max_deadlocks = 1;
  c = EvaluateCheck(report, limits);
  CHECK(!c.Failed());
  CHECK(CheckVerdict(c, report) ==
        "lockgraph check: ok: 0 deadlocks (limit 1), 1 lock cycle in snapshots");
}

TEST_CASE("check: the verdict names three lock cycles and counts the others", "[check][snapshot]") {
  // A plain pg_locks dump: five pairs of sessions, each holding one advisory
  // lock and waiting for the other's.
  std::string csv =
      "locktype,database,relation,page,tuple,virtualxid,transactionid,classid,objid,objsubid,"
      "virtualtransaction,pid,mode,granted,fastpath,waitstart\n";
  for (int k = 0; k < 5; ++k) {
    for (int side = 0; side < 2; ++side) {
      const std::string pid = std::to_string(100 + 2 * k + side);
      const std::string held = std::to_string(2 * k + side);
      const std::string wanted = std::to_string(2 * k + 1 - side);
      csv += "advisory,5,,,,,,0," + held + ",1,3/" + pid + "," + pid + ",ExclusiveLock,t,f,\n";
      csv += "advisory,5,,,,,,0," + wanted + ",1,3/" + pid + "," + pid +
             ",ExclusiveLock,f,f,2026-12-02 10:00:00+00\n";
    }
  }
  Report report = test::AnalyzeText(csv);
  REQUIRE(report.summary.snapshots == 1);
  CheckResult c = EvaluateCheck(report, CheckLimits());
  REQUIRE(c.cycles.size() == 5);
  REQUIRE(c.broken.size() == 1);
  CHECK(c.broken[0] ==
        "5 lock cycles in a snapshot (limit 0): 100 -> 101 -> 100; 102 -> 103 -> 102; "
        "104 -> 105 -> 104; and 2 other cycles");
}

TEST_CASE("check: --max-lock-wait applies to the ages of snapshot waits", "[check][snapshot]") {
  Report report = Snapshot();
  CheckLimits limits;
  limits.max_deadlocks = 1;
  limits.max_lock_wait_ms = 2000;
  limits.max_lock_wait_text = "2s";
  CheckResult c = EvaluateCheck(report, limits);
  // Chains A <- B <- C (B waited 3.4 s) and D <- E (2.5 s); the cycle's 1.7 s
  // and the DDL queue's 606 ms are within the limit.
  REQUIRE(c.long_waits.size() == 2);
  std::vector<double> ms;
  for (const LongWait& w : c.long_waits) {
    CHECK(!w.known);
    CHECK(w.key.size() == 16);
    CHECK(!report.events[w.event].lock_wait);
    ms.push_back(w.waited_ms);
  }
  CHECK(ms[0] > 3000);
  CHECK(ms[0] < 3500);
  CHECK(ms[1] > 2000);
  CHECK(ms[1] < 3000);
  REQUIRE(c.broken.size() == 1);
  CHECK(c.broken[0].rfind("2 lock waits longer than 2s (longest 34", 0) == 0);
}

TEST_CASE("check: --fail-on counts findings on snapshot events", "[check][snapshot]") {
  Report report = Snapshot();
  size_t cycle = 0;
  while (cycle < report.events.size() && !report.events[cycle].cycle) ++cycle;
  REQUIRE(cycle < report.events.size());
  Finding f;
  f.rule_id = "PG007";
  f.rule_name = "advisory-lock-order";
  f.severity = Severity::kError;
  f.message = "advisory locks taken in different orders";
  report.events[cycle].findings.push_back(f);
  CheckLimits limits;
  limits.max_deadlocks = 1;
  limits.fail_on = {"PG007"};
  CheckResult c = EvaluateCheck(report, limits);
  REQUIRE(c.broken.size() == 1);
  CHECK(c.broken[0] == "PG007 found 1 time (--fail-on)");
}

TEST_CASE("source paths: relative to the root, never '..', stdin kept", "[check][paths]") {
  CHECK(RepoPath("/repo/logs/pg.log", "/repo") == "logs/pg.log");
  CHECK(RepoPath("/repo/./logs/../logs/pg.log", "/repo") == "logs/pg.log");
  CHECK(RepoPath("/elsewhere/pg.log", "/repo") == "pg.log");
  CHECK(RepoPath("/repo-two/pg.log", "/repo") == "pg.log");
  CHECK(RepoPath("-", "/repo") == "-");
  CHECK(RepoPath("/pg.log", "/") == "pg.log");
  CHECK(NormalRoot("/repo/") == "/repo");
  CHECK(NormalRoot("/") == "/");
}

TEST_CASE("source paths: the git work tree is found by walking up", "[check][paths]") {
  fs::path base = fs::temp_directory_path() / "lockgraph-test-source-root";
  fs::remove_all(base);
  fs::create_directories(base / "repo" / ".git");
  fs::create_directories(base / "repo" / "logs" / "deep");
  fs::create_directories(base / "plain");
  std::ofstream(base / "repo" / "logs" / "deep" / "pg.log") << "";
  std::ofstream(base / "plain" / "pg.log") << "";
  const std::string repo = (base / "repo").string();
  CHECK(FindGitWorkTree((base / "repo" / "logs" / "deep" / "pg.log").string()) == repo);
  CHECK(FindGitWorkTree((base / "plain" / "pg.log").string()).empty());
  CHECK(FindGitWorkTree("-").empty());
  CHECK(DefaultSourceRoot({"-", (base / "repo" / "logs" / "deep" / "pg.log").string()}) == repo);
  // A linked work tree has a .git file, not a directory.
  fs::create_directories(base / "linked");
  std::ofstream(base / "linked" / ".git") << "gitdir: /elsewhere\n";
  std::ofstream(base / "linked" / "pg.log") << "";
  CHECK(FindGitWorkTree((base / "linked" / "pg.log").string()) == (base / "linked").string());
  fs::remove_all(base);
}

TEST_CASE("codequality: GitLab's fields, one fingerprint each, paths from the root",
          "[check][codequality]") {
  Report report = test::AnalyzeText(test::ReadFile(
      std::string(LOCKGRAPH_TEST_DIR) + "/golden/pg-rules-three-alike/input.log"));
  for (Event& ev : report.events) ev.source.file = "/repo/logs/pg.log";
  for (DeadlockGroup& g : report.groups) g.first_source.file = g.last_source.file = "/repo/logs/pg.log";
  for (InputInfo& in : report.inputs) in.file = "/repo/logs/pg.log";
  RelocateSources(&report, "/repo");
  const CheckResult check = EvaluateCheck(report, CheckLimits{});
  std::unique_ptr<Emitter> cq;
  for (auto& e : RegisterBuiltinEmitters())
    if (e->Name() == "codequality") cq = std::move(e);
  REQUIRE(cq);
  cq->set_check(&check);
  std::ostringstream out;
  cq->Write(report, out);
  nlohmann::json doc = nlohmann::json::parse(out.str());
  REQUIRE(doc.is_array());
  REQUIRE(doc.size() >= 2);
  std::set<std::string> fingerprints;
  const std::set<std::string> severities = {"info", "minor", "major", "critical", "blocker"};
  for (const auto& issue : doc) {
    INFO(issue.dump());
    CHECK(issue.at("description").is_string());
    CHECK(!issue.at("description").get<std::string>().empty());
    CHECK(issue.at("check_name").is_string());
    CHECK(severities.count(issue.at("severity").get<std::string>()) == 1);
    CHECK(fingerprints.insert(issue.at("fingerprint").get<std::string>()).second);
    CHECK(issue.at("location").at("path") == "logs/pg.log");
    CHECK(issue.at("location").at("lines").at("begin").get<uint64_t>() >= 1);
  }
  CHECK(doc[0].at("check_name") == "LG-DEADLOCK");
  CHECK(doc[0].at("fingerprint") == report.groups[0].signature);
  CHECK(doc[0].at("severity") == "critical");
}
