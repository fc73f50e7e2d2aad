// See label_scan.h.
#include "parsers/postgresql/label_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lockgraph {
namespace {

constexpr size_t kNone = std::string_view::npos;

// Where the first ":  " is in `s`, or npos. A prefix is full of colons (the
// time has two) that a memchr-based find() stops at; comparing 16 positions
// at a time finds the label in one to five steps.
size_t FindColonAndTwoSpaces(std::string_view s) {
  const char* p = s.data();
  const size_t n = s.size();
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i colon = _mm_set1_epi8(':'), space = _mm_set1_epi8(' ');
  for (; i + 18 <= n; i += 16) {
    __m128i a = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), colon);
    __m128i b = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1)), space);
    __m128i c = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 2)), space);
    int bits = _mm_movemask_epi8(_mm_and_si128(a, _mm_and_si128(b, c)));
    if (bits) return i + size_t(__builtin_ctz(unsigned(bits)));
  }
#endif
  for (; i + 3 <= n; ++i)
    if (p[i] == ':' && p[i + 1] == ' ' && p[i + 2] == ' ') return i;
  return kNone;
}

// Where the word that ends `s` starts: just after the last ' ', ']', ':' or
// '>', or 0. Sixteen bytes at a time from the end: a label's word ("LOG",
// "STATEMENT") fits in one step.
size_t AfterLastWordEnd(std::string_view s) {
  size_t end = s.size();
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' '), bracket = _mm_set1_epi8(']'),
                colon = _mm_set1_epi8(':'), angle = _mm_set1_epi8('>');
  for (; end >= 16; end -= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + end - 16));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, bracket)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, angle)));
    if (const unsigned bits = unsigned(_mm_movemask_epi8(hit)))
      return end - 16 + size_t(31 - __builtin_clz(bits)) + 1;
  }
#endif
  // A plain loop: find_last_of calls memchr once per byte it steps over.
  while (end > 0 && !IsLabelWordEnd(s[end - 1])) --end;
  return end;
}

}  // namespace

size_t FindLabelStart(std::string_view line, std::string_view* word) {
  // The first "WORD:  " within the first 512 bytes; WORD runs back to a
  // space, ']', ':' or '>' (the usual ends of a prefix) or the line start.
  return LabelStartAt(line, FindLabelColon(line), word);
}

size_t FindLabelColon(std::string_view line) {
  return FindColonAndTwoSpaces(line.substr(0, kLabelSearchBytes));
}

size_t LabelStartAt(std::string_view line, size_t colon, std::string_view* word) {
  if (colon == kNone || colon == 0) return kNone;
  const size_t start = AfterLastWordEnd(line.substr(0, colon));
  *word = line.substr(start, colon - start);
  return start;
}

}  // namespace lockgraph
