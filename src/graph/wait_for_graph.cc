// See wait_for_graph.h and docs/graph.md.
#include "graph/wait_for_graph.h"

#include <algorithm>
#include <deque>
#include <unordered_set>

namespace lockgraph {

WaitForGraph::Vertex WaitForGraph::AddProcess(const std::string& id) {
  auto [it, inserted] = process_index_.emplace(id, Vertex(process_ids_.size()));
  if (inserted) {
    process_ids_.push_back(id);
    succ_.emplace_back();
    blocks_count_.push_back(0);
  }
  return it->second;
}

std::optional<WaitForGraph::Vertex> WaitForGraph::FindProcess(const std::string& id) const {
  auto it = process_index_.find(id);
  if (it == process_index_.end()) return std::nullopt;
  return it->second;
}

void WaitForGraph::AddWait(const std::string& waiter, const std::string& mode,
                           const LockTarget& lock, const std::string& blocker,
                           EdgeBasis basis) {
  Vertex w = AddProcess(waiter);
  Vertex b = AddProcess(blocker);
  WaitEdge e;
  e.waiter = waiter;
  e.blocker = blocker;
  e.mode = mode;
  e.lock = lock;
  e.basis = basis;
  succ_[w].push_back({b, edges_.size()});
  ++blocks_count_[b];
  edges_.push_back(std::move(e));
}

std::vector<std::vector<WaitForGraph::Vertex>> WaitForGraph::DeadlockedSets() const {
  // Iterative Tarjan: no recursion, so 100,000-process graphs cannot
  // overflow the stack.
  const Vertex n = Vertex(process_ids_.size());
  constexpr uint32_t kUnvisited = UINT32_MAX;
  std::vector<uint32_t> index(n, kUnvisited), low(n, 0);
  std::vector<char> on_stack(n, 0);
  std::vector<Vertex> stack;
  std::vector<std::pair<Vertex, size_t>> call;  // vertex, next successor
  std::vector<std::vector<Vertex>> sets;
  uint32_t counter = 0;
  for (Vertex root = 0; root < n; ++root) {
    if (index[root] != kUnvisited) continue;
    call.push_back({root, 0});
    while (!call.empty()) {
      // Plain references, not a structured binding: clang 14 cannot
      // capture a binding in the lambda below.
      const Vertex v = call.back().first;
      size_t& next = call.back().second;
      if (next == 0 && index[v] == kUnvisited) {
        index[v] = low[v] = counter++;
        stack.push_back(v);
        on_stack[v] = 1;
      }
      if (next < succ_[v].size()) {
        Vertex w = succ_[v][next++].blocker;
        if (index[w] == kUnvisited) call.push_back({w, 0});
        else if (on_stack[w]) low[v] = std::min(low[v], index[w]);
        continue;
      }
      if (low[v] == index[v]) {
        std::vector<Vertex> set;
        Vertex w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = 0;
          set.push_back(w);
        } while (w != v);
        bool self_loop = std::any_of(succ_[v].begin(), succ_[v].end(),
                                     [&](const Step& s) { return s.blocker == v; });
        if (set.size() > 1 || self_loop) {
          std::sort(set.begin(), set.end());
          sets.push_back(std::move(set));
        }
      }
      Vertex done = v;
      call.pop_back();
      if (!call.empty()) low[call.back().first] = std::min(low[call.back().first], low[done]);
    }
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

std::vector<size_t> WaitForGraph::CycleThrough(Vertex start) const {
  // BFS from start's successors back to start gives a shortest cycle.
  const Vertex n = Vertex(process_ids_.size());
  std::vector<size_t> via(n, SIZE_MAX);  // edge that reached the vertex
  std::deque<Vertex> queue;
  for (const Step& s : succ_[start]) {
    if (s.blocker == start) return {s.edge};
    if (via[s.blocker] == SIZE_MAX) {
      via[s.blocker] = s.edge;
      queue.push_back(s.blocker);
    }
  }
  while (!queue.empty()) {
    Vertex v = queue.front();
    queue.pop_front();
    for (const Step& s : succ_[v]) {
      if (s.blocker == start) {
        std::vector<size_t> cycle{s.edge};
        for (Vertex u = v; u != start;) {
          size_t e = via[u];
          cycle.push_back(e);
          u = *FindProcess(edges_[e].waiter);
        }
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
      }
      if (via[s.blocker] == SIZE_MAX && s.blocker != start) {
        via[s.blocker] = s.edge;
        queue.push_back(s.blocker);
      }
    }
  }
  return {};
}

std::vector<WaitForGraph::Vertex> WaitForGraph::ChainFrom(Vertex start) const {
  // Chains are short: a linear search of the chain beats clearing a
  // graph-sized "seen" array on every call (100,000 processes); a set
  // takes over for the rare long one.
  constexpr size_t kLinear = 64;
  std::vector<Vertex> chain;
  chain.reserve(8);
  chain.push_back(start);
  std::unordered_set<Vertex> seen;
  Vertex v = start;
  while (!succ_[v].empty()) {
    v = succ_[v].front().blocker;
    bool repeat;
    if (chain.size() < kLinear) {
      repeat = std::find(chain.begin(), chain.end(), v) != chain.end();
    } else {
      if (seen.empty()) seen.insert(chain.begin(), chain.end());
      repeat = !seen.insert(v).second;
    }
    chain.push_back(v);
    if (repeat) break;
  }
  return chain;
}

std::vector<WaitForGraph::Vertex> WaitForGraph::RootBlockers() const {
  std::vector<Vertex> roots;
  for (Vertex v = 0; v < Vertex(process_ids_.size()); ++v)
    if (succ_[v].empty() && blocks_count_[v] > 0) roots.push_back(v);
  return roots;
}

WaitForGraph GraphOfDeadlock(const Deadlock& deadlock) {
  WaitForGraph g;
  for (const WaitEdge& e : deadlock.edges) g.AddWait(e.waiter, e.mode, e.lock, e.blocker, e.basis);
  return g;
}

bool CycleMatchesGraph(const Deadlock& deadlock) {
  if (deadlock.edges.empty()) return false;
  WaitForGraph g = GraphOfDeadlock(deadlock);
  auto victim = g.FindProcess(deadlock.edges.front().waiter);
  std::vector<size_t> cycle = g.CycleThrough(*victim);
  if (cycle.size() != deadlock.edges.size()) return false;
  for (size_t i = 0; i < cycle.size(); ++i)
    if (cycle[i] != i) return false;
  return true;
}

}  // namespace lockgraph
