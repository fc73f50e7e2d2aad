// The lock-wait section of the HTML report: the longest blocking chains
// with their root blockers, longest chain first.
#pragma once

#include <ostream>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// A table of at most `max_rows` lock waits; a <p> when there are none.
void WriteLockWaitsHtml(const std::vector<Event>& events, size_t max_rows, std::ostream& out);

}  // namespace lockgraph
