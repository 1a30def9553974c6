/* Row loops of the kernels in C (declared in src/_common.pxd): streaming stores of a
   cache line, radix bucket ids, label and weight checks, word ranges and shifts, NumPy's
   sorts. Included after NumPy's headers and sweep_c.h (indist_simd_on). */
#ifndef INDIST_FAST_ROWS_H
#define INDIST_FAST_ROWS_H

#include <stdint.h>
#include <string.h>
#include "indist_fast/_core/include/sweep_c.h"

typedef int (*SortFunc)(void*, npy_intp, void*);
#if defined(__SSE2__)
#include <emmintrin.h>
/* One 64-byte line to memory without reading it first (no read-for-ownership),
   its last word from a register: the word just made is never stored into the line
   only to be read back at once by a wider load, which the store cannot forward
   (the loads of the line's last 16 bytes waited on it). */
#ifdef INDIST_SIMD_TARGET
/* With AVX-512 a line of words goes out in one 64-byte streaming store (paired runs:
   0.98x the time unweighted at 1e6 rows, 0.96-0.98x float32; the weighted rows'
   line, whose last 16 bytes come from two registers, took 1.016x, so it does not). */
INDIST_SIMD_TARGET static void indist_stream_line64_avx512(void* dst, const void* src,
                                                           uint64_t last) {
    __m512i v = _mm512_mask_set1_epi64(_mm512_load_si512(src), 0x80, (long long)last);
    _mm512_stream_si512((__m512i*)dst, v);
}
INDIST_SIMD_TARGET static void indist_stream_line32_avx512(void* dst, const void* src,
                                                           uint32_t last) {
    __m512i v = _mm512_mask_set1_epi32(_mm512_load_si512(src), 0x8000, (int)last);
    _mm512_stream_si512((__m512i*)dst, v);
}
#define INDIST_STREAM_WIDE(call) if (indist_simd_on()) { call; return; }
#else
#define INDIST_STREAM_WIDE(call)
#endif
static inline void indist_fast_stream_line64(void* dst, const void* src, uint64_t last) {
    INDIST_STREAM_WIDE(indist_stream_line64_avx512(dst, src, last))
    const __m128i* s = (const __m128i*)src;
    __m128i* d = (__m128i*)dst;
    _mm_stream_si128(d, _mm_load_si128(s));
    _mm_stream_si128(d + 1, _mm_load_si128(s + 1));
    _mm_stream_si128(d + 2, _mm_load_si128(s + 2));
    _mm_stream_si128(d + 3, _mm_set_epi64x((long long)last, ((const long long*)src)[6]));
}
static inline void indist_fast_stream_line32(void* dst, const void* src, uint32_t last) {
    INDIST_STREAM_WIDE(indist_stream_line32_avx512(dst, src, last))
    const __m128i* s = (const __m128i*)src;
    const int* w = (const int*)src;
    __m128i* d = (__m128i*)dst;
    _mm_stream_si128(d, _mm_load_si128(s));
    _mm_stream_si128(d + 1, _mm_load_si128(s + 1));
    _mm_stream_si128(d + 2, _mm_load_si128(s + 2));
    _mm_stream_si128(d + 3, _mm_set_epi32((int)last, w[14], w[13], w[12]));
}
/* A line of four (score, weight) rows, the last from registers (as above). */
static inline void indist_fast_stream_rows(void* dst, const void* src, double score,
                                           double weight) {
    const __m128i* s = (const __m128i*)src;
    __m128i* d = (__m128i*)dst;
    _mm_stream_si128(d, _mm_load_si128(s));
    _mm_stream_si128(d + 1, _mm_load_si128(s + 1));
    _mm_stream_si128(d + 2, _mm_load_si128(s + 2));
    _mm_stream_pd((double*)(d + 3), _mm_set_pd(weight, score));
}
static inline void indist_fast_stream_done(void) { _mm_sfence(); }
#else
static inline void indist_fast_stream_rows(void* dst, const void* src, double score,
                                           double weight) {
    memcpy(dst, src, 48); memcpy((char*)dst + 48, &score, 8);
    memcpy((char*)dst + 56, &weight, 8);
}
static inline void indist_fast_stream_line64(void* dst, const void* src, uint64_t last) {
    memcpy(dst, src, 56); memcpy((char*)dst + 56, &last, 8);
}
static inline void indist_fast_stream_line32(void* dst, const void* src, uint32_t last) {
    memcpy(dst, src, 60); memcpy((char*)dst + 60, &last, 4);
}
static inline void indist_fast_stream_done(void) { }
#endif

