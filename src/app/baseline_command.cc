// `lockgraph baseline FILE... [-o FILE]`: writes the deadlock signatures,
// long-wait keys and run-level finding keys of the logs to a sorted JSON
// file for review; `lockgraph check --baseline` accepts what it lists.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

#include "app/command_util.h"
#include "app/commands.h"
#include "gate/baseline.h"
#include "gate/baseline_waits.h"
#include "text/plural.h"
#include "watch/duration.h"

namespace lockgraph {
namespace {

struct BaselineArgs {
  ReadArgs read;
  std::string output;
  std::string min_lock_wait = "0";
};

int RunBaseline(const BaselineArgs& args) {
  std::string rule_error;
  if (!RuleEngine::CheckSelection(args.read.rules, &rule_error)) {
    std::cerr << "lockgraph baseline: " << rule_error << '\n';
    return kExitError;
  }
  std::optional<double> min_wait = ParseDurationMs(args.min_lock_wait);
  if (!min_wait) {
    std::cerr << "lockgraph baseline: --min-lock-wait '" << args.min_lock_wait
              << "' is not a duration (250ms, 5s, 1.5s, 2m, or seconds)\n";
    return kExitError;
  }
  // The waits are taken as each event is made; no events are kept.
  BaselineWaits waits(*min_wait);
  AnalyzeOptions options = MakeAnalyzeOptions(args.read, nullptr);
  options.collect_events = false;
  Analyzer analyzer(options, &waits);
  int status = kExitOk;
  size_t analysed = ReadInputs(analyzer, args.read.files, "baseline", &status);
  if (status != kExitOk || analysed == 0) return kExitError;  // never a partial baseline
  const Report& report = analyzer.Finish();
  Baseline baseline = MakeBaseline(report, waits.Entries(report));
  std::string json = BaselineToJson(baseline);
  if (args.output.empty() || args.output == "-") {
    std::cout << json;
  } else {
    std::ofstream out(args.output, std::ios::binary);
    if (!(out << json) || !out.flush()) {
      std::cerr << "lockgraph baseline: cannot write " << args.output << '\n';
      return kExitError;
    }
  }
  std::cerr << "lockgraph baseline: "
            << Plural(baseline.deadlocks.size(), "deadlock signature", "deadlock signatures") << ", "
            << Plural(baseline.lock_waits.size(), "lock-wait key", "lock-wait keys") << ", "
            << Plural(baseline.findings.size(), "run-level finding", "run-level findings") << '\n';
  return kExitOk;
}

}  // namespace

void AddBaselineCommand(CLI::App& app) {
  auto args = std::make_shared<BaselineArgs>();
  CLI::App* cmd = app.add_subcommand(
      "baseline", "Write the deadlock signatures and long-wait keys of logs to a baseline "
                  "file for `lockgraph check --baseline`");
  AddReadOptions(cmd, &args->read);
  cmd->add_option("-o,--output", args->output, "Write the baseline here (default: stdout)");
  cmd->add_option("--min-lock-wait", args->min_lock_wait,
                  "Record lock waits at least this long (500ms, 5s, ...)")
      ->capture_default_str();
  cmd->footer(R"(Examples:
  lockgraph baseline postgresql.log -o lockgraph-baseline.json
  lockgraph baseline --min-lock-wait 5s run1.log run2.log -o lockgraph-baseline.json
  lockgraph check --baseline lockgraph-baseline.json postgresql.log

The file is sorted JSON with a version field, one entry per signature or key
and what it stands for; review it and commit it. Exit codes: 0 written,
2 usage or input error (no baseline is written then). docs/ci.md#baselines.)");
  cmd->callback([args]() { throw CLI::RuntimeError(RunBaseline(*args)); });
}

}  // namespace lockgraph
