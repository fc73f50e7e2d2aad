// See json_text.h. The layout is nlohmann's serializer::dump(): pretty
// objects are "{\n" + members at two more spaces, ",\n" between them, then
// "\n" and the closing bracket at the container's own depth; empty ones
// "{}" and "[]"; compact ones with no space at all.
#include "emit/json_text.h"

#include <charconv>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lockgraph {

using json = nlohmann::ordered_json;

JsonText::JsonText(std::string* out, int indent, unsigned depth)
    : out_(out), pretty_(indent >= 0), depth_(depth) {}

void JsonText::NewLine(size_t level) {
  out_->push_back('\n');
  out_->append(depth_ + 2 * level, ' ');
}

void JsonText::BeforeValue() {
  char buf[kShortBuffer];
  out_->append(buf, Separator(buf));
}

void JsonText::Open(char bracket) {
  BeforeValue();
  out_->push_back(bracket);
  counts_.push_back(0);
}

void JsonText::Close(char bracket) {
  const size_t count = counts_.back();
  counts_.pop_back();
  if (pretty_ && count > 0) NewLine(counts_.size());
  out_->push_back(bracket);
}

size_t JsonText::Separator(char* buf) {
  if (after_key_) {
    after_key_ = false;
    return 0;
  }
  if (counts_.empty()) return 0;
  const bool comma = counts_.back()++ > 0;
  const size_t indent = depth_ + 2 * counts_.size();
  if (pretty_ && indent > kMaxIndent) {  // deep: written out at once
    if (comma) out_->push_back(',');
    NewLine(counts_.size());
    return 0;
  }
  size_t n = 0;
  if (comma) buf[n++] = ',';
  if (pretty_) {
    buf[n++] = '\n';
    std::memset(buf + n, ' ', kMaxIndent);  // a constant size: a few stores, no call
    n += indent;
  }
  return n;
}

void JsonText::Key(std::string_view key) {
  if (ShortPlain(key, pretty_ ? ": " : ":")) {
    after_key_ = true;
    return;
  }
  BeforeValue();
  Escaped(key);
  out_->append(pretty_ ? ": " : ":");
  after_key_ = true;
}

void JsonText::String(std::string_view s) {
  if (ShortPlain(s, {})) return;
  BeforeValue();
  Escaped(s);
}

namespace {

// Bytes written as they are: printable ASCII but the quote and backslash.
struct PlainBytes {
  bool plain[256] = {};
  constexpr PlainBytes() {
    for (int c = 0x20; c < 0x7f; ++c) plain[c] = c != '"' && c != '\\';
  }
};
constexpr PlainBytes kPlain;

#if defined(__SSE2__)
// The bits of the sixteen bytes of `v` that are not plain. Signed compare:
// bytes from 0x80 are below ' ' too, so neither plain nor ASCII.
unsigned NotPlainBits(__m128i v) {
  const __m128i space = _mm_set1_epi8(' '), del = _mm_set1_epi8(0x7f),
                quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i not_plain =
      _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)),
                   _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
  return unsigned(_mm_movemask_epi8(not_plain));
}
#endif

// Whether every byte of `s` is plain, and whether every byte is ASCII.
// Sixteen bytes a step where SSE2 is: every string of every event passes
// here, about 3 KB an event in json.
void Classify(std::string_view s, bool* plain, bool* ascii) {
  size_t i = 0;
  unsigned bad = 0, high = 0;
#if defined(__SSE2__)
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    bad |= NotPlainBits(v);
    high |= unsigned(_mm_movemask_epi8(v));
  }
#endif
  bool p = bad == 0, a = high == 0;
  for (; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    p &= kPlain.plain[c];
    a &= c < 0x80;
  }
  *plain = p;
  *ascii = a;
}

