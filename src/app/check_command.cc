// `lockgraph check [FILE...|-]`: the CI gate. Reads logs like analyze,
// decides with src/app/check_gate.h, prints the report in the chosen format
// on stdout and a one-line verdict on stderr; exit 0 within limits, 1 when
// a limit or rule is broken, 2 for usage or input errors. docs/ci.md.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

#include "gate/check_gate.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "emit/text_safety.h"
#include "watch/duration.h"

namespace lockgraph {
namespace {

struct CheckArgs {
  ReadArgs read;
  std::string format = "text";
  std::string color = "auto";
  uint64_t max_deadlocks = 0;
  std::string max_lock_wait;
  std::vector<std::string> fail_on;
  std::string baseline;
};

// --fail-on takes IDs or names, as --rules does; the gate compares IDs.
bool FailOnIds(const std::vector<std::string>& given, std::vector<std::string>* ids,
               std::string* error) {
  RuleSelection sel;
  sel.only = given;
  if (!RuleEngine::CheckSelection(sel, error)) return false;
  RuleEngine engine(sel);
  *ids = engine.Selected();
  return true;
}

bool MakeLimits(const CheckArgs& args, Baseline* baseline, CheckLimits* limits) {
  std::string error;
  limits->max_deadlocks = args.max_deadlocks;
  if (!args.max_lock_wait.empty()) {
    limits->max_lock_wait_ms = ParseDurationMs(args.max_lock_wait);
    if (!limits->max_lock_wait_ms) {
      std::cerr << "lockgraph check: --max-lock-wait '" << args.max_lock_wait
                << "' is not a duration (250ms, 5s, 1.5s, 2m, or seconds)\n";
      return false;
    }
    limits->max_lock_wait_text = args.max_lock_wait;
  }
  if (!args.fail_on.empty() && !FailOnIds(args.fail_on, &limits->fail_on, &error)) {
    std::cerr << "lockgraph check: --fail-on: " << error << '\n';
    return false;
  }
  if (!args.baseline.empty()) {
    if (!LoadBaseline(args.baseline, baseline, &error)) {
      std::cerr << "lockgraph check: " << error << '\n';
      return false;
    }
    limits->baseline = baseline;
    limits->baseline_file = args.baseline;
  }
  return true;
}

int RunCheck(const CheckArgs& args) {
  std::string rule_error;
  if (!RuleEngine::CheckSelection(args.read.rules, &rule_error)) {
    std::cerr << "lockgraph check: " << rule_error << '\n';
    return kExitError;
  }
  Baseline baseline;
  CheckLimits limits;
  if (!MakeLimits(args, &baseline, &limits)) return kExitError;
  std::unique_ptr<Emitter> emitter = FindEmitter(args.format);
  emitter->set_options({UseColor(args.color)});
  AnalyzeOptions options = MakeAnalyzeOptions(args.read, emitter.get());
  options.collect_events = true;  // the gate reads every event, also for ndjson
  StreamToEmitter stream(*emitter, std::cout);
  Analyzer analyzer(options, emitter->Streams() ? &stream : nullptr);

  int status = kExitOk;
  size_t analysed = ReadInputs(analyzer, args.read.files, "check", &status);
  Report& report = analyzer.Finish();
  if (analysed == 0) {
    std::cerr << "lockgraph check: no verdict: no input could be read\n";
    return kExitError;
  }
  const CheckResult check = EvaluateCheck(report, limits);
  emitter->set_check(&check);
  emitter->Write(report, std::cout);
  std::cout.flush();
  // An input read with the wrong format, or not PostgreSQL at all, may
  // hide deadlocks: no verdict about it.
  for (const InputInfo& in : report.inputs) {
    if (!in.poorly_understood) continue;
    NoteUnparsed(report);
    std::cerr << "lockgraph check: no verdict: " << OneLineText(in.file) << " was not understood (" << in.lines.parsed
              << " of " << in.lines.total - in.lines.skipped << " lines)\n";
    return kExitError;
  }
  std::cerr << CheckVerdict(check, report) << '\n';
  if (status != kExitOk) return status;  // an unreadable input: no verdict to trust
  return check.Failed() ? kExitFindings : kExitOk;
}

}  // namespace

void AddCheckCommand(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check", "CI gate: fail (exit 1) on deadlocks, long lock waits or rules, "
               "optionally only on what a baseline does not know");
  std::vector<std::string> format_names;
  std::string format_help = FormatHelp(&format_names);
  AddReadOptions(cmd, &args->read);
  cmd->add_option("-f,--format", args->format, format_help)
      ->check(CLI::IsMember(format_names))->capture_default_str();
  cmd->add_option("--color", args->color, "Colour in text output: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))->capture_default_str();
  cmd->add_option("--max-deadlocks", args->max_deadlocks,
                  "Fail when more (new) deadlocks than this are found")
      ->capture_default_str();
  cmd->add_option("--max-lock-wait", args->max_lock_wait,
                  "Fail on a (new) lock wait longer than this: 500ms, 5s, 1m (default: "
                  "lock waits do not fail)");
  cmd->add_option("--fail-on", args->fail_on,
                  "Fail when these rules find something new (IDs or names, comma-separated)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--baseline", args->baseline,
                  "Known deadlocks, waits and findings (`lockgraph baseline`): only what is "
                  "not in it counts; entries not seen any more are listed");
  cmd->footer(R"(Examples:
  lockgraph check postgresql.log                          # fails on any deadlock
  lockgraph check --max-lock-wait 5s --fail-on PG001,PG006 postgresql.log
  lockgraph baseline postgresql.log -o lockgraph-baseline.json   # once, reviewed, committed
  lockgraph check --baseline lockgraph-baseline.json postgresql.log
  lockgraph check --format sarif postgresql.log > lockgraph.sarif   # redacted by default
  lockgraph check --format junit --no-redact postgresql.log > lockgraph-junit.xml
  lockgraph check --format github postgresql.log          # annotations in GitHub Actions

The report goes to stdout in the chosen format, a one-line verdict to stderr.
Exit codes: 0 within the limits, 1 a limit or rule broken, 2 usage or input
error (unreadable file or baseline, unknown format). docs/ci.md.)");
  cmd->callback([args]() { throw CLI::RuntimeError(RunCheck(*args)); });
}

}  // namespace lockgraph
