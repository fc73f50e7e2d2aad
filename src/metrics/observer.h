// Turns what lockgraph sees into metric updates: events (deadlocks, lock
// waits, watch's wait changes), findings, log line results and watch's
// polls. Engine-neutral: `analyze --format prometheus`, `watch` and `follow`
// call the same members. Metric names and labels: docs/metrics.md.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "metrics/registry.h"
#include "model/event.h"
#include "model/finding.h"
#include "parsers/input_format.h"

namespace lockgraph {

struct MetricsOptions {
  /// Distinct deadlock causes with a label of their own (--metrics-max-causes);
  /// later causes are counted as cause="other".
  size_t max_causes = 20;
  /// Distinct values of every other free-text label (database, mode, rule);
  /// later values are counted as "other".
  size_t max_label_values = 50;
  /// Declare the gauges of `watch` (per server) and its poll counter.
  bool watch = false;
};

/// Keeps the first `max` distinct values of a label; any later value
/// becomes "other". Not thread-safe; copyable.
class LabelBound {
 public:
  explicit LabelBound(size_t max) : max_(max) {}
  /// The label value to use for `value`.
  std::string operator()(const std::string& value);

 private:
  size_t max_;
  std::set<std::string> kept_;
};

enum class LineResult { kParsed, kSkipped, kNotUnderstood };

/// What the metrics take of one event (MetricsObserver::OnEvent), apart
/// from the event: so that an output can keep it instead of the event and
/// count the events later, in log order (`--format prometheus`). Copyable.
struct EventMetrics {
  enum class Kind { kOther, kDeadlock, kLockWait, kWaitEnded };
  Kind kind = Kind::kOther;
  std::string database;   // a deadlock's session database
  std::string signature;  // a deadlock's signature id, and its own cause id:
  std::string cause;      // a signature counts under the cause of its first deadlock
  std::string mode;       // a wait's lock mode
  std::string outcome;    // a wait's outcome name
  std::optional<double> waited_ms;
  struct Found {
    std::string rule_id;
    Severity severity = Severity::kNote;
  };
  std::vector<Found> findings;  // counted (none on chain_ended and cycle_ended)

  /// What `event` (its rules already run) counts for. Thread-safe.
  static EventMetrics Of(const Event& event);
};

/// Thread-safe: every member may be called from any thread. Not copyable.
/// The registry must outlive the observer.
class MetricsObserver {
 public:
  /// Declares the families of docs/metrics.md in `registry` (which must not
  /// hold them yet).
  MetricsObserver(MetricRegistry& registry, const MetricsOptions& options);
  MetricsObserver(const MetricsObserver&) = delete;
  MetricsObserver& operator=(const MetricsObserver&) = delete;

  /// One event, its rules already run (findings, signature): a deadlock
  /// counts by database and cause, a lock wait (log) and a wait_ended
  /// (watch) by mode and outcome, with their duration in the histogram.
  /// Its findings are counted, except on chain_ended and cycle_ended (copies
  /// of an event whose findings were counted when it came).
  void OnEvent(const Event& event);
  /// The same, from what EventMetrics::Of took of an event.
  void OnEvent(const EventMetrics& event);
  /// A run-level finding (not carried by an event).
  void OnFinding(const Finding& finding);
  /// `count` log lines with one result.
  void OnLines(LineResult result, uint64_t count = 1);
  /// Line counts (a delta, or a whole run's): parsed, skipped, not understood.
  void AddLineCounts(const LineCounts& counts);
  /// watch: one successful poll of `server` (its masked label): its
  /// backends and events (the `snapshot` first, then cycles and chains)
  /// set the server's gauges.
  void OnPoll(const std::string& server, const std::map<std::string, Backend>& backends,
              const std::vector<Event>& events);
  /// watch: a failed poll: the server's gauges are dropped (not kept stale),
  /// lockgraph_server_up goes to 0.
  void OnPollFailed(const std::string& server);

 private:
  void CountFinding(const std::string& rule_id, Severity severity);

  MetricRegistry& registry_;
  MetricsOptions options_;
  std::mutex mutex_;
  LabelBound causes_, databases_, modes_, rules_;
  std::unordered_map<std::string, std::string> cause_of_signature_;  // the first deadlock's
};

/// The buckets of lockgraph_lock_wait_seconds, in seconds.
const std::vector<double>& LockWaitBuckets();

}  // namespace lockgraph
