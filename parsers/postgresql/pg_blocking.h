// Who waits for whom in one pg_locks snapshot: the server's own answer
// (pg_blocking_pids on the waiting rows, docs/snapshot.sql), or, for a plain
// `SELECT * FROM pg_locks` dump, an answer derived from the conflict matrix.
// The rules and their limits: docs/watch.md#who-blocks-whom.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/event.h"
#include "parsers/postgresql/pg_lock_rows.h"

namespace lockgraph {

/// The id of the process of a row: its pid, or "prepared <virtualtransaction>"
/// for a lock of a prepared transaction (pid NULL).
std::string PgRowProcessId(const PgLockRow& row);

/// Edges waiter -> blocker, each with the waiter's requested mode and lock,
/// sorted by waiter pid then blocker pid, at most one per pair and lock.
///
/// `use_blocking_pids`: the edges are those pg_blocking_pids() gave; each is
/// `hard` when the blocker holds a conflicting granted lock on the same
/// object, `soft` when it waits for one there, else `reported` (a parallel
/// group leader, a prepared transaction).
///
/// Otherwise every edge is `derived`: `hard` to each other process holding a
/// conflicting granted lock on the object; `soft` to each other process
/// waiting for a conflicting mode on it earlier (by waitstart, then row
/// order: PostgreSQL's queue order is not in pg_locks, so this approximates
/// it). A process never conflicts with itself. Transaction ids need nothing
/// special: a waiter asks for ShareLock on the xid, its owner holds
/// ExclusiveLock on it.
std::vector<WaitEdge> PgBlockingEdges(const PgLockRows& rows, bool use_blocking_pids);

/// The same, with the rows' index already made (pg_row_index.h).
struct PgRowIndex;
std::vector<WaitEdge> PgBlockingEdges(const PgLockRows& rows, const PgRowIndex& index,
                                      bool use_blocking_pids);

/// An edge as the rows give it, before it is made a WaitEdge (which copies
/// the waiter's id, mode and lock: a 100,000-waiter snapshot makes them
/// only for the edges an event shows).
struct PgBlockingLink {
  uint32_t waiter_row = 0;  // the row where the waiter waits
  std::string blocker;      // the blocker's process id
  EdgeBasis basis = EdgeBasis::kReported;
  bool derived = false;
};

/// PgBlockingEdges() as links, in the same order.
std::vector<PgBlockingLink> PgBlockingLinks(const PgLockRows& rows, const PgRowIndex& index,
                                            bool use_blocking_pids);

/// The edge a link stands for, as PgBlockingEdges() gives it.
WaitEdge PgLinkEdge(const PgLockRows& rows, const PgRowIndex& index, const PgBlockingLink& link);

}  // namespace lockgraph
