// The wait-for graph, one model for every engine: processes as vertices; a
// process waits for a lock (with a mode) that is held by (hard), queued
// ahead by (soft) or, by the conflict matrix, blocked by (derived) other
// processes. Cycle search and blocking chains work on these process-to-
// process edges; the lock of each edge stays on the edge (edges()), since no
// search needs the locks as vertices of their own.
// Algorithms: docs/graph.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// Copyable; not thread-safe while being built; const methods may run
/// concurrently. Vertex ids are dense indexes in insertion order, so every
/// result is deterministic for a given insertion order.
class WaitForGraph {
 public:
  using Vertex = uint32_t;

  /// Adds (or finds) the process with this id.
  Vertex AddProcess(const std::string& id);
  /// `waiter` waits for `lock` in `mode`, blocked by `blocker` on the
  /// grounds `basis`. Adds both processes and the edge waiter -> blocker.
  void AddWait(const std::string& waiter, const std::string& mode, const LockTarget& lock,
               const std::string& blocker, EdgeBasis basis);

  size_t process_count() const { return process_ids_.size(); }
  const std::string& process_id(Vertex p) const { return process_ids_[p]; }
  std::optional<Vertex> FindProcess(const std::string& id) const;

  /// Process-level successors of `p`: the processes it waits for, each with
  /// the edge that says so, in insertion order.
  struct Step {
    Vertex blocker;
    size_t edge;  // index into edges()
  };
  const std::vector<Step>& Successors(Vertex p) const { return succ_[p]; }
  const std::vector<WaitEdge>& edges() const { return edges_; }

  /// Strongly connected components with more than one process (or a
  /// self-loop): the deadlocked sets. Iterative Tarjan, O(V + E); each
  /// component sorted by vertex, components by their first vertex.
  std::vector<std::vector<Vertex>> DeadlockedSets() const;

  /// A shortest cycle through `start` (BFS), as edge indexes in order,
  /// starting with an edge whose waiter is `start`; empty when `start` is
  /// on no cycle.
  std::vector<size_t> CycleThrough(Vertex start) const;

  /// The blocking chain from `start`: follows the first blocker of each
  /// waiting process until a process that waits for nothing (the root
  /// blocker) or one already on the chain (then the chain ends with that
  /// repeated member). Returns the process vertexes.
  std::vector<Vertex> ChainFrom(Vertex start) const;

  /// Processes that wait for nothing but block someone: the roots of the
  /// blocking trees, in vertex order.
  std::vector<Vertex> RootBlockers() const;

 private:
  std::unordered_map<std::string, Vertex> process_index_;
  std::vector<std::string> process_ids_;
  std::vector<WaitEdge> edges_;
  std::vector<std::vector<Step>> succ_;      // per process
  std::vector<uint32_t> blocks_count_;       // per process: how many wait for it
};

/// Builds the graph of one deadlock report (its edges as stated).
WaitForGraph GraphOfDeadlock(const Deadlock& deadlock);

/// True when `deadlock.edges` is exactly one closed cycle that the graph
/// search finds too, through the victim, in the same order.
bool CycleMatchesGraph(const Deadlock& deadlock);

}  // namespace lockgraph
