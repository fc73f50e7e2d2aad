// MY009 sleeping-transaction-blocker: the root of a blocking tree in a MySQL
// or MariaDB lock snapshot is a session sleeping with an open transaction:
// it holds its locks while the application does something else between
// statements. The MySQL twin of PG014. docs/rules/MY009.md.
#include "rules/mysql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

class IdleInTransactionBlocker : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY009", "sleeping-transaction-blocker", Severity::kWarning,
                                "a session sleeping in an open transaction is the root blocker of others",
                                "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (event.engine != "mysql" || !event.chain || event.chain->members.size() < 2) return;
    const Backend& root = event.chain->members.front().backend;
    if (root.state.rfind("idle in transaction", 0) != 0) return;
    std::vector<std::string> waiting;
    for (size_t i = 1; i < event.chain->members.size(); ++i) waiting.push_back(event.chain->members[i].backend.id);
    std::string message = "connection " + root.id + " sleeps with its transaction open for " +
                          pg_rules::Seconds(root.state_age_ms) + " (transaction open " +
                          pg_rules::Seconds(root.xact_age_ms) + ") and blocks " +
                          pg_rules::JoinIds(waiting);
    if (!root.query.empty()) message += "; its query: " + pg_rules::OneLine(root.query, 90);
    std::string where = event.server.empty() ? pg_rules::Lines(event) : "server " + event.server;
    std::vector<std::string> evidence{where + ": blocking tree rooted at connection " + root.id};
    for (const HeldLock& h : root.holds) evidence.push_back(root.id + " holds " + h.mode + " on " + h.lock.Label());
    for (const WaitEdge& e : event.chain->edges) evidence.push_back(pg_rules::EdgeText(e));
    std::string hint =
        "The transaction of connection " + root.id + " is open but runs nothing (command Sleep): "
        "the application holds it across other work (an HTTP or queue call, user think time) or "
        "forgot to COMMIT (autocommit off), and every row lock it took stays held. Do that work "
        "before the transaction or after COMMIT, and lower wait_timeout (MariaDB: "
        "idle_transaction_timeout) so that the server ends such sessions. Now: `KILL " + root.id +
        "` releases the locks (its transaction is rolled back); lockgraph never runs it.";
    out->push_back(MakeFinding(std::move(message), std::move(hint), std::move(evidence)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy009IdleInTransactionBlocker(const RuleSettings&) {
  return std::make_unique<IdleInTransactionBlocker>();
}

}  // namespace lockgraph
