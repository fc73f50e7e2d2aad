// PG014 idle-in-transaction-blocker: the root of a blocking tree in a
// pg_locks snapshot is a session idle in transaction: it holds its locks
// while the application does something else (an HTTP call, user think
// time) between statements. docs/rules/PG014.md.
#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

class IdleInTransactionBlocker : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG014", "idle-in-transaction-blocker", Severity::kWarning,
                                "a session idle in transaction is the root blocker of others"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!event.chain || event.chain->members.size() < 2) return;
    const Backend& root = event.chain->members.front().backend;
    if (root.state.rfind("idle in transaction", 0) != 0) return;
    std::vector<std::string> waiting;
    for (size_t i = 1; i < event.chain->members.size(); ++i) waiting.push_back(event.chain->members[i].backend.id);
    std::string message = root.id + " is " + root.state + " for " + pg_rules::Seconds(root.state_age_ms) +
                          " (transaction open " + pg_rules::Seconds(root.xact_age_ms) + ") and blocks " +
                          pg_rules::JoinIds(waiting) + "; its last query: " +
                          pg_rules::OneLine(root.query, 90);
    std::vector<std::string> evidence{pg_rules::Lines(event) + ": blocking tree rooted at " + root.id};
    for (const HeldLock& h : root.holds) evidence.push_back(root.id + " holds " + h.mode + " on " + h.lock.Label());
    for (const WaitEdge& e : event.chain->edges) evidence.push_back(pg_rules::EdgeText(e));
    std::string hint =
        "The transaction of " + root.id + " is open but runs nothing: the application holds it "
        "across other work (an HTTP or queue call, a file upload, user think time) or forgot to "
        "COMMIT, and every lock it took stays held. Do that work before BEGIN or after COMMIT, "
        "keep transactions to the statements that need them, and set "
        "idle_in_transaction_session_timeout (e.g. '30s') so that the server ends such sessions. "
        "Now: `SELECT pg_terminate_backend(" + root.id + ")` releases the locks (its transaction "
        "is rolled back).";
    out->push_back(MakeFinding(std::move(message), std::move(hint), std::move(evidence)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg014IdleInTransactionBlocker(const RuleSettings&) {
  return std::make_unique<IdleInTransactionBlocker>();
}

}  // namespace lockgraph
