// See html_snapshots.h. The events of one snapshot come together: the
// snapshot first, then its cycles and chains (parsers/postgresql/pg_snapshot).
// A piece is PackFields(kind, drawing recipe, HTML) where the HTML has
// kNumber for the event's number and kDrawing for its drawing; HtmlText
// never writes either byte (it shows control characters as text).
#include "emit/html_snapshots.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "emit/dot_graph.h"
#include "emit/dot_recipe.h"
#include "emit/hole_text.h"
#include "emit/html_escape.h"
#include "emit/time_text.h"
#include "emit/snapshot_dot.h"
#include "emit/snapshot_text.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

constexpr char kNumber = '\x01';
constexpr char kDrawing = '\x02';

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

void WriteChain(const Event& ev, std::ostream& out) {
  const BlockingTree& t = *ev.chain;
  out << "<h4 id=\"live-chain-" << kNumber << "\">Blocking tree " << kNumber << " ("
      << Plural(t.members.size() - 1, "waiter", "waiters") << ")</h4>\n";
  WriteRoot(t.members.front().backend, out);
  out << kDrawing;
  std::vector<const Backend*> members;
  std::vector<uint32_t> depth;
  for (const BlockingTree::Member& m : t.members) members.push_back(&m.backend), depth.push_back(m.depth);
  WriteMembers(members, depth, out);
}

void WriteCycle(const Event& ev, std::ostream& out) {
  const WaitCycle& c = *ev.cycle;
  std::string ring;
  for (const Backend& b : c.members) ring += HtmlText(b.id) + " &rarr; ";
  ring += HtmlText(c.members.front().id);
  out << "<h4 id=\"live-cycle-" << kNumber << "\">Cycle " << kNumber << ": " << ring
      << " <span class=\"badge\">not broken by the server yet</span></h4>\n";
  out << kDrawing;
  std::vector<const Backend*> members;
  for (const Backend& b : c.members) members.push_back(&b);
  WriteMembers(members, {}, out);
}

}  // namespace

std::string SnapshotHtmlPiece(const Event& ev) {
  std::ostringstream out;
  std::string recipe;
  char kind = 0;
  if (ev.snapshot) {
    kind = 's';
    const SnapshotInfo& s = *ev.snapshot;
    out << "<h3>Snapshot " << kNumber << (ev.time.empty() ? "" : " at " + HtmlText(DisplayTime(ev)))
        << " <span class=\"muted\">(" << Where(ev) << ")</span></h3>\n<p>"
        << Plural(s.backends, "process", "processes") << ", " << s.waiting << " waiting: "
        << Plural(s.chains, "blocking tree", "blocking trees") << ", "
        << Plural(s.cycles, "cycle", "cycles")
        << (s.blocking == "pg_blocking_pids" ? " (blockers from pg_blocking_pids)"
                                             : " (blockers derived from the conflict matrix)")
        << ".</p>\n";
  } else if (SnapshotClusterOf(ev) != SnapshotClusterKind::kNone) {
    // Drawn as on its own: the first chain or cycle of a graph.
    const bool chain = SnapshotClusterOf(ev) == SnapshotClusterKind::kChain;
    kind = chain ? 'c' : 'y';
    DotRecipe drawing(chain ? "c1" : "y1", chain ? "chain 1" : "cycle 1");
    AddSnapshotCluster(drawing, ev, chain ? "c1" : "y1", chain ? "chain 1" : "cycle 1");
    recipe = drawing.packed();
    if (chain) WriteChain(ev, out);
    else WriteCycle(ev, out);
  } else {
    return {};
  }
  return PackFields({std::string(1, kind), recipe, out.str()});
}

SnapshotsHtml::SnapshotsHtml(SvgRenderer& svg, size_t drawn_max, std::ostream& out)
    : svg_(svg), drawn_max_(drawn_max), out_(out) {
  out_ << "<section id=\"live\">\n<h2>Live locks (pg_locks snapshots)</h2>\n";
}

SnapshotsHtml::~SnapshotsHtml() { out_ << "</section>\n"; }

bool SnapshotsHtml::Write(std::string_view piece) {
  std::vector<std::string_view> f = UnpackFields(piece);
  if (f.size() != 3 || f[0].size() != 1) return false;
  const char kind = f[0][0];
  int& counter = kind == 's' ? snapshot_no_ : kind == 'c' ? chain_no_ : cycle_no_;
  const std::string no = std::to_string(++counter);
  const bool draw = kind != 's' && drawn_++ < drawn_max_;
  const std::string_view html = f[2];
  for (size_t at = 0; at < html.size();) {
    const size_t mark = std::min(html.find_first_of("\x01\x02", at), html.size());
    out_.write(html.data() + at, std::streamsize(mark - at));
    if (mark == html.size()) break;
    at = mark + 1;
    if (html[mark] == kNumber) {
      out_ << no;
    } else if (draw) {
      DotGraph graph;
      const bool chain = kind == 'c';
      if (!ReplayDotRecipe(f[1], chain ? "c1" : "y1", chain ? "chain 1" : "cycle 1",
                           [](std::string_view) { return std::string(); }, graph))
        return false;
      std::string drawn = svg_.Render(graph, (chain ? "lc" : "ly") + no);
      if (drawn.empty()) out_ << "<p class=\"muted\">Graphviz could not draw this graph.</p>\n";
      else out_ << "<div class=\"drawn\" title=\"click: full size / fit\">" << drawn << "</div>\n";
    }
  }
  return true;
}

}  // namespace lockgraph
