// PG001 inconsistent-row-lock-order: participants of a row-lock cycle run
// the same statement (or lock rows of one table by the same column) on
// different rows, so each holds a row another one wants. docs/rules/PG001.md.
#include <map>

#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using pg_rules::JoinIds;
using Members = std::vector<const ProcessFacts*>;

// The largest set of participants with one statement shape, else with one
// (table, key column); ties go to the set seen first.
Members SameStatementMembers(const DeadlockFacts& df, bool* same_shape) {
  std::map<std::string, Members> by_shape, by_column;
  std::vector<std::string> shape_order, column_order;
  for (const ProcessFacts& p : df.processes) {
    // No statement (client output, a query line missing, a placeholder such
    // as "<insufficient privilege>"): no shape to share. COMMIT shares no
    // row order either: the rows were written before it (PG012's cycles).
    const std::string& verb = p.statement.verb;
    if (pg_rules::HasStatement(*p.participant) && verb != "commit" && verb != "end") {
      Members& s = by_shape[p.shape];
      if (s.empty()) shape_order.push_back(p.shape);
      s.push_back(&p);
    }
    if (p.wants && !p.wait_table.empty()) {
      std::string key = p.wait_table + "\n" + p.wants->column;
      Members& c = by_column[key];
      if (c.empty()) column_order.push_back(key);
      c.push_back(&p);
    }
  }
  Members best;
  for (const std::string& k : shape_order)
    if (by_shape[k].size() > best.size()) best = by_shape[k];
  *same_shape = best.size() >= 2;
  if (*same_shape) return best;
  best.clear();
  for (const std::string& k : column_order)
    if (by_column[k].size() > best.size()) best = by_column[k];
  return best;
}

// All members name the same row: not an ordering problem (PG004's case).
bool SameRow(const Members& m) {
  for (const ProcessFacts* p : m)
    if (!p->wants || p->wants->value != m.front()->wants->value) return false;
  return true;
}

std::string TableOf(const Members& m) {
  for (const ProcessFacts* p : m)
    if (!p->wait_table.empty()) return p->wait_table;
  return "";
}

class InconsistentRowLockOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG001", "inconsistent-row-lock-order", Severity::kError,
                                "rows of one table locked in different orders by transactions "
                                "running the same statement"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || !facts.deadlock->row_cycle) return;
    bool same_shape = false;
    Members m = SameStatementMembers(*facts.deadlock, &same_shape);
    if (m.size() < 2 || SameRow(m)) return;
    std::vector<std::string> ids, orders;
    for (const ProcessFacts* p : m) {
      ids.push_back(p->participant->id);
      if (p->holds && p->wants && orders.size() < 4)
        orders.push_back(p->participant->id + " holds " + p->holds->Text() + " and waits for " +
                         p->wants->Text());
    }
    const std::string table = TableOf(m);
    std::string message = JoinIds(ids) + " lock " + (table.empty() ? "" : table + " ") +
                          "rows in different orders";
    if (!orders.empty()) message += ": " + Join(orders, "; ");
    else message += " (same statement, keys not in the log)";
    std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
    for (const ProcessFacts* p : m) evidence.push_back(pg_rules::ProcessEvidence(*p, *event.deadlock));
    if (same_shape)
      evidence.push_back("same statement shape: " +
                         pg_rules::OneLine(ReadableSql(m.front()->participant->query), 160));
    out->push_back(MakeFinding(std::move(message), Hint(m, table), std::move(evidence)));
  }

 private:
  static std::string Join(const std::vector<std::string>& parts, const char* sep) {
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : sep) + p;
    return s;
  }

  static std::string Hint(const Members& m, const std::string& table) {
    const ProcessFacts* keyed = nullptr;
    for (const ProcessFacts* p : m)
      if (p->wants && p->wants->kind != SqlToken::Kind::kParam) keyed = p;
    std::string hint;
    if (keyed && !table.empty()) {
      const std::string& col = keyed->wants->column;
      hint = "Lock " + table + " rows in one order in every transaction, sorted by " + col +
             ": sort the keys before the statements that lock them, or lock them all first "
             "with `SELECT 1 FROM " + table + " WHERE " + col + " = ANY($1) ORDER BY " + col +
             " FOR UPDATE`.";
      std::vector<std::string> took;
      for (const ProcessFacts* p : m)
        if (p->holds && p->wants && took.size() < 3)
          took.push_back(p->participant->id + " took " + p->holds->Text() + " before " +
                         p->wants->Text());
      if (!took.empty()) hint += " Here " + JoinIds(took) + ".";
    } else {
      hint = "Lock the rows in one order in every transaction: sort the keys before locking "
             "them, or lock them all first with one `SELECT ... WHERE key = ANY($1) ORDER BY "
             "key FOR UPDATE`. The keys are not in the statements (bound parameters or "
             "function arguments); the victim's CONTEXT shows where it waited.";
    }
    return hint + " " + std::string(pg_rules::kNotIsolation);
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg001InconsistentRowLockOrder(const RuleSettings&) {
  return std::make_unique<InconsistentRowLockOrder>();
}

}  // namespace lockgraph
