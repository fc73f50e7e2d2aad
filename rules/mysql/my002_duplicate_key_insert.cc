// MY002 duplicate-key-insert: inserts of one key each hold the shared lock
// InnoDB takes on a duplicate and wait for X to insert it.
// docs/rules/MY002.md.
#include "rules/mysql/builtin_rules.h"
#include "rules/mysql/my_text.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using namespace my_rules;

class DuplicateKeyInsert : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY002", "duplicate-key-insert", Severity::kError,
                                "inserts of one key each hold S on the duplicate and wait for X",
                                "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!IsMysqlCycle(event)) return;
    const Deadlock& d = *event.deadlock;
    std::vector<std::string> ids;
    for (const WaitEdge& e : d.edges) {
      const Participant* w = Find(d, e.waiter);
      const Participant* b = Find(d, e.blocker);
      if (!w || !b || Verb(*w) != "INSERT" || Verb(*b) != "INSERT") return;
      if (BaseMode(e.mode) != "X" || BaseMode(e.blocker_mode) != "S") return;
      ids.push_back(Who(d, e.waiter));
    }
    const WaitEdge& first = d.edges.front();
    std::string message = pg_rules::JoinIds(ids) + " insert the same key of " + first.lock.Label() +
                          ": each holds " + first.blocker_mode +
                          " from its duplicate-key check and waits for " + first.mode;
    std::string hint =
        "When an INSERT meets a duplicate key (a row that exists, or one another transaction is "
        "inserting and then rolls back), InnoDB takes a shared lock on it, in every isolation "
        "level. Two inserts of the key then each hold S and each need X. Use INSERT ... ON "
        "DUPLICATE KEY UPDATE (it locks the duplicate with X at once), insert the key once from "
        "one place, or serialise on a row that exists (SELECT ... FOR UPDATE on the parent). " +
        std::string(kRetry);
    out->push_back(MakeFinding(std::move(message), std::move(hint), Evidence(event)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy002DuplicateKeyInsert(const RuleSettings&) {
  return std::make_unique<DuplicateKeyInsert>();
}

}  // namespace lockgraph
