// See relation_names.h.
#include "parsers/postgresql/relation_names.h"

namespace lockgraph {
namespace {

std::string TuplePosition(const LockTarget& t) {
  return "(" + std::string(t.Field("page")) + "," + std::string(t.Field("tuple")) + ")";
}

}  // namespace

void RelationNames::Bind(const std::string& oid, const std::string& name) {
  by_oid_.emplace(oid, name);
}

void RelationNames::Learn(const std::vector<const LockTarget*>& locks,
                          const std::vector<ContextFrame>& context) {
  // Bounded memory: these maps only bridge neighbouring records.
  if (name_at_tuple_.size() > 4096) name_at_tuple_.clear();
  if (oid_at_tuple_.size() > 4096) oid_at_tuple_.clear();
  for (const ContextFrame& f : context) {
    if (f.kind != ContextFrame::Kind::kRowWait) continue;
    name_at_tuple_[f.tuple] = f.relation;
    auto oid = oid_at_tuple_.find(f.tuple);
    if (oid != oid_at_tuple_.end()) Bind(oid->second, f.relation);
  }
  for (const LockTarget* t : locks) {
    if (t->type != "tuple") continue;
    std::string pos = TuplePosition(*t);
    std::string oid(t->Field("relation"));
    oid_at_tuple_[pos] = oid;
    auto name = name_at_tuple_.find(pos);
    if (name != name_at_tuple_.end()) Bind(oid, name->second);
  }
}

void RelationNames::Resolve(LockTarget* target) const {
  std::string_view oid = target->Field("relation");
  if (oid.empty() || !target->relation_name.empty()) return;
  auto it = by_oid_.find(std::string(oid));
  if (it != by_oid_.end()) target->relation_name = it->second;
}

void RelationNames::ResolveEvent(Event* event) const {
  if (event->deadlock)
    for (WaitEdge& e : event->deadlock->edges) Resolve(&e.lock);
  if (event->lock_wait) Resolve(&event->lock_wait->lock);
}

}  // namespace lockgraph
