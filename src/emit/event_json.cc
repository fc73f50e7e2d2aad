// See event_json.h.
#include "emit/event_json.h"

#include "emit/findings_json.h"
#include "emit/json_text.h"
#include "emit/json_values.h"

namespace lockgraph {

using json = nlohmann::ordered_json;

namespace {

json ContextToJson(const std::vector<ContextFrame>& frames) {
  json arr = json::array();
  for (const ContextFrame& f : frames) {
    json j = {{"text", f.text}};
    switch (f.kind) {
      case ContextFrame::Kind::kRowWait:
        j["kind"] = "row_wait";
        j["action"] = f.action;
        j["tuple"] = f.tuple;
        j["relation"] = f.relation;
        break;
      case ContextFrame::Kind::kFunction:
        j["kind"] = "function";
        j["function"] = f.function;
        if (f.line) j["line"] = *f.line;
        j["statement"] = f.statement;
        break;
      case ContextFrame::Kind::kSqlStatement:
        j["kind"] = "sql_statement";
        j["statement"] = f.statement;
        break;
      case ContextFrame::Kind::kOther: j["kind"] = "other"; break;
    }
    arr.push_back(std::move(j));
  }
  return arr;
}

// SQL Server details (docs/json-schema.md#sql-server-deadlocks); PostgreSQL
// events carry none, so their JSON is unchanged.
json FramesToJson(const std::vector<ContextFrame>& frames) {
  json arr = json::array();
  for (const ContextFrame& f : frames) {
    json j = {{"procedure", f.function}};
    if (f.line) j["line"] = *f.line;
    j["statement"] = f.statement;
    arr.push_back(std::move(j));
  }
  return arr;
}

json RequestsToJson(const std::vector<LockRequest>& requests) {
  json arr = json::array();
  for (const LockRequest& r : requests) {
    json j = {{"process", IdToJson(r.process)}};
    if (!r.mode.empty()) j["mode"] = r.mode;
    if (!r.request.empty()) j["request"] = r.request;
    arr.push_back(std::move(j));
  }
  return arr;
}

// spid, ecid and, for engines that list victims, "victim": true: the keys
// that follow `id` (and `pid`).
void ProcessIdentityToJson(const Participant& p, const Deadlock& d, json& pj) {
  if (p.spid) pj["spid"] = *p.spid;
  if (p.ecid) pj["ecid"] = *p.ecid;
  if (std::find(d.victims.begin(), d.victims.end(), p.id) != d.victims.end()) pj["victim"] = true;
}

// The keys that follow `session`: isolation_level, wait_mode, wait_resource,
// wait_ms, transaction_name, log_used, frames, attributes.
void ProcessDetailToJson(const Participant& p, json& pj) {
  auto put = [&](const char* k, const std::string& v) {
    if (!v.empty()) pj[k] = v;
  };
  put("isolation_level", p.isolation_level);
  put("wait_mode", p.wait_mode);
  put("wait_resource", p.wait_resource);
  if (p.wait_ms) pj["wait_ms"] = *p.wait_ms;
  put("transaction_name", p.transaction_name);
  if (p.log_used) pj["log_used"] = *p.log_used;
  if (!p.frames.empty()) pj["frames"] = FramesToJson(p.frames);
  if (!p.attributes.empty()) {
    json a = json::object();
    for (const LockField& f : p.attributes) a[f.name] = f.value;
    pj["attributes"] = std::move(a);
  }
}

// waiter, blocker, mode, blocker_mode, request, lock, basis.
json EdgeToJson(const WaitEdge& e) {
  json j = {{"waiter", IdToJson(e.waiter)}, {"blocker", IdToJson(e.blocker)}, {"mode", e.mode}};
  if (!e.blocker_mode.empty()) j["blocker_mode"] = e.blocker_mode;
  if (!e.request.empty()) j["request"] = e.request;
  j["lock"] = LockToJson(e.lock);
  j["basis"] = EdgeBasisName(e.basis);
  return j;
}

// other_edges, resources, parallel (each when present).
void DeadlockDetailToJson(const Deadlock& d, json& j) {
  if (!d.other_edges.empty()) {
    json edges = json::array();
    for (const WaitEdge& e : d.other_edges) edges.push_back(EdgeToJson(e));
    j["other_edges"] = std::move(edges);
  }
  if (!d.resources.empty()) {
    json arr = json::array();
    for (const LockResource& r : d.resources) {
      json rj = {{"lock", LockToJson(r.lock)}};
      if (!r.mode.empty()) rj["mode"] = r.mode;
      rj["owners"] = RequestsToJson(r.owners);
      rj["waiters"] = RequestsToJson(r.waiters);
      arr.push_back(std::move(rj));
    }
    j["resources"] = std::move(arr);
  }
  if (d.parallel) j["parallel"] = true;
}

void DeadlockFields(const Deadlock& d, json& j) {
  if (!d.victim.empty()) j["victim"] = IdToJson(d.victim);
  if (!d.victims.empty() || d.victim.empty()) {
    json victims = json::array();
    for (const std::string& v : d.victims) victims.push_back(IdToJson(v));
    j["victims"] = std::move(victims);
  }
  json procs = json::array();
  for (const Participant& p : d.processes) {
    json pj = {{"id", IdToJson(p.id)}};
    if (p.pid) pj["pid"] = *p.pid;
    ProcessIdentityToJson(p, d, pj);
    pj["query"] = p.query;
    if (p.query_clipped) pj["query_clipped"] = true;
    json s = SessionToJson(p.session);
    if (!s.empty()) pj["session"] = std::move(s);
    ProcessDetailToJson(p, pj);
    procs.push_back(std::move(pj));
  }
  j["processes"] = std::move(procs);
  json edges = json::array();
  for (const WaitEdge& e : d.edges) edges.push_back(EdgeToJson(e));
  j["edges"] = std::move(edges);
  DeadlockDetailToJson(d, j);
  j["complete"] = d.complete;
  if (!d.problems.empty()) j["problems"] = d.problems;
  if (d.before_watch) j["before_watch"] = true;
  j["message"] = d.message;
  if (!d.sqlstate.empty()) j["sqlstate"] = d.sqlstate;
  if (!d.hint.empty()) j["hint"] = d.hint;
  if (!d.context.empty()) j["context"] = ContextToJson(d.context);
  if (!d.statement.empty()) j["statement"] = d.statement;
}

void LockWaitFields(const LockWait& w, json& j) {
  j["waiter"] = IdToJson(w.waiter);
  j["mode"] = w.mode;
  j["lock"] = LockToJson(w.lock);
  j["outcome"] = WaitOutcomeName(w.outcome);
  j["start_time"] = w.start_time;
  if (!w.end_time.empty()) j["end_time"] = w.end_time;
  if (w.waited_ms) j["waited_ms"] = *w.waited_ms;
  j["holders"] = w.holders;
  j["queue"] = w.queue;
  j["chain"] = w.chain;
  if (w.chain_is_cycle) j["chain_is_cycle"] = true;
  else if (!w.chain.empty()) j["root_blocker"] = w.chain.back();
  json reports = json::array();
  for (const WaitReport& r : w.reports) {
    json rj = {{"kind", r.kind}, {"time", r.time}, {"line", r.line}};
    if (r.after_ms) rj["after_ms"] = *r.after_ms;
    reports.push_back(std::move(rj));
  }
  j["reports"] = std::move(reports);
  if (!w.context.empty()) j["context"] = ContextToJson(w.context);
  if (!w.statement.empty()) j["statement"] = w.statement;
}

}  // namespace

namespace {

// `bulk`: a chain's or cycle's members and edges are left null
// (SnapshotEventFields).
json EventTree(const Event& ev, bool bulk) {
  json j = {{"type", EventTypeName(ev.type)}, {"engine", ev.engine}, {"time", ev.time}};
  if (!ev.time_iso.empty()) {
    j["time_iso"] = ev.time_iso;
    j["time_zone_from"] = ZoneFromName(ev.time_zone_from);
  }
  if (ev.pid) j["pid"] = *ev.pid;
  if (!ev.server.empty() && ev.source.file.empty()) {
    j["source"] = {{"server", ev.server}};  // watch: the server polled
  } else {
    j["source"] = {{"file", ev.source.file},
                   {"first_line", ev.source.first_line},
                   {"last_line", ev.source.last_line}};
    // Several servers' logs, or a framing that names each server.
    if (!ev.server.empty()) j["source"]["server"] = ev.server;
  }
  if (!ev.source.kind.empty()) j["source"]["kind"] = ev.source.kind;  // "client"
  json s = SessionToJson(ev.session);
  if (!s.empty()) j["session"] = std::move(s);
  if (ev.truncated) j["truncated"] = true;
  if (ev.deadlock) DeadlockFields(*ev.deadlock, j);
  if (ev.lock_wait) LockWaitFields(*ev.lock_wait, j);
  SnapshotEventFields(ev, j, bulk);
  if (!ev.signature.empty()) j["signature"] = ev.signature;
  j["findings"] = FindingsToJson(ev.findings);
  return j;
}

}  // namespace

json EventToJson(const Event& ev) { return EventTree(ev, false); }

std::string EventJsonText(const Event& ev, int indent, unsigned depth) {
  const bool bulk = (ev.chain && !ev.chain->members.empty()) || ev.cycle;
  if (!bulk) return indent < 0 ? DumpJson(EventToJson(ev), -1) : DumpJsonAt(EventToJson(ev), depth);
  std::string out;
  JsonText w(&out, indent, depth);
  const json tree = EventTree(ev, true);
  w.BeginObject();
  for (const auto& [key, value] : tree.items()) {
    w.Key(key);
    if (value.is_null() && (key == "members" || key == "edges")) SnapshotBulkField(ev, key, w);
    else w.Value(value);
  }
  w.EndObject();
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
