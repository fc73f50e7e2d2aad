// See html_waits.h. The rows come chosen and ordered (html_events.h): by
// chain length, then by how long the waiter waited, then in log order.
#include "emit/html_waits.h"

#include <string>

#include "emit/html_escape.h"
#include "emit/time_text.h"
#include "emit/html_findings.h"

namespace lockgraph {
namespace {

std::string ChainHtml(const LockWait& w) {
  std::string chain;
  for (size_t i = 0; i < w.chain.size(); ++i)
    chain += (i ? " &rarr; " : "") + std::to_string(w.chain[i]);
  return chain.empty() ? HtmlText(w.waiter) : chain;
}

void WriteRow(const WaitRow& r, std::ostream& out) {
  const Event& ev = *r.event;
  const LockWait& w = *ev.lock_wait;
  out << "<tr><td>" << r.no << "</td><td>" << HtmlText(DisplayTime(ev)) << "<br><span class=\"muted\">"
      << WhereHtml(ev) << "</span></td><td>" << HtmlText(w.waiter) << "</td><td>"
      << (w.waited_ms ? MsText(*w.waited_ms) : "?") << "</td><td>" << HtmlText(w.mode) << " on "
      << HtmlText(w.lock.Label()) << "</td><td>" << WaitOutcomeName(w.outcome) << "</td>"
      << "<td class=\"chain\">" << ChainHtml(w) << "</td><td>";
  if (w.chain_is_cycle) out << "(a cycle)";
  else if (w.chain.size() > 1) out << "<b>" << w.chain.back() << "</b>";
  out << "</td><td><pre>" << HtmlText(w.statement) << "</pre>";
  WriteFindingsHtml(ev.findings, out);
  out << "</td></tr>\n";
}

}  // namespace

void WriteLockWaitsHtml(const std::vector<WaitRow>& rows, uint64_t lock_waits, std::ostream& out) {
  if (lock_waits == 0) {
    out << "<p class=\"muted\">No lock waits (the server logs them with "
           "<code>log_lock_waits = on</code>).</p>\n";
    return;
  }
  out << "<p>" << lock_waits << " lock waits; the " << rows.size()
      << " with the longest blocking chains:</p>\n"
      << "<table class=\"waits\"><tr><th>wait</th><th>since</th><th>waiter</th><th>waited</th>"
         "<th>lock</th><th>outcome</th><th>chain</th><th>root blocker</th><th>statement</th></tr>\n";
  for (const WaitRow& r : rows) WriteRow(r, out);
  out << "</table>\n";
}

}  // namespace lockgraph
