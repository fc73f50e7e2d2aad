// See observer.h.
#include "metrics/observer.h"

#include <algorithm>

#include "analysis/deadlock_groups.h"
#include "analysis/event_facts.h"
#include "analysis/signature.h"

namespace lockgraph {
namespace {

constexpr const char* kOther = "other";

std::string OrUnknown(const std::string& s) { return s.empty() ? "unknown" : s; }

}  // namespace

const std::vector<double>& LockWaitBuckets() {
  // From a deadlock_timeout-sized wait (log_lock_waits reports waits past it,
  // 1 s by default) up to an hour; finer below a second for watch's polls.
  static const std::vector<double> kBuckets = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600};
  return kBuckets;
}

std::string LabelBound::operator()(const std::string& value) {
  if (kept_.count(value)) return value;
  if (kept_.size() >= max_) return kOther;
  kept_.insert(value);
  return value;
}

MetricsObserver::MetricsObserver(MetricRegistry& registry, const MetricsOptions& options)
    : registry_(registry), options_(options), causes_(options.max_causes),
      databases_(options.max_label_values), modes_(options.max_label_values),
      rules_(options.max_label_values) {
  using T = MetricType;
  registry_.Declare("lockgraph_deadlocks_total", T::kCounter,
                    "Deadlocks reported by the server, by database and cause (the deadlock "
                    "group's cause id; the first causes seen have their own label, later ones "
                    "are \"other\").",
                    {"database", "cause"});
  registry_.Declare("lockgraph_lock_waits_total", T::kCounter,
                    "Lock waits that ended, by lock mode and outcome (logs: acquired, deadlock, "
                    "timeout, cancelled, failed, unknown; watch: ended).",
                    {"mode", "outcome"});
  registry_.Declare("lockgraph_lock_wait_seconds", T::kHistogram,
                    "How long the lock waits of lockgraph_lock_waits_total lasted, when known "
                    "(logs: the longest reported wait; watch: at most this long).",
                    {}, LockWaitBuckets());
  registry_.Declare("lockgraph_findings_total", T::kCounter,
                    "Rule findings, by rule id and severity.", {"rule", "severity"});
  registry_.Declare("lockgraph_log_lines_total", T::kCounter,
                    "Log lines read, by result: parsed, skipped (with a reason), not_understood.",
                    {"result"});
  if (!options_.watch) return;
  registry_.Declare("lockgraph_polls_total", T::kCounter,
                    "Polls of each server by watch, by result: ok, failed.", {"server", "result"});
  registry_.Declare("lockgraph_server_up", T::kGauge,
                    "1 when the last poll of the server succeeded, else 0.", {"server"});
  registry_.Declare("lockgraph_blocked_sessions", T::kGauge,
                    "Sessions waiting for a lock at the last poll.", {"server"});
  registry_.Declare("lockgraph_longest_lock_wait_seconds", T::kGauge,
                    "The longest current lock wait at the last poll (0: none).", {"server"});
  registry_.Declare("lockgraph_deepest_blocking_chain", T::kGauge,
                    "The depth of the deepest blocking tree at the last poll: 1 when sessions "
                    "wait for a root blocker, 2 when others wait for them, ...; 0: none.",
                    {"server"});
  registry_.Declare("lockgraph_idle_in_transaction_root_blockers", T::kGauge,
                    "Root blockers idle in transaction at the last poll.", {"server"});
  registry_.Declare("lockgraph_open_lock_cycles", T::kGauge,
                    "Lock cycles the server has not broken, at the last poll.", {"server"});
}

EventMetrics EventMetrics::Of(const Event& event) {
  EventMetrics m;
  if (event.type == EventType::kDeadlock && event.deadlock) {
    m.kind = Kind::kDeadlock;
    m.database = event.session.database;
    m.cause = "unknown";
    EventFacts facts = ReadEventFacts(event);
    if (facts.deadlock) {
      DeadlockSignature signature = SignDeadlock(*event.deadlock, *facts.deadlock);
      m.signature = signature.id;
      m.cause = CauseOf(signature, event.findings).id;
    }
  } else if (event.type == EventType::kLockWait && event.lock_wait) {
    const LockWait& w = *event.lock_wait;
    m.kind = Kind::kLockWait;
    m.mode = w.mode;
    m.outcome = WaitOutcomeName(w.outcome);
    m.waited_ms = w.waited_ms;
  } else if (event.type == EventType::kWaitEnded && event.wait_change) {
    const WaitChange& c = *event.wait_change;
    m.kind = Kind::kWaitEnded;
    m.mode = c.waiter.wait_mode;
    m.outcome = "ended";
    m.waited_ms = c.waited_ms;
  }
  if (event.type != EventType::kChainEnded && event.type != EventType::kCycleEnded)
    for (const Finding& f : event.findings) m.findings.push_back({f.rule_id, f.severity});
  return m;
}

