// Broken input in every format (issue 8): CRLF line ends, a line that is no
// record between good ones, a file cut in the middle of a deadlock report.
// Each case runs on a real sample of every input format: the broken record is
// counted and reported, every good record around it survives unchanged.
// docs/reliability.md lists which test covers which case.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "emit/emitter.h"
#include "support.h"

using namespace lockgraph;
using test::AnalyzeText;
using test::ReadFile;

namespace {

struct Sample {
  const char* path;    // under the source tree
  const char* format;  // --input-format
  size_t deadlocks;    // deadlock events in the sample
  const char* report;  // text of the line where the first deadlock report starts
};

// One real sample per input format.
const std::vector<Sample>& Samples() {
  static const std::vector<Sample> samples = {
      {"samples/postgresql/scenarios.log", "stderr", 45, "ERROR:  deadlock detected"},
      {"samples/postgresql/scenarios.csv", "csvlog", 45, "deadlock detected"},
      {"samples/postgresql/scenarios.json", "jsonlog", 45, "deadlock detected"},
      {"tests/fuzz/seeds/syslog-deadlock.log", "syslog", 1, "ERROR:  deadlock detected"},
      {"samples/postgresql/snapshots/snapshot.csv", "pglocks-csv", 0, nullptr},
      {"samples/postgresql/snapshots/snapshot.json", "pglocks-json", 0, nullptr},
      {"samples/sqlserver/sqlserver-deadlocklist-2proc-keylock-tally.xdl", "sqlserver-xml", 1,
       "<deadlock-list"},
      {"samples/sqlserver/sqlserver-1222-msdocs-ridlock-keylock.txt", "sqlserver-errorlog", 1,
       "deadlock-list"},
      {"samples/sqlserver/sqlserver-1204-msdocs-rid-key.txt", "sqlserver-errorlog", 1,
       "Deadlock encountered"},
  };
  return samples;
}

std::string Read(const Sample& s) {
  return ReadFile(std::string(LOCKGRAPH_SOURCE_DIR) + "/" + s.path);
}

std::string Json(const Report& report) {
  for (auto& e : RegisterBuiltinEmitters()) {
    if (e->Name() != "json") continue;
    std::ostringstream out;
    e->Write(report, out);
    // The temporary file's name (support.cc) differs between two analyses.
    std::string json = out.str();
    const std::string tmp = "/tmp/lockgraph-test-";
    for (size_t at = json.find(tmp); at != std::string::npos; at = json.find(tmp, at))
      json.replace(at, tmp.size() + 6, "input");
    return json;
  }
  return "";
}

std::string WithCrlf(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

size_t CountDeadlocks(const Report& r) {
  size_t n = 0;
  for (const Event& ev : r.events) n += ev.deadlock.has_value();
  return n;
}

}  // namespace

TEST_CASE("CRLF line ends: every format reads exactly as with LF", "[broken]") {
  for (const Sample& s : Samples()) {
    INFO(s.path);
    std::string lf = Read(s);
    REQUIRE(lf.find('\r') == std::string::npos);
    Report a = AnalyzeText(lf, s.format);
    Report b = AnalyzeText(WithCrlf(lf), s.format);
    CHECK(CountDeadlocks(a) == s.deadlocks);
    CHECK(a.summary.lines.unparsed == 0);
    CHECK(b.summary.lines.unparsed == 0);
    CHECK(Json(b) == Json(a));
    // Detected without --input-format, too.
    Report c = AnalyzeText(WithCrlf(lf));
    REQUIRE(c.inputs.size() == 1);
    CHECK(c.inputs[0].format == s.format);
  }
}

namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string Join(const std::vector<std::string>& lines, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < lines.size(); ++i) out += lines[i] + "\n";
  return out;
}

// 0-based index of the first line containing `marker`.
size_t LineOf(const std::vector<std::string>& lines, const char* marker) {
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find(marker) != std::string::npos) return i;
  FAIL("no line contains " << marker);
  return 0;
}

std::vector<std::string> Cycles(const Report& r) {
  std::vector<std::string> out;
  for (const Event& ev : r.events)
    if (ev.deadlock) out.push_back(test::CycleString(*ev.deadlock));
  return out;
}

const char* kGarbage = "}{ not a record: <script>alert(\"x\")</script> \\ \x01 \xff";

}  // namespace

TEST_CASE("a line that is no record before a deadlock report: counted, listed, the rest intact",
          "[broken]") {
  for (const Sample& s : Samples()) {
    if (!s.report) continue;
    INFO(s.path);
    std::vector<std::string> lines = Lines(Read(s));
    size_t at = LineOf(lines, s.report);
    Report good = AnalyzeText(Join(lines, 0, lines.size()), s.format);
    Report bad = AnalyzeText(Join(lines, 0, at) + kGarbage + "\n" +
                             Join(lines, at, lines.size()), s.format);
    CHECK(bad.summary.lines.total == good.summary.lines.total + 1);
    CHECK(bad.summary.lines.unparsed == 1);
    REQUIRE(bad.unparsed.size() == 1);
    CHECK(bad.unparsed[0].line == at + 1);
    CHECK(bad.unparsed[0].text == kGarbage);
    CHECK(bad.events.size() == good.events.size());
    CHECK(Cycles(bad) == Cycles(good));
    CHECK(bad.summary.deadlocks_incomplete == good.summary.deadlocks_incomplete);
  }
}

TEST_CASE("a file cut inside its first deadlock report: kept and flagged, what came before intact",
          "[broken]") {
  for (const Sample& s : Samples()) {
    if (!s.report) continue;
    INFO(s.path);
    std::vector<std::string> lines = Lines(Read(s));
    size_t at = LineOf(lines, s.report);
    Report before = AnalyzeText(Join(lines, 0, at), s.format);
    if (std::string(s.format) == "jsonlog") {
      // One record a line: the cut record is a line that is not JSON.
      Report cut = AnalyzeText(Join(lines, 0, at) + lines[at].substr(0, lines[at].size() / 2),
                               s.format);
      CHECK(CountDeadlocks(cut) == 0);
      CHECK(cut.events.size() == before.events.size());
      CHECK(cut.summary.lines.unparsed == 1);
      REQUIRE(cut.unparsed.size() == 1);
      CHECK(cut.unparsed[0].line == at + 1);
      continue;
    }
    // The report's first lines and half of the next one, with no final newline.
    // (A trace-flag report ends at a line it cannot continue with, so a half
    // line ends it before the end of input: there the cut is at a line end.)
    std::string text = Join(lines, 0, at + 2) + lines[at + 2].substr(0, lines[at + 2].size() / 2);
    if (std::string(s.format) == "sqlserver-errorlog") text = Join(lines, 0, at + 3);
    Report cut = AnalyzeText(text, s.format);
    REQUIRE(CountDeadlocks(before) == 0);
    REQUIRE(cut.events.size() == before.events.size() + 1);
    const Event& last = cut.events.back();
    REQUIRE(last.deadlock);
    CHECK(last.truncated);
    CHECK_FALSE(last.deadlock->complete);
    CHECK(cut.summary.deadlocks == 1);
    CHECK(cut.summary.deadlocks_incomplete == 1);
  }
}
