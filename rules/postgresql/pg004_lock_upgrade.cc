// PG004 lock-upgrade: the participants hold a weaker lock on one and the
// same object and each asks for a stronger one: every edge on one relation,
// or every process waiting to write the one row they all name.
// docs/rules/PG004.md.
#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

std::vector<std::string> Ids(const DeadlockFacts& df) {
  std::vector<std::string> ids;
  for (const ProcessFacts& p : df.processes) ids.push_back(p.participant->id);
  return ids;
}

// Every edge waits on the same relation lock.
bool OneRelation(const Deadlock& d) {
  if (d.edges.size() < 2) return false;
  for (const WaitEdge& e : d.edges)
    if (e.lock.type != "relation" || e.lock.Key() != d.edges.front().lock.Key()) return false;
  return true;
}

// Every process waits for the one row they all name (same table and key).
bool OneRow(const DeadlockFacts& df) {
  if (!df.row_cycle || df.processes.size() < 2) return false;
  const ProcessFacts& first = df.processes.front();
  for (const ProcessFacts& p : df.processes)
    if (!p.wants || p.wants->kind == SqlToken::Kind::kParam || p.wait_table.empty() ||
        p.wait_table != first.wait_table || p.wants->Text() != first.wants->Text())
      return false;
  return true;
}

class LockUpgrade : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG004", "lock-upgrade", Severity::kError,
                                "each transaction holds a weak lock on the same object and asks "
                                "for a stronger one"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || !event.deadlock->complete) return;
    const Deadlock& d = *event.deadlock;
    const DeadlockFacts& df = *facts.deadlock;
    std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
    for (const ProcessFacts& p : df.processes) evidence.push_back(pg_rules::ProcessEvidence(p, d));
    if (OneRelation(d)) {
      const ProcessFacts& p = df.processes.front();
      std::string table = p.wait_table.empty() ? LockRelation(p.wait->lock) : p.wait_table;
      out->push_back(MakeFinding(pg_rules::JoinIds(Ids(df)) + " each hold a lock on " + table +
                                     " and each wait for " + p.wait->mode + " on it",
                                 RelationHint(table, p.wait->mode), std::move(evidence)));
    } else if (OneRow(df)) {
      const ProcessFacts& p = df.processes.front();
      std::string row = p.wait_table + " " + p.wants->Text();
      out->push_back(MakeFinding(pg_rules::JoinIds(Ids(df)) + " each hold a shared lock on " +
                                     row + " and each wait to lock it exclusively",
                                 RowHint(p), std::move(evidence)));
    }
  }

 private:
  static std::string RelationHint(const std::string& table, const std::string& mode) {
    std::string hint = "Each transaction first took a lock on " + table +
                       " that lets the others in too (LOCK TABLE ... IN SHARE MODE, CREATE "
                       "INDEX, or a read) and then asked for " + mode + ". ";
    if (mode == "RowExclusiveLock")
      return hint + "Take the lock the writes need at the start, in a mode that conflicts with "
                    "itself: `LOCK TABLE " + table + " IN SHARE ROW EXCLUSIVE MODE` instead of "
                    "SHARE MODE, so that the second transaction waits before it holds anything. "
                    "Retrying only repeats the deadlock.";
    return hint + "Take " + mode + " on " + table + " at the start of the transaction (`LOCK "
                  "TABLE " + table + " IN ... MODE` first), so that the second transaction waits "
                  "before it holds anything. Retrying only repeats the deadlock.";
  }

  static std::string RowHint(const ProcessFacts& p) {
    const std::string& t = p.wait_table;
    const std::string key = p.wants->Text();
    return "Both transactions first took a shared lock on the same " + t + " row (SELECT ... "
           "FOR SHARE or FOR KEY SHARE, or a foreign-key check from a child insert) and then "
           "wanted to change it. Take the lock the change needs at the start: `SELECT ... FROM " +
           t + " WHERE " + key + " FOR UPDATE` (FOR NO KEY UPDATE when the key does not change) "
           "instead of FOR SHARE, so that the second transaction waits before it holds "
           "anything; or make the change in one statement (`UPDATE ... RETURNING`). " +
           std::string(pg_rules::kNotIsolation);
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg004LockUpgrade(const RuleSettings&) {
  return std::make_unique<LockUpgrade>();
}

}  // namespace lockgraph
