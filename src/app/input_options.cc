// See input_options.h.
#include "app/input_options.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <unistd.h>

#include "app/commands.h"

namespace lockgraph {

void AddInputOptions(CLI::App* cmd, InputArgs* args) {
  std::vector<std::string> input_names;
  for (const auto& f : RegisterBuiltinFormats()) input_names.push_back(f->Name());
  cmd->add_option("files", args->files, "Log files (plain or .gz); - or nothing reads stdin");
  cmd->add_option("-i,--input-format", args->input_format,
                  "Force the input format instead of sniffing it")
      ->check(CLI::IsMember(input_names));
  args->prefix_option = cmd->add_option(
      "-p,--prefix", args->prefix,
      "log_line_prefix exactly as in postgresql.conf, e.g. '%m [%p] %q%u@%d '");
  cmd->add_option("--rules", args->rules.only,
                  "Run only these rules (IDs or names, comma-separated; default: all, see "
                  "`lockgraph rules`)")
      ->delimiter(',')
      ->allow_extra_args(false);  // one argument per --rules: FILE... follows
  cmd->add_option("--disable", args->rules.disable, "Do not run these rules (comma-separated)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--max-wait", args->rules.settings.max_wait_ms,
                  "PG010: report lock waits at least this long, in ms")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
}

AnalyzeOptions MakeAnalyzeOptions(const InputArgs& args) {
  AnalyzeOptions options;
  options.input_format = args.input_format;
  options.parse.has_prefix = args.prefix_option && args.prefix_option->count() > 0;
  options.parse.log_line_prefix = args.prefix;
  options.rules = args.rules;
  return options;
}

bool CheckInputArgs(const InputArgs& args, const std::string& command) {
  std::string rule_error;
  if (RuleEngine::CheckSelection(args.rules, &rule_error)) return true;
  std::cerr << "lockgraph " << command << ": " << rule_error << '\n';
  return false;
}

int ReadInputs(Analyzer& analyzer, const InputArgs& args, const std::string& command,
               size_t* analysed) {
  std::vector<std::string> files = args.files;
  *analysed = 0;
  if (files.empty()) {
    if (isatty(STDIN_FILENO)) {
      std::cerr << "lockgraph " << command
                << ": no input (give FILE... or - for stdin; see --help)\n";
      return kExitError;
    }
    files.push_back("-");
  }
  int status = kExitOk;
  for (const std::string& file : files) {
    std::string error;
    if (analyzer.AnalyzeInput(file, &error)) {
      ++*analysed;
    } else {
      std::cerr << "lockgraph: " << error << '\n';
      status = kExitError;
    }
  }
  return status;
}

void NoteUnparsed(const Report& report) {
  if (report.summary.lines.unparsed && report.unparsed.empty())
    std::cerr << "lockgraph: " << report.summary.lines.unparsed
              << " lines not understood (`lockgraph analyze --show-unparsed` lists them)\n";
}

}  // namespace lockgraph
