// The problems the client format states on its deadlocks, written out
// whole, for the client tests to assert (parsers/client/client_event.cc).
#pragma once

namespace lockgraph::test {

inline const char* const kNoStatements =
    "client output: the statements are not in it (\"See server log for query details\")";
inline const char* const kVictimInferred =
    "victim inferred: the first waiter of the DETAIL, the backend that detected the deadlock "
    "(its error is the one the client printed)";
inline const char* const kNoDetail =
    "no DETAIL in the client output: the driver or the application printed only the message, "
    "so the cycle is unknown";
inline const char* const kNoErrorLine =
    "only the DETAIL's edges were found, not the driver's \"deadlock detected\" line";

}  // namespace lockgraph::test
