// lockgraph: rebuilds who waited for whom from the evidence databases leave
// about deadlocks and lock waits. This file only wires CLI11 to the library.
#include <CLI/CLI.hpp>

#include <iostream>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "app/cli_errors.h"
#include "app/commands.h"
#include "emit/text_safety.h"

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // Blocks of 128 KiB and more (read blocks, spool buffers, growing vectors)
  // stay mmap'd and go back to the system when freed. By default glibc
  // raises this threshold after the first such free (up to 32 MiB), and later
  // large blocks come from the heap, whose freed middle is never given back:
  // 10 x 1 GiB through a pipe, text 62.3 -> 53.9 MB peak RSS, no slower
  // (docs/performance.md#what-bounds-memory).
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  std::ios::sync_with_stdio(false);
  CLI::App app{"lockgraph: deadlock and lock-wait analyzer for database logs"};
  app.set_version_flag("--version", std::string("lockgraph ") + LOCKGRAPH_VERSION);
  app.require_subcommand(1);
  app.footer(
      "What analyze, check and report read (sniffed, or --input-format):\n"
      "  PostgreSQL  server logs: stderr with any log_line_prefix, csvlog, jsonlog, syslog;\n"
      "              in docker, kubectl, journald, grep, syslog RFC 5424 or Heroku frames;\n"
      "              Cloud SQL / AlloyDB (Cloud Logging), Azure (diagnostic settings, Log\n"
      "              Analytics); pastes; 15 lc_messages languages; pg_locks snapshots (CSV, JSON)\n"
      "  SQL Server  deadlock XML (.xdl, extended events, system_health, UTF-8 or UTF-16),\n"
      "              trace flags 1222 and 1204 in the ERRORLOG\n"
      "  MySQL       InnoDB deadlock reports: SHOW ENGINE INNODB STATUS (\\G, table, session\n"
      "  MariaDB     paste), error logs with innodb_print_all_deadlocks (5.5 to 8.x, MariaDB)\n"
      "  drivers     deadlock errors in application and test output (psycopg, JDBC, Rails, ...)\n"
      "  Plain or compressed (gzip, bzip2, xz, zstd), files or '-' for stdin.\n"
      "What watch polls: PostgreSQL servers (libpq DSNs and PG* variables).\n\n"
      "Run 'lockgraph COMMAND --help' for a command's options and examples.");
  lockgraph::AddAnalyzeCommand(app);
  lockgraph::AddCheckCommand(app);
  lockgraph::AddBaselineCommand(app);
  lockgraph::AddReportCommand(app);
  lockgraph::AddWatchCommand(app);
  lockgraph::AddFollowCommand(app);
  lockgraph::AddRulesCommand(app);
  lockgraph::AddExplainCommand(app);
  lockgraph::AddCompletionCommand(app);  // hidden; reads the commands above
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a command's own exit code
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::vector<std::string> args(argv + 1, argv + argc);
    std::cerr << "lockgraph: " << lockgraph::OneLineText(lockgraph::PlainParseError(app, e, args)) << '\n'
              << "Run '" << lockgraph::HelpCommand(app) << "' for the options and examples.\n";
    return lockgraph::kExitError;
  }
  return 0;
}
