// See command_util.h.
#include "app/command_util.h"

#include <CLI/CLI.hpp>
#include <algorithm>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>
#include <unistd.h>

#include "app/commands.h"
#include "emit/text_safety.h"

namespace lockgraph {
namespace {

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// --since / --until read in --timezone's zone (an empty zone: UTC).
std::optional<int64_t> TimeBound(const std::string& text, const std::string& zone, std::string* error) {
  std::unique_ptr<TimeResolver> resolver = TimeResolver::Make(zone, error);
  if (!resolver) resolver = TimeResolver::Make("", error);
  return ParseTimeBound(text, *resolver, NowMicros(), error);
}

void AddTimeOptions(CLI::App* cmd, ReadArgs* args) {
  cmd->add_option("--timezone", args->timezone,
                  "Zone of times logged without one (MariaDB, InnoDB, SQL Server's text logs) and "
                  "of --since/--until: an IANA name (Europe/Berlin) or an offset (+02:00); "
                  "default: UTC")
      ->check(CLI::Validator(
          [](std::string& zone) {
            std::string error;
            return TimeResolver::Make(zone, &error) ? std::string() : error;
          },
          "ZONE"));
  auto bound = CLI::Validator(
      [](std::string& text) {
        std::string error;
        return TimeBound(text, "", &error) ? std::string() : error;
      },
      "TIME");
  cmd->add_option("--since", args->since,
                  "Only events at or after this time: ISO (2026-12-02T10:00, with or without "
                  "+01:00) or a time ago (-2h, -30m, -1d)")
      ->check(bound);
  cmd->add_option("--until", args->until, "Only events before this time (same forms as --since)")
      ->check(bound);
}

}  // namespace

void AddReadOptions(CLI::App* cmd, ReadArgs* args) {
  std::vector<std::string> input_names;
  for (const auto& f : RegisterBuiltinFormats()) input_names.push_back(f->Name());
  cmd->add_option("files", args->files, "Log files (plain or .gz); - or nothing reads stdin");
  cmd->add_option("-i,--input-format", args->input_format,
                  "Force the input format instead of sniffing it")
      ->check(CLI::IsMember(input_names));
  args->prefix_opt = cmd->add_option(
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
  args->redact_opt = cmd->add_flag(
      "--redact,!--no-redact", args->redact,
      "Replace literals in queries (strings, numbers, arrays) by ? in every output; "
      "default: on for sarif and junit, off otherwise");
  cmd->add_flag("--show-records", args->show_records,
                "MySQL/MariaDB: keep the row data of InnoDB record dumps in each lock's text "
                "(customers' data: never shown without this flag, nor with --redact)");
  cmd->add_option("--threads", args->threads,
                  "1: parse and analyse on one thread; N >= 2: run rules and render events on a "
                  "thread of their own, parse csvlog and jsonlog files on N threads at once, and "
                  "stderr files on N - 1 threads from N = 3 on, syslog files on N - 1 but at least 2 "
                  "(default: the machine's cores)")
      ->check(CLI::Range(1u, 64u));
  AddTimeOptions(cmd, args);
}

AnalyzeOptions MakeAnalyzeOptions(const ReadArgs& args, const Emitter* emitter) {
  AnalyzeOptions options;
  options.input_format = args.input_format;
  options.parse.has_prefix = args.prefix_opt && args.prefix_opt->count() > 0;
  options.parse.log_line_prefix = args.prefix;
  options.rules = args.rules;
  const bool given = args.redact_opt && args.redact_opt->count() > 0;
  options.redact = given ? args.redact : (emitter && emitter->RedactsByDefault());
  options.parse.show_records = args.show_records && !options.redact;
  // The default: one thread per core, up to 64.
  const unsigned cores = std::thread::hardware_concurrency();
  options.threads = args.threads ? args.threads : std::clamp(cores, 1u, 64u);
  options.timezone = args.timezone;
  std::string error;  // both were checked when the command line was read
  if (!args.since.empty()) options.since_us = TimeBound(args.since, args.timezone, &error);
  if (!args.until.empty()) options.until_us = TimeBound(args.until, args.timezone, &error);
  return options;
}

bool EmitterSeesEvents(const Emitter& emitter) {
  return emitter.Streams() || emitter.KeepsOwnEvents();
}

bool UseColor(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  return isatty(STDOUT_FILENO);
}

std::unique_ptr<Emitter> FindEmitter(const std::string& name) {
  for (auto& e : RegisterBuiltinEmitters())
    if (e->Name() == name) return std::move(e);
  return nullptr;
}

std::string FormatHelp(std::vector<std::string>* names) {
  std::string help = "Output format:";
  for (const auto& e : RegisterBuiltinEmitters()) {
    names->push_back(e->Name());
    help += "\n  " + e->Name() + ": " + e->Description();
  }
  return help;
}

size_t ReadInputs(Analyzer& analyzer, std::vector<std::string> files, const std::string& command,
                  int* status) {
  if (files.empty()) {
    if (isatty(STDIN_FILENO)) {
      std::cerr << "lockgraph " << command << ": no input (give FILE... or - for stdin; see --help)\n";
      *status = kExitError;
      return 0;
    }
    files.push_back("-");
  }
  size_t analysed = 0;
  analyzer.set_input_paths(files);
  for (const std::string& file : files) {
    std::string error;
    const size_t before = analyzer.inputs_read();
    if (!analyzer.AnalyzeInput(file, &error)) {
      std::cerr << "lockgraph: " << error << '\n';
      *status = kExitError;
    }
    // An input that failed part way (a cut compressed file) is still in the
    // report, with the events read before the error: they are reported.
    if (analyzer.inputs_read() > before) ++analysed;
  }
  return analysed;
}

void NoteUnparsed(const Report& report) {
  for (const Diagnostic& d : report.diagnostics)
    if (d.severity == Diagnostic::Severity::kError)
      std::cerr << "lockgraph: " << OneLineText(d.file) << ": " << OneLineText(d.message) << '\n';
  if (report.summary.lines.unparsed && report.unparsed.empty())
    std::cerr << "lockgraph: " << report.summary.lines.unparsed
              << " lines not understood (`lockgraph analyze --show-unparsed` lists them)\n";
}

}  // namespace lockgraph