/* Bucket ids of a block of scores (see Plan; the table clamps every prefix, NaN
   included), and how many scores are NaN; with words, also each row's word less
   its label bit (_word: the order bits shifted up by one), so the fill's row loop
   does not compute it one row at a time. A loop of its own so the compiler vectorises it, table lookups as
   gathers: with clones for AVX-512 and AVX2 where the platform picks them at load
   time (ifunc), the baseline elsewhere. */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
#define INDIST_FAST_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define INDIST_FAST_CLONES
#endif
INDIST_FAST_CLONES
static npy_intp indist_fast_bucket_ids64(const double* s, npy_intp n, const uint64_t* table,
                                          int64_t base, int64_t last, uint16_t* out,
                                          uint64_t* words) {
    npy_intp n_nan = 0;
    for (npy_intp i = 0; i < n; i++) {
        n_nan += s[i] != s[i];
        double x = s[i] + 0.0;
        uint64_t u;
        memcpy(&u, &x, 8);
        uint64_t key = u ^ ((uint64_t)((int64_t)u >> 63) | ((uint64_t)1 << 63));
        int64_t j = (int64_t)(key >> 48) - base;
        j = j < 0 ? 0 : j;
        j = j > last ? last : j;
        uint64_t e = table[j];
        out[i] = (uint16_t)((e & 0xFFFFFFFFu) + ((key >> ((e >> 32) & 0xFF)) & (e >> 48)));
        if (words) words[i] = key << 1;
    }
    return n_nan;
}
INDIST_FAST_CLONES
static npy_intp indist_fast_bucket_ids32(const float* s, npy_intp n, const uint64_t* table,
                                          int64_t base, int64_t last, uint16_t* out,
                                          uint32_t* words) {
    npy_intp n_nan = 0;
    for (npy_intp i = 0; i < n; i++) {
        n_nan += s[i] != s[i];
        float x = s[i] + 0.0f;
        uint32_t u;
        memcpy(&u, &x, 4);
        uint32_t key = u ^ ((uint32_t)((int32_t)u >> 31) | ((uint32_t)1 << 31));
        int64_t j = (int64_t)(key >> 16) - base;
        j = j < 0 ? 0 : j;
        j = j > last ? last : j;
        uint64_t e = table[j];
        out[i] = (uint16_t)((e & 0xFFFFFFFFu) + ((key >> ((e >> 32) & 0xFF)) & (e >> 48)));
        if (words) words[i] = key << 1;
    }
    return n_nan;
}
/* The same in 512-bit lanes where the CPU has AVX-512 (simd_on), the table read
   by gathers: GCC's avx512f clone of the loops above kept to 256-bit vectors and
   made its gathers of scalar loads (2,048 float64 rows in L1: 2.1 ns a row, 0.6
   here). Rows past the last whole vector go to the loops above. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(_WIN32)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
/* ids of eight keys (as 64-bit lanes) from their table entries e (see Plan) */
INDIST_SIMD_TARGET static inline __m128i indist_ids8(__m512i key, __m512i e) {
    const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFFLL), m8 = _mm512_set1_epi64(0xFF);
    __m512i shift = _mm512_and_si512(_mm512_srli_epi64(e, 32), m8);
    __m512i sub = _mm512_and_si512(_mm512_srlv_epi64(key, shift), _mm512_srli_epi64(e, 48));
    return _mm512_cvtepi64_epi16(_mm512_add_epi64(_mm512_and_si512(e, low32), sub));
}
INDIST_SIMD_TARGET static npy_intp indist_bucket_ids64_avx512(
        const double* s, npy_intp n, const uint64_t* table, int64_t base, int64_t last,
        uint16_t* out, uint64_t* words) {
    const __m512d zero = _mm512_setzero_pd();
    const __m512i top = _mm512_set1_epi64((long long)((uint64_t)1 << 63));
    const __m512i z = _mm512_setzero_si512();
    const __m512i vbase = _mm512_set1_epi64(base), vlast = _mm512_set1_epi64(last);
    npy_intp i = 0, n_nan = 0;
    for (; i + 8 <= n; i += 8) {
        __m512d x = _mm512_add_pd(_mm512_loadu_pd(s + i), zero);
        n_nan += __builtin_popcount(_mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q));
        __m512i u = _mm512_castpd_si512(x);
        __m512i key = _mm512_xor_si512(u, _mm512_or_si512(_mm512_srai_epi64(u, 63), top));
        __m512i j = _mm512_sub_epi64(_mm512_srli_epi64(key, 48), vbase);
        j = _mm512_min_epi64(_mm512_max_epi64(j, z), vlast);
        __m512i e = _mm512_i64gather_epi64(j, (const long long*)table, 8);
        _mm_storeu_si128((__m128i*)(out + i), indist_ids8(key, e));
        if (words) _mm512_storeu_si512(words + i, _mm512_slli_epi64(key, 1));
    }
    return n_nan + indist_fast_bucket_ids64(s + i, n - i, table, base, last, out + i,
                                            words ? words + i : NULL);
}
INDIST_SIMD_TARGET static npy_intp indist_bucket_ids32_avx512(
        const float* s, npy_intp n, const uint64_t* table, int64_t base, int64_t last,
        uint16_t* out, uint32_t* words) {
    const __m512 zero = _mm512_setzero_ps();
    const __m512i top = _mm512_set1_epi32((int)((uint32_t)1 << 31));
    const __m512i z = _mm512_setzero_si512();
    const __m512i vbase = _mm512_set1_epi32((int)base), vlast = _mm512_set1_epi32((int)last);
    npy_intp i = 0, n_nan = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 x = _mm512_add_ps(_mm512_loadu_ps(s + i), zero);
        n_nan += __builtin_popcount(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q));
        __m512i u = _mm512_castps_si512(x);
        __m512i key = _mm512_xor_si512(u, _mm512_or_si512(_mm512_srai_epi32(u, 31), top));
        __m512i j = _mm512_sub_epi32(_mm512_srli_epi32(key, 16), vbase);
        j = _mm512_min_epi32(_mm512_max_epi32(j, z), vlast);
        __m256i j0 = _mm512_castsi512_si256(j), j1 = _mm512_extracti64x4_epi64(j, 1);
        __m512i e0 = _mm512_i32gather_epi64(j0, (const long long*)table, 8);
        __m512i e1 = _mm512_i32gather_epi64(j1, (const long long*)table, 8);
        __m512i k0 = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(key));
        __m512i k1 = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(key, 1));
        _mm_storeu_si128((__m128i*)(out + i), indist_ids8(k0, e0));
        _mm_storeu_si128((__m128i*)(out + i + 8), indist_ids8(k1, e1));
        if (words) _mm512_storeu_si512(words + i, _mm512_slli_epi32(key, 1));
    }
    return n_nan + indist_fast_bucket_ids32(s + i, n - i, table, base, last, out + i,
                                            words ? words + i : NULL);
}
#pragma GCC diagnostic pop
static inline npy_intp indist_fast_ids64(const double* s, npy_intp n, const uint64_t* table,
                                         int64_t base, int64_t last, uint16_t* out,
                                         uint64_t* words) {
    return indist_simd_on() ? indist_bucket_ids64_avx512(s, n, table, base, last, out, words)
                            : indist_fast_bucket_ids64(s, n, table, base, last, out, words);
}
static inline npy_intp indist_fast_ids32(const float* s, npy_intp n, const uint64_t* table,
                                         int64_t base, int64_t last, uint16_t* out,
                                         uint32_t* words) {
    return indist_simd_on() ? indist_bucket_ids32_avx512(s, n, table, base, last, out, words)
                            : indist_fast_bucket_ids32(s, n, table, base, last, out, words);
}
#else
#define indist_fast_ids64 indist_fast_bucket_ids64
#define indist_fast_ids32 indist_fast_bucket_ids32
#endif
/* Rows of a block that hold a label other than pos (and neg, when has_neg), added
   to *n_bad; returns the rows labelled pos. NaN scores of a block. Vectorised as
   the bucket ids are (a loop in Cython is compiled for the baseline only, where
   the widening of one-byte labels to counts did not vectorise). */
