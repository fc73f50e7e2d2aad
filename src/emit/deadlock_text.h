// Text-report pieces for what a deadlock report says beyond PostgreSQL's
// fields (SQL Server): several victims, the blocker's mode on each edge,
// each process's session, wait and execution stack, the waits that are not
// on the cycle. Each writes nothing when the report did not carry it, so
// PostgreSQL's text is unchanged. All log text goes through PrintableText.
#pragma once

#include <ostream>
#include <string>

#include "model/event.h"

namespace lockgraph {

/// True when `id` is the victim or one of the victims.
bool IsVictim(const Deadlock& d, const std::string& id);

/// "spid 62 process27b9b0b9848", "spid 71 ecid 4 process3a..." (SQL Server).
std::string SpidName(const Participant& p);

/// "process1", "a, b and 7 more (9 victims)", or "none (unresolved)".
std::string VictimsText(const Deadlock& d);

/// What follows "blocked by B" on an edge line: " holding S", ", waiter
/// converting" (it asks for a stronger mode on a lock it holds).
std::string EdgeSuffix(const WaitEdge& e);

/// Lines under a process's query line, each starting with `indent`: spid
/// and ecid, isolation level, transaction, log used; the wait; login, host
/// and application; one line per frame of the execution stack.
void WriteProcessDetail(const Participant& p, const std::string& indent, std::ostream& out);

/// "  (client output: statements not logged)" after the source of a deadlock
/// read from application or test output (source kind "client"); "" otherwise.
std::string SourceKindNote(const SourceSpan& source);

/// "  intra-query parallelism ..." and "  other waits:" with one line per
/// edge not on the cycle.
void WriteDeadlockExtras(const Deadlock& d, std::ostream& out);

}  // namespace lockgraph
