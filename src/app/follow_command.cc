// `lockgraph follow FILE|DIR|GLOB...`: an agent beside a server's log;
// NDJSON events as deadlocks and lock waits happen (docs/follow.md).
#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>

#include "app/command_util.h"
#include "app/commands.h"
#include "app/follower.h"
#include "app/metrics_options.h"
#include "follow/follow_observer.h"

namespace lockgraph {
namespace {

volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_reopen = 0;

extern "C" void LockgraphFollowOnStop(int) { g_stop = 1; }
extern "C" void LockgraphFollowOnHangup(int) { g_reopen = 1; }

void InstallHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = LockgraphFollowOnStop;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sa.sa_handler = LockgraphFollowOnHangup;
  sigaction(SIGHUP, &sa, nullptr);
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, nullptr);  // a closed stdout is a write error, reported
}

struct FollowArgs {
  ReadArgs read;
  FollowOptions options;
  std::string max_size;
  MetricsSettings metrics;  // --metrics-listen, --metrics-max-causes
};

/// What follow writes, counted for /metrics (docs/metrics.md).
class MetricsFollowObserver : public FollowObserver {
 public:
  explicit MetricsFollowObserver(MetricsObserver& metrics) : metrics_(metrics) {}
  // Counts the event's findings too (MetricsObserver::OnEvent).
  void OnEvent(const Event& event) override { metrics_.OnEvent(event); }
  void OnLines(const std::string& file, const LineCounts& added) override {
    (void)file;
    metrics_.AddLineCounts(added);
  }

 private:
  MetricsObserver& metrics_;
};

int RunFollow(FollowArgs& args) {
  std::string rule_error;
  if (!RuleEngine::CheckSelection(args.read.rules, &rule_error)) {
    std::cerr << "lockgraph follow: " << rule_error << '\n';
    return kExitError;
  }
  if (args.read.files.empty() || args.read.files == std::vector<std::string>{"-"}) {
    std::cerr << "lockgraph follow: name the logs to follow: FILE, DIR or GLOB "
                 "(stdin: `tail -F log | lockgraph analyze --format ndjson -`)\n";
    return kExitError;
  }
  if (!args.max_size.empty() && !ParseByteSize(args.max_size, &args.options.output_max_size)) {
    std::cerr << "lockgraph follow: --output-max-size: not a size: '" << args.max_size
              << "' (bytes, or with k, M, G)\n";
    return kExitError;
  }
  std::unique_ptr<Emitter> ndjson = FindEmitter("ndjson");
  args.options.targets = args.read.files;
  args.options.analyze = MakeAnalyzeOptions(args.read, ndjson.get());
  args.options.analyze.threads = 1;  // events are told apart by the file being read
  args.options.analyze.collect_events = false;
  std::unique_ptr<MetricsService> metrics;
  if (!StartMetricsIfAsked("follow", args.metrics, &metrics, std::cerr)) return kExitError;
  std::unique_ptr<MetricsFollowObserver> observer;
  if (metrics) observer = std::make_unique<MetricsFollowObserver>(metrics->observer());
  g_stop = 0;
  g_reopen = 0;
  InstallHandlers();
  Follower follower(args.options, observer.get());
  return follower.Run({&g_stop, &g_reopen});
}

}  // namespace

void AddFollowCommand(CLI::App& app) {
  auto args = std::make_shared<FollowArgs>();
  CLI::App* cmd = app.add_subcommand(
      "follow", "Follow growing server logs across rotation; one NDJSON event per deadlock and "
                "lock wait as it happens");
  AddReadOptions(cmd, &args->read);
  // Shared with analyze, but here: targets, not stdin; and one thread (the
  // events of each file are counted as it is read).
  cmd->get_option("files")->description(
      "FILE, DIR (its files) or GLOB (quoted) to follow, also files that appear later");
  cmd->remove_option(cmd->get_option("--threads"));
  AddMetricsOptions(cmd, &args->metrics);
  FollowOptions& o = args->options;
  cmd->add_option("--state", o.state_path,
                  "State file: resume exactly where the last run stopped (written atomically "
                  "after every batch)");
  cmd->add_option("-o,--output", o.output_path, "Write the events to FILE (appending) instead of "
                                                "stdout; reopened on SIGHUP");
  cmd->add_option("--output-max-size", args->max_size,
                  "Rotate --output past this size (e.g. 100M): FILE.1 ... FILE.N");
  cmd->add_option("--output-keep", o.output_keep, "Rotated output files to keep")
      ->capture_default_str();
  cmd->add_option("--quiet", o.quiet_ms,
                  "Milliseconds without new lines after which open records leave")
      ->check(CLI::Range(1, 60000))->capture_default_str();
  cmd->add_option("--poll-interval", o.poll_ms,
                  "Longest sleep between looks at the files, in milliseconds (inotify wakes "
                  "earlier)")
      ->check(CLI::Range(10, 60000))->capture_default_str();
  cmd->add_option("--finish-after", o.finish_ms,
                  "Milliseconds a renamed or superseded file stays quiet before it is closed")
      ->check(CLI::Range(0, 86400000))->capture_default_str();
  cmd->add_flag("--once", o.once, "Read what the files hold now, write the events, save the "
                                  "state and exit (from cron)");
  cmd->footer(R"(Examples:
  lockgraph follow /var/log/postgresql/
  lockgraph follow --state /var/lib/lockgraph/state.json \
      --output /var/log/lockgraph/events.ndjson /var/log/postgresql/
  lockgraph follow --state state.json '/var/lib/postgresql/15/main/log/*.csv'
  lockgraph follow --output events.ndjson --output-max-size 100M --output-keep 5 pg.json
  lockgraph follow --once --state state.json /var/log/postgresql/   # from cron

Follows each FILE, every file of each DIR and every file a GLOB matches
(quote it), also those that appear later: PostgreSQL's own rotation,
logrotate (create or copytruncate). Each event is written within ~60 ms of
its last line (--quiet 50 plus the read). With --state, a restart
resumes exactly: no event twice, none lost (docs/follow.md).

Exit codes: 0 stopped by SIGINT/SIGTERM (or --once done), everything
written and the state saved; 2 usage error, unreadable or malformed state,
output or state write error.)");
  cmd->callback([args]() { throw CLI::RuntimeError(RunFollow(*args)); });
}

}  // namespace lockgraph
