// PG006 ddl-vs-dml: an AccessExclusiveLock (ALTER TABLE, DROP, TRUNCATE,
// LOCK TABLE) in a deadlock cycle, or waiting for a table while other
// queries queue behind it. docs/rules/PG006.md.
#include <algorithm>
#include <cstdio>
#include <map>

#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

constexpr std::string_view kTimeoutFix =
    "Give schema changes a short lock timeout and retry them: `SET lock_timeout = '2s';` "
    "before the DDL, in its own short transaction, retried on SQLSTATE 55P03 "
    "(lock_not_available). The DDL then gives up instead of queueing every query on the table "
    "behind it or joining a cycle. A longer timeout makes the queue longer, not shorter.";

std::string Ms(const LockWait& w) {
  if (!w.waited_ms) return "?";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", *w.waited_ms);
  return buf;
}

std::string Pids(const std::vector<int64_t>& pids) {
  std::vector<std::string> s;
  for (int64_t p : pids) s.push_back(std::to_string(p));
  return pg_rules::JoinIds(s);
}

class DdlVsDml : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG006", "ddl-vs-dml", Severity::kWarning,
                                "DDL's AccessExclusiveLock in a deadlock, or at the head of a "
                                "queue of waiting queries"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (event.deadlock && facts.deadlock) OnDeadlock(event, *facts.deadlock, out);
    if (event.lock_wait && facts.wait) OnWait(event, *facts.wait, out);
    if (event.chain) OnTree(event, out);
  }

 private:
  struct DdlWait {
    int64_t pid;
    std::string what;  // "ALTER TABLE settings ... (8527)"
  };

  void OnDeadlock(const Event& event, const DeadlockFacts& df, std::vector<Finding>* out) {
    for (const ProcessFacts& p : df.processes) {
      // A table lock: AccessExclusiveLock on a tuple is the row-lock queue
      // of FOR UPDATE and DELETE, not DDL.
      bool exclusive = p.wait && p.wait->mode == "AccessExclusiveLock" &&
                       p.wait->lock.type == "relation";
      if (!exclusive && !p.statement.ddl) continue;
      std::string table = p.statement.table.empty() ? p.wait_table : p.statement.table;
      std::vector<std::string> evidence = pg_rules::CycleEvidence(event);
      for (const ProcessFacts& q : df.processes)
        evidence.push_back(pg_rules::ProcessEvidence(q, *event.deadlock));
      out->push_back(MakeFinding(Message(p, table), Hint(p, table, *event.deadlock),
                                 std::move(evidence)));
      return;
    }
  }

  // Names the lock p waits for as the report does: its relation by name,
  // anything else (a virtual transaction, a row's transaction) by its label.
  static std::string Message(const ProcessFacts& p, const std::string& table) {
    std::string waited = "a lock";
    if (p.wait) {
      bool relation = !LockRelation(p.wait->lock).empty();
      std::string on = relation ? (p.wait_table.empty() ? table : p.wait_table) : p.wait->lock.Label();
      waited = p.wait->mode + " on " + on;
    }
    return p.participant->id + "'s " + pg_rules::OneLine(p.query, 70) + " waits for " + waited +
           " inside a deadlock: its transaction holds what the others need";
  }

  static std::string Hint(const ProcessFacts& p, const std::string& table, const Deadlock& d) {
    if (!Concurrently(p.statement))
      return std::string(kTimeoutFix) + " Do not hold other locks in the migration's "
             "transaction: commit the DML first.";
    std::string t = table.empty() ? "the table" : table;
    std::string hint =
        "CREATE INDEX CONCURRENTLY (and REINDEX CONCURRENTLY) holds ShareUpdateExclusiveLock on " +
        t + " and waits, between its phases, for every transaction that could still see the "
        "table without the new index" + (p.wait && p.wait->lock.type == "virtualxid"
                                             ? " (here " + p.wait->lock.Label() + ")" : "") +
        ". A transaction open meanwhile that then asks for a lock conflicting with "
        "ShareUpdateExclusiveLock on " + t + " (LOCK TABLE, ALTER TABLE, VACUUM, ANALYZE, "
        "another CREATE INDEX) closes a cycle. Run it when no long transaction touches " + t +
        ", and give the others a lock_timeout (`SET lock_timeout = '2s'`) so that they give "
        "up instead.";
    if (p.participant->id == d.victim)
      hint += " The build was cancelled: it leaves an INVALID index behind; `DROP INDEX "
              "CONCURRENTLY` it, then run CREATE INDEX CONCURRENTLY again.";
    return hint;
  }

  static bool Concurrently(const StatementFacts& s) {
    return s.ddl && s.normalized.find(" concurrently ") != std::string::npos &&
           (s.verb == "create" || s.verb == "reindex");
  }

  void OnWait(const Event& event, const StatementFacts& st, std::vector<Finding>* out) {
    const LockWait& w = *event.lock_wait;
    if (w.lock.type != "relation") return;  // tuple locks are row-lock queues
    const std::string key = w.lock.Key();
    std::string table = st.table.empty() ? LockRelation(w.lock) : st.table;
    if (w.mode == "AccessExclusiveLock") {
      std::string what = pg_rules::OneLine(w.statement.empty() ? "a DDL statement" : w.statement, 70);
      ddl_waits_[key] = {w.pid.value_or(0), what + " (" + w.waiter + ")"};
      if (!st.table.empty()) names_[key] = st.table;
      std::string message = w.waiter + " waited " + Ms(w) + " for AccessExclusiveLock on " +
                            table + " (" + what + ")" +
                            (w.holders.empty() ? "" : " behind " + Pids(w.holders)) +
                            "; every later query on " + table + " queues behind it";
      out->push_back(MakeFinding(std::move(message), std::string(kTimeoutFix), Evidence(event)));
      return;
    }
    auto ddl = ddl_waits_.find(key);
    if (ddl == ddl_waits_.end() || ddl->second.pid == w.pid.value_or(-1)) return;
    if (std::find(w.queue.begin(), w.queue.end(), ddl->second.pid) == w.queue.end()) return;
    auto name = names_.find(key);
    if (name != names_.end() && st.table.empty()) table = name->second;
    std::string message = w.waiter + " waited " + Ms(w) + " for " + w.mode + " on " + table +
                          ", queued behind " + ddl->second.what +
                          ", which waited for AccessExclusiveLock ahead of it";
    out->push_back(MakeFinding(std::move(message), std::string(kTimeoutFix), Evidence(event)));
  }

  // A blocking tree of a snapshot: a member waits for AccessExclusiveLock
  // on a table and others queue behind it (their edge names it as blocker).
  void OnTree(const Event& event, std::vector<Finding>* out) const {
    const BlockingTree& t = *event.chain;
    for (const BlockingTree::Member& m : t.members) {
      const Backend& ddl = m.backend;
      if (ddl.wait_mode != "AccessExclusiveLock" || ddl.wait_lock.type != "relation") continue;
      std::vector<std::string> behind, ahead;
      for (const WaitEdge& e : t.edges) {
        if (e.blocker == ddl.id) behind.push_back(e.waiter);
        if (e.waiter == ddl.id) ahead.push_back(e.blocker);
      }
      if (behind.empty()) continue;
      std::string table = LockRelation(ddl.wait_lock);
      std::string message = ddl.id + "'s " + pg_rules::OneLine(ddl.query.empty() ? "DDL" : ddl.query, 70) +
                            " waits " + pg_rules::Seconds(ddl.wait_age_ms) +
                            " for AccessExclusiveLock on " + table +
                            (ahead.empty() ? "" : " behind " + pg_rules::JoinIds(ahead)) + "; " +
                            pg_rules::JoinIds(behind) + " queue behind it";
      std::vector<std::string> evidence{pg_rules::Lines(event) + ": blocking tree rooted at " +
                                        t.members.front().backend.id};
      for (const WaitEdge& e : t.edges) evidence.push_back(pg_rules::EdgeText(e));
      out->push_back(MakeFinding(std::move(message), std::string(kTimeoutFix), std::move(evidence)));
      return;
    }
  }

  static std::vector<std::string> Evidence(const Event& event) {
    const LockWait& w = *event.lock_wait;
    std::vector<std::string> e{pg_rules::Lines(event) + ": " + w.waiter + " waited for " + w.mode +
                               " on " + w.lock.Label() + ", outcome " +
                               WaitOutcomeName(w.outcome)};
    e.push_back("holders: " + Pids(w.holders) + "; wait queue: " + Pids(w.queue));
    if (!w.statement.empty()) e.push_back("statement: " + pg_rules::OneLine(w.statement, 160));
    return e;
  }

  std::map<std::string, DdlWait> ddl_waits_;    // by lock key: the last DDL wait seen
  std::map<std::string, std::string> names_;    // lock key -> table named by the DDL
};

}  // namespace

std::unique_ptr<Rule> MakePg006DdlVsDml(const RuleSettings&) {
  return std::make_unique<DdlVsDml>();
}

}  // namespace lockgraph
