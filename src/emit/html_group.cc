// See html_group.h. Occurrences past the first few (html_emitter.cc) are
// only counted, so a group of 10,000 deadlocks stays a few kilobytes.
#include "emit/html_group.h"

#include <map>

#include "emit/deadlock_text.h"
#include "emit/dot_events.h"
#include "emit/html_escape.h"
#include "emit/time_text.h"
#include "emit/html_findings.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

void WriteGraph(const Event& ev, int deadlock_no, int group_no,
                SvgRenderer* svg, std::ostream& out) {
  if (!svg) {
    out << "<p class=\"muted\">Graph not drawn (only the largest groups are; "
           "<code>--format dot</code> has every graph).</p>\n";
    return;
  }
  DotGraph graph;
  std::string no = std::to_string(deadlock_no);
  AddDeadlockCluster(graph, ev, "d" + no, "deadlock " + no);
  std::string id = "g";  // not "g" + to_string(): GCC 12 warns falsely (-Wrestrict)
  id += std::to_string(group_no);
  std::string drawn = svg->Render(graph, id);
  if (drawn.empty()) out << "<p class=\"muted\">Graphviz could not draw this graph.</p>\n";
  else out << "<div class=\"drawn\" title=\"click: full size / fit\">" << drawn << "</div>\n";
}

void WriteParticipants(const Event& ev, std::ostream& out) {
  const Deadlock& d = *ev.deadlock;
  out << "<table class=\"procs\"><tr><th>process</th><th>session</th><th>statement</th></tr>\n";
  for (const Participant& p : d.processes) {
    bool victim = IsVictim(d, p.id);
    std::string name = p.spid ? SpidName(p) : p.id;
    SessionInfo session = p.session;
    if (victim && session.Empty()) session = ev.session;
    out << "<tr" << (victim ? " class=\"victim\"" : "") << "><td>" << HtmlText(name)
        << (victim ? " <span class=\"tag\">victim</span>" : "") << "</td><td>"
        << WhoHtml(session) << "</td><td><pre>" << HtmlText(p.query)
        << (p.query_clipped ? " [clipped]" : "") << "</pre></td></tr>\n";
  }
  out << "</table>\n";
}

void WriteExample(const Event& ev, int deadlock_no, std::ostream& out) {
  const Deadlock& d = *ev.deadlock;
  out << "<p>Victim: <b>" << HtmlText(VictimsText(d)) << "</b>";
  std::string who = WhoHtml(ev.session);
  if (!who.empty()) out << " (" << who << ")";
  out << "</p>\n<ul class=\"edges\">";
  for (const WaitEdge& e : d.edges)
    out << "<li>" << HtmlText(e.waiter) << " waits for <b>" << HtmlText(e.mode) << "</b> on "
        << HtmlText(e.lock.Label()) << ", blocked by " << HtmlText(e.blocker)
        << HtmlText(EdgeSuffix(e)) << "</li>";
  out << "</ul>\n";
  for (const std::string& p : d.problems) out << "<p class=\"problem\">" << HtmlText(p) << "</p>\n";
  WriteParticipants(ev, out);
  for (const ContextFrame& f : d.context)
    out << "<p class=\"context\">context: <code>" << HtmlText(f.text) << "</code></p>\n";
  if (!d.statement.empty() && (d.processes.empty() || d.statement != d.processes.front().query))
    out << "<p>statement:</p><pre>" << HtmlText(d.statement) << "</pre>\n";
  WriteFindingsHtml(ev.findings, out);
}

void WriteOccurrences(const GroupOccurrences& occ, std::ostream& out) {
  if (occ.count < 2) return;
  out << "<h4>Occurrences</h4>\n<table class=\"occ\"><tr><th>deadlock</th><th>time</th>"
         "<th>source</th><th>victim</th></tr>\n";
  for (const GroupOccurrences::Row& r : occ.rows)
    out << "<tr><td>" << r.deadlock_no << "</td><td>" << r.time << "</td><td>" << r.where
        << "</td><td>" << r.victims << "</td></tr>\n";
  out << "</table>\n";
  if (occ.count > occ.rows.size())
    out << "<p class=\"muted\">and " << occ.count - occ.rows.size() << " more</p>\n";
}

}  // namespace

