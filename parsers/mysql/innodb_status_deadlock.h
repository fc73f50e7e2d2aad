// The LATEST DETECTED DEADLOCK section of SHOW ENGINE INNODB STATUS, for
// `lockgraph watch mysql://`: cut out of the status text (to notice when it
// changes between polls) and read by the InnoDB report reader
// (innodb_reader.h) into deadlock events. docs/mysql.md#watch.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/event.h"

namespace lockgraph {

/// The section from its "LATEST DETECTED DEADLOCK" title to the line before
/// the next section's dash line; "" when the status has none (no deadlock
/// since the server started).
std::string LatestDeadlockSection(std::string_view status);

/// The deadlock events (engine "mysql") of `section`, in order; `file` names
/// the source in their SourceSpan. Never throws; a report the reader could
/// not close is kept with complete = false.
std::vector<Event> ReadInnodbDeadlocks(std::string_view section, const std::string& file);

}  // namespace lockgraph
