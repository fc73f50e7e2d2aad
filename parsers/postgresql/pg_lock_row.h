// One row of a pg_locks snapshot, whatever carried it: psql --csv, JSON, or
// the live query of `lockgraph watch`. The pg_locks columns, plus the
// pg_stat_activity columns and pg_blocking_pids when the snapshot was taken
// with docs/snapshot.sql. Column list and meaning: docs/watch.md#columns.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/lock_target.h"

namespace lockgraph {

/// Text columns keep PostgreSQL's text form; "" is SQL NULL. They are
/// views: into the caller's text while a row is filled, into the
/// PgLockRows that holds it once added there (pg_lock_rows.h).
struct PgLockRow {
  uint64_t line = 0;  // first input line of the row; 0 when not from a file
  std::string_view sampled_at;
  std::optional<int64_t> pid;  // NULL for a prepared transaction
  std::string_view locktype, database, relation, page, tuple, virtualxid, transactionid,
      classid, objid, objsubid;
  std::string_view virtualtransaction;
  std::string_view mode;
  bool granted = false;
  bool fastpath = false;
  std::string_view waitstart;
  /// docs/snapshot.sql asks pg_blocking_pids() on the row where a backend
  /// waits; nullopt elsewhere and in plain dumps.
  std::optional<std::vector<int64_t>> blocking_pids;
  std::string_view wait_event_type, wait_event, state, backend_type, backend_xid, xact_start,
      query_start, state_change, usename, datname, application_name, client_addr,
      relation_name, query;
};

/// A text column of PgLockRow, by its name in pg_locks, pg_stat_activity
/// or docs/snapshot.sql.
struct PgTextColumn {
  std::string_view name;  // not a const char*: asked for on every row, strlen each time
  std::string_view PgLockRow::*field;
};

/// Every text column, in one fixed order.
std::span<const PgTextColumn> PgLockTextColumns();

/// Returns the text of a column, nullopt for SQL NULL or a column the input
/// does not have. Booleans come as t/f or true/false, arrays as {1,2}.
using PgColumnGetter = std::function<std::optional<std::string_view>(std::string_view)>;

/// Fills `row` from its columns. False, with *error naming the column,
/// when locktype, mode or granted is missing or a number or boolean is not
/// one; the row must then be counted as not understood.
bool PgLockRowFromColumns(const PgColumnGetter& get, PgLockRow* row, std::string* error);

/// True when the column names are those of pg_locks (at least locktype,
/// pid, mode, granted); *missing lists the absent ones otherwise.
bool IsPgLocksHeader(const std::vector<std::string>& columns, std::string* missing);

/// True when the columns include blocking_pids (docs/snapshot.sql).
bool HasBlockingPidsColumn(const std::vector<std::string>& columns);

/// The locked object, with the same type, fields and text as the lock tags
/// of log messages (parsers/postgresql/lock_tag.h), so that keys match.
LockTarget PgLockRowTarget(const PgLockRow& row);

/// PgLockRowTarget(row).Key(), made without building the target (every row
/// of a snapshot needs its key; only waiting rows need their target).
std::string PgLockRowKey(const PgLockRow& row);

/// Microseconds since 1970-01-01 UTC of a timestamptz as psql writes it
/// ("2026-12-02 10:35:10.629127+00") or as JSON has it
/// ("2026-12-02T10:35:10.654559+00:00"); nullopt for other text.
std::optional<int64_t> PgTimestampMicros(std::string_view text);

}  // namespace lockgraph
