// See dot_events.h.
#include "emit/dot_events.h"

#include "emit/deadlock_text.h"

namespace lockgraph {
namespace {

// The note a cluster carries about its event's findings: one line per
// finding, "PG001 error inconsistent-row-lock-order".
std::string FindingNote(const Event& ev) {
  std::string note;
  for (const Finding& f : ev.findings)
    note += "\n" + f.rule_id + " " + SeverityName(f.severity) + " " + f.rule_name;
  return note;
}

// The colour of an event's edges: that of its most severe finding.
const char* FindingColor(const Event& ev) {
  const char* color = nullptr;
  for (const Finding& f : ev.findings) {
    if (f.severity == Severity::kError) return "red";
    if (f.severity == Severity::kWarning) color = "darkorange";
    else if (!color) color = "blue";
  }
  return color;
}

// " at TIME", or nothing when the record carries no time (no %t or %m).
std::string At(const std::string& time) { return time.empty() ? "" : " at " + time; }

}  // namespace

void AddDeadlockCluster(DotSink& graph, const Event& ev, const std::string& prefix,
                        const std::string& title) {
  const Deadlock& d = *ev.deadlock;
  DotObject sub = graph.AddCluster(
      prefix, title + At(ev.time) + (d.complete ? "" : " (incomplete)") + FindingNote(ev));
  const char* color = FindingColor(ev);
  auto node_of = [&](const std::string& id) {
    std::string query, name = "pid " + id;
    for (const Participant& p : d.processes)
      if (p.id == id) {
        query = p.query;
        if (p.spid) name = SpidName(p);
      }
    std::string label = DotLabel(name + (IsVictim(d, id) ? " (victim)" : "")) + "\\l" +
                        DotLabel(query) + "\\l";
    DotObject n = graph.AddNode(sub, prefix + "_pid_" + id, label);
    if (IsVictim(d, id)) {
      graph.SetAttr(n, "color", "red");
      graph.SetAttr(n, "penwidth", "2");
    }
    return n;
  };
  // Each edge's blocker is made before its waiter: the order of the nodes
  // (and so of the text) --format dot has always had.
  for (const WaitEdge& e : d.edges) {
    DotObject to = node_of(e.blocker);
    DotObject from = node_of(e.waiter);
    DotObject edge = graph.AddEdge(sub, from, to, e.mode + " on " + e.lock.Label());
    graph.SetAttr(edge, "tooltip", DotLabel(e.lock.text));
    if (color) graph.SetAttr(edge, "color", color);
  }
  for (const WaitEdge& e : d.other_edges) {  // waits off the cycle
    DotObject to = node_of(e.blocker);
    DotObject from = node_of(e.waiter);
    DotObject edge = graph.AddEdge(sub, from, to, e.mode + " on " + e.lock.Label());
    graph.SetAttr(edge, "style", "dashed");
  }
}

void AddWaitCluster(DotSink& graph, const Event& ev, const std::string& prefix,
                    const std::string& title) {
  const LockWait& w = *ev.lock_wait;
  if (w.chain.size() < 2) return;
  DotObject sub = graph.AddCluster(
      prefix, title + At(w.start_time) + ": " + WaitOutcomeName(w.outcome) + FindingNote(ev));
  const char* color = FindingColor(ev);
  DotObject prev = nullptr;
  for (size_t i = 0; i < w.chain.size(); ++i) {
    std::string pid = std::to_string(w.chain[i]);
    std::string label = "pid " + pid;
    if (i == 0 && !w.statement.empty()) label += "\\l" + DotLabel(w.statement);
    if (i + 1 == w.chain.size() && !w.chain_is_cycle) label += "\\l(root blocker)";
    std::string id = prefix + "_pid_" + pid;
    // The repeated last member of a cycle is the node drawn already.
    DotObject n = graph.FindNode(sub, id);
    if (!n) n = graph.AddNode(sub, id, label + "\\l");
    if (prev) {
      DotObject edge =
          graph.AddEdge(sub, prev, n, i == 1 ? w.mode + " on " + w.lock.Label() : "waits");
      if (color) graph.SetAttr(edge, "color", color);
    }
    prev = n;
  }
}

}  // namespace lockgraph
