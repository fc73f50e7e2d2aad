// See utf8.h.
#include "text/utf8.h"

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

}  // namespace lockgraph
