// See relation_map.h.
#include "analysis/relation_map.h"

#include <algorithm>

#include "text/number.h"

namespace lockgraph {

void RelationMap::Learn(const LockTarget& target, size_t input, const std::string& file) {
  std::string_view rel = target.Field("relation");
  if (rel.empty() || target.relation_name.empty()) return;
  Key key{input, std::string(target.Field("database")), std::string(rel)};
  auto [it, added] = names_.try_emplace(key, Entry{file, target.relation_name});
  if (!added && it->second.name != target.relation_name) it->second.ambiguous = true;
}

void RelationMap::Learn(const Event& event, size_t input, const std::string& file) {
  if (event.engine != "postgresql") return;  // OIDs are PostgreSQL's
  if (event.deadlock)
    for (const WaitEdge& e : event.deadlock->edges) Learn(e.lock, input, file);
  if (event.lock_wait) Learn(event.lock_wait->lock, input, file);
}

void RelationMap::Resolve(LockTarget* target, size_t input) const {
  std::string_view rel = target->Field("relation");
  if (rel.empty() || !target->relation_name.empty()) return;
  auto it = names_.find(Key{input, std::string(target->Field("database")), std::string(rel)});
  if (it != names_.end() && !it->second.ambiguous) target->relation_name = it->second.name;
}

void RelationMap::Resolve(Event* event, size_t input) const {
  if (names_.empty() || event->engine != "postgresql") return;
  if (event->deadlock)
    for (WaitEdge& e : event->deadlock->edges) Resolve(&e.lock, input);
  if (event->lock_wait) Resolve(&event->lock_wait->lock, input);
}

std::vector<RelationName> RelationMap::Entries() const {
  std::vector<std::pair<std::tuple<size_t, uint64_t, uint64_t>, RelationName>> rows;
  for (const auto& [key, entry] : names_) {
    if (entry.ambiguous) continue;
    const auto& [input, database, relation] = key;
    auto num = [](const std::string& s) { return ParseNumber<uint64_t>(s).value_or(0); };
    rows.push_back({{input, num(database), num(relation)}, {entry.file, database, relation, entry.name, input}});
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<RelationName> out;
  for (auto& r : rows) out.push_back(std::move(r.second));
  return out;
}

}  // namespace lockgraph
