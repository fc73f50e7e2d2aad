// See check_gate.h.
#include "gate/check_gate.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "gate/snapshot_gate.h"
#include "text/milliseconds.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

// "930e54d877c0bf21 x2 (update accounts ... | update accounts ...)", up to three.
std::string NewGroups(const CheckResult& c, const Report& report) {
  std::string out;
  int shown = 0, more = 0;
  for (const DeadlockGroup& g : report.groups) {
    if (!c.IsNew(g.signature)) continue;
    if (shown == 3) {
      ++more;
      continue;
    }
    std::string statements;
    for (const SignatureMember& m : g.members)
      statements += (statements.empty() ? "" : " | ") + m.statement;
    out += (shown++ ? "; " : "") + g.signature + " x" + std::to_string(g.count) + " (" +
           statements + ")";
  }
  if (more) out += "; and " + Plural(more, "other signature", "other signatures");
  return out;
}

}  // namespace

CheckGate::CheckGate(const Report& report, const CheckLimits& limits)
    : report_(report), limits_(limits) {
  c_.has_baseline = limits.baseline != nullptr;
  c_.baseline_file = limits.baseline_file;
  c_.fail_on = limits.fail_on;
  c_.max_deadlocks = std::to_string(limits.max_deadlocks);
  c_.max_lock_wait = limits.max_lock_wait_text;
  for (const DeadlockCause& cause : report.causes)
    for (const std::string& sig : cause.signatures) cause_of_[sig] = cause.id;
  // What the baseline knows of the groups and run-level findings, before
  // any event: a finding of an event is new unless its deadlock or wait is
  // known.
  for (const DeadlockGroup& g : report.groups) {
    if (KnownDeadlock(g)) {
      c_.known_signatures.insert(g.signature);
      c_.known_deadlocks += g.count;
    } else {
      c_.new_deadlocks += g.count;
    }
  }
  if (!limits.baseline) return;
  std::set<std::string> findings;
  for (const Finding& f : report.findings) findings.insert(FindingKey(f));
  for (const Baseline::Entry& e : limits.baseline->findings)
    if (findings.count(e.key)) c_.known_findings.insert(e.key);
}

bool CheckGate::KnownDeadlock(const DeadlockGroup& g) const {
  if (!limits_.baseline) return false;
  if (limits_.baseline->HasDeadlock(g.signature)) return true;
  if (!limits_.baseline_by_cause) return false;
  auto it = cause_of_.find(g.signature);
  return it != cause_of_.end() && limits_.baseline->HasCause(it->second);
}

void CheckGate::Add(const Event& ev, size_t index) {
  if (ev.cycle) {
    // The first three, as for deadlock signatures: the verdict stays one
    // readable line (a snapshot of a stuck fleet has hundreds).
    if (c_.cycles.size() < 3) cycle_pids_ += (cycle_pids_.empty() ? "" : "; ") + CyclePids(ev);
    c_.cycles.push_back(index);
  }
  if (limits_.baseline && ev.lock_wait) {
    std::string key = WaitKey(ev);
    if (limits_.baseline->HasLockWait(key)) c_.known_waits.insert(key);
    wait_keys_.insert(std::move(key));
  }
  if (limits_.max_lock_wait_ms) {
    const double waited = ev.lock_wait ? ev.lock_wait->waited_ms.value_or(0) : SnapshotWaitMs(ev);
    if (waited > *limits_.max_lock_wait_ms) {
      LongWait w{index, ev.lock_wait ? WaitKey(ev) : SnapshotWaitKey(ev), waited, false};
      w.known = limits_.baseline && limits_.baseline->HasLockWait(w.key);
      if (!w.known) {
        ++fresh_waits_;
        longest_fresh_ms_ = std::max(longest_fresh_ms_, w.waited_ms);
      }
      c_.long_waits.push_back(std::move(w));
    }
  }
  for (const Finding& f : ev.findings) CountFinding(&ev, f);
}

// A --fail-on finding not covered by the baseline, counted per rule.
void CheckGate::CountFinding(const Event* ev, const Finding& f) {
  if (!c_.FailsOn(f.rule_id) || !IsNewFinding(c_, report_, ev, f)) return;
  for (auto& [id, n] : fail_on_counts_)
    if (id == f.rule_id) return void(++n);
  fail_on_counts_.push_back({f.rule_id, 1});
}

