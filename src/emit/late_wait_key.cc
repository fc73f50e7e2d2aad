// See late_wait_key.h.
#include "emit/late_wait_key.h"

#include "analysis/signature.h"
#include "emit/hole_text.h"
#include "gate/baseline.h"

namespace lockgraph {

std::string LateWaitKeyArg(const Event& event, uint32_t input) {
  // Only these get a name at Finish.
  const LockTarget& lock = event.lock_wait->lock;
  if (!RelationNameIsLate(event, lock)) return {};
  std::string_view relation = lock.Field("relation");
  WaitKeyText text = WaitKeyParts(event);
  const std::string number = std::to_string(input);
  return PackFields({number, lock.Field("database"), relation, text.head, text.tail});
}

LateWaitKeys::LateWaitKeys(const Report& report) : names_(report) {}

std::string LateWaitKeys::WaitKey(std::string_view arg) const {
  std::vector<std::string_view> f = UnpackFields(arg);
  if (f.size() != 5) return {};
  const std::string relation = names_.Name(size_t(std::stoull(std::string(f[0]))), f[1], f[2]);
  return Fnv1a64Hex(std::string(f[3]) + relation + std::string(f[4]));
}

}  // namespace lockgraph
