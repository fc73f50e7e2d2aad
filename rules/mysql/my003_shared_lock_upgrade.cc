// MY003 shared-lock-upgrade: every transaction of the cycle holds S on one
// record and waits for X on it (LOCK IN SHARE MODE / FOR SHARE, or a
// foreign-key check, then UPDATE or DELETE). docs/rules/MY003.md.
#include "rules/mysql/builtin_rules.h"
#include "rules/mysql/my_text.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using namespace my_rules;

class SharedLockUpgrade : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY003", "shared-lock-upgrade", Severity::kError,
                                "transactions that hold S on one record each wait for X on it",
                                "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!IsMysqlCycle(event)) return;
    const Deadlock& d = *event.deadlock;
    const WaitEdge& first = d.edges.front();
    std::vector<std::string> ids;
    for (const WaitEdge& e : d.edges) {
      if (e.lock.Key() != first.lock.Key() || BaseMode(e.mode) != "X" ||
          BaseMode(e.blocker_mode) != "S" || HasFlag(e.mode, "INSERT_INTENTION"))
        return;
      const Participant* w = Find(d, e.waiter);
      if (!w || Verb(*w) == "INSERT") return;  // MY002
      ids.push_back(Who(d, e.waiter));
    }
    std::string message = pg_rules::JoinIds(ids) + " each hold " + first.blocker_mode + " on " +
                          first.lock.Label() + " and wait for " + first.mode +
                          " on it; none can while the others keep their shared lock";
    std::string hint =
        "The shared lock came from a read that locks (SELECT ... LOCK IN SHARE MODE / FOR "
        "SHARE), or from a foreign-key check: inserting or updating a child row takes S on its "
        "parent row. The UPDATE or DELETE that follows needs X. Read with SELECT ... FOR UPDATE "
        "when the transaction will write the row, or write in one statement (UPDATE ... SET qty "
        "= qty - 1 WHERE id = ? AND qty > 0); for the foreign-key case, lock the parent row FOR "
        "UPDATE before inserting its children. " +
        std::string(kRetry);
    out->push_back(MakeFinding(std::move(message), std::move(hint), Evidence(event)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy003SharedLockUpgrade(const RuleSettings&) {
  return std::make_unique<SharedLockUpgrade>();
}

}  // namespace lockgraph
