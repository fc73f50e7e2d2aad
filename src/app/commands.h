// The subcommands, each wired to CLI11 by main.cc. A command returns the
// process exit code (docs/cli.md#exit-codes).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace lockgraph {

enum ExitCode : int {
  kExitOk = 0,
  kExitFindings = 1,  // check: a limit or rule was broken
  kExitError = 2,     // usage or input error
};

/// Adds `analyze` to `app`; *run is set to the function to call when the
/// subcommand was chosen.
void AddAnalyzeCommand(CLI::App& app);

/// Adds `check` (the CI gate) and `baseline` (docs/ci.md).
void AddCheckCommand(CLI::App& app);
void AddBaselineCommand(CLI::App& app);
/// Adds `report` (the HTML page; docs/report.md).
void AddReportCommand(CLI::App& app);

/// Adds `watch` (poll live servers' pg_locks; docs/watch.md).
void AddWatchCommand(CLI::App& app);

/// Adds `follow` (tail server logs across rotation, NDJSON; docs/follow.md).
void AddFollowCommand(CLI::App& app);

/// Adds `rules` (list the rules) and `explain ID` (print a rule's page).
void AddRulesCommand(CLI::App& app);
void AddExplainCommand(CLI::App& app);

/// Adds the hidden `completion bash|zsh` and `manpage [COMMAND]`: shell
/// completions and man pages from the options of every command added to
/// `app` (before or after this call).
void AddCompletionCommand(CLI::App& app);

}  // namespace lockgraph
