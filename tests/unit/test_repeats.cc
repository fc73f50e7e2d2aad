// The same server run given twice (analysis/repeats.h): the real
// scenarios run as stderr, csvlog and jsonlog together counts each deadlock
// and lock wait once and says which input repeated which; two different
// runs add up.
#include <catch2/catch.hpp>

#include "analysis/repeats.h"
#include "app/analyzer.h"

namespace lockgraph {
namespace {

Report AnalyzeFiles(const std::vector<std::string>& names) {
  AnalyzeOptions options;
  Analyzer analyzer(options, nullptr);
  for (const std::string& name : names) {
    std::string error;
    REQUIRE(analyzer.AnalyzeInput(std::string(LOCKGRAPH_SOURCE_DIR) + "/samples/postgresql/" + name, &error));
  }
  return std::move(analyzer.Finish());
}

size_t Count(const Report& r, EventType type) {
  size_t n = 0;
  for (const Event& ev : r.events) n += ev.type == type;
  return n;
}

}  // namespace

TEST_CASE("one server run as stderr, csvlog and jsonlog: each deadlock and wait once", "[repeats]") {
  Report one = AnalyzeFiles({"scenarios.log"});
  Report three = AnalyzeFiles({"scenarios.log", "scenarios.csv", "scenarios.json"});
  CHECK(one.summary.deadlocks == 45);
  CHECK(one.summary.lock_waits == 258);
  CHECK(one.summary.repeated_deadlocks == 0);
  CHECK(three.summary.deadlocks == 45);
  CHECK(three.summary.lock_waits == 258);
  CHECK(three.summary.repeated_deadlocks == 90);
  CHECK(three.summary.repeated_lock_waits == 516);
  CHECK(Count(three, EventType::kDeadlock) == 45);
  CHECK(Count(three, EventType::kLockWait) == 258);
  for (const Event& ev : three.events) CHECK(ev.source.file.size() >= 13);
  for (const Event& ev : three.events) CHECK(ev.source.file.substr(ev.source.file.size() - 13) == "scenarios.log");
  REQUIRE(three.diagnostics.size() == 2);
  const std::string dir = std::string(LOCKGRAPH_SOURCE_DIR) + "/samples/postgresql/";
  CHECK(three.diagnostics[0].severity == Diagnostic::Severity::kWarning);
  CHECK(three.diagnostics[0].file == dir + "scenarios.csv");
  CHECK(three.diagnostics[0].message ==
        "repeats 45 deadlocks and 258 lock waits of " + dir +
            "scenarios.log (the same pids, times and locks: the same server run in another format?); "
            "each is counted and shown once");
  CHECK(three.diagnostics[1].file == dir + "scenarios.json");
  // The groups are those of one input.
  CHECK(three.groups.size() == one.groups.size());
}

TEST_CASE("two different server runs add up; the same file twice counts once", "[repeats]") {
  Report two = AnalyzeFiles({"scenarios.log", "rules.log"});
  CHECK(two.summary.deadlocks == 45 + 39);
  CHECK(two.summary.repeated_deadlocks == 0);
  CHECK(two.summary.repeated_lock_waits == 0);
  CHECK(two.diagnostics.empty());
  Report twice = AnalyzeFiles({"rules.log", "rules.log"});
  CHECK(twice.summary.deadlocks == 39);
  CHECK(twice.summary.repeated_deadlocks == 39);
}

TEST_CASE("RepeatKey: only with a time, and never within one input", "[repeats]") {
  Event ev;
  ev.type = EventType::kDeadlock;
  ev.deadlock = Deadlock{};
  ev.deadlock->victim = "7";
  WaitEdge e;
  e.waiter = "7";
  e.blocker = "8";
  e.mode = "ShareLock";
  ev.deadlock->edges.push_back(e);
  CHECK(RepeatKey(ev).empty());  // no time: nothing to prove a repeat
  ev.time = "2026-12-02 10:15:19.504 UTC";
  std::string with_ms = RepeatKey(ev);
  ev.time = "2026-12-02 10:15:19 UTC";  // %t in one log, %m in the other
  CHECK(RepeatKey(ev) == with_ms);
  RepeatFilter f;
  CHECK_FALSE(f.Repeats(ev, 0));
  CHECK_FALSE(f.Repeats(ev, 0));  // the same input may hold two alike
  CHECK(f.Repeats(ev, 1) == std::optional<size_t>(0));
}

}  // namespace lockgraph