std::string GroupTitle(const DeadlockGroup& g, int group_no) {
  return "Group " + std::to_string(group_no) + ": " + Plural(g.count, "deadlock", "deadlocks") +
         " of " + Plural(g.members.size(), "process", "processes");
}

void WriteGroupHtml(const DeadlockGroup& g, int group_no, const GroupOccurrences& occurrences,
                    SvgRenderer* svg, std::ostream& out) {
  out << "<details class=\"group\" id=\"" << HtmlId("group", g.signature) << "\">\n<summary>"
      << "<span class=\"count\">" << g.count << "&times;</span> "
      << HtmlText(GroupTitle(g, group_no)) << " <code>" << HtmlText(g.signature) << "</code>";
  for (const std::string& r : g.rules) out << " <span class=\"badge\">" << HtmlText(r) << "</span>";
  out << "</summary>\n<div class=\"body\">\n<dl>"
      << "<dt>first seen</dt><dd>" << HtmlText(g.first_time) << " (" << WhereHtml(g.first_source)
      << ")</dd><dt>last seen</dt><dd>" << HtmlText(g.last_time) << " ("
      << WhereHtml(g.last_source) << ")</dd>";
  if (!g.rules.empty()) {
    out << "<dt>rules</dt><dd>";
    for (size_t i = 0; i < g.rules.size(); ++i) out << (i ? ", " : "") << RuleLink(g.rules[i]);
    out << "</dd>";
  }
  out << "</dl>\n<h4>Statements of the signature</h4>\n<ol class=\"members\">";
  for (const SignatureMember& m : g.members)
    out << "<li><code>" << HtmlText(m.statement.empty() ? m.shape : m.statement)
        << "</code> <span class=\"muted\">waits for " << HtmlText(m.wait) << "</span></li>";
  out << "</ol>\n";
  if (occurrences.example && !occurrences.rows.empty()) {
    const Event& first = *occurrences.example;
    const int no = occurrences.rows.front().deadlock_no;
    out << "<h4>Example: deadlock " << no << " at " << HtmlText(first.time) << " ("
        << WhereHtml(first.source) << ")</h4>\n";
    WriteGraph(first, no, group_no, svg, out);
    WriteExample(first, no, out);
  }
  WriteOccurrences(occurrences, out);
  out << "</div>\n</details>\n";
}

void WriteCausesHtml(const std::vector<DeadlockCause>& causes,
                     const std::vector<DeadlockGroup>& groups, std::ostream& out) {
  if (causes.empty()) return;
  std::map<std::string, std::pair<int, uint64_t>> group_no;  // signature -> number, count
  for (size_t i = 0; i < groups.size(); ++i)
    group_no[groups[i].signature] = {int(i + 1), groups[i].count};
  out << "<h3>Causes</h3>\n<p class=\"muted\">" << Plural(causes.size(), "cause", "causes")
      << ": the rule and the statements, whatever the length or order of the cycle; each "
         "shape is a group below.</p>\n<table class=\"causes\">\n<tr><th>deadlocks</th><th>rule"
         "</th><th>statements</th><th>shapes</th></tr>\n";
  for (const DeadlockCause& c : causes) {
    out << "<tr id=\"" << HtmlId("cause", c.id) << "\"><td>" << c.count << "</td><td>"
        << (c.rule.empty() ? std::string("none") : RuleLink(c.rule)) << "</td><td>";
    for (const std::string& st : c.statements)
      out << "<code>" << HtmlText(st.empty() ? "(not in the log)" : st) << "</code><br>";
    out << "</td><td>";
    for (size_t i = 0; i < c.signatures.size(); ++i) {
      auto it = group_no.find(c.signatures[i]);
      out << (i ? ", " : "") << "<a href=\"#" << HtmlId("group", c.signatures[i]) << "\">"
          << (it == group_no.end() ? HtmlText(c.signatures[i])
                                   : "group " + std::to_string(it->second.first) + " (" +
                                         std::to_string(it->second.second) + "&times;)")
          << "</a>";
    }
    out << "</td></tr>\n";
  }
  out << "</table>\n";
}

}  // namespace lockgraph
