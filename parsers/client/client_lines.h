// Recognisers for the lines of application and test output that carry a
// PostgreSQL deadlock error as a driver printed it (JDBC, psycopg, asyncpg,
// node-postgres, pgx, lib/pq, Rails, Django, pytest). Pure functions, no
// state; each looks anywhere in the line, so that indentation and prefixes
// added by test runners and loggers do not matter.
// docs/postgresql.md#application-and-test-output.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockgraph::client {

/// True when the line holds the error "deadlock detected" as a driver or the
/// server names it: "ERROR: deadlock detected", "DeadlockDetected: deadlock
/// detected", "OperationalError: deadlock detected", "error: deadlock
/// detected", "pq: deadlock detected", "(...DeadlockDetected) deadlock
/// detected". A sentence that only mentions a deadlock is not one.
bool IsDeadlockErrorLine(std::string_view line);

/// True for an error line (IsDeadlockErrorLine) in a form only a driver
/// prints: a driver's class or prefix on it (PSQLException, psycopg,
/// asyncpg, PG::, pq:, "(SQLSTATE 40P01)", node's "error:"), or "ERROR:"
/// with one space (the server's own line has two: "ERROR:  deadlock ...").
bool IsDriverErrorLine(std::string_view line);

/// Every "Process P waits for M on T; blocked by process Q." in the line,
/// as written (from "Process" to the final '.'), in order. Several in one
/// line when a logger printed the DETAIL with "\n" escaped.
std::vector<std::string_view> FindEdgeTexts(std::string_view line);

/// A HINT or CONTEXT that a driver printed under the error, in any label
/// casing: "HINT:  x", "Hint: x", "hint: 'x'," (node), "Where: x" (JDBC),
/// "where: 'x'," (node), "CONTEXT:  x". Quotes and a trailing comma of a
/// printed object are removed; "undefined", "None" and "null" are no value.
struct LabelValue {
  enum class Label { kHint, kContext };
  Label label = Label::kHint;
  std::string value;
};
std::optional<LabelValue> FindLabel(std::string_view line);

/// pytest's "short test summary info" line of a failure: "FAILED
/// tests/x.py::test_y - message" (also "ERROR ..."): a repeat of a failure
/// shown in full above it, when tracebacks were printed.
bool IsPytestSummaryLine(std::string_view line);

/// pytest's "==== test session starts ====" line.
bool IsPytestSessionStart(std::string_view line);

/// True when the line names a PostgreSQL driver's error class or SQLSTATE
/// (PSQLException, psycopg, asyncpg, PG::, 40P01, ...): sniffing only.
bool HasDriverMarker(std::string_view line);

}  // namespace lockgraph::client
