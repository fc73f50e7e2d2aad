// `tail -F log | lockgraph analyze -` (issue 20): a pipe quiet at a line
// boundary makes the LineReader call OnPause (never inside a line, never for
// a regular file), and a pause flushes the parser's open records
// (FlushMode::kSameOutput) without changing what analyze reports: the same
// events on every text log of samples/, tests/corpus and the fuzz seeds, a
// pause between every two messages, in the same order but for several
// streams in one framing; a record the end would flag as cut stays open.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/analyzer.h"
#include "app/command_util.h"
#include "io/line_reader.h"
#include "parsers/flushable.h"
#include "support.h"

namespace lockgraph {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

/// A FIFO in a fresh folder; `writer(fd)` runs on a thread of its own with
/// the write end, which it closes on return. The caller reads `path()`.
class Fifo {
 public:
  Fifo(const std::string& name, std::function<void(int)> writer)
      : dir_(fs::temp_directory_path() / ("lockgraph-pause-" + std::to_string(getpid()) + "-" + name)) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    REQUIRE(mkfifo(path().c_str(), 0600) == 0);
    thread_ = std::thread([this, writer] {
      const int fd = open(path().c_str(), O_WRONLY | O_CLOEXEC);  // waits for the reader
      writer(fd);
      close(fd);
    });
  }
  ~Fifo() {
    thread_.join();
    fs::remove_all(dir_);
  }
  std::string path() const { return (dir_ / "pipe").string(); }

 private:
  fs::path dir_;
  std::thread thread_;
};

void WriteAll(int fd, const std::string& text) {
  REQUIRE(write(fd, text.data(), text.size()) == ssize_t(text.size()));
}

/// Waits until `flag` is set; gives up after 10 s (then the test fails on
/// its assertions, it does not hang).
void WaitFor(const std::atomic<bool>& flag) {
  for (int i = 0; i < 1000 && !flag; ++i) std::this_thread::sleep_for(milliseconds(10));
}

/// A LineReader on `fifo` (fails the test when it cannot open it).
std::unique_ptr<LineReader> OpenFifo(const Fifo& fifo) {
  std::string error;
  std::unique_ptr<LineReader> reader = LineReader::Open(fifo.path(), &error);
  REQUIRE(reader);
  return reader;
}

/// The lines ForEachLine passes and the pauses between them ("|").
std::string ReadWithPauses(LineReader& reader, std::atomic<bool>* paused) {
  std::string seen;
  reader.OnPause(kQuietFlushMs, [&] {
    seen += "| ";
    *paused = true;
  });
  std::string error;
  REQUIRE(reader.ForEachLine([&](std::string_view line, uint64_t) { seen += std::string(line) + " "; },
                             &error));
  return seen;
}

TEST_CASE("stdin pause: a FIFO quiet after whole lines pauses once, then reads on", "[pause]") {
  std::atomic<bool> paused{false};
  // The writer waits for the pause before it writes on: no sleep decides.
  Fifo fifo("lines", [&](int fd) {
    WriteAll(fd, "alpha\nbeta\n");
    WaitFor(paused);
    WriteAll(fd, "gamma\n");
  });
  std::unique_ptr<LineReader> reader = OpenFifo(fifo);
  CHECK(ReadWithPauses(*reader, &paused) == "alpha beta | gamma ");
}

TEST_CASE("stdin pause: a FIFO quiet inside a line does not pause", "[pause]") {
  std::atomic<bool> paused{false};
  Fifo fifo("mid-line", [&](int fd) {
    WriteAll(fd, "alpha\nbe");
    std::this_thread::sleep_for(milliseconds(4 * kQuietFlushMs));
    WriteAll(fd, "ta\n");
  });
  std::unique_ptr<LineReader> reader = OpenFifo(fifo);
  CHECK(ReadWithPauses(*reader, &paused) == "alpha beta ");
}

TEST_CASE("stdin pause: the head read for sniffing is passed on, then the pause", "[pause]") {
  std::atomic<bool> paused{false};
  Fifo fifo("head", [&](int fd) {
    WriteAll(fd, "alpha\nbeta\n");
    WaitFor(paused);
  });
  std::unique_ptr<LineReader> reader = OpenFifo(fifo);
  CHECK(reader->Head(200) == std::vector<std::string>{"alpha", "beta"});
  CHECK(ReadWithPauses(*reader, &paused) == "alpha beta | ");
}

