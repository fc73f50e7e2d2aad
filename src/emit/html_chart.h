// The summary chart of the HTML report: deadlocks and lock waits over time
// as an inline SVG bar chart, per second, minute, hour or day as the span
// of the log asks (at most a few hundred bars).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "model/event.h"

namespace lockgraph {

/// Counts deadlocks and lock waits by second as they come (in any order),
/// and draws them. Memory: one entry per second that has any. Copyable;
/// not thread-safe.
class TimeChart {
 public:
  void Add(const Event& event);
  /// An <svg> element, or a <p> saying why there is no chart (no deadlock
  /// or lock wait with a readable time).
  std::string Svg() const;

 private:
  struct Counts {
    uint64_t deadlocks = 0, waits = 0;
  };
  std::map<int64_t, Counts> by_second_;
};

}  // namespace lockgraph
