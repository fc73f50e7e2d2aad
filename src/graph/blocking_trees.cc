// See blocking_trees.h.
#include "graph/blocking_trees.h"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>

#include "model/process_id.h"

namespace lockgraph {
namespace {

using Vertex = WaitForGraph::Vertex;

class Walker {
 public:
  Walker(const WaitForGraph& g, const std::vector<WaitEdge>& edges,
         const std::map<std::string, Backend>& backends)
      : g_(g), edges_(edges), backend_of_(g.process_count(), nullptr),
        waiters_of_(g.process_count()), visited_(g.process_count(), 0),
        depth_(g.process_count(), 0) {
    // Each process's description found once, by vertex, not by id per use.
    for (const auto& [id, backend] : backends)
      if (auto v = g.FindProcess(id)) backend_of_[*v] = &backend;
    // Waiters listed in edge order (the order edges were added), found
    // from the successor lists by vertex: no lookup of ids by name.
    std::vector<std::tuple<size_t, Vertex, Vertex>> by_edge;  // edge, blocker, waiter
    by_edge.reserve(g.edges().size());
    for (Vertex v = 0; v < Vertex(g.process_count()); ++v)
      for (const WaitForGraph::Step& s : g.Successors(v)) by_edge.emplace_back(s.edge, s.blocker, v);
    std::sort(by_edge.begin(), by_edge.end());
    for (const auto& [edge, blocker, waiter] : by_edge) waiters_of_[blocker].push_back(waiter);
  }

  Backend Describe(Vertex v) const {
    if (backend_of_[v]) return *backend_of_[v];
    Backend b;
    b.id = g_.process_id(v);
    return b;
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

  BlockingTree Tree(Vertex root) const {
    BlockingTree tree;
    std::vector<std::pair<Vertex, uint32_t>> members = Behind({root}, {});
    members.insert(members.begin(), {root, 0});
    tree.members.reserve(members.size());
    for (const auto& [v, depth] : members) tree.members.push_back({Describe(v), depth});
    for (const auto& [v, depth] : members)
      for (const WaitForGraph::Step& s : g_.Successors(v)) tree.edges.push_back(edges_[s.edge]);
    return tree;
  }

  WaitCycle Cycle(const std::vector<Vertex>& knot) const {
    Vertex start = *std::min_element(knot.begin(), knot.end(), [&](Vertex a, Vertex b) {
      return ProcessIdLess(g_.process_id(a), g_.process_id(b));
    });
    WaitCycle cycle;
    std::set<std::string> on_cycle;
    for (size_t e : g_.CycleThrough(start)) {
      cycle.edges.push_back(edges_[e]);
      cycle.members.push_back(Describe(g_.EdgeWaiter(e)));
      on_cycle.insert(cycle.edges.back().waiter);
    }
    for (Vertex v : knot)
      if (!on_cycle.count(g_.process_id(v))) cycle.also_deadlocked.push_back(g_.process_id(v));
    std::sort(cycle.also_deadlocked.begin(), cycle.also_deadlocked.end(), ProcessIdLess);
    std::set<Vertex> stop(knot.begin(), knot.end());
    for (const auto& [v, depth] : Behind(knot, stop))
      cycle.waiting_behind.push_back(g_.process_id(v));
    std::sort(cycle.waiting_behind.begin(), cycle.waiting_behind.end(), ProcessIdLess);
    return cycle;
  }

 private:
  const WaitForGraph& g_;
  const std::vector<WaitEdge>& edges_;
  std::vector<const Backend*> backend_of_;  // per process; null: id only
  std::vector<std::vector<Vertex>> waiters_of_;
  mutable std::vector<uint32_t> visited_, depth_;  // per process, for Behind()
  mutable uint32_t visit_ = 0;
};

}  // namespace

TreesAndCycles FindTreesAndCycles(const WaitForGraph& graph, const std::vector<WaitEdge>& edges,
                                  const std::map<std::string, Backend>& backends) {
  Walker walker(graph, edges, backends);
  TreesAndCycles out;
  std::vector<Vertex> roots = graph.RootBlockers();
  std::sort(roots.begin(), roots.end(), [&](Vertex a, Vertex b) {
    return ProcessIdLess(graph.process_id(a), graph.process_id(b));
  });
  for (Vertex r : roots) out.trees.push_back(walker.Tree(r));
  for (const std::vector<Vertex>& knot : graph.DeadlockedSets()) {
    WaitCycle cycle = walker.Cycle(knot);
    if (!cycle.members.empty()) out.cycles.push_back(std::move(cycle));
  }
  std::sort(out.cycles.begin(), out.cycles.end(), [](const WaitCycle& a, const WaitCycle& b) {
    return ProcessIdLess(a.members.front().id, b.members.front().id);
  });
  return out;
}

}  // namespace lockgraph
