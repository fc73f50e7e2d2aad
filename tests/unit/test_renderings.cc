// One real server run, rendered every way users hand it over (pastes,
// framings, cloud exports, compressions: samples/postgresql/rendered/, made
// by scripts/render/*.py), must give the events of the same run's csvlog:
// no deadlock lost, the same victims, edges, queries and lock waits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <sstream>

#include "app/analyzer.h"

namespace fs = std::filesystem;
using namespace lockgraph;

namespace {

const fs::path kSamples = LOCKGRAPH_SAMPLES_DIR "/postgresql";

// Runs of blanks fold to one space: pastes fold them inside queries too.
std::string Folded(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    const bool b = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (b && !blank && !out.empty()) out += ' ';
    if (!b) out += c;
    blank = b;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// What must survive every rendering, one line per event, in log order.
std::vector<std::string> Canonical(const Report& report, bool has_pid) {
  std::vector<std::string> lines;
  for (const Event& ev : report.events) {
    std::ostringstream s;
    if (ev.deadlock) {
      const Deadlock& d = *ev.deadlock;
      s << "deadlock victim " << d.victim << (d.complete ? " complete" : " INCOMPLETE") << ":";
      for (const WaitEdge& e : d.edges)
        s << " " << e.waiter << " -" << e.mode << " on " << e.lock.text << "-> " << e.blocker << ";";
      for (const Participant& p : d.processes) s << " [" << p.id << ": " << Folded(p.query) << "]";
      for (const std::string& problem : d.problems) s << " problem: " << problem;
    } else if (ev.lock_wait) {
      const LockWait& w = *ev.lock_wait;
      std::string outcome = WaitOutcomeName(w.outcome);
      // Without %p an ERROR names no backend: a timeout or a cancel cannot
      // be tied to its wait, which then ends "unknown" (nothing invented).
      if (!has_pid && (outcome == "timeout" || outcome == "cancelled")) outcome = "unknown";
      s << "lock wait " << w.pid.value_or(-1) << " " << w.mode << " on " << w.lock.text << " -> " << outcome;
      if (w.waited_ms) s << " after " << *w.waited_ms << " ms";
    } else {
      continue;
    }
    lines.push_back(s.str());
  }
  return lines;
}

Report Analyze(const fs::path& file) {
  AnalyzeOptions options;
  options.threads = 1;
  Analyzer analyzer(options, nullptr);
  std::string error;
  INFO(file.string() << ": " << error);
  REQUIRE(analyzer.AnalyzeInput(file.string(), &error));
  return std::move(analyzer.Finish());
}

}  // namespace

TEST_CASE("every rendering of the sample run gives the csvlog's events", "[renderings]") {
  const Report truth = Analyze(kSamples / "scenarios.csv");
  REQUIRE(truth.summary.deadlocks == 45);
  std::vector<fs::path> files{kSamples / "scenarios.log", kSamples / "scenarios.json"};
  for (const auto& entry : fs::directory_iterator(kSamples / "rendered"))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 7);
  for (const fs::path& file : files) {
    const bool has_pid = file.filename().string().find("no-pid") == std::string::npos;
    std::vector<std::string> want = Canonical(truth, has_pid);
    const Report got = Analyze(file);
    INFO(file.filename().string() << " read as " << got.inputs.at(0).format << " '"
                                  << got.inputs.at(0).detected << "'");
    CHECK(got.summary.deadlocks == truth.summary.deadlocks);
    CHECK(got.summary.lines.unparsed == 0);
    CHECK_FALSE(got.inputs.at(0).poorly_understood);
    std::vector<std::string> have = Canonical(got, has_pid);
    // Records of concurrent backends may come in another order in another
    // destination (csvlog and stderr are written apart): compare as sets.
    std::sort(have.begin(), have.end());
    std::sort(want.begin(), want.end());
    std::vector<std::string> missing, extra;
    std::set_difference(want.begin(), want.end(), have.begin(), have.end(),
                        std::back_inserter(missing));
    std::set_difference(have.begin(), have.end(), want.begin(), want.end(),
                        std::back_inserter(extra));
    CHECK((missing.empty() ? std::string("(none)") : missing[0]) == "(none)");
    CHECK((extra.empty() ? std::string("(none)") : extra[0]) == "(none)");
    CHECK(have.size() == want.size());
  }
}
