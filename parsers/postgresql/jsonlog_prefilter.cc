// See jsonlog_prefilter.h.
#include "parsers/postgresql/jsonlog_prefilter.h"

#include <emmintrin.h>

#include <cstring>

namespace lockgraph {
namespace {

constexpr std::string_view kMessageKey = "\"message\"";

// memmem for the short quoted keys searched here, 16 positions at a time: a
// position is a candidate when the needle's second and last bytes are where
// they should be (the key's first letter and its closing quote: rare in a
// log line, unlike two quotes at the key's distance), and only candidates
// are compared in full (needles of three bytes or more). glibc's memmem was
// a third of jsonlog's time.
size_t Find(std::string_view hay, std::string_view needle, size_t from = 0) {
  const size_t n = needle.size();
  if (from >= hay.size() || hay.size() - from < n) return std::string_view::npos;
  const char* base = hay.data();
  const size_t last_start = hay.size() - n;  // the last position a match can start at
  size_t i = from;
  const __m128i first = _mm_set1_epi8(needle[1]), last = _mm_set1_epi8(needle.back());
  for (; i + 16 <= last_start + 1; i += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + i + 1));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + i + n - 1));
    unsigned mask = unsigned(_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last))));
    while (mask) {
      const size_t at = i + size_t(__builtin_ctz(mask));
      if (base[at] == needle[0] && std::memcmp(base + at + 2, needle.data() + 2, n - 3) == 0)
        return at;
      mask &= mask - 1;
    }
  }
  for (; i <= last_start; ++i)
    if (base[i] == needle.front() && std::memcmp(base + i, needle.data(), n) == 0) return i;
  return std::string_view::npos;
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
