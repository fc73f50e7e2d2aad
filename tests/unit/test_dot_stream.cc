// --format dot keeps no events under `analyze` (src/emit/dot_emitter.cc): it
// records each event's clusters when the event is made (DotRecipe) and draws
// them at Write, numbered in log order and with the relation names learned
// later in the input. What it writes must be the text the collected events
// give (as `check` hands them over), on every sample.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "app/analyzer.h"
#include "app/command_util.h"
#include "emit/dot_events.h"
#include "emit/dot_graph.h"
#include "emit/dot_recipe.h"
#include "emit/emitter.h"
#include "emit/hole_text.h"
#include "support.h"

namespace fs = std::filesystem;

namespace lockgraph {
namespace {

// Analyzes `inputs` as `analyze --format dot` does when `as_analyze`, else
// collecting every event and handing them to Write. False when an input
// cannot be read.
bool RenderDot(const std::vector<fs::path>& inputs, bool as_analyze, std::string* text,
               size_t* events_kept) {
  std::unique_ptr<Emitter> emitter = FindEmitter("dot");
  REQUIRE(emitter);
  std::ostringstream out;
  StreamToEmitter stream(*emitter, out);
  AnalyzeOptions options;
  options.collect_events = !(as_analyze && EmitterSeesEvents(*emitter));
  Analyzer analyzer(options, options.collect_events ? nullptr : &stream);
  for (const fs::path& input : inputs) {
    std::string error;
    if (!analyzer.AnalyzeInput(input.string(), &error)) return false;
  }
  Report& report = analyzer.Finish();
  *events_kept = report.events.size();
  emitter->Write(report, out);
  *text = out.str();
  return true;
}

// A wait on a tuple of relation 16385, named only by a later record's
// CONTEXT (parsers/postgresql/relation_names.h).
const char* kLateName =
    "2026-12-02 10:00:00.100 UTC [100] LOG:  process 100 still waiting for ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 100.000 ms\n"
    "2026-12-02 10:00:00.100 UTC [100] DETAIL:  Process holding the lock: 200. Wait queue: 100.\n"
    "2026-12-02 10:00:00.100 UTC [100] STATEMENT:  UPDATE accounts SET balance = 1 WHERE id = 3;\n"
    "2026-12-02 10:00:00.500 UTC [100] LOG:  process 100 acquired ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 500.000 ms\n"
    "2026-12-02 10:00:01.100 UTC [300] LOG:  process 300 still waiting for ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 100.000 ms\n"
    "2026-12-02 10:00:01.100 UTC [300] DETAIL:  Process holding the lock: 400. Wait queue: 300.\n"
    "2026-12-02 10:00:01.100 UTC [300] CONTEXT:  while locking tuple (0,3) in relation \"accounts\"\n"
    "2026-12-02 10:00:01.100 UTC [300] STATEMENT:  SELECT * FROM accounts WHERE id = 3 FOR UPDATE;\n"
    "2026-12-02 10:00:01.500 UTC [300] LOG:  process 300 acquired ExclusiveLock on tuple (0,3) of relation 16385 of database 16384 after 500.000 ms\n";

TEST_CASE("dot names a relation from a record later in the same input", "[dot][spool]") {
  const fs::path late = test::TempFile(kLateName);
  std::string streamed, collected;
  size_t streamed_kept = 0, collected_kept = 0;
  REQUIRE(RenderDot({late}, true, &streamed, &streamed_kept));
  REQUIRE(RenderDot({late}, false, &collected, &collected_kept));
  CHECK(streamed_kept == 0);
  CHECK(collected_kept == 2);
  CHECK(streamed == collected);
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
  REQUIRE(RenderDot({alone, late}, true, &streamed, &streamed_kept));
  REQUIRE(RenderDot({alone, late}, false, &collected, &collected_kept));
  CHECK(streamed == collected);
  CHECK(streamed.find("w1_pid_110 -> w1_pid_210\t[label=\"ExclusiveLock on tuple (0,3) of 16385\"];") !=
        std::string::npos);
  CHECK(streamed.find("w2_pid_100 -> w2_pid_200\t[label=\"ExclusiveLock on tuple (0,3) of accounts\"];") !=
        std::string::npos);
  CHECK(streamed.find("subgraph cluster_w3 {") != std::string::npos);
  CHECK(streamed.find("subgraph cluster_w4 {") == std::string::npos);
}

TEST_CASE("dot output keeps no events under analyze and reads as the collected one",
          "[dot][spool]") {
  CHECK(FindEmitter("dot")->KeepsOwnEvents());
  std::vector<fs::path> inputs;
  for (const char* dir : {"samples", "tests/corpus", "tests/golden"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(LOCKGRAPH_SOURCE_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || name.rfind("expected", 0) == 0 || name == "no-redact" ||
          ext == ".md" || ext == ".sh" || ext == ".py" || ext == ".sql")
        continue;
      inputs.push_back(e.path());
    }
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(inputs.size() > 100);
  size_t drawn = 0;
  for (const fs::path& input : inputs) {
    INFO("input " << input.string());
    std::string streamed, collected;
    size_t streamed_kept = 0, collected_kept = 0;
    if (!RenderDot({input}, true, &streamed, &streamed_kept)) continue;
    REQUIRE(RenderDot({input}, false, &collected, &collected_kept));
    CHECK(streamed_kept == 0);
    CHECK(streamed == collected);
    if (streamed.find("subgraph cluster_") != std::string::npos) ++drawn;
  }
  CHECK(drawn > 50);  // the comparison saw clusters at all
}

TEST_CASE("a recorded cluster replays with its number and its late relation names", "[dot]") {
  Event ev;
  ev.engine = "postgresql";
  ev.time = "2026-12-02 10:00:00 UTC";
  Deadlock& d = ev.deadlock.emplace();
  d.victim = "1";
  d.processes = {{}, {}};
  d.processes[0].id = "1";
  d.processes[0].query = "UPDATE a SET x = 1;";
  d.processes[1].id = "2";
  LockTarget tuple{"tuple",
                   {{"database", "16384", true}, {"relation", "16385", true}, {"page", "0", true}, {"tuple", "3", true}},
                   "tuple (0,3) of relation 16385 of database 16384", "\x01" "0\x01"};
  LockTarget xact{"transactionid", {{"transactionid", "742", true}}, "transaction 742", ""};
  d.edges.resize(2);
  d.edges[0].waiter = "1";
  d.edges[0].blocker = "2";
  d.edges[0].mode = "ExclusiveLock";
  d.edges[0].lock = tuple;
  d.edges[1].waiter = "2";
  d.edges[1].blocker = "1";
  d.edges[1].mode = "ShareLock";
  d.edges[1].lock = xact;

  DotRecipe recipe("d#", "deadlock #", {{"\x01" "0\x01", "the-arg"}});
  AddDeadlockCluster(recipe, ev, "d#", "deadlock #");
  REQUIRE(!recipe.packed().empty());

  std::string asked;
  auto fill = [&](std::string_view arg) {
    asked = std::string(arg);
    return std::string("accounts");
  };
  DotGraph replayed;
  CHECK(ReplayDotRecipe(recipe.packed(), "d7", "deadlock 7", fill, replayed));
  CHECK(asked == "the-arg");

  // The same drawing made directly, with the name in place.
  ev.deadlock->edges[0].lock.relation_name = "accounts";
  DotGraph direct;
  AddDeadlockCluster(direct, ev, "d7", "deadlock 7");
  const std::string text = replayed.Write();
  CHECK(text == direct.Write());
  CHECK(text.find("subgraph cluster_d7 {") != std::string::npos);
  CHECK(text.find("d7_pid_1 -> d7_pid_2\t[label=\"ExclusiveLock on tuple (0,3) of accounts\"") != std::string::npos);

  // A cut recipe is refused.
  DotGraph cut;
  CHECK_FALSE(ReplayDotRecipe(recipe.packed().substr(0, recipe.packed().size() - 3), "d1", "deadlock 1",
                              fill, cut));
  DotGraph headless;
  CHECK_FALSE(ReplayDotRecipe(PackFields({PackFields({"N", "_pid_1", "x"})}), "d1", "deadlock 1", fill,
                              headless));
}

}  // namespace
}  // namespace lockgraph
