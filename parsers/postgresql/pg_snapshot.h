// A pg_locks snapshot becomes events: the rows (PgLockRow) are grouped into
// snapshots, each described as processes (Backend), wait edges
// (pg_blocking.h), then blocking trees and cycles (graph/blocking_trees.h).
// Shared by the snapshot input formats and `lockgraph watch`.
// docs/watch.md says what each event holds.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/event.h"
#include "parsers/input_format.h"
#include "parsers/snapshot_analysis.h"
#include "parsers/postgresql/pg_lock_rows.h"

namespace lockgraph {

/// One moment of one server's locks.
struct PgSnapshot {
  PgLockRows rows;                 // in input order
  std::string sampled_at;          // when there are no rows to say it
  bool has_blocking_pids = false;  // taken with docs/snapshot.sql
  SourceSpan source;               // the file and line span
  std::string server;              // or the server polled (masked DSN)
  std::optional<double> poll_ms;   // watch: the query's round trip
};

/// The processes of a snapshot by id, with what pg_stat_activity said of
/// them, the lock each waits for and its granted locks on contested objects.
std::map<std::string, Backend> PgSnapshotBackends(const PgSnapshot& snapshot);

/// The same, with the rows' index already made (pg_row_index.h).
struct PgRowIndex;
std::map<std::string, Backend> PgSnapshotBackends(const PgSnapshot& snapshot,
                                                  const PgRowIndex& index);

/// What one snapshot says: its processes, who waits for whom, and the
/// events in output order: one `snapshot`, then a `cycle` per knot, then a
/// `chain` per blocking tree. Deterministic.
/// (edges: pg_blocking.h)
using PgSnapshotAnalysis = SnapshotAnalysis;
PgSnapshotAnalysis AnalyzePgSnapshot(const PgSnapshot& snapshot);

/// Groups the rows of an input into snapshots and hands their events to a
/// sink: a snapshot ends where sampled_at changes, at Break() (a repeated
/// header) and at Finish(). Not thread-safe.
class PgSnapshotCollector {
 public:
  PgSnapshotCollector(std::string file, ParseSink& sink) : file_(std::move(file)), sink_(sink) {}
  void set_has_blocking_pids(bool v) { has_blocking_pids_ = v; }
  void Add(PgLockRow&& row, uint64_t last_line);
  void Break();
  void Finish() { Break(); }

 private:
  std::string file_;
  ParseSink& sink_;
  bool has_blocking_pids_ = false;
  PgSnapshot current_;
};

}  // namespace lockgraph
