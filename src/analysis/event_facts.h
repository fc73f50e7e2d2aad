// What the rules read from one event, computed once per event: for a
// deadlock, each participant's statement facts, the row it waits for, the
// row it must already hold, and the victim's CONTEXT frames; for a lock wait,
// the waiter's statement. Algorithm: docs/rules.md#what-a-deadlock-report-proves.
// SQL Server reports (Event::engine "sqlserver") are read from their
// execution stacks instead: docs/sqlserver.md#what-the-rules-read.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/statement.h"
#include "model/event.h"

namespace lockgraph {

/// One participant of a deadlock, in cycle order (victim first).
struct ProcessFacts {
  const Participant* participant = nullptr;
  const WaitEdge* wait = nullptr;  // its own edge: what it waits for, and who blocks it
  std::string query;               // the text read: the query, or the victim's
                                   // full STATEMENT when the query is clipped
  bool clipped = false;            // the query as logged is clipped
  /// Facts of the statement that waits: `query`, or for the victim the
  /// innermost CONTEXT "SQL statement" (inside a function or a foreign-key
  /// check) when there is one.
  StatementFacts statement;
  std::string shape;               // StatementShape(): fingerprint or normalized text
  /// The table whose row or relation it waits for: the target of its UPDATE,
  /// DELETE or SELECT ... FOR (or of any statement waiting on a relation
  /// lock), else the lock's relation tied to a name, else the victim's CONTEXT
  /// row relation; "" when unknown (an INSERT's row wait: a foreign key or a
  /// unique index of another table; a function call).
  std::string wait_table;
  std::optional<KeyLiteral> wants;  // the first WHERE key of its statement
  /// The row it holds, derived: when the process it blocks waits for a
  /// transaction lock on a row of the same table, it holds that row.
  std::optional<KeyLiteral> holds;
  /// SQL Server: the innermost execution-stack frame whose statement the
  /// report gives (not "unknown"), or null. `query` and `statement` are
  /// then that frame's statement: the one that waits, where the input
  /// buffer only shows the batch (`EXEC p1 4`).
  const ContextFrame* frame = nullptr;
};

struct DeadlockFacts {
  std::string engine;  // Event::engine: "postgresql", "sqlserver"
  std::vector<ProcessFacts> processes;
  /// Every edge waits for a row: a transaction lock or a tuple lock.
  bool row_cycle = false;
  /// The victim's CONTEXT frames by kind (innermost first), or null.
  const ContextFrame* row_wait = nullptr;
  const ContextFrame* function = nullptr;
  const ContextFrame* sql_statement = nullptr;

  const ProcessFacts* Find(const std::string& id) const;
};

struct EventFacts {
  std::optional<DeadlockFacts> deadlock;  // set for deadlock events
  std::optional<StatementFacts> wait;     // a lock wait's STATEMENT
};

/// Reads an event. The result points into `event`: keep the event alive and
/// unmoved while using it.
EventFacts ReadEventFacts(const Event& event);

/// "relation 16411" or the resolved name, for lock targets on a relation;
/// "" for other lock types.
std::string LockRelation(const LockTarget& lock);

}  // namespace lockgraph
