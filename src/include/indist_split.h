/* The small path's split of one-byte-labelled rows into words, a vector at a time
   (declared in src/_sorted.pyx). Needs sweep_c.h (INDIST_SIMD_TARGET). */
#ifndef INDIST_FAST_SPLIT_H
#define INDIST_FAST_SPLIT_H

#include <stdint.h>
#include "indist_fast/_core/include/sweep_c.h"

/* _split_words for one-byte labels, eight float64 or sixteen float32 rows at a
   time (a service call's bool or int8 labels): each vector's words go to the front
   (scores >= 0) and the back (negative ones) by two compressed stores. The rows a
   vector leaves are the caller's. *front and *back are the next free slots (back
   counts down, inclusive); returns whether a row was bad (NaN, a third label). The
   words are _word's: the sum with +0.0 makes -0.0 zero, and "not below 0" keeps
   NaN (bad anyway) and zero at the front, as the scalar loop has them. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(_WIN32)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
/* NAME: the split for score type T in LANES lanes: P names the float vectors'
   intrinsics (pd, ps), E the integer lanes' (epi64, epi32), LABELS loads LANES
   one-byte labels. */
#define INDIST_SPLIT(NAME, T, W, VEC, MASK, LANES, P, E, BITS, LABELS)          \
INDIST_SIMD_TARGET static int NAME(                                              \
        const uint8_t* y, const T* s, Py_ssize_t n, uint8_t pos, uint8_t neg,     \
        int has_neg, W* buf, Py_ssize_t* front, Py_ssize_t* back,                 \
        Py_ssize_t* n_pos, Py_ssize_t* done) {                                    \
    const VEC zero = _mm512_setzero_##P();                                        \
    const __m512i top = _mm512_set1_##E((W)1 << (BITS - 1));                     \
    const __m512i one = _mm512_set1_##E(1);                                       \
    const __m512i vpos = _mm512_set1_##E(pos), vneg = _mm512_set1_##E(neg);      \
    Py_ssize_t i = 0, f = *front, b = *back + 1, k = 0;                           \
    int bad = 0;                                                                  \
    for (; i + LANES <= n; i += LANES) {                                          \
        VEC x = _mm512_add_##P(_mm512_loadu_##P(s + i), zero);                    \
        __m512i lab = _mm512_cvtepu8_##E(LABELS((const __m128i*)(y + i)));        \
        MASK p = _mm512_cmpeq_##E##_mask(lab, vpos);                              \
        MASK q = has_neg ? _mm512_cmpeq_##E##_mask(lab, vneg) : 0;                \
        bad |= (_mm512_cmp_##P##_mask(x, x, _CMP_UNORD_Q) | (MASK)~(p | q)) != 0; \
        __m512i u = _mm512_cast##P##_si512(x);                                    \
        __m512i w = _mm512_slli_##E(_mm512_xor_si512(                             \
            u, _mm512_or_si512(_mm512_srai_##E(u, BITS - 1), top)), 1);           \
        w = _mm512_mask_or_##E(w, p, w, one);                                     \
        MASK up = _mm512_cmp_##P##_mask(x, zero, _CMP_NLT_UQ);                    \
        int m = __builtin_popcount(up);                                           \
        _mm512_mask_compressstoreu_##E(buf + f, up, w);                           \
        b -= LANES - m;                                                           \
        _mm512_mask_compressstoreu_##E(buf + b, (MASK)~up, w);                    \
        f += m;                                                                   \
        k += __builtin_popcount(p);                                               \
    }                                                                             \
    *front = f; *back = b - 1; *n_pos += k; *done = i;                            \
    return bad;                                                                   \
}
INDIST_SPLIT(indist_split64_avx512, double, uint64_t, __m512d, __mmask8, 8, pd, epi64,
             64, _mm_loadl_epi64)
INDIST_SPLIT(indist_split32_avx512, float, uint32_t, __m512, __mmask16, 16, ps, epi32,
             32, _mm_loadu_si128)
static inline int indist_split_bytes(const uint8_t* y, const void* s, int wide,
        Py_ssize_t n, uint8_t pos, uint8_t neg, int has_neg, void* buf,
        Py_ssize_t* front, Py_ssize_t* back, Py_ssize_t* n_pos, Py_ssize_t* done) {
    *done = 0;
    if (!indist_simd_on()) return 0;
    return wide ? indist_split64_avx512(y, (const double*)s, n, pos, neg, has_neg,
                                        (uint64_t*)buf, front, back, n_pos, done)
                : indist_split32_avx512(y, (const float*)s, n, pos, neg, has_neg,
                                        (uint32_t*)buf, front, back, n_pos, done);
}
#pragma GCC diagnostic pop
#else
static inline int indist_split_bytes(const uint8_t* y, const void* s, int wide,
        Py_ssize_t n, uint8_t pos, uint8_t neg, int has_neg, void* buf,
        Py_ssize_t* front, Py_ssize_t* back, Py_ssize_t* n_pos, Py_ssize_t* done) {
    *done = 0;
    return 0;
}
#endif

#endif /* INDIST_FAST_SPLIT_H */
