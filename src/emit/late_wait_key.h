// A lock wait's WaitKey (gate/baseline.h) for an emitter that renders the
// wait when it is made: Analyzer::Finish names relation OIDs from names
// learned anywhere in the input, so a key that rests on an unnamed OID is
// finished at Write, from the run's relation names (hole_text.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/report.h"
#include "analysis/late_relation_names.h"

namespace lockgraph {

/// The hole argument for WaitKey(event) of input number `input` when the
/// key may still change (a PostgreSQL wait on a relation given by OID
/// alone, as RelationMap::Resolve would name it); empty when WaitKey(event)
/// is final. `event` must have a lock_wait.
std::string LateWaitKeyArg(const Event& event, uint32_t input);

/// Finishes late wait keys from Report::summary.relation_names, as
/// Analyzer::Finish names the events it keeps. Not thread-safe.
class LateWaitKeys {
 public:
  explicit LateWaitKeys(const Report& report);
  /// WaitKey of the event LateWaitKeyArg() was given.
  std::string WaitKey(std::string_view arg) const;

 private:
  LateRelationNames names_;
};

}  // namespace lockgraph
