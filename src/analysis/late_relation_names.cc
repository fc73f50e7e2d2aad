// See late_relation_names.h.
#include "analysis/late_relation_names.h"

namespace lockgraph {

bool RelationNameIsLate(const Event& event, const LockTarget& target) {
  // The same test as RelationMap::Resolve.
  return event.engine == "postgresql" && !target.Field("relation").empty() &&
         target.relation_name.empty();
}

void ForEachLateTarget(Event* event, const std::function<void(LockTarget&)>& fn) {
  auto visit = [&](LockTarget& target) {
    if (RelationNameIsLate(*event, target)) fn(target);
  };
  if (event->deadlock)
    for (WaitEdge& e : event->deadlock->edges) visit(e.lock);
  if (event->lock_wait) visit(event->lock_wait->lock);
}

bool HasLateTarget(const Event& event) {
  bool late = event.lock_wait && RelationNameIsLate(event, event.lock_wait->lock);
  if (event.deadlock)
    for (const WaitEdge& e : event.deadlock->edges) late = late || RelationNameIsLate(event, e.lock);
  return late;
}

LateRelationNames::LateRelationNames(const Report& report) {
  for (const RelationName& r : report.summary.relation_names)
    names_.emplace(std::tuple(r.input, r.database, r.relation), r.name);
}

std::string LateRelationNames::Name(size_t input, std::string_view database,
                                    std::string_view relation) const {
  auto it = names_.find(std::tuple(input, std::string(database), std::string(relation)));
  return it == names_.end() ? std::string(relation) : it->second;
}

void LateRelationNames::Resolve(Event* event, size_t input) const {
  ForEachLateTarget(event, [&](LockTarget& target) {
    const std::string_view relation = target.Field("relation");
    std::string name = Name(input, target.Field("database"), relation);
    if (name != relation) target.relation_name = std::move(name);
  });
}

}  // namespace lockgraph
