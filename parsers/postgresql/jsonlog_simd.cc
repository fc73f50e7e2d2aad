// See jsonlog_parsers.h. simdjson's On-Demand API reads a line in place (a
// padded copy of it) and this file walks every value of it, so that a line
// is only accepted when nlohmann would accept it too: simdjson checks the
// structure and UTF-8, PlainBytes below rules out what simdjson lets through
// but nlohmann refuses (raw control characters, unknown escapes) and the
// \u escapes whose surrogate rules differ, and numbers are checked here and
// taken only when they are integers. Anything else is declined, never
// guessed: nlohmann decides it.
#include <emmintrin.h>

#include <charconv>
#include <cstring>
#include <string>

#include <simdjson.h>

#include "parsers/postgresql/jsonlog_fields.h"
#include "parsers/postgresql/jsonlog_parsers.h"

namespace lockgraph {
namespace {

namespace od = simdjson::ondemand;

// True when s has no byte below 0x20 and every backslash starts one of the
// escapes \" \\ \/ \b \f \n \r \t (so no \u). 16 bytes at a time.
bool PlainBytes(std::string_view s) {
  const char* p = s.data();
  const char* end = p + s.size();
  const __m128i space = _mm_set1_epi8(0x20), backslash = _mm_set1_epi8('\\');
  const __m128i bias = _mm_set1_epi8(char(0x80));
  while (p < end) {
    unsigned mask = 0;
    if (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      // Unsigned v < 0x20 as a signed compare of both sides shifted by 0x80.
      const __m128i low = _mm_cmplt_epi8(_mm_xor_si128(v, bias), _mm_xor_si128(space, bias));
      mask = unsigned(_mm_movemask_epi8(_mm_or_si128(low, _mm_cmpeq_epi8(v, backslash))));
      if (mask == 0) {
        p += 16;
        continue;
      }
      p += __builtin_ctz(mask);
    } else if (static_cast<unsigned char>(*p) >= 0x20 && *p != '\\') {
      ++p;
      continue;
    }
    if (*p != '\\' || p + 1 >= end) return false;
    switch (p[1]) {
      case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't': break;
      default: return false;
    }
    p += 2;
  }
  return true;
}

std::string_view TrimTrailingBlanks(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

// A JSON integer: -?(0|[1-9][0-9]*). Fractions and exponents are declined.
bool IsJsonInteger(std::string_view t) {
  size_t i = t.size() > 0 && t[0] == '-' ? 1 : 0;
  if (i >= t.size()) return false;
  if (t[i] == '0') return i + 1 == t.size();
  for (; i < t.size(); ++i)
    if (t[i] < '0' || t[i] > '9') return false;
  return true;
}

class Walker {
 public:
  explicit Walker(LogRecord* r) : fields(r) {}

  /// Reads the fields of an object whose keys count (the root, or a
  /// depth-1 "record"). False: decline the line.
  bool ReadObject(od::object object, bool root);
  JsonlogFieldWriter fields;

 private:
  bool ReadScalar(od::value value, od::json_type type, JsonlogKey key);
  bool Validate(od::value value);
};

bool Walker::ReadObject(od::object object, bool root) {
  for (auto field : object) {
    std::string_view name;
    od::value value;
    od::json_type type;
    if (field.unescaped_key().get(name) || field.value().get(value) || value.type().get(type))
      return false;
    if (type == od::json_type::object || type == od::json_type::array) {
      if (root && type == od::json_type::object && name == "record") {
        od::object record;
        if (value.get_object().get(record) || !ReadObject(record, false)) return false;
      } else if (!Validate(value)) {
        return false;
      }
      continue;
    }
    if (!ReadScalar(value, type, LookupJsonlogKey(name))) return false;
  }
  return true;
}

bool Walker::ReadScalar(od::value value, od::json_type type, JsonlogKey key) {
  if (type == od::json_type::string) {
    if (key == JsonlogKey::kNone) return true;  // PlainBytes vouched for its escapes
    std::string_view text;
    if (value.get_string().get(text)) return false;
    fields.Text(key, text);
    return true;
  }
  const std::string_view token = TrimTrailingBlanks(value.raw_json_token());
  if (type == od::json_type::boolean) return token == "true" || token == "false";
  if (type == od::json_type::null) return token == "null";
  if (type != od::json_type::number || !IsJsonInteger(token)) return false;
  const char* end = token.data() + token.size();
  if (token[0] == '-') {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(token.data(), end, v);
    if (ec != std::errc() || ptr != end) return false;  // below INT64_MIN: nlohmann's float
    if (key != JsonlogKey::kNone) fields.Integer(key, v);
    return true;
  }
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(token.data(), end, v);
  if (ec != std::errc() || ptr != end) return false;  // above UINT64_MAX: nlohmann's float
  // Above INT64_MAX nlohmann's reader ignores the value, as here.
  if (key != JsonlogKey::kNone && v <= uint64_t(INT64_MAX)) fields.Integer(key, int64_t(v));
  return true;
}

// Walks a value whose keys do not count, only to check it.
bool Walker::Validate(od::value value) {
  od::json_type type;
  if (value.type().get(type)) return false;
  if (type == od::json_type::object) {
    od::object object;
    if (value.get_object().get(object)) return false;
    for (auto field : object) {
      std::string_view name;
      od::value inner;
      if (field.unescaped_key().get(name) || field.value().get(inner) || !Validate(inner))
        return false;
    }
    return true;
  }
  if (type == od::json_type::array) {
    od::array array;
    if (value.get_array().get(array)) return false;
    for (auto element : array) {
      od::value inner;
      if (element.get(inner) || !Validate(inner)) return false;
    }
    return true;
  }
  return ReadScalar(value, type, JsonlogKey::kNone);
}

}  // namespace

std::optional<JsonLineKind> ParseJsonlogLineSimd(std::string_view line, LogRecord* record) {
  ClearJsonlogRecord(record);
  const size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos || line[first] != '{') return JsonLineKind::kNotObject;
  line = TrimTrailingBlanks(line.substr(first));
  if (!PlainBytes(line)) return std::nullopt;

  thread_local od::parser parser;
  thread_local std::string padded;
  if (padded.size() < line.size() + simdjson::SIMDJSON_PADDING)
    padded.resize(line.size() + simdjson::SIMDJSON_PADDING);
  std::memcpy(padded.data(), line.data(), line.size());
  std::memset(padded.data() + line.size(), ' ', simdjson::SIMDJSON_PADDING);

  od::document doc;
  od::object root;
  if (parser.iterate(padded.data(), line.size(), padded.size()).get(doc) ||
      doc.get_object().get(root))
    return std::nullopt;
  Walker walker(record);
  if (!walker.ReadObject(root, true)) return std::nullopt;
  // Only blanks may follow the object (nlohmann refuses anything else).
  const char* rest = nullptr;
  if (doc.current_location().get(rest) != simdjson::OUT_OF_BOUNDS) return std::nullopt;
  return walker.fields.Finish() ? JsonLineKind::kRecord : JsonLineKind::kOtherObject;
}

}  // namespace lockgraph