void MetricsObserver::OnEvent(const Event& event) { OnEvent(EventMetrics::Of(event)); }

void MetricsObserver::OnEvent(const EventMetrics& m) {
  using Kind = EventMetrics::Kind;
  std::lock_guard<std::mutex> lock(mutex_);
  if (m.kind == Kind::kDeadlock) {
    // A signature's cause is the cause of its first deadlock, as
    // DeadlockGrouper says, so the ids match the report's groups.
    std::string cause = m.cause;
    if (!m.signature.empty()) cause = cause_of_signature_.emplace(m.signature, m.cause).first->second;
    registry_.Add("lockgraph_deadlocks_total", {databases_(OrUnknown(m.database)), causes_(cause)});
  } else if (m.kind == Kind::kLockWait || m.kind == Kind::kWaitEnded) {
    registry_.Add("lockgraph_lock_waits_total", {modes_(OrUnknown(m.mode)), m.outcome});
    if (m.waited_ms) registry_.Observe("lockgraph_lock_wait_seconds", {}, *m.waited_ms / 1000);
  }
  for (const EventMetrics::Found& f : m.findings) CountFinding(f.rule_id, f.severity);
}

// Called with mutex_ held.
void MetricsObserver::CountFinding(const std::string& rule_id, Severity severity) {
  registry_.Add("lockgraph_findings_total", {rules_(rule_id), SeverityName(severity)});
}

void MetricsObserver::OnFinding(const Finding& finding) {
  std::lock_guard<std::mutex> lock(mutex_);
  CountFinding(finding.rule_id, finding.severity);
}

void MetricsObserver::OnLines(LineResult result, uint64_t count) {
  const char* name = result == LineResult::kParsed    ? "parsed"
                     : result == LineResult::kSkipped ? "skipped"
                                                      : "not_understood";
  registry_.Add("lockgraph_log_lines_total", {name}, double(count));
}

void MetricsObserver::AddLineCounts(const LineCounts& counts) {
  OnLines(LineResult::kParsed, counts.parsed);
  OnLines(LineResult::kSkipped, counts.skipped);
  OnLines(LineResult::kNotUnderstood, counts.unparsed);
}

void MetricsObserver::OnPoll(const std::string& server, const std::map<std::string, Backend>& backends,
                             const std::vector<Event>& events) {
  double longest_ms = 0;
  for (const auto& [id, b] : backends)
    if (!b.wait_mode.empty() && b.wait_age_ms) longest_ms = std::max(longest_ms, *b.wait_age_ms);
  uint64_t waiting = 0, cycles = 0, idle_roots = 0;
  uint32_t deepest = 0;
  for (const Event& ev : events) {
    if (ev.snapshot) {
      waiting = ev.snapshot->waiting;
      cycles = ev.snapshot->cycles;
    } else if (ev.chain && !ev.chain->members.empty()) {
      if (ev.chain->members.front().backend.state.rfind("idle in transaction", 0) == 0) ++idle_roots;
      for (const BlockingTree::Member& m : ev.chain->members) deepest = std::max(deepest, m.depth);
    }
  }
  registry_.Add("lockgraph_polls_total", {server, "ok"});
  registry_.SetAll({{"lockgraph_server_up", {server}, 1},
                    {"lockgraph_blocked_sessions", {server}, double(waiting)},
                    {"lockgraph_longest_lock_wait_seconds", {server}, longest_ms / 1000},
                    {"lockgraph_deepest_blocking_chain", {server}, double(deepest)},
                    {"lockgraph_idle_in_transaction_root_blockers", {server}, double(idle_roots)},
                    {"lockgraph_open_lock_cycles", {server}, double(cycles)}});
}

void MetricsObserver::OnPollFailed(const std::string& server) {
  registry_.Add("lockgraph_polls_total", {server, "failed"});
  registry_.Set("lockgraph_server_up", {server}, 0);
  for (const char* name : {"lockgraph_blocked_sessions", "lockgraph_longest_lock_wait_seconds",
                           "lockgraph_deepest_blocking_chain",
                           "lockgraph_idle_in_transaction_root_blockers", "lockgraph_open_lock_cycles"})
    registry_.Remove(name, {server});
}

}  // namespace lockgraph
