// The loop of `lockgraph watch`: polls every server each interval, keeps
// going when one goes away (reconnecting with backoff), and writes what it
// sees in the chosen format. docs/watch.md.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "metrics/observer.h"
#include "watch/snapshot_source.h"

namespace lockgraph {

struct WatchOptions {
  double interval_ms = 1000;            // --interval; at least 100
  bool once = false;                    // --once: one poll of each server, then exit
  std::optional<double> duration_ms;    // --duration: stop after this long
  std::string format = "text";          // text, json, ndjson, dot
  bool color = false;                   // text: ANSI colour
  bool refresh = false;                 // text: redraw a terminal screen each poll
  bool redact = false;                  // --redact: literals in queries shown as "?"
  double max_backoff_ms = 30000;        // reconnect delay doubles from 1 s up to this
  /// --metrics-listen: told every poll, every change event (the ndjson
  /// ones) and every failure; null: no metrics. The caller keeps it alive.
  MetricsObserver* metrics = nullptr;
};

/// Runs until --once is done, --duration has passed, or SIGINT / SIGTERM.
/// Results go to `out`, problems (a server down, a query refused) to `err`
/// as "lockgraph watch: SERVER: message". Returns 0, or 2 when a server
/// never answered (with --once: when any poll failed) or refused the login
/// (wrong password, no pg_hba.conf entry, no such role or database: watch
/// stops at once instead of retrying).
int RunWatch(std::vector<std::unique_ptr<SnapshotSource>> sources, const WatchOptions& options,
             std::ostream& out, std::ostream& err);

}  // namespace lockgraph
