// `lockgraph report FILE...|- -o report.html`: the HTML report (src/emit/
// html_emitter.cc) of what `analyze` reads, written to a file. The file is
// replaced only once the page is complete (io/replaced_file.h), so a failed
// run leaves no half page behind.
#include <CLI/CLI.hpp>

#include <iostream>

#include "app/analyzer.h"
#include "app/commands.h"
#include "app/command_util.h"
#include "emit/emitter.h"
#include "io/replaced_file.h"

namespace lockgraph {
namespace {

struct ReportArgs {
  ReadArgs read;
  std::string output;
};

int CannotWrite(const std::string& output) {
  std::cerr << "lockgraph report: cannot write " << output
            << " (check the directory exists and is writable)\n";
  return kExitError;
}

int RunReport(const ReportArgs& args) {
  std::string rule_error;
  if (!RuleEngine::CheckSelection(args.read.rules, &rule_error)) {
    std::cerr << "lockgraph report: " << rule_error << '\n';
    return kExitError;
  }
  std::unique_ptr<Emitter> emitter = MakeHtmlEmitter();
  AnalyzeOptions options = MakeAnalyzeOptions(args.read, emitter.get());
  // As `analyze --format html`: the emitter keeps what it shows of each
  // event (src/emit/html_events.h), the analyzer no events.
  const bool sees_events = EmitterSeesEvents(*emitter);
  options.collect_events = !sees_events;
  // The page goes straight to stdout, or to a file that replaces the
  // output only once complete (io/replaced_file.h): never held in memory.
  ReplacedFile file;
  if (args.output != "-" && !file.Open(args.output)) return CannotWrite(args.output);
  std::ostream& page = args.output == "-" ? std::cout : file.out();
  StreamToEmitter stream(*emitter, page);
  Analyzer analyzer(options, sees_events ? &stream : nullptr);
  int status = kExitOk;
  size_t analysed = ReadInputs(analyzer, args.read.files, "report", &status);
  Report& report = analyzer.Finish();
  if (analysed == 0) return status;
  emitter->Write(report, page);
  if (args.output == "-") {
    std::cout.flush();
  } else {
    if (!file.Commit()) return CannotWrite(args.output);
    std::cerr << "lockgraph report: wrote " << args.output << " (" << report.summary.deadlocks
              << " deadlocks in " << report.groups.size() << " groups, "
              << report.summary.lock_waits << " lock waits)\n";
  }
  NoteUnparsed(report);
  return status;
}

}  // namespace

void AddReportCommand(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Write one self-contained HTML page: summary, chart, drawn deadlock graphs");
  AddReadOptions(cmd, &args->read);
  cmd->add_option("-o,--output", args->output, "The HTML file to write (- for stdout)")
      ->required();
  cmd->footer(R"(Examples:
  lockgraph report /var/log/postgresql/postgresql-15-main.log -o report.html
  cat postgresql.log | lockgraph report - -o report.html
  lockgraph report --disable PG010 old.log.gz new.log -o deadlocks.html
  lockgraph report system_health_deadlocks.xml -o - > report.html

The page needs no network (inline CSS, JS and SVG): open it from a CI
artifact or an e-mail. It is the same as `lockgraph analyze --format html`.
What it shows and how large it gets: docs/report.md.

Exit codes: 0 written, 2 usage or input error (unreadable file, unknown
format: the other files are still reported; unwritable output).)");
  cmd->callback([args]() { throw CLI::RuntimeError(RunReport(*args)); });
}

}  // namespace lockgraph
