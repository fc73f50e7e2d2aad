// lockgraph: rebuilds who waited for whom from the evidence databases leave
// about deadlocks and lock waits. This file only wires CLI11 to the library.
#include <CLI/CLI.hpp>

#include <iostream>

#include "app/cli_errors.h"
#include "app/commands.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  CLI::App app{"lockgraph: deadlock and lock-wait analyzer for database logs"};
  app.set_version_flag("--version", std::string("lockgraph ") + LOCKGRAPH_VERSION);
  app.require_subcommand(1);
  app.footer("Run 'lockgraph COMMAND --help' for a command's options and examples.");
  lockgraph::AddAnalyzeCommand(app);
  lockgraph::AddCheckCommand(app);
  lockgraph::AddBaselineCommand(app);
  lockgraph::AddReportCommand(app);
  lockgraph::AddWatchCommand(app);
  lockgraph::AddRulesCommand(app);
  lockgraph::AddExplainCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a command's own exit code
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::vector<std::string> args(argv + 1, argv + argc);
    std::cerr << "lockgraph: " << lockgraph::PlainParseError(app, e, args) << '\n'
              << "Run '" << lockgraph::HelpCommand(app) << "' for the options and examples.\n";
    return lockgraph::kExitError;
  }
  return 0;
}
