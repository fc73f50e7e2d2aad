// A <process> element of a SQL Server deadlock graph (reference A3, A4) as
// an engine-neutral Participant: the typed fields every engine shares
// (session, query = the input buffer, frames = the execution stack) and
// every other attribute kept as reported.
#pragma once

#include <pugixml.hpp>

#include "model/event.h"

namespace lockgraph {

/// Every attribute is optional (parallel workers lack most of them).
Participant ReadSqlServerProcess(const pugi::xml_node& process);

/// Leading and trailing white space (spaces, tabs, CR, LF) removed.
std::string TrimText(std::string_view text);

}  // namespace lockgraph
