// Text output of deadlock causes (docs/rules.md#causes): the section that
// opens a text report with more than one deadlock, one entry per cause
// (rule and statements, whatever the cycle's length or order) with its
// exact-shape groups; and the groups put in cause order for the body.
#pragma once

#include <ostream>
#include <vector>

#include "analysis/report.h"

namespace lockgraph {

/// "deadlock causes: 2 causes of 47 deadlocks" and per cause its count,
/// rule, first and last seen, statements and shapes (signature and count).
/// Nothing when the report has fewer than two deadlocks in its groups.
void WriteCausesText(const Report& report, bool color, std::ostream& out);

/// report.groups ordered cause by cause (report.causes order), largest
/// group first inside a cause; groups of no listed cause keep their place
/// at the end.
std::vector<DeadlockGroup> GroupsByCause(const Report& report);

}  // namespace lockgraph
