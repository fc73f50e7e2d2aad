// See html_findings.h.
#include "emit/html_findings.h"

#include <cstdio>

#include "emit/html_escape.h"

namespace lockgraph {

std::string RuleLink(const std::string& rule_id) {
  return "<a class=\"rule\" href=\"#" + HtmlId("rule", rule_id) + "\">" + HtmlText(rule_id) +
         "</a>";
}

void WriteFindingsHtml(const std::vector<Finding>& findings, std::ostream& out) {
  if (findings.empty()) return;
  out << "<ul class=\"findings\">\n";
  for (const Finding& f : findings) {
    const char* sev = SeverityName(f.severity);
    out << "<li class=\"sev-" << sev << "\">" << RuleLink(f.rule_id) << " <span class=\"sev\">"
        << sev << "</span> <b>" << HtmlText(f.rule_name) << "</b>: " << HtmlText(f.message);
    if (!f.hint.empty()) out << "<div class=\"hint\">hint: " << HtmlText(f.hint) << "</div>";
    if (!f.evidence.empty()) {
      out << "<details class=\"evidence\"><summary>evidence</summary><ul>";
      for (const std::string& e : f.evidence) out << "<li>" << HtmlText(e) << "</li>";
      out << "</ul></details>";
    }
    out << "</li>\n";
  }
  out << "</ul>\n";
}

std::string WhereHtml(const SourceSpan& s) {
  std::string where = s.file + ":" + std::to_string(s.first_line);
  if (s.last_line > s.first_line) where += "-" + std::to_string(s.last_line);
  return HtmlText(where);
}

std::string WhereHtml(const Event& ev) {
  std::string where = WhereHtml(ev.source);
  if (!ev.server.empty()) where += "<br><span class=\"muted\">server " + HtmlText(ev.server) + "</span>";
  return where;
}

std::string WhoHtml(const SessionInfo& s) {
  std::string who;
  if (!s.user.empty() || !s.database.empty())
    who = s.user + (s.database.empty() ? "" : "@" + s.database);
  if (!s.application.empty()) who += (who.empty() ? "" : ", ") + std::string("app ") + s.application;
  if (!s.host.empty()) who += (who.empty() ? "" : ", ") + std::string("from ") + s.host;
  return HtmlText(who);
}

std::string MsText(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", ms);
  return buf;
}

}  // namespace lockgraph
