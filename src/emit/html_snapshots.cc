// See html_snapshots.h. The events of one snapshot come together: the
// snapshot first, then its cycles and chains (parsers/postgresql/pg_snapshot).
#include "emit/html_snapshots.h"

#include <string>

#include "emit/html_escape.h"
#include "emit/time_text.h"
#include "emit/snapshot_dot.h"
#include "emit/snapshot_text.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

std::string Age(const std::optional<double>& ms) {
  return ms ? SnapshotText::Duration(*ms) : std::string();
}

std::string Where(const Event& ev) {
  if (!ev.server.empty() && ev.source.file.empty()) return HtmlText(ev.server);
  std::string where = HtmlText(ev.source.file) + ":" + std::to_string(ev.source.first_line) + "-" +
                      std::to_string(ev.source.last_line);
  if (!ev.server.empty()) where += ", server " + HtmlText(ev.server);  // several servers' snapshots
  return where;
}

// "root blocker 4211 (app, user): idle in transaction for 2 min, transaction
// open 2 min 10 s" with the flag, then its (last) query.
void WriteRoot(const Backend& root, std::ostream& out) {
  const bool idle = SnapshotText::IdleInTransaction(root);
  out << "<p><b>root blocker " << HtmlText(root.id) << "</b>";
  if (idle) out << " <span class=\"tag\">idle in transaction</span>";
  if (!root.state.empty()) {
    out << ": " << HtmlText(root.state);
    if (root.state_age_ms) out << " for " << Age(root.state_age_ms);
  }
  if (root.xact_age_ms) out << ", transaction open " << Age(root.xact_age_ms);
  if (idle)
    out << " <span class=\"warn\">(it holds its locks while the application does something "
           "else: commit sooner, or set idle_in_transaction_session_timeout)</span>";
  out << "</p>\n";
  if (!root.query.empty())
    out << "<p>" << (idle ? "last query" : "query") << ": <code>" << HtmlText(root.query) << "</code></p>\n";
}

void WriteMembers(const std::vector<const Backend*>& members, const std::vector<uint32_t>& depth,
                  std::ostream& out) {
  out << "<table><tr><th>process</th><th>state</th><th>waits for</th><th>waiting</th>"
         "<th>query</th></tr>\n";
  for (size_t i = 0; i < members.size(); ++i) {
    const Backend& b = *members[i];
    std::string indent;
    for (uint32_t d = 0; d < (i < depth.size() ? depth[i] : 0); ++d) indent += "&nbsp;&nbsp;";
    out << "<tr><td>" << indent << HtmlText(b.id) << "</td><td>" << HtmlText(b.state) << "</td><td>";
    if (!b.wait_mode.empty()) out << HtmlText(b.wait_mode) << " on " << HtmlText(b.wait_lock.Label());
    out << "</td><td>" << Age(b.wait_age_ms) << "</td><td><code>" << HtmlText(b.query)
        << "</code></td></tr>\n";
  }
  out << "</table>\n";
}

void WriteDrawn(const Event& ev, SvgRenderer* svg, const std::string& id, std::ostream& out) {
  if (!svg) return;
  DotGraph graph;
  SnapshotDot dot;
  if (!dot.Add(graph, ev)) return;
  std::string drawn = svg->Render(graph, id);
  if (drawn.empty()) out << "<p class=\"muted\">Graphviz could not draw this graph.</p>\n";
  else out << "<div class=\"drawn\" title=\"click: full size / fit\">" << drawn << "</div>\n";
}

void WriteChain(const Event& ev, int no, SvgRenderer* svg, std::ostream& out) {
  const BlockingTree& t = *ev.chain;
  out << "<h4 id=\"live-chain-" << no << "\">Blocking tree " << no << " ("
      << Plural(t.members.size() - 1, "waiter", "waiters") << ")</h4>\n";
  WriteRoot(t.members.front().backend, out);
  WriteDrawn(ev, svg, "lc" + std::to_string(no), out);
  std::vector<const Backend*> members;
  std::vector<uint32_t> depth;
  for (const BlockingTree::Member& m : t.members) members.push_back(&m.backend), depth.push_back(m.depth);
  WriteMembers(members, depth, out);
}

void WriteCycle(const Event& ev, int no, SvgRenderer* svg, std::ostream& out) {
  const WaitCycle& c = *ev.cycle;
  std::string ring;
  for (const Backend& b : c.members) ring += HtmlText(b.id) + " &rarr; ";
  ring += HtmlText(c.members.front().id);
  out << "<h4 id=\"live-cycle-" << no << "\">Cycle " << no << ": " << ring
      << " <span class=\"badge\">not broken by the server yet</span></h4>\n";
  WriteDrawn(ev, svg, "ly" + std::to_string(no), out);
  std::vector<const Backend*> members;
  for (const Backend& b : c.members) members.push_back(&b);
  WriteMembers(members, {}, out);
}

}  // namespace

void WriteSnapshotsHtml(const std::vector<Event>& events, SvgRenderer& svg, size_t drawn_max,
                        std::ostream& out) {
  bool any = false;
  for (const Event& ev : events) any = any || ev.snapshot.has_value();
  if (!any) return;
  out << "<section id=\"live\">\n<h2>Live locks (pg_locks snapshots)</h2>\n";
  int snapshot_no = 0, chain_no = 0, cycle_no = 0;
  size_t drawn = 0;
  for (const Event& ev : events) {
    if (ev.snapshot) {
      const SnapshotInfo& s = *ev.snapshot;
      out << "<h3>Snapshot " << ++snapshot_no << (ev.time.empty() ? "" : " at " + HtmlText(DisplayTime(ev)))
          << " <span class=\"muted\">(" << Where(ev) << ")</span></h3>\n<p>"
          << Plural(s.backends, "process", "processes") << ", " << s.waiting << " waiting: "
          << Plural(s.chains, "blocking tree", "blocking trees") << ", "
          << Plural(s.cycles, "cycle", "cycles")
          << (s.blocking == "pg_blocking_pids" ? " (blockers from pg_blocking_pids)"
                                               : " (blockers derived from the conflict matrix)")
          << ".</p>\n";
    } else if (ev.cycle && !ev.cycle->members.empty()) {
      WriteCycle(ev, ++cycle_no, drawn++ < drawn_max ? &svg : nullptr, out);
    } else if (ev.chain && !ev.chain->members.empty()) {
      WriteChain(ev, ++chain_no, drawn++ < drawn_max ? &svg : nullptr, out);
    }
  }
  out << "</section>\n";
}

}  // namespace lockgraph
