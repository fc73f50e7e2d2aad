// See event_json.h.
#include "emit/event_json.h"

#include "emit/event_fields.h"
#include "emit/json_text.h"
#include "emit/json_tree.h"

namespace lockgraph {

using json = nlohmann::ordered_json;

bool PlainAttributeKeys(const std::vector<LockField>& attributes) {
  for (size_t i = 0; i < attributes.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (attributes[k].name == attributes[i].name) return false;
  return true;
}

namespace {

// The snapshot, chain, cycle and wait_* fields (snapshot_json.cc), from a
// tree of their own: `bulk` leaves a chain's or cycle's members and edges
// null, and a JsonText writes them without a tree (SnapshotBulkField).
void SnapshotFieldsValue(const Event& ev, bool bulk, JsonText& w) {
  json fields = json::object();
  SnapshotEventFields(ev, fields, bulk);
  for (const auto& [key, value] : fields.items()) {
    w.Key(key);
    if (bulk && value.is_null() && (key == "members" || key == "edges")) SnapshotBulkField(ev, key, w);
    else w.Value(value);
  }
}

void SnapshotFieldsValue(const Event& ev, bool, JsonTree& w) {
  json fields = json::object();
  SnapshotEventFields(ev, fields, false);
  for (const auto& [key, value] : fields.items()) w.Key(key), w.Value(value);
}

template <class Writer>
void EventValue(const Event& ev, bool bulk, Writer& w) {
  w.BeginObject();
  w.Key("type"), w.String(EventTypeName(ev.type));
  w.Key("engine"), w.String(ev.engine);
  w.Key("time"), w.String(ev.time);
  if (!ev.time_iso.empty()) {
    w.Key("time_iso"), w.String(ev.time_iso);
    w.Key("time_zone_from"), w.String(ZoneFromName(ev.time_zone_from));
  }
  if (ev.pid) w.Key("pid"), w.Int(*ev.pid);
  w.Key("source"), w.BeginObject();
  if (!ev.server.empty() && ev.source.file.empty()) {
    w.Key("server"), w.String(ev.server);  // watch: the server polled
  } else {
    w.Key("file"), w.String(ev.source.file);
    w.Key("first_line"), w.Uint(ev.source.first_line);
    w.Key("last_line"), w.Uint(ev.source.last_line);
    // Several servers' logs, or a framing that names each server.
    if (!ev.server.empty()) w.Key("server"), w.String(ev.server);
  }
  if (!ev.source.kind.empty()) w.Key("kind"), w.String(ev.source.kind);  // "client"
  w.EndObject();
  if (!ev.session.Empty()) w.Key("session"), SessionValue(ev.session, w);
  if (ev.truncated) w.Key("truncated"), w.Bool(true);
  if (ev.deadlock) DeadlockFields(*ev.deadlock, w);
  if (ev.lock_wait) LockWaitFields(*ev.lock_wait, w);
  if (ev.snapshot || ev.chain || ev.cycle || ev.wait_change) SnapshotFieldsValue(ev, bulk, w);
  if (!ev.signature.empty()) w.Key("signature"), w.String(ev.signature);
  w.Key("findings"), FindingsValue(ev.findings, w);
  w.EndObject();
}

// Text written key by key equals the tree's dump unless a key comes twice:
// a deadlock's, a lock wait's and a snapshot's fields share some names
// (context, statement, edges, waiter, ...), so an event with two of them
// goes through the tree (as does a lock with colliding fields, LockValue).
bool DistinctKeys(const Event& ev) {
  return int(ev.deadlock.has_value()) + int(ev.lock_wait.has_value()) +
             int(ev.snapshot || ev.chain || ev.cycle || ev.wait_change) <=
         1;
}

}  // namespace

json EventToJson(const Event& ev) {
  JsonTree t;
  EventValue(ev, false, t);
  return t.Take();
}

std::string EventJsonText(const Event& ev, int indent, unsigned depth) {
  const bool bulk = (ev.chain && !ev.chain->members.empty()) || ev.cycle;
  std::string out;
  JsonText w(&out, indent, depth);
  if (DistinctKeys(ev)) {
    EventValue(ev, bulk, w);
    return out;
  }
  JsonTree t;
  EventValue(ev, false, t);
  w.Value(t.Take());
  return out;
}

json LinesToJson(const LineCounts& n) {
  return {{"total", n.total}, {"parsed", n.parsed}, {"skipped", n.skipped},
          {"unparsed", n.unparsed}, {"unattached", n.unattached}};
}

json DiagnosticsToJson(const std::vector<Diagnostic>& diagnostics) {
  json arr = json::array();
  for (const Diagnostic& d : diagnostics) {
    json j = {{"severity", d.severity == Diagnostic::Severity::kError     ? "error"
                           : d.severity == Diagnostic::Severity::kWarning ? "warning"
                                                                          : "note"},
              {"file", d.file}};
    if (d.line) j["line"] = d.line;
    j["message"] = d.message;
    if (!d.text.empty()) j["text"] = d.text;
    arr.push_back(std::move(j));
  }
  return arr;
}

json SummaryToJson(const Summary& s) {
  json j = {{"deadlocks", s.deadlocks},
            {"deadlocks_incomplete", s.deadlocks_incomplete},
            {"lock_waits", s.lock_waits}};
  if (s.repeated_deadlocks || s.repeated_lock_waits)
    j["repeated"] = {{"deadlocks", s.repeated_deadlocks}, {"lock_waits", s.repeated_lock_waits}};
  if (!s.relation_names.empty()) {
    json names = json::array();
    for (const RelationName& r : s.relation_names)
      names.push_back({{"file", r.file}, {"database", r.database}, {"relation", r.relation}, {"name", r.name}});
    j["relation_names"] = std::move(names);
  }
  if (s.outside_window || s.outside_window_no_time)
    j["outside_window"] = {{"events", s.outside_window}, {"without_time", s.outside_window_no_time}};
  if (s.snapshots) {
    j["snapshots"] = s.snapshots;
    j["chains"] = s.chains;
    j["cycles"] = s.cycles;
  }
  if (s.unique_violations) j["unique_violations"] = s.unique_violations;
  j["lines"] = LinesToJson(s.lines);
  return j;
}

json InputsToJson(const std::vector<InputInfo>& inputs) {
  json arr = json::array();
  for (const InputInfo& in : inputs) {
    json j = {{"file", in.file}, {"format", in.format}};
    if (in.format == "stderr" || in.format == "syslog") j["log_line_prefix"] = in.detected;
    if (!in.framing.empty()) j["framing"] = in.framing;
    if (in.gzip) j["gzip"] = true;
    j["lines"] = LinesToJson(in.lines);
    if (in.poorly_understood) j["poorly_understood"] = true;
    arr.push_back(std::move(j));
  }
  return arr;
}

std::string DumpJson(const json& j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string DumpJsonAt(const json& j, unsigned depth) {
  // json::dump() always starts at depth 0; its serializer takes the depth
  // (the same call dump() makes, with current_indent set).
  std::string out;
  nlohmann::detail::serializer<json> s(nlohmann::detail::output_adapter<char, std::string>(out), ' ',
                                       json::error_handler_t::replace);
  s.dump(j, true, false, 2, depth);
  return out;
}

}  // namespace lockgraph
