// `lockgraph rules`: the rules, one line each: ID, name, default severity,
// summary.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iomanip>
#include <iostream>

#include "app/commands.h"
#include "rules/rule.h"

namespace lockgraph {
namespace {

int RunRules() {
  std::vector<std::unique_ptr<Rule>> rules = RegisterBuiltinRules(RuleSettings{});
  size_t name_width = 4;
  for (const auto& r : rules) name_width = std::max(name_width, r->info().name.size());
  std::cout << std::left << std::setw(7) << "ID" << std::setw(int(name_width) + 2) << "NAME"
            << std::setw(10) << "SEVERITY" << "SUMMARY\n";
  for (const auto& r : rules) {
    const RuleInfo& i = r->info();
    std::cout << std::setw(7) << std::string(i.id) << std::setw(int(name_width) + 2)
              << std::string(i.name) << std::setw(10) << SeverityName(i.severity)
              << std::string(i.summary) << '\n';
  }
  return kExitOk;
}

}  // namespace

void AddRulesCommand(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("rules", "List the rules: ID, name, default severity, summary");
  cmd->footer(R"(Examples:
  lockgraph rules
  lockgraph explain PG001                     # the page of one rule
  lockgraph analyze --disable MS004 system_health.xml
  lockgraph analyze --rules PG001,PG002 postgresql.log
  lockgraph analyze --disable PG011 postgresql.log)");
  cmd->callback([]() { throw CLI::RuntimeError(RunRules()); });
}

}  // namespace lockgraph
