// PG017 queue-without-skip-locked: three or more backends wait at once for
// rows of one table in the same `SELECT ... FOR UPDATE ... LIMIT` (workers
// taking the next job of a queue table), in log_lock_waits reports or in a
// snapshot's blocking tree. docs/rules/PG017.md.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>

#include "analysis/log_time.h"
#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

// Three workers queued on one row: two of them at least could have taken
// other rows. Two waiters are ordinary contention.
constexpr size_t kMinWaiters = 3;

// A worker's "take the next N rows" statement: SELECT ... FOR UPDATE (or NO
// KEY UPDATE) with a LIMIT, not already SKIP LOCKED or NOWAIT. Without a
// LIMIT the statement wants particular rows, which it cannot skip.
bool TakesNextRows(const StatementFacts& st) {
  if (st.verb != "select" || st.table.empty()) return false;
  if (st.row_lock != "for update" && st.row_lock != "for no key update") return false;
  const std::string& n = st.normalized;
  return n.find(" limit ") != std::string::npos && n.find("skip locked") == std::string::npos &&
         n.find("nowait") == std::string::npos;
}

// False when `sql` cannot be such a statement: it has no "limit" in any
// case, which NormalizeSql() only lowers. Spares reading every member's
// statement of a 100,000-waiter snapshot's trees.
bool MayTakeNextRows(std::string_view sql) {
  constexpr std::string_view kLimit = "limit";
  for (size_t i = 0; i + kLimit.size() <= sql.size(); ++i) {
    size_t k = 0;
    while (k < kLimit.size() && (sql[i + k] | 0x20) == kLimit[k]) ++k;
    if (k == kLimit.size()) return true;
  }
  return false;
}

struct PastWait {
  std::string pid, where, text;
  int64_t start_ms = 0, end_ms = 0;
};

class QueueWithoutSkipLocked : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG017", "queue-without-skip-locked", Severity::kWarning,
                                "three or more workers wait at once for the rows of one "
                                "SELECT ... FOR UPDATE ... LIMIT (a queue table)"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>* out) override {
    if (event.chain) OnTree(event, out);
    if (event.lock_wait && facts.wait && TakesNextRows(*facts.wait)) OnWait(event, *facts.wait, out);
  }

 private:
  // A log wait: fires when kMinWaiters distinct backends of the same
  // statement were waiting at one moment (their waits overlap in time).
  void OnWait(const Event& event, const StatementFacts& st, std::vector<Finding>* out) {
    const LockWait& w = *event.lock_wait;
    if (w.lock.type != "transactionid" && w.lock.type != "tuple") return;
    std::optional<int64_t> start = LogClockMs(w.start_time);
    std::optional<int64_t> end = LogClockMs(w.end_time.empty() ? event.time : w.end_time);
    if (!start || !end) return;  // no times: overlap unknown, silent
    char ms[32] = "?";
    if (w.waited_ms) std::snprintf(ms, sizeof ms, "%.1f", *w.waited_ms);
    std::vector<PastWait>& past = waits_[st.table + "\n" + st.normalized];
    std::erase_if(past, [&](const PastWait& p) { return p.end_ms < *start - 60'000; });
    past.push_back({w.waiter, pg_rules::Lines(event),
                    w.waiter + " waited " + ms + " ms for " + w.mode + " on " + w.lock.Label() +
                        (w.holders.empty() ? "" : ", held by " + std::to_string(w.holders.front())) +
                        " (" + WaitOutcomeName(w.outcome) + ")",
                    *start, *end});
    std::set<std::string> at_once;
    std::vector<const PastWait*> overlapping;
    for (const PastWait& p : past)
      if (p.start_ms <= *end && p.end_ms >= *start && at_once.insert(p.pid).second)
        overlapping.push_back(&p);
    int64_t& fired_until =
        fired_until_.try_emplace(st.table + "\n" + st.normalized, INT64_MIN).first->second;
    if (at_once.size() < kMinWaiters || *start <= fired_until) return;
    fired_until = *end;
    std::vector<std::string> ids, evidence;
    for (const PastWait* p : overlapping) {
      ids.push_back(p->pid);
      evidence.push_back(p->where + ": " + p->text);
    }
    evidence.push_back("statement: " + pg_rules::OneLine(w.statement, 160));
    out->push_back(MakeFinding(Message(ids, st.table, w.statement), Hint(st.table), std::move(evidence)));
  }

  // A snapshot's blocking tree: kMinWaiters members or more wait in the
  // same statement on rows of one table.
  void OnTree(const Event& event, std::vector<Finding>* out) {
    const BlockingTree& t = *event.chain;
    std::map<std::string, std::vector<const Backend*>> by_statement;
    std::map<std::string, StatementFacts> facts;
    for (size_t i = 1; i < t.members.size(); ++i) {
      const Backend& b = t.members[i].backend;
      if (b.wait_lock.type != "transactionid" && b.wait_lock.type != "tuple") continue;
      if (!MayTakeNextRows(b.query)) continue;
      StatementFacts st = ReadStatement(b.query);
      if (!TakesNextRows(st)) continue;
      std::string key = st.table + "\n" + st.normalized;
      by_statement[key].push_back(&b);
      facts[key] = std::move(st);
    }
    for (const auto& [key, waiters] : by_statement) {
      if (waiters.size() < kMinWaiters) continue;
      std::vector<std::string> ids;
      std::vector<std::string> evidence{pg_rules::Lines(event) + ": blocking tree rooted at " +
                                        t.members.front().backend.id};
      for (const Backend* b : waiters) ids.push_back(b->id);
      for (const WaitEdge& e : t.edges)
        if (std::find(ids.begin(), ids.end(), e.waiter) != ids.end())
          evidence.push_back(pg_rules::EdgeText(e));
      evidence.push_back("statement: " + pg_rules::OneLine(waiters.front()->query, 160));
      out->push_back(MakeFinding(Message(ids, facts[key].table, waiters.front()->query),
                                 Hint(facts[key].table), std::move(evidence)));
    }
  }

  static std::string Message(const std::vector<std::string>& ids, const std::string& table,
                             const std::string& sql) {
    return std::to_string(ids.size()) + " backends (" + pg_rules::JoinIds(ids) +
           ") wait at once for rows of " + table + " in the same SELECT ... FOR UPDATE ... LIMIT, "
           "a queue taken one worker at a time: " + pg_rules::OneLine(sql, 90);
  }

  static std::string Hint(const std::string& table) {
    return "The workers all ask for the first free row of " + table + ", and all queue on the "
           "row the first one locked: they run one at a time, and under READ COMMITTED a worker "
           "that waited re-reads the row after the holder commits and may get nothing at all. "
           "Add SKIP LOCKED (`SELECT ... ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`): each "
           "worker takes the next row nobody holds, without waiting, and N workers take N "
           "jobs. Keep the job's transaction short (mark it taken and commit, then work), and "
           "index the queue's WHERE and ORDER BY columns.";
  }

  std::map<std::string, std::vector<PastWait>> waits_;  // statement -> recent waits
  std::map<std::string, int64_t> fired_until_;          // statement -> end of the last finding's wait
};

}  // namespace

std::unique_ptr<Rule> MakePg017QueueWithoutSkipLocked(const RuleSettings&) {
  return std::make_unique<QueueWithoutSkipLocked>();
}

}  // namespace lockgraph
