// DOT clusters for the chain and cycle events of lock snapshots: one
// cluster per blocking tree ("c1_pid_4211") and per cycle ("y1_pid_4211"),
// edges from waiter to blocker labelled with mode, lock and basis.
#pragma once

#include "emit/dot_graph.h"
#include "model/event.h"

namespace lockgraph {

/// Numbers clusters in the order events come. Not thread-safe.
class SnapshotDot {
 public:
  /// Adds a cluster for a chain or cycle event; false for other events.
  bool Add(DotGraph& graph, const Event& event);

 private:
  int chain_no_ = 0;
  int cycle_no_ = 0;
};

}  // namespace lockgraph
