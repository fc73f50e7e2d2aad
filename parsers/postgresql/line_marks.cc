// See line_marks.h. Each 64-byte word gives two masks in one pass: its
// newlines, and its label marks (a colon with a space one and two bytes on,
// read with loads one and two bytes further). AVX-512 or AVX2 where the
// processor has them, SSE2 (every x86-64) otherwise, a byte loop elsewhere.
#include "parsers/postgresql/line_marks.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lockgraph {
namespace {

// Each function marks `words` words from `p`, reading two bytes past the
// last: newline[w], and label[w] (a ':' with a space one and two bytes on).

#if !defined(__x86_64__)
void MarkPlain(const char* p, size_t words, uint64_t* newline, uint64_t* label) {
  for (size_t w = 0; w < words; ++w, p += 64) {
    uint64_t nl = 0, mark = 0;
    for (unsigned i = 0; i < 64; ++i) {
      nl |= uint64_t(p[i] == '\n') << i;
      mark |= uint64_t(p[i] == ':' && p[i + 1] == ' ' && p[i + 2] == ' ') << i;
    }
    newline[w] = nl;
    label[w] = mark;
  }
}
#endif

#if defined(__x86_64__)
// One 16-byte quarter: its newlines and label marks, as 16 bits each.
void Quarter16(const char* p, unsigned* nl, unsigned* mark) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i one = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 1));
  const __m128i two = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2));
  const __m128i space = _mm_set1_epi8(' ');
  *nl = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))));
  *mark = unsigned(_mm_movemask_epi8(
      _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(':')),
                    _mm_and_si128(_mm_cmpeq_epi8(one, space), _mm_cmpeq_epi8(two, space)))));
}

void MarkSse2(const char* p, size_t words, uint64_t* newline, uint64_t* label) {
  for (size_t w = 0; w < words; ++w, p += 64) {
    uint64_t nl = 0, mark = 0;
    for (unsigned q = 0; q < 4; ++q) {
      unsigned n, m;
      Quarter16(p + 16 * q, &n, &m);
      nl |= uint64_t(n) << (16 * q);
      mark |= uint64_t(m) << (16 * q);
    }
    newline[w] = nl;
    label[w] = mark;
  }
}

// One 32-byte half: its newlines and label marks, as 32 bits each.
__attribute__((target("avx2"))) void Half32(const char* p, unsigned* nl, unsigned* mark) {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i one = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
  const __m256i two = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 2));
  const __m256i space = _mm256_set1_epi8(' ');
  *nl = unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n'))));
  *mark = unsigned(_mm256_movemask_epi8(
      _mm256_and_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(':')),
                       _mm256_and_si256(_mm256_cmpeq_epi8(one, space),
                                        _mm256_cmpeq_epi8(two, space)))));
}

__attribute__((target("avx2"))) void MarkAvx2(const char* p, size_t words, uint64_t* newline,
                                               uint64_t* label) {
  for (size_t w = 0; w < words; ++w, p += 64) {
    unsigned n_lo, m_lo, n_hi, m_hi;
    Half32(p, &n_lo, &m_lo);
    Half32(p + 32, &n_hi, &m_hi);
    newline[w] = uint64_t(n_lo) | uint64_t(n_hi) << 32;
    label[w] = uint64_t(m_lo) | uint64_t(m_hi) << 32;
  }
}

__attribute__((target("avx512bw"))) void MarkAvx512(const char* p, size_t words,
                                                     uint64_t* newline, uint64_t* label) {
  const __m512i nl = _mm512_set1_epi8('\n'), colon = _mm512_set1_epi8(':'),
                space = _mm512_set1_epi8(' ');
  for (size_t w = 0; w < words; ++w, p += 64) {
    const __m512i v = _mm512_loadu_si512(p);
    newline[w] = _mm512_cmpeq_epi8_mask(v, nl);
    __mmask64 mark = _mm512_cmpeq_epi8_mask(v, colon);
    mark = _mm512_mask_cmpeq_epi8_mask(mark, _mm512_loadu_si512(p + 1), space);
    label[w] = _mm512_mask_cmpeq_epi8_mask(mark, _mm512_loadu_si512(p + 2), space);
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

// `words` words from `p` (two bytes past them readable), with `simd` at most.
void MarkWords(LineMarks::Simd simd, const char* p, size_t words, uint64_t* newline,
               uint64_t* label) {
  using Simd = LineMarks::Simd;
#if defined(__x86_64__)
  if ((simd == Simd::kBest || simd == Simd::kAvx512) && HasAvx512())
    return MarkAvx512(p, words, newline, label);
  if (simd != Simd::kSse2 && HasAvx2()) return MarkAvx2(p, words, newline, label);
  MarkSse2(p, words, newline, label);
#else
  (void)simd;
  MarkPlain(p, words, newline, label);
#endif
}

}  // namespace

void LineMarks::Scan(std::string_view block) {
  size_ = block.size();
  const size_t words = block.size() / 64 + 1;  // the last one partial (or empty)
  newline_.resize(words);
  label_.resize(words);
  // The words whose 64 bytes and two more lie in the block are read in
  // place; the last one or two from a copy padded with zeros (none of the
  // bytes looked for: no mark runs past the block's end). `rest` has room
  // for more.
  const size_t direct = block.size() >= 66 ? std::min(words, (block.size() - 66) / 64 + 1) : 0;
  MarkWords(simd_, block.data(), direct, newline_.data(), label_.data());
  char rest[4 * 64 + 2] = {};
  std::memcpy(rest, block.data() + direct * 64, block.size() - direct * 64);
  MarkWords(simd_, rest, words - direct, &newline_[direct], &label_[direct]);
}

}  // namespace lockgraph
