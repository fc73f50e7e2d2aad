// MS007 application-lock-order: application locks (sp_getapplock) in the
// cycle, each process holding the resource another one waits for: the
// resources were taken in different orders. docs/rules/MS007.md.
#include "rules/rule_text.h"
#include "rules/sqlserver/builtin_rules.h"
#include "rules/sqlserver/ms_text.h"

namespace lockgraph {
namespace {

// An application lock as the report names it: the waitresource
// ("APP: 5:0:[invoice-1]:(8e0b...)") or else its hash attribute.
std::string AppLockName(const LockTarget& lock) {
  if (!lock.text.empty()) return lock.text;
  std::string hash(lock.Field("hash"));
  return hash.empty() ? lock.Label() : hash;
}

// The @LockOwner the batch passes to sp_getapplock, lower case ("session"),
// or "" when it does not say (the default is 'Transaction').
std::string LockOwner(const Participant& p) {
  std::vector<SqlToken> t = TokenizeSql(p.query);
  for (size_t i = 0; i + 2 < t.size(); ++i)
    if (t[i].text == "lockowner" && t[i + 1].text == "=" && t[i + 2].kind == SqlToken::Kind::kString) {
      std::string v = t[i + 2].text;
      for (char& c : v) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      return v;
    }
  return "";
}

class ApplicationLockOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MS007", "application-lock-order", Severity::kError,
                                "application locks (sp_getapplock) taken in different orders",
                                "sqlserver"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (!event.deadlock || !facts.deadlock) return;
    const Deadlock& d = *event.deadlock;
    std::vector<std::string> steps, took;
    bool session = false;
    for (const WaitEdge& e : d.edges) {
      if (e.lock.type != "applicationlock") continue;
      // The process e.waiter blocks waits for a resource e.waiter holds.
      for (const WaitEdge& q : d.edges)
        if (q.blocker == e.waiter && q.lock.type == "applicationlock") {
          steps.push_back(e.waiter + " holds " + AppLockName(q.lock) + " and waits for " +
                          AppLockName(e.lock));
          took.push_back(e.waiter + " took " + AppLockName(q.lock) + " first");
        }
      const ProcessFacts* p = facts.deadlock->Find(e.waiter);
      session = session || (p && LockOwner(*p->participant) == "session");
    }
    if (steps.empty()) return;
    std::string message;
    for (const std::string& s : steps) message += (message.empty() ? "" : "; ") + s;
    std::string hint = "Take sp_getapplock resources in one order everywhere: sort the resource "
                       "names and lock them one by one in that order (here " +
                       pg_rules::JoinIds(took) + "), or derive one resource name for the whole "
                       "set. ";
    if (session)
      hint += "@LockOwner = 'Session' outlives the transaction: after error 1205 the victim still "
              "holds its application locks until sp_releaseapplock or the connection closes "
              "(a pooled connection may never close); prefer @LockOwner = 'Transaction', "
              "released at COMMIT or ROLLBACK. ";
    hint += "A @LockTimeout only turns the deadlock into a timeout (return code -1); it does not "
            "remove the inverted order.";
    out->push_back(MakeFinding(std::move(message), std::move(hint),
                               ms_rules::CycleAndWaitersEvidence(event, facts.deadlock->processes)));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMs007ApplicationLockOrder(const RuleSettings&) {
  return std::make_unique<ApplicationLockOrder>();
}

}  // namespace lockgraph
