// The JSON of the events a lock snapshot yields (snapshot, chain, cycle) and
// of `watch`'s wait_started / wait_ended; see docs/json-schema.md#snapshots.
#include "emit/event_json.h"

#include <charconv>

#include "emit/json_text.h"

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


// The text of IdToJson(), LockToJson(), SessionToJson(), BackendToJson()
// and EdgeToJson() above, written without a JSON tree: a 100,000-waiter
// snapshot's chains hold as many members and edges.
void IdText(const std::string& id, JsonText& w) {
  int64_t v = 0;
  auto r = std::from_chars(id.data(), id.data() + id.size(), v);
  if (!id.empty() && r.ec == std::errc() && r.ptr == id.data() + id.size()) w.Int(v);
  else w.String(id);
}

// A field named like another key would overwrite it in the tree: such a
// lock goes through the tree.
bool PlainLockKeys(const LockTarget& lock) {
  for (size_t i = 0; i < lock.fields.size(); ++i) {
    const std::string& name = lock.fields[i].name;
    if (name == "type" || name == "relation_name" || name == "text") return false;
    for (size_t k = 0; k < i; ++k)
      if (lock.fields[k].name == name) return false;
  }
  return true;
}

void LockText(const LockTarget& lock, JsonText& w) {
  if (!PlainLockKeys(lock)) return w.Value(LockToJson(lock));
  w.BeginObject();
  w.Key("type");
  w.String(lock.type);
  for (const LockField& f : lock.fields) {
    w.Key(f.name);
    uint64_t v = 0;
    if (f.numeric && std::from_chars(f.value.data(), f.value.data() + f.value.size(), v).ec ==
                         std::errc())
      w.Uint(v);
    else
      w.String(f.value);
  }
  if (!lock.relation_name.empty()) w.Key("relation_name"), w.String(lock.relation_name);
  if (!lock.text.empty()) w.Key("text"), w.String(lock.text);
  w.EndObject();
}

void SessionText(const SessionInfo& s, JsonText& w) {
  w.Key("session");
  w.BeginObject();
  auto put = [&](const char* k, const std::string& v) {
    if (!v.empty()) w.Key(k), w.String(v);
  };
  put("user", s.user);
  put("database", s.database);
  put("application", s.application);
  put("host", s.host);
  put("session_id", s.session_id);
  put("backend_type", s.backend_type);
  put("command_tag", s.command_tag);
  put("vxid", s.vxid);
  if (s.xid) w.Key("xid"), w.Uint(*s.xid);
  if (s.session_line) w.Key("session_line"), w.Uint(*s.session_line);
  if (s.query_id) w.Key("query_id"), w.Int(*s.query_id);
  w.EndObject();
}

void BackendText(const Backend& b, std::optional<uint32_t> depth, JsonText& w) {
  w.BeginObject();
  w.Key("id"), IdText(b.id, w);
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
    w.Key("lock"), LockText(b.wait_lock, w);
    if (b.wait_age_ms) w.Key("age_ms"), w.Double(Ms(*b.wait_age_ms));
    w.EndObject();
  }
  if (!b.holds.empty()) {
    w.Key("holds"), w.BeginArray();
    for (const HeldLock& h : b.holds) {
      w.BeginObject();
      w.Key("mode"), w.String(h.mode);
      w.Key("lock"), LockText(h.lock, w);
      w.EndObject();
    }
    w.EndArray();
  }
  if (!b.query.empty()) w.Key("query"), w.String(b.query);
  if (!b.session.Empty()) SessionText(b.session, w);
  w.EndObject();
}

void EdgesText(const std::vector<WaitEdge>& edges, JsonText& w) {
  w.BeginArray();
  for (const WaitEdge& e : edges) {
    w.BeginObject();
    w.Key("waiter"), IdText(e.waiter, w);
    w.Key("blocker"), IdText(e.blocker, w);
    w.Key("mode"), w.String(e.mode);
    w.Key("lock"), LockText(e.lock, w);
    w.Key("basis"), w.String(EdgeBasisName(e.basis));
    if (e.derived) w.Key("derived"), w.Bool(true);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void SnapshotBulkField(const Event& ev, std::string_view key, JsonText& w) {
  if (key == "edges") return EdgesText(ev.chain ? ev.chain->edges : ev.cycle->edges, w);
  w.BeginArray();
  if (ev.chain)
    for (const BlockingTree::Member& m : ev.chain->members) BackendText(m.backend, m.depth, w);
  else
    for (const Backend& b : ev.cycle->members) BackendText(b, std::nullopt, w);
  w.EndArray();
}

void SnapshotEventFields(const Event& ev, json& j, bool bulk) {
  if (ev.snapshot) SnapshotFields(*ev.snapshot, j);
  if (ev.chain && !ev.chain->members.empty()) ChainFields(*ev.chain, j, bulk);
  if (ev.cycle) CycleFields(*ev.cycle, j, bulk);
  if (ev.wait_change) WaitChangeFields(*ev.wait_change, j);
}

}  // namespace lockgraph
