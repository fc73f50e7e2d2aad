// From the wait-for graph of one snapshot to what people act on: blocking
// trees (a root blocker and everyone waiting behind it) and wait cycles
// (deadlocks the server has not broken). Engine-neutral; the PostgreSQL
// snapshot reader (parsers/postgresql/pg_snapshot.h) feeds it. Algorithm and
// order of everything: docs/watch.md#trees-and-cycles.
#pragma once

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

/// `edges` are the edges in the order they were added to `graph`, usually
/// graph.edges(); those of each tree and cycle are copied into the output.
/// `backends` describes the processes by id; a process without an entry is
/// shown with its id only. Trees: one per root blocker (a process that waits
/// for nothing and blocks someone); members are found backwards from the
/// root, breadth-first, so depth is the shortest distance to the root; a
/// process waiting for two roots is in both trees. Cycles: one per knot
/// (strongly connected set, WaitForGraph::DeadlockedSets), along the
/// shortest cycle through its lowest id; the knot's other members and the
/// processes waiting for it from outside are listed with it.
TreesAndCycles FindTreesAndCycles(const WaitForGraph& graph, const std::vector<WaitEdge>& edges,
                                  const std::map<std::string, Backend>& backends);

/// The same trees and cycles, for a caller that needs neither `edges` nor
/// `backends` afterwards: each edge and description is moved into the last
/// tree or cycle that shows it, not copied (a 100,000-waiter snapshot has
/// as many of each). Both are left valid but unspecified.
TreesAndCycles TakeTreesAndCycles(const WaitForGraph& graph, std::vector<WaitEdge>&& edges,
                                  std::map<std::string, Backend>&& backends);

}  // namespace lockgraph
