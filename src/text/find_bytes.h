// The first of one or two given bytes in a range of a line, sixteen bytes a
// step where SSE2 is (every x86-64), a byte loop elsewhere. For the short
// fields of csvlog's records, where memchr's call costs more than the
// search. Measured in docs/performance.md (csvlog's fields).
#pragma once

#include <cstddef>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lockgraph {

namespace find_bytes_detail {

#if defined(__SSE2__)
// Bits of the bytes of the 16 at `p` that equal `a` or `b` (b == a for one).
inline unsigned Hits(const char* p, __m128i a, __m128i b) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return unsigned(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, a), _mm_cmpeq_epi8(v, b))));
}
#endif

}  // namespace find_bytes_detail

/// The index of the first byte of s[i, n) that is `a` or `b`, or n when
/// there is none. Reads nothing outside s[0, n).
inline size_t FindEitherByte(const char* s, size_t i, size_t n, char a, char b) {
#if defined(__SSE2__)
  using find_bytes_detail::Hits;
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
  for (; i + 16 <= n; i += 16)
    if (const unsigned bits = Hits(s + i, va, vb)) return i + unsigned(__builtin_ctz(bits));
  if (i < n && n >= 16) {
    // The tail: the last sixteen bytes of the range, those before i masked off.
    const size_t base = n - 16;
    const unsigned bits = Hits(s + base, va, vb) >> (i - base);
    return bits ? i + unsigned(__builtin_ctz(bits)) : n;
  }
#endif
  while (i < n && s[i] != a && s[i] != b) ++i;
  return i;
}

/// The index of the first `a` in s[i, n), or n.
inline size_t FindByte(const char* s, size_t i, size_t n, char a) { return FindEitherByte(s, i, n, a, a); }

}  // namespace lockgraph
