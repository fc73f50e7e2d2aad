// What one analysis produced: the events (sorted for output), the inputs
// with their detected formats, line counts and diagnostics. Emitters read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/deadlock_groups.h"
#include "app/check_result.h"
#include "model/event.h"
#include "parsers/input_format.h"

namespace lockgraph {

struct InputInfo {
  std::string file;
  std::string format;    // "stderr", "csvlog", ...
  std::string detected;  // e.g. the detected log_line_prefix
  bool gzip = false;
  LineCounts lines;
  /// Fewer than half of the lines it did not skip were understood: the
  /// events may be incomplete (a diagnostic says which format fits better).
  bool poorly_understood = false;
  /// The frame around each line (parsers/framing/: "docker-compose",
  /// "heroku", ...); empty when the lines are the server's own.
  std::string framing;
};

struct UnparsedLine {
  std::string file;
  uint64_t line = 0;
  std::string text;
};

struct Summary {
  uint64_t deadlocks = 0;
  uint64_t deadlocks_incomplete = 0;
  uint64_t lock_waits = 0;
  uint64_t snapshots = 0;  // pg_locks snapshots (and their chains, cycles)
  uint64_t chains = 0;
  uint64_t cycles = 0;
  LineCounts lines;
};

struct Report {
  std::vector<InputInfo> inputs;
  std::vector<Event> events;  // sorted by input order, then first line
  std::vector<UnparsedLine> unparsed;  // the first ones, when asked for
  std::vector<Diagnostic> diagnostics;
  Summary summary;
  /// Rule findings about the whole run (a retry storm, missing evidence);
  /// findings about one event are in that event.
  std::vector<Finding> findings;
  /// Deadlocks grouped by signature, largest group first.
  std::vector<DeadlockGroup> groups;
  /// The causes of the groups (rule and statements), largest first; each
  /// names its groups by signature (docs/rules.md#causes).
  std::vector<DeadlockCause> causes;
  /// Set by `lockgraph check`: what is new and what broke a limit.
  std::optional<CheckResult> check;
};

/// Receives events as the input streams (ndjson), before any sorting.
class EventStream {
 public:
  virtual ~EventStream() = default;
  virtual void OnEvent(const Event& event) = 0;
  /// Before the events of each input: inputs are numbered from 0 in the
  /// order they are read (events are sorted by input, then line).
  virtual void OnInputStart(size_t input) {}
};

}  // namespace lockgraph
