// See late_relation_names.h.
#include "analysis/late_relation_names.h"

namespace lockgraph {

bool RelationNameIsLate(const Event& event, const LockTarget& target) {
  // The same test as RelationMap::Resolve.
  return event.engine == "postgresql" && !target.Field("relation").empty() &&
         target.relation_name.empty();
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

}  // namespace lockgraph
