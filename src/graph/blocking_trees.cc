// See blocking_trees.h. The trees and cycles are found first as vertexes and
// edge numbers (their shapes), then filled in with the processes'
// descriptions and the edges, one at a time.
#include "graph/blocking_trees.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <tuple>

#include "model/process_id.h"

namespace lockgraph {
namespace {

using Vertex = WaitForGraph::Vertex;

using TreeShape = TreeAndCycleShapes::TreeShape;
using CycleShape = TreeAndCycleShapes::CycleShape;

class Walker {
 public:
  explicit Walker(const WaitForGraph& g)
      : g_(g), waiters_of_(g.process_count()), visited_(g.process_count(), 0),
        depth_(g.process_count(), 0) {
    // Waiters listed in edge order (the order edges were added), found
    // from the successor lists by vertex: no lookup of ids by name.
    std::vector<std::tuple<size_t, Vertex, Vertex>> by_edge;  // edge, blocker, waiter
    by_edge.reserve(g.edge_count());
    for (Vertex v = 0; v < Vertex(g.process_count()); ++v)
      for (const WaitForGraph::Step& s : g.Successors(v)) by_edge.emplace_back(s.edge, s.blocker, v);
    std::sort(by_edge.begin(), by_edge.end());
    for (const auto& [edge, blocker, waiter] : by_edge) waiters_of_[blocker].push_back(waiter);
  }

  // Breadth-first backwards from `from` (not crossing `stop`): each
  // reached process with its distance, by distance then id. Costs only
  // what it reaches (visit marks are reused between calls).
  std::vector<std::pair<Vertex, uint32_t>> Behind(const std::vector<Vertex>& from,
                                                  const std::set<Vertex>& stop) const {
    ++visit_;
    std::deque<Vertex> queue;
    for (Vertex v : from) {
      visited_[v] = visit_;
      depth_[v] = 0;
      queue.push_back(v);
    }
    std::vector<std::pair<Vertex, uint32_t>> out;
    while (!queue.empty()) {
      Vertex v = queue.front();
      queue.pop_front();
      for (Vertex w : waiters_of_[v]) {
        if (visited_[w] == visit_ || stop.count(w)) continue;
        visited_[w] = visit_;
        depth_[w] = depth_[v] + 1;
        out.push_back({w, depth_[w]});
        queue.push_back(w);
      }
    }
    std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
      if (a.second != b.second) return a.second < b.second;
      return ProcessIdLess(g_.process_id(a.first), g_.process_id(b.first));
    });
    return out;
  }

  TreeShape Tree(Vertex root) const {
    TreeShape tree;
    tree.members = Behind({root}, {});
    tree.members.insert(tree.members.begin(), {root, 0});
    for (const auto& [v, depth] : tree.members)
      for (const WaitForGraph::Step& s : g_.Successors(v)) tree.edges.push_back(s.edge);
    return tree;
  }

  CycleShape Cycle(const std::vector<Vertex>& knot) const {
    Vertex start = *std::min_element(knot.begin(), knot.end(), [&](Vertex a, Vertex b) {
      return ProcessIdLess(g_.process_id(a), g_.process_id(b));
    });
    CycleShape cycle;
    cycle.edges = g_.CycleThrough(start);
    std::set<Vertex> on_cycle;
    for (size_t e : cycle.edges) on_cycle.insert(g_.EdgeWaiter(e));
    for (Vertex v : knot)
      if (!on_cycle.count(v)) cycle.also_deadlocked.push_back(g_.process_id(v));
    std::sort(cycle.also_deadlocked.begin(), cycle.also_deadlocked.end(), ProcessIdLess);
    std::set<Vertex> stop(knot.begin(), knot.end());
    for (const auto& [v, depth] : Behind(knot, stop))
      cycle.waiting_behind.push_back(g_.process_id(v));
    std::sort(cycle.waiting_behind.begin(), cycle.waiting_behind.end(), ProcessIdLess);
    return cycle;
  }

