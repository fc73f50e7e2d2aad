// See blocking_trees.h. The trees and cycles are found first as vertexes and
// edge numbers (Shapes), then filled in with the processes' descriptions and
// the edges, copied or, for TakeTreesAndCycles, moved on their last use.
#include "graph/blocking_trees.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <set>
#include <tuple>

#include "model/process_id.h"

namespace lockgraph {
namespace {

using Vertex = WaitForGraph::Vertex;

struct TreeShape {
  std::vector<std::pair<Vertex, uint32_t>> members;  // with depth; root first
  std::vector<size_t> edges;
};

struct CycleShape {
  std::vector<size_t> edges;  // along the cycle; members are their waiters
  std::vector<std::string> also_deadlocked, waiting_behind;
};

class Walker {
 public:
  explicit Walker(const WaitForGraph& g)
      : g_(g), waiters_of_(g.process_count()), visited_(g.process_count(), 0),
        depth_(g.process_count(), 0) {
    // Waiters listed in edge order (the order edges were added), found
    // from the successor lists by vertex: no lookup of ids by name.
    std::vector<std::tuple<size_t, Vertex, Vertex>> by_edge;  // edge, blocker, waiter
    by_edge.reserve(g.edges().size());
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

struct Shapes {
  std::vector<TreeShape> trees;    // by root id
  std::vector<CycleShape> cycles;  // by knot
};

Shapes FindShapes(const WaitForGraph& graph) {
  Walker walker(graph);
  Shapes out;
  std::vector<Vertex> roots = graph.RootBlockers();
  std::sort(roots.begin(), roots.end(), [&](Vertex a, Vertex b) {
    return ProcessIdLess(graph.process_id(a), graph.process_id(b));
  });
  for (Vertex r : roots) out.trees.push_back(walker.Tree(r));
  for (const std::vector<Vertex>& knot : graph.DeadlockedSets()) {
    CycleShape cycle = walker.Cycle(knot);
    if (!cycle.edges.empty()) out.cycles.push_back(std::move(cycle));
  }
  return out;
}

// Each process's description by vertex, found once (not by id per use);
// null: the process is shown with its id only.
std::vector<const Backend*> BackendsByVertex(const WaitForGraph& g,
                                             const std::map<std::string, Backend>& backends) {
  std::vector<const Backend*> of(g.process_count(), nullptr);
  for (const auto& [id, backend] : backends)
    if (auto v = g.FindProcess(id)) of[*v] = &backend;
  return of;
}

using Describe = std::function<Backend(Vertex)>;
using EdgeAt = std::function<WaitEdge(size_t)>;

TreesAndCycles Fill(const WaitForGraph& g, Shapes& shapes, const Describe& describe,
                    const EdgeAt& edge) {
  TreesAndCycles out;
  out.trees.reserve(shapes.trees.size());
  for (const TreeShape& shape : shapes.trees) {
    BlockingTree tree;
    tree.members.reserve(shape.members.size());
    for (const auto& [v, depth] : shape.members) tree.members.push_back({describe(v), depth});
    tree.edges.reserve(shape.edges.size());
    for (size_t e : shape.edges) tree.edges.push_back(edge(e));
    out.trees.push_back(std::move(tree));
  }
  for (CycleShape& shape : shapes.cycles) {
    WaitCycle cycle;
    for (size_t e : shape.edges) {
      cycle.edges.push_back(edge(e));
      cycle.members.push_back(describe(g.EdgeWaiter(e)));
    }
    cycle.also_deadlocked = std::move(shape.also_deadlocked);
    cycle.waiting_behind = std::move(shape.waiting_behind);
    out.cycles.push_back(std::move(cycle));
  }
  std::sort(out.cycles.begin(), out.cycles.end(), [](const WaitCycle& a, const WaitCycle& b) {
    return ProcessIdLess(a.members.front().id, b.members.front().id);
  });
  return out;
}

Backend IdOnly(const WaitForGraph& g, Vertex v) {
  Backend b;
  b.id = g.process_id(v);
  return b;
}

}  // namespace

TreesAndCycles FindTreesAndCycles(const WaitForGraph& graph, const std::vector<WaitEdge>& edges,
                                  const std::map<std::string, Backend>& backends) {
  Shapes shapes = FindShapes(graph);
  const std::vector<const Backend*> backend_of = BackendsByVertex(graph, backends);
  return Fill(
      graph, shapes,
      [&](Vertex v) { return backend_of[v] ? *backend_of[v] : IdOnly(graph, v); },
      [&](size_t e) { return edges[e]; });
}

TreesAndCycles TakeTreesAndCycles(const WaitForGraph& graph, std::vector<WaitEdge>&& edges,
                                  std::map<std::string, Backend>&& backends) {
  Shapes shapes = FindShapes(graph);
  // By vertex, the process's entry in `backends`, erased when taken.
  using Entry = std::map<std::string, Backend>::iterator;
  std::vector<Entry> backend_of(graph.process_count(), backends.end());
  for (auto it = backends.begin(); it != backends.end(); ++it)
    if (auto v = graph.FindProcess(it->first)) backend_of[*v] = it;
  // How often each process and edge is shown: the last showing takes it.
  std::vector<uint32_t> backend_uses(graph.process_count(), 0), edge_uses(edges.size(), 0);
  for (const TreeShape& t : shapes.trees) {
    for (const auto& [v, depth] : t.members) ++backend_uses[v];
    for (size_t e : t.edges) ++edge_uses[e];
  }
  for (const CycleShape& c : shapes.cycles)
    for (size_t e : c.edges) ++edge_uses[e], ++backend_uses[graph.EdgeWaiter(e)];
  return Fill(
      graph, shapes,
      [&](Vertex v) {
        if (backend_of[v] == backends.end()) return IdOnly(graph, v);
        if (--backend_uses[v] > 0) return backend_of[v]->second;
        Backend taken = std::move(backend_of[v]->second);
        backends.erase(backend_of[v]);  // its memory is not held till the end
        backend_of[v] = backends.end();
        return taken;
      },
      [&](size_t e) { return --edge_uses[e] == 0 ? std::move(edges[e]) : edges[e]; });
}

}  // namespace lockgraph
