// Wording shared by the PostgreSQL rules: how findings name processes,
// statements, edges and lines, and the sentences that correct the popular
// beliefs about deadlock fixes. Raw text: emitters make it safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/event_facts.h"
#include "model/event.h"

namespace lockgraph::pg_rules {

/// Whitespace collapsed to single spaces, cut after `max` bytes with "...".
std::string OneLine(std::string_view text, size_t max = 90);

/// "lines 14-21" (or "line 14"): the event's line span, for evidence about
/// the event itself (the event names its file).
std::string Lines(const Event& event);

/// "file:14-21": where an event is, for run-level findings.
std::string Where(const Event& event);
/// The same for a file and line span kept apart from their event.
std::string Where(const std::string& file, uint64_t first_line, uint64_t last_line);

/// "7282 waits for ShareLock on transaction 742, blocked by 7267".
std::string EdgeText(const WaitEdge& edge);

/// "2.5 s" (one decimal) for an age in milliseconds; "?" when unknown.
std::string Seconds(const std::optional<double>& ms);

/// One evidence line per edge ("edge 1: ...") after the event's line span.
std::vector<std::string> CycleEvidence(const Event& event);

/// "7282", "7282 and 7267", "7282, 7267 and 7300".
std::string JoinIds(const std::vector<std::string>& ids);

/// True when the log gives a participant's statement: not empty, and not
/// one of the server's placeholders ("<insufficient privilege>", "<backend
/// information not available>"), which no SQL statement starts with.
bool HasStatement(const Participant& p);

/// "process 7282: UPDATE accounts SET ... (victim)" for evidence.
std::string ProcessEvidence(const ProcessFacts& p, const Deadlock& d);

/// Appended to the hints of row-lock deadlocks.
inline constexpr std::string_view kNotIsolation =
    "Lowering the isolation level does not help: row locks are held until commit at every "
    "level. Nor does a longer lock_timeout or deadlock_timeout: it only delays the abort.";

/// The same, for cycles that involve table (relation) locks.
inline constexpr std::string_view kNotIsolationTables =
    "Lowering the isolation level does not help: table locks are held until commit at every "
    "level. Nor does a longer lock_timeout or deadlock_timeout: it only delays the abort.";

}  // namespace lockgraph::pg_rules
