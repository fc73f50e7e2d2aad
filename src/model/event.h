// The engine-neutral event model: what every parser produces and every graph
// builder, rule and emitter consumes. One model for PostgreSQL, SQL Server and
// pg_locks snapshots; see docs/json-schema.md for the JSON form of each field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/finding.h"
#include "model/lock_target.h"

namespace lockgraph {

/// Where an event came from: file name ("-" for stdin) and 1-based line span.
struct SourceSpan {
  std::string file;
  uint64_t first_line = 0;
  uint64_t last_line = 0;
  /// What kind of output held it: empty for a server log (or a snapshot);
  /// "client" for a driver's error in application or test output.
  std::string kind;
};

/// Session fields a log format may carry (log_line_prefix escapes, csvlog and
/// jsonlog columns). Absent fields stay empty; emitters omit them.
struct SessionInfo {
  std::string user;
  std::string database;
  std::string application;
  std::string host;          // %h / %r / connection_from
  std::string session_id;    // %c
  std::string backend_type;  // %b
  std::string command_tag;   // %i ("UPDATE waiting")
  std::string vxid;          // %v
  std::optional<uint64_t> xid;          // %x
  std::optional<uint64_t> session_line; // %l / session_line_num
  std::optional<int64_t> query_id;      // %Q / query_id

