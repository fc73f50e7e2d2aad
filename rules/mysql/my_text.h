// What the InnoDB rules share: how findings name connections and locks of a
// MySQL / MariaDB deadlock, the evidence lines, and the mode tests
// (data_locks names: "X,GAP,INSERT_INTENTION"). Raw text: emitters make it
// safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/event.h"

namespace lockgraph::my_rules {

/// A deadlock event of engine "mysql" with a cycle.
bool IsMysqlCycle(const Event& event);

/// The first word of the mode: "X", "S", "IX", "AUTO_INC".
std::string_view BaseMode(std::string_view mode);
/// True when the mode has the flag: HasFlag("X,GAP", "GAP").
bool HasFlag(std::string_view mode, std::string_view flag);
/// A gap or next-key lock: what blocks inserts into the gap before a record.
bool LocksGap(std::string_view mode);

/// The participant with this id, or null.
const Participant* Find(const Deadlock& d, const std::string& id);
/// The first word of the statement, upper case: "INSERT", "UPDATE", "SELECT".
std::string Verb(const Participant& p);
/// "connection 7" (+ " (victim)").
std::string Who(const Deadlock& d, const std::string& id);

/// The report's lines, the cycle edge by edge, then one line per process:
/// "connection 7 (victim), trx 24, ACTIVE 1 sec starting index read: UPDATE ...".
std::vector<std::string> Evidence(const Event& event);

/// Appended to hints: retry 1213.
inline constexpr std::string_view kRetry =
    "Whatever the fix, retry the transaction on error 1213 (SQLSTATE 40001) a few times with "
    "backoff: InnoDB rolled the victim back whole.";

}  // namespace lockgraph::my_rules
