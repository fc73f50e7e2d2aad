// DOT clusters for the chain and cycle events of lock snapshots: one
// cluster per blocking tree ("c1_pid_4211") and per cycle ("y1_pid_4211"),
// edges from waiter to blocker labelled with mode, lock and basis.
#pragma once

#include <string>

#include "emit/dot_sink.h"
#include "model/event.h"

namespace lockgraph {

enum class SnapshotClusterKind { kNone, kChain, kCycle };

/// Which cluster a snapshot event is drawn as: a chain (blocking tree) or a
/// cycle with members; kNone for every other event.
SnapshotClusterKind SnapshotClusterOf(const Event& event);

/// Adds the cluster of a chain or cycle event as "cluster_<prefix>" titled
/// "<title> at <time>"; nothing for other events.
void AddSnapshotCluster(DotSink& graph, const Event& event, const std::string& prefix,
                        const std::string& title);

/// Numbers clusters in the order events come. Not thread-safe.
class SnapshotDot {
 public:
  /// Adds a cluster for a chain or cycle event ("c1", "chain 1"; "y1",
  /// "cycle 1"); false for other events.
  bool Add(DotSink& graph, const Event& event);

 private:
  int chain_no_ = 0;
  int cycle_no_ = 0;
};

}  // namespace lockgraph
