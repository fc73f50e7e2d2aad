// analyze keeps only the events a CI format reads (Emitter::NeedsEvents),
// and sarif, github and codequality render the others at OnEvent
// (Emitter::RendersOnEvent): the output is the same, byte for byte, as with
// every event kept and rendered at Write, and junit keeps one event per
// deadlock signature.
#include <catch2/catch.hpp>

#include <set>
#include <sstream>
#include <string>

#include "app/analyzer.h"
#include "emit/emitter.h"

namespace lockgraph {
namespace {

struct Run {
  std::string output;
  size_t events = 0;
};

class ToEmitter : public EventStream {
 public:
  explicit ToEmitter(Emitter& e) : e_(e) {}
  void OnEvent(const Event& ev) override { e_.OnEvent(ev, sink_); }
  void OnInputStart(size_t input) override { e_.OnInputStart(input); }

 private:
  Emitter& e_;
  std::ostringstream sink_;
};

// Analyzes the files (in order, as one run) and writes the report with
// `format`; `slim`: as analyze does, keep only what the emitter says it
// reads and hand it every event when it renders them at OnEvent.
Run AnalyzeAndWrite(const std::vector<std::string>& files, const std::string& format, bool slim) {
  std::unique_ptr<Emitter> emitter;
  for (auto& e : RegisterBuiltinEmitters())
    if (e->Name() == format) emitter = std::move(e);
  REQUIRE(emitter);
  AnalyzeOptions options;
  options.redact = emitter->RedactsByDefault();
  if (slim) {
    options.examples_only = emitter->NeedsEvents() != EventNeeds::kAll;
    options.keep_findings = emitter->NeedsEvents() == EventNeeds::kExamplesAndFindings;
  }
  ToEmitter stream(*emitter);
  Analyzer analyzer(options, slim && emitter->RendersOnEvent() ? &stream : nullptr);
  for (const std::string& f : files) {
    std::string error;
    REQUIRE(analyzer.AnalyzeInput(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/" + f, &error));
  }
  Report& report = analyzer.Finish();
  std::ostringstream out;
  emitter->Write(report, out);
  return {out.str(), report.events.size()};
}

TEST_CASE("event needs: CI formats write the same bytes from the events they keep",
          "[event_needs]") {
  const std::vector<std::vector<std::string>> runs = {
      {"scenarios.log"}, {"scenarios.csv"}, {"scenarios.json"}, {"rules.log"},
      {"rules-precise.log"}, {"groups.log"}, {"rules.log", "scenarios.log", "rules.log"},
  };
  for (const char* format : {"sarif", "junit", "github", "codequality"}) {
    for (const auto& files : runs) {
      INFO(format << " on " << files.front() << " (" << files.size() << " inputs)");
      const Run all = AnalyzeAndWrite(files, format, false);
      const Run slim = AnalyzeAndWrite(files, format, true);
      CHECK(slim.output == all.output);
      CHECK(slim.events <= all.events);
    }
  }
}

TEST_CASE("event needs: junit keeps one deadlock per signature and nothing else",
          "[event_needs]") {
  AnalyzeOptions options;
  options.examples_only = true;
  options.keep_findings = false;
  Analyzer analyzer(options, nullptr);
  std::string error;
  REQUIRE(analyzer.AnalyzeInput(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/groups.log", &error));
  Report& report = analyzer.Finish();
  std::set<std::string> signatures;
  for (const Event& ev : report.events) {
    CHECK(ev.deadlock.has_value());
    signatures.insert(ev.signature);
  }
  CHECK(signatures.size() == report.events.size());
  CHECK(report.events.size() == report.groups.size());
  CHECK(report.summary.deadlocks > report.groups.size());  // groups.log repeats shapes
}

}  // namespace
}  // namespace lockgraph
