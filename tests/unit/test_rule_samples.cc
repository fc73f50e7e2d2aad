// The rules on the logs of a real PostgreSQL 15 server (samples/postgresql,
// made by scripts/make-rule-samples.sh and scripts/make-samples.sh): each
// scenario's deadlock gets exactly the rules it was made for, every other
// rule stays silent; the same in the stderr log, the csvlog and the jsonlog.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "rule_test_util.h"

using namespace lockgraph;
using namespace lockgraph::rule_test;

namespace {

// "lg_r_text_order_B" -> "text_order"; "lg_r_retry" -> "retry".
std::string Scenario(const std::string& application) {
  std::string s = application.rfind("lg_r_", 0) == 0 ? application.substr(5) : application;
  if (s.size() > 2 && s[s.size() - 2] == '_') s.resize(s.size() - 2);
  return s;
}

const std::map<std::string, std::string> kDeadlockRules = {
    {"row_order", "PG001"},       {"text_order", "PG001 PG002"}, {"table_order", "PG003"},
    {"upgrade_row", "PG004"},     {"upgrade_table", "PG004"},    {"fk", "PG005"},
    {"fk_parent", "PG005"},       {"advisory_xact", "PG007"},    {"advisory_session", "PG007"},
    {"ddl_deadlock", "PG006"},    {"function", "PG001 PG008"},   {"clipped", "PG001"},
    {"retry", "PG001"},
};

// Lock waits (by the waiter's application) with findings; every other wait has none.
const std::map<std::string, std::string> kWaitRules = {
    {"lg_r_ddl_queue_B", "PG006 PG010"}, {"lg_r_ddl_queue_C", "PG006 PG010"},
    {"lg_r_ddl_queue_D", "PG006 PG010"}, {"lg_r_ddl_deadlock_B", "PG006"},
    {"lg_r_advisory_session_A", "PG007"}, {"lg_r_function_B", "PG010"},
};

void CheckRulesSample(const std::string& file) {
  INFO(file);
  Report r = AnalyzeSample(file);
  std::set<std::string> seen;
  for (const Event& ev : r.events) {
    const std::string app = ev.session.application;
    INFO("event at line " << ev.source.first_line << ", application " << app);
    if (ev.deadlock) {
      std::string scenario = Scenario(app);
      seen.insert(scenario);
      REQUIRE(kDeadlockRules.count(scenario));
      CHECK(RuleIds(ev) == kDeadlockRules.at(scenario));
    } else {
      auto it = kWaitRules.find(app);
      CHECK(RuleIds(ev) == (it == kWaitRules.end() ? "" : it->second));
    }
  }
  // The stderr log writes one of them as "deadlock detected at character 13"
  // (csvlog and jsonlog keep the position apart): every format has them all.
  CHECK(seen.size() == kDeadlockRules.size());
  std::vector<std::string> run;
  for (const Finding& f : r.findings) run.push_back(f.rule_id);
  CHECK(run == std::vector<std::string>{"PG009", "PG010", "PG011"});
}

}  // namespace

TEST_CASE("rules.log, .csv, .json: each scenario's deadlock gets its rules, no others",
          "[rules][samples]") {
  CheckRulesSample("postgresql/rules.log");
  CheckRulesSample("postgresql/rules.csv");
  CheckRulesSample("postgresql/rules.json");
}

TEST_CASE("scenarios.log: opposite orders and random checkouts are PG001, nothing else",
          "[rules][samples]") {
  Report r = AnalyzeSample("postgresql/scenarios.log");
  int deadlocks = 0;
  for (const Event& ev : r.events) {
    if (!ev.deadlock) continue;
    ++deadlocks;
    INFO("deadlock at line " << ev.source.first_line);
    CHECK(RuleIds(ev) == "PG001");
  }
  CHECK(deadlocks == 45);
  std::vector<std::string> run;
  for (const Finding& f : r.findings) run.push_back(f.rule_id);
  CHECK(run == std::vector<std::string>{"PG009", "PG010"});
  // One storm: the checkout's 43 deadlocks of one UPDATE, in many cycle shapes.
  CHECK(RunFindings(r, "PG009")[0].message.rfind("43 deadlocks of the same statements", 0) == 0);
}

TEST_CASE("groups.log: two shapes, exactly two groups of 6 and 4", "[rules][samples][groups]") {
  Report r = AnalyzeSample("postgresql/groups.log");
  REQUIRE(r.summary.deadlocks == 10);
  REQUIRE(r.groups.size() == 2);
  const DeadlockGroup& pairs = r.groups[0];
  const DeadlockGroup& rings = r.groups[1];
  CHECK(pairs.count == 6);
  CHECK(rings.count == 4);
  REQUIRE(pairs.members.size() == 2);
  REQUIRE(rings.members.size() == 3);
  for (const SignatureMember& m : pairs.members) {
    CHECK(m.statement == "update accounts set balance = balance - ? where id = ?");
    CHECK(m.wait == "ShareLock transactionid");
  }
  for (const SignatureMember& m : rings.members)
    CHECK(m.statement == "update stock set qty = qty - ? where sku = ?");
  CHECK(pairs.rules == std::vector<std::string>{"PG001", "PG009"});
  // Every deadlock carries its group's signature; pids, keys and amounts differ.
  std::set<std::string> victims;
  for (const Event& ev : r.events)
    if (ev.deadlock) {
      victims.insert(ev.deadlock->victim);
      bool pair = ev.deadlock->edges.size() == 2;
      CHECK(ev.signature == (pair ? pairs.signature : rings.signature));
    }
  CHECK(victims.size() == 10);
  CHECK(pairs.first_time < pairs.last_time);
}
