// The report's "Live locks" section: each pg_locks snapshot with its blocking
// trees and cycles, drawn, each root blocker flagged (idle in transaction,
// its age, its last query), each member with what it waits for and how long.
#pragma once

#include <ostream>
#include <vector>

#include "emit/html_svg.h"
#include "model/event.h"

namespace lockgraph {

/// Writes the section when `events` hold snapshots; nothing otherwise. The
/// first `drawn_max` trees and cycles are drawn with `svg`, the others listed.
void WriteSnapshotsHtml(const std::vector<Event>& events, SvgRenderer& svg, size_t drawn_max,
                        std::ostream& out);

}  // namespace lockgraph
