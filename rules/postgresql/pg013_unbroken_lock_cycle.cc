// PG013 unbroken-lock-cycle: a pg_locks snapshot (or `watch`) shows
// processes waiting for each other in a circle that the server has not
// broken: deadlock_timeout is long, or the check has not run yet.
// docs/rules/PG013.md.
#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

class UnbrokenLockCycle : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG013", "unbroken-lock-cycle", Severity::kError,
                                "processes of a lock snapshot wait for each other in a circle the "
                                "server has not broken"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!event.cycle || event.cycle->edges.empty()) return;
    const WaitCycle& c = *event.cycle;
    bool advisory = false;
    std::vector<std::string> ids, evidence{pg_rules::Lines(event) + ": lock cycle in the snapshot"};
    for (size_t i = 0; i < c.edges.size(); ++i) {
      const WaitEdge& e = c.edges[i];
      advisory = advisory || e.lock.type == "advisory";
      ids.push_back(e.waiter);
      const Backend* b = i < c.members.size() ? &c.members[i] : nullptr;
      evidence.push_back("edge " + std::to_string(i + 1) + ": " + pg_rules::EdgeText(e) +
                         (b ? " (waiting " + pg_rules::Seconds(b->wait_age_ms) + ")" : ""));
      if (b && !b->query.empty()) evidence.push_back("process " + e.waiter + ": " + pg_rules::OneLine(b->query, 160));
    }
    std::string message = pg_rules::JoinIds(ids) + " wait for each other in a circle that the "
                          "server has not broken" +
                          (advisory ? " (advisory locks)" : "");
    if (!c.waiting_behind.empty())
      message += "; " + pg_rules::JoinIds(c.waiting_behind) + " wait behind them";
    std::string hint =
        "This is a deadlock: PostgreSQL breaks it only when a waiter's deadlock_timeout "
        "(default 1s) has passed, and only for the waiter that checks. A cycle that stays "
        "means a long deadlock_timeout on these sessions, or locks the check cannot see through. "
        "End one member now (`SELECT pg_cancel_backend(pid)`, or pg_terminate_backend for a "
        "session-level advisory lock, which a cancel does not release), keep deadlock_timeout "
        "short, and fix the lock order that made the cycle" +
        std::string(advisory ? " (advisory keys: take them sorted, one order everywhere; see PG007)"
                             : "") +
        ".";
    out->push_back(MakeFinding(std::move(message), std::move(hint), std::move(evidence)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg013UnbrokenLockCycle(const RuleSettings&) {
  return std::make_unique<UnbrokenLockCycle>();
}

}  // namespace lockgraph
