// The JSON of the values every kind of event shares: a process id, a lock
// (docs/json-schema.md#lock) and session fields. Each is one list of
// fields written through a writer, JsonText (straight to text) or JsonTree
// (a tree), so that the two never disagree.
#pragma once

#include <charconv>
#include <string>

#include <nlohmann/json.hpp>

#include "model/event.h"

namespace lockgraph {

nlohmann::ordered_json IdToJson(const std::string& id);
nlohmann::ordered_json LockToJson(const LockTarget& lock);
/// Empty when every field is (SessionInfo::Empty()).
nlohmann::ordered_json SessionToJson(const SessionInfo& session);

/// A process id: a number when it is a pid (PostgreSQL), else the string
/// (SQL Server's "process1a2b").
template <class Writer>
void IdValue(const std::string& id, Writer& w) {
  int64_t v = 0;
  auto r = std::from_chars(id.data(), id.data() + id.size(), v);
  if (!id.empty() && r.ec == std::errc() && r.ptr == id.data() + id.size()) w.Int(v);
  else w.String(id);
}

/// False when a field is named like another key of the lock's object: a
/// tree keeps such a key once, with its last value, which text written
/// field by field would not.
bool PlainLockKeys(const LockTarget& lock);

/// The lock's object, each field in turn: numeric ones as numbers.
template <class Writer>
void LockFields(const LockTarget& lock, Writer& w) {
  w.BeginObject();
  w.Key("type"), w.String(lock.type);
  for (const LockField& f : lock.fields) {
    w.Key(f.name);
    uint64_t v = 0;
    if (f.numeric &&
        std::from_chars(f.value.data(), f.value.data() + f.value.size(), v).ec == std::errc())
      w.Uint(v);
    else
      w.String(f.value);
  }
  if (!lock.relation_name.empty()) w.Key("relation_name"), w.String(lock.relation_name);
  if (!lock.text.empty()) w.Key("text"), w.String(lock.text);
  w.EndObject();
}

template <class Writer>
void LockValue(const LockTarget& lock, Writer& w) {
  if (PlainLockKeys(lock)) LockFields(lock, w);
  else w.Value(LockToJson(lock));
}

/// The session's object; the caller leaves it out when the session is
/// Empty().
template <class Writer>
void SessionValue(const SessionInfo& s, Writer& w) {
  w.BeginObject();
  auto put = [&](const char* key, const std::string& v) {
    if (!v.empty()) w.Key(key), w.String(v);
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

}  // namespace lockgraph
