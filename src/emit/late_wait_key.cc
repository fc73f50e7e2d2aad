// See late_wait_key.h.
#include "emit/late_wait_key.h"

#include "analysis/signature.h"
#include "emit/hole_text.h"
#include "gate/baseline.h"

namespace lockgraph {

std::string LateWaitKeyArg(const Event& event, uint32_t input) {
  // The same test as RelationMap::Resolve: only these get a name at Finish.
  const LockTarget& lock = event.lock_wait->lock;
  std::string_view relation = lock.Field("relation");
  if (event.engine != "postgresql" || relation.empty() || !lock.relation_name.empty()) return {};
  WaitKeyText text = WaitKeyParts(event);
  const std::string number = std::to_string(input);
  return PackFields({number, lock.Field("database"), relation, text.head, text.tail});
}

LateWaitKeys::LateWaitKeys(const Report& report) {
  // Entries() lists only names that are not ambiguous: those Resolve uses.
  for (const RelationName& r : report.summary.relation_names)
    names_.emplace(std::tuple(r.input, r.database, r.relation), r.name);
}

std::string LateWaitKeys::WaitKey(std::string_view arg) const {
  std::vector<std::string_view> f = UnpackFields(arg);
  if (f.size() != 5) return {};
  auto it = names_.find(std::tuple(size_t(std::stoull(std::string(f[0]))), std::string(f[1]),
                                   std::string(f[2])));
  const std::string relation = it == names_.end() ? std::string(f[2]) : it->second;
  return Fnv1a64Hex(std::string(f[3]) + relation + std::string(f[4]));
}

}  // namespace lockgraph
