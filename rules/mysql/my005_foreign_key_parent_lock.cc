// MY005 foreign-key-parent-lock: a transaction waits for a parent row that
// another holds in S because that one inserted or updated a child row (the
// foreign-key check), its statement naming another table than the locked
// record's. docs/rules/MY005.md.
#include "rules/mysql/builtin_rules.h"
#include "rules/mysql/my_text.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using namespace my_rules;

// True when the statement names `table` as a word (backticks allowed).
bool Names(const std::string& query, std::string_view table) {
  for (size_t pos = query.find(table); pos != std::string::npos; pos = query.find(table, pos + 1)) {
    auto edge = [&](size_t i) {
      return i >= query.size() || !(std::isalnum(static_cast<unsigned char>(query[i])) || query[i] == '_');
    };
    if ((pos == 0 || edge(pos - 1)) && edge(pos + table.size())) return true;
  }
  return false;
}

class ForeignKeyParentLock : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY005", "foreign-key-parent-lock", Severity::kWarning,
                                "a parent row is held in S by the foreign-key check of a child "
                                "insert or update",
                                "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (!IsMysqlCycle(event)) return;
    const Deadlock& d = *event.deadlock;
    for (const WaitEdge& e : d.edges) {
      const Participant* b = Find(d, e.blocker);
      if (!b || BaseMode(e.blocker_mode) != "S" || e.lock.type != "record") continue;
      std::string verb = Verb(*b);
      if ((verb != "INSERT" && verb != "UPDATE") || Names(b->query, e.lock.Field("table"))) continue;
      std::string message = Who(d, e.waiter) + " waits for " + e.mode + " on " + e.lock.Label() +
                            ", held in " + e.blocker_mode + " by " + Who(d, e.blocker) +
                            ", whose statement changes another table: a foreign-key check of a child row";
      std::string hint =
          "Inserting a child row, or changing its foreign key, takes S on the parent row until "
          "the transaction ends; a transaction that then updates or deletes the parent needs X. "
          "Lock the parent row first (SELECT ... FROM parent WHERE id = ? FOR UPDATE) before "
          "inserting its children, so the second transaction waits at the start; keep counters "
          "that every child insert updates (items, totals) out of the parent row. " +
          std::string(kRetry);
      out->push_back(MakeFinding(std::move(message), std::move(hint), Evidence(event)));
      return;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy005ForeignKeyParentLock(const RuleSettings&) {
  return std::make_unique<ForeignKeyParentLock>();
}

}  // namespace lockgraph
