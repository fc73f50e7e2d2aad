// See html_escape.h.
#include "emit/html_escape.h"

#include "emit/text_safety.h"

namespace lockgraph {

std::string HtmlText(std::string_view text) {
  std::string printable = PrintableText(text);
  std::string out;
  out.reserve(printable.size() + printable.size() / 8);
  for (char c : printable) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string HtmlId(std::string_view prefix, std::string_view key) {
  std::string out(prefix);
  out += '-';
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    out += ok ? c : '_';
  }
  return out;
}

}  // namespace lockgraph
