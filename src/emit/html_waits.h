// The lock-wait section of the HTML report: the longest blocking chains
// with their root blockers, longest chain first.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "emit/html_events.h"

namespace lockgraph {

/// A table of `rows` (HtmlEvents::Waits) out of `lock_waits`; a <p> when
/// there are none.
void WriteLockWaitsHtml(const std::vector<WaitRow>& rows, uint64_t lock_waits, std::ostream& out);

}  // namespace lockgraph
