// See snapshot_dot.h. An idle-in-transaction root blocker is filled orange;
// other root blockers get a bold border; derived edges are dashed.
#include "emit/snapshot_dot.h"

#include <graphviz/cgraph.h>

#include <map>
#include <string>

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

void AddEdges(Agraph_t* sub, const std::string& prefix, const std::vector<WaitEdge>& edges,
              std::map<std::string, Agnode_t*>& nodes) {
  for (const WaitEdge& e : edges) {
    Agnode_t*& from = nodes[e.waiter];
    Agnode_t*& to = nodes[e.blocker];
    // A blocker outside the tree or cycle is drawn with its id only.
    if (!from) from = DotGraph::Node(sub, prefix + "_pid_" + e.waiter, DotLabel("pid " + e.waiter));
    if (!to) to = DotGraph::Node(sub, prefix + "_pid_" + e.blocker, DotLabel("pid " + e.blocker));
    Agedge_t* edge = DotGraph::Edge(sub, from, to,
                                    e.mode + " on " + e.lock.Label() + " (" + EdgeBasisName(e.basis) + ")");
    if (e.derived) DotGraph::Set(edge, "style", "dashed");
  }
}

// " at TIME", or nothing when the snapshot carries no time.
std::string At(const Event& ev) { return ev.time.empty() ? "" : " at " + ev.time; }

}  // namespace

bool SnapshotDot::Add(DotGraph& graph, const Event& ev) {
  std::map<std::string, Agnode_t*> nodes;
  if (ev.chain && !ev.chain->members.empty()) {
    const BlockingTree& t = *ev.chain;
    std::string prefix = "c" + std::to_string(++chain_no_);
    Agraph_t* sub = graph.Cluster(prefix, "chain " + std::to_string(chain_no_) + At(ev));
    for (size_t i = 0; i < t.members.size(); ++i) {
      const Backend& b = t.members[i].backend;
      Agnode_t* n = DotGraph::Node(sub, prefix + "_pid_" + b.id, NodeLabel(b, i == 0 ? "(root blocker)" : ""));
      nodes[b.id] = n;
      if (i != 0) continue;
      DotGraph::Set(n, "penwidth", "2");
      if (SnapshotText::IdleInTransaction(b)) {
        DotGraph::Set(n, "style", "filled");
        DotGraph::Set(n, "fillcolor", "orange");
      }
    }
    AddEdges(sub, prefix, t.edges, nodes);
    return true;
  }
  if (ev.cycle && !ev.cycle->members.empty()) {
    const WaitCycle& c = *ev.cycle;
    std::string prefix = "y" + std::to_string(++cycle_no_);
    Agraph_t* sub = graph.Cluster(prefix, "cycle " + std::to_string(cycle_no_) + At(ev));
    for (const Backend& b : c.members) {
      Agnode_t* n = DotGraph::Node(sub, prefix + "_pid_" + b.id, NodeLabel(b, ""));
      DotGraph::Set(n, "color", "red");
      nodes[b.id] = n;
    }
    AddEdges(sub, prefix, c.edges, nodes);
    return true;
  }
  return false;
}

}  // namespace lockgraph
