// See rule_engine.h.
#include "rules/rule_engine.h"

#include <algorithm>

namespace lockgraph {
namespace {

std::string Upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  return s;
}

bool Matches(const RuleInfo& info, const std::string& wanted) {
  return Upper(wanted) == info.id || wanted == info.name;
}

bool Listed(const RuleInfo& info, const std::vector<std::string>& list) {
  return std::any_of(list.begin(), list.end(), [&](const std::string& w) { return Matches(info, w); });
}

std::string Where(const Event& ev) {
  return ev.source.file + ":" + std::to_string(ev.source.first_line);
}

}  // namespace

bool RuleEngine::CheckSelection(const RuleSelection& selection, std::string* error) {
  std::vector<std::unique_ptr<Rule>> rules = RegisterBuiltinRules(selection.settings);
  std::string unknown, known;
  for (const auto& r : rules) known += (known.empty() ? "" : ", ") + std::string(r->info().id);
  for (const auto* list : {&selection.only, &selection.disable})
    for (const std::string& w : *list) {
      bool found = std::any_of(rules.begin(), rules.end(),
                               [&](const auto& r) { return Matches(r->info(), w); });
      if (!found) unknown += (unknown.empty() ? "'" : ", '") + w + "'";
    }
  if (unknown.empty()) return true;
  *error = "unknown rule " + unknown + " (rules: " + known + "; `lockgraph rules` lists them)";
  return false;
}

RuleEngine::RuleEngine(const RuleSelection& selection) {
  for (auto& r : RegisterBuiltinRules(selection.settings)) {
    if (!selection.only.empty() && !Listed(r->info(), selection.only)) continue;
    if (Listed(r->info(), selection.disable)) continue;
    rules_.push_back(std::move(r));
  }
}

RuleEngine::~RuleEngine() = default;

void RuleEngine::CountFacts(const Event& event) {
  // The run facts describe PostgreSQL logs, the only engine with run-level
  // rules so far: a SQL Server report must not count as a deadlock without
  // log_lock_waits lines. Nor a deadlock a driver printed in client output
  // (source kind "client"): it says nothing of the server's log settings.
  if (event.engine != "postgresql" || !event.source.kind.empty()) return;
  if (event.lock_wait) ++facts_.lock_waits;
  if (!event.deadlock) return;
  const Deadlock& d = *event.deadlock;
  ++facts_.deadlocks;
  for (const Participant& p : d.processes)
    if (p.query_clipped && facts_.clipped_queries++ == 0) facts_.first_clipped = Where(event);
  bool localized = d.message.rfind("deadlock detected", 0) != 0;
  for (const WaitEdge& e : d.edges) localized = localized || e.lock.type == "unknown";
  if (localized && facts_.localized_deadlocks++ == 0) facts_.first_localized = Where(event);
  // The event builder's own words when the record had no DETAIL part.
  bool no_detail = std::any_of(d.problems.begin(), d.problems.end(),
                               [](const std::string& p) { return p.rfind("no DETAIL", 0) == 0; });
  if (no_detail && facts_.deadlocks_without_detail++ == 0) facts_.first_without_detail = Where(event);
}

void RuleEngine::OnEvent(Event* event) {
  CountFacts(*event);
  EventFacts facts = ReadEventFacts(*event);
  std::optional<DeadlockSignature> signature;
  if (event->deadlock) {
    signature = SignDeadlock(*event->deadlock, *facts.deadlock);
    event->signature = signature->id;
  }
  for (const auto& rule : rules_)
    if (rule->info().engine == event->engine) rule->OnEvent(*event, facts, &event->findings);
  if (signature) grouper_.Add(*event, *signature);
}

void RuleEngine::Finish(std::vector<RunFacts::Input> inputs, std::vector<Finding>* findings,
                        std::vector<DeadlockGroup>* groups, std::vector<DeadlockCause>* causes) {
  facts_.inputs = std::move(inputs);
  for (const auto& rule : rules_) rule->Finish(facts_, findings);
  *groups = grouper_.Groups(*findings);
  if (causes) *causes = grouper_.Causes(*groups);
}

std::vector<std::string> RuleEngine::Selected() const {
  std::vector<std::string> ids;
  for (const auto& r : rules_) ids.emplace_back(r->info().id);
  return ids;
}

}  // namespace lockgraph