TEST_CASE("stdin pause: a regular file never pauses", "[pause]") {
  const std::string path = (fs::temp_directory_path() / "lockgraph-pause-file.log").string();
  std::ofstream(path) << "alpha\nbeta\n";
  std::string error;
  std::unique_ptr<LineReader> reader = LineReader::Open(path, &error);
  REQUIRE(reader);
  std::atomic<bool> paused{false};
  CHECK(ReadWithPauses(*reader, &paused) == "alpha beta ");
  fs::remove(path);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// True when `line` begins a message: a severity label (English logs).
bool StartsMessage(const std::string& line) {
  if (line.empty() || line[0] == '\t') return false;
  for (const char* label : {"LOG:  ", "ERROR:  ", "WARNING:  ", "FATAL:  ", "PANIC:  ", "NOTICE:  ",
                            "INFO:  ", "DEBUG"})
    if (line.find(label) != std::string::npos) return true;
  return false;
}

struct Parsed {
  std::string ndjson;  // the event lines, in the order they were made
  LineCounts lines;
  int pauses = 0;
};

/// `lines` parsed as analyze parses them (format and framing sniffed on the
/// first 200), with a pause (`mode`) before each line i > 0 that
/// `pause_before(i)` names, and one at the end. `before_end`: the events
/// made before the end of input (Finish).
Parsed ParseWithPauses(const std::vector<std::string>& lines, const std::string& name,
                       const std::function<bool(size_t)>& pause_before, FlushMode mode,
                       std::string* before_end = nullptr) {
  test::NdjsonAnalyzer run;
  Analyzer& analyzer = *run.analyzer;
  const std::ostringstream& out = run.out;
  const std::vector<std::string> head(lines.begin(), lines.begin() + std::min<size_t>(200, lines.size()));
  std::string detected, error;
  FramingChoice framing;
  const InputFormat* format = analyzer.ChooseFormat(head, name, &detected, &framing, &error);
  REQUIRE(format);
  std::unique_ptr<LineParser> parser =
      framing.framing ? MakeFramedParser(*framing.framing, *format, detected, name,
                                         analyzer.parse_options(), head, analyzer)
                      : format->CreateParser(name, analyzer.parse_options(), detected, analyzer);
  parser->Prepare(head);
  Parsed parsed;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0 && pause_before(i)) {
      FlushParser(*parser, mode);
      ++parsed.pauses;
    }
    parser->ParseLine(lines[i], i + 1);
  }
  FlushParser(*parser, mode);
  if (before_end) *before_end = out.str();
  parser->Finish();
  analyzer.Finish();
  parsed.ndjson = out.str();
  parsed.lines = parser->counts();
  return parsed;
}

/// `path` with a pause before every message, as analyze pauses.
Parsed ParsedWithPauses(const std::string& path) {
  const std::vector<std::string> lines = Lines(test::ReadFile(path));
  return ParseWithPauses(
      lines, path, [&](size_t i) { return StartsMessage(lines[i]); }, FlushMode::kSameOutput);
}

/// `lockgraph analyze --format ndjson PATH`, one thread: the event lines.
Parsed AnalyzedAtOnce(const std::string& path) {
  Parsed parsed;
  parsed.ndjson = test::AnalyzeNdjson({path}, &parsed.lines);
  return parsed;
}

TEST_CASE("stdin pause: a pause between every two messages changes no event of any text log",
          "[pause]") {
  // The samples' stderr logs (plain and framed), the public logs of
  // tests/corpus, and the fuzzers' seeds (stderr, syslog, csvlog, jsonlog).
  const fs::path samples = fs::path(LOCKGRAPH_SAMPLES_DIR) / "postgresql";
  const fs::path tests = fs::path(LOCKGRAPH_SAMPLES_DIR).parent_path() / "tests";
  std::vector<fs::path> paths = {samples / "localized" / "en.log"};
  for (const fs::path& dir : {samples, samples / "rendered"})
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".log") paths.push_back(entry.path());
  for (const auto& entry : fs::directory_iterator(tests / "corpus"))
    if (entry.is_directory())
      for (const auto& file : fs::directory_iterator(entry.path()))
        if (file.path().stem() == "input") paths.push_back(file.path());
  for (const auto& entry : fs::directory_iterator(tests / "fuzz" / "seeds")) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  int pauses = 0, deadlocks = 0;
  std::vector<std::string> reordered;  // same events, another order
  for (const fs::path& path : paths) {
    INFO(path.string());
    const Parsed paused = ParsedWithPauses(path.string());
    const Parsed at_once = AnalyzedAtOnce(path.string());
    if (paused.ndjson != at_once.ndjson) {
      // grep over two files: one stream's last record, closed at the end
      // when read at once, leaves at the pause after it instead; the same
      // events, in another order (docs/cli.md).
      reordered.push_back(path.filename().string());
      std::vector<std::string> a = Lines(paused.ndjson), b = Lines(at_once.ndjson);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      CHECK(a == b);
    }
    CHECK(paused.lines.total == at_once.lines.total);
    CHECK(paused.lines.parsed == at_once.lines.parsed);
    CHECK(paused.lines.skipped == at_once.lines.skipped);
    CHECK(paused.lines.unparsed == at_once.lines.unparsed);
    CHECK(paused.lines.unattached == at_once.lines.unattached);
    pauses += paused.pauses;
    for (const std::string& line : Lines(paused.ndjson))
      deadlocks += line.rfind("{\"type\":\"deadlock\"", 0) == 0;
  }
  CHECK(reordered == std::vector<std::string>{"framing-grep.log"});
  CHECK(paths.size() > 60);
  CHECK(pauses > 5000);
  CHECK(deadlocks > 500);
}

