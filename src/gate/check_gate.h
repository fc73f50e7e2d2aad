// The gate of `lockgraph check`: compares a report with the limits
// (--max-deadlocks, --max-lock-wait, --fail-on) and a baseline, and says
// what is new, what broke a limit and which baseline entries were not seen.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
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

/// Decides event by event, so that no event need be kept: made from the
/// report after Analyzer::Finish (its groups, causes and run-level findings
/// complete), given every event in log order, finished once. Not
/// thread-safe, not copyable.
class CheckGate {
 public:
  /// `report` and `limits` must outlive the gate.
  CheckGate(const Report& report, const CheckLimits& limits);
  CheckGate(const CheckGate&) = delete;
  CheckGate& operator=(const CheckGate&) = delete;

  /// The next event in log order; `index` is what the result's `event`
  /// function takes back for it (LongWait::event, CheckResult::cycles).
  void Add(const Event& event, size_t index);
  /// The verdict; `event` gives back an event by the index Add had.
  CheckResult Finish(std::function<Event(size_t)> event);

 private:
  bool KnownDeadlock(const DeadlockGroup& g) const;
  void CountFinding(const Event* event, const Finding& f);
  void FinishDeadlocks();
  void FinishLongWaits();
  void FinishStale();

  const Report& report_;
  const CheckLimits& limits_;
  CheckResult c_;
  std::map<std::string, std::string> cause_of_;  // signature -> the id of its cause
  std::string cycle_pids_;                       // "4211 -> 4302 -> 4211; ..."
  size_t fresh_waits_ = 0;                       // long waits not in the baseline
  double longest_fresh_ms_ = 0;
  std::set<std::string> wait_keys_;  // of every lock wait (with a baseline)
  std::vector<std::pair<std::string, uint64_t>> fail_on_counts_;  // first seen first
};

/// The gate over the report's own events (a caller that collected every
/// event; Report::events sorted, as Analyzer::Finish leaves them). The
/// result's `event` reads `report`, which must outlive it.
CheckResult EvaluateCheck(const Report& report, const CheckLimits& limits);

/// True when finding `f` of `event` (null: a run-level finding) is not
/// covered by the baseline.
bool IsNewFinding(const CheckResult& check, const Report& report, const Event* event,
                  const Finding& f);

/// The one-line verdict for stderr: "lockgraph check: FAIL: ..." or
/// "lockgraph check: ok: ...".
std::string CheckVerdict(const CheckResult& check, const Report& report);

}  // namespace lockgraph
