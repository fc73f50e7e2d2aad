// MS002 conversion-deadlock: every process of the cycle holds a shared lock
// on one resource and asks to convert it to a stronger mode (S to X, S to
// IX, ...); none can while the others keep theirs. Read with UPDLOCK, or
// read and write in one statement. docs/rules/MS002.md.
#include <set>

#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

std::string Upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  return s;
}

// Table hints and levels that keep S locks to the end of the transaction.
std::vector<std::string> HoldingHints(const DeadlockFacts& df) {
  std::vector<std::string> found;
  for (const ProcessFacts& p : df.processes) {
    const std::string level = ms_rules::IsolationName(*p.participant);
    std::vector<std::string> words;
    if (level == "repeatable read" || level == "serializable") words.push_back(level + " isolation");
    for (const SqlToken& t : TokenizeSql(p.participant->query))
      if (t.text == "holdlock" || t.text == "tablock" || t.text == "repeatableread" ||
          t.text == "serializable")
        words.push_back(Upper(t.text) + " hint");
    for (const std::string& w : words) {
      bool seen = false;
      for (const std::string& f : found) seen = seen || f == w;
      if (!seen) found.push_back(w);
    }
  }
  return found;
}

// How many processes the report lists converting on `lock` (a resource
// reported once per waiter counts once per process).
size_t Converting(const Deadlock& d, const LockTarget& lock) {
  std::set<std::string> ids;
  for (const LockResource& r : d.resources)
    if (r.lock.type == lock.type && r.lock.text == lock.text)
      for (const auto* list : {&r.owners, &r.waiters})
        for (const LockRequest& q : *list)
          if (q.request == "convert") ids.insert(q.process);
  return ids.size();
}

class ConversionDeadlock : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS002", "conversion-deadlock", Severity::kError,
                                "processes that hold a shared lock on one resource each wait to "
                                "convert it to a stronger mode",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock || event.deadlock->edges.empty()) return;
    const Deadlock& d = *event.deadlock;
    const WaitEdge& first = d.edges[0];
    bool convert = false;
    for (const WaitEdge& e : d.edges) {
      if (e.lock.type != first.lock.type || e.lock.text != first.lock.text ||
          e.lock.Field("objectname") != first.lock.Field("objectname"))
        return;  // one resource only
      convert = convert || e.request == "convert";
    }
    if (!convert) return;
    std::vector<std::string> ids;
    for (const WaitEdge& e : d.edges) ids.push_back(e.waiter);
    const std::string held = first.blocker_mode.empty() ? "a lock" : first.blocker_mode;
    std::string message = pg_rules::JoinIds(ids) + " each hold " + held + " on " + first.lock.Label() +
                          " and wait to convert it to " + first.mode +
                          "; none can while the others keep " + held;
    size_t converting = Converting(d, first.lock);
    if (converting > ids.size())
      message += " (" + std::to_string(converting) + " processes of the report convert on it)";
    out->push_back(MakeFinding(std::move(message), Hint(*facts.deadlock, first),
                               Evidence(event, *facts.deadlock)));
  }

 private:
  static std::string Hint(const DeadlockFacts& df, const WaitEdge& first) {
    const ProcessFacts* writer = df.Find(first.waiter);
    std::string stmt = writer ? "`" + pg_rules::OneLine(writer->query, 70) + "` at " +
                                    ms_rules::WhereRuns(*writer)
                              : "the write";
    std::string hint = "The transactions read first and write later: " + stmt +
                       " needs a stronger lock than the read left. ";
    std::vector<std::string> hints = HoldingHints(df);
    if (!hints.empty())
      hint += "The read keeps its shared lock to the end of the transaction (" +
              pg_rules::JoinIds(hints) + "). ";
    if (first.lock.type == "objectlock" || first.lock.type == "hobtlock")
      hint += "Take the table lock in the mode of the write at the read: WITH (TABLOCKX, HOLDLOCK) "
              "instead of WITH (TABLOCK, HOLDLOCK), so the second transaction waits at its read; ";
    else
      hint += "Read with WITH (UPDLOCK) (U locks are compatible with readers but not with each "
              "other, so the second transaction waits at its read instead of deadlocking); ";
    hint += "or read and change in one statement (UPDATE ... SET ... OUTPUT inserted.*, or an "
            "UPDATE whose WHERE holds the check). " + std::string(ms_rules::kNotTimeouts);
    return hint;
  }

  static std::vector<std::string> Evidence(const Event& event, const DeadlockFacts& df) {
    return ms_rules::CycleAndWaitersEvidence(event, df.processes);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs002ConversionDeadlock(const RuleSettings&) {
  return std::make_unique<ConversionDeadlock>();
}

}  // namespace lockgraph
