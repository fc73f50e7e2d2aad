// MY006 auto-inc-lock: a transaction of the report waits for the table-level
// AUTO-INC lock (innodb_autoinc_lock_mode 0, or 1 with bulk inserts).
// docs/rules/MY006.md.
#include "rules/mysql/builtin_rules.h"
#include "rules/mysql/my_text.h"
#include "rules/rule_text.h"

namespace lockgraph {
namespace {

using namespace my_rules;

class AutoIncLock : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"MY006", "auto-inc-lock", Severity::kWarning,
                                "a transaction waits for the table-level AUTO-INC lock", "mysql"};
    return kInfo;
  }

  void OnEvent(const Event& event, const EventFacts&, std::vector<Finding>* out) override {
    if (event.engine != "mysql" || !event.deadlock) return;
    const Deadlock& d = *event.deadlock;
    for (const Participant& p : d.processes) {
      if (p.wait_mode != "AUTO_INC") continue;
      std::string message = Who(d, p.id) + " waits for the AUTO-INC lock on " + p.wait_resource;
      std::string hint =
          "InnoDB holds the table-level AUTO-INC lock to the end of the statement for inserts "
          "whose row count is not known in advance (INSERT ... SELECT, REPLACE ... SELECT, LOAD "
          "DATA) under innodb_autoinc_lock_mode = 1, and for every insert under mode 0. Set "
          "innodb_autoinc_lock_mode = 2 (interleaved; the default since MySQL 8.0, safe with "
          "binlog_format = ROW), or split the bulk insert into smaller statements. " +
          std::string(kRetry);
      std::vector<std::string> evidence{pg_rules::Lines(event) + ": " + d.message};
      evidence.push_back(Who(d, p.id) + ": " + pg_rules::OneLine(p.query, 160));
      out->push_back(MakeFinding(std::move(message), std::move(hint), std::move(evidence)));
      return;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMy006AutoIncLock(const RuleSettings&) {
  return std::make_unique<AutoIncLock>();
}

}  // namespace lockgraph
