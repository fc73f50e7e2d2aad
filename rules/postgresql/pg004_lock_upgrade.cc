// PG004 lock-upgrade: the participants hold a weaker lock on one and the
// same object and each asks for a stronger one: every edge on one relation,
// or every process waiting to write the one row they all name.
// docs/rules/PG004.md.
#include <algorithm>

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
      // Each participant's own requested mode: they need not be the same
      // (one inserts, RowExclusiveLock; another asks LOCK TABLE ... EXCLUSIVE).
      std::vector<std::string> waits, modes;
      for (const ProcessFacts& q : df.processes) {
        if (!q.wait) continue;
        waits.push_back(q.participant->id + " for " + q.wait->mode);
        if (std::find(modes.begin(), modes.end(), q.wait->mode) == modes.end())
          modes.push_back(q.wait->mode);
      }
      std::string message = pg_rules::JoinIds(Ids(df)) + " each hold a lock on " + table;
      message += modes.size() == 1 ? " and each wait for " + modes.front() + " on it"
                                   : " and each wait for a stronger one: " + pg_rules::JoinIds(waits);
      out->push_back(MakeFinding(std::move(message), RelationHint(table, modes), std::move(evidence)));
    } else if (OneRow(df)) {
      const ProcessFacts& p = df.processes.front();
      std::string row = p.wait_table + " " + p.wants->Text();
      out->push_back(MakeFinding(pg_rules::JoinIds(Ids(df)) + " each hold a shared lock on " +
                                     row + " and each wait to lock it exclusively",
                                 RowHint(p), std::move(evidence)));
    }
  }

 private:
  static std::string RelationHint(const std::string& table, const std::vector<std::string>& modes) {
    const std::string asked = pg_rules::JoinIds(modes);
    std::string hint = "Each transaction first took a lock on " + table +
                       " that lets the others in too (LOCK TABLE ... IN SHARE MODE, CREATE "
                       "INDEX, or a read) and then asked for " + asked + ". ";
    if (modes.size() == 1 && modes.front() == "RowExclusiveLock")
      return hint + "Take the lock the writes need at the start, in a mode that conflicts with "
                    "itself: `LOCK TABLE " + table + " IN SHARE ROW EXCLUSIVE MODE` instead of "
                    "SHARE MODE, so that the second transaction waits before it holds anything. "
                    "Retrying only repeats the deadlock.";
    if (modes.size() == 1)
      return hint + "Take " + asked + " on " + table + " at the start of the transaction (`LOCK "
                    "TABLE " + table + " IN ... MODE` first), so that the second transaction "
                    "waits before it holds anything. Retrying only repeats the deadlock.";
    return hint + "Take the strongest of these at the start of every such transaction (`LOCK "
                  "TABLE " + table + " IN ... MODE` first, in a mode that conflicts with "
                  "itself), so that the second transaction waits before it holds anything. "
                  "Retrying only repeats the deadlock.";
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
