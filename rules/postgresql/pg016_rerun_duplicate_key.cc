// PG016 re-run-duplicate-key: "duplicate key value violates unique
// constraint" (23505) errors on a table that lock waits or deadlocks of the
// same table surround: two runs of one job inserting the same rows at once,
// the second stopped by the constraint, not by a lock. Run-level: one finding
// per constraint. docs/rules/PG016.md.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "analysis/log_time.h"
#include "io/text_spool.h"
#include "rules/postgresql/builtin_rules.h"
#include "rules/postgresql/pg016_near.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

// How far apart (either way) an error and a lock event of its table may be.
constexpr int64_t kNearMs = 60'000;
// Lock events kept per table before the old ones are pruned; errors kept with
// their text before those that can no longer be shown lose it.
constexpr size_t kMaxKept = 4096;
// The finding shows this many errors and lock events of a constraint.
constexpr size_t kShown = 5;

// Where an event is (pg_rules::Where), its file kept once in names_.
struct Place {
  const std::string* file;
  uint64_t first_line, last_line;
  std::string Text() const { return pg_rules::Where(*file, first_line, last_line); }
};

// Two texts of an error or a lock event, one after the other in the rule's
// TextSpool (on disk past 1 MiB): read back only for the evidence shown.
struct TextPair {
  TextSpool::Ref ref;
  uint32_t first_size = 0;
};

// What only the evidence of a finding reads of an error: dropped once it can
// no longer be among the first kShown of its constraint.
struct ViolationText {
  Place where;
  TextPair key_statement;
};

// pid and constraint point into RerunDuplicateKey::names_: a long log
// repeats a few constraints and pids across many thousands of errors.
struct Violation {
  const std::string* pid;
  const std::string* constraint;
  std::optional<int64_t> ms;
  std::unique_ptr<ViolationText> text;
};

struct LockEvent {
  const std::string* pid;        // in names_
  Place where;
  // "12 waited 1502.3 ms for ShareLock on transaction 7 (acquired)", then a
  // wait's statement ("" for a deadlock).
  TextPair text_statement;
  std::optional<int64_t> first_ms, last_ms;
};

struct Seen {
  std::vector<Violation> violations;
  std::vector<int64_t> violation_ms;  // their known times, sorted
  std::vector<LockEvent> locks;
  size_t prune_at = kMaxKept;  // doubles when pruning keeps most of them
  size_t with_text = 0;        // errors that still have their text
  size_t trim_at = kMaxKept;   // see Trim
};

