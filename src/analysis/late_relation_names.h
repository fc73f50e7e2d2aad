// The names Analyzer::Finish gives relation OIDs, for an emitter that
// rendered an event when it was made, before a later record of the same
// input named the relation (late_wait_key.h, dot_recipe.h).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

#include "analysis/report.h"
#include "model/event.h"

namespace lockgraph {

/// True when RelationMap::Resolve would name `target` of `event` from the
/// names of the whole input: a PostgreSQL lock on a relation given by OID
/// alone.
bool RelationNameIsLate(const Event& event, const LockTarget& target);

/// Calls `fn` on each target of `event` that RelationMap::Resolve names (the
/// deadlock cycle's edges, the lock wait's lock) while it is late.
void ForEachLateTarget(Event* event, const std::function<void(LockTarget&)>& fn);

/// True when `event` has such a target.
bool HasLateTarget(const Event& event);

/// Not thread-safe; copyable.
class LateRelationNames {
 public:
  /// From Report::summary.relation_names (only names that are not
  /// ambiguous: those RelationMap::Resolve uses).
  explicit LateRelationNames(const Report& report);
  /// The name of OID `relation` of `database` in input number `input`, else
  /// `relation` itself (as Label() shows an unnamed relation).
  std::string Name(size_t input, std::string_view database, std::string_view relation) const;
  /// Names the late targets of `event` of input number `input` that have a
  /// name, as RelationMap::Resolve does.
  void Resolve(Event* event, size_t input) const;

 private:
  std::map<std::tuple<size_t, std::string, std::string>, std::string> names_;
};

}  // namespace lockgraph
