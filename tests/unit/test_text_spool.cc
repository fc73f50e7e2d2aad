// --format text keeps no events (src/emit/text_emitter.cc): under `analyze`
// it renders each event when it is made into an EventSpool and the
// analyzer keeps no Report::events; what it writes must be the same text as
// when it is handed the collected events (as `check` does), for every
// golden case, and for several inputs read one after the other.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "app/analyzer.h"
#include "app/command_util.h"
#include "emit/emitter.h"

namespace fs = std::filesystem;

namespace lockgraph {
namespace {

fs::path GoldenInput(const fs::path& dir) {
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().stem() == "input") return f.path();
  return {};
}

// Analyzes `inputs` as `analyze --format text` does when `as_analyze`, else
// collecting every event and handing them to Write (as `check` does).
std::string RenderText(const std::vector<fs::path>& inputs, bool as_analyze,
                       size_t* events_kept) {
  std::unique_ptr<Emitter> emitter = FindEmitter("text");
  REQUIRE(emitter);
  std::ostringstream out;
  StreamToEmitter stream(*emitter, out);
  AnalyzeOptions options;
  options.keep_unparsed = 100;
  options.collect_events = !(as_analyze && EmitterSeesEvents(*emitter));
  Analyzer analyzer(options, options.collect_events ? nullptr : &stream);
  for (const fs::path& input : inputs) {
    std::string error;
    REQUIRE(analyzer.AnalyzeInput(input.string(), &error));
  }
  Report& report = analyzer.Finish();
  *events_kept = report.events.size();
  emitter->Write(report, out);
  return out.str();
}

TEST_CASE("text output keeps no events under analyze and reads as the collected one",
          "[text][spool]") {
  CHECK(FindEmitter("text")->KeepsOwnEvents());
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(fs::path(LOCKGRAPH_TEST_DIR) / "golden"))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  REQUIRE(dirs.size() >= 3);
  size_t events_seen = 0;
  for (const fs::path& dir : dirs) {
    INFO("golden case " << dir.filename().string());
    const std::vector<fs::path> input = {GoldenInput(dir)};
    size_t streamed_kept = 0, collected_kept = 0;
    std::string streamed = RenderText(input, true, &streamed_kept);
    std::string collected = RenderText(input, false, &collected_kept);
    CHECK(streamed_kept == 0);
    CHECK(streamed == collected);
    events_seen += collected_kept;
  }
  CHECK(events_seen > 0);  // the comparison saw events at all
}

TEST_CASE("text output of several inputs numbers their events in input order",
          "[text][spool]") {
  const fs::path golden = fs::path(LOCKGRAPH_TEST_DIR) / "golden";
  const std::vector<fs::path> inputs = {GoldenInput(golden / "pg-rules-scenarios"),
                                        GoldenInput(golden / "pg-two-way-pgbadger-prefix"),
                                        GoldenInput(golden / "pg-rules-scenarios")};
  size_t streamed_kept = 0, collected_kept = 0;
  std::string streamed = RenderText(inputs, true, &streamed_kept);
  std::string collected = RenderText(inputs, false, &collected_kept);
  CHECK(streamed_kept == 0);
  CHECK(collected_kept > 0);
  CHECK(streamed == collected);
}

}  // namespace
}  // namespace lockgraph
