// Where an event comes in log order, as Analyzer::Finish sorts the events it
// keeps: for what an output or command takes of each event as it is made
// (events are made when they end, not in log order).
#pragma once

#include <cstdint>

namespace lockgraph {

/// Its input (in the order read), its first line, then the order events
/// were made. Copyable.
struct LogPlace {
  uint32_t input = 0;
  uint64_t first_line = 0;
  uint64_t seq = 0;
  bool operator<(const LogPlace& o) const {
    if (input != o.input) return input < o.input;
    if (first_line != o.first_line) return first_line < o.first_line;
    return seq < o.seq;
  }
};

}  // namespace lockgraph
