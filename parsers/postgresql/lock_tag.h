// PostgreSQL lock tags as DescribeLockTag() writes them ("tuple (0,5) of
// relation 16390 of database 16384"), parsed into LockTargets whose type and
// field names are those of pg_locks. Table: docs/json-schema.md#lock.
#pragma once

#include <string_view>

#include "model/lock_target.h"

namespace lockgraph {

/// Parses a whole tag. An unrecognised tag gives type "unknown" with the
/// text kept, never an error: the edge is still reported.
LockTarget ParsePgLockTag(std::string_view text);

/// True for the nine lock mode names of lock.c (never translated).
bool IsPgLockMode(std::string_view mode);

}  // namespace lockgraph
