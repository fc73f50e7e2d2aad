// DotRecipe (src/emit/dot_recipe.h): a cluster recorded as the DotSink calls
// that draw it replays, with another number and the relation names learned
// later, into the very cluster drawn directly; a cut recording is refused.
#include <catch2/catch.hpp>

#include <string>

#include "emit/dot_events.h"
#include "emit/dot_graph.h"
#include "emit/dot_recipe.h"
#include "emit/hole_text.h"

namespace lockgraph {
namespace {

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
