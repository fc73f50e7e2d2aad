// What the CI formats (sarif, junit, github) say about a deadlock group, a
// long lock wait or a finding, and whether it fails the run: one wording
// for the three. Raw text: each emitter escapes it for its format.
#pragma once

#include <string>

#include "analysis/report.h"
#include "emit/cause_text.h"  // GroupsByCause: the CI formats list groups cause by cause
#include "gate/check_result.h"

namespace lockgraph {

/// The group's first deadlock (its example), or null when not collected.
const Event* GroupExample(const Report& report, const DeadlockGroup& group);

/// "deadlock 930e54d877c0bf21 x3: update accounts ... | update accounts ...".
std::string GroupTitle(const DeadlockGroup& group);

/// Several lines: how often and where first and last seen, the cycle of
/// the example, the processes' statements, the rules that fired and their
/// fixes.
std::string GroupText(const Report& report, const DeadlockGroup& group);

/// "cause 1 of 3: PG001, 43 deadlocks in 15 shapes (cause 74b0d32a3ed04557)";
/// empty when the group's cause is not listed.
std::string CauseLine(const Report& report, const DeadlockGroup& group);

/// "lock wait 7396 waited 690.9 ms for ShareLock on transaction 739"; for
/// a snapshot's blocking tree or cycle, its longest wait ("snapshot: lock
/// wait 13707 waited 3400.0 ms for ...").
std::string WaitTitle(const Event& event);

/// The wait's chain and statement, over several lines.
std::string WaitText(const Event& event);

/// The wait's kind for a test name: WaitDescription() or, for a snapshot,
/// SnapshotWaitDescription().
std::string WaitWhat(const Event& event);

/// "lock cycle 13922 -> 13957 -> 13922 in a snapshot".
std::string CycleTitle(const Event& event);

/// The cycle's waits and the members' queries, over several lines.
std::string CycleText(const Event& event);

/// "PG001 inconsistent-row-lock-order: message".
std::string FindingTitle(const Finding& finding);

/// The message, "fix: " and the hint, and the evidence lines.
std::string FindingText(const Finding& finding);

/// "file:first-last".
std::string SourceText(const SourceSpan& source);

/// Fails the run: any deadlock group without a check (analyze: null), else a new
/// group when the deadlock limit is broken.
bool GroupFails(const CheckResult* check, const DeadlockGroup& group);

/// A finding (of `event`, or run-level when null) that --fail-on names and
/// the baseline does not cover.
bool FindingFails(const CheckResult* check, const Report& report, const Event* event,
                  const Finding& finding);

}  // namespace lockgraph
