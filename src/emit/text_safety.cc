// See text_safety.h.
#include "emit/text_safety.h"

#include <cstdio>

#include "text/utf8.h"

namespace lockgraph {

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
