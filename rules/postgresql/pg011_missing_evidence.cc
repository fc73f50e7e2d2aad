// PG011 missing-evidence: what the server's logging settings kept out of
// the log, as advice about those settings: no log_lock_waits lines, queries
// clipped at track_activity_query_size, a log_line_prefix without pid or
// time, translated messages, deadlock reports without DETAIL.
// Run-level. docs/rules/PG011.md.
#include "rules/postgresql/builtin_rules.h"

namespace lockgraph {
namespace {

bool HasAny(const std::string& prefix, std::initializer_list<const char*> escapes) {
  for (const char* e : escapes)
    if (prefix.find(e) != std::string::npos) return true;
  return false;
}

class MissingEvidence : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"PG011", "missing-evidence", Severity::kNote,
                                "server settings that keep evidence out of the log"};
    return kInfo;
  }

  void Finish(const RunFacts& run, std::vector<Finding>* out) override {
    if (run.localized_deadlocks > 0) {
      out->push_back(MakeFinding(
          std::to_string(run.localized_deadlocks) + " deadlock report(s) are not in English "
          "(lc_messages), first at " + run.first_localized,
          "Set lc_messages = 'C' (or 'en_US.UTF-8') for the server log: translated lock tags "
          "and log_lock_waits lines cannot be read, so cycles are incomplete and lock waits "
          "missing. It can be set per database or role (ALTER DATABASE ... SET lc_messages).",
          {"first translated report: " + run.first_localized}));
    } else if (run.deadlocks > 0 && run.lock_waits == 0) {
      out->push_back(MakeFinding(
          std::to_string(run.deadlocks) + " deadlock(s) but not one log_lock_waits line: "
          "the waits that led to them are not in the log",
          "Set log_lock_waits = on (the default only from PostgreSQL 19; no restart: "
          "ALTER SYSTEM SET log_lock_waits = on; SELECT pg_reload_conf();). Every wait longer "
          "than deadlock_timeout is then logged with its holders and queue, deadlock or not.",
          {std::to_string(run.deadlocks) + " deadlocks, 0 lock waits in the input"}));
    }
    if (run.clipped_queries > 0)
      out->push_back(MakeFinding(
          std::to_string(run.clipped_queries) + " query text(s) in deadlock reports are clipped "
          "at track_activity_query_size (1024 bytes by default), first at " + run.first_clipped,
          "Set track_activity_query_size = 4096 (or more; it needs a server restart) so that "
          "deadlock reports show whole statements; the victim's full statement is in its "
          "STATEMENT line.",
          {"first clipped query: " + run.first_clipped}));
    if (run.deadlocks_without_detail > 0)
      out->push_back(MakeFinding(
          std::to_string(run.deadlocks_without_detail) + " deadlock report(s) have no DETAIL, "
          "so no cycle, first at " + run.first_without_detail,
          "Set log_error_verbosity = default (terse drops the DETAIL with the cycle and the "
          "queries from the stderr log), or use csvlog or jsonlog, which keep it.",
          {"first report without DETAIL: " + run.first_without_detail}));
    for (const RunFacts::Input& in : run.inputs) CheckPrefix(in, out);
  }

 private:
  void CheckPrefix(const RunFacts::Input& in, std::vector<Finding>* out) const {
    if (in.format != "stderr") return;  // csvlog and jsonlog carry pid and time; syslog its own
    const std::string& p = in.log_line_prefix;
    if (p == "%*") {  // detection fell back to "any text, then a label"
      out->push_back(MakeFinding(
          in.file + ": log_line_prefix not recognised; pids were guessed from [1234]",
          "Give the server's log_line_prefix with --prefix (SHOW log_line_prefix), exactly as in "
          "postgresql.conf, so that every field is read; '%m [%p] %q%u@%d/%a ' keeps the most.",
          {in.file + ": no known prefix fits most lines"}));
      return;
    }
    std::vector<std::string> missing;
    if (!HasAny(p, {"%p"})) missing.push_back("process id (%p)");
    if (!HasAny(p, {"%m", "%t", "%n"})) missing.push_back("time (%m)");
    if (missing.empty()) return;
    std::string what = missing.size() == 2 ? missing[0] + " and " + missing[1] : missing[0];
    out->push_back(MakeFinding(
        in.file + ": log_line_prefix '" + p + "' has no " + what,
        "Set log_line_prefix = '%m [%p] %q%u@%d/%a ' (no restart: pg_reload_conf()). Without "
        "%p the lines of concurrent backends cannot be told apart and lock waits cannot be "
        "paired; without a time repeated deadlocks cannot be told from a retry storm.",
        {in.file + ": prefix '" + p + "' (detected or given)"}));
  }
};

}  // namespace

std::unique_ptr<Rule> MakePg011MissingEvidence(const RuleSettings&) {
  return std::make_unique<MissingEvidence>();
}

}  // namespace lockgraph
