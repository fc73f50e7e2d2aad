// The rows of one pg_locks snapshot indexed once for its analysis: each
// row's process id, its lock as a number, the rows of each lock, and which
// locks someone waits for. pg_snapshot.cc and pg_blocking.cc share it, so
// that no row's key or id is made twice (docs/performance.md, issue 20).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parsers/postgresql/pg_lock_rows.h"

namespace lockgraph {

/// Copyable. Locks are numbered in the order of their keys
/// (PgLockRowKey), so that walking them by number is walking them by key.
struct PgRowIndex {
  std::vector<std::string> process;  // per row: PgRowProcessId()
  std::vector<uint32_t> lock;        // per row: the number of its lock
  std::vector<uint32_t> by_lock;     // row numbers, grouped by lock, each group in row order
  std::vector<uint32_t> lock_begin;  // per lock, then one more: its group's start in by_lock
  std::vector<bool> contested;       // per lock: some row waits for it
  std::vector<bool> waits;           // per row: not granted
  std::vector<bool> names_mode;      // per row: its mode is not ""

  size_t locks() const { return lock_begin.empty() ? 0 : lock_begin.size() - 1; }
};

/// Indexes `rows` (any number, none included).
PgRowIndex IndexPgRows(const PgLockRows& rows);

}  // namespace lockgraph
