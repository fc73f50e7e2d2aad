// What draws a wait-for graph cluster (src/emit/dot_events.h,
// snapshot_dot.h) writes to: a cgraph graph (DotGraph, for `--format dot`
// and the HTML report's drawings) or a recording of the same calls, kept
// until the cluster's number and late relation names are known
// (src/emit/dot_recipe.h).
#pragma once

#include <string>

namespace lockgraph {

/// Objects are opaque handles: a cgraph object, or a recording's index.
using DotObject = void*;

class DotSink {
 public:
  virtual ~DotSink() = default;
  /// A cluster subgraph named "cluster_<name>" with a (raw) label.
  virtual DotObject AddCluster(const std::string& name, const std::string& label) = 0;
  /// The node `id` of `cluster`, made if new; `label` must already be
  /// DotLabel()-safe (it may contain \l breaks).
  virtual DotObject AddNode(DotObject cluster, const std::string& id, const std::string& label) = 0;
  /// The node `id` of `cluster`, or null when it was not made.
  virtual DotObject FindNode(DotObject cluster, const std::string& id) = 0;
  /// A new edge; `label` is raw text.
  virtual DotObject AddEdge(DotObject cluster, DotObject from, DotObject to,
                            const std::string& label) = 0;
  virtual void SetAttr(DotObject object, const char* key, const std::string& value) = 0;
};

}  // namespace lockgraph
