// dot, html and prometheus keep no events under `analyze`
// (src/emit/dot_emitter.cc, html_events.h, prometheus_emitter.cc): they take
// what they show of each event when it is made and write it at Write,
// numbered in log order and with the relation names learned later in the
// input. What they write must be the text the collected events give (as
// `check` hands them over), on every sample. Each input is analysed once
// for all the formats each way: these tests run under AddressSanitizer with
// full allocation stacks (unit_drawing), where an analysis is slow.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <sstream>

#include "app/analyzer.h"
#include "app/command_util.h"
#include "emit/emitter.h"
#include "emit/html_snapshots.h"
#include "emit/html_svg.h"
#include "support.h"

namespace fs = std::filesystem;

namespace lockgraph {
namespace {

// Hands each event to several emitters, as each alone would be handed it.
class Fanout : public EventStream {
 public:
  Fanout(const std::vector<std::unique_ptr<Emitter>>& emitters, std::ostream& out)
      : emitters_(emitters), out_(out) {}
  void OnEvent(const Event& ev) override {
    for (const auto& e : emitters_) e->OnEvent(ev, out_);
  }
  void OnInputStart(size_t input) override {
    for (const auto& e : emitters_) e->OnInputStart(input);
  }

 private:
  const std::vector<std::unique_ptr<Emitter>>& emitters_;
  std::ostream& out_;
};

// Analyzes `inputs` once and writes them in each of `formats`: as `analyze
// --format F` does when `as_analyze` (each emitter takes the events as they
// are made, none are kept), else collecting every event and handing them to
// each Write. Empty when an input cannot be read.
std::optional<std::vector<std::string>> Render(const std::vector<std::string>& formats,
                                               const std::vector<fs::path>& inputs, bool as_analyze,
                                               size_t* events_kept) {
  std::vector<std::unique_ptr<Emitter>> emitters;
  for (const std::string& format : formats) {
    emitters.push_back(FindEmitter(format));
    REQUIRE(emitters.back());
    REQUIRE(EmitterSeesEvents(*emitters.back()));
  }
  std::ostringstream unused;  // these emitters write nothing at OnEvent
  Fanout stream(emitters, unused);
  AnalyzeOptions options;
  options.collect_events = !as_analyze;
  Analyzer analyzer(options, as_analyze ? &stream : nullptr);
  for (const fs::path& input : inputs) {
    std::string error;
    if (!analyzer.AnalyzeInput(input.string(), &error)) return std::nullopt;
  }
  Report& report = analyzer.Finish();
  *events_kept = report.events.size();
  std::vector<std::string> texts;
  for (const auto& e : emitters) {
    std::ostringstream out;
    e->Write(report, out);
    texts.push_back(out.str());
  }
  CHECK(unused.str().empty());
  return texts;
}

// `inputs` in each of `formats` as `analyze` writes them, checked to keep no
// events and to read as the collected output; `*collected_kept` (when
// given): how many events the collecting run kept. Empty when an input
// cannot be read.
std::optional<std::vector<std::string>> Streamed(const std::vector<std::string>& formats,
                                                 const std::vector<fs::path>& inputs,
                                                 size_t* collected_kept = nullptr) {
  size_t streamed_kept = 0, kept = 0;
  std::optional<std::vector<std::string>> streamed = Render(formats, inputs, true, &streamed_kept);
  if (!streamed) return std::nullopt;
  std::optional<std::vector<std::string>> collected = Render(formats, inputs, false, &kept);
  REQUIRE(collected);
  CHECK(streamed_kept == 0);
  for (size_t i = 0; i < formats.size(); ++i) {
    INFO("format " << formats[i]);
    CHECK((*streamed)[i] == (*collected)[i]);
  }
  if (collected_kept) *collected_kept = kept;
  return streamed;
}

// One format's text.
std::string StreamedText(const std::string& format, const std::vector<fs::path>& inputs,
                         size_t* collected_kept = nullptr) {
  std::optional<std::vector<std::string>> texts = Streamed({format}, inputs, collected_kept);
  REQUIRE(texts);
  return texts->front();
}

TEST_CASE("dot names a relation from a record later in the same input", "[dot][spool]") {
  const fs::path late = test::TempFile(test::kLateRelationName);
  size_t collected_kept = 0;
  std::string streamed = StreamedText("dot", {late}, &collected_kept);
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
  streamed = StreamedText("dot", {alone, late});
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
  const std::string streamed = StreamedText("html", {late}, &collected_kept);
  CHECK(collected_kept == 2);
  // Both rows of the lock-wait table (the unnamed wait first: its chain is
  // as long, it waited as long, it came first).
  const std::string row = "<td>100</td><td>500.0 ms</td><td>ExclusiveLock on tuple (0,3) of accounts</td>";
  CHECK(streamed.find(row) != std::string::npos);
  CHECK(streamed.find("<td>300</td><td>500.0 ms</td><td>ExclusiveLock on tuple (0,3) of accounts</td>") >
        streamed.find(row));
}

TEST_CASE("dot, html and prometheus keep no events under analyze and read as the collected ones",
          "[dot][html][metrics][spool]") {
  const std::vector<std::string> formats = {"dot", "html", "prometheus"};
  // What shows that a comparison saw something: a cluster, a drawing, a
  // deadlock counted, a lock wait counted.
  const std::vector<std::pair<size_t, std::string>> seen_if = {
      {0, "subgraph cluster_"}, {1, "<div class=\"drawn\""}, {2, "lockgraph_deadlocks_total{"},
      {2, "lockgraph_lock_waits_total{"}};
  std::vector<size_t> seen(seen_if.size());
  const std::vector<std::string> inputs = test::SampleInputs();
  REQUIRE(inputs.size() > 100);
  for (const fs::path input : inputs) {
    // samples/postgresql/rendered/ holds the 303 events of scenarios.log in
    // 26 framings (1 MB each; test_renderings.cc: the same events): the
    // emitters see nothing there that scenarios.log, .csv and .json do not
    // give them, and under AddressSanitizer they took most of this test's
    // time (4 s an analysis).
    if (input.parent_path().filename() == "rendered") continue;
    INFO("input " << input.string());
    std::optional<std::vector<std::string>> texts = Streamed(formats, {input});
    if (!texts) continue;  // not an input lockgraph reads
    for (size_t i = 0; i < seen_if.size(); ++i)
      if ((*texts)[seen_if[i].first].find(seen_if[i].second) != std::string::npos) ++seen[i];
  }
  CHECK(seen[0] > 50);
  CHECK(seen[1] > 50);
  CHECK(seen[2] > 100);
  CHECK(seen[3] > 40);
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
  StreamedText("html", inputs, &collected_kept);
  CHECK(collected_kept > 300);
}

// A snapshot piece keeps its number and drawing as control bytes: hostile
// text with those bytes must show as text and move neither.
TEST_CASE("html snapshot pieces show control bytes of the input as text", "[html][spool]") {
  Event ev;
  ev.type = EventType::kChain;
  BlockingTree& t = ev.chain.emplace();
  t.members.resize(2);
  t.members[0].backend.id = "1";
  t.members[0].backend.query = "select '\x01\x02'";
  t.members[1].backend.id = "2";
  t.members[1].depth = 1;
  WaitEdge e;
  e.waiter = "2";
  e.blocker = "1";
  e.mode = "ShareLock\x01";
  t.edges.push_back(e);
  const std::string piece = SnapshotHtmlPiece(ev);
  REQUIRE(!piece.empty());
  SvgRenderer svg;
  std::ostringstream out;
  {
    SnapshotsHtml section(svg, 0, out);  // nothing drawn
    CHECK(section.Write(piece));
    CHECK(section.Write(piece));
  }
  const std::string html = out.str();
  CHECK(html.find("select &#39;\\x01\\x02&#39;") != std::string::npos);
  CHECK(html.find("id=\"live-chain-2\"") != std::string::npos);
  CHECK(html.find_first_of("\x01\x02") == std::string::npos);
}

}  // namespace
}  // namespace lockgraph
