// A MySQL / MariaDB lock snapshot becomes events: the rows of
// docs/mysql-snapshot.sql (sessions, InnoDB lock waits, metadata locks) are
// described as processes (Backend) and wait edges, then blocking trees and
// cycles (graph/blocking_trees.h). Shared by `lockgraph watch mysql://` and
// the snapshot input format (mysql_snapshot_format.cc). docs/mysql.md#watch.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/event.h"
#include "parsers/snapshot_analysis.h"

namespace lockgraph {

/// One row of the snapshot query. Text columns as the server prints them;
/// "" is SQL NULL.
struct MyLockRow {
  uint64_t line = 0;  // first input line of the row; 0 when not from a file
  std::string sampled_at;  // UTC, "YYYY-MM-DD HH:MM:SS.ffffff"
  std::string kind;        // "session", "wait" or "mdl"
  std::optional<int64_t> id;  // the connection id (KILL takes it)
  std::string user, host, db, command, state, trx_id, trx_state, query;
  std::optional<double> time_s, trx_age_s, wait_age_s;
  std::optional<int64_t> trx_rows_locked;
  std::string lock_mode, lock_type, lock_table, lock_index, lock_space, lock_page, lock_rec,
      lock_data, blocker_mode;
  std::optional<int64_t> blocker_id;
};

/// The column names of the query, in its order.
const std::vector<std::string>& MyLockSnapshotColumns();

/// Returns a column's text, nullopt for SQL NULL (or "NULL" in --batch
/// output) or a column the input lacks.
using MyColumnGetter = std::function<std::optional<std::string_view>(std::string_view)>;

/// Fills `row`. False, with *error naming the column, when kind or id is
/// missing or a number is not one; the row is then not understood.
bool MyLockRowFromColumns(const MyColumnGetter& get, MyLockRow* row, std::string* error);

/// One moment of one server's locks.
struct MyLockSnapshot {
  std::vector<MyLockRow> rows;  // in input order
  std::string sampled_at;       // when there are no rows to say it
  /// Where the waits came from: "information_schema.innodb_lock_waits"
  /// (MariaDB, MySQL 5.7) or "performance_schema.data_lock_waits".
  std::string blocking = "information_schema.innodb_lock_waits";
  SourceSpan source;
  std::string server;             // watch: the server (masked URI)
  std::optional<double> poll_ms;  // watch: the queries' round trip
};

/// Processes, edges and events (engine "mysql"): one `snapshot`, then a
/// `cycle` per knot, then a `chain` per blocking tree. A session sleeping
/// with an open transaction has state "idle in transaction"; a running one
/// "active". InnoDB waits are edges the server reported (basis reported);
/// metadata-lock waits are derived from MySQL's compatibility matrices
/// (hard: a granted lock; soft: a pending stronger request queued ahead).
/// Deterministic.
SnapshotAnalysis AnalyzeMyLockSnapshot(const MyLockSnapshot& snapshot);

/// Milliseconds since the epoch of "YYYY-MM-DD HH:MM:SS[.ffffff]" read as
/// UTC; nullopt when it is not one.
std::optional<int64_t> MyUtcEpochMs(std::string_view text);

}  // namespace lockgraph
