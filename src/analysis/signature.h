// The signature of a deadlock: a key that is equal for deadlocks of the same
// shape whatever their pids, xids, times, tuple positions and literal values,
// so that repeated deadlocks are counted as one problem. Algorithm and
// examples: docs/rules.md#signatures.
#pragma once

#include <string>
#include <vector>

#include "analysis/event_facts.h"

namespace lockgraph {

/// What one process contributes to a signature.
struct SignatureMember {
  std::string shape;      // StatementShape(): "fp:<fingerprint>" or "sql:<normalized>"
  std::string wait;       // "ShareLock transactionid", "RowExclusiveLock relation 16411"
  std::string statement;  // the normalized statement, for people
};

struct DeadlockSignature {
  std::string id;  // 16 hex digits: FNV-1a 64 of the members' shape and wait
  /// One per process, in the rotation of the cycle whose "shape | wait"
  /// texts sort first (a cycle has no first member); for a complete SQL
  /// Server cycle, then the report's processes off the cycle, sorted.
  std::vector<SignatureMember> members;
};

/// Signs a deadlock from its facts (ReadEventFacts). Incomplete reports are
/// signed too, from the edges and processes they have.
DeadlockSignature SignDeadlock(const Deadlock& deadlock, const DeadlockFacts& facts);

/// FNV-1a 64 of `text` as 16 lower-case hex digits.
std::string Fnv1a64Hex(std::string_view text);

}  // namespace lockgraph
