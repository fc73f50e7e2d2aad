// `lockgraph check [FILE...|-]`: the CI gate. Reads logs like analyze, puts
// every event aside (app/put_aside_events.h), decides with
// src/gate/check_gate.h, prints the report in the chosen format on stdout and
// a one-line verdict on stderr; exit 0 within limits, 1 when a limit or rule
// is broken, 2 for usage or input errors. docs/ci.md.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <optional>

#include "gate/check_gate.h"
#include "app/command_util.h"
#include "app/commands.h"
#include "app/put_aside_events.h"
#include "emit/source_paths.h"
#include "emit/text_safety.h"
#include "watch/duration.h"

namespace lockgraph {
namespace {

struct CheckArgs {
  ReadArgs read;
  std::string format = "text";
  std::string color = "auto";
  uint64_t max_deadlocks = 0;
  std::optional<uint64_t> max_unparsed;
  std::string max_lock_wait;
  std::string source_root;
  std::vector<std::string> fail_on;
  std::string baseline;
  std::string baseline_by = "signature";
};

constexpr uint64_t kMaxCount = 1000000000;      // --max-deadlocks, --max-unparsed
constexpr double kMaxLockWaitMs = 24 * 3600e3;  // --max-lock-wait: one day

// A whole number from 0 to kMaxCount, digits only: "-1" is refused here,
// before CLI11 would wrap it to 2^64-1 and so turn the gate off.
CLI::Validator CountValidator() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        bool digits = !s.empty() && s.size() <= 10 &&
                      std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digits && std::stoull(s) <= kMaxCount) return "";
        return "'" + s + "' is not a count from 0 to " + std::to_string(kMaxCount);
      },
      "COUNT");
}

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
    if (!limits->max_lock_wait_ms || *limits->max_lock_wait_ms < 0 ||
        *limits->max_lock_wait_ms > kMaxLockWaitMs) {
      std::cerr << "lockgraph check: --max-lock-wait '" << args.max_lock_wait
                << "' is not a duration from 0 to 1 day (250ms, 5s, 1.5s, 2m, or seconds)\n";
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
    limits->baseline_by_cause = args.baseline_by == "cause";
    if (limits->baseline_by_cause && baseline->causes.empty()) {
      std::cerr << "lockgraph check: --baseline-by cause: " << args.baseline
                << " has no causes (a version 1 file): write it again with `lockgraph baseline`\n";
      return false;
    }
  }
  return true;
}

// An input read with the wrong format, or not PostgreSQL at all, may hide
// deadlocks, and so may lines not understood over --max-unparsed: no
// verdict then, and stderr says how much was read.
bool Understood(const Report& report, const std::optional<uint64_t>& max_unparsed) {
  for (const InputInfo& in : report.inputs) {
    if (!in.poorly_understood) continue;
    NoteUnparsed(report);
    std::cerr << "lockgraph check: no verdict: " << OneLineText(in.file)
              << " was not understood (" << in.lines.parsed << " of "
              << in.lines.total - in.lines.skipped << " lines)\n";
    return false;
  }
  const uint64_t unparsed = report.summary.lines.unparsed;
  if (max_unparsed && unparsed > *max_unparsed) {
    std::cerr << "lockgraph check: no verdict: " << unparsed << " of " << report.summary.lines.total
              << " lines not understood (--max-unparsed " << *max_unparsed
              << "; `lockgraph analyze --show-unparsed` lists them)\n";
    return false;
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
  const std::string root = args.source_root.empty() ? DefaultSourceRoot(args.read.files)
                                                    : NormalRoot(args.source_root);
  emitter->set_options({UseColor(args.color)});
  emitter->set_source_root(root);
  AnalyzeOptions options = MakeAnalyzeOptions(args.read, emitter.get());
  // The analyzer keeps what analyze keeps for this format (emitter.h); every
  // event is put aside, to be decided on and written once the input is read.
  const bool sees_events = EmitterSeesEvents(*emitter);
  options.collect_events = !sees_events;
  options.examples_only = emitter->NeedsEvents() != EventNeeds::kAll;
  options.keep_findings = emitter->NeedsEvents() == EventNeeds::kExamplesAndFindings;
  StreamToEmitter stream(*emitter, std::cout);
  PutAsideEvents events(emitter->Streams() ? &stream : nullptr);
  Analyzer analyzer(options, &events);

  int status = kExitOk;
  size_t analysed = ReadInputs(analyzer, args.read.files, "check", &status);
  Report& report = analyzer.Finish();
  if (analysed == 0) {
    std::cerr << "lockgraph check: no verdict: no input could be read\n";
    return kExitError;
  }
  RelocateSources(&report, root);  // repository paths in every format
  events.Finish(report, root);
  const std::optional<CheckResult> check = DecideCheck(report, limits, events);
  if (check) emitter->set_check(&*check);
  if (!check || (!emitter->Streams() && !HandOverChecked(events, report, *emitter, std::cout))) {
    std::cerr << "lockgraph check: no verdict: cannot read back the events put aside in a "
                 "temporary file\n";
    return kExitError;
  }
  emitter->Write(report, std::cout);
  std::cout.flush();
  if (!Understood(report, args.max_unparsed)) return kExitError;
  std::cerr << CheckVerdict(*check, report) << '\n';
  if (status != kExitOk) return status;  // an unreadable input: no verdict to trust
  return check->Failed() ? kExitFindings : kExitOk;
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
                  "Fail when more (new) deadlocks and snapshot lock cycles than this are found")
      ->check(CountValidator())
      ->capture_default_str();
  cmd->add_option("--max-unparsed", args->max_unparsed,
                  "No verdict (exit 2) when more lines than this are not understood "
                  "(default: only an input mostly not understood)")
      ->check(CountValidator());
  cmd->add_option("--source-root", args->source_root,
                  "Paths in the reports are relative to DIR (default: the git work tree "
                  "holding the first input, else the current directory)");
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
  cmd->add_option("--baseline-by", args->baseline_by,
                  "signature (default): a deadlock is known when the baseline has its exact "
                  "shape; cause: when it has its cause (the rule and the statements, whatever "
                  "the cycle's length or order: docs/rules.md#causes)")
      ->check(CLI::IsMember({"signature", "cause"}))
      ->capture_default_str();
  cmd->footer(R"(Examples:
  lockgraph check postgresql.log                          # fails on any deadlock
  lockgraph check --max-lock-wait 5s --fail-on PG001,PG006 postgresql.log
  lockgraph baseline postgresql.log -o lockgraph-baseline.json   # once, reviewed, committed
  lockgraph check --baseline lockgraph-baseline.json postgresql.log
  lockgraph check --baseline lockgraph-baseline.json --baseline-by cause postgresql.log
  lockgraph check --format sarif postgresql.log > lockgraph.sarif   # redacted by default
  lockgraph check --format junit --no-redact postgresql.log > lockgraph-junit.xml
  lockgraph check --format github postgresql.log          # annotations in GitHub Actions
  lockgraph check --format codequality postgresql.log > gl-code-quality.json   # GitLab

The report goes to stdout in the chosen format, a one-line verdict to stderr.
Exit codes: 0 within the limits, 1 a limit or rule broken, 2 usage or input
error (unreadable file or baseline, unknown format, an input mostly not
understood, more lines not understood than --max-unparsed, events put aside
in a temporary file that cannot be read back). docs/ci.md.)");
  cmd->callback([args]() { throw CLI::RuntimeError(RunCheck(*args)); });
}

}  // namespace lockgraph
