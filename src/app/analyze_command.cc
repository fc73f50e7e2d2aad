// `lockgraph analyze [FILE...|-]`: read logs, print deadlocks and lock waits.
#include <CLI/CLI.hpp>

#include <iostream>

#include "app/analyzer.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "emit/emitter.h"

namespace lockgraph {
namespace {

struct AnalyzeArgs {
  ReadArgs read;
  std::string format = "text";
  std::string color = "auto";
  bool show_unparsed = false;
};

int RunAnalyze(const AnalyzeArgs& args) {
  std::string rule_error;
  if (!RuleEngine::CheckSelection(args.read.rules, &rule_error)) {
    std::cerr << "lockgraph analyze: " << rule_error << '\n';
    return kExitError;
  }
  std::unique_ptr<Emitter> emitter = FindEmitter(args.format);
  emitter->set_options({UseColor(args.color)});

  AnalyzeOptions options = MakeAnalyzeOptions(args.read, emitter.get());
  options.keep_unparsed = args.show_unparsed ? 10000 : 0;
  const bool sees_events = EmitterSeesEvents(*emitter);
  options.collect_events = !sees_events;
  // No check verdict here: the emitter says which events it reads (emitter.h).
  options.examples_only = emitter->NeedsEvents() != EventNeeds::kAll;
  options.keep_findings = emitter->NeedsEvents() == EventNeeds::kExamplesAndFindings;
  StreamToEmitter stream(*emitter, std::cout);
  Analyzer analyzer(options, sees_events || emitter->RendersOnEvent() ? &stream : nullptr);

  int status = kExitOk;
  size_t analysed = ReadInputs(analyzer, args.read.files, "analyze", &status);
  Report& report = analyzer.Finish();
  if (analysed == 0) return status;  // nothing to report on
  emitter->Write(report, std::cout);
  std::cout.flush();
  NoteUnparsed(report);
  return status;
}

}  // namespace

void AddAnalyzeCommand(CLI::App& app) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "analyze", "Read database logs and reports; print every deadlock cycle and lock wait");
  std::vector<std::string> format_names;
  std::string format_help = FormatHelp(&format_names);
  AddReadOptions(cmd, &args->read);
  cmd->add_option("-f,--format", args->format, format_help)
      ->check(CLI::IsMember(format_names))->capture_default_str();
  cmd->add_option("--color", args->color, "Colour in text output: auto, always, never "
                                          "(auto honours NO_COLOR and needs a terminal)")
      ->check(CLI::IsMember({"auto", "always", "never"}))->capture_default_str();
  cmd->add_flag("--show-unparsed", args->show_unparsed,
                "List every line not understood, with file and line");
  cmd->footer(R"(Examples:
  lockgraph analyze /var/log/postgresql/postgresql-15-main.log
  cat postgresql.log | lockgraph analyze -
  lockgraph analyze --format json postgresql.csv > deadlocks.json
  tail -F postgresql.log | lockgraph analyze --format ndjson -
  lockgraph analyze --format dot postgresql.log | dot -Tsvg > deadlocks.svg
  lockgraph analyze --format html postgresql.log > report.html   # as `lockgraph report`
  lockgraph analyze --prefix '%t [%p]: [%l-1] user=%u,db=%d ' old.log.gz
  lockgraph analyze --rules PG001,PG002 --max-wait 5000 postgresql.log
  lockgraph analyze --disable PG010,PG011 postgresql.log
  lockgraph analyze --redact --format json customer.log > shareable.json
  lockgraph analyze --since -2h postgresql.log                 # the last two hours
  lockgraph analyze --since 2026-12-02T10:00 --until 2026-12-02T11:00 postgresql.log
  lockgraph analyze --timezone Europe/Berlin /var/log/mysql/error.log   # zoneless times

Each deadlock and lock wait is checked by the rules (`lockgraph rules`,
`lockgraph explain PG001`); repeated deadlocks are grouped by signature.

Exit codes: 0 analysed (deadlocks or not), 2 usage or input error
(unreadable file, unknown format; the other files are still analysed).)");
  cmd->callback([args]() { throw CLI::RuntimeError(RunAnalyze(*args)); });
}

}  // namespace lockgraph
