// The JSON of the events a lock snapshot yields (snapshot, chain, cycle) and
// of `watch`'s wait_started / wait_ended; see docs/json-schema.md#snapshots.
#include "emit/event_json.h"

#include "emit/json_text.h"
#include "emit/json_tree.h"
#include "emit/json_values.h"

namespace lockgraph {
namespace {

using json = nlohmann::ordered_json;

// Milliseconds with microsecond precision, so that outputs stay stable.
double Ms(double ms) { return double(int64_t(ms * 1000 + (ms < 0 ? -0.5 : 0.5))) / 1000; }

// A chain's or cycle's members and edges are written through a Writer:
// JsonText for the bulk of a large snapshot (SnapshotBulkField), JsonTree
// for everything else.
template <class Writer>
void BackendValue(const Backend& b, std::optional<uint32_t> depth, Writer& w) {
  w.BeginObject();
  w.Key("id"), IdValue(b.id, w);
  if (b.pid) w.Key("pid"), w.Int(*b.pid);
  if (depth) w.Key("depth"), w.Uint(*depth);
  if (!b.state.empty()) w.Key("state"), w.String(b.state);
  if (!b.backend_type.empty()) w.Key("backend_type"), w.String(b.backend_type);
  if (!b.wait_event.empty()) w.Key("wait_event"), w.String(b.wait_event);
  if (b.xid) w.Key("xid"), w.Uint(*b.xid);
  if (b.xact_age_ms) w.Key("xact_age_ms"), w.Double(Ms(*b.xact_age_ms));
  if (b.state_age_ms) w.Key("state_age_ms"), w.Double(Ms(*b.state_age_ms));
  if (b.rows_locked) w.Key("rows_locked"), w.Int(*b.rows_locked);
  if (!b.wait_mode.empty()) {
    w.Key("waiting_for"), w.BeginObject();
    w.Key("mode"), w.String(b.wait_mode);
    w.Key("lock"), LockValue(b.wait_lock, w);
    if (b.wait_age_ms) w.Key("age_ms"), w.Double(Ms(*b.wait_age_ms));
    w.EndObject();
  }
  if (!b.holds.empty()) {
    w.Key("holds"), w.BeginArray();
    for (const HeldLock& h : b.holds) {
      w.BeginObject();
      w.Key("mode"), w.String(h.mode);
      w.Key("lock"), LockValue(h.lock, w);
      w.EndObject();
    }
    w.EndArray();
  }
  if (!b.query.empty()) w.Key("query"), w.String(b.query);
  if (!b.session.Empty()) w.Key("session"), SessionValue(b.session, w);
  w.EndObject();
}

template <class Writer>
void EdgesValue(const std::vector<WaitEdge>& edges, Writer& w) {
  w.BeginArray();
  for (const WaitEdge& e : edges) {
    w.BeginObject();
    w.Key("waiter"), IdValue(e.waiter, w);
    w.Key("blocker"), IdValue(e.blocker, w);
    w.Key("mode"), w.String(e.mode);
    w.Key("lock"), LockValue(e.lock, w);
    w.Key("basis"), w.String(EdgeBasisName(e.basis));
    if (e.derived) w.Key("derived"), w.Bool(true);
    w.EndObject();
  }
  w.EndArray();
}

json BackendToJson(const Backend& b, std::optional<uint32_t> depth) {
  JsonTree t;
  BackendValue(b, depth, t);
  return t.Take();
}

json EdgesToJson(const std::vector<WaitEdge>& edges) {
  JsonTree t;
  EdgesValue(edges, t);
  return t.Take();
}

json IdsToJson(const std::vector<std::string>& ids) {
  json arr = json::array();
  for (const std::string& id : ids) arr.push_back(IdToJson(id));
  return arr;
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

// `bulk`: members and edges are left null, for SnapshotBulkField().
void ChainFields(const BlockingTree& t, json& j, bool bulk) {
  j["root_blocker"] = IdToJson(t.members.front().backend.id);
  if (bulk) {
    j["members"] = nullptr;
    j["edges"] = nullptr;
    return;
  }
  json members = json::array();
  for (const BlockingTree::Member& m : t.members) members.push_back(BackendToJson(m.backend, m.depth));
  j["members"] = std::move(members);
  j["edges"] = EdgesToJson(t.edges);
}

void CycleFields(const WaitCycle& c, json& j, bool bulk) {
  if (bulk) {
    j["members"] = nullptr;
    j["edges"] = nullptr;
  } else {
    json members = json::array();
    for (const Backend& b : c.members) members.push_back(BackendToJson(b, std::nullopt));
    j["members"] = std::move(members);
    j["edges"] = EdgesToJson(c.edges);
  }
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

void SnapshotBulkField(const Event& ev, std::string_view key, JsonText& w) {
  if (key == "edges") return EdgesValue(ev.chain ? ev.chain->edges : ev.cycle->edges, w);
  w.BeginArray();
  if (ev.chain)
    for (const BlockingTree::Member& m : ev.chain->members) BackendValue(m.backend, m.depth, w);
  else
    for (const Backend& b : ev.cycle->members) BackendValue(b, std::nullopt, w);
  w.EndArray();
}

void SnapshotEventFields(const Event& ev, json& j, bool bulk) {
  if (ev.snapshot) SnapshotFields(*ev.snapshot, j);
  if (ev.chain && !ev.chain->members.empty()) ChainFields(*ev.chain, j, bulk);
  if (ev.cycle) CycleFields(*ev.cycle, j, bulk);
  if (ev.wait_change) WaitChangeFields(*ev.wait_change, j);
}

}  // namespace lockgraph
