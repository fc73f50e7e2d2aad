// See line_marks.h. Each 64-byte word gives three masks (newlines, colons,
// spaces); a label mark is a colon with a space one and two bytes on, so
// it needs the next word's spaces. AVX-512 or AVX2 where the processor has
// them, SSE2 (every x86-64) otherwise, a byte loop elsewhere.
#include "parsers/postgresql/line_marks.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lockgraph {
namespace {

struct WordMasks {
  uint64_t newline, colon, space;
};

#if !defined(__x86_64__)
WordMasks MasksPlain(const char* p) {
  WordMasks m{0, 0, 0};
  for (unsigned i = 0; i < 64; ++i) {
    m.newline |= uint64_t(p[i] == '\n') << i;
    m.colon |= uint64_t(p[i] == ':') << i;
    m.space |= uint64_t(p[i] == ' ') << i;
  }
  return m;
}
#endif

#if defined(__x86_64__)
uint64_t Bits16(__m128i a, __m128i b, __m128i c, __m128i d, __m128i want) {
  return uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(a, want)))) |
         uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(b, want)))) << 16 |
         uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(c, want)))) << 32 |
         uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(d, want)))) << 48;
}

WordMasks MasksSse2(const char* p) {
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16));
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32));
  const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 48));
  return {Bits16(a, b, c, d, _mm_set1_epi8('\n')), Bits16(a, b, c, d, _mm_set1_epi8(':')),
          Bits16(a, b, c, d, _mm_set1_epi8(' '))};
}

__attribute__((target("avx2"))) uint64_t Bits32(__m256i lo, __m256i hi, char c) {
  const __m256i want = _mm256_set1_epi8(c);
  return uint64_t(unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, want)))) |
         uint64_t(unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, want)))) << 32;
}

__attribute__((target("avx2"))) void ScanAvx2(const char* p, size_t words, uint64_t* newline,
                                               uint64_t* colon, uint64_t* space) {
  for (size_t w = 0; w < words; ++w, p += 64) {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    newline[w] = Bits32(lo, hi, '\n');
    colon[w] = Bits32(lo, hi, ':');
    space[w] = Bits32(lo, hi, ' ');
  }
}

__attribute__((target("avx512bw"))) void ScanAvx512(const char* p, size_t words,
                                                     uint64_t* newline, uint64_t* colon,
                                                     uint64_t* space) {
  const __m512i nl = _mm512_set1_epi8('\n'), co = _mm512_set1_epi8(':'),
                sp = _mm512_set1_epi8(' ');
  for (size_t w = 0; w < words; ++w, p += 64) {
    const __m512i v = _mm512_loadu_si512(p);
    newline[w] = _mm512_cmpeq_epi8_mask(v, nl);
    colon[w] = _mm512_cmpeq_epi8_mask(v, co);
    space[w] = _mm512_cmpeq_epi8_mask(v, sp);
  }
}

bool HasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512bw");
  return has;
}

bool HasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif

// The masks of `words` whole words from `p`, with `simd` at most.
void ScanWords(LineMarks::Simd simd, const char* p, size_t words, uint64_t* newline,
               uint64_t* colon, uint64_t* space) {
  using Simd = LineMarks::Simd;
#if defined(__x86_64__)
  if ((simd == Simd::kBest || simd == Simd::kAvx512) && HasAvx512())
    return ScanAvx512(p, words, newline, colon, space);
  if (simd != Simd::kSse2 && HasAvx2()) return ScanAvx2(p, words, newline, colon, space);
#else
  (void)simd;
#endif
  for (size_t w = 0; w < words; ++w, p += 64) {
#if defined(__x86_64__)
    const WordMasks m = MasksSse2(p);
#else
    const WordMasks m = MasksPlain(p);
#endif
    newline[w] = m.newline;
    colon[w] = m.colon;
    space[w] = m.space;
  }
}

}  // namespace

void LineMarks::Scan(std::string_view block) {
  size_ = block.size();
  const size_t whole = block.size() / 64;
  const size_t words = whole + 1;  // the last one partial (or empty)
  newline_.resize(words);
  label_.resize(words);  // the colons first, turned into label marks below
  space_.resize(words + 1);
  ScanWords(simd_, block.data(), whole, newline_.data(), label_.data(), space_.data());
  char tail[64] = {};  // zeros: none of the bytes looked for
  std::memcpy(tail, block.data() + whole * 64, block.size() - whole * 64);
  ScanWords(simd_, tail, 1, &newline_[whole], &label_[whole], &space_[whole]);
  space_[words] = 0;
  for (size_t w = 0; w < words; ++w) {
    const uint64_t one_on = (space_[w] >> 1) | (space_[w + 1] << 63);
    const uint64_t two_on = (space_[w] >> 2) | (space_[w + 1] << 62);
    label_[w] &= one_on & two_on;
  }
}

}  // namespace lockgraph
