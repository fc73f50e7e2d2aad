// MY007 opposite-row-order: each transaction holds an exclusive lock on a
// record (or table) that the next one waits for, each on a different one of
// the same index: rows locked in opposite orders (as PG001 for PostgreSQL,
// MS009 for SQL Server). docs/rules/MY007.md.
#include <set>

#include "rules/mysql/builtin_rules.h"
#include "rules/mysql/my_text.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using namespace my_rules;

class OppositeRowOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY007", "opposite-row-order", Severity::kError,
                                "transactions lock the same rows or tables in opposite orders",
                                "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!IsMysqlCycle(event) || event.deadlock->edges.size() < 2) return;
    const Deadlock& d = *event.deadlock;
    std::set<std::string> targets, indexes;
    std::vector<std::string> steps;
    for (const WaitEdge& e : d.edges) {
      if (HasFlag(e.mode, "INSERT_INTENTION") || HasFlag(e.mode, "GAP")) return;  // MY001
      if (BaseMode(e.blocker_mode) == "S") return;                                 // MY002, MY003
      if (e.mode == "AUTO_INC" || e.blocker_mode == "AUTO_INC") return;            // MY006
      targets.insert(e.lock.Key());
      indexes.insert(std::string(e.lock.Field("database")) + "." + std::string(e.lock.Field("table")) +
                     "/" + std::string(e.lock.Field("index")));
      steps.push_back(Who(d, e.waiter) + " waits for " + e.mode + " on " + e.lock.Label() +
                      ", held by " + e.blocker);
    }
    if (targets.size() != d.edges.size()) return;  // one target: not an order problem
    std::set<std::string> tables;
    for (const std::string& i : indexes) tables.insert(i.substr(0, i.rfind('/')));
    if (indexes.size() > tables.size()) return;  // two indexes of one table: MY004
    std::string message = "rows locked in opposite orders: " + pg_rules::JoinIds(steps);
    std::string hint =
        "Each transaction locked one row (or table) and then asked for the one the other had "
        "locked first. Lock in one order everywhere: sort the keys before the statements, or "
        "lock them all at once in key order (SELECT ... WHERE id IN (...) ORDER BY id FOR "
        "UPDATE) before changing them; update tables in the same order in every code path. " +
        std::string(kRetry);
    out->push_back(MakeFinding(std::move(message), std::move(hint), Evidence(event)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy007OppositeRowOrder(const RuleSettings&) {
  return std::make_unique<OppositeRowOrder>();
}

}  // namespace lockgraph
