// See cursor_position.h. The suffixes are the translations of
// " at character %d" in src/backend/po/*.po (postgresql-logs.md §8).
#include "parsers/postgresql/cursor_position.h"

#include <charconv>

namespace lockgraph {
namespace {

struct Suffix {
  std::string_view before;  // text before the number
  std::string_view after;   // text after it
};

// English first: it is by far the most common.
constexpr Suffix kSuffixes[] = {
    {" at character ", ""},
    {" bei Zeichen ", ""},            // de
    {" au caractère ", ""},           // fr
    {"(", "文字目)"},                 // ja
    {" en carácter ", ""},            // es
    {" (символ ", ")"},               // ru
    {" 第 ", " 个字符处"},            // zh_CN
    {" no caractere ", ""},           // pt_BR
    {" przy znaku ", ""},             // pl
    {" ", " 번째 문자 부근"},         // ko
    {" ", " karakterinde "},          // tr
};

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
  for (const Suffix& s : kSuffixes) {
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
