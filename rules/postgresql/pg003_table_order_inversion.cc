// PG003 table-order-inversion: the participants of a cycle wait for rows or
// locks of different tables, each holding what the next one wants: their
// transactions touch the same tables in different orders. docs/rules/PG003.md.
#include <algorithm>

#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

// Participants whose wait table says which table they went to next. An
// INSERT waiting for a row waits in another table (a foreign key or unique
// index: PG005's case); DDL is PG006's.
bool Ordered(const ProcessFacts& p) {
  const StatementFacts& s = p.statement;
  if (!p.wait || p.wait_table.empty() || s.ddl) return false;
  const std::string& type = p.wait->lock.type;
  if (type == "relation") return true;
  return (type == "transactionid" || type == "tuple") && s.verb != "insert";
}

class TableOrderInversion : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG003", "table-order-inversion", Severity::kError,
                                "transactions touch the same tables in different orders"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || !event.deadlock->complete) return;
    const DeadlockFacts& df = *facts.deadlock;
    std::vector<std::string> tables;
    for (const ProcessFacts& p : df.processes) {
      if (!Ordered(p)) return;  // a participant we cannot place: say nothing
      if (std::find(tables.begin(), tables.end(), p.wait_table) == tables.end())
        tables.push_back(p.wait_table);
    }
    if (tables.size() < 2) return;
    // Each process holds what the process it blocks waits for.
    std::vector<std::string> steps;
    for (const ProcessFacts& p : df.processes) {
      const ProcessFacts* blocked = nullptr;
      for (const ProcessFacts& q : df.processes)
        if (q.wait->blocker == p.participant->id) blocked = &q;
      if (blocked && blocked->wait_table != p.wait_table && steps.size() < 4)
        steps.push_back(p.participant->id + " holds " + blocked->wait_table + " and waits for " +
                        p.wait_table);
    }
    if (steps.empty()) return;
    std::vector<std::string> sorted = tables;
    std::sort(sorted.begin(), sorted.end());
    std::string order;
    for (const std::string& t : sorted) order += (order.empty() ? "" : ", then ") + t;
    std::string message = "the transactions touch " + pg_rules::JoinIds(sorted) +
                          " in different orders: " + Join(steps);
    bool table_locks = false;  // a relation-lock cycle (LOCK TABLE and the like)
    for (const ProcessFacts& p : df.processes)
      table_locks = table_locks || p.wait->lock.type == "relation";
    std::string hint =
        "Touch these tables in one fixed order in every transaction, for example " + order +
        " (alphabetical, or parents before children), moving the statements of the "
        "transactions that go the other way: " + Join(steps) + ". " +
        (table_locks ? "Or take the table locks up front in that order (`LOCK TABLE a, b IN "
                       "... MODE` locks them one by one, as listed). " +
                           std::string(pg_rules::kNotIsolationTables)
                     : "Or lock everything the transaction needs up front (`SELECT ... FOR "
                       "UPDATE` on each table, in that order). " +
                           std::string(pg_rules::kNotIsolation));
    std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
    for (const ProcessFacts& p : df.processes) {
      evidence.push_back(pg_rules::ProcessEvidence(p, *event.deadlock));
      evidence.push_back(p.participant->id + " waits in table " + p.wait_table);
    }
    out->push_back(MakeFinding(std::move(message), std::move(hint), std::move(evidence)));
  }

 private:
  static std::string Join(const std::vector<std::string>& parts) {
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : "; ") + p;
    return s;
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg003TableOrderInversion(const RuleSettings&) {
  return std::make_unique<TableOrderInversion>();
}

}  // namespace lockgraph
