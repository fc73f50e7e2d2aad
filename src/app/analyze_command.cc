// `lockgraph analyze [FILE...|-]`: read logs, print deadlocks and lock waits.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <unistd.h>

#include "app/analyzer.h"
#include "app/commands.h"
#include "emit/emitter.h"

namespace lockgraph {
namespace {

struct AnalyzeArgs {
  std::vector<std::string> files;
  std::string format = "text";
  std::string input_format;
  std::string prefix;
  std::string color = "auto";
  bool show_unparsed = false;
  RuleSelection rules;
};

class StreamToEmitter : public EventStream {
 public:
  StreamToEmitter(Emitter& emitter, std::ostream& out) : emitter_(emitter), out_(out) {}
  void OnEvent(const Event& event) override { emitter_.OnEvent(event, out_); }
  void OnInputStart(size_t input) override { emitter_.OnInputStart(input); }

 private:
  Emitter& emitter_;
  std::ostream& out_;
};

bool UseColor(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO);
}

int RunAnalyze(const AnalyzeArgs& args, const CLI::Option* prefix_opt) {
  std::string rule_error;
  if (!RuleEngine::CheckSelection(args.rules, &rule_error)) {
    std::cerr << "lockgraph analyze: " << rule_error << '\n';
    return kExitError;
  }
  std::unique_ptr<Emitter> emitter;
  for (auto& e : RegisterBuiltinEmitters())
    if (e->Name() == args.format) emitter = std::move(e);
  emitter->set_options({UseColor(args.color)});

  AnalyzeOptions options;
  options.input_format = args.input_format;
  options.parse.has_prefix = prefix_opt->count() > 0;
  options.parse.log_line_prefix = args.prefix;
  options.keep_unparsed = args.show_unparsed ? 10000 : 0;
  const bool sees_events = emitter->Streams() || emitter->KeepsOwnEvents();
  options.collect_events = !sees_events;
  options.rules = args.rules;
  StreamToEmitter stream(*emitter, std::cout);
  Analyzer analyzer(options, sees_events ? &stream : nullptr);

  std::vector<std::string> files = args.files;
  if (files.empty()) {
    if (isatty(STDIN_FILENO)) {
      std::cerr << "lockgraph analyze: no input (give FILE... or - for stdin; see --help)\n";
      return kExitError;
    }
    files.push_back("-");
  }
  int status = kExitOk;
  size_t analysed = 0;
  for (const std::string& file : files) {
    std::string error;
    if (analyzer.AnalyzeInput(file, &error)) {
      ++analysed;
    } else {
      std::cerr << "lockgraph: " << error << '\n';
      status = kExitError;
    }
  }
  Report& report = analyzer.Finish();
  if (analysed == 0) return status;  // nothing to report on
  emitter->Write(report, std::cout);
  std::cout.flush();
  if (report.summary.lines.unparsed && !args.show_unparsed)
    std::cerr << "lockgraph: " << report.summary.lines.unparsed
              << " lines not understood (--show-unparsed lists them)\n";
  return status;
}

}  // namespace

void AddAnalyzeCommand(CLI::App& app) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "analyze", "Read PostgreSQL logs; print every deadlock cycle and lock wait");
  std::vector<std::string> format_names;
  std::string format_help = "Output format:";
  for (const auto& e : RegisterBuiltinEmitters()) {
    format_names.push_back(e->Name());
    format_help += "\n  " + e->Name() + ": " + e->Description();
  }
  std::vector<std::string> input_names;
  for (const auto& f : RegisterBuiltinFormats()) input_names.push_back(f->Name());

  cmd->add_option("files", args->files, "Log files (plain or .gz); - or nothing reads stdin");
  cmd->add_option("-f,--format", args->format, format_help)
      ->check(CLI::IsMember(format_names))->capture_default_str();
  cmd->add_option("-i,--input-format", args->input_format,
                  "Force the input format instead of sniffing it")
      ->check(CLI::IsMember(input_names));
  CLI::Option* prefix = cmd->add_option(
      "-p,--prefix", args->prefix,
      "log_line_prefix exactly as in postgresql.conf, e.g. '%m [%p] %q%u@%d '");
  cmd->add_option("--color", args->color, "Colour in text output: auto, always, never "
                                          "(auto honours NO_COLOR and needs a terminal)")
      ->check(CLI::IsMember({"auto", "always", "never"}))->capture_default_str();
  cmd->add_flag("--show-unparsed", args->show_unparsed,
                "List every line not understood, with file and line");
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
  cmd->footer(R"(Examples:
  lockgraph analyze /var/log/postgresql/postgresql-15-main.log
  cat postgresql.log | lockgraph analyze -
  lockgraph analyze --format json postgresql.csv > deadlocks.json
  tail -F postgresql.log | lockgraph analyze --format ndjson -
  lockgraph analyze --format dot postgresql.log | dot -Tsvg > deadlocks.svg
  lockgraph analyze --prefix '%t [%p]: [%l-1] user=%u,db=%d ' old.log.gz
  lockgraph analyze --rules PG001,PG002 --max-wait 5000 postgresql.log
  lockgraph analyze --disable PG010,PG011 postgresql.log

Each deadlock and lock wait is checked by the rules (`lockgraph rules`,
`lockgraph explain PG001`); repeated deadlocks are grouped by signature.

Exit codes: 0 analysed (deadlocks or not), 2 usage or input error
(unreadable file, unknown format; the other files are still analysed).)");
  cmd->callback([args, prefix]() { throw CLI::RuntimeError(RunAnalyze(*args, prefix)); });
}

}  // namespace lockgraph
