// What `analyze` and `report` share: the input options (files, format,
// prefix, rule selection) and reading every input through the Analyzer, so
// that both commands read logs the same way.
#pragma once

#include <string>
#include <vector>

#include "app/analyzer.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace lockgraph {

struct InputArgs {
  std::vector<std::string> files;
  std::string input_format;
  std::string prefix;
  RuleSelection rules;
  CLI::Option* prefix_option = nullptr;  // set by AddInputOptions
};

/// Adds FILE..., --input-format, --prefix, --rules, --disable, --max-wait.
void AddInputOptions(CLI::App* cmd, InputArgs* args);

/// The analyzer options for `args` (rules checked by CheckInputArgs).
AnalyzeOptions MakeAnalyzeOptions(const InputArgs& args);

/// False (message on stderr, prefixed "lockgraph COMMAND: ") when the rule
/// selection names an unknown rule.
bool CheckInputArgs(const InputArgs& args, const std::string& command);

/// Reads every file ("-": stdin; no file: stdin unless it is a terminal).
/// Errors go to stderr. Returns kExitOk, or kExitError when an input could
/// not be read or recognised; *analysed counts the inputs read.
int ReadInputs(Analyzer& analyzer, const InputArgs& args, const std::string& command,
               size_t* analysed);

/// The stderr note about lines not understood, when there were any.
void NoteUnparsed(const Report& report);

}  // namespace lockgraph
