// Wording shared by the SQL Server rules: how findings name processes,
// objects, indexes, frames and edges of a deadlock report, and the sentences
// that correct popular beliefs (NOLOCK, longer timeouts). Raw text: emitters
// make it safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/event_facts.h"
#include "model/event.h"

namespace lockgraph::ms_rules {

/// "AdventureWorks2022.dbo.t1" -> "t1"; "" stays "".
std::string ShortName(std::string_view objectname);

/// "AdventureWorks2022.dbo.t1" -> "AdventureWorks2022"; "" when the name
/// has fewer than three parts.
std::string DatabaseOf(std::string_view objectname);

/// "process27b9b0b9848 (spid 62)", or the id alone when the spid is unknown.
std::string Who(const Participant& p);

/// Where a process's statement runs: "AdventureWorks2022.dbo.p1 line 3",
/// "adhoc line 5", or "input buffer" when no frame has text.
std::string WhereRuns(const ProcessFacts& p);

/// "A waits for S on keylock on db.dbo.t1 index cidx (KEY: ...), blocked by
/// B holding X" (+ ", converting" for a convert request).
std::string EdgeText(const WaitEdge& edge);

/// The event's line span, then one line per cycle edge.
std::vector<std::string> CycleEvidence(const Event& event);

/// "process X (victim) at p1 line 3: SELECT ..." for evidence.
std::string ProcessEvidence(const ProcessFacts& p, const Deadlock& d);

/// CycleEvidence, then ProcessEvidence of every process that waits.
std::vector<std::string> CycleAndWaitersEvidence(const Event& event,
                                                 const std::vector<ProcessFacts>& processes);

/// True when `mode` only reads: S, IS, RangeS-S, Sch-S.
bool SharedMode(std::string_view mode);

/// True for every other mode but NL: those that write or prepare to (X, U,
/// IX, SIX, IU, SIU, UIX, RangeS-U, RangeI-N, RangeX-X, Sch-M, ...).
bool WriteMode(std::string_view mode);

/// The isolation level's name without its number: "read committed".
std::string IsolationName(const Participant& p);

/// Appended to hints: what does not help with lock deadlocks on SQL Server.
inline constexpr std::string_view kNotTimeouts =
    "A longer LOCK_TIMEOUT or command timeout does not help: the deadlock monitor ends the cycle "
    "within seconds whatever the timeout; retry error 1205 a few times with backoff instead.";

/// Why NOLOCK is not the fix for reader-writer deadlocks.
inline constexpr std::string_view kNotNolock =
    "WITH (NOLOCK) / READ UNCOMMITTED is not the fix: it reads uncommitted rows, and skips or "
    "reads rows twice while pages split.";

}  // namespace lockgraph::ms_rules
