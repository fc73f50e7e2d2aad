// The top of the HTML report: counts, the chart over time, the largest
// deadlock groups, the rules that fired most, run-level findings; and the
// rule pages at the bottom that findings link to.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "emit/html_events.h"

namespace lockgraph {

/// The summary <section> of `report` and its `events` (finished);
/// `groups_listed` caps the table of largest groups.
void WriteSummaryHtml(const Report& report, const HtmlEvents& events, size_t groups_listed,
                      std::ostream& out);

/// Ids of every rule with a finding in `events` or `report`'s run-level
/// findings, sorted.
std::vector<std::string> FiredRules(const Report& report, const HtmlEvents& events);

/// One collapsed <details id="rule-PG001"> per rule in `ids` with its page
/// (embedded in the binary, as for `lockgraph explain`) as preformatted text.
void WriteRulePagesHtml(const std::vector<std::string>& ids, std::ostream& out);

}  // namespace lockgraph
