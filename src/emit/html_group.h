// One deadlock group of the HTML report as a collapsed <details>: count,
// first and last seen, the signature's statements, and its first deadlock
// in full: the wait-for graph drawn as SVG, every participant's statement,
// the victim, the findings with their hints; then the other occurrences.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "analysis/deadlock_groups.h"
#include "emit/html_events.h"
#include "emit/html_svg.h"
#include "model/event.h"

namespace lockgraph {

/// Writes group number `group_no` (1 = largest). `occurrences` are its
/// deadlocks; the first is drawn with `svg` unless it is null (past the cap
/// on drawn graphs).
void WriteGroupHtml(const DeadlockGroup& group, int group_no, const GroupOccurrences& occurrences,
                    SvgRenderer* svg, std::ostream& out);

/// The causes (rule and statements) as a table, each linking to its groups
/// (numbered as in `groups`, the order they are written in). Nothing when
/// there are no causes.
void WriteCausesHtml(const std::vector<DeadlockCause>& causes,
                     const std::vector<DeadlockGroup>& groups, std::ostream& out);

/// "Group 3: 12 deadlocks of 2 processes" style one-line title, escaped.
std::string GroupTitle(const DeadlockGroup& group, int group_no);

}  // namespace lockgraph
