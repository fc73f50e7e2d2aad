// What `lockgraph check` judges in pg_locks snapshots: a lock cycle fails
// like a deadlock (--max-deadlocks), and the ages of the waits it shows count
// against --max-lock-wait. One long wait per blocking tree or cycle: its
// longest waiter. docs/ci.md#snapshots.
#pragma once

#include <string>

#include "model/event.h"

namespace lockgraph {

/// The member of a blocking tree or cycle event that has waited longest
/// (by wait_age_ms, else state_age_ms); null for other events or when
/// no member says how long.
const Backend* LongestSnapshotWaiter(const Event& event);

/// How long LongestSnapshotWaiter() waited, in ms; 0 when not known.
double SnapshotWaitMs(const Event& event);

/// The key of a snapshot wait, as WaitKey() is for a logged one: FNV-1a 64
/// of "snapshot", the waiter's lock mode, lock type and statement shape.
std::string SnapshotWaitKey(const Event& event);

/// "ShareLock on transactionid (snapshot): update accounts set ...".
std::string SnapshotWaitDescription(const Event& event);

/// "13922 -> 13957 -> 13922" for a cycle event.
std::string CyclePids(const Event& event);

}  // namespace lockgraph
