// The fields of a deadlock's and a lock wait's JSON (docs/json-schema.md),
// each listed once and written through a writer: JsonText straight to text
// (the json and ndjson outputs, one event at a time) or JsonTree (a tree,
// for `watch` and for events whose keys would collide). Both give the same
// bytes once dumped; see EventJsonText (event_json.cc) and issue 20.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "emit/json_values.h"
#include "model/event.h"

namespace lockgraph {

/// False when two attributes share a name: a tree keeps such a key once,
/// in its first place with its last value, which text written attribute by
/// attribute would not.
bool PlainAttributeKeys(const std::vector<LockField>& attributes);

template <class Writer>
void StringsValue(const std::vector<std::string>& values, Writer& w) {
  w.BeginArray();
  for (const std::string& v : values) w.String(v);
  w.EndArray();
}

template <class Writer>
void IntsValue(const std::vector<int64_t>& values, Writer& w) {
  w.BeginArray();
  for (int64_t v : values) w.Int(v);
  w.EndArray();
}

template <class Writer>
void IdsValue(const std::vector<std::string>& ids, Writer& w) {
  w.BeginArray();
  for (const std::string& id : ids) IdValue(id, w);
  w.EndArray();
}

// [{text, kind, ...}]: a CONTEXT's frames, innermost first.
template <class Writer>
void ContextValue(const std::vector<ContextFrame>& frames, Writer& w) {
  w.BeginArray();
  for (const ContextFrame& f : frames) {
    w.BeginObject();
    w.Key("text"), w.String(f.text);
    switch (f.kind) {
      case ContextFrame::Kind::kRowWait:
        w.Key("kind"), w.String("row_wait");
        w.Key("action"), w.String(f.action);
        w.Key("tuple"), w.String(f.tuple);
        w.Key("relation"), w.String(f.relation);
        break;
      case ContextFrame::Kind::kFunction:
        w.Key("kind"), w.String("function");
        w.Key("function"), w.String(f.function);
        if (f.line) w.Key("line"), w.Int(*f.line);
        w.Key("statement"), w.String(f.statement);
        break;
      case ContextFrame::Kind::kSqlStatement:
        w.Key("kind"), w.String("sql_statement");
        w.Key("statement"), w.String(f.statement);
        break;
      case ContextFrame::Kind::kOther: w.Key("kind"), w.String("other"); break;
    }
    w.EndObject();
  }
  w.EndArray();
}

// SQL Server's execution stack (docs/json-schema.md#sql-server-deadlocks).
template <class Writer>
void FramesValue(const std::vector<ContextFrame>& frames, Writer& w) {
  w.BeginArray();
  for (const ContextFrame& f : frames) {
    w.BeginObject();
    w.Key("procedure"), w.String(f.function);
    if (f.line) w.Key("line"), w.Int(*f.line);
    w.Key("statement"), w.String(f.statement);
    w.EndObject();
  }
  w.EndArray();
}

template <class Writer>
void RequestsValue(const std::vector<LockRequest>& requests, Writer& w) {
  w.BeginArray();
  for (const LockRequest& r : requests) {
    w.BeginObject();
    w.Key("process"), IdValue(r.process, w);
    if (!r.mode.empty()) w.Key("mode"), w.String(r.mode);
    if (!r.request.empty()) w.Key("request"), w.String(r.request);
    w.EndObject();
  }
  w.EndArray();
}

// waiter, blocker, mode, blocker_mode, request, lock, basis.
template <class Writer>
void EdgeValue(const WaitEdge& e, Writer& w) {
  w.BeginObject();
  w.Key("waiter"), IdValue(e.waiter, w);
  w.Key("blocker"), IdValue(e.blocker, w);
  w.Key("mode"), w.String(e.mode);
  if (!e.blocker_mode.empty()) w.Key("blocker_mode"), w.String(e.blocker_mode);
  if (!e.request.empty()) w.Key("request"), w.String(e.request);
  w.Key("lock"), LockValue(e.lock, w);
  w.Key("basis"), w.String(EdgeBasisName(e.basis));
  w.EndObject();
}

template <class Writer>
void DeadlockEdgesValue(const std::vector<WaitEdge>& edges, Writer& w) {
  w.BeginArray();
  for (const WaitEdge& e : edges) EdgeValue(e, w);
  w.EndArray();
}

// id, pid, spid, ecid, victim, query, query_clipped, session, then the
// details SQL Server and MySQL give.
template <class Writer>
void ProcessValue(const Participant& p, const Deadlock& d, Writer& w) {
  w.BeginObject();
  w.Key("id"), IdValue(p.id, w);
  if (p.pid) w.Key("pid"), w.Int(*p.pid);
  if (p.spid) w.Key("spid"), w.Int(*p.spid);
  if (p.ecid) w.Key("ecid"), w.Int(*p.ecid);
  if (std::find(d.victims.begin(), d.victims.end(), p.id) != d.victims.end())
    w.Key("victim"), w.Bool(true);
  w.Key("query"), w.String(p.query);
  if (p.query_clipped) w.Key("query_clipped"), w.Bool(true);
  if (!p.session.Empty()) w.Key("session"), SessionValue(p.session, w);
  auto put = [&](const char* k, const std::string& v) {
    if (!v.empty()) w.Key(k), w.String(v);
  };
  put("isolation_level", p.isolation_level);
  put("wait_mode", p.wait_mode);
  put("wait_resource", p.wait_resource);
  if (p.wait_ms) w.Key("wait_ms"), w.Int(*p.wait_ms);
  put("transaction_name", p.transaction_name);
  if (p.log_used) w.Key("log_used"), w.Int(*p.log_used);
  if (!p.frames.empty()) w.Key("frames"), FramesValue(p.frames, w);
  if (!p.attributes.empty()) {
    w.Key("attributes");
    if (PlainAttributeKeys(p.attributes)) {
      w.BeginObject();
      for (const LockField& f : p.attributes) w.Key(f.name), w.String(f.value);
      w.EndObject();
    } else {
      nlohmann::ordered_json a = nlohmann::ordered_json::object();
      for (const LockField& f : p.attributes) a[f.name] = f.value;
      w.Value(a);
    }
  }
  w.EndObject();
}

// victim … statement: the keys of a deadlock event after `session`.
template <class Writer>
void DeadlockFields(const Deadlock& d, Writer& w) {
  if (!d.victim.empty()) w.Key("victim"), IdValue(d.victim, w);
  if (!d.victims.empty() || d.victim.empty()) w.Key("victims"), IdsValue(d.victims, w);
  w.Key("processes"), w.BeginArray();
  for (const Participant& p : d.processes) ProcessValue(p, d, w);
  w.EndArray();
  w.Key("edges"), DeadlockEdgesValue(d.edges, w);
  if (!d.other_edges.empty()) w.Key("other_edges"), DeadlockEdgesValue(d.other_edges, w);
  if (!d.resources.empty()) {
    w.Key("resources"), w.BeginArray();
    for (const LockResource& r : d.resources) {
      w.BeginObject();
      w.Key("lock"), LockValue(r.lock, w);
      if (!r.mode.empty()) w.Key("mode"), w.String(r.mode);
      w.Key("owners"), RequestsValue(r.owners, w);
      w.Key("waiters"), RequestsValue(r.waiters, w);
      w.EndObject();
    }
    w.EndArray();
  }
  if (d.parallel) w.Key("parallel"), w.Bool(true);
  w.Key("complete"), w.Bool(d.complete);
  if (!d.problems.empty()) w.Key("problems"), StringsValue(d.problems, w);
  if (d.before_watch) w.Key("before_watch"), w.Bool(true);
  w.Key("message"), w.String(d.message);
  if (!d.sqlstate.empty()) w.Key("sqlstate"), w.String(d.sqlstate);
  if (!d.hint.empty()) w.Key("hint"), w.String(d.hint);
  if (!d.context.empty()) w.Key("context"), ContextValue(d.context, w);
  if (!d.statement.empty()) w.Key("statement"), w.String(d.statement);
}

// waiter … statement: the keys of a lock_wait event after `session`.
template <class Writer>
void LockWaitFields(const LockWait& lw, Writer& w) {
  w.Key("waiter"), IdValue(lw.waiter, w);
  w.Key("mode"), w.String(lw.mode);
  w.Key("lock"), LockValue(lw.lock, w);
  w.Key("outcome"), w.String(WaitOutcomeName(lw.outcome));
  w.Key("start_time"), w.String(lw.start_time);
  if (!lw.end_time.empty()) w.Key("end_time"), w.String(lw.end_time);
  if (lw.waited_ms) w.Key("waited_ms"), w.Double(*lw.waited_ms);
  w.Key("holders"), IntsValue(lw.holders, w);
  w.Key("queue"), IntsValue(lw.queue, w);
  w.Key("chain"), IntsValue(lw.chain, w);
  if (lw.chain_is_cycle) w.Key("chain_is_cycle"), w.Bool(true);
  else if (!lw.chain.empty()) w.Key("root_blocker"), w.Int(lw.chain.back());
  w.Key("reports"), w.BeginArray();
  for (const WaitReport& r : lw.reports) {
    w.BeginObject();
    w.Key("kind"), w.String(r.kind);
    w.Key("time"), w.String(r.time);
    w.Key("line"), w.Uint(r.line);
    if (r.after_ms) w.Key("after_ms"), w.Double(*r.after_ms);
    w.EndObject();
  }
  w.EndArray();
  if (!lw.context.empty()) w.Key("context"), ContextValue(lw.context, w);
  if (!lw.statement.empty()) w.Key("statement"), w.String(lw.statement);
}

/// [{id, name, severity, message, hint, evidence[, signatures]}], in order.
template <class Writer>
void FindingsValue(const std::vector<Finding>& findings, Writer& w) {
  w.BeginArray();
  for (const Finding& f : findings) {
    w.BeginObject();
    w.Key("id"), w.String(f.rule_id);
    w.Key("name"), w.String(f.rule_name);
    w.Key("severity"), w.String(SeverityName(f.severity));
    w.Key("message"), w.String(f.message);
    w.Key("hint"), w.String(f.hint);
    w.Key("evidence"), StringsValue(f.evidence, w);
    if (!f.signatures.empty()) w.Key("signatures"), StringsValue(f.signatures, w);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace lockgraph
