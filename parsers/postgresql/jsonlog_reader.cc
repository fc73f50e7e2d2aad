// See jsonlog_reader.h. Parsing is nlohmann's SAX interface writing straight
// into a reused LogRecord: no DOM per line, no exception (the handler
// returns false on errors; a stray throw is caught below).
#include "parsers/postgresql/jsonlog_reader.h"

#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "parsers/postgresql/jsonlog_prefilter.h"
#include "parsers/postgresql/labels.h"
#include "text/number.h"
#include "text/utf8.h"

namespace lockgraph {
namespace {

using json = nlohmann::json;

enum class Key {
  kNone, kTime, kUser, kDatabase, kPid, kHost, kPort, kSessionId, kLineNum,
  kCommandTag, kVxid, kXid, kSeverity, kSqlstate, kMessage, kDetail, kHint,
  kContext, kStatement, kApplication, kBackendType, kQueryId,
};

// jsonlog names (§6.4) and the csvlog column names CloudNativePG uses.
Key LookupKey(std::string_view name) {
  static const std::unordered_map<std::string_view, Key> kKeys = {
      {"timestamp", Key::kTime}, {"log_time", Key::kTime},
      {"user", Key::kUser}, {"user_name", Key::kUser},
      {"dbname", Key::kDatabase}, {"database_name", Key::kDatabase},
      {"pid", Key::kPid}, {"process_id", Key::kPid},
      {"remote_host", Key::kHost}, {"connection_from", Key::kHost},
      {"remote_port", Key::kPort},
      {"session_id", Key::kSessionId},
      {"line_num", Key::kLineNum}, {"session_line_num", Key::kLineNum},
      {"ps", Key::kCommandTag}, {"command_tag", Key::kCommandTag},
      {"vxid", Key::kVxid}, {"virtual_transaction_id", Key::kVxid},
      {"txid", Key::kXid}, {"transaction_id", Key::kXid},
      {"error_severity", Key::kSeverity},
      {"state_code", Key::kSqlstate}, {"sql_state_code", Key::kSqlstate},
      {"message", Key::kMessage},
      {"detail", Key::kDetail},
      {"hint", Key::kHint},
      {"context", Key::kContext},
      {"statement", Key::kStatement}, {"query", Key::kStatement},
      {"application_name", Key::kApplication},
      {"backend_type", Key::kBackendType},
      {"query_id", Key::kQueryId},
  };
  auto it = kKeys.find(name);
  return it == kKeys.end() ? Key::kNone : it->second;
}

void ClearRecord(LogRecord* r) {
  // clear() keeps each string's capacity for the next line.
  r->time.clear(); r->pid.reset(); r->severity.clear(); r->sqlstate.clear();
  r->message.clear(); r->detail.clear(); r->hint.clear(); r->context.clear();
  r->statement.clear(); r->truncated = false;
  SessionInfo& s = r->session;
  s.user.clear(); s.database.clear(); s.application.clear(); s.host.clear();
  s.session_id.clear(); s.backend_type.clear(); s.command_tag.clear(); s.vxid.clear();
  s.xid.reset(); s.session_line.reset(); s.query_id.reset();
}

// Receives the SAX events of one line. Fields are read at depth 1 (jsonlog)
// and inside a depth-1 "record" object (CloudNativePG).
class Handler {
 public:
  explicit Handler(LogRecord* r) : r_(r) {}

  bool null() { return Done(); }
  bool boolean(bool) { return Done(); }
  bool number_integer(json::number_integer_t v) { return Integer(v); }
  bool number_unsigned(json::number_unsigned_t v) {
    return v <= uint64_t(INT64_MAX) ? Integer(int64_t(v)) : Done();
  }
  bool number_float(json::number_float_t, const json::string_t& text) { return Text(text); }
  bool string(json::string_t& v) { return Text(v); }
  bool binary(json::binary_t&) { return Done(); }
  bool start_object(std::size_t) {
    if (depth_ == 0) root_object_ = true;
    if (depth_ == 1 && record_key_) in_record_ = true;
    ++depth_;
    key_ = Key::kNone;
    return true;
  }
  bool end_object() {
    if (--depth_ == 1) in_record_ = false;
    return true;
  }
  bool start_array(std::size_t) {
    if (depth_ == 0) return false;  // not an object: stop
    ++depth_;
    key_ = Key::kNone;
    return true;
  }
  bool end_array() {
    --depth_;
    return true;
  }
  bool key(json::string_t& name) {
    const bool readable = depth_ == 1 || (depth_ == 2 && in_record_);
    key_ = readable ? LookupKey(name) : Key::kNone;
    record_key_ = depth_ == 1 && name == "record";
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }

  bool root_object() const { return root_object_; }
  bool has_time = false, has_message = false, has_sqlstate = false;
  std::string port;

 private:
  bool Done() {
    key_ = Key::kNone;
    return depth_ > 0;  // a bare scalar is not an object: stop
  }
  bool Integer(int64_t v);
  bool Text(std::string_view v);
  std::string* TextField();