#define INDIST_FAST_LABELS(NAME, T) \
INDIST_FAST_CLONES \
static npy_intp NAME(const T* y, npy_intp n, T pos, T neg, int has_neg, npy_intp* n_bad) { \
    npy_intp n_pos = 0, bad = 0; \
    for (npy_intp i = 0; i < n; i++) { \
        n_pos += y[i] == pos; \
        bad += (y[i] != pos) & ((y[i] != neg) | !has_neg); \
    } \
    *n_bad += bad; \
    return n_pos; \
}
INDIST_FAST_LABELS(indist_fast_labels_u8, uint8_t)
INDIST_FAST_LABELS(indist_fast_labels_i8, int8_t)
INDIST_FAST_LABELS(indist_fast_labels_i32, int32_t)
INDIST_FAST_LABELS(indist_fast_labels_i64, int64_t)
INDIST_FAST_LABELS(indist_fast_labels_f32, float)
INDIST_FAST_LABELS(indist_fast_labels_f64, double)
#define INDIST_FAST_NANS(NAME, T) \
INDIST_FAST_CLONES \
static npy_intp NAME(const T* s, npy_intp n) { \
    npy_intp n_nan = 0; \
    for (npy_intp i = 0; i < n; i++) n_nan += s[i] != s[i]; \
    return n_nan; \
}
INDIST_FAST_NANS(indist_fast_nans32, float)
INDIST_FAST_NANS(indist_fast_nans64, double)
/* Weights that are negative, NaN or infinite. */
INDIST_FAST_CLONES
static npy_intp indist_fast_bad_weights(const double* w, npy_intp n) {
    npy_intp bad = 0;
    for (npy_intp i = 0; i < n; i++) bad += !(w[i] >= 0.0 && w[i] <= DBL_MAX);
    return bad;
}
/* The least and greatest of n >= 1 words, in one vectorised pass. */
INDIST_FAST_CLONES
static void indist_fast_range64(const uint64_t* w, npy_intp n, uint64_t* lo, uint64_t* hi) {
    uint64_t a = w[0], b = w[0];
    for (npy_intp i = 1; i < n; i++) {
        a = w[i] < a ? w[i] : a;
        b = w[i] > b ? w[i] : b;
    }
    *lo = a;
    *hi = b;
}
/* The order bits (_order_bits) of the scores of n (score, weight) rows. */
INDIST_FAST_CLONES
static void indist_fast_row_orders(const double* rows, npy_intp n, uint64_t* out) {
    for (npy_intp i = 0; i < n; i++) {
        double x = rows[2 * i] + 0.0;
        uint64_t u;
        memcpy(&u, &x, 8);
        out[i] = u ^ ((uint64_t)((int64_t)u >> 63) | ((uint64_t)1 << 63));
    }
}
/* Order bits into a bucket's keys: base + ((w - lo) >> shift << bits | i). */
INDIST_FAST_CLONES
static void indist_fast_row_keys(uint64_t* w, npy_intp n, uint64_t lo, int shift,
                                 int bits, uint64_t base) {
    for (npy_intp i = 0; i < n; i++)
        w[i] = base + ((((w[i] - lo) >> shift) << bits) | (uint64_t)i);
}
/* w[i] += delta (mod 2**64) */
INDIST_FAST_CLONES
static void indist_fast_shift64(uint64_t* w, npy_intp n, uint64_t delta) {
    for (npy_intp i = 0; i < n; i++) w[i] += delta;
}
/* Whether the FPU compares subnormal doubles as they are: not when the thread's
   MXCSR has denormals-are-zero set (DAZ, bit 6), which makes them all equal to 0. */
