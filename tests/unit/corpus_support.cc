// Shared runner of the published-excerpt corpora; see corpus_support.h.
#include "corpus_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/analyzer.h"
#include "support.h"

namespace fs = std::filesystem;

namespace lockgraph::test {
namespace {

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ";") + x;
  return "[" + s + "]";
}

std::string Describe(const CorpusDeadlock& d) {
  return "victim=" + (d.victim.empty() ? std::string("(none)") : d.victim) + " cycle=" +
         Join(d.cycle) + " modes=" + Join(d.modes) +
         " complete=" + (d.complete ? "true" : "false") +
         (d.server.empty() ? std::string() : " server=" + d.server);
}

/// Case name -> root cause, from KNOWN_FAILURES ("name<space>cause", '#' comments).
std::map<std::string, std::string> ReadKnownFailures(const fs::path& file) {
  std::map<std::string, std::string> known;
  if (!fs::exists(file)) return known;
  std::istringstream in(ReadFile(file.string()));
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

CorpusCase ReadCorpusExpected(const fs::path& file, std::string* error) {
  CorpusCase v;
  try {
    nlohmann::json j = nlohmann::json::parse(ReadFile(file.string()));
    for (const auto& d : j.at("deadlocks")) {
      CorpusDeadlock dv;
      if (!d.at("victim").is_null()) dv.victim = d.at("victim").get<std::string>();
      dv.cycle = d.at("cycle").get<std::vector<std::string>>();
      dv.modes = d.at("modes").get<std::vector<std::string>>();
      dv.complete = d.at("complete").get<bool>();
      if (d.contains("server")) dv.server = d.at("server").get<std::string>();
      v.deadlocks.push_back(dv);
    }
    if (!j.at("lock_waits").is_null()) v.lock_waits = j.at("lock_waits").get<size_t>();
  } catch (const std::exception& e) {
    *error = file.string() + ": " + e.what();
  }
  return v;
}

// One thread: the CLI's second thread only runs rules and rendering, which
// do not change the events compared here.
CorpusCase AnalyzeCorpusInput(const fs::path& input) {
  AnalyzeOptions options;  // no --input-format, no --prefix: sniffed
  Analyzer analyzer(options, nullptr);
  CorpusCase v;
  if (!analyzer.AnalyzeInput(input.string(), &v.error)) return v;
  const Report& report = analyzer.Finish();
  for (const Event& ev : report.events) {
    if (ev.type == EventType::kLockWait) ++v.lock_waits;
    if (ev.type != EventType::kDeadlock || !ev.deadlock) continue;
    CorpusDeadlock dv;
    dv.victim = ev.deadlock->victim;
    for (const WaitEdge& e : ev.deadlock->edges) {
      dv.cycle.push_back(e.waiter);
      dv.modes.push_back(e.mode);
    }
    dv.complete = ev.deadlock->complete;
    dv.server = ev.server;
    v.deadlocks.push_back(dv);
  }
  return v;
}

std::string CorpusDiff(const CorpusCase& want, const CorpusCase& got) {
  std::ostringstream out;
  if (!got.error.empty())
    out << "  analyzer refused the input: " << got.error.substr(0, got.error.find('\n')) << "\n";
  size_t n = std::max(want.deadlocks.size(), got.deadlocks.size());
  for (size_t i = 0; i < n; ++i) {
    std::string w = i < want.deadlocks.size() ? Describe(want.deadlocks[i]) : "(none)";
    std::string g = i < got.deadlocks.size() ? Describe(got.deadlocks[i]) : "(none)";
    if (w != g)
      out << "  deadlock " << i + 1 << ": expected " << w << "\n              got      " << g
          << "\n";
  }
  if (want.lock_waits != got.lock_waits)
    out << "  lock waits: expected " << want.lock_waits << ", got " << got.lock_waits << "\n";
  return out.str();
}

void RunCorpus(const fs::path& root, size_t min_cases, const std::string& label) {
  const bool verbose = std::getenv("LOCKGRAPH_CORPUS_VERBOSE") != nullptr;
  const fs::path known_file = root / "KNOWN_FAILURES";
  const std::string known_name = "tests/" + root.filename().string() + "/KNOWN_FAILURES";
  std::map<std::string, std::string> known = ReadKnownFailures(known_file);
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(root))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  REQUIRE(dirs.size() >= min_cases);

  size_t exact = 0;
  for (const fs::path& dir : dirs) {
    const std::string name = dir.filename().string();
    std::string error;
    CorpusCase want = ReadCorpusExpected(dir / "expected.json", &error);
    fs::path input = FindInput(dir);
    if (!error.empty() || input.empty()) {
      FAIL_CHECK(name << ": " << (error.empty() ? "no input.* file" : error));
      continue;
    }
    std::string diff = CorpusDiff(want, AnalyzeCorpusInput(input));
    bool listed = known.count(name) > 0;
    if (diff.empty()) ++exact;
    if (diff.empty() && listed)
      FAIL_CHECK(name << " is exact now: remove it from " << known_name);
    if (!diff.empty() && !listed) FAIL_CHECK(name << " differs from expected.json:\n" << diff);
    if (!diff.empty() && listed && verbose)
      std::cout << name << " (known: " << known[name] << ")\n" << diff;
    known.erase(name);
  }
  for (const auto& [name, cause] : known)
    FAIL_CHECK(known_name << " lists " << name << ", which is not a corpus case");
  std::cout << label << ": " << exact << " exact of " << dirs.size() << "\n";
}

}  // namespace lockgraph::test
