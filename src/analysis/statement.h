// What lockgraph reads from one SQL statement as a PostgreSQL log shows it:
// its verb, target table, row-lock clause, the "column = literal" keys of its
// WHERE clause and the functions it calls; its normalized text; its shape (a
// libpg_query fingerprint, or the normalized text where it does not parse).
// Heuristic by design: statements can be clipped. See docs/rules.md#statements.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/sql_lexer.h"

namespace lockgraph {

/// One "column = literal" comparison (or one member of "column IN (...)").
struct KeyLiteral {
  std::string column;  // unqualified, lower case unless quoted ("id")
  std::string value;   // the literal as written, quotes removed ("10", "$2")
  SqlToken::Kind kind = SqlToken::Kind::kNumber;  // kNumber, kString or kParam

  /// "id = 10", "code = 'x'", "id = $2".
  std::string Text() const;
};

struct StatementFacts {
  std::string verb;      // first word: "update", "select", "insert", "lock", ...
  std::string table;     // target table, unqualified; "" when none or unknown
  std::string row_lock;  // "for update", "for no key update", "for share",
                         // "for key share" (SELECT ... FOR ...); else ""
  std::string lock_mode; // LOCK TABLE: "share", "access exclusive", ...
  bool ddl = false;      // ALTER, DROP, TRUNCATE, CREATE INDEX, REINDEX,
                         // CLUSTER, VACUUM FULL, LOCK ... ACCESS EXCLUSIVE
  std::vector<KeyLiteral> keys;    // WHERE keys, in order
  std::vector<std::string> calls;  // called functions, lower case, unqualified
  std::string normalized;          // NormalizeSql()
};

/// Reads `sql`; never fails (unknown parts stay empty).
StatementFacts ReadStatement(std::string_view sql);

/// ReadStatement's verb, table, row_lock, lock_mode and ddl alone (no keys,
/// calls or normalized text): for a rule that needs only the table.
StatementFacts ReadStatementTarget(std::string_view sql);

/// The token normalizer: tokens joined by single spaces, words in lower
/// case, every literal and $n parameter as "?", a comma-separated run of
/// literals as one "?", comments and final semicolons dropped; at most
/// `max_tokens` tokens.
std::string NormalizeSql(std::string_view sql, size_t max_tokens = 4096);

/// NormalizeSql()'s tokens, spaced as people write SQL: "dbo.t", "@p1",
/// "any(array[?])", "(a, b)", "x::int". For display only: grouping and
/// signatures keep NormalizeSql(), whose text never changes.
std::string ReadableSql(std::string_view sql, size_t max_tokens = 4096);

/// libpg_query's fingerprint (16 hex digits) of `sql`, or "" when the text
/// does not parse (clipped, not SQL, a placeholder such as
/// "<insufficient privilege>").
std::string QueryFingerprint(std::string_view sql);

/// The statement's identity for grouping: "fp:<fingerprint>" when it
/// parses, else "sql:<normalized text>"; a clipped statement keeps only its
/// first 48 tokens, because where the cut falls depends on literal lengths.
std::string StatementShape(std::string_view sql, bool clipped);

}  // namespace lockgraph
