// MY001 gap-insert-intention: transactions hold gap or next-key locks on one
// gap (gap locks never conflict with each other) and then each waits to
// insert into it (insert intention). docs/rules/MY001.md.
#include "rules/mysql/builtin_rules.h"
#include "rules/mysql/my_text.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using namespace my_rules;

class GapInsertIntention : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY001", "gap-insert-intention", Severity::kError,
                                "inserts wait for gap or next-key locks that the other "
                                "transactions took on the same gap",
                                "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!IsMysqlCycle(event)) return;
    const Deadlock& d = *event.deadlock;
    const WaitEdge* hit = nullptr;
    for (const WaitEdge& e : d.edges) {
      if (!HasFlag(e.mode, "INSERT_INTENTION") || !LocksGap(e.blocker_mode)) continue;
      const Participant* blocker = Find(d, e.blocker);
      // An S lock held by an INSERT is a duplicate-key check: MY002.
      if (BaseMode(e.blocker_mode) == "S" && blocker && Verb(*blocker) == "INSERT") return;
      if (!hit) hit = &e;
    }
    if (!hit) return;
    bool supremum = hit->lock.Field("supremum") == "true";
    std::string message = Who(d, hit->waiter) + " waits to insert (" + hit->mode + ") into " +
                          (supremum ? "the last gap of the index, the " : "the gap before ") +
                          hit->lock.Label() + ", where " + Who(d, hit->blocker) + " holds " +
                          hit->blocker_mode + " (a " +
                          (HasFlag(hit->blocker_mode, "GAP") ? "gap" : "next-key") + " lock)";
    out->push_back(MakeFinding(std::move(message), Hint(supremum), Evidence(event)));
  }

 private:
  static std::string Hint(bool supremum) {
    std::string h =
        "A locking read (SELECT ... FOR UPDATE / FOR SHARE, or an UPDATE or DELETE) that finds no "
        "row, or scans a range, locks the gap under REPEATABLE READ. Gap locks do not conflict "
        "with each other, so every transaction gets one; then each INSERT into that gap waits for "
        "the others' gap locks. ";
    if (supremum)
      h += "Here the gap is past the last record of the index (the supremum): every insert at the "
           "end of the table waits for it. ";
    h += "Insert first and handle the duplicate (INSERT ... ON DUPLICATE KEY UPDATE, INSERT "
         "IGNORE) instead of select-then-insert, or lock a row that exists (the parent) to "
         "serialise; under READ COMMITTED searches take no gap locks (MY008). ";
    return h + std::string(kRetry);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy001GapInsertIntention(const RuleSettings&) {
  return std::make_unique<GapInsertIntention>();
}

}  // namespace lockgraph
