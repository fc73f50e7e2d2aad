// `lockgraph follow` driven with --once on real sample logs (stderr,
// csvlog, jsonlog): the events equal `analyze --format ndjson`'s on the
// same bytes, also when the log arrives in pieces, when follow restarts
// from its state between pieces (none twice, none lost), when a record
// is left open by a quiet log, and through copytruncate and rename.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/command_util.h"
#include "app/follower.h"
#include "emit/event_json.h"
#include "follow/follow_state.h"
#include "support.h"

namespace lockgraph {
namespace {

namespace fs = std::filesystem;

std::string FreshDir(const std::string& name) {
  // The pid: two runs of the tests at once (a sanitizer build's and another)
  // must not share a directory.
  const fs::path dir =
      fs::temp_directory_path() / ("lockgraph-follower-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

/// The sample's lines, whole.
std::vector<std::string> SampleLines(const std::string& name) {
  return test::SplitLines(test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/" + name));
}

void Append(const std::string& path, const std::vector<std::string>& lines, size_t from, size_t to) {
  std::ofstream out(path, std::ios::app | std::ios::binary);
  for (size_t i = from; i < to && i < lines.size(); ++i) out << lines[i] << '\n';
}

/// `analyze --format ndjson` of each path: the event lines, sorted.
std::vector<std::string> AnalyzeEvents(const std::vector<std::string>& paths) {
  std::vector<std::string> events = test::SplitLines(test::AnalyzeNdjson(paths));
  std::sort(events.begin(), events.end());
  return events;
}

/// One `lockgraph follow --once --state STATE --output OUT TARGETS`.
int FollowOnce(const std::vector<std::string>& targets, const std::string& state,
               const std::string& output, FollowObserver* observer = nullptr) {
  FollowOptions options;
  options.targets = targets;
  options.state_path = state;
  options.output_path = output;
  options.once = true;
  options.quiet_ms = 5;
  options.poll_ms = 20;
  options.analyze.collect_events = false;
  options.notes = false;
  options.finish_ms = 0;
  Follower follower(options, observer);
  return follower.Run({});
}

std::vector<std::string> SortedLines(const std::string& path) {
  std::vector<std::string> lines = test::SplitLines(test::ReadFile(path));
  std::sort(lines.begin(), lines.end());
  return lines;
}

/// True when `line` begins a message: PostgreSQL writes each message whole
/// (all its lines in one write), so a log grows message by message.
bool StartsMessage(std::string line) {
  // A syslog or journald line: the message after "Mon DD HH:MM:SS host ident[pid]: ".
  if (const size_t frame = line.find("]: "); line.rfind("Dec ", 0) == 0 && frame != std::string::npos)
    line.erase(0, frame + 3);
  if (line.rfind("20", 0) != 0 && line.rfind("{", 0) != 0) return false;
  for (const char* part : {" DETAIL:  ", " HINT:  ", " CONTEXT:  ", " STATEMENT:  ", " QUERY:  "})
    if (line.find(part) != std::string::npos) return false;
  return true;
}

/// Follows `sample` growing in about `pieces` pieces (whole messages), one
/// --once run (a restart from the state) after each; the output must equal
/// analyze's events.
void FollowInPieces(const std::string& sample, size_t pieces) {
  const std::string name = fs::path(sample).filename().string();
  const std::string dir = FreshDir(name + std::to_string(pieces));
  const std::string log = dir + "/" + name;
  const std::vector<std::string> lines = SampleLines(sample);
  const size_t step = lines.size() / pieces + 1;
  for (size_t from = 0, to = 0; from < lines.size(); from = to) {
    to = std::min(lines.size(), from + step);
    while (to < lines.size() && !StartsMessage(lines[to])) ++to;
    Append(log, lines, from, to);
    REQUIRE(FollowOnce({dir + "/"}, dir + "/state.json", dir + "/events.ndjson") == 0);
  }
  const std::vector<std::string> expected = AnalyzeEvents({log});
  std::vector<std::string> got = SortedLines(dir + "/events.ndjson");
  // analyze ends the input (waits still open end "unknown"); follow does not.
  CHECK(expected.size() > 40);
  CHECK(got == expected);
}

/// Every line-oriented layout follow reads, from the same server run.
const char* const kGrowingSamples[] = {
    "scenarios.log", "scenarios.csv", "scenarios.json", "rendered/framing-journald.log",
    "rendered/platform-gcp-ndjson.json", "rendered/platform-alloydb.json",
    "rendered/platform-azure-pt1h.json"};

TEST_CASE("follower: a whole stderr, csvlog, jsonlog, syslog and cloud log gives analyze's events",
          "[follow]") {
  for (const char* sample : kGrowingSamples) {
    INFO(sample);
    FollowInPieces(sample, 1);
  }
}

TEST_CASE("follower: growing in pieces with a restart after each, nothing twice or lost",
          "[follow]") {
  for (const char* sample : kGrowingSamples) {
    INFO(sample);
    FollowInPieces(sample, 7);
    FollowInPieces(sample, 53);
  }
}

TEST_CASE("follower: a deadlock leaves when the log goes quiet after it, stderr, syslog, cloud",
          "[follow]") {
  for (const char* sample : {"scenarios.log", "rendered/framing-journald.log",
                             "rendered/platform-gcp-ndjson.json"}) {
    INFO(sample);
    const std::string name = fs::path(sample).filename().string();
    const std::string dir = FreshDir("quiet-" + name);
    const std::vector<std::string> lines = SampleLines(sample);
    // Up to the end of the first deadlock's messages: nothing comes after them.
    size_t end = 0;
    while (end < lines.size() && lines[end].find("deadlock detected") == std::string::npos) ++end;
    REQUIRE(end < lines.size());
    ++end;
    while (end < lines.size() && !StartsMessage(lines[end])) ++end;  // DETAIL ... STATEMENT
    Append(dir + "/" + name, lines, 0, end);
    REQUIRE(FollowOnce({dir + "/"}, dir + "/state.json", dir + "/events.ndjson") == 0);
    const std::string out = test::ReadFile(dir + "/events.ndjson");
    CHECK(out.find("\"type\":\"deadlock\"") != std::string::npos);
  }
}

/// Event lines without source.file (a file renamed or copied since).
std::vector<std::string> WithoutFile(std::vector<std::string> lines) {
  for (std::string& line : lines) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
    j["source"].erase("file");
    line = j.dump();
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST_CASE("follower: logrotate copytruncate, then create, between runs", "[follow]") {
  const std::string dir = FreshDir("logrotate");
  const std::string log = dir + "/postgresql.log";
  const std::vector<std::string> lines = SampleLines("scenarios.log");
  size_t third = lines.size() / 3, two_thirds = 2 * lines.size() / 3;
  while (!StartsMessage(lines[third])) ++third;
  while (!StartsMessage(lines[two_thirds])) ++two_thirds;
  const std::string state = dir + "/state.json", out = dir + "/events.ndjson";
  Append(log, lines, 0, third);
  REQUIRE(FollowOnce({dir}, state, out) == 0);
  fs::copy_file(log, log + ".1");  // copytruncate
  fs::resize_file(log, 0);
  Append(log, lines, third, two_thirds);
  REQUIRE(FollowOnce({dir}, state, out) == 0);
  fs::rename(log + ".1", log + ".2");  // create
  fs::rename(log, log + ".1");
  Append(log, lines, two_thirds, lines.size());
  REQUIRE(FollowOnce({dir}, state, out) == 0);
  const std::vector<std::string> expected =
      WithoutFile(AnalyzeEvents({log + ".2", log + ".1", log}));
  CHECK(expected.size() > 40);
  CHECK(WithoutFile(test::SplitLines(test::ReadFile(out))) == expected);
}

class CountingObserver : public FollowObserver {
 public:
  void OnEvent(const Event& event) override { ++events; }
  void OnFinding(const Finding& finding, const Event& event) override { ++findings; }
  void OnLines(const std::string& file, const LineCounts& added) override {
    lines.total += added.total;
    lines.parsed += added.parsed;
    lines.skipped += added.skipped;
    lines.unparsed += added.unparsed;
  }
  uint64_t events = 0, findings = 0;
  LineCounts lines;
};

TEST_CASE("follower: the observer is told each event, finding and line once, across restarts",
          "[follow]") {
  const std::string dir = FreshDir("observer");
  const std::string log = dir + "/pg.log";
  const std::vector<std::string> lines = SampleLines("scenarios.log");
  CountingObserver seen;
  for (size_t from = 0, to = 0; from < lines.size(); from = to) {
    to = std::min(lines.size(), from + 300);
    while (to < lines.size() && !StartsMessage(lines[to])) ++to;
    Append(log, lines, from, to);
    REQUIRE(FollowOnce({log}, dir + "/state.json", dir + "/events.ndjson", &seen) == 0);
  }
  const Report report = test::AnalyzeText(test::ReadFile(log));
  uint64_t findings = 0;
  for (const Event& e : report.events) findings += e.findings.size();
  CHECK(seen.events == report.events.size());
  CHECK(seen.findings == findings);
  CHECK(seen.lines.total == lines.size());
  CHECK(seen.lines.parsed == report.summary.lines.parsed);
  CHECK(seen.lines.skipped == report.summary.lines.skipped);
  CHECK(seen.lines.unparsed == report.summary.lines.unparsed);
}

TEST_CASE("follower: a file begun with startup lines only is read again once its prefix shows",
          "[follow]") {
  // The first lines a server writes carry no session: "%m [%p] " fits them,
  // the sample's "%m [%p] %q%u@%d/%a " shows only with the first session.
  const std::string dir = FreshDir("resniff");
  const std::string log = dir + "/postgresql.log";
  const std::vector<std::string> lines = SampleLines("scenarios.log");
  FollowOptions options;
  options.targets = {dir};
  options.output_path = dir + "/events.ndjson";
  options.quiet_ms = 5;
  options.poll_ms = 10;
  options.analyze.collect_events = false;
  options.notes = false;
  volatile std::sig_atomic_t stop = 0;
  Follower follower(options, nullptr);
  int rc = -1;
  std::thread run([&] { rc = follower.Run({&stop, nullptr}); });
  Append(log, lines, 0, 5);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  Append(log, lines, 5, lines.size());
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  stop = 1;
  run.join();
  CHECK(rc == 0);
  const std::vector<std::string> expected = AnalyzeEvents({log});
  CHECK(expected.size() > 40);
  CHECK(SortedLines(dir + "/events.ndjson") == expected);
}

TEST_CASE("follower: a closed file's identity given to a new file (inode reused) is followed",
          "[follow]") {
  const std::string dir = FreshDir("reused");
  const std::string log = dir + "/postgresql.log";
  const std::vector<std::string> lines = SampleLines("scenarios.log");
  Append(log, lines, 0, lines.size());
  // A state that knows this identity as a file closed long ago, of other bytes.
  FollowState state;
  FileState old;
  old.path = dir + "/postgresql.log.1";
  old.id = StatPath(log)->id;
  old.offset = old.lines = 10;
  old.head = {5, 12345};
  old.finished = true;
  state.files.push_back(old);
  std::string error;
  REQUIRE(SaveState(dir + "/state.json", state, &error));
  REQUIRE(FollowOnce({dir}, dir + "/state.json", dir + "/events.ndjson") == 0);
  CHECK(SortedLines(dir + "/events.ndjson") == AnalyzeEvents({log}));
}

TEST_CASE("follower: its own output and state in a followed folder are never read", "[follow]") {
  const std::string dir = FreshDir("own");
  const std::vector<std::string> lines = SampleLines("scenarios.json");
  Append(dir + "/pg.json", lines, 0, lines.size());
  FollowOptions options;
  options.targets = {dir};
  options.state_path = dir + "/state.json";
  options.output_path = dir + "/events.ndjson";
  options.output_max_size = 20000;
  options.output_keep = 100;
  options.once = true;
  options.quiet_ms = 5;
  options.poll_ms = 20;
  options.analyze.collect_events = false;
  options.notes = false;
  for (int run = 0; run < 2; ++run) {
    Follower follower(options, nullptr);
    REQUIRE(follower.Run({}) == 0);
  }
  std::vector<std::string> got;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("events.ndjson", 0) == 0)
      for (std::string& l : test::SplitLines(test::ReadFile(e.path().string()))) got.push_back(l);
  std::sort(got.begin(), got.end());
  CHECK(got == AnalyzeEvents({dir + "/pg.json"}));
}

}  // namespace
}  // namespace lockgraph
