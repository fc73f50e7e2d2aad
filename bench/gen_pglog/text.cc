// Number and string formatting of gen_pglog: the escapes of each log format
// and the civil time of a timestamp. See model.h.
#include "model.h"
#include <charconv>
#include <cstring>

namespace gen_pglog {

void AppU(std::string& o, uint64_t v) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  o.append(b, r.ptr);
}
void AppI(std::string& o, int64_t v) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  o.append(b, r.ptr);
}
void Pad(std::string& o, uint64_t v, int width) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v);
  for (int n = static_cast<int>(r.ptr - b); n < width; ++n) o += '0';
  o.append(b, r.ptr);
}
// "%ld.%03d": milliseconds with microseconds, as PostgreSQL prints durations.
void AppMs(std::string& o, int64_t us) {
  AppI(o, us / 1000);
  o += '.';
  Pad(o, static_cast<uint64_t>(us % 1000), 3);
}
void AppHex(std::string& o, uint64_t v) {
  char b[24];
  auto r = std::to_chars(b, b + sizeof b, v, 16);
  o.append(b, r.ptr);
}

// stderr: every embedded newline is followed by a TAB (append_with_tabs).
void AppTabbed(std::string& o, std::string_view s) {
  size_t i = 0;
  while (true) {
    const void* nl = std::memchr(s.data() + i, '\n', s.size() - i);
    if (!nl) {
      o.append(s.data() + i, s.size() - i);
      return;
    }
    size_t j = static_cast<const char*>(nl) - s.data();
    o.append(s.data() + i, j - i);
    o += "\n\t";
    i = j + 1;
  }
}
// csvlog: "..." with every " doubled (appendCSVLiteral); newlines stay raw.
void AppCsv(std::string& o, std::string_view s) {
  o += '"';
  size_t i = 0;
  while (true) {
    const void* q = std::memchr(s.data() + i, '"', s.size() - i);
    if (!q) {
      o.append(s.data() + i, s.size() - i);
      break;
    }
    size_t j = static_cast<const char*>(q) - s.data();
    o.append(s.data() + i, j + 1 - i);
    o += '"';
    i = j + 1;
  }
  o += '"';
}
// jsonlog: escape_json.
void AppJson(std::string& o, std::string_view s) {
  o += '"';
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    o.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '\b': o += "\\b"; break;
      case '\f': o += "\\f"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      default: {
        static const char* hex = "0123456789abcdef";
        o += "\\u00";
        o += hex[c >> 4];
        o += hex[c & 15];
      }
    }
  }
  o.append(s.data() + run, s.size() - run);
  o += '"';
}

// ---------------------------------------------------------------- time

// "YYYY-MM-DD HH:MM:SS" of a UTC epoch second (Howard Hinnant's civil_from_days).
void AppCivil(std::string& o, int64_t sec) {
  int64_t days = sec / 86400, rem = sec % 86400;
  int64_t z = days + 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  uint64_t doe = static_cast<uint64_t>(z - era * 146097);
  uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = static_cast<int64_t>(yoe) + era * 400;
  uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  uint64_t mp = (5 * doy + 2) / 153;
  uint64_t d = doy - (153 * mp + 2) / 5 + 1;
  uint64_t m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
  Pad(o, static_cast<uint64_t>(y), 4);
  o += '-';
  Pad(o, m, 2);
  o += '-';
  Pad(o, d, 2);
  o += ' ';
  Pad(o, static_cast<uint64_t>(rem / 3600), 2);
  o += ':';
  Pad(o, static_cast<uint64_t>(rem / 60 % 60), 2);
  o += ':';
  Pad(o, static_cast<uint64_t>(rem % 60), 2);
}

}  // namespace gen_pglog
