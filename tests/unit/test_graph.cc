// The wait-for graph: exact cycles, chains and roots, and a property test
// of the cycle search against brute force on random graphs.
#include <catch2/catch.hpp>

#include <random>

#include "graph/wait_for_graph.h"
#include "parsers/postgresql/lock_tag.h"

using namespace lockgraph;

namespace {

LockTarget Xact(int n) { return ParsePgLockTag("transaction " + std::to_string(n)); }

std::string CycleIds(const WaitForGraph& g, const std::vector<size_t>& cycle) {
  std::string s;
  for (size_t e : cycle) s += g.edges()[e].waiter + " -> ";
  if (!cycle.empty()) s += g.edges()[cycle.front()].waiter;
  return s;
}

}  // namespace

TEST_CASE("the 4-process checkout cycle of domain.md, through tuple-lock edges", "[graph]") {
  WaitForGraph g;
  LockTarget t6 = ParsePgLockTag("tuple (0,6) of relation 16390 of database 16384");
  LockTarget t5 = ParsePgLockTag("tuple (0,5) of relation 16390 of database 16384");
  g.AddWait("568", "ShareLock", Xact(900), "565", EdgeBasis::kReported);
  g.AddWait("565", "ExclusiveLock", t6, "574", EdgeBasis::kReported);
  g.AddWait("574", "ShareLock", Xact(901), "556", EdgeBasis::kReported);
  g.AddWait("556", "ExclusiveLock", t5, "568", EdgeBasis::kReported);
  g.AddWait("600", "ShareLock", Xact(902), "568", EdgeBasis::kReported);  // queued, not in it
  CHECK(CycleIds(g, g.CycleThrough(*g.FindProcess("568"))) == "568 -> 565 -> 574 -> 556 -> 568");
  CHECK(CycleIds(g, g.CycleThrough(*g.FindProcess("574"))) == "574 -> 556 -> 568 -> 565 -> 574");
  CHECK(g.CycleThrough(*g.FindProcess("600")).empty());
  auto sets = g.DeadlockedSets();
  REQUIRE(sets.size() == 1);
  CHECK(sets[0].size() == 4);
  auto chain = g.ChainFrom(*g.FindProcess("600"));
  std::string ids;
  for (auto v : chain) ids += g.process_id(v) + " ";
  CHECK(ids == "600 568 565 574 556 568 ");
  CHECK(g.RootBlockers().empty());
}

TEST_CASE("a blocking tree has its root blocker, and no deadlocked set", "[graph]") {
  WaitForGraph g;
  g.AddWait("C", "ShareLock", Xact(2), "B", EdgeBasis::kHard);
  g.AddWait("B", "ShareLock", Xact(1), "A", EdgeBasis::kHard);
  g.AddWait("D", "ShareLock", Xact(1), "A", EdgeBasis::kHard);
  CHECK(g.DeadlockedSets().empty());
  auto roots = g.RootBlockers();
  REQUIRE(roots.size() == 1);
  CHECK(g.process_id(roots[0]) == "A");
  auto chain = g.ChainFrom(*g.FindProcess("C"));
  REQUIRE(chain.size() == 3);
  CHECK(g.process_id(chain[2]) == "A");
}

TEST_CASE("a deadlock report matches its graph only when closed and in order", "[graph]") {
  Deadlock d;
  auto share_lock_edge = [](std::string waiter, std::string blocker, LockTarget lock) {
    WaitEdge edge;
    edge.waiter = std::move(waiter);
    edge.blocker = std::move(blocker);
    edge.mode = "ShareLock";
    edge.lock = std::move(lock);
    return edge;
  };
  WaitEdge a = share_lock_edge("1", "2", Xact(10));
  WaitEdge b = share_lock_edge("2", "1", Xact(11));
  d.edges = {a, b};
  CHECK(CycleMatchesGraph(d));
  d.edges = {a};
  CHECK_FALSE(CycleMatchesGraph(d));
}

TEST_CASE("property: cycle search agrees with brute-force reachability", "[graph]") {
  std::mt19937 rng(20261202);
  for (int round = 0; round < 500; ++round) {
    const int n = 2 + int(rng() % 7);
    WaitForGraph g;
    std::vector<std::vector<int>> adj(n);
    for (int v = 0; v < n; ++v) g.AddProcess(std::to_string(v));
    const int edges = int(rng() % (2 * n));
    for (int i = 0; i < edges; ++i) {
      int a = int(rng() % n), b = int(rng() % n);
      adj[a].push_back(b);
      g.AddWait(std::to_string(a), "ShareLock", Xact(i), std::to_string(b), EdgeBasis::kReported);
    }
    // Brute force: v is on a cycle iff v reaches itself in >= 1 step.
    std::vector<char> on_cycle(n, 0);
    for (int s = 0; s < n; ++s) {
      std::vector<char> seen(n, 0);
      std::vector<int> todo(adj[s].begin(), adj[s].end());
      while (!todo.empty()) {
        int v = todo.back();
        todo.pop_back();
        if (seen[v]) continue;
        seen[v] = 1;
        for (int w : adj[v]) todo.push_back(w);
      }
      on_cycle[s] = seen[s];
    }
    std::vector<char> in_set(n, 0);
    for (const auto& set : g.DeadlockedSets())
      for (auto v : set) in_set[std::stoi(g.process_id(v))] = 1;
    for (int v = 0; v < n; ++v) {
      INFO("round " << round << " vertex " << v);
      CHECK(bool(in_set[v]) == bool(on_cycle[v]));
      auto cycle = g.CycleThrough(*g.FindProcess(std::to_string(v)));
      CHECK(cycle.empty() == !on_cycle[v]);
      // A returned cycle is a closed walk that starts at v.
      for (size_t i = 0; i < cycle.size(); ++i) {
        const WaitEdge& e = g.edges()[cycle[i]];
        const WaitEdge& next = g.edges()[cycle[(i + 1) % cycle.size()]];
        CHECK(e.blocker == next.waiter);
      }
      if (!cycle.empty()) CHECK(g.edges()[cycle[0]].waiter == std::to_string(v));
    }
  }
}
