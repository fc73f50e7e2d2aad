// What one analysis produced: the events (sorted for output), the inputs
// with their detected formats, line counts and diagnostics. Emitters read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/deadlock_groups.h"
#include "analysis/relation_map.h"
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

/// An input that could not be read at all (cannot open, no format fits),
/// and why. An input read part way is in `inputs`, with a diagnostic.
struct FailedInput {
  std::string file;
  std::string error;
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
  /// Deadlocks and lock waits an input repeated from an earlier one (the
  /// same run's stderr and csvlog): counted once, above (analysis/repeats.h).
  uint64_t repeated_deadlocks = 0;
  uint64_t repeated_lock_waits = 0;
  uint64_t snapshots = 0;  // pg_locks snapshots (and their chains, cycles)
  uint64_t chains = 0;
  uint64_t cycles = 0;
  /// Events --since/--until left out: outside the window, or with no time
  /// that could be read (not counted above).
  uint64_t outside_window = 0;
  uint64_t outside_window_no_time = 0;
  /// "duplicate key value violates unique constraint" errors (23505), read
  /// for PG016 only: not events of the report.
  uint64_t unique_violations = 0;
  LineCounts lines;
  /// The relation OIDs the inputs' records named (analysis/relation_map.h).
  std::vector<RelationName> relation_names;
};

struct Report {
  std::vector<InputInfo> inputs;
  std::vector<FailedInput> failed_inputs;
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
