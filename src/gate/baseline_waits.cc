// See baseline_waits.h.
#include "gate/baseline_waits.h"

#include "analysis/late_relation_names.h"
#include "analysis/signature.h"

namespace lockgraph {
namespace {

// Fields as one string, each after its length: any bytes are allowed.
std::string Joined(const std::vector<std::string_view>& fields) {
  std::string out;
  for (std::string_view f : fields) out.append(std::to_string(f.size())).append(":").append(f);
  return out;
}

}  // namespace

void BaselineWaits::Add(const Event& ev, const LogPlace& place, bool late_names) {
  if (!ev.lock_wait || ev.lock_wait->waited_ms.value_or(0) < min_wait_ms_) return;
  const LockTarget& lock = ev.lock_wait->lock;
  Wait w;
  w.place = place;
  std::string kind;  // the key, or what it rests on while the relation may be named later
  if (late_names && RelationNameIsLate(ev, lock)) {
    w.late = true;
    w.key = WaitKeyParts(ev);
    w.what = WaitDescriptionParts(ev);
    w.database = std::string(lock.Field("database"));
    w.relation = std::string(lock.Field("relation"));
    kind = Joined({std::to_string(place.input), w.database, w.relation, w.key.head, w.key.tail});
  } else {
    kind = WaitKey(ev);
    w.description = WaitDescription(ev);
  }
  auto [it, fresh] = waits_.try_emplace(kind, w);
  if (!fresh && place < it->second.place) it->second = std::move(w);
}

std::vector<Baseline::Entry> BaselineWaits::Entries(const Report& report) const {
  const LateRelationNames names(report);
  std::map<std::string, std::pair<LogPlace, std::string>> by_key;  // the first of each key
  for (const auto& [kind, w] : waits_) {
    std::string key = kind, what = w.description;
    if (w.late) {
      const std::string relation = names.Name(w.place.input, w.database, w.relation);
      key = Fnv1a64Hex(w.key.head + relation + w.key.tail);
      what = w.what.head + " of " + relation + w.what.tail;
    }
    auto [it, fresh] = by_key.try_emplace(key, w.place, what);
    if (!fresh && w.place < it->second.first) it->second = {w.place, std::move(what)};
  }
  std::vector<Baseline::Entry> out;
  for (auto& [key, first] : by_key) out.push_back({key, std::move(first.second)});
  return out;
}

}  // namespace lockgraph
