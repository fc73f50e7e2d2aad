// The English server messages read for every lock wait and deadlock,
// read by hand before RE2: each scan answers with exactly what its regex
// (quoted above it) captures, or says it cannot tell, and then the regex
// decides. RE2 matched these with its backtracker, 3,000 to 16,000
// instructions a line (docs/performance.md). tests/unit/test_message_scan.cc
// holds each scan to its regex.
#pragma once

#include <string_view>

namespace lockgraph {

/// `Process (\d+) waits for (\S+) on (.+); blocked by process (\d+)\.`,
/// the whole line (a deadlock's edge).
struct EdgeScan {
  std::string_view waiter, mode, tag, blocker;
};
bool ScanEdge(std::string_view line, EdgeScan* out);

/// `Process(?:es)? holding the lock: ([\d, ]*)[.,] Wait queue: ([\d, ]*)\.`,
/// the whole line (a lock wait's DETAIL).
struct HoldersScan {
  std::string_view holders, queue;
};
bool ScanHolders(std::string_view line, HoldersScan* out);

/// `while (updating|deleting|locking|rechecking updated|inserting index|`
/// `checking uniqueness of|checking exclusion constraint on) tuple `
/// `(\(\d+,\d+\)) in relation "(.*)"`, the whole line (a CONTEXT frame).
struct RowWaitScan {
  std::string_view action, tuple, relation;
};
bool ScanRowWait(std::string_view line, RowWaitScan* out);

/// A timed lock-wait message, as MatchTimedWait's two regexes read it
/// (messages.cc): the head `process (\d+) (VERB) (\S+) on ` at the start,
/// the tail `(?: by rearranging queue order)? after (\d+)\.(\d+) ms`
/// `(?: at character \d+)?$` at its leftmost start after the tag's first
/// byte, the tag between. Views into `message`; `tag` may hold a '\n'
/// (MatchTimedWait refuses it).
struct TimedWaitScan {
  std::string_view pid, verb, mode, tag, ms, frac;
};
bool ScanTimedWait(std::string_view message, TimedWaitScan* out);

}  // namespace lockgraph
