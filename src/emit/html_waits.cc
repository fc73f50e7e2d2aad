// See html_waits.h. Ordered by chain length, then by how long the waiter
// waited, then in log order: the deepest pile-ups first, deterministically.
#include "emit/html_waits.h"

#include <algorithm>
#include <string>

#include "emit/html_escape.h"
#include "emit/time_text.h"
#include "emit/html_findings.h"

namespace lockgraph {
namespace {

struct Row {
  int no = 0;  // lock wait number in log order, as in the text output
  const Event* event = nullptr;
};

bool Before(const Row& a, const Row& b) {
  const LockWait& x = *a.event->lock_wait;
  const LockWait& y = *b.event->lock_wait;
  if (x.chain.size() != y.chain.size()) return x.chain.size() > y.chain.size();
  double wx = x.waited_ms.value_or(-1), wy = y.waited_ms.value_or(-1);
  if (wx != wy) return wx > wy;
  return a.no < b.no;
}

std::string ChainHtml(const LockWait& w) {
  std::string chain;
  for (size_t i = 0; i < w.chain.size(); ++i)
    chain += (i ? " &rarr; " : "") + std::to_string(w.chain[i]);
  return chain.empty() ? HtmlText(w.waiter) : chain;
}

void WriteRow(const Row& r, std::ostream& out) {
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

void WriteLockWaitsHtml(const std::vector<Event>& events, size_t max_rows, std::ostream& out) {
  std::vector<Row> rows;
  int no = 0;
  for (const Event& ev : events)
    if (ev.lock_wait) rows.push_back({++no, &ev});
  if (rows.empty()) {
    out << "<p class=\"muted\">No lock waits (the server logs them with "
           "<code>log_lock_waits = on</code>).</p>\n";
    return;
  }
  std::sort(rows.begin(), rows.end(), Before);
  size_t shown = std::min(rows.size(), max_rows);
  out << "<p>" << rows.size() << " lock waits; the " << shown
      << " with the longest blocking chains:</p>\n"
      << "<table class=\"waits\"><tr><th>wait</th><th>since</th><th>waiter</th><th>waited</th>"
         "<th>lock</th><th>outcome</th><th>chain</th><th>root blocker</th><th>statement</th></tr>\n";
  for (size_t i = 0; i < shown; ++i) WriteRow(rows[i], out);
  out << "</table>\n";
}

}  // namespace lockgraph
