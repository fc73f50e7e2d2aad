// See jsonlog_fields.h. The key table is the one the nlohmann reader had;
// it is looked up once per key of every line, so it is a switch on the
// key's length and bytes rather than a hash map.
#include "parsers/postgresql/jsonlog_fields.h"

#include <charconv>

#include "parsers/postgresql/labels.h"
#include "text/number.h"

namespace lockgraph {

JsonlogKey LookupJsonlogKey(std::string_view name) {
  struct Entry {
    std::string_view name;
    JsonlogKey key;
  };
  // jsonlog names (§6.4) and the csvlog column names CloudNativePG uses.
  static constexpr Entry kKeys[] = {
      {"timestamp", JsonlogKey::kTime}, {"log_time", JsonlogKey::kTime},
      {"user", JsonlogKey::kUser}, {"user_name", JsonlogKey::kUser},
      {"dbname", JsonlogKey::kDatabase}, {"database_name", JsonlogKey::kDatabase},
      {"pid", JsonlogKey::kPid}, {"process_id", JsonlogKey::kPid},
      {"remote_host", JsonlogKey::kHost}, {"connection_from", JsonlogKey::kHost},
      {"remote_port", JsonlogKey::kPort},
      {"session_id", JsonlogKey::kSessionId},
      {"line_num", JsonlogKey::kLineNum}, {"session_line_num", JsonlogKey::kLineNum},
      {"ps", JsonlogKey::kCommandTag}, {"command_tag", JsonlogKey::kCommandTag},
      {"vxid", JsonlogKey::kVxid}, {"virtual_transaction_id", JsonlogKey::kVxid},
      {"txid", JsonlogKey::kXid}, {"transaction_id", JsonlogKey::kXid},
      {"error_severity", JsonlogKey::kSeverity},
      {"state_code", JsonlogKey::kSqlstate}, {"sql_state_code", JsonlogKey::kSqlstate},
      {"message", JsonlogKey::kMessage},
      {"detail", JsonlogKey::kDetail},
      {"hint", JsonlogKey::kHint},
      {"context", JsonlogKey::kContext},
      {"statement", JsonlogKey::kStatement}, {"query", JsonlogKey::kStatement},
      {"application_name", JsonlogKey::kApplication},
      {"backend_type", JsonlogKey::kBackendType},
      {"query_id", JsonlogKey::kQueryId},
  };
  // 33 short names: comparing the length and first byte first rejects
  // almost every entry without touching the rest.
  for (const Entry& e : kKeys) {
    if (e.name.size() == name.size() && e.name[0] == name[0] && e.name == name) return e.key;
  }
  return JsonlogKey::kNone;
}

void ClearJsonlogRecord(LogRecord* r) {
  // clear() keeps each string's capacity for the next line.
  r->time.clear(); r->pid.reset(); r->severity.clear(); r->sqlstate.clear();
  r->message.clear(); r->detail.clear(); r->hint.clear(); r->context.clear();
  r->statement.clear(); r->truncated = false;
  SessionInfo& s = r->session;
  s.user.clear(); s.database.clear(); s.application.clear(); s.host.clear();
  s.session_id.clear(); s.backend_type.clear(); s.command_tag.clear(); s.vxid.clear();
  s.xid.reset(); s.session_line.reset(); s.query_id.reset();
}

std::string* JsonlogFieldWriter::TextField(JsonlogKey key) {
  SessionInfo& s = r_->session;
  switch (key) {
    case JsonlogKey::kTime: has_time_ = true; return &r_->time;
    case JsonlogKey::kUser: return &s.user;
    case JsonlogKey::kDatabase: return &s.database;
    case JsonlogKey::kHost: return &s.host;
    case JsonlogKey::kPort: return &port_;
    case JsonlogKey::kSessionId: return &s.session_id;
    case JsonlogKey::kCommandTag: return &s.command_tag;
    case JsonlogKey::kVxid: return &s.vxid;
    case JsonlogKey::kSeverity: return &r_->severity;
    case JsonlogKey::kSqlstate: has_sqlstate_ = true; return &r_->sqlstate;
    case JsonlogKey::kMessage: has_message_ = true; return &r_->message;
    case JsonlogKey::kDetail: return &r_->detail;
    case JsonlogKey::kHint: return &r_->hint;
    case JsonlogKey::kContext: return &r_->context;
    case JsonlogKey::kStatement: return &r_->statement;
    case JsonlogKey::kApplication: return &s.application;
    case JsonlogKey::kBackendType: return &s.backend_type;
    default: return nullptr;
  }
}

void JsonlogFieldWriter::Text(JsonlogKey key, std::string_view v) {
  // CloudNativePG writes every column as a string, numbers included.
  switch (key) {
    case JsonlogKey::kPid: r_->pid = ParseNumber<int64_t>(v); break;
    case JsonlogKey::kLineNum: r_->session.session_line = ParseNumber<uint64_t>(v); break;
    case JsonlogKey::kXid: r_->session.xid = ParseNumber<uint64_t>(v); break;
    case JsonlogKey::kQueryId: r_->session.query_id = ParseNumber<int64_t>(v); break;
    default:
      if (std::string* field = TextField(key)) field->assign(v);
  }
}

void JsonlogFieldWriter::Integer(JsonlogKey key, int64_t v) {
  switch (key) {
    case JsonlogKey::kPid: r_->pid = v; break;
    case JsonlogKey::kLineNum: if (v >= 0) r_->session.session_line = uint64_t(v); break;
    case JsonlogKey::kXid: if (v >= 0) r_->session.xid = uint64_t(v); break;
    case JsonlogKey::kQueryId: r_->session.query_id = v; break;
    default: {
      // remote_port, and any text field a writer chose to give as a number.
      char buf[24];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
      if (std::string* field = TextField(key)) field->assign(buf, end);
    }
  }
}

bool JsonlogFieldWriter::Finish() {
  if (!has_time_ || !has_message_) return false;
  if (!has_sqlstate_) r_->sqlstate = "00000";
  if (!port_.empty()) {
    r_->session.host.push_back(':');
    r_->session.host.append(port_);
  }
  // CloudNativePG passes csvlog's translated severity through.
  const std::string_view canonical = CanonicalSeverity(r_->severity);
  if (canonical.data() != r_->severity.data()) r_->severity = canonical;
  return true;
}

}  // namespace lockgraph
