// PG005 foreign-key-parent-child: a child-table write waits in its foreign
// key check (FOR KEY SHARE on the parent row, shown in CONTEXT), or an INSERT
// waits for a row lock of a transaction that locks rows of another table,
// against FOR UPDATE, DELETE or key updates of the parent. docs/rules/PG005.md.
#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

// The foreign-key check the server runs through SPI:
// SELECT 1 FROM ONLY "public"."orders" x WHERE "id" OPERATOR(pg_catalog.=) $1 FOR KEY SHARE OF x
bool IsForeignKeyCheck(const StatementFacts& s) {
  return s.verb == "select" && s.row_lock == "for key share" && !s.table.empty();
}

// The first quoted identifier after WHERE in the check: the parent's key column.
std::string CheckedColumn(std::string_view sql) {
  std::vector<SqlToken> t = TokenizeSql(sql);
  for (size_t i = 0; i + 1 < t.size(); ++i)
    if (t[i].kind == SqlToken::Kind::kWord && t[i].text == "where" &&
        t[i + 1].kind == SqlToken::Kind::kQuoted)
      return t[i + 1].text;
  return "";
}

bool LocksRows(const StatementFacts& s) {
  return s.verb == "update" || s.verb == "delete" || (s.verb == "select" && !s.row_lock.empty());
}

std::string HowItLocks(const StatementFacts& s) {
  if (s.verb == "select") {
    std::string clause = s.row_lock;
    for (char& c : clause) c = char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return "SELECT ... " + clause;
  }
  if (s.verb == "delete") return "DELETE";
  return "UPDATE";
}

class ForeignKeyParentChild : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG005", "foreign-key-parent-child", Severity::kError,
                                "child inserts lock the parent row (FOR KEY SHARE) against "
                                "locks or updates of the parent"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock) return;
    const Deadlock& d = *event.deadlock;
    const DeadlockFacts& df = *facts.deadlock;
    for (const ProcessFacts& p : df.processes) {
      if (!p.wait || p.wait->lock.type != "transactionid") continue;
      const ProcessFacts* blocker = df.Find(p.wait->blocker);
      if (!blocker) continue;
      const bool victim = p.participant->id == d.victim;
      std::string child = ReadStatement(p.participant->query).table;
      std::string parent, column, how;
      if (victim && IsForeignKeyCheck(p.statement)) {
        parent = p.statement.table;
        if (df.sql_statement) column = CheckedColumn(df.sql_statement->statement);
        how = "in its foreign-key check (FOR KEY SHARE on a row of " + parent + ": see CONTEXT)";
      } else if (!victim && p.statement.verb == "insert" && LocksRows(blocker->statement) &&
                 blocker->statement.table != p.statement.table) {
        parent = blocker->statement.table;
        how = "(an INSERT waits for another transaction's row lock only in a foreign-key "
              "check, or on a duplicate key)";
      } else {
        continue;
      }
      out->push_back(MakeFinding(Message(p, *blocker, child, how),
                                 Hint(child, parent, column, blocker->statement),
                                 Evidence(event, df)));
      return;
    }
  }

 private:
  static std::string Message(const ProcessFacts& p, const ProcessFacts& blocker,
                             const std::string& child, const std::string& how) {
    std::string m = p.participant->id + "'s write to " + (child.empty() ? "the child table" : child) +
                    " waits for " + blocker.participant->id;
    if (LocksRows(blocker.statement))
      m += ", which locks " + blocker.statement.table + " rows with " + HowItLocks(blocker.statement);
    return m + (how.front() == '(' ? " " : ", ") + how;
  }

  static std::string Hint(const std::string& child, const std::string& parent,
                          const std::string& column, const StatementFacts& blocker) {
    std::string c = child.empty() ? "the child table" : child;
    std::string key = column.empty() ? "key" : column;
    std::string hint = "Every insert into " + c + " (and every update of its foreign key) takes "
                       "FOR KEY SHARE on the referenced row of " + parent + ". That lock conflicts "
                       "only with FOR UPDATE, DELETE and updates of the " + parent + " " + key +
                       ". ";
    if (blocker.verb == "select" && blocker.row_lock == "for update")
      hint += "Lock " + parent + " rows with `FOR NO KEY UPDATE` instead of FOR UPDATE when the "
              "key does not change: it does not conflict with the foreign-key check. ";
    hint += "Lock the parent row first, in one order (by " + key + ") in every transaction, "
            "before inserting its children. " + std::string(pg_rules::kNotIsolation);
    return hint;
  }

  static std::vector<std::string> Evidence(const Event& event, const DeadlockFacts& df) {
    std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
    for (const ProcessFacts& p : df.processes)
      evidence.push_back(pg_rules::ProcessEvidence(p, *event.deadlock));
    if (df.sql_statement)
      evidence.push_back("CONTEXT: " + pg_rules::OneLine(df.sql_statement->text, 200));
    return evidence;
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg005ForeignKeyParentChild(const RuleSettings&) {
  return std::make_unique<ForeignKeyParentChild>();
}

}  // namespace lockgraph
