// PG012 deadlock-at-commit: the cycle closed at COMMIT, where PostgreSQL
// checks deferred constraints (a DEFERRABLE unique, exclusion or foreign-key
// constraint, or a deferred constraint trigger) and waits for the other
// transactions that wrote the same keys. docs/rules/PG012.md.
#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

// COMMIT, END, COMMIT AND CHAIN, COMMIT WORK: the statement that ends the
// transaction (COMMIT PREPARED runs no deferred checks of a live session).
bool IsCommit(std::string_view sql) {
  StatementFacts s = ReadStatement(sql);
  if (s.verb != "commit" && s.verb != "end") return false;
  return s.normalized.find("prepared") == std::string::npos;
}

// What the victim's CONTEXT says was being checked.
std::string CheckedConstraint(const DeadlockFacts& df) {
  if (df.row_wait) {
    const std::string& a = df.row_wait->action;
    if (a == "inserting index" || a == "checking uniqueness of")
      return "the deferred unique constraint of index " + df.row_wait->relation;
    if (a == "checking exclusion constraint on")
      return "the deferred exclusion constraint of " + df.row_wait->relation;
  }
  if (df.sql_statement && df.sql_statement->statement.find("FOR KEY SHARE") != std::string::npos)
    return "a deferred foreign key (its check: " + pg_rules::OneLine(df.sql_statement->statement, 90) + ")";
  return "";
}

class DeadlockAtCommit : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG012", "deadlock-at-commit", Severity::kError,
                                "the cycle closed at COMMIT, in the check of a deferred "
                                "constraint"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || event.engine != "postgresql") return;
    const Deadlock& d = *event.deadlock;
    const DeadlockFacts& df = *facts.deadlock;
    std::vector<std::string> at_commit;
    for (const ProcessFacts& p : df.processes)
      if (IsCommit(p.participant->query) || (p.participant->id == d.victim && IsCommit(d.statement)))
        at_commit.push_back(p.participant->id);
    if (at_commit.empty()) return;
    std::string checked = CheckedConstraint(df);
    std::string message = pg_rules::JoinIds(at_commit) + (at_commit.size() == 1 ? " was" : " were") +
                          " waiting in COMMIT: the cycle closed while " +
                          (checked.empty() ? "deferred constraints or triggers were checked"
                                           : checked + " was checked");
    std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
    for (const ProcessFacts& p : df.processes) evidence.push_back(pg_rules::ProcessEvidence(p, d));
    if (df.row_wait || df.sql_statement) {
      std::string context;
      for (const ContextFrame& f : d.context) context += (context.empty() ? "" : " / ") + f.text;
      evidence.push_back("victim's CONTEXT: " + pg_rules::OneLine(context, 200));
    }
    out->push_back(MakeFinding(std::move(message), std::string(kHint), std::move(evidence)));
  }

 private:
  static constexpr std::string_view kHint =
      "A deferred constraint is checked at COMMIT, after every statement of the transaction "
      "has run: two transactions that wrote the same keys in different orders (each inserting "
      "a value the other one inserted too, or a child row whose parent the other one locked) "
      "then wait for each other only at the end, and the lock order of the statements cannot "
      "show it. Write the keys in one order (sort them), or check the constraint when the row "
      "is written (`SET CONSTRAINTS ... IMMEDIATE`, or NOT DEFERRABLE) so that the second "
      "writer waits at its INSERT, before it holds anything else; or serialize the writers of "
      "one key (`INSERT ... ON CONFLICT`, a row or advisory lock on the key first). Retrying "
      "the whole transaction is safe: nothing of it was committed.";
};

}  // namespace

std::unique_ptr<Rule> MakePg012DeadlockAtCommit(const RuleSettings&) {
  return std::make_unique<DeadlockAtCommit>();
}

}  // namespace lockgraph
