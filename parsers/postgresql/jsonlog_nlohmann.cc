// See jsonlog_parsers.h. nlohmann's SAX interface writing straight into a
// reused LogRecord: no DOM per line, no exception (the handler returns false
// on errors; a stray throw is caught below).
#include <string>

#include <nlohmann/json.hpp>

#include "parsers/postgresql/jsonlog_fields.h"
#include "parsers/postgresql/jsonlog_parsers.h"
#include "text/utf8.h"

namespace lockgraph {
namespace {

using json = nlohmann::json;

// Receives the SAX events of one line. Fields are read at depth 1 (jsonlog)
// and inside a depth-1 "record" object (CloudNativePG).
class Handler {
 public:
  explicit Handler(LogRecord* r) : fields(r) {}

  bool null() { return Done(); }
  bool boolean(bool) { return Done(); }
  bool number_integer(json::number_integer_t v) {
    fields.Integer(key_, v);
    return Done();
  }
  bool number_unsigned(json::number_unsigned_t v) {
    if (v <= uint64_t(INT64_MAX)) fields.Integer(key_, int64_t(v));
    return Done();
  }
  bool number_float(json::number_float_t, const json::string_t& text) {
    fields.Text(key_, text);
    return Done();
  }
  bool string(json::string_t& v) {
    fields.Text(key_, v);
    return Done();
  }
  bool binary(json::binary_t&) { return Done(); }
  bool start_object(std::size_t) {
    if (depth_ == 0) root_object_ = true;
    if (depth_ == 1 && record_key_) in_record_ = true;
    ++depth_;
    key_ = JsonlogKey::kNone;
    return true;
  }
  bool end_object() {
    if (--depth_ == 1) in_record_ = false;
    return true;
  }
  bool start_array(std::size_t) {
    if (depth_ == 0) return false;  // not an object: stop
    ++depth_;
    key_ = JsonlogKey::kNone;
    return true;
  }
  bool end_array() {
    --depth_;
    return true;
  }
  bool key(json::string_t& name) {
    const bool readable = depth_ == 1 || (depth_ == 2 && in_record_);
    key_ = readable ? LookupJsonlogKey(name) : JsonlogKey::kNone;
    record_key_ = depth_ == 1 && name == "record";
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }

  bool root_object() const { return root_object_; }
  JsonlogFieldWriter fields;

 private:
  bool Done() {
    key_ = JsonlogKey::kNone;
    return depth_ > 0;  // a bare scalar is not an object: stop
  }

  JsonlogKey key_ = JsonlogKey::kNone;
  int depth_ = 0;
  bool root_object_ = false, record_key_ = false, in_record_ = false;
};

bool SaxParse(std::string_view line, Handler* h) {
  try {
    return json::sax_parse(line.begin(), line.end(), h);
  } catch (...) {
    return false;  // nlohmann reports errors through the handler; never let one out
  }
}

}  // namespace

JsonLineKind ParseJsonlogLineNlohmann(std::string_view line, LogRecord* record) {
  ClearJsonlogRecord(record);
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
      ClearJsonlogRecord(record);
      h = Handler(record);
      ok = SaxParse(valid, &h);
    }
  }
  if (!ok || !h.root_object()) return JsonLineKind::kNotObject;
  return h.fields.Finish() ? JsonLineKind::kRecord : JsonLineKind::kOtherObject;
}

}  // namespace lockgraph
