// PG010 long-lock-wait: a log_lock_waits wait at least --max-wait long
// (default 1000 ms), with its holder, the queue and the blocking chain; at
// the end, the root blockers behind the most long waits. docs/rules/PG010.md.
#include <algorithm>
#include <cstdio>
#include <map>

#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"
#include "text/milliseconds.h"

namespace lockgraph {
namespace {

std::string Pids(const std::vector<int64_t>& pids, const char* sep) {
  std::string s;
  for (int64_t p : pids) s += (s.empty() ? "" : sep) + std::to_string(p);
  return s;
}

class LongLockWait : public Rule {
 public:
  explicit LongLockWait(double max_wait_ms) : max_wait_ms_(max_wait_ms) {}

  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG010", "long-lock-wait", Severity::kWarning,
                                "a lock wait longer than --max-wait (1000 ms), with its holder, "
                                "queue and blocking chain"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (event.chain) OnTree(event, out);
    if (!event.lock_wait) return;
    const LockWait& w = *event.lock_wait;
    if (!w.waited_ms || *w.waited_ms < max_wait_ms_) return;
    std::string message = w.waiter + " waited " + Ms(*w.waited_ms) + " for " + w.mode + " on " +
                          w.lock.Label() + " (" + WaitOutcomeName(w.outcome) + ")";
    if (!w.holders.empty()) message += ", held by " + Pids(w.holders, ", ");
    if (w.chain.size() > 2) message += ", chain " + Pids(w.chain, " -> ");
    std::string root = w.chain.empty() || w.chain_is_cycle ? "" : std::to_string(w.chain.back());
    if (!root.empty()) {
      ++waits_by_root_[root];
      if (w.chain.size() > longest_chain_.size()) longest_chain_ = w.chain;
    }
    std::vector<std::string> evidence{pg_rules::Lines(event) + ": " + std::to_string(w.reports.size()) +
                                      " log_lock_waits report(s), longest after " + Ms(*w.waited_ms)};
    evidence.push_back("holders: " + Pids(w.holders, ", ") + "; wait queue: " + Pids(w.queue, ", "));
    if (!w.chain.empty()) evidence.push_back("chain: " + Pids(w.chain, " -> "));
    if (!w.statement.empty()) evidence.push_back("statement: " + pg_rules::OneLine(w.statement, 160));
    out->push_back(MakeFinding(std::move(message), Hint(w, root), std::move(evidence)));
    ++fired_;
  }

  // A blocking tree of a snapshot whose root has held a waiter at least
  // --max-wait: the root blocker, how long, whom.
  void OnTree(const Event& event, std::vector<Finding>* out) {
    const BlockingTree& t = *event.chain;
    if (t.members.size() < 2) return;
    const Backend& root = t.members.front().backend;
    const Backend* longest = nullptr;
    std::vector<std::string> blocked;
    for (size_t i = 1; i < t.members.size(); ++i) {
      const Backend& b = t.members[i].backend;
      blocked.push_back(b.id);
      if (b.wait_age_ms && (!longest || *b.wait_age_ms > *longest->wait_age_ms)) longest = &b;
    }
    if (!longest || *longest->wait_age_ms < max_wait_ms_) return;
    std::string message = "root blocker " + root.id + " (" + (root.state.empty() ? "state unknown" : root.state) +
                          ") holds up " + pg_rules::JoinIds(blocked) + "; " + longest->id +
                          " has waited " + Ms(*longest->wait_age_ms) + " for " + longest->wait_mode +
                          " on " + longest->wait_lock.Label();
    std::vector<std::string> evidence{pg_rules::Lines(event) + ": blocking tree rooted at " + root.id};
    if (!root.query.empty()) evidence.push_back("root's query: " + pg_rules::OneLine(root.query, 160));
    for (const WaitEdge& e : t.edges) evidence.push_back(pg_rules::EdgeText(e));
    std::string hint =
        "Every process of the tree waits, directly or not, for " + root.id + ", which waits for "
        "no lock: see what it runs (its query, `state`, `xact_start` in pg_stat_activity) and "
        "why its transaction stays open. If it must not run that long, end it "
        "(`SELECT pg_cancel_backend(" + root.id + ")`, or pg_terminate_backend when it is idle "
        "in transaction); then keep the transactions that lock these rows or tables short, and "
        "give the waiters a lock_timeout so that they fail fast instead of piling up.";
    out->push_back(MakeFinding(std::move(message), std::move(hint), std::move(evidence)));
  }

  void Finish(const RunFacts&, std::vector<Finding>* out) override {
    if (fired_ < 2 || waits_by_root_.empty()) return;
    std::vector<std::pair<std::string, int>> roots(waits_by_root_.begin(), waits_by_root_.end());
    std::stable_sort(roots.begin(), roots.end(), [](auto& a, auto& b) { return a.second > b.second; });
    std::string list;
    for (size_t i = 0; i < roots.size() && i < 5; ++i)
      list += (list.empty() ? "" : ", ") + roots[i].first + " (" + std::to_string(roots[i].second) + ")";
    out->push_back(MakeFinding(
        std::to_string(fired_) + " lock waits of at least " + Ms(max_wait_ms_) +
            "; root blockers (waits behind them): " + list + "; longest chain " +
            Pids(longest_chain_, " -> "),
        "Start with the root blockers: what did their transactions do while others waited? "
        "Keep transactions short, and do no I/O (HTTP calls, file or queue work) while holding "
        "locks; set idle_in_transaction_session_timeout so that a forgotten open transaction "
        "cannot hold locks for long.",
        {"threshold: --max-wait " + Ms(max_wait_ms_)}));
  }

 private:
  static std::string Hint(const LockWait& w, const std::string& root) {
    std::string who = root.empty() ? "the holder" : root;
    return who + " held the lock for at least " + Ms(*w.waited_ms) + ". Find out what " + who +
           "'s transaction did meanwhile: in "
           "pg_stat_activity look at its state ('idle in transaction' means the application "
           "held the lock between statements), xact_start and query. Keep transactions short "
           "and do I/O (HTTP calls, file or queue work) before or after them, not inside; set "
           "idle_in_transaction_session_timeout. A longer lock_timeout or statement_timeout "
           "only hides the wait.";
  }

  double max_wait_ms_;
  int fired_ = 0;
  std::map<std::string, int> waits_by_root_;
  std::vector<int64_t> longest_chain_;
};

}  // namespace

std::unique_ptr<Rule> MakePg010LongLockWait(const RuleSettings& settings) {
  return std::make_unique<LongLockWait>(settings.max_wait_ms);
}

}  // namespace lockgraph
