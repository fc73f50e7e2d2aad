// The engine-neutral event model: what every parser produces and every graph
// builder, rule and emitter consumes. One model for PostgreSQL, SQL Server and
// pg_locks snapshots; see docs/json-schema.md for the JSON form of each field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/lock_target.h"

namespace lockgraph {

/// Where an event came from: file name ("-" for stdin) and 1-based line span.
struct SourceSpan {
  std::string file;
  uint64_t first_line = 0;
  uint64_t last_line = 0;
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

enum class EventType { kDeadlock, kLockWait };

/// One event. Exactly one of `deadlock` / `lock_wait` is set, per `type`.
struct Event {
  EventType type = EventType::kDeadlock;
  std::string engine = "postgresql";
  std::string time;          // as written by the server
  std::optional<int64_t> epoch_ms;  // parsed `time`, when the zone is known
  SourceSpan source;
  std::optional<int64_t> pid;  // the backend that logged it
  SessionInfo session;
  /// Set when the record was cut (end of file, rotation) and kept anyway.
  bool truncated = false;
  std::optional<Deadlock> deadlock;
  std::optional<LockWait> lock_wait;
};

const char* EventTypeName(EventType t);
const char* WaitOutcomeName(WaitOutcome o);
const char* EdgeBasisName(EdgeBasis b);

}  // namespace lockgraph
