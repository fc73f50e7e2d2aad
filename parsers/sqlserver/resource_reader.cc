// See resource_reader.h.
#include "parsers/sqlserver/resource_reader.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "parsers/sqlserver/lock_modes.h"

namespace lockgraph {
namespace {

// Small ids are JSON numbers; hobt and allocation unit ids (up to 2^63) stay
// strings so that no reader loses digits.
bool NumericField(std::string_view name) {
  constexpr std::array<std::string_view, 8> kNumeric = {
      "dbid", "fileid", "pageid", "objid", "lockPartition", "databasePrincipalId", "nodeId", "slot"};
  return std::find(kNumeric.begin(), kNumeric.end(), name) != kNumeric.end();
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void AddFields(const pugi::xml_node& node, LockTarget* lock, std::string* mode) {
  for (const pugi::xml_attribute& a : node.attributes()) {
    std::string_view name = a.name(), value = a.value();
    if (name == "mode") {
      if (mode && mode->empty()) *mode = std::string(value);
      continue;
    }
    if (!lock->Field(name).empty()) continue;
    lock->fields.push_back({std::string(name), std::string(value), NumericField(name) && AllDigits(value)});
  }
}

std::vector<LockRequest> ReadList(const pugi::xml_node& list, const char* item) {
  std::vector<LockRequest> out;
  for (const pugi::xml_node& n : list.children(item))
    out.push_back({n.attribute("id").value(), n.attribute("mode").value(),
                   n.attribute("requestType").value()});
  return out;
}

// The basis of `waiter` waiting for `other`, or nothing when they are
// compatible. `granted`: other holds its mode; else it waits ahead.
std::optional<EdgeBasis> Basis(const LockRequest& waiter, const LockRequest& other, bool granted) {
  if (waiter.mode.empty() && other.mode.empty()) return EdgeBasis::kReported;
  switch (SqlServerModeConflict(waiter.mode, other.mode)) {
    case ModeConflict::kCompatible: return std::nullopt;
    case ModeConflict::kConflict: return granted ? EdgeBasis::kHard : EdgeBasis::kSoft;
    case ModeConflict::kIllegal:
    case ModeConflict::kUnknown: break;
  }
  return EdgeBasis::kDerived;
}

}  // namespace

LockResource ReadSqlServerResource(const pugi::xml_node& resource) {
  LockResource r;
  r.lock.type = resource.name();
  AddFields(resource, &r.lock, &r.mode);
  if (pugi::xml_node under = resource.child("UnderlyingResource").first_child()) {
    r.lock.fields.push_back({"underlying", under.name(), false});
    AddFields(under, &r.lock, nullptr);
  }
  r.owners = ReadList(resource.child("owner-list"), "owner");
  r.waiters = ReadList(resource.child("waiter-list"), "waiter");
  return r;
}

namespace {

// The waits of `w` (a waiter, or an owner converting), edges added once per
// blocker: granted owners whose mode conflicts (hard), owners converting to
// a conflicting mode (soft), then the conflicting requests ahead of it
// (`ahead`, in queue order; a conversion is served before new requests).
void AddWaitsOf(const LockResource& r, const LockRequest& w, const std::vector<LockRequest>& ahead,
                uint64_t line, std::vector<WaitEdge>* out) {
  std::vector<std::string> blockers;
  auto add = [&](const LockRequest& other, EdgeBasis basis) {
    if (std::find(blockers.begin(), blockers.end(), other.process) != blockers.end()) return;
    blockers.push_back(other.process);
    WaitEdge e;
    e.waiter = w.process;
    e.blocker = other.process;
    e.mode = w.mode;
    e.lock = r.lock;
    e.basis = basis;
    e.line = line;
    e.blocker_mode = other.mode;
    e.request = w.request;
    out->push_back(std::move(e));
  };
  // Granted owners first: a conversion entry of the same owner then adds nothing.
  for (bool converting : {false, true})
    for (const LockRequest& o : r.owners) {
      if (o.process == w.process || (o.request == "convert") != converting) continue;
      if (auto basis = Basis(w, o, !converting)) add(o, *basis);
    }
  for (const LockRequest& a : ahead) {
    if (a.process == w.process || (w.request == "convert" && a.request != "convert")) continue;
    if (SqlServerModeConflict(w.mode, a.mode) == ModeConflict::kConflict) add(a, EdgeBasis::kSoft);
  }
}

}  // namespace

void AddResourceWaits(const LockResource& r, uint64_t line, std::vector<WaitEdge>* out) {
  std::vector<LockRequest> ahead;
  for (const LockRequest& w : r.waiters) {
    AddWaitsOf(r, w, ahead, line, out);
    ahead.push_back(w);
  }
  // An owner converting to another mode waits too, even where no waiter
  // entry says so (a report lists the lock once per waiter, and the other
  // converting owners only in its owner list). Its waits are against the
  // granted modes of the others, as for a waiter.
  for (const LockRequest& o : r.owners) {
    if (o.request != "convert") continue;
    bool listed = std::any_of(r.waiters.begin(), r.waiters.end(),
                              [&](const LockRequest& w) { return w.process == o.process; });
    if (!listed) AddWaitsOf(r, o, {}, line, out);
  }
}

}  // namespace lockgraph