  bool Empty() const;
};

/// A frame of PostgreSQL CONTEXT (or a SQL Server execution stack entry).
struct ContextFrame {
  enum class Kind { kRowWait, kFunction, kSqlStatement, kOther };
  Kind kind = Kind::kOther;
  std::string text;       // the whole line as logged
  std::string action;     // kRowWait: "updating", "locking", ... (the XLTW reason)
  std::string tuple;      // kRowWait: "(12,7)"
  std::string relation;   // kRowWait: unqualified relation name
  std::string function;   // kFunction: "transfer(integer,integer)"
  std::optional<int> line;  // kFunction: line number in the function
  std::string statement;  // kFunction: "SQL statement"; kSqlStatement: the SQL
};

/// One participant of a deadlock or wait.
struct Participant {
  std::string id;               // stable key: the pid as text for PostgreSQL
  std::optional<int64_t> pid;
  std::string query;            // as logged; may be clipped by the server
  bool query_clipped = false;   // heuristically at track_activity_query_size
  SessionInfo session;          // filled where the log says (the victim)
  // What a report says of each process besides (SQL Server); empty or
  // absent for PostgreSQL. docs/json-schema.md#sql-server-processes.
  std::optional<int64_t> spid;        // session id
  std::optional<int64_t> ecid;        // execution context: 0 main thread, >0 parallel worker
  std::string isolation_level;        // "read committed (2)"
  std::string wait_mode;              // the mode it waits for
  std::string wait_resource;          // what it waits for, as reported ("KEY: 5:72057594214350848 (1a39e6095155)")
  std::optional<int64_t> wait_ms;     // how long it had waited
  std::string transaction_name;       // "user_transaction", "SELECT", "implicit_transaction"
  std::optional<int64_t> log_used;    // log bytes written: the cost of rolling it back
  std::vector<ContextFrame> frames;   // execution stack, innermost first (kFunction)
  std::vector<LockField> attributes;  // every other attribute, in report order
};

/// What an edge rests on (house style: report only what the evidence proves).
enum class EdgeBasis {
  kReported,  // the engine's own detector stated it ("blocked by process Q")
  kHard,      // the blocker holds a conflicting granted lock
  kSoft,      // the blocker waits ahead in the queue for a conflicting mode
  kDerived,   // lockgraph inferred it from the conflict matrix
};

/// waiter waits for `mode` on `lock`, blocked by blocker.
struct WaitEdge {
  std::string waiter;   // Participant::id
  std::string blocker;  // Participant::id
  std::string mode;
  LockTarget lock;
  EdgeBasis basis = EdgeBasis::kReported;
  uint64_t line = 0;    // source line of the statement of this edge
  /// True when lockgraph inferred the edge from the conflict matrix (a plain
  /// pg_locks dump); `basis` then says hard (holder) or soft (queue order).
  bool derived = false;
  std::string blocker_mode;  // what the blocker holds (or converts to), when reported
  std::string request;       // SQL Server: "wait" (a new request) or "convert" (to a stronger mode)
};

/// One entry of a resource's owner or waiter list, as reported.
struct LockRequest {
  std::string process;  // Participant::id
  std::string mode;     // held or wanted; empty on non-lock resources (exchangeEvent)
  std::string request;  // "", "wait" or "convert"
};

/// A resource of a report with its owner and waiter lists (SQL Server).
struct LockResource {
  LockTarget lock;
  std::string mode;  // the granted mode the report gives the resource
  std::vector<LockRequest> owners, waiters;
};

struct Deadlock {
  std::string victim;                  // Participant::id of the aborted one
  /// Every victim the engine named (SQL Server: victim-list, possibly several
  /// or none); `victim` is the first. Empty for PostgreSQL.
  std::vector<std::string> victims;
  std::vector<Participant> processes;  // in cycle order, victim first
  std::vector<WaitEdge> edges;         // cycle order, edges[0].waiter == victim
  std::string message;                 // "deadlock detected"
  std::string sqlstate;                // "40P01"
  std::string hint;
  std::string statement;               // the victim's full STATEMENT
  std::vector<ContextFrame> context;   // innermost first, as logged
  /// The report's other waits, not on the cycle of `edges` (SQL Server: from
  /// the owner and waiter lists), in report order.
  std::vector<WaitEdge> other_edges;
  std::vector<LockResource> resources;  // as reported (SQL Server)
  /// Intra-query parallelism: workers of one query wait for each other
  /// (SQL Server exchangeEvent, one spid with several ecid).
  bool parallel = false;
  /// False when the report could not be read as a closed cycle (an edge
  /// missing, a cut file); `problems` says why. Never invented.
  bool complete = true;
  std::vector<std::string> problems;
  /// `watch`: the server already reported it at the first poll, so it
  /// happened before the watch began (MySQL's LATEST DETECTED DEADLOCK).
  bool before_watch = false;
};

enum class WaitOutcome {
  kAcquired,
  kDeadlock,   // this waiter was the victim, or logged "detected deadlock"
  kTimeout,    // lock_timeout / statement_timeout
  kCancelled,  // cancel request / terminated
  kFailed,     // "failed to acquire" / "could not obtain" (NOWAIT)
  kUnknown,    // the log ended, or the backend moved on without saying
};

/// One log_lock_waits report line, as written.
struct WaitReport {
  std::string kind;  // still_waiting, acquired, avoided_deadlock,
                     // detected_deadlock, failed, could_not_obtain
  std::string time;
  std::optional<double> after_ms;
  uint64_t line = 0;
};

/// A lock wait of one backend, paired from its reports.
struct LockWait {
  std::string waiter;                  // pid as text
  std::optional<int64_t> pid;
  std::string mode;
  LockTarget lock;
  WaitOutcome outcome = WaitOutcome::kUnknown;
  std::string start_time;              // first report time minus nothing: as logged
  std::string end_time;                // time of the report that ended it
  std::optional<double> waited_ms;     // longest "after N ms" seen
  std::vector<int64_t> holders;        // from the last DETAIL seen
  std::vector<int64_t> queue;
  std::vector<WaitReport> reports;
  /// Blocking chain when the wait was first reported: waiter, its holder,
  /// that holder's holder, ... ; the last element is the root blocker, or,
  /// when `chain_is_cycle`, a repeat of an earlier member (a wait cycle).
  std::vector<int64_t> chain;
  bool chain_is_cycle = false;
  std::string statement;
  std::vector<ContextFrame> context;
  SessionInfo session;
};

/// A lock one process holds, as a snapshot shows it.
struct HeldLock {
  std::string mode;
  LockTarget lock;
};

/// A server process in a lock snapshot (pg_locks joined with
/// pg_stat_activity). Ages are milliseconds before the snapshot was taken;
/// absent when the snapshot does not say (a plain pg_locks dump).
struct Backend {
  std::string id;                 // the pid as text
  std::optional<int64_t> pid;
  std::string state;              // "active", "idle in transaction", ...
  std::string backend_type;       // "client backend", "autovacuum worker", ...
  std::string wait_event;         // "Lock:transactionid", "Client:ClientRead"
  std::optional<uint64_t> xid;    // backend_xid
  std::optional<double> xact_age_ms;
  std::optional<double> state_age_ms;  // time in `state`
  std::string query;              // current query, or the last one when idle
  SessionInfo session;            // user, database, application, host
  std::string wait_mode;          // the lock it waits for; empty: not waiting
  LockTarget wait_lock;
  std::optional<double> wait_age_ms;
  std::vector<HeldLock> holds;    // its granted locks on contested targets
  std::optional<int64_t> rows_locked;  // MySQL: INNODB_TRX.trx_rows_locked
};

/// A blocking tree: a root blocker (waiting for no lock) and every process
/// that waits for it, directly or through others.
struct BlockingTree {
  struct Member {
    Backend backend;
    uint32_t depth = 0;  // 0: the root; 1: waits for the root; ...
  };
  std::vector<Member> members;  // root first, then by depth, then by pid
  std::vector<WaitEdge> edges;  // every wait of the members, in member order
};

/// Processes waiting for each other in a circle: a deadlock the server has
/// not broken (yet), or never will (deadlock_timeout high, advisory locks).
struct WaitCycle {
  std::vector<Backend> members;   // in cycle order, lowest pid first
  std::vector<WaitEdge> edges;    // edges[i].waiter == members[i].id
  std::vector<std::string> also_deadlocked;  // in the same knot, not on this cycle
  std::vector<std::string> waiting_behind;   // wait for a member, not in the knot
};

/// One snapshot of a server's locks: what was read and what came of it.
struct SnapshotInfo {
  std::string sampled_at;         // as the server wrote it
  std::string blocking;           // "pg_blocking_pids" or "conflict_matrix"
  uint64_t locks = 0;             // rows read
  uint64_t backends = 0;          // distinct processes in them
  uint64_t waiting = 0;           // processes waiting for a lock
  uint64_t chains = 0;            // blocking trees
  uint64_t cycles = 0;
  std::optional<double> poll_ms;  // watch: the query's round trip
};

/// `watch`: a process started or stopped waiting between two polls.
struct WaitChange {
  Backend waiter;
  std::vector<std::string> blocked_by;
  /// wait_ended: at most this long; wait_changed: at least this long so far.
  std::optional<double> waited_ms;
  /// wait_changed: what it waited for at the last poll (its blocker went
  /// away and it now waits for another lock, in the same statement).
  std::string previous_mode;
  LockTarget previous_lock;
};

/// Where the zone of an event's time came from (analysis/event_time.h).
enum class ZoneFrom {
  kNone,     // the time was not read
  kLog,      // written with the time: a number, UTC, an abbreviation
  kOption,   // --timezone
  kDefault,  // nothing said: read as UTC
};

/// A unique violation (SQLSTATE 23505, "duplicate key value violates unique
/// constraint"): read for the rules only (PG016 re-run-duplicate-key); the
/// analyzer never writes it as an event of the report.
struct UniqueViolation {
  std::string constraint;  // "invoices_customer_id_period_key"
  std::string key;         // "(customer_id, period)=(7, 2026-11)" from the DETAIL; "" without it
  std::string statement;   // the STATEMENT, as logged; "" without it
};

enum class EventType {
  kDeadlock, kLockWait, kSnapshot, kChain, kCycle,
  kWaitStarted, kWaitEnded, kWaitChanged, kChainEnded, kCycleEnded,
  kUniqueViolation  // rules only: docs/rules/PG016.md
};

/// One event. Exactly one of `deadlock`, `lock_wait`, `snapshot`, `chain`,
/// `cycle`, `wait_change`, `unique_violation` is set, per `type`.
struct Event {
  EventType type = EventType::kDeadlock;
  std::string engine = "postgresql";
  std::string time;          // as written by the server
  std::optional<int64_t> epoch_ms;  // parsed `time`, when the zone is known
  std::string time_iso;             // `time` in ISO 8601 with its offset, or empty
  ZoneFrom time_zone_from = ZoneFrom::kNone;
  SourceSpan source;
  std::string server;  // `watch`: the server polled (masked DSN); no source
  std::optional<int64_t> pid;  // the backend that logged it
  SessionInfo session;
  /// Set when the record was cut (end of file, rotation) and kept anyway.
  bool truncated = false;
  std::optional<Deadlock> deadlock;
  std::optional<LockWait> lock_wait;
  std::optional<SnapshotInfo> snapshot;  // kSnapshot
  std::optional<BlockingTree> chain;     // kChain
  std::optional<WaitCycle> cycle;        // kCycle
  std::optional<WaitChange> wait_change; // kWaitStarted, kWaitEnded, kWaitChanged
  std::optional<UniqueViolation> unique_violation;  // kUniqueViolation
  /// What the rules found about this event (rules/rule.h), in rule order.
  std::vector<Finding> findings;
  /// Deadlocks: the grouping key that ignores pids, xids, times and literal
  /// values (src/analysis/signature.h). Empty for other events.
  std::string signature;
};

const char* EventTypeName(EventType t);
const char* WaitOutcomeName(WaitOutcome o);
const char* EdgeBasisName(EdgeBasis b);
const char* ZoneFromName(ZoneFrom z);  // "log", "option", "default"

}  // namespace lockgraph
