// The JSON of the events a lock snapshot yields (snapshot, chain, cycle) and
// of `watch`'s wait_started / wait_ended; see docs/json-schema.md#snapshots.
#include "emit/event_json.h"

namespace lockgraph {
namespace {

using json = nlohmann::ordered_json;

json EdgeToJson(const WaitEdge& e) {
  json j = {{"waiter", IdToJson(e.waiter)}, {"blocker", IdToJson(e.blocker)}, {"mode", e.mode},
            {"lock", LockToJson(e.lock)}, {"basis", EdgeBasisName(e.basis)}};
  if (e.derived) j["derived"] = true;
  return j;
}

json EdgesToJson(const std::vector<WaitEdge>& edges) {
  json arr = json::array();
  for (const WaitEdge& e : edges) arr.push_back(EdgeToJson(e));
  return arr;
}

json IdsToJson(const std::vector<std::string>& ids) {
  json arr = json::array();
  for (const std::string& id : ids) arr.push_back(IdToJson(id));
  return arr;
}

// Milliseconds with microsecond precision, so that outputs stay stable.
double Ms(double ms) { return double(int64_t(ms * 1000 + (ms < 0 ? -0.5 : 0.5))) / 1000; }

json BackendToJson(const Backend& b, std::optional<uint32_t> depth) {
  json j = {{"id", IdToJson(b.id)}};
  if (b.pid) j["pid"] = *b.pid;
  if (depth) j["depth"] = *depth;
  if (!b.state.empty()) j["state"] = b.state;
  if (!b.backend_type.empty()) j["backend_type"] = b.backend_type;
  if (!b.wait_event.empty()) j["wait_event"] = b.wait_event;
  if (b.xid) j["xid"] = *b.xid;
  if (b.xact_age_ms) j["xact_age_ms"] = Ms(*b.xact_age_ms);
  if (b.state_age_ms) j["state_age_ms"] = Ms(*b.state_age_ms);
  if (b.rows_locked) j["rows_locked"] = *b.rows_locked;
  if (!b.wait_mode.empty()) {
    json w = {{"mode", b.wait_mode}, {"lock", LockToJson(b.wait_lock)}};
    if (b.wait_age_ms) w["age_ms"] = Ms(*b.wait_age_ms);
    j["waiting_for"] = std::move(w);
  }
  if (!b.holds.empty()) {
    json holds = json::array();
    for (const HeldLock& h : b.holds) holds.push_back({{"mode", h.mode}, {"lock", LockToJson(h.lock)}});
    j["holds"] = std::move(holds);
  }
  if (!b.query.empty()) j["query"] = b.query;
  json s = SessionToJson(b.session);
  if (!s.empty()) j["session"] = std::move(s);
  return j;
}

void SnapshotFields(const SnapshotInfo& s, json& j) {
  j["blocking"] = s.blocking;
  j["locks"] = s.locks;
  j["backends"] = s.backends;
  j["waiting"] = s.waiting;
  j["chains"] = s.chains;
  j["cycles"] = s.cycles;
  if (s.poll_ms) j["poll_ms"] = Ms(*s.poll_ms);
}

void ChainFields(const BlockingTree& t, json& j) {
  j["root_blocker"] = IdToJson(t.members.front().backend.id);
  json members = json::array();
  for (const BlockingTree::Member& m : t.members) members.push_back(BackendToJson(m.backend, m.depth));
  j["members"] = std::move(members);
  j["edges"] = EdgesToJson(t.edges);
}

void CycleFields(const WaitCycle& c, json& j) {
  json members = json::array();
  for (const Backend& b : c.members) members.push_back(BackendToJson(b, std::nullopt));
  j["members"] = std::move(members);
  j["edges"] = EdgesToJson(c.edges);
  if (!c.also_deadlocked.empty()) j["also_deadlocked"] = IdsToJson(c.also_deadlocked);
  if (!c.waiting_behind.empty()) j["waiting_behind"] = IdsToJson(c.waiting_behind);
}

void WaitChangeFields(const WaitChange& w, json& j) {
  j["waiter"] = BackendToJson(w.waiter, std::nullopt);
  j["blocked_by"] = IdsToJson(w.blocked_by);
  if (w.waited_ms) j["waited_ms"] = Ms(*w.waited_ms);
  if (!w.previous_mode.empty()) {
    j["previous_mode"] = w.previous_mode;
    j["previous_lock"] = LockToJson(w.previous_lock);
  }
}

}  // namespace

void SnapshotEventFields(const Event& ev, json& j) {
  if (ev.snapshot) SnapshotFields(*ev.snapshot, j);
  if (ev.chain && !ev.chain->members.empty()) ChainFields(*ev.chain, j);
  if (ev.cycle) CycleFields(*ev.cycle, j);
  if (ev.wait_change) WaitChangeFields(*ev.wait_change, j);
}

}  // namespace lockgraph
