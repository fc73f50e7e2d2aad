// Resource elements of a SQL Server deadlock graph (reference A5): every
// child of <resource-list>, whatever its name, as a LockResource whose lock
// type is the element name; and the waits each resource proves, decided
// with the lock compatibility matrix (docs/sqlserver.md#edges).
#pragma once

#include <pugixml.hpp>

#include <vector>

#include "model/event.h"

namespace lockgraph {

/// The lock's fields are the element's attributes in report order, `mode`
/// aside; `xactlock` gets its <UnderlyingResource> element's ones too.
LockResource ReadSqlServerResource(const pugi::xml_node& resource);

/// The waits of one resource, each waiter against each owner: `hard` for a
/// granted owner whose mode conflicts, `soft` for an owner converting to a
/// conflicting mode and for a conflicting waiter ahead in the queue,
/// `derived` when a mode is missing or unknown on a lock, `reported` on a
/// resource without modes (exchangeEvent, threadpool, resourceWait). An
/// owner converting to a conflicting mode (requestType="convert") that no
/// waiter entry names waits as well: its edges follow the waiters'. One
/// edge per waiter and blocker; `line` goes to every edge.
void AddResourceWaits(const LockResource& resource, uint64_t line, std::vector<WaitEdge>* out);

}  // namespace lockgraph
