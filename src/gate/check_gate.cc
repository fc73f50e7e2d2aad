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

// Signature -> the id of its cause.
std::map<std::string, std::string> CauseOfSignature(const Report& report) {
  std::map<std::string, std::string> out;
  for (const DeadlockCause& cause : report.causes)
    for (const std::string& sig : cause.signatures) out[sig] = cause.id;
  return out;
}

bool KnownDeadlock(const DeadlockGroup& g, const CheckLimits& limits,
                   const std::map<std::string, std::string>& cause_of) {
  if (!limits.baseline) return false;
  if (limits.baseline->HasDeadlock(g.signature)) return true;
  if (!limits.baseline_by_cause) return false;
  auto it = cause_of.find(g.signature);
  return it != cause_of.end() && limits.baseline->HasCause(it->second);
}

void CountDeadlocks(const Report& report, const CheckLimits& limits, CheckResult* c) {
  const auto cause_of = CauseOfSignature(report);
  for (const DeadlockGroup& g : report.groups) {
    bool known = KnownDeadlock(g, limits, cause_of);
    if (known) {
      c->known_signatures.insert(g.signature);
      c->known_deadlocks += g.count;
    } else {
      c->new_deadlocks += g.count;
    }
  }
  std::string cycles;
  for (size_t i = 0; i < report.events.size(); ++i) {
    if (!report.events[i].cycle) continue;
    cycles += (cycles.empty() ? "" : "; ") + CyclePids(report.events[i]);
    c->cycles.push_back(i);
  }
  c->deadlocks_failed = c->new_deadlocks + c->cycles.size() > limits.max_deadlocks;
  if (!c->deadlocks_failed) return;
  std::string limit = " (limit " + std::to_string(limits.max_deadlocks) + ")";
  if (c->new_deadlocks)
    c->broken.push_back(Plural(c->new_deadlocks, c->has_baseline ? "new deadlock" : "deadlock",
                               c->has_baseline ? "new deadlocks" : "deadlocks") +
                        limit + ": " + NewGroups(*c, report));
  if (!c->cycles.empty())
    c->broken.push_back(Plural(c->cycles.size(), "lock cycle", "lock cycles") +
                        " in a snapshot" + limit + ": " + cycles);
}

void CountLongWaits(const Report& report, const CheckLimits& limits, CheckResult* c) {
  if (!limits.max_lock_wait_ms) return;
  size_t fresh = 0;
  double longest = 0;
  for (size_t i = 0; i < report.events.size(); ++i) {
    const Event& ev = report.events[i];
    const double waited = ev.lock_wait ? ev.lock_wait->waited_ms.value_or(0) : SnapshotWaitMs(ev);
    if (waited <= *limits.max_lock_wait_ms) continue;
    LongWait w{i, ev.lock_wait ? WaitKey(ev) : SnapshotWaitKey(ev), waited, false};
    w.known = limits.baseline && limits.baseline->HasLockWait(w.key);
    if (!w.known) {
      ++fresh;
      longest = std::max(longest, w.waited_ms);
    }
    c->long_waits.push_back(std::move(w));
  }
  if (fresh)
    c->broken.push_back(Plural(fresh, c->has_baseline ? "new lock wait" : "lock wait",
                               c->has_baseline ? "new lock waits" : "lock waits") +
                        " longer than " + limits.max_lock_wait_text + " (longest " + Ms(longest) +
                        ")");
}

void CountFindings(const Report& report, CheckResult* c) {
  if (c->fail_on.empty()) return;
  std::vector<std::pair<std::string, uint64_t>> counts;
  auto count = [&](const Event* ev, const Finding& f) {
    if (!c->FailsOn(f.rule_id) || !IsNewFinding(*c, report, ev, f)) return;
    for (auto& [id, n] : counts)
      if (id == f.rule_id) return void(++n);
    counts.push_back({f.rule_id, 1});
  };
  for (const Event& ev : report.events)
    for (const Finding& f : ev.findings) count(&ev, f);
  for (const Finding& f : report.findings) count(nullptr, f);
  for (const auto& [id, n] : counts)
    c->broken.push_back(id + " found " + Plural(n, "time", "times") + " (--fail-on)");
}

void FindStale(const Report& report, const CheckLimits& limits, CheckResult* c) {
  if (!limits.baseline) return;
  std::set<std::string> waits, findings;
  for (const Event& ev : report.events) {
    if (!ev.lock_wait) continue;
    std::string key = WaitKey(ev);
    if (limits.baseline->HasLockWait(key)) c->known_waits.insert(key);
    waits.insert(std::move(key));
  }
  for (const Finding& f : report.findings) findings.insert(FindingKey(f));
  for (const Baseline::Entry& e : limits.baseline->deadlocks)
    if (!c->known_signatures.count(e.key)) c->stale.push_back("deadlock " + e.key + " (" + e.what + ")");
  for (const Baseline::Entry& e : limits.baseline->lock_waits)
    if (!waits.count(e.key)) c->stale.push_back("lock wait " + e.key + " (" + e.what + ")");
  for (const Baseline::Entry& e : limits.baseline->findings) {
    if (findings.count(e.key))
      c->known_findings.insert(e.key);
    else
      c->stale.push_back("finding " + e.key);
  }
}

}  // namespace

CheckResult EvaluateCheck(const Report& report, const CheckLimits& limits) {
  CheckResult c;
  c.has_baseline = limits.baseline != nullptr;
  c.baseline_file = limits.baseline_file;
  c.fail_on = limits.fail_on;
  c.max_deadlocks = std::to_string(limits.max_deadlocks);
  c.max_lock_wait = limits.max_lock_wait_text;
  CountDeadlocks(report, limits, &c);
  CountLongWaits(report, limits, &c);
  FindStale(report, limits, &c);  // before the findings: fills known_findings
  CountFindings(report, &c);
  return c;
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
