// See html_summary.h.
#include "emit/html_summary.h"

#include <algorithm>
#include <map>

#include "emit/html_escape.h"
#include "emit/html_findings.h"
#include "emit/html_group.h"
#include "rules/rule_docs.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

// The group's statements, each once with how many processes ran it, in
// the signature's order: "5 x update inventory ..." instead of five lines.
std::vector<std::pair<std::string, int>> DistinctStatements(const DeadlockGroup& g) {
  std::vector<std::pair<std::string, int>> out;
  for (const SignatureMember& m : g.members) {
    const std::string& text = m.statement.empty() ? m.shape : m.statement;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == text; });
    if (it == out.end()) out.push_back({text, 1});
    else ++it->second;
  }
  return out;
}

// Every input: its format (and frame), its lines, and what went wrong:
// poorly understood, or not read at all.
void WriteInputsTable(const Report& report, std::ostream& out) {
  out << "<table class=\"inputs\"><tr><th>input</th><th>format</th><th>lines read</th>"
         "<th>parsed</th><th>skipped</th><th>not understood</th><th>note</th></tr>\n";
  for (const InputInfo& in : report.inputs) {
    out << "<tr><td><code>" << HtmlText(in.file) << "</code></td><td>" << HtmlText(in.format);
    if (!in.framing.empty()) out << " in " << HtmlText(in.framing) << " frames";
    if (in.gzip) out << ", compressed";
    out << "</td><td>" << in.lines.total << "</td><td>" << in.lines.parsed << "</td><td>"
        << in.lines.skipped << "</td><td>" << in.lines.unparsed << "</td><td>";
    if (in.poorly_understood)
      out << "<span class=\"warn\">mostly not understood: the events may be incomplete</span>";
    out << "</td></tr>\n";
  }
  for (const FailedInput& f : report.failed_inputs)
    out << "<tr><td><code>" << HtmlText(f.file) << "</code></td><td colspan=\"5\"></td>"
        << "<td><span class=\"warn\">not read: " << HtmlText(f.error) << "</span></td></tr>\n";
  out << "</table>\n";
}

void WriteCounts(const Report& report, std::ostream& out) {
  const Summary& s = report.summary;
  out << "<div class=\"cards\">"
      << "<div class=\"card\"><span class=\"n\" id=\"count-deadlocks\">" << s.deadlocks
      << "</span> deadlocks</div>"
      << "<div class=\"card\"><span class=\"n\" id=\"count-groups\">" << report.groups.size()
      << "</span> deadlock groups</div>"
      << "<div class=\"card\"><span class=\"n\" id=\"count-waits\">" << s.lock_waits
      << "</span> lock waits</div>";
  if (s.deadlocks_incomplete)
    out << "<div class=\"card\"><span class=\"n\">" << s.deadlocks_incomplete
        << "</span> incomplete deadlock reports</div>";
  if (s.snapshots)
    out << "<div class=\"card\"><span class=\"n\">" << s.snapshots << "</span> pg_locks snapshots ("
        << Plural(s.chains, "blocking tree", "blocking trees") << ", "
        << Plural(s.cycles, "cycle", "cycles") << ")</div>";
  out << "</div>\n<p class=\"muted\">lines: " << s.lines.total << " read, " << s.lines.parsed
      << " parsed, " << s.lines.skipped << " skipped, " << s.lines.unparsed << " not understood.</p>\n";
  WriteInputsTable(report, out);
  for (const Diagnostic& d : report.diagnostics)
    if (d.severity == Diagnostic::Severity::kError)
      out << "<p class=\"warn\"><code>" << HtmlText(d.file) << "</code>: " << HtmlText(d.message)
          << "</p>\n";
}

void WriteTopGroups(const Report& report, size_t listed, std::ostream& out) {
  if (report.groups.empty()) return;
  out << "<h3>Largest deadlock groups</h3>\n<table class=\"top\"><tr><th>group</th>"
         "<th>deadlocks</th><th>statements</th><th>rules</th><th>last seen</th></tr>\n";
  for (size_t i = 0; i < report.groups.size() && i < listed; ++i) {
    const DeadlockGroup& g = report.groups[i];
    out << "<tr><td><a href=\"#" << HtmlId("group", g.signature) << "\">" << i + 1
        << "</a></td><td>" << g.count << "</td><td>";
    for (const auto& [statement, n] : DistinctStatements(g))
      out << (n > 1 ? std::to_string(n) + " &times; " : "") << "<code>" << HtmlText(statement)
          << "</code><br>";
    out << "</td><td>";
    for (size_t r = 0; r < g.rules.size(); ++r) out << (r ? ", " : "") << RuleLink(g.rules[r]);
    out << "</td><td>" << HtmlText(g.last_time) << "</td></tr>\n";
  }
  out << "</table>\n";
}

void WriteTopRules(const std::vector<RuleCount>& rules, std::ostream& out) {
  if (rules.empty()) return;
  out << "<h3>Rules that fired most</h3>\n<table class=\"top\"><tr><th>rule</th><th>name</th>"
         "<th>severity</th><th>findings</th></tr>\n";
  for (const RuleCount& r : rules)
    out << "<tr class=\"sev-" << SeverityName(r.severity) << "\"><td>" << RuleLink(r.id)
        << "</td><td>" << HtmlText(r.name) << "</td><td>" << SeverityName(r.severity)
        << "</td><td>" << r.findings << "</td></tr>\n";
  out << "</table>\n";
}

}  // namespace

void WriteSummaryHtml(const Report& report, const HtmlEvents& events, size_t groups_listed,
                      std::ostream& out) {
  out << "<section id=\"summary\">\n<h2>Summary</h2>\n";
  WriteCounts(report, out);
  out << "<h3>Deadlocks and lock waits over time</h3>\n<p class=\"legend\"><span "
         "class=\"key bar-deadlock\"></span> deadlocks <span class=\"key bar-wait\"></span> "
         "lock waits</p>\n"
      << events.chart().Svg() << "\n";
  WriteTopGroups(report, groups_listed, out);
  WriteTopRules(events.Rules(report.findings), out);
  if (!report.findings.empty()) {
    out << "<h3>Findings about the whole run</h3>\n";
    WriteFindingsHtml(report.findings, out);
  }
  out << "</section>\n";
}

std::vector<std::string> FiredRules(const Report& report, const HtmlEvents& events) {
  std::vector<std::string> ids;
  for (const RuleCount& r : events.Rules(report.findings)) ids.push_back(r.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

void WriteRulePagesHtml(const std::vector<std::string>& ids, std::ostream& out) {
  if (ids.empty()) return;
  out << "<section id=\"rules\">\n<h2>Rule pages</h2>\n<p class=\"muted\">The same pages as "
         "<code>lockgraph explain ID</code>.</p>\n";
  for (const std::string& id : ids) {
    std::string_view page = RuleDoc(id);
    out << "<details class=\"rulepage\" id=\"" << HtmlId("rule", id) << "\"><summary>"
        << HtmlText(id) << "</summary><pre>"
        << (page.empty() ? std::string("(no page in this build)") : HtmlText(page))
        << "</pre></details>\n";
  }
  out << "</section>\n";
}

}  // namespace lockgraph
