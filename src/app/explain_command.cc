// `lockgraph explain ID`: prints a rule's page (docs/rules/<ID>.md), which is
// compiled into the binary.
#include <CLI/CLI.hpp>

#include <iostream>

#include "app/commands.h"
#include "rules/rule.h"
#include "rules/rule_docs.h"

namespace lockgraph {
namespace {

int RunExplain(const std::string& wanted) {
  std::string upper = wanted;
  for (char& c : upper)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  std::string ids;
  for (const auto& r : RegisterBuiltinRules(RuleSettings{})) {
    const RuleInfo& i = r->info();
    ids += (ids.empty() ? "" : ", ") + std::string(i.id);
    if (upper != i.id && wanted != i.name) continue;
    std::string_view page = RuleDoc(i.id);
    if (page.empty()) {
      std::cerr << "lockgraph explain: no page for " << i.id << " in this build\n";
      return kExitError;
    }
    std::cout << page;
    if (page.back() != '\n') std::cout << '\n';
    return kExitOk;
  }
  std::cerr << "lockgraph explain: unknown rule '" << wanted << "' (rules: " << ids
            << "; `lockgraph rules` lists them)\n";
  return kExitError;
}

}  // namespace

void AddExplainCommand(CLI::App& app) {
  auto id = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("explain", "Print a rule's page: what it detects, bad and "
                                                "good examples, the fix, when it can be wrong");
  cmd->add_option("rule", *id, "Rule ID (PG001) or name (inconsistent-row-lock-order)")->required();
  cmd->footer(R"(Examples:
  lockgraph explain PG001
  lockgraph explain numeric-keys-in-text-order
  lockgraph explain MS001                     # a SQL Server rule
  lockgraph rules                             # every ID)");
  cmd->callback([id]() { throw CLI::RuntimeError(RunExplain(*id)); });
}

}  // namespace lockgraph
