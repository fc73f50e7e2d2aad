// Every field of a SQL Server deadlock event as text, one line per item, so
// that the sample tests compare whole values (tests/unit/test_sqlserver_*.cc).
#pragma once

#include <string>

#include "model/event.h"

namespace lockgraph::test {

/// "name=value, ..." of a lock's fields, then its text.
std::string LockString(const LockTarget& lock);

/// "waiter -mode(request)/lock-> blocker holding M [basis]".
std::string EdgeString(const WaitEdge& e);

/// Every field of the event: header, victims, processes (with session,
/// wait, frames, attributes), edges, other edges, resources, problems.
std::string DescribeSqlServerEvent(const Event& ev);

}  // namespace lockgraph::test
