// MY008 repeatable-read-gap-locks: the cycle rests on gap or next-key locks
// of searches, which InnoDB takes under REPEATABLE READ (the default) and
// not under READ COMMITTED. docs/rules/MY008.md.
#include "rules/mysql/builtin_rules.h"
#include "rules/mysql/my_text.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using namespace my_rules;

class RepeatableReadGapLocks : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY008", "repeatable-read-gap-locks", Severity::kNote,
                                "the cycle rests on gap or next-key locks that READ COMMITTED "
                                "would not take",
                                "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!IsMysqlCycle(event)) return;
    const Deadlock& d = *event.deadlock;
    for (const WaitEdge& e : d.edges) {
      if (e.lock.type != "record") continue;
      // Duplicate-key and foreign-key checks lock gaps in every level.
      if (BaseMode(e.blocker_mode) == "S") return;
      bool held = LocksGap(e.blocker_mode), wanted = LocksGap(e.mode) && !HasFlag(e.mode, "GAP");
      if (!held && !wanted) continue;
      std::string what = held ? Who(d, e.blocker) + " holds " + e.blocker_mode
                              : Who(d, e.waiter) + " asks for " + e.mode;
      std::string message = "the cycle rests on a " +
                            std::string(HasFlag(held ? e.blocker_mode : e.mode, "GAP") ? "gap" : "next-key") +
                            " lock: " + what + " on " + e.lock.Label() +
                            "; READ COMMITTED would not take it for a search";
      std::string hint =
          "Under REPEATABLE READ (InnoDB's default) locking reads, UPDATE and DELETE lock the "
          "gaps around the index records they scan, so that a repeated search sees no new rows. "
          "Under READ COMMITTED they lock only the records they find (gap locking is kept for "
          "foreign-key and duplicate-key checks), which removes this cycle. Run these "
          "transactions with SET TRANSACTION ISOLATION LEVEL READ COMMITTED (needs binlog_format "
          "= ROW) if they do not rely on repeatable searches, or search by a unique key with an "
          "equality, which locks the record only. " +
          std::string(kRetry);
      out->push_back(MakeFinding(std::move(message), std::move(hint), Evidence(event)));
      return;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy008RepeatableReadGapLocks(const RuleSettings&) {
  return std::make_unique<RepeatableReadGapLocks>();
}

}  // namespace lockgraph
