// See relation_names.h.
#include "parsers/postgresql/relation_names.h"

namespace lockgraph {
namespace {

std::string RelationKey(const LockTarget& t) {
  return std::string(t.Field("database")) + "/" + std::string(t.Field("relation"));
}

std::string TuplePosition(const LockTarget& t) {
  return "(" + std::string(t.Field("page")) + "," + std::string(t.Field("tuple")) + ")";
}

}  // namespace

void RelationNames::Bind(const std::string& key, const std::string& name) {
  if (ambiguous_.count(key)) return;
  auto [it, inserted] = by_relation_.emplace(key, name);
  if (!inserted && it->second != name) {
    by_relation_.erase(it);
    if (ambiguous_.size() < 100000) ambiguous_.insert(key);
  }
}

void RelationNames::Learn(const std::vector<const LockTarget*>& locks,
                          const std::vector<ContextFrame>& context) {
  for (const ContextFrame& f : context) {
    if (f.kind != ContextFrame::Kind::kRowWait) continue;
    // The relations of this record's tuple locks at the same position:
    // bind only when there is exactly one.
    std::string only;
    bool unique = true;
    for (const LockTarget* t : locks) {
      if (t->type != "tuple" || TuplePosition(*t) != f.tuple) continue;
      std::string key = RelationKey(*t);
      if (!only.empty() && only != key) unique = false;
      only = key;
    }
    if (!only.empty() && unique) Bind(only, f.relation);
  }
}

void RelationNames::Resolve(LockTarget* target) const {
  if (target->Field("relation").empty() || !target->relation_name.empty()) return;
  auto it = by_relation_.find(RelationKey(*target));
  if (it != by_relation_.end()) target->relation_name = it->second;
}

void RelationNames::ResolveEvent(Event* event) const {
  if (event->deadlock)
    for (WaitEdge& e : event->deadlock->edges) Resolve(&e.lock);
  if (event->lock_wait) Resolve(&event->lock_wait->lock);
}

}  // namespace lockgraph
