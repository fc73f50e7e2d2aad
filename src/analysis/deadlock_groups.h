// Groups deadlocks as they stream by, in two levels: the cause (the rule
// that explains them and the set of statements involved, whatever the
// length or order of the cycle) and, inside it, the exact shape (the
// signature: statements, waits and their order around the cycle). Each has
// a count, first and last seen, and the rules that fired. Memory grows with
// the number of distinct signatures, not with the number of deadlocks.
// Algorithm: docs/rules.md#signatures.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/signature.h"
#include "model/event.h"

namespace lockgraph {

struct DeadlockGroup {
  std::string signature;
  std::string cause;                     // DeadlockCause::id of the group's cause
  uint64_t count = 0;
  std::string first_time, last_time;     // as logged
  SourceSpan first_source, last_source;  // the first one is the group's example
  std::vector<SignatureMember> members;  // of the first deadlock, canonical order
  std::vector<std::string> rules;        // ids of rules that fired on it, sorted
};

/// Deadlocks of one cause: the same explaining rule and the same set of
/// statement shapes. Its exact-shape groups are listed by signature.
struct DeadlockCause {
  std::string id;    // 16 hex digits: FNV-1a 64 of the rule and the sorted shapes
  std::string rule;  // the explaining rule (the first of the most severe that
                     // fired on its first deadlock); "" when none fired
  uint64_t count = 0;
  std::string first_time, last_time;     // as logged
  SourceSpan first_source, last_source;
  /// The distinct statements (normalized), in the order of their shapes.
  std::vector<std::string> statements;
  std::vector<std::string> signatures;   // its groups, largest first
  std::vector<std::string> rules;        // every rule that fired on its deadlocks, sorted
};

/// The cause id of a deadlock from its signature and the findings made on
/// it. Members without a statement count by what they wait for, so that
/// deadlocks whose queries are missing are not all one cause.
DeadlockCause CauseOf(const DeadlockSignature& signature, const std::vector<Finding>& findings);

/// Not thread-safe; copyable.
class DeadlockGrouper {
 public:
  /// Adds a deadlock event (its findings already made) with its signature.
  /// A signature's cause is the cause of its first deadlock.
  void Add(const Event& event, const DeadlockSignature& signature);
  /// The groups, largest first, ties in order of first appearance; run-level
  /// findings that name a group's signature add their rule to it.
  std::vector<DeadlockGroup> Groups(const std::vector<Finding>& run_findings) const;
  /// The causes of `groups` (Groups()' result), largest first, ties in order
  /// of first appearance.
  std::vector<DeadlockCause> Causes(const std::vector<DeadlockGroup>& groups) const;

 private:
  std::vector<DeadlockGroup> groups_;  // in order of first appearance
  std::unordered_map<std::string, size_t> index_;
  std::vector<uint64_t> last_seq_;  // per group: when its last deadlock came
  uint64_t seq_ = 0;
  std::vector<DeadlockCause> causes_;  // by first appearance; count and lists empty
  std::unordered_map<std::string, size_t> cause_index_;
};

}  // namespace lockgraph
