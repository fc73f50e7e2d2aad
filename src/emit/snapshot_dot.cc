// See snapshot_dot.h. An idle-in-transaction root blocker is filled orange;
// other root blockers get a bold border; derived edges are dashed.
#include "emit/snapshot_dot.h"

#include <map>
#include <string>

#include "emit/dot_graph.h"
#include "emit/snapshot_text.h"

namespace lockgraph {
namespace {

std::string NodeLabel(const Backend& b, const char* role) {
  std::string head = "pid " + b.id + (*role ? std::string(" ") + role : "");
  std::string label = DotLabel(head) + "\\l";
  if (!b.state.empty()) label += DotLabel(b.state) + "\\l";
  if (!b.query.empty()) label += DotLabel(b.query, 120) + "\\l";
  return label;
}

void AddEdges(DotSink& graph, DotObject sub, const std::string& prefix,
              const std::vector<WaitEdge>& edges, std::map<std::string, DotObject>& nodes) {
  for (const WaitEdge& e : edges) {
    DotObject& from = nodes[e.waiter];
    DotObject& to = nodes[e.blocker];
    // A blocker outside the tree or cycle is drawn with its id only.
    if (!from) from = graph.AddNode(sub, prefix + "_pid_" + e.waiter, DotLabel("pid " + e.waiter));
    if (!to) to = graph.AddNode(sub, prefix + "_pid_" + e.blocker, DotLabel("pid " + e.blocker));
    DotObject edge = graph.AddEdge(sub, from, to,
                                   e.mode + " on " + e.lock.Label() + " (" + EdgeBasisName(e.basis) + ")");
    if (e.derived) graph.SetAttr(edge, "style", "dashed");
  }
}

// " at TIME", or nothing when the snapshot carries no time.
std::string At(const Event& ev) { return ev.time.empty() ? "" : " at " + ev.time; }

}  // namespace

SnapshotClusterKind SnapshotClusterOf(const Event& ev) {
  if (ev.chain && !ev.chain->members.empty()) return SnapshotClusterKind::kChain;
  if (ev.cycle && !ev.cycle->members.empty()) return SnapshotClusterKind::kCycle;
  return SnapshotClusterKind::kNone;
}

void AddSnapshotCluster(DotSink& graph, const Event& ev, const std::string& prefix,
                        const std::string& title) {
  std::map<std::string, DotObject> nodes;
  const SnapshotClusterKind kind = SnapshotClusterOf(ev);
  if (kind == SnapshotClusterKind::kNone) return;
  DotObject sub = graph.AddCluster(prefix, title + At(ev));
  if (kind == SnapshotClusterKind::kChain) {
    const BlockingTree& t = *ev.chain;
    for (size_t i = 0; i < t.members.size(); ++i) {
      const Backend& b = t.members[i].backend;
      DotObject n = graph.AddNode(sub, prefix + "_pid_" + b.id, NodeLabel(b, i == 0 ? "(root blocker)" : ""));
      nodes[b.id] = n;
      if (i != 0) continue;
      graph.SetAttr(n, "penwidth", "2");
      if (SnapshotText::IdleInTransaction(b)) {
        graph.SetAttr(n, "style", "filled");
        graph.SetAttr(n, "fillcolor", "orange");
      }
    }
    AddEdges(graph, sub, prefix, t.edges, nodes);
    return;
  }
  const WaitCycle& c = *ev.cycle;
  for (const Backend& b : c.members) {
    DotObject n = graph.AddNode(sub, prefix + "_pid_" + b.id, NodeLabel(b, ""));
    graph.SetAttr(n, "color", "red");
    nodes[b.id] = n;
  }
  AddEdges(graph, sub, prefix, c.edges, nodes);
}

bool SnapshotDot::Add(DotSink& graph, const Event& ev) {
  const SnapshotClusterKind kind = SnapshotClusterOf(ev);
  if (kind == SnapshotClusterKind::kNone) return false;
  const bool chain = kind == SnapshotClusterKind::kChain;
  const std::string no = std::to_string(chain ? ++chain_no_ : ++cycle_no_);
  AddSnapshotCluster(graph, ev, (chain ? "c" : "y") + no, (chain ? "chain " : "cycle ") + no);
  return true;
}

}  // namespace lockgraph