 private:
  const WaitForGraph& g_;
  std::vector<std::vector<Vertex>> waiters_of_;
  mutable std::vector<uint32_t> visited_, depth_;  // per process, for Behind()
  mutable uint32_t visit_ = 0;
};

}  // namespace

TreeAndCycleShapes::TreeAndCycleShapes(const WaitForGraph& graph) : graph_(graph) {
  Walker walker(graph);
  std::vector<Vertex> roots = graph.RootBlockers();
  std::sort(roots.begin(), roots.end(), [&](Vertex a, Vertex b) {
    return ProcessIdLess(graph.process_id(a), graph.process_id(b));
  });
  for (Vertex r : roots) trees_.push_back(walker.Tree(r));
  for (const std::vector<Vertex>& knot : graph.DeadlockedSets()) {
    CycleShape cycle = walker.Cycle(knot);
    if (!cycle.edges.empty()) cycles_.push_back(std::move(cycle));
  }
  // By the first member's id: each knot's lowest, so no two are the same.
  std::sort(cycles_.begin(), cycles_.end(), [&](const CycleShape& a, const CycleShape& b) {
    return ProcessIdLess(graph.process_id(graph.EdgeWaiter(a.edges.front())),
                         graph.process_id(graph.EdgeWaiter(b.edges.front())));
  });
}

BlockingTree TreeAndCycleShapes::Tree(size_t i, const Describe& describe,
                                      const EdgeAt& edge) const {
  const TreeShape& shape = trees_[i];
  BlockingTree tree;
  tree.members.reserve(shape.members.size());
  for (const auto& [v, depth] : shape.members) tree.members.push_back({describe(v), depth});
  tree.edges.reserve(shape.edges.size());
  for (size_t e : shape.edges) tree.edges.push_back(edge(e));
  return tree;
}

WaitCycle TreeAndCycleShapes::Cycle(size_t i, const Describe& describe, const EdgeAt& edge) const {
  const CycleShape& shape = cycles_[i];
  WaitCycle cycle;
  for (size_t e : shape.edges) {
    cycle.edges.push_back(edge(e));
    cycle.members.push_back(describe(graph_.EdgeWaiter(e)));
  }
  cycle.also_deadlocked = shape.also_deadlocked;
  cycle.waiting_behind = shape.waiting_behind;
  return cycle;
}

Backend TreeAndCycleShapes::IdOnly(Vertex v) const {
  Backend b;
  b.id = graph_.process_id(v);
  return b;
}

TreeAndCycleShapes::Describe TreeAndCycleShapes::DescribeFrom(
    const std::map<std::string, Backend>& backends) const {
  // Each process's description by vertex, found once (not by id per use).
  auto backend_of = std::make_shared<std::vector<const Backend*>>(graph_.process_count(), nullptr);
  for (const auto& [id, backend] : backends)
    if (auto v = graph_.FindProcess(id)) (*backend_of)[*v] = &backend;
  return [this, backend_of](Vertex v) {
    return (*backend_of)[v] ? *(*backend_of)[v] : IdOnly(v);
  };
}

TreesAndCycles FindTreesAndCycles(const WaitForGraph& graph, const std::vector<WaitEdge>& edges,
                                  const std::map<std::string, Backend>& backends) {
  const TreeAndCycleShapes shapes(graph);
  const TreeAndCycleShapes::Describe describe = shapes.DescribeFrom(backends);
  const TreeAndCycleShapes::EdgeAt edge = [&](size_t e) { return edges[e]; };
  TreesAndCycles out;
  out.trees.reserve(shapes.trees());
  for (size_t i = 0; i < shapes.trees(); ++i) out.trees.push_back(shapes.Tree(i, describe, edge));
  for (size_t i = 0; i < shapes.cycles(); ++i) out.cycles.push_back(shapes.Cycle(i, describe, edge));
  return out;
}

}  // namespace lockgraph
