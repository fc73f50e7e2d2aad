// See wait_for_graph.h and docs/graph.md.
#include "graph/wait_for_graph.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace lockgraph {

namespace {

uint32_t HashId(std::string_view id) {
  // FNV-1a: ids are short (pids), so a simple byte hash is enough.
  uint32_t h = 2166136261u;
  for (unsigned char c : id) h = (h ^ c) * 16777619u;
  return h;
}

}  // namespace

void WaitForGraph::Reserve(size_t edges) {
  edge_waiter_.reserve(edges);
  process_ids_.reserve(edges);
  steps_.reserve(edges);
  runs_.reserve(edges);
  first_blocker_.reserve(edges);
  blocks_count_.reserve(edges);
  GrowIndex(2 * edges);
}

size_t WaitForGraph::FindSlot(std::string_view id, uint32_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.vertex == kNone || (s.hash == hash && process_ids_[s.vertex] == id)) return i;
  }
}

void WaitForGraph::GrowIndex(size_t min_slots) {
  size_t size = slots_.empty() ? 16 : slots_.size();
  while (size < min_slots) size *= 2;
  if (size == slots_.size()) return;
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(size, Slot());
  const size_t mask = size - 1;
  for (const Slot& s : old) {
    if (s.vertex == kNone) continue;
    size_t i = s.hash & mask;
    while (slots_[i].vertex != kNone) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

WaitForGraph::Vertex WaitForGraph::AddProcess(std::string_view id) {
  if (2 * (process_ids_.size() + 1) > slots_.size()) GrowIndex(2 * (process_ids_.size() + 1));
  const uint32_t hash = HashId(id);
  Slot& slot = slots_[FindSlot(id, hash)];
  if (slot.vertex != kNone) return slot.vertex;
  const Vertex v = Vertex(process_ids_.size());
  slot = {hash, v};
  process_ids_.emplace_back(id);
  runs_.emplace_back();
  first_blocker_.push_back(kNone);
  blocks_count_.push_back(0);
  return v;
}

std::optional<WaitForGraph::Vertex> WaitForGraph::FindProcess(std::string_view id) const {
  if (slots_.empty()) return std::nullopt;
  const Slot& slot = slots_[FindSlot(id, HashId(id))];
  if (slot.vertex == kNone) return std::nullopt;
  return slot.vertex;
}

void WaitForGraph::Link(std::string_view waiter, std::string_view blocker) {
  const size_t e = edge_waiter_.size();
  // Callers add a waiter's edges together (sorted by waiter): the last
  // waiter is checked before the index.
  const Vertex w = !edge_waiter_.empty() && process_ids_[edge_waiter_.back()] == waiter
                       ? edge_waiter_.back()
                       : AddProcess(waiter);
  const Vertex b = AddProcess(blocker);
  Run& run = runs_[w];
  if (run.begin + run.size != steps_.size()) {
    const uint32_t old = run.begin;
    run.begin = uint32_t(steps_.size());
    steps_.reserve(steps_.size() + run.size + 1);
    for (uint32_t i = 0; i < run.size; ++i) steps_.push_back(steps_[old + i]);
  }
  steps_.push_back({b, e});
  ++run.size;
  if (first_blocker_[w] == kNone) first_blocker_[w] = b;
  ++blocks_count_[b];
  edge_waiter_.push_back(w);
}

void WaitForGraph::AddWait(WaitEdge&& edge) {
  edges_.push_back(std::move(edge));
  Link(edges_.back().waiter, edges_.back().blocker);
}

void WaitForGraph::AddLink(std::string_view waiter, std::string_view blocker) {
  Link(waiter, blocker);
}

void WaitForGraph::AddWaits(std::vector<WaitEdge>&& edges) {
  const size_t first = edges_.size();
  if (edges_.empty()) {
    edges_ = std::move(edges);
  } else {
    edges_.reserve(first + edges.size());
    for (WaitEdge& e : edges) edges_.push_back(std::move(e));
  }
  Reserve(edges_.size());
  for (size_t e = first; e < edges_.size(); ++e) Link(edges_[e].waiter, edges_[e].blocker);
}

void WaitForGraph::AddWait(const std::string& waiter, const std::string& mode,
                           const LockTarget& lock, const std::string& blocker,
                           EdgeBasis basis) {
  WaitEdge e;
  e.waiter = waiter;
  e.blocker = blocker;
  e.mode = mode;
  e.lock = lock;
  e.basis = basis;
  AddWait(std::move(e));
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
      if (next < Successors(v).size()) {
        Vertex w = Successors(v)[next++].blocker;
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
        std::span<const Step> steps = Successors(v);
        bool self_loop = std::any_of(steps.begin(), steps.end(),
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
  // BFS from start's successors back to start gives a shortest cycle. The
  // edge that reached each vertex is kept in a map of the vertexes reached,
  // not a graph-sized array: a snapshot asks this of each of its cycles,
  // and each reaches few of its 100,000 processes.
  std::unordered_map<Vertex, size_t> via;
  std::deque<Vertex> queue;
  for (const Step& s : Successors(start)) {
    if (s.blocker == start) return {s.edge};
    if (via.emplace(s.blocker, s.edge).second) queue.push_back(s.blocker);
  }
  while (!queue.empty()) {
    Vertex v = queue.front();
    queue.pop_front();
    for (const Step& s : Successors(v)) {
      if (s.blocker == start) {
        std::vector<size_t> cycle{s.edge};
        for (Vertex u = v; u != start;) {
          size_t e = via.at(u);
          cycle.push_back(e);
          u = edge_waiter_[e];
        }
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
      }
      if (via.emplace(s.blocker, s.edge).second) queue.push_back(s.blocker);
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
  while (first_blocker_[v] != kNone) {
    v = first_blocker_[v];
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
    if (first_blocker_[v] == kNone && blocks_count_[v] > 0) roots.push_back(v);
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