CheckResult CheckGate::Finish(std::function<Event(size_t)> event) {
  FinishDeadlocks();
  FinishLongWaits();
  FinishStale();
  for (const Finding& f : report_.findings) CountFinding(nullptr, f);
  for (const auto& [id, n] : fail_on_counts_)
    c_.broken.push_back(id + " found " + Plural(n, "time", "times") + " (--fail-on)");
  c_.event = std::move(event);
  return std::move(c_);
}

void CheckGate::FinishDeadlocks() {
  c_.deadlocks_failed = c_.new_deadlocks + c_.cycles.size() > limits_.max_deadlocks;
  if (!c_.deadlocks_failed) return;
  std::string limit = " (limit " + std::to_string(limits_.max_deadlocks) + ")";
  if (c_.new_deadlocks)
    c_.broken.push_back(Plural(c_.new_deadlocks, c_.has_baseline ? "new deadlock" : "deadlock",
                               c_.has_baseline ? "new deadlocks" : "deadlocks") +
                        limit + ": " + NewGroups(c_, report_));
  if (!c_.cycles.empty()) {
    const size_t more = c_.cycles.size() > 3 ? c_.cycles.size() - 3 : 0;
    c_.broken.push_back(Plural(c_.cycles.size(), "lock cycle", "lock cycles") + " in a snapshot" +
                        limit + ": " + cycle_pids_ +
                        (more ? "; and " + Plural(more, "other cycle", "other cycles") : ""));
  }
}

void CheckGate::FinishLongWaits() {
  if (fresh_waits_)
    c_.broken.push_back(Plural(fresh_waits_, c_.has_baseline ? "new lock wait" : "lock wait",
                               c_.has_baseline ? "new lock waits" : "lock waits") +
                        " longer than " + limits_.max_lock_wait_text + " (longest " +
                        Ms(longest_fresh_ms_) + ")");
}

// Baseline entries this run did not see.
void CheckGate::FinishStale() {
  if (!limits_.baseline) return;
  for (const Baseline::Entry& e : limits_.baseline->deadlocks)
    if (!c_.known_signatures.count(e.key))
      c_.stale.push_back("deadlock " + e.key + " (" + e.what + ")");
  for (const Baseline::Entry& e : limits_.baseline->lock_waits)
    if (!wait_keys_.count(e.key)) c_.stale.push_back("lock wait " + e.key + " (" + e.what + ")");
  for (const Baseline::Entry& e : limits_.baseline->findings)
    if (!c_.known_findings.count(e.key)) c_.stale.push_back("finding " + e.key);
}

CheckResult EvaluateCheck(const Report& report, const CheckLimits& limits) {
  CheckGate gate(report, limits);
  for (size_t i = 0; i < report.events.size(); ++i) gate.Add(report.events[i], i);
  return gate.Finish([&report](size_t i) { return report.events[i]; });
}

bool IsNewFinding(const CheckResult& c, const Report& report, const Event* event,
                  const Finding& f) {
  if (!event) return c.known_findings.count(FindingKey(f)) == 0;
  if (event->deadlock) return c.IsNew(event->signature);
  if (event->lock_wait) return c.known_waits.count(WaitKey(*event)) == 0;
  return true;
}

std::string CheckVerdict(const CheckResult& c, const Report& report) {
  std::string line = "lockgraph check: ";
  if (c.Failed()) {
    line += "FAIL: ";
    for (size_t i = 0; i < c.broken.size(); ++i) line += (i ? "; " : "") + c.broken[i];
  } else {
    line += "ok: " + Plural(c.new_deadlocks, c.has_baseline ? "new deadlock" : "deadlock",
                            c.has_baseline ? "new deadlocks" : "deadlocks") +
            " (limit " + c.max_deadlocks + ")";
    if (c.has_baseline) line += ", " + std::to_string(c.known_deadlocks) + " in the baseline";
    if (!c.cycles.empty())
      line += ", " + Plural(c.cycles.size(), "lock cycle", "lock cycles") + " in snapshots";
    if (!c.max_lock_wait.empty())
      line += ", " + Plural(c.long_waits.size(), "lock wait", "lock waits") + " longer than " +
              c.max_lock_wait + (c.has_baseline ? " (all in the baseline)" : "");
  }
  if (!c.stale.empty()) {
    line += "; " + Plural(c.stale.size(), "baseline entry", "baseline entries") +
            " no longer seen: ";
    for (size_t i = 0; i < c.stale.size() && i < 3; ++i) line += (i ? ", " : "") + c.stale[i];
    if (c.stale.size() > 3) line += ", ...";
  }
  return line;
}

}  // namespace lockgraph