/// Lines [from, to] (1-based) of samples/postgresql/scenarios.log.
std::vector<std::string> ScenarioLines(size_t from, size_t to) {
  const std::vector<std::string> all =
      Lines(test::ReadFile(std::string(LOCKGRAPH_SAMPLES_DIR) + "/postgresql/scenarios.log"));
  return std::vector<std::string>(all.begin() + from - 1, all.begin() + to);
}

/// analyze's ndjson events of `lines` read at once from a file `path`.
Parsed AnalyzedLinesAtOnce(const std::vector<std::string>& lines, const std::string& path) {
  {
    std::ofstream out(path);
    for (const std::string& line : lines) out << line << '\n';
  }
  Parsed parsed = AnalyzedAtOnce(path);
  fs::remove(path);
  return parsed;
}

TEST_CASE("stdin pause: a whole deadlock message leaves at the pause after it", "[pause]") {
  // Lines 14-21: ERROR deadlock detected, DETAIL (4 lines), HINT, CONTEXT, STATEMENT.
  const std::vector<std::string> lines = ScenarioLines(14, 21);
  const std::string path = (fs::temp_directory_path() / "lockgraph-pause-whole.log").string();
  const Parsed at_once = AnalyzedLinesAtOnce(lines, path);
  REQUIRE(Lines(at_once.ndjson).size() == 1);
  CHECK(at_once.ndjson.rfind("{\"type\":\"deadlock\",", 0) == 0);
  CHECK(at_once.ndjson.find("\"complete\":true") != std::string::npos);
  std::string before_end;
  const Parsed paused = ParseWithPauses(
      lines, path, [](size_t) { return false; }, FlushMode::kSameOutput, &before_end);
  CHECK(before_end == at_once.ndjson);  // left at the pause: nothing waited for the end
  CHECK(paused.ndjson == at_once.ndjson);
}

TEST_CASE("stdin pause: a deadlock cut before its HINT stays open and is flagged at the end",
          "[pause]") {
  // Lines 14-18: the ERROR and its DETAIL; the input ends before the HINT.
  const std::vector<std::string> lines = ScenarioLines(14, 18);
  const std::string path = (fs::temp_directory_path() / "lockgraph-pause-cut.log").string();
  const Parsed at_once = AnalyzedLinesAtOnce(lines, path);
  REQUIRE(Lines(at_once.ndjson).size() == 1);
  CHECK(at_once.ndjson.find("\"truncated\":true") != std::string::npos);
  CHECK(at_once.ndjson.find("\"complete\":false,\"problems\":[\"the record is cut (end of input)\"]") !=
        std::string::npos);
  // analyze: a pause after every line (even inside the message) keeps it.
  std::string before_end;
  const Parsed kept = ParseWithPauses(
      lines, path, [](size_t) { return true; }, FlushMode::kSameOutput, &before_end);
  CHECK(before_end == "");
  CHECK(kept.ndjson == at_once.ndjson);
  // follow: the pause is the end of the message; it leaves unflagged.
  const Parsed closed = ParseWithPauses(
      lines, path, [](size_t) { return false; }, FlushMode::kAll, &before_end);
  CHECK(before_end == closed.ndjson);
  CHECK(closed.ndjson.find("\"truncated\"") == std::string::npos);
}

TEST_CASE("stdin pause: a syslog deadlock cut before its HINT stays open too", "[pause]") {
  // The seed's first 7 lines: a lock wait's message, then the deadlock's
  // ERROR and DETAIL ([12-1] to [12-5]); the input ends before [12-6] HINT.
  const fs::path seed = fs::path(LOCKGRAPH_SAMPLES_DIR).parent_path() / "tests" / "fuzz" / "seeds" /
                        "syslog-deadlock.log";
  std::vector<std::string> lines = Lines(test::ReadFile(seed.string()));
  lines.resize(7);
  const std::string path = (fs::temp_directory_path() / "lockgraph-pause-cut-syslog.log").string();
  const Parsed at_once = AnalyzedLinesAtOnce(lines, path);
  // The deadlock, flagged; then the lock wait, open until the end.
  const std::vector<std::string> events = Lines(at_once.ndjson);
  REQUIRE(events.size() == 2);
  CHECK(events[0].rfind("{\"type\":\"deadlock\",", 0) == 0);
  CHECK(events[0].find("\"truncated\":true") != std::string::npos);
  CHECK(events[1].rfind("{\"type\":\"lock_wait\",", 0) == 0);
  std::string before_end;
  const Parsed kept = ParseWithPauses(
      lines, path, [&](size_t i) { return StartsMessage(lines[i]); }, FlushMode::kSameOutput,
      &before_end);
  CHECK(kept.pauses == 1);
  CHECK(before_end == "");
  CHECK(kept.ndjson == at_once.ndjson);
}

}  // namespace
}  // namespace lockgraph
