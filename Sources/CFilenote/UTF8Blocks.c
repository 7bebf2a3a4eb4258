// Why this is in C: Swift compiles for the x86-64 baseline, whose vectors
// are SSE2's 16 bytes without a byte shuffle, and it cannot mark one
// function as using more. Here one function is compiled for AVX2 and chosen
// at run time when the CPU and the kernel both support it: on the 100 MiB
// save of bench/README.md the check took 19 ms in Swift's 16-byte form and
// takes about 8 ms here, out of a save of 40 to 55 ms.
//
// The check is the one `UTF8Validator.blockIsWellFormed` makes, 32 bytes at a
// time: each byte is what the three before it allow. It is written as three
// table lookups on the high and low nibbles of a byte and the one before it
// (the method of Keiser and Lemire, "Validating UTF-8 in less than one
// instruction per byte", 2021), plus the bytes that are never used. The
// tables below flag, per nibble, which of these errors the pair can be:
//
//   too short      a lead byte not followed by a continuation byte
//   too long       an ASCII byte followed by a continuation byte
//   two continues  a continuation byte after a continuation byte (allowed
//                  only as the third or fourth byte of a sequence, which the
//                  bytes two and three back tell)
//   overlong 2/3/4 C0 or C1 and anything; E0 then 80–9F; F0 then 80–8F
//   surrogate      ED then A0–BF
//   too large      F4 then 90–BF; F5–FF and anything
//
// A pair is ill formed when a flag is set in all three lookups.

#include "CFilenote.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

enum {
  too_short = 1 << 0,
  too_long = 1 << 1,
  overlong_3 = 1 << 2,
  too_large = 1 << 3,
  surrogate = 1 << 4,
  overlong_2 = 1 << 5,
  // One bit for two errors: F4 then 90–BF is too large, F0 then 80–8F is
  // overlong, and the low nibble of the lead (4 or 0) tells them apart.
  too_large_1000 = 1 << 6,
  overlong_4 = 1 << 6,
  two_continues = 1 << 7,
  carry = too_short | too_long | two_continues,
};

#define TABLE(...) _mm256_setr_epi8(__VA_ARGS__, __VA_ARGS__)

__attribute__((target("avx2"))) static size_t well_formed_blocks_avx2(
    const unsigned char *bytes, size_t start, size_t count) {
  // The first byte of a pair, by its high nibble.
  const __m256i first_high = TABLE(
      too_long, too_long, too_long, too_long, too_long, too_long, too_long, too_long,
      (char)two_continues, (char)two_continues, (char)two_continues, (char)two_continues,
      too_short | overlong_2, too_short, too_short | overlong_3 | surrogate,
      too_short | too_large | too_large_1000 | overlong_4);
  // The first byte of a pair, by its low nibble.
  const __m256i first_low = TABLE(
      (char)(carry | overlong_3 | overlong_2 | overlong_4), (char)(carry | overlong_2),
      (char)carry, (char)carry, (char)(carry | too_large),
      (char)(carry | too_large | too_large_1000), (char)(carry | too_large | too_large_1000),
      (char)(carry | too_large | too_large_1000), (char)(carry | too_large | too_large_1000),
      (char)(carry | too_large | too_large_1000), (char)(carry | too_large | too_large_1000),
      (char)(carry | too_large | too_large_1000), (char)(carry | too_large | too_large_1000),
      (char)(carry | too_large | too_large_1000 | surrogate),
      (char)(carry | too_large | too_large_1000), (char)(carry | too_large | too_large_1000));
  // The second byte, by its high nibble.
  const __m256i second_high = TABLE(
      too_short, too_short, too_short, too_short, too_short, too_short, too_short, too_short,
      (char)(too_long | overlong_2 | two_continues | overlong_3 | too_large_1000 | overlong_4),
      (char)(too_long | overlong_2 | two_continues | overlong_3 | too_large),
      (char)(too_long | overlong_2 | two_continues | surrogate | too_large),
      (char)(too_long | overlong_2 | two_continues | surrogate | too_large),
      too_short, too_short, too_short, too_short);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  size_t index = start;
  for (; index + 32 <= count; index += 32) {
    __m256i current = _mm256_loadu_si256((const __m256i *)(bytes + index));
    __m256i back3 = _mm256_loadu_si256((const __m256i *)(bytes + index - 3));
    if (_mm256_movemask_epi8(_mm256_or_si256(current, back3)) == 0) continue;  // all ASCII
    __m256i back1 = _mm256_loadu_si256((const __m256i *)(bytes + index - 1));
    __m256i back2 = _mm256_loadu_si256((const __m256i *)(bytes + index - 2));
    __m256i pair = _mm256_and_si256(
        _mm256_and_si256(
            _mm256_shuffle_epi8(first_high, _mm256_and_si256(_mm256_srli_epi16(back1, 4), nibble)),
            _mm256_shuffle_epi8(first_low, _mm256_and_si256(back1, nibble))),
        _mm256_shuffle_epi8(second_high, _mm256_and_si256(_mm256_srli_epi16(current, 4), nibble)));
    // The high bit where a continuation byte must be the third or fourth of
    // a sequence: E0 or above two back, F0 or above three back.
    __m256i third_or_fourth = _mm256_and_si256(
        _mm256_or_si256(
            _mm256_subs_epu8(back2, _mm256_set1_epi8((char)(0xE0 - 0x80))),
            _mm256_subs_epu8(back3, _mm256_set1_epi8((char)(0xF0 - 0x80)))),
        _mm256_set1_epi8((char)0x80));
    // The bytes never used, judged where they stand, as the Swift check does
    // (the pairs judge a lead byte only through the byte after it).
    __m256i never_used = _mm256_or_si256(
        _mm256_subs_epu8(current, _mm256_set1_epi8((char)0xF4)),
        _mm256_cmpeq_epi8(
            _mm256_and_si256(current, _mm256_set1_epi8((char)0xFE)), _mm256_set1_epi8((char)0xC0)));
    __m256i error = _mm256_or_si256(_mm256_xor_si256(pair, third_or_fourth), never_used);
    if (!_mm256_testz_si256(error, error)) break;
  }
  return index;
}

// Whether the CPU has AVX2 and the kernel saves its registers (XGETBV says
// the YMM state is enabled). Asked once, on the first large check: CPUID is
// slow in a virtual machine, and a short run never needs the answer.
static int avx2_usable(void) {
  // Relaxed atomics: two threads may ask at once, and both get one answer.
  static int known = -1;
  int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (answer >= 0) return answer;
  unsigned a, b, c, d;
  int usable = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX)) {
    unsigned low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2)) usable = 1;
  }
  __atomic_store_n(&known, usable, __ATOMIC_RELAXED);
  return usable;
}
#endif

size_t filenote_utf8_well_formed_blocks(const unsigned char *bytes, size_t start, size_t count) {
#if defined(__x86_64__)
  if (start >= 3 && avx2_usable()) return well_formed_blocks_avx2(bytes, start, count);
#endif
  return start;
}