  LogRecord* r_;
  Key key_ = Key::kNone;
  int depth_ = 0;
  bool root_object_ = false, record_key_ = false, in_record_ = false;
};

std::string* Handler::TextField() {
  SessionInfo& s = r_->session;
  switch (key_) {
    case Key::kTime: has_time = true; return &r_->time;
    case Key::kUser: return &s.user;
    case Key::kDatabase: return &s.database;
    case Key::kHost: return &s.host;
    case Key::kPort: return &port;
    case Key::kSessionId: return &s.session_id;
    case Key::kCommandTag: return &s.command_tag;
    case Key::kVxid: return &s.vxid;
    case Key::kSeverity: return &r_->severity;
    case Key::kSqlstate: has_sqlstate = true; return &r_->sqlstate;
    case Key::kMessage: has_message = true; return &r_->message;
    case Key::kDetail: return &r_->detail;
    case Key::kHint: return &r_->hint;
    case Key::kContext: return &r_->context;
    case Key::kStatement: return &r_->statement;
    case Key::kApplication: return &s.application;
    case Key::kBackendType: return &s.backend_type;
    default: return nullptr;
  }
}

bool Handler::Text(std::string_view v) {
  // CloudNativePG writes every column as a string, numbers included.
  switch (key_) {
    case Key::kPid: r_->pid = ParseNumber<int64_t>(v); break;
    case Key::kLineNum: r_->session.session_line = ParseNumber<uint64_t>(v); break;
    case Key::kXid: r_->session.xid = ParseNumber<uint64_t>(v); break;
    case Key::kQueryId: r_->session.query_id = ParseNumber<int64_t>(v); break;
    default:
      if (std::string* field = TextField()) field->assign(v);
  }
  return Done();
}

bool Handler::Integer(int64_t v) {
  switch (key_) {
    case Key::kPid: r_->pid = v; break;
    case Key::kLineNum: if (v >= 0) r_->session.session_line = uint64_t(v); break;
    case Key::kXid: if (v >= 0) r_->session.xid = uint64_t(v); break;
    case Key::kQueryId: r_->session.query_id = v; break;
    default: {
      // remote_port, and any text field a writer chose to give as a number.
      char buf[24];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
      if (std::string* field = TextField()) field->assign(buf, end);
    }
  }
  return Done();
}

bool SaxParse(std::string_view line, Handler* h) {
  try {
    return json::sax_parse(line.begin(), line.end(), h);
  } catch (...) {
    return false;  // nlohmann reports errors through the handler; never let one out
  }
}

}  // namespace

JsonLineKind ParseJsonlogLine(std::string_view line, LogRecord* record) {
  ClearRecord(record);
  const size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos || line[first] != '{') return JsonLineKind::kNotObject;
  Handler h(record);
  bool ok = SaxParse(line, &h);
  if (!ok) {
    // The server writes the bytes of a non-UTF-8 database as they are
    // (escape_json escapes only ASCII); JSON parsers refuse them. Such a
    // record is read with each invalid byte as U+FFFD, which is what every
    // output would show of it anyway.
    std::string valid = ValidUtf8(line);
    if (valid != line) {
      ClearRecord(record);
      h = Handler(record);
      ok = SaxParse(valid, &h);
    }
  }
  if (!ok || !h.root_object()) return JsonLineKind::kNotObject;
  if (!h.has_time || !h.has_message) return JsonLineKind::kOtherObject;
  if (!h.has_sqlstate) record->sqlstate = "00000";
  if (!h.port.empty()) {
    record->session.host.push_back(':');
    record->session.host.append(h.port);
  }
  // CloudNativePG passes csvlog's translated severity through.
  const std::string_view canonical = CanonicalSeverity(record->severity);
  if (canonical.data() != record->severity.data()) record->severity = canonical;
  return JsonLineKind::kRecord;
}

JsonlogReader::JsonlogReader(std::string file, RecordCallbacks callbacks)
    : file_(std::move(file)), cb_(std::move(callbacks)) {}

void JsonlogReader::ParseLine(std::string_view line, uint64_t line_no) {
  ++counts_.total;
  if (cb_.interesting && !cb_.deliver_uninteresting) {
    // Fast path: a record whose message the caller does not want is only
    // counted (jsonlog_prefilter.h says which lines qualify).
    const std::optional<std::string_view> message = PlainJsonlogMessage(line);
    if (message && !cb_.interesting(*message)) {
      ++counts_.parsed;
      return;
    }
  }
  if (ParseJsonlogLine(line, &scratch_) != JsonLineKind::kRecord) {
    ++counts_.unparsed;
    if (cb_.on_unparsed) cb_.on_unparsed(line_no, line);
    return;
  }
  ++counts_.parsed;
  if (!cb_.on_record) return;
  const bool keep = !cb_.interesting || cb_.interesting(scratch_.message);
  if (!keep && !cb_.deliver_uninteresting) return;
  LogRecord out;
  if (keep) {
    out = std::move(scratch_);
  } else {
    out.time = scratch_.time;
    out.pid = scratch_.pid;
    out.severity = scratch_.severity;
    out.sqlstate = scratch_.sqlstate;
    out.message = scratch_.message;
  }
  out.source = {file_, line_no, line_no, {}};
  cb_.on_record(std::move(out));
}

}  // namespace lockgraph
