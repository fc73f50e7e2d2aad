// See json_tree.h.
#include "emit/json_tree.h"

namespace lockgraph {

nlohmann::ordered_json& JsonTree::Put(nlohmann::ordered_json v) {
  if (open_.empty()) return root_ = std::move(v);
  nlohmann::ordered_json& parent = *open_.back();
  if (parent.is_array()) {
    parent.push_back(std::move(v));
    return parent.back();
  }
  return parent[key_] = std::move(v);
}

}  // namespace lockgraph
