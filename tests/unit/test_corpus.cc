// Corpus of real PostgreSQL log excerpts that other people published
// (tests/corpus/<case>/input.* with a hand-derived expected.json; sources in
// tests/corpus/README.md). Each input goes through the Analyzer exactly as
// `lockgraph analyze FILE` would (format sniffed, no flag) and its deadlocks
// and lock-wait count are compared with expected.json. Cases that fail today
// are listed with their root cause in tests/corpus/KNOWN_FAILURES: the test
// fails when an unlisted case fails and when a listed case passes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/analyzer.h"
#include "support.h"

namespace fs = std::filesystem;
using namespace lockgraph;

namespace {

/// One deadlock as the corpus compares it: what the brief's expected.json holds.
struct DeadlockView {
  std::string victim;  // "" = none named
  std::vector<std::string> cycle;
  std::vector<std::string> modes;
  bool complete = true;
};

struct CaseView {
  std::vector<DeadlockView> deadlocks;
  size_t lock_waits = 0;
  std::string error;  // the Analyzer refused the input
};

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return "[" + s + "]";
}

std::string Describe(const DeadlockView& d) {
  return "victim=" + (d.victim.empty() ? std::string("(none)") : d.victim) + " cycle=" +
         Join(d.cycle) + " modes=" + Join(d.modes) +
         " complete=" + (d.complete ? "true" : "false");
}

/// Reads expected.json; `*error` is set when it is malformed.
CaseView ReadExpected(const fs::path& file, std::string* error) {
  CaseView v;
  try {
    nlohmann::json j = nlohmann::json::parse(test::ReadFile(file.string()));
    for (const auto& d : j.at("deadlocks")) {
      DeadlockView dv;
      if (!d.at("victim").is_null()) dv.victim = d.at("victim").get<std::string>();
      dv.cycle = d.at("cycle").get<std::vector<std::string>>();
      dv.modes = d.at("modes").get<std::vector<std::string>>();
      dv.complete = d.at("complete").get<bool>();
      v.deadlocks.push_back(dv);
    }
    if (!j.at("lock_waits").is_null()) v.lock_waits = j.at("lock_waits").get<size_t>();
  } catch (const std::exception& e) {
    *error = file.string() + ": " + e.what();
  }
  return v;
}

/// Runs the input as `lockgraph analyze FILE` does and keeps what the corpus compares.
/// One thread: the CLI's second thread only runs rules and rendering, which
/// do not change the events compared here.
CaseView Analyze(const fs::path& input) {
  AnalyzeOptions options;  // no --input-format, no --prefix: sniffed
  Analyzer analyzer(options, nullptr);
  CaseView v;
  if (!analyzer.AnalyzeInput(input.string(), &v.error)) return v;
  const Report& report = analyzer.Finish();
  for (const Event& ev : report.events) {
    if (ev.type == EventType::kLockWait) ++v.lock_waits;
    if (ev.type != EventType::kDeadlock || !ev.deadlock) continue;
    DeadlockView dv;
    dv.victim = ev.deadlock->victim;
    for (const WaitEdge& e : ev.deadlock->edges) {
      dv.cycle.push_back(e.waiter);
      dv.modes.push_back(e.mode);
    }
    dv.complete = ev.deadlock->complete;
    v.deadlocks.push_back(dv);
  }
  return v;
}

/// Empty when `got` equals `want`; otherwise one line per difference.
std::string Diff(const CaseView& want, const CaseView& got) {
  std::ostringstream out;
  if (!got.error.empty())
    out << "  analyzer refused the input: " << got.error.substr(0, got.error.find('\n')) << "\n";
  size_t n = std::max(want.deadlocks.size(), got.deadlocks.size());
  for (size_t i = 0; i < n; ++i) {
    std::string w = i < want.deadlocks.size() ? Describe(want.deadlocks[i]) : "(none)";
    std::string g = i < got.deadlocks.size() ? Describe(got.deadlocks[i]) : "(none)";
    if (w != g) out << "  deadlock " << i + 1 << ": expected " << w << "\n              got      " << g << "\n";
  }
  if (want.lock_waits != got.lock_waits)
    out << "  lock waits: expected " << want.lock_waits << ", got " << got.lock_waits << "\n";
  return out.str();
}

/// Case name -> root cause, from KNOWN_FAILURES ("name<space>cause", '#' comments).
std::map<std::string, std::string> ReadKnownFailures(const fs::path& file) {
  std::map<std::string, std::string> known;
  std::istringstream in(test::ReadFile(file.string()));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    size_t space = line.find_first_of(" \t");
    known[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  return known;
}

fs::path FindInput(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().rfind("input.", 0) == 0) return entry.path();
  return {};
}

}  // namespace

TEST_CASE("corpus: published PostgreSQL excerpts against their hand-derived events", "[corpus]") {
  const fs::path root = fs::path(LOCKGRAPH_TEST_DIR) / "corpus";
  const bool verbose = std::getenv("LOCKGRAPH_CORPUS_VERBOSE") != nullptr;
  std::map<std::string, std::string> known = ReadKnownFailures(root / "KNOWN_FAILURES");
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(root))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  REQUIRE(dirs.size() >= 40);

  size_t exact = 0;
  for (const fs::path& dir : dirs) {
    const std::string name = dir.filename().string();
    std::string error;
    CaseView want = ReadExpected(dir / "expected.json", &error);
    fs::path input = FindInput(dir);
    if (!error.empty() || input.empty()) {
      FAIL_CHECK(name << ": " << (error.empty() ? "no input.* file" : error));
      continue;
    }
    std::string diff = Diff(want, Analyze(input));
    bool listed = known.count(name) > 0;
    if (diff.empty()) ++exact;
    if (diff.empty() && listed)
      FAIL_CHECK(name << " is exact now: remove it from tests/corpus/KNOWN_FAILURES");
    if (!diff.empty() && !listed) FAIL_CHECK(name << " differs from expected.json:\n" << diff);
    if (!diff.empty() && listed && verbose)
      std::cout << name << " (known: " << known[name] << ")\n" << diff;
    known.erase(name);
  }
  for (const auto& [name, cause] : known)
    FAIL_CHECK("KNOWN_FAILURES lists " << name << ", which is not a corpus case");
  std::cout << "corpus: " << exact << " exact of " << dirs.size() << "\n";
}
