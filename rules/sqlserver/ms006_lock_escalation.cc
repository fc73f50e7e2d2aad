// MS006 lock-escalation: a process holds S, U, X or SIX on a whole table
// (objectlock) or partition (hobtlock) in the cycle although its statements
// name rows and ask for no table lock: its row locks were escalated. Table
// locks asked for with TABLOCK/TABLOCKX are not escalation (silent).
// docs/rules/MS006.md.
#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

bool WholeLock(const std::string& mode) {
  return mode == "S" || mode == "U" || mode == "X" || mode == "SIX";
}

// The process asked for a table lock itself: TABLOCK/TABLOCKX hints or
// sp_tableoption / LOCK TABLE-like statements in its batch.
bool AskedForTableLock(const ProcessFacts& p) {
  for (const std::string* text : {&p.participant->query, &p.query})
    for (const SqlToken& t : TokenizeSql(*text))
      if (t.text == "tablock" || t.text == "tablockx") return true;
  return false;
}

bool NamesRows(const ProcessFacts& p) {
  for (const std::string* text : {&p.participant->query, &p.query})
    for (const SqlToken& t : TokenizeSql(*text))
      if (t.text == "where") return true;
  return false;
}

std::string Lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return s;
}

// The holder's statement on `table` (unqualified) that names rows: a line
// of its input buffer or a frame whose statement targets the table and has
// a WHERE clause; else the statement it waits in.
std::string RowStatement(const ProcessFacts& holder, const std::string& table) {
  std::vector<std::string> texts;
  for (const ContextFrame& f : holder.participant->frames) texts.push_back(f.statement);
  std::string_view buf = holder.participant->query;
  for (size_t b = 0, e; b < buf.size(); b = e + 1) {
    e = buf.find('\n', b);
    if (e == std::string_view::npos) e = buf.size();
    texts.emplace_back(buf.substr(b, e - b));
  }
  for (const std::string& t : texts) {
    StatementFacts st = ReadStatement(t);
    if (!table.empty() && Lower(st.table) == Lower(table) && st.normalized.find(" where ") != std::string::npos)
      return t;
  }
  return holder.query;
}

class LockEscalation : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS006", "lock-escalation", Severity::kWarning,
                                "a table or partition lock in the cycle where the statements lock "
                                "rows: lock escalation",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock) return;
    const Deadlock& d = *event.deadlock;
    const DeadlockFacts& df = *facts.deadlock;
    for (const WaitEdge& e : d.edges) {
      if ((e.lock.type != "objectlock" && e.lock.type != "hobtlock") || !WholeLock(e.blocker_mode))
        continue;
      const ProcessFacts* holder = df.Find(e.blocker);
      if (!holder || AskedForTableLock(*holder) || !NamesRows(*holder)) continue;
      std::string object(e.lock.Field("objectname"));
      std::string what = e.lock.type == "hobtlock" ? "a partition of " : "the whole table ";
      std::string statement = RowStatement(*holder, ms_rules::ShortName(object));
      std::string message = ms_rules::Who(*holder->participant) + " holds " + e.blocker_mode +
                            " on " + what + (object.empty() ? e.lock.Label() : object) +
                            " while its statement (`" + pg_rules::OneLine(statement, 90) +
                            "`) names rows; " + e.waiter + " waits for " + e.mode + " on it";
      out->push_back(MakeFinding(std::move(message), Hint(*holder, statement, e),
                                 ms_rules::CycleAndWaitersEvidence(event, df.processes)));
      return;  // one finding per deadlock
    }
  }

 private:
  static std::string Hint(const ProcessFacts& holder, const std::string& statement,
                          const WaitEdge& e) {
    std::string object(e.lock.Field("objectname"));
    size_t dot = object.find('.');
    std::string two_part = dot == std::string::npos ? object : object.substr(dot + 1);
    if (two_part.empty()) two_part = "...";
    std::string hint = "Its row locks were most likely escalated to the " +
                       std::string(e.lock.type == "hobtlock" ? "partition" : "table") +
                       " (SQL Server escalates when one statement holds about 5,000 locks on one "
                       "object, or under lock memory pressure). Make `" +
                       pg_rules::OneLine(statement, 90) + "` (" + holder.participant->id +
                       ") lock fewer rows: an index on the columns of its WHERE clause (so it seeks "
                       "instead of scanning), or work in batches of fewer than 5,000 rows per "
                       "statement and transaction. ";
    if (e.lock.type == "hobtlock")
      hint += "Partition-level escalation (LOCK_ESCALATION = AUTO) lets transactions hold "
              "different partitions and wait for each other's: `ALTER TABLE " + two_part +
              " SET (LOCK_ESCALATION = TABLE);` removes that cycle. ";
    else
      hint += "`ALTER TABLE " + two_part + " SET (LOCK_ESCALATION = DISABLE);` stops escalation "
              "on this table at the cost of lock memory; use it only when the statements cannot "
              "be made smaller. ";
    return hint + std::string(ms_rules::kNotTimeouts);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs006LockEscalation(const RuleSettings&) {
  return std::make_unique<LockEscalation>();
}

}  // namespace lockgraph
