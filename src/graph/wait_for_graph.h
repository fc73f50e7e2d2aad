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
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// Copyable; not thread-safe while being built; const methods may run
/// concurrently. Vertex ids are dense indexes in insertion order, so every
/// result is deterministic for a given insertion order.
class WaitForGraph {
 public:
  using Vertex = uint32_t;

  /// Room for `edges` edges or links and about as many processes, when the
  /// caller knows: saves the regrowth of every table while 100,000 are
  /// added (edges() itself is not reserved: AddWaits() takes a vector over).
  void Reserve(size_t edges);
  /// Adds (or finds) the process with this id.
  Vertex AddProcess(std::string_view id);
  /// `edge.waiter` waits for `edge.lock`, blocked by `edge.blocker`: adds
  /// both processes and the edge waiter -> blocker. The edge is moved in,
  /// not copied (a snapshot has 100,000 of them); edges() gives it back.
  void AddWait(WaitEdge&& edge);
  /// Adds every edge of `edges`, in order. Into an empty graph the vector
  /// itself is taken over: nothing is copied or moved edge by edge.
  void AddWaits(std::vector<WaitEdge>&& edges);
  /// The same for an edge given by its parts (copies them).
  void AddWait(const std::string& waiter, const std::string& mode, const LockTarget& lock,
               const std::string& blocker, EdgeBasis basis);
  /// `waiter` waits for `blocker`, and the caller keeps what the edge says
  /// (a snapshot's edges are made from its rows only when an event shows
  /// them): the edge is numbered like AddWait()'s, but edges() does not
  /// hold it. A graph takes links or waits, not both.
  void AddLink(std::string_view waiter, std::string_view blocker);

  size_t process_count() const { return process_ids_.size(); }
  const std::string& process_id(Vertex p) const { return process_ids_[p]; }
  std::optional<Vertex> FindProcess(std::string_view id) const;

  /// Process-level successors of `p`: the processes it waits for, each with
  /// the edge that says so, in insertion order.
  struct Step {
    Vertex blocker;
    size_t edge;  // index into edges()
  };
  std::span<const Step> Successors(Vertex p) const {
    return {steps_.data() + runs_[p].begin, runs_[p].size};
  }
  const std::vector<WaitEdge>& edges() const { return edges_; }
  /// Edges and links added: the edge numbers are 0 to edge_count() - 1.
  size_t edge_count() const { return edge_waiter_.size(); }
  /// The waiting process of edges()[e], without a lookup by id.
  Vertex EdgeWaiter(size_t e) const { return edge_waiter_[e]; }
  /// Gives the edges back to the caller (the graph keeps its searches'
  /// data; edges() is then empty and EdgeWaiter() still answers).
  std::vector<WaitEdge> ReleaseEdges() { return std::move(edges_); }

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
  static constexpr Vertex kNone = UINT32_MAX;
  // Process ids by hash: open addressing, linear probing, in one flat
  // array (a node-based map costs a cache miss and an allocation per id).
  struct Slot {
    uint32_t hash = 0;
    Vertex vertex = kNone;
  };
  size_t FindSlot(std::string_view id, uint32_t hash) const;
  void GrowIndex(size_t min_slots);
  void Link(std::string_view waiter, std::string_view blocker);  // the next edge number
  std::vector<Slot> slots_;  // size a power of two, at most half full
  std::vector<std::string> process_ids_;
  std::vector<WaitEdge> edges_;
  std::vector<Vertex> edge_waiter_;          // per edge
  // Successors: each process's steps are one run of steps_ (one array, not
  // a vector per process). A process whose edges are not added together
  // has its run moved to the end when it grows; callers add a waiter's
  // edges together, so that is rare.
  struct Run {
    uint32_t begin = 0, size = 0;
  };
  std::vector<Step> steps_;
  std::vector<Run> runs_;                    // per process
  // Per process, the blocker of its first edge (kNone: waits for nothing):
  // one flat array, so that following chains does not touch steps_.
  std::vector<Vertex> first_blocker_;
  std::vector<uint32_t> blocks_count_;       // per process: how many wait for it
};

/// Builds the graph of one deadlock report (its edges as stated).
WaitForGraph GraphOfDeadlock(const Deadlock& deadlock);

/// True when `deadlock.edges` is exactly one closed cycle that the graph
/// search finds too, through the victim, in the same order.
bool CycleMatchesGraph(const Deadlock& deadlock);

}  // namespace lockgraph
