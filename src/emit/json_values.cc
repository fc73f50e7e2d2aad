// See json_values.h.
#include "emit/json_values.h"

#include "emit/json_tree.h"

namespace lockgraph {

using json = nlohmann::ordered_json;

json IdToJson(const std::string& id) {
  JsonTree t;
  IdValue(id, t);
  return t.Take();
}

bool PlainLockKeys(const LockTarget& lock) {
  for (size_t i = 0; i < lock.fields.size(); ++i) {
    const std::string& name = lock.fields[i].name;
    if (name == "type" || name == "relation_name" || name == "text") return false;
    for (size_t k = 0; k < i; ++k)
      if (lock.fields[k].name == name) return false;
  }
  return true;
}

json LockToJson(const LockTarget& lock) {
  JsonTree t;  // a key given twice keeps its first place and its last value
  LockFields(lock, t);
  return t.Take();
}

json SessionToJson(const SessionInfo& s) {
  JsonTree t;
  SessionValue(s, t);
  return t.Take();
}

}  // namespace lockgraph
