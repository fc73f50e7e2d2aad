// PG015 idle-session-advisory-lock: the root blocker of a pg_locks snapshot's
// blocking tree is an idle session (no transaction open) that holds an
// advisory lock others wait for: a session-level lock (pg_advisory_lock)
// left behind, the way a transaction-mode pooler leaves them.
// docs/rules/PG015.md.
#include <charconv>
#include <cstdint>

#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

// The key as the application passed it: pg_advisory_lock(bigint) gives
// [db, high 32 bits, low 32 bits, 1]; (int, int) gives [db, a, b, 2].
std::string AdvisoryKey(const LockTarget& lock) {
  auto u32 = [&](std::string_view name) {
    uint32_t v = 0;
    std::string_view s = lock.Field(name);
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
  };
  uint32_t a = u32("classid"), b = u32("objid");
  if (lock.Field("objsubid") == "2")
    return "(" + std::to_string(int32_t(a)) + ", " + std::to_string(int32_t(b)) + ")";
  return std::to_string(int64_t((uint64_t(a) << 32) | b));
}

class IdleSessionAdvisoryLock : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG015", "idle-session-advisory-lock", Severity::kWarning,
                                "an idle session (no transaction) holds an advisory lock others "
                                "wait for: a session-level lock left behind, as behind a "
                                "transaction-mode pooler"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!event.chain || event.chain->members.size() < 2) return;
    const BlockingTree& t = *event.chain;
    const Backend& root = t.members.front().backend;
    // Exactly "idle": outside a transaction only a session-level lock stays
    // held. "idle in transaction" may hold an xact lock: PG014's case.
    if (root.state != "idle") return;
    std::vector<std::string> keys, waiting, evidence;
    evidence.push_back(pg_rules::Lines(event) + ": blocking tree rooted at " + root.id + ", state idle");
    for (const HeldLock& h : root.holds) {
      if (h.lock.type != "advisory") continue;
      keys.push_back(AdvisoryKey(h.lock));
      evidence.push_back(root.id + " holds " + h.mode + " on " + h.lock.Label());
    }
    if (keys.empty()) return;
    for (const WaitEdge& e : t.edges) {
      evidence.push_back(pg_rules::EdgeText(e));
      if (e.blocker == root.id && e.lock.type == "advisory") waiting.push_back(e.waiter);
    }
    if (waiting.empty()) return;
    std::string who = root.session.application.empty() ? "" : " (" + root.session.application + ")";
    std::string message = root.id + who + " is idle, no transaction open, for " +
                          pg_rules::Seconds(root.state_age_ms) + " and holds advisory lock " +
                          pg_rules::JoinIds(keys) + " that " + pg_rules::JoinIds(waiting) +
                          (waiting.size() == 1 ? " waits" : " wait") + " for; its last query: " +
                          pg_rules::OneLine(root.query, 90);
    out->push_back(MakeFinding(std::move(message), Hint(root.id), std::move(evidence)));
  }

 private:
  static std::string Hint(const std::string& root) {
    return "Outside a transaction only a session-level advisory lock (pg_advisory_lock, "
           "pg_try_advisory_lock) stays held: until pg_advisory_unlock on this very connection, "
           "or until it closes. The application took it and did not release it here: a code "
           "path that skips the unlock, or a transaction-mode pooler (PgBouncer pool_mode = "
           "transaction) that sent the unlock over another server connection and left this "
           "one holding the lock while it serves other clients. Use pg_advisory_xact_lock "
           "inside the transaction that needs it (released at commit or rollback), or give "
           "this worker a session-mode pool. Now: `SELECT pg_terminate_backend(" + root +
           ")` releases the lock.";
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg015IdleSessionAdvisoryLock(const RuleSettings&) {
  return std::make_unique<IdleSessionAdvisoryLock>();
}

}  // namespace lockgraph
