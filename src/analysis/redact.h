// --redact: literals in queries (strings, E'' strings, dollar-quoted
// bodies, numbers, and so the members of arrays, also inside comments)
// replaced by "?" in every output, for logs that carry customer data.
// Identifiers, keywords, $n parameters, comments' words and the layout of
// the text are kept, so a redacted report still names tables, columns and
// statement shapes. lockgraph's own text in findings (`ANY($1)`) stays.
// Findings are redacted too: they quote keys and statements of the event.
// docs/ci.md#redaction.
#pragma once

#include <string>
#include <string_view>

#include "model/event.h"

namespace lockgraph {

/// `sql` with every string and number literal replaced by "?" (the tokens of
/// src/analysis/sql_lexer.h), in comments too (`/* order 42 */` ->
/// `/* order ? */`); an unterminated literal (a clipped query) is replaced
/// up to the end.
std::string RedactSql(std::string_view sql);

/// A CONTEXT line: `SQL statement "..."` has its statement redacted, the
/// quoted data of `COPY t, line 1, column c: "..."` is replaced by "?";
/// other lines (function names, tuple positions) are kept.
std::string RedactContextLine(std::string_view line);

/// Redacts every query text of the event (processes, STATEMENT, CONTEXT,
/// lock-wait statement, snapshot backends) and then its findings: the
/// event's literal values are replaced where the findings quote them, and
/// the SQL part of "process N: ...", "statement: ..." and "CONTEXT: ..."
/// evidence lines is redacted as SQL. Call after the rules ran.
void RedactEvent(Event* event);

/// Run-level findings: the SQL part of their evidence lines.
void RedactRunFinding(Finding* finding);

}  // namespace lockgraph
