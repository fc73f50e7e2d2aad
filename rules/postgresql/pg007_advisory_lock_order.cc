// PG007 advisory-lock-order: advisory locks in a deadlock cycle, taken in
// different orders; and session-level advisory locks (pg_advisory_lock),
// which outlive transactions and break behind transaction-mode poolers.
// docs/rules/PG007.md.
#include <charconv>
#include <cstdio>

#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

uint32_t U32(std::string_view s) {
  uint32_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// The key as the application passed it: pg_advisory_lock(bigint) gives
// [db, high 32 bits, low 32 bits, 1]; (int, int) gives [db, a, b, 2].
std::string AdvisoryKey(const LockTarget& lock) {
  uint32_t a = U32(lock.Field("classid")), b = U32(lock.Field("objid"));
  if (lock.Field("objsubid") == "2")
    return "(" + std::to_string(int32_t(a)) + ", " + std::to_string(int32_t(b)) + ")";
  return std::to_string(int64_t((uint64_t(a) << 32) | b));
}

bool SessionLevel(const StatementFacts& s) {
  for (const std::string& c : s.calls)
    if (c == "pg_advisory_lock" || c == "pg_advisory_lock_shared") return true;
  return false;
}

constexpr std::string_view kSessionLevel =
    "pg_advisory_lock is session-level: it outlives the transaction, and after this error the "
    "victim still holds the keys it had until it calls pg_advisory_unlock or disconnects. Behind "
    "a transaction-mode pooler (PgBouncer pool_mode = transaction) the unlock can run on another "
    "server connection, and the lock stays until the first one closes. Use "
    "pg_advisory_xact_lock (released at commit or rollback), or a session-mode pool for this "
    "worker.";

class AdvisoryLockOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG007", "advisory-lock-order", Severity::kError,
                                "advisory locks taken in different orders; session-level "
                                "advisory locks"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (event.deadlock && facts.deadlock) OnDeadlock(event, *facts.deadlock, out);
    if (event.lock_wait && facts.wait) OnWait(event, *facts.wait, out);
  }

 private:
  void OnDeadlock(const Event& event, const DeadlockFacts& df, std::vector<Finding>* out) const {
    bool advisory = false, session = false, mixed = false;
    for (const ProcessFacts& p : df.processes) {
      session = session || SessionLevel(p.statement);
      if (!p.wait) continue;
      (p.wait->lock.type == "advisory" ? advisory : mixed) = true;
    }
    if (!advisory) return;
    std::vector<std::string> steps, took;
    for (const ProcessFacts& p : df.processes) {
      if (!p.wait) continue;
      // p holds what the process it blocks waits for.
      for (const ProcessFacts& q : df.processes)
        if (q.wait && q.wait->blocker == p.participant->id) {
          if (!mixed) {
            std::string holds = AdvisoryKey(q.wait->lock), wants = AdvisoryKey(p.wait->lock);
            steps.push_back(p.participant->id + " holds advisory lock " + holds +
                            " and waits for " + wants);
            took.push_back(p.participant->id + " took " + holds + " before " + wants);
          } else {
            std::string holds = Held(q), wants = Held(p);
            steps.push_back(p.participant->id + " holds " + holds + " and waits for " + wants);
            took.push_back(p.participant->id + " took " + holds + " before " + wants);
          }
        }
    }
    if (steps.empty()) return;
    std::string hint =
        mixed ? "Take the advisory lock and the row or table locks it guards in one order "
                "everywhere (here " + pg_rules::JoinIds(took) + "): take the advisory lock "
                "first, before any statement that locks what it guards, in every transaction "
                "that uses it; an advisory lock taken after a row lock guards nothing and "
                "closes cycles."
              : "Take advisory locks in one order everywhere: sort the keys and lock them "
                "one by one in that order (here " + pg_rules::JoinIds(took) + "), or "
                "derive one key for the whole resource set.";
    if (session) hint += " " + std::string(kSessionLevel);
    std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
    for (const ProcessFacts& p : df.processes)
      evidence.push_back(pg_rules::ProcessEvidence(p, *event.deadlock));
    out->push_back(MakeFinding(Join(steps) + (session ? " (session-level locks)" : ""),
                               std::move(hint), std::move(evidence)));
  }

  // What a process waits for, as the one it blocks must hold it: "advisory
  // lock 301", "accounts row id = 5 (transaction 750)", "table audit".
  static std::string Held(const ProcessFacts& p) {
    const LockTarget& lock = p.wait->lock;
    if (lock.type == "advisory") return "advisory lock " + AdvisoryKey(lock);
    if (lock.type == "transactionid" && p.wants && !p.wait_table.empty())
      return p.wait_table + " row " + p.wants->Text() + " (" + lock.Label() + ")";
    if (!LockRelation(lock).empty())
      return "table " + (p.wait_table.empty() ? LockRelation(lock) : p.wait_table);
    return lock.Label();
  }

  void OnWait(const Event& event, const StatementFacts& st, std::vector<Finding>* out) const {
    const LockWait& w = *event.lock_wait;
    // A wait that ended in a deadlock is the deadlock's finding, not a note.
    if (w.lock.type != "advisory" || !SessionLevel(st) || w.outcome == WaitOutcome::kDeadlock)
      return;
    char ms[32] = "?";
    if (w.waited_ms) std::snprintf(ms, sizeof ms, "%.1f ms", *w.waited_ms);
    std::string holders;
    for (int64_t h : w.holders) holders += (holders.empty() ? "" : ", ") + std::to_string(h);
    Finding f = MakeFinding(
        w.waiter + " waited " + ms + " for session-level advisory lock " + AdvisoryKey(w.lock) +
            (holders.empty() ? "" : " held by " + holders) + " (" + pg_rules::OneLine(w.statement, 60) +
            ")",
        std::string(kSessionLevel),
        {pg_rules::Lines(event) + ": " + w.waiter + " waited for " + w.mode + " on " +
             w.lock.Label() + ", outcome " + WaitOutcomeName(w.outcome),
         "statement: " + pg_rules::OneLine(w.statement, 160)});
    f.severity = Severity::kNote;  // a risk, not a failure
    out->push_back(std::move(f));
  }

  static std::string Join(const std::vector<std::string>& parts) {
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : "; ") + p;
    return s;
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg007AdvisoryLockOrder(const RuleSettings&) {
  return std::make_unique<AdvisoryLockOrder>();
}

}  // namespace lockgraph
