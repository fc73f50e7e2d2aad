// Golden files: each folder tests/golden/<case>/ holds one input file
// (input.log, input.csv, input.json, ...) and the expected output of every
// emitter (expected.txt, .json, .ndjson, .dot, .sarif, .junit.xml, .github,
// .codequality.json);
// a file named no-redact turns off the default redaction of sarif and junit. Set LOCKGRAPH_UPDATE_GOLDEN=1
// to rewrite them, then read the diff before committing.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/analyzer.h"
#include "app/command_util.h"
#include "emit/emitter.h"
#include "support.h"

namespace fs = std::filesystem;
using namespace lockgraph;

namespace {

const char* Extension(const std::string& emitter) {
  if (emitter == "text") return "txt";
  if (emitter == "junit") return "junit.xml";
  if (emitter == "codequality") return "codequality.json";
  return emitter.c_str();
}

// Rule findings name the input as it was given (an absolute path here):
// keep only the file name, as for every other path in the output.
void PortableFindings(std::vector<Finding>& findings, const std::string& path,
                      const std::string& name) {
  auto fix = [&](std::string& s) {
    for (size_t at = s.find(path); at != std::string::npos; at = s.find(path, at + name.size()))
      s.replace(at, path.size(), name);
  };
  for (Finding& f : findings) {
    fix(f.message);
    fix(f.hint);
    for (std::string& e : f.evidence) fix(e);
  }
}

class Collect : public EventStream {
 public:
  Collect(Emitter& e, std::ostream& out) : e_(e), out_(out) {}
  void OnEvent(const Event& ev) override {
    Event copy = ev;
    PortableFindings(copy.findings, copy.source.file, fs::path(copy.source.file).filename());
    copy.source.file = fs::path(copy.source.file).filename();
    e_.OnEvent(copy, out_);
  }
  Emitter& e_;
  std::ostream& out_;
};

// As the CLI does: sarif and junit redact unless the case asks for
// --no-redact (a file named no-redact in its folder).
std::string Render(const fs::path& input, Emitter& emitter, unsigned threads = 1) {
  std::ostringstream out;
  Collect stream(emitter, out);
  AnalyzeOptions options;
  options.redact = emitter.RedactsByDefault() && !fs::exists(input.parent_path() / "no-redact");
  options.keep_unparsed = 100;
  options.threads = threads;
  // As `analyze` does: json and text keep their own events (EventSpool);
  // sarif, github and codequality render theirs at OnEvent too.
  const bool sees_events = EmitterSeesEvents(emitter);
  options.collect_events = !sees_events;
  Analyzer analyzer(options, sees_events || emitter.RendersOnEvent() ? &stream : nullptr);
  std::string error;
  bool ok = analyzer.AnalyzeInput(input.string(), &error);
  REQUIRE(ok);
  Report& report = analyzer.Finish();
  // Paths differ between machines: keep only the file name.
  for (InputInfo& in : report.inputs) in.file = input.filename();
  for (Event& ev : report.events) {
    PortableFindings(ev.findings, input.string(), input.filename());
    ev.source.file = input.filename();
  }
  PortableFindings(report.findings, input.string(), input.filename());
  for (DeadlockGroup& g : report.groups) g.first_source.file = g.last_source.file = input.filename();
  for (DeadlockCause& c : report.causes) c.first_source.file = c.last_source.file = input.filename();
  for (UnparsedLine& u : report.unparsed) u.file = input.filename();
  for (RelationName& r : report.summary.relation_names) r.file = input.filename();
  // As check does after RelocateSources: the paths are relative to a root
  // (sarif names it in originalUriBaseIds), here one that is the same everywhere.
  emitter.set_source_root("/repo");
  emitter.Write(report, out);
  return out.str();
}

}  // namespace

TEST_CASE("golden files of every emitter", "[golden]") {
  const bool update = std::getenv("LOCKGRAPH_UPDATE_GOLDEN") != nullptr;
  fs::path root = fs::path(LOCKGRAPH_TEST_DIR) / "golden";
  int cases = 0;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(root))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  for (const fs::path& dir : dirs) {
    fs::path input;
    for (const auto& f : fs::directory_iterator(dir))
      if (f.path().stem() == "input") input = f.path();
    REQUIRE(!input.empty());
    ++cases;
    for (auto& emitter : RegisterBuiltinEmitters()) {
      fs::path expected = dir / (std::string("expected.") + Extension(emitter->Name()));
      std::string actual = Render(input, *emitter);
      if (update) {
        std::ofstream(expected, std::ios::binary) << actual;
        continue;
      }
      INFO("golden case " << dir.filename().string() << ", format " << emitter->Name());
      REQUIRE(fs::exists(expected));
      CHECK(actual == test::ReadFile(expected.string()));
    }
  }
  CHECK(cases >= 3);
}

// --threads 2 (the default on two cores) hands events to a second thread:
// the same bytes must come out, in every format.
TEST_CASE("golden files are the same with events analysed on a second thread", "[golden]") {
  fs::path root = fs::path(LOCKGRAPH_TEST_DIR) / "golden";
  for (const auto& entry : fs::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    fs::path input;
    for (const auto& f : fs::directory_iterator(entry.path()))
      if (f.path().stem() == "input") input = f.path();
    for (auto& emitter : RegisterBuiltinEmitters()) {
      if (emitter->Name() == "html") continue;  // drawn by Graphviz: slow, and the same path as dot
      fs::path expected = entry.path() / (std::string("expected.") + Extension(emitter->Name()));
      INFO("golden case " << entry.path().filename().string() << ", format " << emitter->Name());
      CHECK(Render(input, *emitter, 2) == test::ReadFile(expected.string()));
    }
  }
}
