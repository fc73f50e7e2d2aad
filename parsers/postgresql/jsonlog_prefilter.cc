// See jsonlog_prefilter.h.
#include "parsers/postgresql/jsonlog_prefilter.h"

#include <cstring>

namespace lockgraph {
namespace {

constexpr std::string_view kMessageKey = "\"message\"";

size_t Find(std::string_view hay, std::string_view needle, size_t from = 0) {
  if (from >= hay.size()) return std::string_view::npos;
  const void* p = memmem(hay.data() + from, hay.size() - from, needle.data(), needle.size());
  return p ? size_t(static_cast<const char*>(p) - hay.data()) : std::string_view::npos;
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

size_t SkipBlanks(std::string_view s, size_t i) {
  while (i < s.size() && IsBlank(s[i])) ++i;
  return i;
}

}  // namespace

std::optional<std::string_view> PlainJsonlogMessage(std::string_view line) {
  size_t first = SkipBlanks(line, 0);
  size_t last = line.size();
  while (last > first && IsBlank(line[last - 1])) --last;
  if (first >= last || line[first] != '{' || line[last - 1] != '}') return std::nullopt;
  const size_t key = Find(line, kMessageKey);
  if (key == std::string_view::npos) return std::nullopt;
  // A second "message" (a statement quoting one, a nested object) could be
  // the real key: only the full parser can tell.
  if (Find(line, kMessageKey, key + kMessageKey.size()) != std::string_view::npos) return std::nullopt;
  const std::string_view before = line.substr(0, key);
  if (Find(before, "\"timestamp\"") == std::string_view::npos &&
      Find(before, "\"log_time\"") == std::string_view::npos)
    return std::nullopt;
  size_t i = SkipBlanks(line, key + kMessageKey.size());
  if (i >= last || line[i] != ':') return std::nullopt;
  i = SkipBlanks(line, i + 1);
  if (i >= last || line[i] != '"') return std::nullopt;
  const size_t start = i + 1;
  const void* quote = std::memchr(line.data() + start, '"', last - start);
  if (!quote) return std::nullopt;
  const std::string_view value(line.data() + start,
                               static_cast<const char*>(quote) - (line.data() + start));
  if (std::memchr(value.data(), '\\', value.size())) return std::nullopt;
  return value;
}

}  // namespace lockgraph
