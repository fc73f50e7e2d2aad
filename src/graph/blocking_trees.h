// From the wait-for graph of one snapshot to what people act on: blocking
// trees (a root blocker and everyone waiting behind it) and wait cycles
// (deadlocks the server has not broken). Engine-neutral; the PostgreSQL
// snapshot reader (parsers/postgresql/pg_snapshot.h) feeds it. Algorithm and
// order of everything: docs/watch.md#trees-and-cycles.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "graph/wait_for_graph.h"
#include "model/event.h"

namespace lockgraph {

struct TreesAndCycles {
  std::vector<BlockingTree> trees;  // by root id (ProcessIdLess)
  std::vector<WaitCycle> cycles;    // by lowest member id
};

/// The trees and cycles of a graph, found as vertexes and edge numbers when
/// made, and filled in one at a time when asked for: a caller that sends
/// each on before asking for the next holds the descriptions of one tree
/// at a time (a 100,000-waiter snapshot has that many). Trees: one per root
/// blocker (a process that waits for nothing and blocks someone); members
/// are found backwards from the root, breadth-first, so depth is the
/// shortest distance to the root; a process waiting for two roots is in
/// both trees. Cycles: one per knot (strongly connected set,
/// WaitForGraph::DeadlockedSets), along the shortest cycle through its
/// lowest id; the knot's other members and the processes waiting for it
/// from outside are listed with it. Keeps a reference to `graph`.
class TreeAndCycleShapes {
 public:
  /// The description of a process (its id alone when nothing is known of
  /// it), and the edge of a number.
  using Describe = std::function<Backend(WaitForGraph::Vertex)>;
  using EdgeAt = std::function<WaitEdge(size_t)>;

  explicit TreeAndCycleShapes(const WaitForGraph& graph);
  size_t trees() const { return trees_.size(); }    // by root id (ProcessIdLess)
  size_t cycles() const { return cycles_.size(); }  // by lowest member id
  BlockingTree Tree(size_t i, const Describe& describe, const EdgeAt& edge) const;
  WaitCycle Cycle(size_t i, const Describe& describe, const EdgeAt& edge) const;

  /// A process known by its id alone (a blocker nothing else describes).
  Backend IdOnly(WaitForGraph::Vertex v) const;
  /// Describes each process by its entry in `backends` (kept by reference,
  /// found once per process), IdOnly() when it has none. The Describe
  /// refers to `backends` and to these shapes: it must outlive neither.
  Describe DescribeFrom(const std::map<std::string, Backend>& backends) const;

  /// What is kept of each until it is filled in.
  struct TreeShape {
    std::vector<std::pair<WaitForGraph::Vertex, uint32_t>> members;  // with depth; root first
    std::vector<size_t> edges;
  };
  struct CycleShape {
    std::vector<size_t> edges;  // along the cycle; members are their waiters
    std::vector<std::string> also_deadlocked, waiting_behind;
  };

 private:
  const WaitForGraph& graph_;
  std::vector<TreeShape> trees_;
  std::vector<CycleShape> cycles_;
};

/// Every tree and cycle at once (TreeAndCycleShapes). `edges` are the
/// edges in the order they were added to `graph`, usually graph.edges();
/// those of each tree and cycle are copied into the output. `backends`
/// describes the processes by id; a process without an entry is shown with
/// its id only. Algorithm and order of everything: docs/watch.md#trees-and-cycles.
TreesAndCycles FindTreesAndCycles(const WaitForGraph& graph, const std::vector<WaitEdge>& edges,
                                  const std::map<std::string, Backend>& backends);

}  // namespace lockgraph
