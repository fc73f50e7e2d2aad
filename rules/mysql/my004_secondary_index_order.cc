// MY004 secondary-index-order: the cycle waits on one table through two
// indexes, the clustered one (PRIMARY) and a secondary one: the same rows
// locked in index order by one statement and in key order by the other.
// docs/rules/MY004.md.
#include "rules/mysql/builtin_rules.h"
#include "rules/mysql/my_text.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using namespace my_rules;

bool Clustered(std::string_view index) { return index == "PRIMARY" || index == "GEN_CLUST_INDEX"; }

class SecondaryIndexOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY004", "secondary-index-order", Severity::kWarning,
                                "a scan of a secondary index and a primary-key access lock the "
                                "same rows in different orders",
                                "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!IsMysqlCycle(event)) return;
    const Deadlock& d = *event.deadlock;
    const WaitEdge *primary = nullptr, *secondary = nullptr;
    for (const WaitEdge& e : d.edges) {
      if (e.lock.type != "record") continue;
      (Clustered(e.lock.Field("index")) ? primary : secondary) = &e;
    }
    if (!primary || !secondary || primary->lock.Field("table") != secondary->lock.Field("table") ||
        primary->lock.Field("database") != secondary->lock.Field("database"))
      return;
    std::string table = std::string(primary->lock.Field("database")) + "." +
                        std::string(primary->lock.Field("table"));
    std::string message = Who(d, secondary->waiter) + " waits on secondary index " +
                          std::string(secondary->lock.Field("index")) + " of " + table + " while " +
                          Who(d, primary->waiter) + " waits on its " +
                          std::string(primary->lock.Field("index")) +
                          " index: the same rows are locked through two indexes in different orders";
    std::string hint =
        "A statement that finds rows through a secondary index locks the index entry first and "
        "then the row in the clustered (PRIMARY) index; a statement by primary key locks the row "
        "first, and the secondary entries after (when it changes them, or when another scan "
        "needs them). Give both the same access path: find the ids first (plain SELECT), then "
        "lock by primary key in ascending order (SELECT ... WHERE id IN (...) ORDER BY id FOR "
        "UPDATE); check with EXPLAIN that each statement uses the index you expect, and avoid "
        "updating the indexed column in a hot path. " +
        std::string(kRetry);
    out->push_back(MakeFinding(std::move(message), std::move(hint), Evidence(event)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy004SecondaryIndexOrder(const RuleSettings&) {
  return std::make_unique<SecondaryIndexOrder>();
}

}  // namespace lockgraph
