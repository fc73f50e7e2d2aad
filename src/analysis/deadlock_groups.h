// Groups deadlocks by signature as they stream by: count, first and last
// seen, the shape, and the rules that fired. Memory grows with the number of
// distinct signatures, not with the number of deadlocks.
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
  uint64_t count = 0;
  std::string first_time, last_time;     // as logged
  SourceSpan first_source, last_source;  // the first one is the group's example
  std::vector<SignatureMember> members;  // of the first deadlock, canonical order
  std::vector<std::string> rules;        // ids of rules that fired on it, sorted
};

/// Not thread-safe; copyable.
class DeadlockGrouper {
 public:
  /// Adds a deadlock event (its findings already made) with its signature.
  void Add(const Event& event, const DeadlockSignature& signature);
  /// The groups, largest first, ties in order of first appearance; run-level
  /// findings that name a group's signature add their rule to it.
  std::vector<DeadlockGroup> Groups(const std::vector<Finding>& run_findings) const;

 private:
  std::vector<DeadlockGroup> groups_;  // in order of first appearance
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace lockgraph
