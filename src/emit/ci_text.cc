// See ci_text.h.
#include "emit/ci_text.h"
#include "emit/time_text.h"

#include <cstdio>

#include "gate/baseline.h"
#include "gate/check_gate.h"
#include "gate/snapshot_gate.h"
#include "text/milliseconds.h"
#include "text/plural.h"

namespace lockgraph {
namespace {

std::string EdgeLine(const WaitEdge& e) {
  return e.waiter + " waits for " + e.mode + " on " + e.lock.Label() + ", blocked by " + e.blocker;
}

std::string Pids(const std::vector<int64_t>& pids) {
  std::string s;
  for (int64_t p : pids) s += (s.empty() ? "" : " -> ") + std::to_string(p);
  return s;
}

}  // namespace

const Event* GroupExample(const Report& report, const DeadlockGroup& group) {
  for (const Event& ev : report.events)
    if (ev.deadlock && ev.signature == group.signature) return &ev;
  return nullptr;
}

std::string GroupTitle(const DeadlockGroup& g) {
  std::string statements;
  for (const SignatureMember& m : g.members)
    statements += (statements.empty() ? "" : " | ") + m.statement;
  return "deadlock " + g.signature + " x" + std::to_string(g.count) + ": " + statements;
}

std::string SourceText(const SourceSpan& s) {
  std::string t = s.file + ":" + std::to_string(s.first_line);
  if (s.last_line > s.first_line) t += "-" + std::to_string(s.last_line);
  return t;
}

std::string CauseLine(const Report& report, const DeadlockGroup& g) {
  for (size_t i = 0; i < report.causes.size(); ++i) {
    const DeadlockCause& c = report.causes[i];
    if (c.id != g.cause) continue;
    return "cause " + std::to_string(i + 1) + " of " + std::to_string(report.causes.size()) + ": " +
           (c.rule.empty() ? std::string("no rule") : c.rule) + ", " +
           Plural(c.count, "deadlock", "deadlocks") + " in " +
           Plural(c.signatures.size(), "shape", "shapes") + " (cause " + c.id + ")";
  }
  return {};
}

std::string GroupText(const Report& report, const DeadlockGroup& g) {
  std::string cause = CauseLine(report, g);
  std::string t = (cause.empty() ? "" : cause + "\n") + std::to_string(g.count) +
                  (g.count == 1 ? " deadlock" : " deadlocks") +
                  " of signature " + g.signature + "\nfirst: " + g.first_time + " " +
                  SourceText(g.first_source) + "\nlast: " + g.last_time + " " +
                  SourceText(g.last_source) + "\n";
  if (const Event* ev = GroupExample(report, g)) {
    const Deadlock& d = *ev->deadlock;
    t += "cycle (victim " + d.victim + "):\n";
    for (const WaitEdge& e : d.edges) t += "  " + EdgeLine(e) + "\n";
    t += "processes:\n";
    for (const Participant& p : d.processes) t += "  " + p.id + ": " + p.query + "\n";
    for (const Finding& f : ev->findings) t += FindingTitle(f) + "\n  fix: " + f.hint + "\n";
  } else {
    for (const SignatureMember& m : g.members) t += "  " + m.statement + "\n";
  }
  return t;
}

namespace {

// The longest wait of a snapshot's blocking tree or cycle.
std::string SnapshotWaitTitle(const Event& ev) {
  const Backend* b = LongestSnapshotWaiter(ev);
  if (!b) return "snapshot: no lock wait";
  return "snapshot: lock wait " + b->id + " waited " + Ms(SnapshotWaitMs(ev)) + " for " +
         b->wait_mode + " on " + b->wait_lock.Label();
}

std::string SnapshotWaitText(const Event& ev) {
  std::string t = SnapshotWaitTitle(ev) + " (" + DisplayTime(ev) + ")\n";
  const std::vector<WaitEdge>& edges = ev.chain ? ev.chain->edges : ev.cycle->edges;
  for (const WaitEdge& e : edges) t += "  " + EdgeLine(e) + "\n";
  if (const Backend* b = LongestSnapshotWaiter(ev))
    if (!b->query.empty()) t += "statement: " + b->query + "\n";
  for (const Finding& f : ev.findings) t += FindingTitle(f) + "\n  fix: " + f.hint + "\n";
  return t;
}

}  // namespace

std::string WaitWhat(const Event& ev) {
  return ev.lock_wait ? WaitDescription(ev) : SnapshotWaitDescription(ev);
}

std::string CycleTitle(const Event& ev) {
  return "lock cycle " + CyclePids(ev) + " in a snapshot";
}

std::string CycleText(const Event& ev) {
  std::string t = CycleTitle(ev) + " (" + DisplayTime(ev) + "), not broken by the server yet\n";
  for (const WaitEdge& e : ev.cycle->edges) t += "  " + EdgeLine(e) + "\n";
  t += "processes:\n";
  for (const Backend& b : ev.cycle->members) t += "  " + b.id + ": " + b.query + "\n";
  for (const Finding& f : ev.findings) t += FindingTitle(f) + "\n  fix: " + f.hint + "\n";
  return t;
}

std::string WaitTitle(const Event& ev) {
  if (!ev.lock_wait) return SnapshotWaitTitle(ev);
  const LockWait& w = *ev.lock_wait;
  return "lock wait " + w.waiter + " waited " + Ms(w.waited_ms.value_or(0)) + " for " + w.mode +
         " on " + w.lock.Label();
}

std::string WaitText(const Event& ev) {
  if (!ev.lock_wait) return SnapshotWaitText(ev);
  const LockWait& w = *ev.lock_wait;
  std::string t = WaitTitle(ev) + " (" + WaitOutcomeName(w.outcome) + ")\n";
  if (!w.chain.empty()) t += "chain: " + Pids(w.chain) + "\n";
  if (!w.statement.empty()) t += "statement: " + w.statement + "\n";
  for (const Finding& f : ev.findings) t += FindingTitle(f) + "\n  fix: " + f.hint + "\n";
  return t;
}

std::string FindingTitle(const Finding& f) {
  return f.rule_id + " " + f.rule_name + ": " + f.message;
}

std::string FindingText(const Finding& f) {
  std::string t = f.message + "\nfix: " + f.hint;
  for (const std::string& e : f.evidence) t += "\n  " + e;
  return t;
}

bool GroupFails(const CheckResult* check, const DeadlockGroup& group) {
  if (!check) return true;
  return check->deadlocks_failed && check->IsNew(group.signature);
}

bool FindingFails(const CheckResult* check, const Report& report, const Event* event,
                  const Finding& f) {
  if (!check) return f.severity == Severity::kError;
  return check->FailsOn(f.rule_id) && IsNewFinding(*check, report, event, f);
}

}  // namespace lockgraph
