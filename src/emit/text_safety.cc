// See text_safety.h.
#include "emit/text_safety.h"

#include <cstdio>

namespace lockgraph {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is invalid.
size_t Utf8Length(std::string_view s, size_t i) {
  unsigned char c = s[i];
  if (c < 0x80) return 1;
  size_t n = (c >= 0xc2 && c <= 0xdf) ? 2 : (c >= 0xe0 && c <= 0xef) ? 3
           : (c >= 0xf0 && c <= 0xf4) ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  unsigned char c1 = s[i + 1];
  if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f) ||  // overlong, surrogate
      (c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 > 0x8f))    // overlong, > U+10FFFF
    return 0;
  return n;
}

}  // namespace

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = Utf8Length(text, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string PrintableText(std::string_view text) {
  std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (unsigned char c : valid) {
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

std::string OneLineText(std::string_view text) {
  std::string printable = PrintableText(text);
  std::string out;
  out.reserve(printable.size());
  for (char c : printable) {
    if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string IndentedText(std::string_view text, const std::string& indent) {
  std::string out;
  for (char c : PrintableText(text)) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

}  // namespace lockgraph
