// `lockgraph report FILE...|- -o report.html`: the HTML report (src/emit/
// html_emitter.cc) of what `analyze` reads, written to a file. The page is
// built in memory and written only once complete, so a failed run leaves no
// half page behind.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "app/analyzer.h"
#include "app/commands.h"
#include "app/command_util.h"
#include "emit/emitter.h"

namespace lockgraph {
namespace {

struct ReportArgs {
  ReadArgs read;
  std::string output;
};

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
  std::ostringstream page;
  StreamToEmitter stream(*emitter, page);
  Analyzer analyzer(options, sees_events ? &stream : nullptr);
  int status = kExitOk;
  size_t analysed = ReadInputs(analyzer, args.read.files, "report", &status);
  Report& report = analyzer.Finish();
  if (analysed == 0) return status;
  emitter->Write(report, page);
  if (args.output == "-") {
    std::cout << page.str();
    std::cout.flush();
  } else {
    std::ofstream out(args.output, std::ios::binary | std::ios::trunc);
    out << page.str();
    out.close();
    if (!out) {
      std::cerr << "lockgraph report: cannot write " << args.output
                << " (check the directory exists and is writable)\n";
      return kExitError;
    }
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