class RerunDuplicateKey : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG016", "re-run-duplicate-key", Severity::kWarning,
                                "duplicate-key errors (23505) next to lock waits on the same "
                                "table: a job run twice at once, stopped by a UNIQUE key"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts& facts, std::vector<Finding>*) override {
    std::string pid = event.pid ? std::to_string(*event.pid) : "";
    if (event.unique_violation) {
      const UniqueViolation& u = *event.unique_violation;
      StatementFacts st = ReadStatementTarget(u.statement);
      if (st.table.empty()) return;  // no STATEMENT: the table is unknown
      Seen& seen = by_table_[st.table];
      seen.violations.push_back(
          {Name(pid), Name(u.constraint), LogClockMs(event.time),
           std::make_unique<ViolationText>(ViolationText{At(event), Keep(u.key, u.statement)})});
      if (const std::optional<int64_t>& ms = seen.violations.back().ms)
        seen.violation_ms.insert(
            std::upper_bound(seen.violation_ms.begin(), seen.violation_ms.end(), *ms), *ms);
      ++seen.with_text;
      Trim(&seen);
    } else if (event.lock_wait && facts.wait && !facts.wait->table.empty()) {
      const LockWait& w = *event.lock_wait;
      char ms[32] = "?";
      if (w.waited_ms) std::snprintf(ms, sizeof ms, "%.1f", *w.waited_ms);
      by_table_[facts.wait->table].locks.push_back(
          {Name(w.waiter), At(event),
           Keep(w.waiter + " waited " + ms + " ms for " + w.mode + " on " + w.lock.Label() + " (" +
                    WaitOutcomeName(w.outcome) + ")",
                w.statement),
           LogClockMs(w.start_time), LogClockMs(w.end_time.empty() ? event.time : w.end_time)});
      Prune(&by_table_[facts.wait->table]);
    } else if (event.deadlock && facts.deadlock) {
      std::map<std::string, bool> tables;
      for (const ProcessFacts& p : facts.deadlock->processes)
        if (!p.wait_table.empty()) tables[p.wait_table] = true;
      for (const auto& [table, unused] : tables)
        by_table_[table].locks.push_back({Name(pid), At(event),
                                          Keep("deadlock, victim " + event.deadlock->victim, ""),
                                          LogClockMs(event.time), LogClockMs(event.time)});
    }
  }

  // Memory stays bounded on long logs: a lock event far older than the
  // newest one can only be near errors already seen, which were paired in
  // Finish anyway (so it is kept when an error of its table is near it).
  void Prune(Seen* seen) {
    if (seen->locks.size() < seen->prune_at || !seen->locks.back().last_ms) return;
    const int64_t newest = *seen->locks.back().last_ms;
    std::vector<LockEvent> kept;
    for (LockEvent& l : seen->locks) {
      bool old = l.last_ms && *l.last_ms < newest - 2 * kNearMs;
      if (!old || AnyNear(seen->violation_ms, Span(l), kNearMs)) kept.push_back(std::move(l));
    }
    seen->locks = std::move(kept);
    seen->prune_at = std::max(kMaxKept, 2 * seen->locks.size());
  }

  // The text of an error its finding can no longer show goes; its time, pid
  // and constraint stay, so the counts and the order are the same. That is
  // an error after the kShown-th error of its constraint near a lock event:
  // that lock event stays (Prune keeps what is near an error), and later
  // errors come after, so those kShown stay the first shown, in any input
  // order. (Lock events keep their text: with inputs read out of time order,
  // an old one can still become one of the first shown.)
  void Trim(Seen* seen) {
    if (seen->with_text < seen->trim_at) return;
    std::map<std::string, size_t> last_shown;  // constraint -> its kShown-th near error
    for (const auto& [constraint, group] : Pair(*seen))
      if (group.errors.size() >= kShown) last_shown[constraint] = group.errors[kShown - 1];
    for (size_t i = 0; i < seen->violations.size(); ++i) {
      Violation& v = seen->violations[i];
      auto it = last_shown.find(*v.constraint);
      if (v.text && it != last_shown.end() && i > it->second) {
        v.text.reset();
        --seen->with_text;
      }
    }
    // Each trim pairs everything kept: waiting for a sixteenth of it to be
    // new keeps that work O(n log^2 n) over the run, not quadratic.
    seen->trim_at = std::max({kMaxKept, 2 * seen->with_text,
                              (seen->violations.size() + seen->locks.size()) / 16});
  }

  static std::map<std::string, NearGroup> Pair(const Seen& seen) {
    std::vector<NearError> errors;
    errors.reserve(seen.violations.size());
    for (const Violation& v : seen.violations) errors.push_back({v.ms, *v.pid, *v.constraint});
    std::vector<NearSpan> spans;
    spans.reserve(seen.locks.size());
    for (const LockEvent& l : seen.locks) spans.push_back(Span(l));
    return PairNear(errors, spans, kNearMs);
  }

  // Near: both times known, the error within kNearMs of the lock event's
  // span (pg016_near.h).
  void Finish(const RunFacts&, std::vector<Finding>* out) override {
    for (const auto& [table, seen] : by_table_) {
      for (const auto& [constraint, group] : Pair(seen)) {
        std::vector<const Violation*> failed;
        for (size_t i : group.errors) failed.push_back(&seen.violations[i]);
        std::vector<const LockEvent*> near;
        for (size_t j : group.spans) near.push_back(&seen.locks[j]);
        out->push_back(Make(table, constraint, failed, near, group.after_own_wait));
      }
    }
  }

 private:
  static NearSpan Span(const LockEvent& l) { return {l.first_ms, l.last_ms, *l.pid}; }

  const std::string* Name(const std::string& name) { return &*names_.insert(name).first; }
  Place At(const Event& e) { return {Name(e.source.file), e.source.first_line, e.source.last_line}; }

  TextPair Keep(std::string_view first, std::string_view second) {
    std::string both;
    both.reserve(first.size() + second.size());
    both.append(first).append(second);
    return {texts_.Add(both), uint32_t(first.size())};
  }

  std::pair<std::string, std::string> Read(const TextPair& p) {
    std::string buffer;
    std::string_view both;
    if (!texts_.Read(p.ref, &buffer, &both))
      return {"(lockgraph could not read its temporary file back)", ""};
    return {std::string(both.substr(0, p.first_size)), std::string(both.substr(p.first_size))};
  }

  Finding Make(const std::string& table, const std::string& constraint,
               const std::vector<const Violation*>& errors, const std::vector<const LockEvent*>& locks,
               bool after_own_wait) {
    // Trim keeps the text of every error shown: none is ever without.
    auto text_of = [&](const Violation& v) {
      return v.text ? std::make_pair(v.text->where.Text(), Read(v.text->key_statement))
                    : std::make_pair(std::string(), std::make_pair(std::string(), std::string()));
    };
    std::string cols = KeyColumns(text_of(*errors.front()).second.first);
    // Key values and statements stay out of the message and go to "key: "
    // and "statement: " lines, which --redact masks (run-level findings).
    std::string message =
        std::to_string(errors.size()) + " duplicate-key error" + (errors.size() == 1 ? "" : "s") +
        " (23505) on " + table + " (constraint " + constraint + (cols.empty() ? "" : " on " + cols) +
        ") within " + std::to_string(kNearMs / 1000) + " s of " + std::to_string(locks.size()) +
        " lock wait" + (locks.size() == 1 ? "" : "s") + " or deadlock" +
        (locks.size() == 1 ? "" : "s") + " on " + table +
        (after_own_wait ? "; the failing backend had waited for the lock first" : "");
    std::vector<std::string> evidence;
    for (size_t i = 0; i < errors.size() && i < kShown; ++i) {
      const auto [where, key_statement] = text_of(*errors[i]);
      const auto& [key, statement] = key_statement;
      evidence.push_back(where + ": " + *errors[i]->pid +
                         " failed: duplicate key value violates unique constraint " +
                         *errors[i]->constraint);
      if (!key.empty()) evidence.push_back("key: " + key);
      evidence.push_back("statement: " + pg_rules::OneLine(statement, 160));
    }
    for (size_t i = 0; i < locks.size() && i < kShown; ++i) {
      const auto [text, statement] = Read(locks[i]->text_statement);
      evidence.push_back(locks[i]->where.Text() + ": " + text);
      if (!statement.empty()) evidence.push_back("statement: " + pg_rules::OneLine(statement, 160));
    }
    std::string hint =
        "Two runs of the same work inserted the same rows of " + table + " at the same time: one "
        "waited for the other's uncommitted row and failed with 23505 when that one committed. "
        "A lock (advisory or FOR UPDATE) only stops runs that overlap, never a re-run after the "
        "first committed; the UNIQUE key on the run's natural key is what stops the double "
        "work, so keep " + constraint + " (or add one) on that key" +
        (cols.empty() ? "" : " " + cols) + ", and write INSERT ... ON CONFLICT " +
        (cols.empty() ? "" : cols + " ") + "DO NOTHING so that a re-run or an overlapping run "
        "skips the rows already made instead of failing and rolling back its whole batch.";
    return MakeFinding(std::move(message), std::move(hint), std::move(evidence));
  }

  // "(customer_id, period)=(7, 2026-11)" -> "(customer_id, period)".
  static std::string KeyColumns(const std::string& key) {
    if (key.empty() || key[0] != '(') return "";
    size_t end = key.find(")=(");
    return end == std::string::npos ? "" : key.substr(0, end + 1);
  }

  std::map<std::string, Seen> by_table_;
  std::set<std::string> names_;  // pids, constraints and file names, each once
  TextSpool texts_{1 << 20};     // the TextPairs' bytes
};

}  // namespace

std::unique_ptr<Rule> MakePg016RerunDuplicateKey(const RuleSettings&) {
  return std::make_unique<RerunDuplicateKey>();
}

}  // namespace lockgraph
