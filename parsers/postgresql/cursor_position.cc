// See cursor_position.h. The suffixes are the translations of
// " at character %d" in the server catalogues (catalog_data.cc).
#include "parsers/postgresql/cursor_position.h"

#include <charconv>
#include <vector>

#include "parsers/postgresql/catalog.h"

namespace lockgraph {
namespace {

struct Suffix {
  std::string_view before;  // text before the number
  std::string_view after;   // text after it
};

// Every known " at character %d", English first (by far the most common),
// split around its number: catalog.h, PgText::kAtCharacter.
const std::vector<Suffix>& Suffixes() {
  static const std::vector<Suffix> suffixes = [] {
    std::vector<Suffix> out;
    for (const PgTextVariant& v : PgTextVariants(PgText::kAtCharacter)) {
      size_t at = v.text.find("%d");
      if (at == std::string_view::npos || v.text.find('%', at + 2) != std::string_view::npos)
        continue;
      out.push_back({v.text.substr(0, at), v.text.substr(at + 2)});
    }
    return out;
  }();
  return suffixes;
}

bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

}  // namespace

std::string_view StripCursorPosition(std::string_view message,
                                     std::optional<int64_t>* position) {
  if (message.empty()) return message;
  const char last = message.back();
  if (!(last >= '0' && last <= '9') && static_cast<unsigned char>(last) < 0x80 && last != ')' &&
      last != ' ')
    return message;
  for (const Suffix& s : Suffixes()) {
    if (!EndsWith(message, s.after)) continue;
    std::string_view rest = message.substr(0, message.size() - s.after.size());
    size_t digits = rest.size();
    while (digits > 0 && rest[digits - 1] >= '0' && rest[digits - 1] <= '9') --digits;
    if (digits == rest.size() || !EndsWith(rest.substr(0, digits), s.before)) continue;
    if (position) {
      int64_t n = 0;
      std::from_chars(rest.data() + digits, rest.data() + rest.size(), n);
      *position = n;
    }
    return message.substr(0, digits - s.before.size());
  }
  return message;
}

}  // namespace lockgraph
