// PG009 retry-storm: deadlocks of the same statements come back again and
// again within seconds, or one backend is the victim again and again:
// clients retrying at once, without backoff, re-run the same interleaving.
// Bursts are followed as deadlocks stream by (memory: one open burst per
// statement set and per victim, pruned as time moves on); the findings are
// made at the end of the run. docs/rules/PG009.md.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "analysis/log_time.h"
#include "analysis/signature.h"
#include "rules/postgresql/builtin_rules.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

constexpr int64_t kWindowMs = 10000;  // at most this long between two repeats
constexpr size_t kMinRepeats = 3;     // deadlocks in one burst
constexpr size_t kPruneEvery = 4096;  // deadlocks between two prunings

// Deadlocks that followed each other within kWindowMs.
struct Burst {
  size_t count = 0;
  int64_t first_ms = 0, last_ms = 0;
  std::string first_time, last_time, first_where, last_where, example;
  std::map<std::string, size_t> victims;
  std::set<std::string> signatures, rules, applications;
  bool in_statement_storm = false;  // victim bursts: some deadlock was in one
};

std::string Seconds(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", double(ms) / 1000.0);
  return buf;
}

std::string Join(const std::set<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

// "9303 x8, 9304 x5": victims seen more than once, most often first.
std::string RepeatedVictims(const Burst& b) {
  std::vector<std::pair<std::string, size_t>> v(b.victims.begin(), b.victims.end());
  std::stable_sort(v.begin(), v.end(), [](auto& a, auto& c) { return a.second > c.second; });
  std::string out;
  for (size_t i = 0; i < v.size() && i < 4 && v[i].second > 1; ++i)
    out += (out.empty() ? "" : ", ") + v[i].first + " x" + std::to_string(v[i].second);
  return out;
}

class RetryStorm : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG009", "retry-storm", Severity::kWarning,
                                "the same statements deadlock again and again within seconds, "
                                "or one backend is the victim again and again"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>*) override {
    if (!event.deadlock || !facts.deadlock) return;
    std::optional<int64_t> ms = LogClockMs(event.time);
    if (!ms) return;  // no usable time: nothing to say about "within seconds"
    std::set<std::string> shapes;
    for (const ProcessFacts& p : facts.deadlock->processes) shapes.insert(p.shape);
    std::string key;
    for (const std::string& shape : shapes) key += shape + "\n";
    std::string example = facts.deadlock->processes.empty()
                              ? ""
                              : pg_rules::OneLine(ReadableSql(facts.deadlock->processes.front().statement.normalized), 80);
    Add(&by_statements_[Fnv1a64Hex(key)], event, *ms, example, &statement_storms_);
    Add(&by_victim_[event.deadlock->victim], event, *ms, example, &victim_storms_);
    latest_ms_ = std::max(latest_ms_, *ms);
    if (++seen_ % kPruneEvery == 0) Prune(latest_ms_ - kWindowMs);
  }

  void Finish(const RunFacts&, std::vector<Finding>* out) override {
    Prune(INT64_MAX);
    // In time order, whatever order the bursts were closed in.
    std::stable_sort(statement_storms_.begin(), statement_storms_.end(),
                     [](const Burst& a, const Burst& b) { return a.first_ms < b.first_ms; });
    std::stable_sort(victim_storms_.begin(), victim_storms_.end(), [](const auto& a, const auto& b) {
      return a.second.first_ms != b.second.first_ms ? a.second.first_ms < b.second.first_ms
                                                     : a.first < b.first;
    });
    for (const Burst& b : statement_storms_) out->push_back(StatementStorm(b));
    std::vector<std::string> who, evidence;
    size_t total = 0;
    for (const auto& [victim, b] : victim_storms_) {
      if (b.in_statement_storm) continue;  // told already, with its statements
      who.push_back(victim + " x" + std::to_string(b.count) + " in " +
                    Seconds(b.last_ms - b.first_ms));
      evidence.push_back(victim + ": " + b.first_where + " ... " + b.last_where);
      total += b.count;
    }
    if (who.empty()) return;
    out->push_back(MakeFinding("backends were the deadlock victim again and again within "
                               "seconds, in deadlocks of different statements: " +
                                   pg_rules::JoinIds(who),
                               Hint("", total, 0), std::move(evidence)));
  }

 private:
  template <typename Done>
  void Add(Burst* b, const Event& event, int64_t ms, const std::string& example, Done* done) {
    if (b->count && ms - b->last_ms > kWindowMs) Close(b, done);
    if (b->count == 0) {
      b->first_ms = ms;
      b->first_time = event.time;
      b->first_where = pg_rules::Where(event);
      b->example = example;
    }
    ++b->count;
    b->last_ms = std::max(b->last_ms, ms);
    b->last_time = event.time;
    b->last_where = pg_rules::Where(event);
    ++b->victims[event.deadlock->victim];
    b->signatures.insert(event.signature);
    for (const Finding& f : event.findings) b->rules.insert(f.rule_id);
    if (!event.session.application.empty()) b->applications.insert(event.session.application);
  }

  // A burst of kMinRepeats or more is kept; either way the slot starts over.
  void Close(Burst* b, std::vector<Burst>* done) {
    if (b->count >= kMinRepeats) done->push_back(std::move(*b));
    *b = Burst{};
  }
  void Close(Burst* b, std::vector<std::pair<std::string, Burst>>* done) {
    if (b->count >= kMinRepeats) {
      std::string victim = b->victims.begin()->first;
      done->emplace_back(victim, std::move(*b));
    }
    *b = Burst{};
  }

  // Closes the bursts that ended before `before`; marks the victim bursts that
  // overlap a statement storm, in which they were already named.
  void Prune(int64_t before) {
    for (auto it = by_statements_.begin(); it != by_statements_.end();) {
      if (it->second.last_ms < before) {
        Close(&it->second, &statement_storms_);
        it = by_statements_.erase(it);
      } else {
        ++it;
      }
    }
    for (auto it = by_victim_.begin(); it != by_victim_.end();) {
      if (it->second.last_ms < before) {
        Close(&it->second, &victim_storms_);
        it = by_victim_.erase(it);
      } else {
        ++it;
      }
    }
    for (auto& [victim, b] : victim_storms_)
      for (const Burst& s : statement_storms_)
        if (s.victims.count(victim) && s.first_ms <= b.last_ms && b.first_ms <= s.last_ms)
          b.in_statement_storm = true;
  }

  Finding StatementStorm(const Burst& b) const {
    std::string message = std::to_string(b.count) + " deadlocks of the same statements within " +
                          Seconds(b.last_ms - b.first_ms) + " (" + b.example + ")";
    if (b.signatures.size() > 1)
      message += " in " + std::to_string(b.signatures.size()) + " cycle shapes";
    std::string victims = RepeatedVictims(b);
    if (!victims.empty()) message += "; the same backends were victims again: " + victims;
    std::vector<std::string> evidence{"first: " + b.first_time + " (" + b.first_where + ")",
                                      "last: " + b.last_time + " (" + b.last_where + ")"};
    if (!b.applications.empty()) evidence.push_back("victims' applications: " + Join(b.applications));
    evidence.push_back("signatures: " + Join(b.signatures));
    Finding f = MakeFinding(std::move(message),
                            Hint(Join(b.rules), b.count, b.last_ms - b.first_ms), std::move(evidence));
    f.signatures.assign(b.signatures.begin(), b.signatures.end());
    return f;
  }

  static std::string Hint(const std::string& causes, size_t n, int64_t span_ms) {
    std::string hint = causes.empty() ? "Fix the cause of these deadlocks first. "
                                      : "Fix the cause first (" + causes + " on these deadlocks). ";
    hint += "Then retry only SQLSTATE 40P01 (deadlock_detected) and 40001 "
            "(serialization_failure), at most about 3 times, after a random sleep with full "
            "jitter (sleep random(0, min(cap, base * 2^attempt))), and never retry other errors: "
            "an immediate retry re-runs the same interleaving";
    if (span_ms > 0) hint += ", as here: " + std::to_string(n) + " deadlocks in " + Seconds(span_ms);
    return hint + ". A longer deadlock_timeout or lock_timeout does not help.";
  }

  std::map<std::string, Burst> by_statements_;  // open bursts by statement set (hash)
  std::map<std::string, Burst> by_victim_;      // open bursts by victim pid
  std::vector<Burst> statement_storms_;         // closed bursts worth a finding
  std::vector<std::pair<std::string, Burst>> victim_storms_;
  int64_t latest_ms_ = INT64_MIN;
  size_t seen_ = 0;
};

}  // namespace

std::unique_ptr<Rule> MakePg009RetryStorm(const RuleSettings&) {
  return std::make_unique<RetryStorm>();
}

}  // namespace lockgraph
