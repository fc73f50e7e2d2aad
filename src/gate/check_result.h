// What `lockgraph check` decided about a report: which deadlock groups,
// long waits and findings are new (not in the baseline) and break a limit,
// and which baseline entries were not seen. The CI emitters (sarif, junit,
// github) read it to mark failures; without it (analyze) every deadlock
// group counts as a failure. docs/ci.md.
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// A lock wait longer than --max-lock-wait: a logged one, or the longest
/// wait of a blocking tree or cycle in a snapshot (gate/snapshot_gate.h).
struct LongWait {
  size_t event = 0;  // CheckResult::event takes it back
  std::string key;   // WaitKey(): equal for waits of the same shape
  double waited_ms = 0;
  bool known = false;  // in the baseline
};

struct CheckResult {
  bool has_baseline = false;
  std::string baseline_file;
  /// Signatures of deadlock groups found in the baseline (the others are new).
  std::set<std::string> known_signatures;
  /// Baseline keys of run-level findings seen again (FindingKey()).
  std::set<std::string> known_findings;
  /// Wait keys of this run's lock waits that the baseline lists.
  std::set<std::string> known_waits;
  std::vector<LongWait> long_waits;
  std::vector<std::string> fail_on;  // --fail-on rule IDs, upper case
  /// Baseline entries not seen in this run: "deadlock <signature>",
  /// "lock wait <key>", "finding <key>".
  std::vector<std::string> stale;
  /// One phrase per broken limit; empty: the run passes.
  std::vector<std::string> broken;
  uint64_t new_deadlocks = 0, known_deadlocks = 0;
  /// Lock cycles in pg_locks snapshots (CheckResult::event takes each
  /// back): each counts as a deadlock against --max-deadlocks
  /// (docs/ci.md#snapshots).
  std::vector<size_t> cycles;
  /// The event of a cycle or a long wait, by its index above: from
  /// Report::events, or read back from where `check` put them aside.
  std::function<Event(size_t)> event;
  bool deadlocks_failed = false;  // more new deadlocks than --max-deadlocks
  std::string max_deadlocks, max_lock_wait;  // the limits as given, for messages

  bool Failed() const { return !broken.empty(); }
  bool IsNew(const std::string& signature) const {
    return known_signatures.count(signature) == 0;
  }
  bool FailsOn(const std::string& rule_id) const {
    for (const std::string& r : fail_on)
      if (r == rule_id) return true;
    return false;
  }
};

}  // namespace lockgraph