static inline int indist_fast_subnormals_exact(void) {
#if defined(__SSE2__)
    return !(_mm_getcsr() & 0x40);
#else
    return 0;
#endif
}
static SortFunc indist_fast_sort_func(int type_num) {
    PyArray_Descr* d = PyArray_DescrFromType(type_num);
    PyArray_SortFunc* f;
    if (d == NULL) return NULL;
    f = PyDataType_GetArrFuncs(d)->sort[NPY_QUICKSORT];
    Py_DECREF(d);
    return f;
}

/* NumPy's own sorts (SIMD where the CPU has it), called on raw buffers without the GIL:
   each module's copy is set by indist_fast_sorts_init() when the module is imported. */
static SortFunc indist_sort_words64, indist_sort_words32, indist_sort_prefixes,
    indist_sort_float64, indist_sort_float32;
static int indist_fast_sorts_init(void) {
    indist_sort_words64 = indist_fast_sort_func(NPY_UINT64);
    indist_sort_words32 = indist_fast_sort_func(NPY_UINT32);
    indist_sort_prefixes = indist_fast_sort_func(NPY_UINT16);
    indist_sort_float64 = indist_fast_sort_func(NPY_FLOAT64);
    indist_sort_float32 = indist_fast_sort_func(NPY_FLOAT32);
    return indist_sort_words64 && indist_sort_words32 && indist_sort_prefixes
           && indist_sort_float64 && indist_sort_float32;
}

/* Word constants of the radix buckets and sorts (see _sort_u64 in _common.pxd). */
#define INDIST_FINITE_WORDS ((uint64_t)0x7FF << 52)
#define INDIST_NORMAL_WORDS ((uint64_t)1 << 52)
#define INDIST_LOW32 (((uint64_t)1 << 32) - 1)
#define INDIST_ALL64 (~(uint64_t)0)

#endif /* INDIST_FAST_ROWS_H */
