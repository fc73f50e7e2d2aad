// graph_bench: times lockgraph::WaitForGraph (src/graph/wait_for_graph.h) on
// a synthetic wait-for graph of N waiting processes (default 100,000), the
// size issue 7 asks to analyze in under 100 ms.
//
//   graph_bench [N] [SEED]
//
// The graph is what a busy server's pg_locks would give: blocking trees under
// N/50 root blockers (each new waiter waits for a root, 60%, or for a
// process that is itself waiting, so chains form), 5% of waiters blocked by
// two processes (shared holders), and 1% of the waiters in 2- to 6-process
// cycles. Edges are transaction, tuple and relation locks, as AddWait gets
// them from a parser, moved into the graph as the snapshot pipeline does.
// Prints one `name value` line per measurement (ms, wall clock: measure on
// an idle machine, or compare cpu_ms).
// Built and run by bench/run.sh against build-release/liblockgraph_core.a.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "graph/wait_for_graph.h"

namespace {

uint64_t state = 0x9e3779b97f4a7c15ULL;
uint64_t Next() {  // splitmix64
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
uint64_t Below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64); }

lockgraph::LockTarget Transaction(uint64_t xid) {
  lockgraph::LockTarget t;
  t.type = "transactionid";
  t.fields.push_back({"transactionid", std::to_string(xid), true});
  t.text = "transaction " + std::to_string(xid);
  return t;
}
lockgraph::LockTarget Tuple(uint64_t rel, uint64_t page, uint64_t tuple) {
  lockgraph::LockTarget t;
  t.type = "tuple";
  t.fields.push_back({"database", "16384", true});
  t.fields.push_back({"relation", std::to_string(rel), true});
  t.fields.push_back({"page", std::to_string(page), true});
  t.fields.push_back({"tuple", std::to_string(tuple), true});
  t.text = "tuple (" + std::to_string(page) + "," + std::to_string(tuple) + ") of relation " + std::to_string(rel) +
           " of database 16384";
  return t;
}
lockgraph::LockTarget Relation(uint64_t rel) {
  lockgraph::LockTarget t;
  t.type = "relation";
  t.fields.push_back({"database", "16384", true});
  t.fields.push_back({"relation", std::to_string(rel), true});
  t.text = "relation " + std::to_string(rel) + " of database 16384";
  return t;
}

double Ms(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Wait {
  uint32_t waiter, blocker;
  int kind;  // 0 transaction, 1 tuple, 2 relation
};

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  if (argc > 2) state = std::strtoull(argv[2], nullptr, 10);
  using Clock = std::chrono::steady_clock;

  // Process p has pid 10000 + p and, if it holds anything, xid 5000000 + p.
  const size_t roots = n / 50 + 1;
  const size_t in_cycles = n / 100;
  std::vector<Wait> waits;
  waits.reserve(n + n / 10);
  uint32_t next = static_cast<uint32_t>(roots);
  std::vector<uint32_t> waiting;  // processes already waiting (can block others)
  size_t tree_waiters = n - in_cycles;
  for (size_t i = 0; i < tree_waiters; ++i) {
    uint32_t w = next++;
    uint32_t b = (waiting.empty() || Below(10) < 6) ? static_cast<uint32_t>(Below(roots)) : waiting[Below(waiting.size())];
    int kind = Below(10) < 7 ? 0 : (Below(2) ? 1 : 2);
    waits.push_back({w, b, kind});
    if (Below(20) == 0) waits.push_back({w, static_cast<uint32_t>(Below(roots)), 2});
    waiting.push_back(w);
  }
  size_t cycles = 0;
  for (size_t left = in_cycles; left >= 2;) {
    size_t k = 2 + Below(5);
    if (k > left) k = left;
    uint32_t first = next;
    for (size_t j = 0; j < k; ++j) {
      uint32_t w = next++;
      uint32_t b = j + 1 < k ? w + 1 : first;
      waits.push_back({w, b, j % 2 ? 1 : 0});
    }
    left -= k;
    ++cycles;
  }
  const size_t waiting_processes = next - roots;

  // The edges are built once, as the parser (parsers/postgresql/pg_blocking.cc)
  // hands them over, and moved into the graph, as AnalyzePgSnapshot() does:
  // the timed build is what the pipeline pays for the graph itself.
  static const std::string kModes[] = {"ShareLock", "ExclusiveLock", "AccessShareLock"};
  std::vector<lockgraph::WaitEdge> edges;
  edges.reserve(waits.size());
  for (const Wait& w : waits) {
    lockgraph::WaitEdge e;
    e.waiter = std::to_string(10000 + w.waiter);
    e.blocker = std::to_string(10000 + w.blocker);
    e.mode = kModes[w.kind];
    if (w.kind == 0) e.lock = Transaction(5000000 + w.blocker);
    else if (w.kind == 1) e.lock = Tuple(16402 + w.blocker % 7, w.blocker / 100, w.blocker % 100 + 1);
    else e.lock = Relation(16402 + w.blocker % 7);
    e.basis = lockgraph::EdgeBasis::kHard;
    edges.push_back(std::move(e));
  }

  const std::clock_t cpu0 = std::clock();
  auto t0 = Clock::now();
  lockgraph::WaitForGraph g;
  g.AddWaits(std::move(edges));
  auto t1 = Clock::now();
  auto sets = g.DeadlockedSets();
  auto t2 = Clock::now();
  auto root_blockers = g.RootBlockers();
  auto t3 = Clock::now();
  size_t cycle_edges = 0;
  for (const auto& s : sets) cycle_edges += g.CycleThrough(s.front()).size();
  auto t4 = Clock::now();
  size_t chain_total = 0, chain_max = 0, chains = 0;
  for (lockgraph::WaitForGraph::Vertex v = 0; v < g.process_count(); ++v) {
    if (g.Successors(v).empty()) continue;
    auto c = g.ChainFrom(v);
    chain_total += c.size();
    if (c.size() > chain_max) chain_max = c.size();
    ++chains;
  }
  auto t5 = Clock::now();
  const std::clock_t cpu5 = std::clock();

  std::printf("waiting_processes %zu\n", waiting_processes);
  std::printf("processes %zu\n", g.process_count());
  std::printf("edges %zu\n", g.edges().size());
  std::printf("root_blockers %zu\n", root_blockers.size());
  std::printf("deadlocked_sets %zu (expected %zu)\n", sets.size(), cycles);
  std::printf("chains %zu (mean length %.2f, longest %zu)\n", chains, chains ? double(chain_total) / chains : 0.0,
              chain_max);
  std::printf("build_ms %.1f\n", Ms(t0, t1));
  std::printf("deadlocked_sets_ms %.1f\n", Ms(t1, t2));
  std::printf("root_blockers_ms %.1f\n", Ms(t2, t3));
  std::printf("cycle_through_ms %.1f (%zu cycles, %zu edges)\n", Ms(t3, t4), sets.size(), cycle_edges);
  std::printf("chain_from_all_ms %.1f\n", Ms(t4, t5));
  std::printf("analysis_ms %.1f (deadlocked sets + root blockers + cycles + every chain)\n", Ms(t1, t5));
  std::printf("total_ms %.1f (build + analysis)\n", Ms(t0, t5));
  std::printf("total_cpu_ms %.1f (build + analysis, CPU time of the process)\n",
              1000.0 * double(cpu5 - cpu0) / CLOCKS_PER_SEC);
  return sets.size() == cycles ? 0 : 1;
}
