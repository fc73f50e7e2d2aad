// The gate of `lockgraph check`: compares a report with the limits
// (--max-deadlocks, --max-lock-wait, --fail-on) and a baseline, and says
// what is new, what broke a limit and which baseline entries were not seen.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/report.h"
#include "gate/baseline.h"
#include "gate/check_result.h"

namespace lockgraph {

struct CheckLimits {
  uint64_t max_deadlocks = 0;             // new deadlocks allowed
  std::optional<double> max_lock_wait_ms; // longer waits fail; none: waits do not count
  std::string max_lock_wait_text;         // as given ("5s")
  std::vector<std::string> fail_on;       // rule IDs, upper case
  const Baseline* baseline = nullptr;
  std::string baseline_file;
  /// --baseline-by cause: a deadlock whose cause the baseline has is known,
  /// a new shape of it included.
  bool baseline_by_cause = false;
};

/// Decides; the report's events, groups and findings must be complete
/// (Analyzer::Finish).
CheckResult EvaluateCheck(const Report& report, const CheckLimits& limits);

/// True when finding `f` of `event` (null: a run-level finding) is not
/// covered by the baseline.
bool IsNewFinding(const CheckResult& check, const Report& report, const Event* event,
                  const Finding& f);

/// The one-line verdict for stderr: "lockgraph check: FAIL: ..." or
/// "lockgraph check: ok: ...".
std::string CheckVerdict(const CheckResult& check, const Report& report);

}  // namespace lockgraph
