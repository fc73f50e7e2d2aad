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

void AddResourceWaits(const LockResource& r, uint64_t line, std::vector<WaitEdge>* out) {
  for (size_t wi = 0; wi < r.waiters.size(); ++wi) {
    const LockRequest& w = r.waiters[wi];
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
    // Waiters ahead in the queue (conversions are served before new requests).
    for (size_t k = 0; k < wi; ++k) {
      const LockRequest& ahead = r.waiters[k];
      if (ahead.process == w.process || (w.request == "convert" && ahead.request != "convert")) continue;
      if (SqlServerModeConflict(w.mode, ahead.mode) == ModeConflict::kConflict) add(ahead, EdgeBasis::kSoft);
    }
  }
}

}  // namespace lockgraph
