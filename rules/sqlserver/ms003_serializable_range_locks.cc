// MS003 serializable-range-locks: key-range locks (RangeS-S, RangeS-U,
// RangeI-N, RangeX-X) in the cycle: serializable transactions lock the gaps
// between keys they scanned, and inserts into those gaps wait. Fix the
// isolation level (often inherited from TransactionScope) or index the range
// predicate. docs/rules/MS003.md.
#include <algorithm>

#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

bool Range(const std::string& mode) { return mode.rfind("Range", 0) == 0; }

class SerializableRangeLocks : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS003", "serializable-range-locks", Severity::kError,
                                "key-range locks of serializable transactions in the cycle",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock) return;
    const Deadlock& d = *event.deadlock;
    std::vector<std::string> steps, ranges;
    for (const WaitEdge& e : d.edges) {
      if (!Range(e.mode) && !Range(e.blocker_mode)) continue;
      steps.push_back(e.waiter + " waits for " + e.mode + " on " + Where(e.lock) + " held " +
                      e.blocker_mode + " by " + e.blocker);
      ranges.push_back(Where(e.lock));
    }
    if (steps.empty()) return;
    std::vector<std::string> serializable;
    for (const ProcessFacts& p : facts.deadlock->processes)
      if (p.wait && ms_rules::IsolationName(*p.participant) == "serializable")
        serializable.push_back(p.participant->id);
    std::string message;
    for (const std::string& s : steps) message += (message.empty() ? "" : "; ") + s;
    if (!serializable.empty())
      message += " (" + pg_rules::JoinIds(serializable) +
                 (serializable.size() == 1 ? " runs" : " run") + " at serializable)";
    std::vector<std::string> ev = ms_rules::CycleEvidence(event);
    for (const ProcessFacts& p : facts.deadlock->processes)
      if (p.wait)
        ev.push_back(ms_rules::ProcessEvidence(p, d) + " [" + p.participant->isolation_level + "]");
    out->push_back(MakeFinding(std::move(message), Hint(*facts.deadlock, ranges[0], serializable),
                               std::move(ev)));
  }

 private:
  // "index IX_Orders_Customer of Shop.dbo.Orders"
  static std::string Where(const LockTarget& lock) {
    std::string object(lock.Field("objectname")), index(lock.Field("indexname"));
    if (object.empty()) return lock.Label();
    return index.empty() ? object : "index " + index + " of " + object;
  }

  static std::string Hint(const DeadlockFacts& df, const std::string& range,
                          const std::vector<std::string>& serializable) {
    std::vector<std::string> seen;  // each statement once: both sides often run the same one
    for (const ProcessFacts& p : df.processes) {
      std::string s = "`" + pg_rules::OneLine(p.query, 90) + "` at " + ms_rules::WhereRuns(p);
      if (p.wait && std::find(seen.begin(), seen.end(), s) == seen.end()) seen.push_back(s);
    }
    std::string stmts = pg_rules::JoinIds(seen);
    std::string table = "...";
    for (const ProcessFacts& p : df.processes)
      if (p.wait && table == "..." && !p.wait_table.empty()) table = p.wait_table;
    std::string hint = "Key-range locks on " + range + " come from SERIALIZABLE (the level, or a "
                       "HOLDLOCK/SERIALIZABLE hint) in " + stmts + ". ";
    if (!serializable.empty())
      hint += "Check where the level comes from: .NET's TransactionScope defaults to "
              "IsolationLevel.Serializable; pass TransactionOptions with ReadCommitted unless the "
              "code needs serializable. ";
    hint += "If it does (an existence check then an insert), take the range in the mode of the "
            "write at the check: `SELECT ... FROM " + table + " WITH (UPDLOCK, HOLDLOCK) WHERE ...` (or "
            "an UPDATE ... IF @@ROWCOUNT = 0 INSERT under the same hints), so the second transaction waits "
            "instead of both holding RangeS-S and both inserting. An index on the columns of the "
            "range predicate keeps the locked range to the matching keys instead of a scan's. " +
            std::string(ms_rules::kNotTimeouts);
    return hint;
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs003SerializableRangeLocks(const RuleSettings&) {
  return std::make_unique<SerializableRangeLocks>();
}

}  // namespace lockgraph
