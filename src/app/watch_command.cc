// `lockgraph watch [DSN...]`: poll running PostgreSQL servers' pg_locks (and
// MySQL / MariaDB servers' InnoDB lock views) and show blocking trees and
// cycles as they form. docs/watch.md, docs/mysql.md#watch.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <unistd.h>

#include "app/commands.h"
#include "app/metrics_options.h"
#include "watch/duration.h"
#include "watch/watcher.h"

namespace lockgraph {
namespace {

struct WatchArgs {
  std::vector<std::string> dsns;
  std::string interval = "1s";
  std::string duration;
  std::string statement_timeout = "2s";
  std::string format = "text";
  std::string color = "auto";
  bool once = false;
  bool redact = false;
  MetricsSettings metrics;
};

int RunWatchCommand(const WatchArgs& args) {
  WatchOptions options;
  std::optional<double> interval = ParseDurationMs(args.interval);
  constexpr double kLongest = 366.0 * 24 * 3600 * 1000;  // a year
  if (!interval || *interval < 100 || *interval > kLongest) {
    std::cerr << "lockgraph watch: --interval '" << args.interval
              << "': give a duration of at least 100ms (250ms, 1s, 1.5s, 1m)\n";
    return kExitError;
  }
  options.interval_ms = *interval;
  if (!args.duration.empty()) {
    options.duration_ms = ParseDurationMs(args.duration);
    if (!options.duration_ms || *options.duration_ms > kLongest) {
      std::cerr << "lockgraph watch: --duration '" << args.duration
                << "': give a duration (30s, 5m, 1h)\n";
      return kExitError;
    }
  }
  PollSettings settings;
  std::optional<double> timeout = ParseDurationMs(args.statement_timeout);
  if (!timeout || *timeout < 1 || *timeout > 3600 * 1000) {
    std::cerr << "lockgraph watch: --statement-timeout '" << args.statement_timeout
              << "': give a duration from 1ms to 1h (500ms, 2s)\n";
    return kExitError;
  }
  settings.statement_timeout_ms = static_cast<int>(*timeout);
  options.once = args.once;
  options.redact = args.redact;
  options.format = args.format;
  const bool tty = isatty(STDOUT_FILENO);
  const char* no_color = std::getenv("NO_COLOR");
  options.color = args.color == "always" ||
                  (args.color == "auto" && tty && !(no_color && *no_color));
  options.refresh = args.format == "text" && tty && !args.once;

  std::string module_error;
  if (!ServerModuleAvailable(&module_error)) {
    std::cerr << "lockgraph watch: " << module_error << '\n';
    return kExitError;
  }
  std::vector<std::unique_ptr<SnapshotSource>> sources;
  std::vector<std::string> dsns = args.dsns;
  if (dsns.empty()) dsns.push_back("");  // PG* variables, service file, defaults
  for (const std::string& dsn : dsns)
    sources.push_back(IsMysqlUri(dsn) ? MakeMariadbSnapshotSource(dsn, settings)
                                      : MakePqxxSnapshotSource(dsn, settings));
  MetricsSettings metrics_settings = args.metrics;
  metrics_settings.options.watch = true;
  std::unique_ptr<MetricsService> metrics;
  if (!StartMetricsIfAsked("watch", metrics_settings, &metrics, std::cerr)) return kExitError;
  if (metrics) options.metrics = &metrics->observer();
  return RunWatch(std::move(sources), options, std::cout, std::cerr);
}

}  // namespace

void AddWatchCommand(CLI::App& app) {
  auto args = std::make_shared<WatchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "watch", "Poll running PostgreSQL, MySQL and MariaDB servers; show blocking trees and lock cycles live");
  cmd->add_option("dsn", args->dsns,
                  "Connection strings (key=value or postgresql:// URI; mysql:// or mariadb:// "
                  "for MySQL and MariaDB); none: the PG* environment variables and service "
                  "file, as psql");
  cmd->add_option("--interval", args->interval, "Time between polls (at least 100ms)")
      ->capture_default_str();
  cmd->add_option("--statement-timeout", args->statement_timeout,
                  "The poller's statement_timeout: a poll that takes longer is cancelled "
                  "by the server, reported, and tried again at the next interval")
      ->capture_default_str();
  cmd->add_flag("--once", args->once, "Poll each server once, print, exit");
  cmd->add_flag("--redact", args->redact,
                "Replace literals in the queries shown by '?' (docs/ci.md#redaction)");
  cmd->add_option("--duration", args->duration, "Stop after this long (30s, 5m, 1h)");
  cmd->add_option("-f,--format", args->format,
                  "text: a refreshing view on a terminal, changed pictures when piped\n"
                  "ndjson: wait_started, wait_ended, chain, cycle (and MySQL deadlock) events as they happen\n"
                  "json: one document per changed picture\n"
                  "dot: one Graphviz graph per changed picture")
      ->check(CLI::IsMember({"text", "ndjson", "json", "dot"}))->capture_default_str();
  AddMetricsOptions(cmd, &args->metrics);
  cmd->add_option("--color", args->color, "Colour in text output: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))->capture_default_str();
  cmd->footer(R"(Examples:
  lockgraph watch                                   # PGHOST, PGDATABASE, ... or ~/.pg_service.conf
  lockgraph watch 'host=db1 dbname=shop' 'postgresql://monitor@db2/shop'
  lockgraph watch --once --format json service=prod > snapshot.json
  lockgraph watch --format ndjson --interval 2s | ship-somewhere
  lockgraph watch mysql://monitor@db3:3306/shop 'host=db1 dbname=shop'
  lockgraph watch 'mariadb://monitor@localhost/shop?socket=/run/mysqld/mysqld.sock'
  lockgraph watch mysql://db3/shop       # user and password from ~/.my.cnf [client], or MYSQL_PWD

The poller's session is read-only, application_name=lockgraph, with
statement_timeout 2s (--statement-timeout) and lock_timeout 100ms; passwords
are never printed. A server that goes away, refuses connections or cancels a
poll is reported on stderr and tried again (with backoff when unreachable);
what was seen before is kept, so the waits that ended meanwhile are reported.
Needs pg_read_all_stats (or superuser) to see other users' queries.
MySQL / MariaDB: the session is READ ONLY with max_statement_time (MariaDB)
or max_execution_time (MySQL) from --statement-timeout and lock_wait_timeout
1s; needs PROCESS; a new LATEST DETECTED DEADLOCK becomes a deadlock event;
kill commands are shown (KILL <id>), never run (docs/mysql.md#watch).

Exit codes: 0 done (Ctrl-C, --duration, --once), 2 usage error, or a server
that never answered (with --once: any server that could not be polled), or a
login the server refused (wrong password, no pg_hba.conf entry, no such role or
database): watch stops at once instead of retrying.)");
  cmd->callback([args]() { throw CLI::RuntimeError(RunWatchCommand(*args)); });
}

}  // namespace lockgraph
