// Turns a deadlock error found in client output (client_scanner.h) into a
// `deadlock` event: the edges of the DETAIL, the victim inferred, never
// complete (the statements are only in the server log).
// docs/postgresql.md#application-and-test-output.
#pragma once

#include <string>

#include "model/event.h"
#include "parsers/client/client_scanner.h"

namespace lockgraph::client {

/// The event of `report` read from `file`, with source.kind "client".
/// Victim: the first edge's waiter (the server lists the detecting backend's
/// own wait first, and that backend's error is the one the client printed);
/// a problem says it is inferred. No edge is made up: without DETAIL the
/// deadlock has no edges and no victim.
Event MakeClientDeadlock(const ClientReport& report, const std::string& file);

}  // namespace lockgraph::client
