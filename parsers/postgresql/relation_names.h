// Ties relation OIDs (lock tags carry only OIDs) to names (CONTEXT lines
// carry only names), from the evidence of one record at a time: a deadlock
// report whose CONTEXT says "while ... tuple (b,o) in relation NAME" and
// whose edges hold exactly one tuple lock at (b,o), on relation OID. Across
// records a position proves nothing (small hot tables all have rows at
// (0,N)), so neighbouring records are never joined. An OID seen with two
// names is left unnamed.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/event.h"

namespace lockgraph {

class RelationNames {
 public:
  /// Learns from one record's lock targets and context frames.
  void Learn(const std::vector<const LockTarget*>& locks,
             const std::vector<ContextFrame>& context);
  /// Sets relation_name on a target whose relation OID is known.
  void Resolve(LockTarget* target) const;
  /// Resolves every target of an event.
  void ResolveEvent(Event* event) const;
  size_t size() const { return by_relation_.size(); }

 private:
  void Bind(const std::string& key, const std::string& name);
  // "database/relation" -> name; keys seen with two names are ambiguous.
  std::unordered_map<std::string, std::string> by_relation_;
  std::unordered_set<std::string> ambiguous_;
};

}  // namespace lockgraph
