// PG008 deadlock-in-function: the victim waited inside a PL/pgSQL or SQL
// function; point at the function, its line and the statement there, which
// the DETAIL (top-level queries only) does not show. docs/rules/PG008.md.
#include <algorithm>

#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

// "transfer(integer,integer)" -> "transfer"
std::string BareName(const std::string& function) {
  std::string name = function.substr(0, function.find('('));
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

// The column of the first "column = ..." after WHERE, whatever the value
// (a PL/pgSQL variable such as p_to).
std::string WhereColumn(std::string_view sql) {
  std::vector<SqlToken> t = TokenizeSql(sql);
  for (size_t i = 0; i + 2 < t.size(); ++i)
    if (t[i].text == "where" && t[i + 1].kind == SqlToken::Kind::kWord && t[i + 2].text == "=")
      return t[i + 1].text;
  return "";
}

class DeadlockInFunction : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG008", "deadlock-in-function", Severity::kNote,
                                "the deadlock happened inside a function: its name, line and "
                                "statement"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || !facts.deadlock->function) return;
    const Deadlock& d = *event.deadlock;
    const DeadlockFacts& df = *facts.deadlock;
    const ContextFrame& fn = *df.function;
    const bool plpgsql = fn.text.rfind("PL/pgSQL", 0) == 0;
    std::string where = fn.function + (fn.line ? (plpgsql ? " line " : " statement ") +
                                                     std::to_string(*fn.line) : "");
    std::string inner = df.sql_statement ? pg_rules::OneLine(df.sql_statement->statement, 80) : "";
    std::string message = d.victim + " deadlocked inside " + (plpgsql ? "PL/pgSQL" : "SQL") +
                          " function " + where + (inner.empty() ? "" : " (" + inner + ")");
    std::vector<std::string> callers;
    const std::string name = BareName(fn.function);
    for (const ProcessFacts& p : df.processes)
      if (p.participant->id != d.victim &&
          std::find(p.statement.calls.begin(), p.statement.calls.end(), name) !=
              p.statement.calls.end())
        callers.push_back(p.participant->id);
    if (!callers.empty())
      message += "; " + pg_rules::JoinIds(callers) + (callers.size() == 1 ? " calls" : " call") +
                 " it too";
    std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
    for (const ContextFrame& f : d.context) evidence.push_back("CONTEXT: " + pg_rules::OneLine(f.text, 200));
    for (const ProcessFacts& p : df.processes) evidence.push_back(pg_rules::ProcessEvidence(p, d));
    out->push_back(MakeFinding(std::move(message), Hint(df, where), std::move(evidence)));
  }

 private:
  static std::string Hint(const DeadlockFacts& df, const std::string& where) {
    std::string hint = "Look at " + where + ": the statement there waits for a lock another "
                       "transaction holds. The log shows only the other processes' top-level "
                       "calls, not the statements inside them. ";
    std::string table = df.row_wait ? df.row_wait->relation : "";
    std::string column = df.sql_statement ? WhereColumn(df.sql_statement->statement) : "";
    if (!table.empty() && !column.empty())
      return hint + "Make the function take its row locks in one order at its start, e.g. "
                    "`PERFORM 1 FROM " + table + " WHERE " + column + " IN (...) ORDER BY " +
                    column + " FOR UPDATE;` before it changes the rows.";
    return hint + "Make the function take its locks in one fixed order, at its start.";
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg008DeadlockInFunction(const RuleSettings&) {
  return std::make_unique<DeadlockInFunction>();
}

}  // namespace lockgraph
