// PostgreSQL's lock conflict matrix (LockConflicts[] in lock.c, reference
// §5): which requested mode conflicts with which held mode. Used to derive
// who blocks whom from a plain pg_locks dump (docs/watch.md#who-blocks-whom).
#pragma once

#include <string_view>

namespace lockgraph {

/// 1 (AccessShareLock) .. 8 (AccessExclusiveLock); 0 for any other name
/// (SIReadLock, INVALID, unknown text): such a mode conflicts with nothing.
int PgLockModeLevel(std::string_view mode);

/// True when a request for `requested` must wait for a holder (or an
/// earlier waiter) of `held`. Symmetric.
bool PgLockModesConflict(std::string_view requested, std::string_view held);

}  // namespace lockgraph