// Copies n bytes without a call: a memcpy of a constant size is a move or
// two. Overlapping moves cover sizes between the powers of two.
void CopyShort(char* to, const char* from, size_t n) {
  if (n >= 16) {
    for (size_t i = 0; i + 16 < n; i += 16) std::memcpy(to + i, from + i, 16);
    std::memcpy(to + n - 16, from + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(to, from, 8);
    std::memcpy(to + n - 8, from + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else if (n > 0) {
    to[0] = from[0];
    to[n / 2] = from[n / 2];
    to[n - 1] = from[n - 1];
  }
}

// Whether every byte of p[0, n) is plain. Where SSE2 is, it reads whole
// sixteen-byte steps: p must have room up to the next multiple of 16, and
// the bytes past n are read but not counted.
bool AllPlain(const char* p, size_t n) {
#if defined(__SSE2__)
  for (size_t i = 0; i < n; i += 16) {
    unsigned bits = NotPlainBits(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
    if (n - i < 16) bits &= (1u << (n - i)) - 1;
    if (bits) return false;
  }
  return true;
#else
  for (size_t i = 0; i < n; ++i)
    if (!kPlain.plain[static_cast<unsigned char>(p[i])]) return false;
  return true;
#endif
}

}  // namespace

bool JsonText::ShortPlain(std::string_view s, std::string_view after) {
  if (s.size() > kShortText) return false;
  // Copied and checked apart first, since Separator() counts the value:
  // no call for either (keys and most values are a few bytes; about 160
  // instructions a string with a byte loop and three memcpy calls,
  // docs/performance.md "JSON's short strings").
  char text[kShortText + 16];
  CopyShort(text, s.data(), s.size());
  std::memset(text + s.size(), 0, 16);  // AllPlain reads up to 15 bytes past the string
  if (!AllPlain(text, s.size())) return false;
  char buf[kShortBuffer];
  size_t n = Separator(buf);
  buf[n++] = '"';
  CopyShort(buf + n, text, s.size());
  n += s.size();
  buf[n++] = '"';
  CopyShort(buf + n, after.data(), after.size());
  out_->append(buf, n + after.size());
  return true;
}

void JsonText::Escaped(std::string_view s) {
  bool plain, ascii;
  Classify(s, &plain, &ascii);
  if (plain) {
    out_->push_back('"');
    out_->append(s);
    out_->push_back('"');
    return;
  }
  if (!ascii) {
    // UTF-8, valid or not: nlohmann's own serializer (U+FFFD for invalid).
    nlohmann::detail::serializer<json> serializer(
        nlohmann::detail::output_adapter<char, std::string>(*out_), ' ',
        json::error_handler_t::replace);
    serializer.dump(json(std::string(s)), false, false, 0, 0);
    return;
  }
  // ASCII with quotes, backslashes or control characters (a statement's
  // newlines, a relation's quoted name): escaped as nlohmann escapes them,
  // without copying the string into a JSON value first.
  static constexpr char kHex[] = "0123456789abcdef";
  out_->push_back('"');
  size_t run = 0;  // start of the bytes not yet written
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (kPlain.plain[c] || c == 0x7f) continue;
    out_->append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out_->append("\\\""); break;
      case '\\': out_->append("\\\\"); break;
      case '\b': out_->append("\\b"); break;
      case '\f': out_->append("\\f"); break;
      case '\n': out_->append("\\n"); break;
      case '\r': out_->append("\\r"); break;
      case '\t': out_->append("\\t"); break;
      default: {
        const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out_->append(u, sizeof u);
      }
    }
  }
  out_->append(s.data() + run, s.size() - run);
  out_->push_back('"');
}

// A number goes out with its separator in one append (kShortBuffer has
// room for both).
template <typename Integer>
void JsonText::WholeNumber(Integer v) {
  char buf[kShortBuffer];
  const size_t n = Separator(buf);
  out_->append(buf, std::to_chars(buf + n, buf + sizeof buf, v).ptr);
}

void JsonText::Int(int64_t v) { WholeNumber(v); }
void JsonText::Uint(uint64_t v) { WholeNumber(v); }

void JsonText::Double(double v) {
  char buf[kShortBuffer];
  const size_t n = Separator(buf);
  if (!std::isfinite(v)) {
    out_->append(buf, n);
    out_->append("null");
    return;
  }
  out_->append(buf, nlohmann::detail::to_chars(buf + n, buf + sizeof buf, v));
}

void JsonText::Bool(bool v) {
  BeforeValue();
  out_->append(v ? "true" : "false");
}

void JsonText::Value(const json& j) {
  switch (j.type()) {
    case json::value_t::object:
      BeginObject();
      for (const auto& [key, value] : j.items()) {
        Key(key);
        Value(value);
      }
      EndObject();
      return;
    case json::value_t::array:
      BeginArray();
      for (const json& value : j) Value(value);
      EndArray();
      return;
    case json::value_t::string: return String(j.get_ref<const std::string&>());
    case json::value_t::number_integer: return Int(j.get<int64_t>());
    case json::value_t::number_unsigned: return Uint(j.get<uint64_t>());
    case json::value_t::number_float: return Double(j.get<double>());
    case json::value_t::boolean: return Bool(j.get<bool>());
    default: {
      // null, binary, discarded: as nlohmann writes them.
      BeforeValue();
      nlohmann::detail::serializer<json> serializer(
          nlohmann::detail::output_adapter<char, std::string>(*out_), ' ',
          json::error_handler_t::replace);
      serializer.dump(j, false, false, 0, 0);
    }
  }
}

}  // namespace lockgraph
