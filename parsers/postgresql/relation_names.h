// Ties relation OIDs (lock tags carry only OIDs) to names (CONTEXT lines
// carry only names): a tuple lock on "(b,o) of relation OID" and a row wait
// "while ... tuple (b,o) in relation NAME" of the same record, or of
// neighbouring records, name the same relation. First binding wins.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "model/event.h"

namespace lockgraph {

class RelationNames {
 public:
  /// Learns from one event's lock targets and context frames.
  void Learn(const std::vector<const LockTarget*>& locks,
             const std::vector<ContextFrame>& context);
  /// Sets relation_name on a target whose relation OID is known.
  void Resolve(LockTarget* target) const;
  /// Resolves every target of an event.
  void ResolveEvent(Event* event) const;
  size_t size() const { return by_oid_.size(); }

 private:
  void Bind(const std::string& oid, const std::string& name);
  std::unordered_map<std::string, std::string> by_oid_;
  // Recent (tuple position -> name) and (tuple position -> oid) sightings.
  std::unordered_map<std::string, std::string> name_at_tuple_;
  std::unordered_map<std::string, std::string> oid_at_tuple_;
};

}  // namespace lockgraph
