// dot, html and prometheus keep no events under `analyze`
// (src/emit/dot_emitter.cc, html_events.h, prometheus_emitter.cc): they take what they show of each event when it is made and
// write it at Write, numbered in log order and with the relation names
// learned later in the input. What they write must be the text the
// collected events give (as `check` hands them over), on every sample.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <sstream>

#include "app/analyzer.h"
#include "app/command_util.h"
#include "emit/emitter.h"
#include "support.h"

namespace fs = std::filesystem;

namespace lockgraph {
namespace {

// Analyzes `inputs` as `analyze --format FORMAT` does when `as_analyze`,
// else collecting every event and handing them to Write. False when an
// input cannot be read.
bool Render(const std::string& format, const std::vector<fs::path>& inputs, bool as_analyze,
            std::string* text, size_t* events_kept) {
  std::unique_ptr<Emitter> emitter = FindEmitter(format);
  REQUIRE(emitter);
  std::ostringstream out;
  StreamToEmitter stream(*emitter, out);
  AnalyzeOptions options;
  options.collect_events = !(as_analyze && EmitterSeesEvents(*emitter));
  Analyzer analyzer(options, options.collect_events ? nullptr : &stream);
  for (const fs::path& input : inputs) {
    std::string error;
    if (!analyzer.AnalyzeInput(input.string(), &error)) return false;
  }
  Report& report = analyzer.Finish();
  *events_kept = report.events.size();
  emitter->Write(report, out);
  *text = out.str();
  return true;
}

// `inputs` in `format` as `analyze` writes it, checked to keep no events
// and to read as the collected output; `*collected_kept` (when given): how
// many events the collecting run kept. Empty when an input cannot be read.
std::optional<std::string> Streamed(const std::string& format, const std::vector<fs::path>& inputs,
                                    size_t* collected_kept = nullptr) {
  std::string streamed, collected;
  size_t streamed_kept = 0, kept = 0;
  if (!Render(format, inputs, true, &streamed, &streamed_kept)) return std::nullopt;
  REQUIRE(Render(format, inputs, false, &collected, &kept));
  CHECK(streamed_kept == 0);
  CHECK(streamed == collected);
  if (collected_kept) *collected_kept = kept;
  return streamed;
}

TEST_CASE("dot names a relation from a record later in the same input", "[dot][spool]") {
  const fs::path late = test::TempFile(test::kLateRelationName);
  size_t collected_kept = 0;
  std::string streamed = Streamed("dot", {late}, &collected_kept).value_or("");
  CHECK(collected_kept == 2);
  CHECK(streamed.find("\t\tw1_pid_100 -> w1_pid_200\t[label=\"ExclusiveLock on tuple (0,3) of accounts\"];\n") !=
        std::string::npos);
  CHECK(streamed.find("\t\tw2_pid_300 -> w2_pid_400\t[label=\"ExclusiveLock on tuple (0,3) of accounts\"];\n") !=
        std::string::npos);

  // Names are per input: the first wait alone, read before the input that
  // names 16385, keeps its OID; numbers run on across inputs.
  const fs::path alone = test::TempFile(
      "2026-12-02 09:00:00.100 UTC [110] LOG:  process 110 still waiting for ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 100.000 ms\n"
      "2026-12-02 09:00:00.100 UTC [110] DETAIL:  Process holding the lock: 210. Wait queue: 110.\n"
      "2026-12-02 09:00:00.500 UTC [110] LOG:  process 110 acquired ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 500.000 ms\n");
  streamed = Streamed("dot", {alone, late}).value_or("");
  CHECK(streamed.find("w1_pid_110 -> w1_pid_210\t[label=\"ExclusiveLock on tuple (0,3) of 16385\"];") !=
        std::string::npos);
  CHECK(streamed.find("w2_pid_100 -> w2_pid_200\t[label=\"ExclusiveLock on tuple (0,3) of accounts\"];") !=
        std::string::npos);
  CHECK(streamed.find("subgraph cluster_w3 {") != std::string::npos);
  CHECK(streamed.find("subgraph cluster_w4 {") == std::string::npos);
}

TEST_CASE("html names a relation from a record later in the same input", "[html][spool]") {
  const fs::path late = test::TempFile(test::kLateRelationName);
  size_t collected_kept = 0;
  const std::string streamed = Streamed("html", {late}, &collected_kept).value_or("");
  CHECK(collected_kept == 2);
  // Both rows of the lock-wait table (the unnamed wait first: its chain is
  // as long, it waited as long, it came first).
  const std::string row = "<td>100</td><td>500.0 ms</td><td>ExclusiveLock on tuple (0,3) of accounts</td>";
  CHECK(streamed.find(row) != std::string::npos);
  CHECK(streamed.find("<td>300</td><td>500.0 ms</td><td>ExclusiveLock on tuple (0,3) of accounts</td>") >
        streamed.find(row));
}

// Streamed against collected on every sample; returns how many outputs
// contained `drawn` (so that the comparison saw something).
size_t CompareOnSamples(const std::string& format, const std::string& drawn) {
  CHECK(FindEmitter(format)->KeepsOwnEvents());
  const std::vector<std::string> inputs = test::SampleInputs();
  REQUIRE(inputs.size() > 100);
  size_t seen = 0;
  for (const fs::path input : inputs) {
    INFO("input " << input.string() << ", format " << format);
    std::optional<std::string> streamed = Streamed(format, {input});
    if (streamed && streamed->find(drawn) != std::string::npos) ++seen;
  }
  return seen;
}

TEST_CASE("dot output keeps no events under analyze and reads as the collected one",
          "[dot][spool]") {
  CHECK(CompareOnSamples("dot", "subgraph cluster_") > 50);
}

TEST_CASE("html output keeps no events under analyze and reads as the collected one",
          "[html][spool]") {
  CHECK(CompareOnSamples("html", "<div class=\"drawn\"") > 50);
}

TEST_CASE("prometheus output keeps no events under analyze and reads as the collected one",
          "[metrics][spool]") {
  CHECK(CompareOnSamples("prometheus", "lockgraph_deadlocks_total{") > 100);
  CHECK(CompareOnSamples("prometheus", "lockgraph_lock_waits_total{") > 60);
}

// Label values past the bound become "other": which ones keep a label of
// their own depends on log order, not on the order events were made.
TEST_CASE("prometheus counts events in log order whatever order they come in", "[metrics][spool]") {
  std::vector<Event> events;
  for (uint64_t line = 1; line <= 60; ++line) {
    Event ev;
    ev.type = EventType::kLockWait;
    ev.source.first_line = line;
    LockWait& w = ev.lock_wait.emplace();
    w.mode = "Mode" + std::to_string(line);
    w.waited_ms = 0.1 * double(line);
    events.push_back(std::move(ev));
  }
  Report report;
  report.events = events;  // collected: in log order
  std::ostringstream collected, streamed;
  FindEmitter("prometheus")->Write(report, collected);
  std::unique_ptr<Emitter> emitter = FindEmitter("prometheus");
  for (auto it = events.rbegin(); it != events.rend(); ++it) emitter->OnEvent(*it, streamed);
  emitter->Write(Report{}, streamed);
  CHECK(streamed.str() == collected.str());
  CHECK(collected.str().find("mode=\"Mode50\"") != std::string::npos);
  CHECK(collected.str().find("mode=\"Mode51\"") == std::string::npos);
  CHECK(collected.str().find("mode=\"other\"") != std::string::npos);
}

TEST_CASE("html of several inputs numbers their events across inputs", "[html][spool]") {
  const fs::path samples = fs::path(LOCKGRAPH_SOURCE_DIR) / "samples" / "postgresql";
  const std::vector<fs::path> inputs = {samples / "rules.log", samples / "scenarios.log",
                                        samples / "snapshots" / "snapshot.csv", samples / "groups.log"};
  size_t collected_kept = 0;
  CHECK(Streamed("html", inputs, &collected_kept));
  CHECK(collected_kept > 300);
}

}  // namespace
}  // namespace lockgraph
