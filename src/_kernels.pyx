# cython: language_level=3
# distutils: language = c++
"""Compiled kernels of indist_fast: build the score table and sweep it.

Private. The public entry points live in ``indist_fast`` and reach these through
``indist_fast._core.fast``; ``indist_fast._core.reference`` is the NumPy twin of every kernel
here, with the same return values, and is the oracle in the tests.

The plan for an unweighted call (``summarize``) from a few hundred thousand rows: a
sample of the scores sizes buckets of their order bits (``radix_plan``); each half of
the rows, on its own thread, is checked, counted per bucket and written as one word per
row, the score's order bits and the label, into blocks chained per bucket
(``radix_fill``); each bucket's blocks are gathered in cache, sorted by NumPy's own
sort and swept at once, the upper and lower buckets on two threads
(``radix_sweep_from``). Fewer rows: they are counted by class and by a pivot
(``count_rows``) and copied to exact places (``scatter_scores``), NumPy's SIMD sort
orders each of the four pieces in place, and one merge walks positives and negatives
downwards, pushing each distinct score into the sweep (``summarize_sorted``). Labels
never need an argsort. Weighted rows pack the score's order, the label and the row index into
one uint64 key (``scatter_keys``), so the same SIMD sort orders them and the weights
are gathered afterwards (``summarize_keys``, ``table_from_keys``). From a few hundred
thousand weighted rows, ``summarize`` writes each row once into radix buckets as
(score, signed weight) (``radix_fill_weighted``) and orders and sweeps each bucket in
cache (``radix_sweep_weighted_from``), and weighted tables come from the same
buckets (``radix_table_weighted``).

Returned error fields are row indices (-1 when the rows are clean); the facade turns
them into exceptions that name the argument.
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t, uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t
from libc.string cimport memcpy, memset
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawFree
from libc.math cimport isfinite, fabs, NAN, INFINITY
from libc.float cimport DBL_MAX
from libc.stdint cimport uintptr_t
from posix.mman cimport madvise, MADV_DONTNEED
from posix.unistd cimport sysconf, _SC_PAGESIZE
from libcpp.vector cimport vector
from libcpp.pair cimport pair
from libcpp.algorithm cimport sort as std_sort

from indist_fast._core.types cimport label_t, score_t, count_t
from indist_fast._core.sweep cimport (Sweep, Sink, Costs, Hull, sweep_init, sweep_push, sweep_push_at,
                    sweep_start_at, Hot, hot_load, hot_store, hot_push, simd_on, simd_set,
                    words_blocks, exact_blocks,
                    sink_init, sink_emit, sink_emit_chained, chain_add, weight_scale, clamp_probability,
                    b_value, costs_init, costs_push, costs_finish, costs_free, MAX_LEVELS)

from indist_fast._core.results import (
    Checkpoint, CostSettings, CostSums, DeLongSums, KeySweep, PieceSweep, RangeSweep, RowCounts,
    SweepResult, Table)

cnp.import_array()


def simd_blocks(on=None):
    """Whether sweeps take eight rows of distinct scores at a time (AVX-512, see
    ``sweep.pxd``), after turning that on (where the CPU can) or off when ``on`` is
    given. The tests run both ways: the results are the same to the bit."""
    return bool(simd_on() if on is None else simd_set(bool(on)))


def sweep_scale(double weight_pos, double weight_neg):
    """The power of two a sweep of these class totals multiplies weights by
    (``sweep.weight_scale``). NumPy equivalent: ``results.weight_scale``."""
    return weight_scale(weight_pos, weight_neg)

# Compile-time choice of what the row loops feed: the plain sweep (and table), or the
# threshold-choice sums too. Inlined into their own copy of each loop, the cost work
# keeps its running sums in registers and leaves the plain loops as lean as before.
ctypedef char PlainMode
ctypedef short CostMode
ctypedef fused mode_t:
    PlainMode
    CostMode


ctypedef char Plain
ctypedef short Chained
ctypedef fused chain_t:
    Plain      # TP of a group is TP above plus its weight (counts, tables)
    Chained    # TP is the sink's compensated row sum (weighted rows, see sink_emit_chained)


cdef inline void _emit(Sink* k, double score, double tp, double fp, mode_t mode,
                       chain_t chain) noexcept nogil:
    if mode_t is CostMode:       # before the sweep moves on: it needs TP, FP above
        # In the sweep's scaled weights (linear sums, exact power-of-two scale):
        # _close_sweep unscales them once instead of per group.
        costs_push(&k.costs, score, k.sweep.tp, k.sweep.fp, tp, fp,
                   k.sweep.weight_pos, k.sweep.weight_neg)
    if chain_t is Chained:
        sink_emit_chained(k, score, tp, fp)
    else:
        sink_emit(k, score, tp, fp)


cdef inline void _add(Sink* k, double score, double tp, double fp, mode_t mode,
                      chain_t chain) noexcept nogil:
    """Add rows at ``score`` (no higher than any added before) to their group; weights
    times the sweep's scale."""
    if score == k.cur:
        k.cur_tp += tp
        k.cur_fp += fp
    else:
        if k.cur_tp + k.cur_fp > 0.0:      # zero-weight rows never reach a sink
            _emit(k, k.cur, k.cur_tp, k.cur_fp, mode, chain)
        k.cur = score
        k.cur_tp = tp
        k.cur_fp = fp


cdef inline void _flush(Sink* k, mode_t mode, chain_t chain) noexcept nogil:
    """Emit the open group."""
    if k.cur_tp + k.cur_fp > 0.0:
        _emit(k, k.cur, k.cur_tp, k.cur_fp, mode, chain)
    k.cur = NAN
    k.cur_tp = 0.0
    k.cur_fp = 0.0



cdef extern from *:
    """
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
    """
    ctypedef int (*SortFunc)(void*, cnp.npy_intp, void*) noexcept nogil
    SortFunc indist_fast_sort_func(int type_num)
    void indist_fast_range64(const uint64_t* w, cnp.npy_intp n, uint64_t* lo,
                             uint64_t* hi) noexcept nogil
    void indist_fast_shift64(uint64_t* w, cnp.npy_intp n, uint64_t delta) noexcept nogil
    void indist_fast_row_orders(const double* rows, cnp.npy_intp n, uint64_t* out) noexcept nogil
    void indist_fast_row_keys(uint64_t* w, cnp.npy_intp n, uint64_t lo, int shift, int bits,
                              uint64_t base) noexcept nogil
    bint indist_fast_subnormals_exact() noexcept nogil
    void indist_fast_stream_line64(void* dst, const void* src, uint64_t last) noexcept nogil
    void indist_fast_stream_line32(void* dst, const void* src, uint32_t last) noexcept nogil
    void indist_fast_stream_rows(void* dst, const void* src, double score,
                                 double weight) noexcept nogil
    void indist_fast_stream_done() noexcept nogil
    cnp.npy_intp indist_fast_ids64(const double* s, cnp.npy_intp n,
                                   const uint64_t* table, int64_t base, int64_t last,
                                   uint16_t* out, uint64_t* words) noexcept nogil
    cnp.npy_intp indist_fast_labels_u8(const uint8_t* y, cnp.npy_intp n, uint8_t pos,
                                       uint8_t neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_i8(const int8_t* y, cnp.npy_intp n, int8_t pos,
                                       int8_t neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_i32(const int32_t* y, cnp.npy_intp n, int32_t pos,
                                        int32_t neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_i64(const int64_t* y, cnp.npy_intp n, int64_t pos,
                                        int64_t neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_f32(const float* y, cnp.npy_intp n, float pos,
                                        float neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_f64(const double* y, cnp.npy_intp n, double pos,
                                        double neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_nans32(const float* s, cnp.npy_intp n) noexcept nogil
    cnp.npy_intp indist_fast_nans64(const double* s, cnp.npy_intp n) noexcept nogil
    cnp.npy_intp indist_fast_bad_weights(const double* w, cnp.npy_intp n) noexcept nogil
    cnp.npy_intp indist_fast_ids32(const float* s, cnp.npy_intp n,
                                   const uint64_t* table, int64_t base, int64_t last,
                                   uint16_t* out, uint32_t* words) noexcept nogil


# NumPy's own sorts (SIMD where the CPU has it), called on raw buffers without the GIL.
cdef SortFunc _sort_words64 = indist_fast_sort_func(cnp.NPY_UINT64)
cdef SortFunc _sort_words32 = indist_fast_sort_func(cnp.NPY_UINT32)
cdef SortFunc _sort_prefixes = indist_fast_sort_func(cnp.NPY_UINT16)
cdef SortFunc _sort_float64 = indist_fast_sort_func(cnp.NPY_FLOAT64)
cdef SortFunc _sort_float32 = indist_fast_sort_func(cnp.NPY_FLOAT32)
if (_sort_words64 == NULL or _sort_words32 == NULL or _sort_prefixes == NULL
        or _sort_float64 == NULL or _sort_float32 == NULL):
    raise ImportError("NumPy has no quicksort for unsigned integers or floats")

cdef extern from *:
    void __builtin_prefetch(const void* addr) noexcept nogil
    int __builtin_clzll(unsigned long long x) noexcept nogil


# 64-bit words sort faster as doubles: NumPy's SIMD sort of 4,096 doubles took 4.7 ns a
# word here, of as many uint64 6.0 (8,192: 4.9 and 6.4; 49,000: 5.6 and 7.3). A word's
# bits order as those of a double when it is one that is positive and finite (from
# NORMAL_WORDS to FINITE_WORDS: words below are subnormal doubles, which the FPU may
# compare as zero, DAZ). Words of a narrower range are shifted into it for the sort.
cdef uint64_t FINITE_WORDS = <uint64_t>0x7FF << 52
cdef uint64_t NORMAL_WORDS = <uint64_t>1 << 52


cdef void _sort_u64(uint64_t* w, Py_ssize_t n, uint64_t lo, uint64_t hi) noexcept nogil:
    """Sort ``n`` words, ``lo`` and ``hi`` their least and greatest, ascending as
    uint64: as doubles where their bits are those of positive finite doubles, or of
    such doubles once all are shifted by one amount (a range under 2**63 - 2**53),
    else as uint64."""
    if hi < FINITE_WORDS and (lo >= NORMAL_WORDS or indist_fast_subnormals_exact()):
        _sort_float64(w, n, NULL)
    elif hi - lo < FINITE_WORDS - NORMAL_WORDS:
        indist_fast_shift64(w, n, NORMAL_WORDS - lo)
        _sort_float64(w, n, NULL)
        indist_fast_shift64(w, n, lo - NORMAL_WORDS)
    else:
        _sort_words64(w, n, NULL)


cdef struct Open:
    # The group a sweep-only row loop is adding to (the Sink's cur, cur_tp, cur_fp in
    # a local of the loop, beside its Hot sums).
    double score
    double tp
    double fp


cdef inline void _hot_row(Hot* h, Sweep* st, Open* g, double score, double tp,
                          double fp) noexcept nogil:
    """``_add`` of a sink that only sweeps (no table, no cost sums), on the loop's
    locals: the same operations, so the same roundings."""
    if score == g.score:
        g.tp += tp
        g.fp += fp
    else:
        if g.tp + g.fp > 0.0:
            hot_push(h, st, g.score, g.tp, g.fp, h.tp + g.tp)
        g.score = score
        g.tp = tp
        g.fp = fp


cdef inline void _open_load(Open* g, const Sink* k) noexcept nogil:
    g.score = k.cur
    g.tp = k.cur_tp
    g.fp = k.cur_fp


cdef inline void _open_store(const Open* g, Sink* k) noexcept nogil:
    k.cur = g.score
    k.cur_tp = g.tp
    k.cur_fp = g.fp


# ---------------------------------------------------------------------------
# Unweighted: split by class and pivot, sort outside, merge into the sweep.

def count_rows(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
               double pos_value, double neg_value, double pivot,
               Py_ssize_t start, Py_ssize_t stop):
    """Count rows ``start:stop`` by class and side of the pivot; find bad rows.

    NumPy equivalent (``keep`` = weight > 0, or every row without weights)::

        pos = (y == pos_value) & keep; neg = (y == neg_value) & keep; lo = s < pivot
        (pos & lo).sum(), (pos & ~lo).sum(), (neg & lo).sum(), (neg & ~lo).sum()

    Returns a ``RowCounts``; its positive weight sums are compensated, so they round
    like the sweep's own compensated TP. ``w`` may be None.
    """
    cdef Py_ssize_t i, n_bad = 0
    cdef double weight_pos_lo = 0.0, weight_neg_lo = 0.0
    cdef double weight_pos_err = 0.0, weight_pos_lo_err = 0.0
    cdef Py_ssize_t pos_lo = 0, pos_hi = 0, neg_lo = 0, neg_hi = 0
    cdef Py_ssize_t is_pos, is_neg, down, keep
    cdef double x, wi, weight_pos = 0.0, weight_neg = 0.0
    cdef bint weighted = w is not None
    cdef label_t pos_label = <label_t>pos_value
    cdef label_t neg_label = <label_t>(neg_value if neg_value == neg_value else pos_value)
    cdef Py_ssize_t has_neg = neg_value == neg_value
    _check_block(y.shape[0], s.shape[0], w.shape[0] if weighted else s.shape[0], start, stop)
    with nogil:
        # Branch-free: bad rows are only counted here and located by a second pass in
        # the rare case there are any. (Compiled for the baseline, GCC does not
        # vectorise it: about 5 ns a row; radix_check's C loops take 1.2-1.3.)
        if weighted:
            for i in range(start, stop):
                x = <double>s[i]
                wi = w[i]
                is_pos = y[i] == pos_label
                is_neg = (y[i] == neg_label) & has_neg
                down = x < pivot
                keep = wi > 0.0
                n_bad += (x != x) | (is_pos + is_neg == 0) | (not (wi >= 0.0 and wi <= DBL_MAX))
                pos_lo += is_pos & down & keep
                pos_hi += is_pos & (1 - down) & keep
                neg_lo += is_neg & down & keep
                neg_hi += is_neg & (1 - down) & keep
                # Two register sums: an array indexed by class would chain every
                # row through a store and a reload.
                chain_add(&weight_pos, &weight_pos_err, wi if is_pos else 0.0)
                weight_neg += wi if is_neg else 0.0
                chain_add(&weight_pos_lo, &weight_pos_lo_err, wi if is_pos & down else 0.0)
                weight_neg_lo += wi if is_neg & down else 0.0
        else:
            for i in range(start, stop):
                x = <double>s[i]
                is_pos = y[i] == pos_label
                is_neg = (y[i] == neg_label) & has_neg
                down = x < pivot
                n_bad += (x != x) | (is_pos + is_neg == 0)
                pos_lo += is_pos & down
                pos_hi += is_pos & (1 - down)
                neg_lo += is_neg & down
                neg_hi += is_neg & (1 - down)
    bad_label = nan_row = bad_weight = -1
    if n_bad:
        bad_label, nan_row, bad_weight = _first_bad_rows(y, s, w, pos_label, neg_label,
                                                         has_neg, start, stop)
    return RowCounts(pos_lo, pos_hi, neg_lo, neg_hi, weight_pos, weight_neg,
                     bad_label, nan_row, bad_weight, weight_pos_lo, weight_neg_lo,
                     weight_pos_err, weight_pos_lo_err)


cdef tuple _first_bad_rows(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
                           label_t pos_label, label_t neg_label, bint has_neg,
                           Py_ssize_t start, Py_ssize_t stop):
    """First NaN score, third label and bad weight in ``start:stop`` (-1 = none)."""
    cdef Py_ssize_t i, bad_label = -1, nan_row = -1, bad_weight = -1
    cdef double wi
    for i in range(start, stop):
        if nan_row < 0 and s[i] != s[i]:
            nan_row = i
        if bad_label < 0 and not (y[i] == pos_label or (has_neg and y[i] == neg_label)):
            bad_label = i
        if w is not None and bad_weight < 0:
            wi = w[i]
            if not (wi >= 0.0 and wi <= DBL_MAX):
                bad_weight = i
    return bad_label, nan_row, bad_weight


cdef _check_block(Py_ssize_t ny, Py_ssize_t ns, Py_ssize_t nw, Py_ssize_t start,
                  Py_ssize_t stop):
    if ny != ns or nw != ns:
        raise ValueError("row arrays differ in length")
    if not 0 <= start <= stop <= ns:
        raise ValueError(f"bad row block {start}:{stop} of {ns} rows")


def scatter_scores(const label_t[::1] y, const score_t[::1] s, double pos_value,
                   double pivot, Py_ssize_t start, Py_ssize_t stop,
                   score_t[::1] pos_out, score_t[::1] neg_out,
                   Py_ssize_t pos_lo, Py_ssize_t pos_hi,
                   Py_ssize_t neg_lo, Py_ssize_t neg_hi):
    """Copy scores of rows ``start:stop`` to their class buffer, at four cursors.

    Rows below the pivot go to ``*_lo`` onward, the others to ``*_hi`` onward; the
    cursors come from ``count_rows`` so blocks on different threads never overlap.
    Rows must be clean (``count_rows`` found no bad row). NumPy equivalent:
    ``pos_out[pos_lo:...] = s[start:stop][(y == pos_value) & (s < pivot)]`` etc.
    """
    cdef Py_ssize_t i, slot
    cdef score_t x
    cdef score_t* dst[4]
    cdef label_t pos_label = <label_t>pos_value
    _check_block(y.shape[0], s.shape[0], s.shape[0], start, stop)
    if pos_out.shape[0] == 0:
        pos_out = np.empty(1, dtype=np.float32 if score_t is float else np.float64)
    if neg_out.shape[0] == 0:
        neg_out = np.empty(1, dtype=np.float32 if score_t is float else np.float64)
    dst[0] = &neg_out[0] + neg_hi
    dst[1] = &neg_out[0] + neg_lo
    dst[2] = &pos_out[0] + pos_hi
    dst[3] = &pos_out[0] + pos_lo
    with nogil:
        # Four write cursors indexed by (class, side): the class and the pivot side
        # are unpredictable from one row to the next, so no branch may depend on them.
        for i in range(start, stop):
            x = s[i]
            slot = 2 * (y[i] == pos_label) + (x < pivot)
            dst[slot][0] = x
            dst[slot] += 1


cdef void _merge_desc(const score_t* pos, Py_ssize_t n_pos, const score_t* neg,
                      Py_ssize_t n_neg, Sink* out, mode_t mode) noexcept nogil:
    """Walk two ascending arrays from the top, emitting one group per distinct score.

    Run-based: the inner loop takes every negative above the next positive, so the
    only unpredictable branch is a switch of class. (A select-based merge makes each
    index wait for the previous load and compare, ~10 cycles a row.)
    """
    cdef Sink local = out[0]
    cdef Sink* sink = &local
    cdef Py_ssize_t i = n_pos - 1, k = n_neg - 1
    cdef score_t p
    if mode_t is PlainMode:
        if out.sweeping and out.scores == NULL:
            _merge_desc_sweep(pos, n_pos, neg, n_neg, out)
            return
    # Invariant: rows above pos[i] and neg[k] have been added to the sink.
    while i >= 0:
        p = pos[i]
        while k >= 0 and neg[k] > p:
            _add(sink, <double>neg[k], 0.0, 1.0, mode, <Plain>0)
            k -= 1
        _add(sink, <double>p, 1.0, 0.0, mode, <Plain>0)
        i -= 1
    while k >= 0:
        _add(sink, <double>neg[k], 0.0, 1.0, mode, <Plain>0)
        k -= 1
    out[0] = local


cdef void _merge_desc_sweep(const score_t* pos, Py_ssize_t n_pos, const score_t* neg,
                            Py_ssize_t n_neg, Sink* out) noexcept nogil:
    """``_merge_desc`` into a sink that only sweeps, on ``Hot`` locals (``_hot_row``)."""
    cdef Py_ssize_t i = n_pos - 1, k = n_neg - 1
    cdef score_t p
    cdef Open g
    cdef Hot h
    cdef Py_ssize_t groups_before = out.sweep.n_groups
    hot_load(&h, &out.sweep)
    _open_load(&g, out)
    while i >= 0:
        p = pos[i]
        while k >= 0 and neg[k] > p:
            _hot_row(&h, &out.sweep, &g, <double>neg[k], 0.0, 1.0)
            k -= 1
        _hot_row(&h, &out.sweep, &g, <double>p, 1.0, 0.0)
        i -= 1
    while k >= 0:
        _hot_row(&h, &out.sweep, &g, <double>neg[k], 0.0, 1.0)
        k -= 1
    hot_store(&h, &out.sweep)
    _open_store(&g, out)
    out.m += h.n_groups - groups_before


cdef inline const score_t* _ptr(const score_t[::1] a) noexcept nogil:
    return &a[0] if a.shape[0] else NULL


cdef void _merge_pieces(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
                        const score_t[::1] pos_lo, const score_t[::1] neg_lo,
                        Sink* sink, mode_t mode) noexcept nogil:
    # Everything in the hi pieces is above everything in the lo pieces.
    _merge_desc(_ptr(pos_hi), pos_hi.shape[0], _ptr(neg_hi), neg_hi.shape[0], sink, mode)
    _merge_desc(_ptr(pos_lo), pos_lo.shape[0], _ptr(neg_lo), neg_lo.shape[0], sink, mode)
    _flush(sink, mode, <Plain>0)


def summarize_small(const label_t[::1] y, const score_t[::1] s, double pos_value,
                    double neg_value, const double[::1] levels, bint exclude_self):
    """``summarize`` of a few unweighted rows in one call, for service-sized inputs
    whose fixed costs (pivot, blocks, cursors) would outweigh the work.

    One pass checks the rows and writes each as one word, as the radix path does
    (order bits without the sign, then the label): scores >= 0 from the front of one
    buffer, negative ones from the back. NumPy's sort (its C entry point) orders each
    part, and each part is swept as a radix bucket (``_sweep_bucket``: eight rows of
    distinct scores at a time), no merge of classes. Returns None, having done nothing
    else, when a row is bad (NaN score, third label) or a class is missing: the caller
    then takes the general path, which raises or handles it.
    """
    cdef label_t pos_label = <label_t>pos_value
    cdef label_t neg_label = <label_t>(neg_value if neg_value == neg_value else pos_value)
    if y.shape[0] != s.shape[0] or s.shape[0] == 0:
        return None
    return _summarize_small(&y[0], &s[0], s.shape[0], pos_label, neg_label,
                            neg_value == neg_value, levels, exclude_self)


cdef object _summarize_small(const label_t* y, const score_t* s, Py_ssize_t n,
                             label_t pos_label, label_t neg_label, bint has_neg,
                             const double[::1] levels, bint exclude_self):
    """``summarize_small`` of ``n >= 1`` rows at ``y`` and ``s``."""
    cdef Py_ssize_t front = -1, n_pos = 0
    cdef bint wide = score_t is double, blocks
    cdef void* buf
    cdef Sink sink
    cdef Hull hull
    # (The raw allocator needs no GIL, and tracemalloc sees it, as it sees NumPy's.)
    buf = PyMem_RawMalloc(n * (8 if wide else 4))
    if buf == NULL:
        raise MemoryError()
    try:
        _open_sweep(&sink, &hull, 0.0, 0.0, exclude_self, levels, None)
        with nogil:
            front = _split_words(y, s, n, pos_label, neg_label, has_neg, buf, &n_pos)
            if front >= 0 and 0 < n_pos < n:
                sweep_init(&sink.sweep, <double>n_pos, <double>(n - n_pos), exclude_self,
                           levels)
                # scores >= 0 first, from the top; the pieces never share a score
                blocks = simd_on() and exact_blocks(<double>n_pos, <double>(n - n_pos))
                _sweep_bucket(buf, 0, front, 1, wide, blocks, &sink)
                _sweep_bucket(buf, front, n, 0, wide, blocks, &sink)
                _flush(&sink, <PlainMode>0, <Plain>0)
    finally:
        PyMem_RawFree(buf)
    if front < 0 or not 0 < n_pos < n:
        return None
    return _close_sweep(&sink)


cdef extern from *:
    """
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
    """
    bint split_bytes "indist_split_bytes"(const uint8_t* y, const void* s, bint wide,
                                          Py_ssize_t n, uint8_t pos, uint8_t neg,
                                          bint has_neg, void* buf, Py_ssize_t* front,
                                          Py_ssize_t* back, Py_ssize_t* n_pos,
                                          Py_ssize_t* done) noexcept nogil


cdef inline Py_ssize_t _split_words(const label_t* y, const score_t* s, Py_ssize_t n,
                                    label_t pos_label, label_t neg_label, bint has_neg,
                                    void* buf, Py_ssize_t* n_pos) noexcept nogil:
    """Check the rows and write their words (``_word``: 64 bits for float64 scores, 32
    for float32) into ``buf``: scores >= 0 in ``buf[:front]``, negative ones in
    ``buf[front:n]``, unsorted; ``n_pos`` gets the positives. Returns ``front``, or -1
    for a NaN score or a third label. One-byte labels go a vector at a time where the
    CPU has AVX-512 (``indist_split_bytes``; the parts hold the same words, in another
    order), the rest of the rows as below."""
    cdef Py_ssize_t i, n_bad = 0, is_pos, is_neg, upper, front = 0, back = n - 1, pos = 0
    cdef Py_ssize_t done = 0
    cdef score_t x
    cdef uint64_t word
    if label_t is uint8_t or label_t is int8_t:
        n_bad = split_bytes(<const uint8_t*>y, <const void*>s, score_t is double, n,
                            <uint8_t>pos_label, <uint8_t>neg_label, has_neg, buf, &front,
                            &back, &pos, &done)
    # Branch-free, as _sorted_split: each word is written at both cursors, one keeps it.
    for i in range(done, n):
        x = s[i]
        is_pos = y[i] == pos_label
        is_neg = (y[i] == neg_label) & has_neg
        n_bad += (x != x) | (is_pos + is_neg == 0)
        pos += is_pos
        word = _word(x, is_pos)
        upper = not (x < 0)                 # -0.0 with the zeros above, as _word has it
        if score_t is double:
            (<uint64_t*>buf)[front] = word
            (<uint64_t*>buf)[back] = word
        else:
            (<uint32_t*>buf)[front] = <uint32_t>word
            (<uint32_t*>buf)[back] = <uint32_t>word
        front += upper
        back -= 1 - upper
    n_pos[0] = pos
    return -1 if n_bad else front


cdef inline Py_ssize_t _sorted_split(const label_t* y, const score_t* s, Py_ssize_t n,
                                     label_t pos_label, label_t neg_label, bint has_neg,
                                     score_t* buf) noexcept nogil:
    """Check the rows and split them by class into ``buf``, then sort each class:
    positives ascending in ``buf[:front]``, negatives in ``buf[front:n]``. Returns
    ``front``, or -1 (the classes unsorted) for a NaN score or a third label."""
    cdef Py_ssize_t i, n_bad = 0, is_pos, is_neg, front = 0, back = n - 1
    cdef score_t x
    # Branch-free: the class of the next row is unpredictable. Each row is written at
    # both cursors and claimed by one; the other slot is overwritten later (the last
    # row's two slots are one).
    for i in range(n):
        x = s[i]
        is_pos = y[i] == pos_label
        is_neg = (y[i] == neg_label) & has_neg
        n_bad += (x != x) | (is_pos + is_neg == 0)
        buf[front] = x
        buf[back] = x
        front += is_pos
        back -= 1 - is_pos
    if n_bad:
        return -1
    if 0 < front < n:
        if score_t is float:
            _sort_float32(buf, front, NULL)
            _sort_float32(buf + front, n - front, NULL)
        else:
            _sort_float64(buf, front, NULL)
            _sort_float64(buf + front, n - front, NULL)
    return front


# ---------------------------------------------------------------------------
# AUC alone of a plain service call: no table, no result object.
#
# Without a score shared by the classes, AUC = (sum over positives p of #{negatives q
# < p}) / (n_pos n_neg), a count over the sorted classes. The count is a merge, and a
# merge is one long chain (the next read waits on the last comparison), so the merge
# is cut in four parts of equal length (where each part starts in both classes: a
# binary search, as in "merge path" sorting), merged side by side in one loop without
# a branch on the data: four independent chains. The merge notices a shared score
# (ties count one half); the sorted classes are then swept as ``summarize_small``
# sweeps them.

cdef extern from *:
    """
    /* Four merges of ascending positives with the negatives of their part: the sum
       over positives of the negatives below them (BELOW(q, p): q < p), and whether a
       positive and a negative tie. A finished part stands still; its reads stay in
       bounds (index 0 exists). */
    #define INDIST_AUC_STEP(k, T, BELOW)                                          \
        {                                                                          \
            int live = i##k < e##k, more = j##k < f##k;                            \
            T a = pos[live ? i##k : 0], b = neg[more ? j##k : 0];                  \
            int take = live & more & (BELOW(b, a));                                \
            int pass = live & !take;                                               \
            tie |= live & more & (a == b);                                         \
            j##k += take;                                                          \
            s##k += pass ? j##k : 0;                                               \
            i##k += pass;                                                          \
            busy |= live;                                                          \
        }
    #define INDIST_LT(b, a) ((b) < (a))
    #define INDIST_AUC_PAIRS(NAME, T, BELOW)                                       \
    /* Where the first d elements of the merge end: i positives and d - i negatives  \
       (a negative goes first when BELOW the positive). */                          \
    static Py_ssize_t NAME##_split(const T* pos, Py_ssize_t np_, const T* neg,     \
                                   Py_ssize_t nn, Py_ssize_t d) {                  \
        Py_ssize_t lo = d > nn ? d - nn : 0, hi = d < np_ ? d : np_, mid;          \
        while (lo < hi) {                                                          \
            mid = lo + ((hi - lo) >> 1);                                           \
            if (!(BELOW(neg[d - mid - 1], pos[mid]))) lo = mid + 1;                \
            else hi = mid;                                                         \
        }                                                                          \
        return lo;                                                                 \
    }                                                                              \
    static int64_t NAME(const T* pos, Py_ssize_t np_, const T* neg, Py_ssize_t nn, \
                        int* tie_out) {                                            \
        /* four parts of the merge, of equal length: positives [i_k, e_k) and the  \
           negatives [j_k, f_k) merged with them */                                \
        Py_ssize_t n = np_ + nn, d1 = n / 4, d2 = n / 2, d3 = n - n / 4;           \
        Py_ssize_t i0 = 0, i1 = NAME##_split(pos, np_, neg, nn, d1);               \
        Py_ssize_t i2 = NAME##_split(pos, np_, neg, nn, d2);                       \
        Py_ssize_t i3 = NAME##_split(pos, np_, neg, nn, d3);                       \
        Py_ssize_t e0 = i1, e1 = i2, e2 = i3, e3 = np_;                            \
        Py_ssize_t j0 = 0, j1 = d1 - i1, j2 = d2 - i2, j3 = d3 - i3;               \
        Py_ssize_t f0 = j1, f1 = j2, f2 = j3, f3 = nn;                             \
        int64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                    \
        /* A positive and a negative of one score meet in a part, or are the last  \
           positive before a split and the first negative after it. */            \
        int tie = (i1 > 0 && j1 < nn && pos[i1 - 1] == neg[j1])                    \
                | (i2 > 0 && j2 < nn && pos[i2 - 1] == neg[j2])                    \
                | (i3 > 0 && j3 < nn && pos[i3 - 1] == neg[j3]);                   \
        int busy = 1;                                                              \
        while (busy && !tie) {       /* a tie: the caller sweeps instead */     \
            busy = 0;                                                              \
            INDIST_AUC_STEP(0, T, BELOW)                                           \
            INDIST_AUC_STEP(1, T, BELOW)                                           \
            INDIST_AUC_STEP(2, T, BELOW)                                           \
            INDIST_AUC_STEP(3, T, BELOW)                                           \
        }                                                                          \
        *tie_out = tie;                                                            \
        return s0 + s1 + s2 + s3;                                                  \
    }
    INDIST_AUC_PAIRS(indist_fast_pairs_lt64, double, INDIST_LT)
    INDIST_AUC_PAIRS(indist_fast_pairs_lt32, float, INDIST_LT)
    """
    int64_t indist_fast_pairs_lt64(const double*, Py_ssize_t, const double*, Py_ssize_t,
                                   int*) noexcept nogil
    int64_t indist_fast_pairs_lt32(const float*, Py_ssize_t, const float*, Py_ssize_t,
                                   int*) noexcept nogil


cdef inline double _auc_of_sorted(const score_t* pos, Py_ssize_t n_pos, const score_t* neg,
                                  Py_ssize_t n_neg, int* tie) noexcept nogil:
    """AUC of ascending positives and negatives (both classes present), or NaN with
    ``tie`` set when a positive and a negative share a score."""
    cdef int64_t lt
    if score_t is float:
        lt = indist_fast_pairs_lt32(pos, n_pos, neg, n_neg, tie)
    else:
        lt = indist_fast_pairs_lt64(pos, n_pos, neg, n_neg, tie)
    # An integer count, exact below 2**53; one division rounds once, as the sweep's
    # (n_pos n_neg AUC = its AUC numerator; the same double).
    return NAN if tie[0] else <double>lt / (<double>n_pos * <double>n_neg)


cdef const double[::1] _NO_LEVELS = np.empty(0)


cdef object _auc_small(const label_t* y, const score_t* s, Py_ssize_t n):
    cdef Py_ssize_t front
    cdef double auc = NAN
    cdef double o[8]
    cdef int tie = 0
    cdef Sink sink
    cdef Hull hull
    cdef const double[::1] no_levels = _NO_LEVELS
    cdef score_t* buf = <score_t*>PyMem_RawMalloc(n * sizeof(score_t))
    if buf == NULL:
        raise MemoryError()
    try:
        _open_sweep(&sink, &hull, 0.0, 0.0, True, no_levels, None)
        with nogil:
            front = _sorted_split(y, s, n, 1, 0, True, buf)
            if 0 < front < n:
                auc = _auc_of_sorted(buf, front, buf + front, n - front, &tie)
                if tie:
                    # Scores shared across the classes: the sweep takes each run of one
                    # score at once, where a second count (q <= p) would take every row
                    # again (tied logs of 1e5 rows: 1.1 against 0.7 ms).
                    sweep_init(&sink.sweep, <double>front, <double>(n - front), True,
                               no_levels)
                    _merge_desc(<const score_t*>buf, front, <const score_t*>(buf + front),
                                n - front, &sink, <PlainMode>0)
                    _flush(&sink, <PlainMode>0, <Plain>0)
                    _write_sweep(&sink.sweep, 0, o, o)
                    auc = o[5]
    finally:
        PyMem_RawFree(buf)
    return None if auc != auc else auc


cdef object _plain_job(const label_t* y, const score_t* s, Py_ssize_t n,
                       const double[::1] levels, bint exclude_self, bint auc_only):
    """AUC (``auc_only``) or the summary of plain rows: labels {0, 1} or bool."""
    if auc_only:
        return _auc_small(y, s, n)
    return _summarize_small(y, s, n, <label_t>1, <label_t>0, True, levels, exclude_self)


cdef object _plain_labels(cnp.ndarray y, const score_t* s, Py_ssize_t n,
                          const double[::1] levels, bint exclude_self, bint auc_only):
    cdef int t = cnp.PyArray_TYPE(y)
    cdef void* p = cnp.PyArray_DATA(y)
    if t == cnp.NPY_BOOL or t == cnp.NPY_UINT8:
        return _plain_job(<const uint8_t*>p, s, n, levels, exclude_self, auc_only)
    if t == cnp.NPY_INT8:
        return _plain_job(<const int8_t*>p, s, n, levels, exclude_self, auc_only)
    if t == cnp.NPY_INT32:
        return _plain_job(<const int32_t*>p, s, n, levels, exclude_self, auc_only)
    if t == cnp.NPY_INT64:
        return _plain_job(<const int64_t*>p, s, n, levels, exclude_self, auc_only)
    if t == cnp.NPY_FLOAT32:
        return _plain_job(<const float*>p, s, n, levels, exclude_self, auc_only)
    if t == cnp.NPY_FLOAT64:
        return _plain_job(<const double*>p, s, n, levels, exclude_self, auc_only)
    return None


cdef inline bint _plain_column(cnp.ndarray a) noexcept:
    # (aligned: the kernels read the rows through typed pointers)
    return (cnp.PyArray_NDIM(a) == 1 and cnp.PyArray_IS_C_CONTIGUOUS(a)
            and cnp.PyArray_ISNOTSWAPPED(a) and cnp.PyArray_ISALIGNED(a))


cdef object _plain(object y, object s, Py_ssize_t max_rows, const double[::1] levels,
                   bint exclude_self, bint auc_only):
    """``_plain_job`` of plain arrays (see ``auc_small``), or None for any others."""
    if type(y) is not cnp.ndarray or type(s) is not cnp.ndarray:
        return None
    cdef cnp.ndarray ya = <cnp.ndarray>y, sa = <cnp.ndarray>s
    if not (_plain_column(ya) and _plain_column(sa)):
        return None
    cdef Py_ssize_t n = cnp.PyArray_DIM(sa, 0)
    if n == 0 or n > max_rows or cnp.PyArray_DIM(ya, 0) != n:
        return None
    cdef int t = cnp.PyArray_TYPE(sa)
    if t == cnp.NPY_FLOAT64:
        return _plain_labels(ya, <const double*>cnp.PyArray_DATA(sa), n, levels,
                             exclude_self, auc_only)
    if t == cnp.NPY_FLOAT32:
        return _plain_labels(ya, <const float*>cnp.PyArray_DATA(sa), n, levels,
                             exclude_self, auc_only)
    return None


def auc_small(object y, object s, Py_ssize_t max_rows):
    """AUC of a plain service call, or None having done nothing else.

    Plain: NumPy arrays, 1-d, C-contiguous, aligned, native byte order, of one length from 1
    to ``max_rows``; labels bool or {0, 1} in a kernel label dtype, scores float64 or
    float32. Every row is checked in the pass that splits the classes: None for any
    other input, a NaN score, another label or one class (the caller then takes the
    checked path, which raises or handles it). Equal to ``summarize``'s AUC.
    """
    return _plain(y, s, max_rows, _NO_LEVELS, True, True)


def summarize_plain(object y, object s, const double[::1] levels, bint exclude_self,
                    Py_ssize_t max_rows):
    """``summarize_small`` of a plain service call (as ``auc_small`` takes them: labels
    bool or {0, 1}), or None having done nothing else. The checks that the arrays are
    plain are C's, and no typed views are made of them: at a thousand rows a Python
    scan and the typed entry's dispatch were a tenth of the call."""
    return _plain(y, s, max_rows, levels, exclude_self, False)


# ---------------------------------------------------------------------------
# Unweighted, radix: bucket rows by their score's leading bits, sort each bucket in cache.
#
# A row becomes one sortable word: the order bits of its score (``_order_bits``) shifted
# up by one, its label in the low bit. Buckets are ranges of order bits, so sorting each
# bucket sorts every row, and a sorted bucket is swept from the top with no merge of
# classes (the branch a class switch costs). The bucket is picked from the top 16 bits
# of the order bits through a table built from a sample of the scores: a prefix the
# sample finds often is split further by the bits below it, so buckets hold about
# ``target`` rows whatever the distribution (a bucket the sample missed is only larger:
# it is sorted all the same). Every bucket lies on one side of zero, so the word drops
# the order bits' top bit (the sign, which the bucket knows) and the label takes its
# place: 64-bit words for float64 scores, 32-bit words for float32.

cdef enum:
    PREFIX_BITS = 16          # bits of the order bits the bucket table is indexed by
    SUB_BITS_MAX = 12         # a prefix splits into at most 2**12 buckets
    PLAN_SAMPLE = 4096        # scores sampled to size the buckets
    RADIX_CHUNK = 2048        # rows whose bucket ids are found in one vectorised loop
    FILL_AHEAD = 32           # rows ahead a fill fetches its bucket's line (a row's
                              # bucket is one of thousands: its line is in L2, not L1)


cdef inline uint32_t _order_bits32(float x) noexcept nogil:
    """``_order_bits`` of a float32 score, in 32 bits (``indist_fast_bucket_ids32``
    repeats it in C, where it is vectorised)."""
    cdef uint32_t u
    x = x + <float>0.0
    memcpy(&u, &x, 4)
    return u ^ (<uint32_t>(<int32_t>u >> 31) | (<uint32_t>1 << 31))


cdef inline uint64_t _word(score_t x, bint positive) noexcept nogil:
    """The row's word: order bits without their top bit, then the label."""
    if score_t is float:
        return (<uint32_t>(_order_bits32(x) << 1)) | <uint32_t>positive
    else:
        return (_order_bits(x) << 1) | <uint64_t>positive


cdef inline uint64_t _order_of(score_t x) noexcept nogil:
    if score_t is float:
        return _order_bits32(x)
    else:
        return _order_bits(x)


cdef uint64_t LOW32 = (<uint64_t>1 << 32) - 1
cdef uint64_t ALL64 = ~(<uint64_t>0)


cdef struct Plan:
    # Where ``indist_fast_bucket_ids*`` finds a score's bucket: the prefix (top 16 order
    # bits) less ``base``, clamped to ``0..last``, indexes ``table``, whose entry is
    # first bucket | shift << 32 | mask << 48 (bucket = first + (order >> shift & mask)).
    const uint64_t* table
    int64_t base
    int64_t last


cdef Plan _plan_of(const uint64_t[::1] table, int64_t base) except *:
    cdef Plan p
    if table.shape[0] < 3:
        raise ValueError("a radix table has at least three entries")
    p.table = &table[0]
    p.base = base
    p.last = table.shape[0] - 1
    return p


def radix_plan(const score_t[::1] s, Py_ssize_t target, Py_ssize_t n_rows=-1):
    """Buckets for ``s``: ``(table, base, tops)``, ``tops[b]`` the sign bit of bucket
    ``b``'s order bits (one per bucket). NaN scores are skipped (rows with them are
    refused by the counting pass). Entry 0 of the table takes every prefix below the
    sampled ones, the last entry every prefix above; the table always spans the sign
    change, so those two buckets lie on one side of zero each. ``n_rows``: the rows
    the buckets are for, when ``s`` is only a sample of them (default: ``len(s)``)."""
    cdef Py_ssize_t n = s.shape[0], step = max(1, n // PLAN_SAMPLE), i, j = 0, m = 0, run
    cdef Py_ssize_t rows = n if n_rows < 0 else n_rows
    cdef int key_bits = 32 if score_t is float else 64
    cdef int shift_prefix = key_bits - PREFIX_BITS, bits
    cdef int64_t lo, hi, p, q, nb = 0
    cdef double expected
    cdef vector[uint8_t] tops      # (a Python list of them cost 0.1 ms at 1e7 rows)
    if target < 1:
        raise ValueError("target must be at least 1")
    prefixes = np.empty(n // step + 1, dtype=np.uint16)
    cdef uint16_t[::1] pre = prefixes
    for i in range(0, n, step):
        if s[i] == s[i]:
            pre[m] = <uint16_t>(_order_of(s[i]) >> shift_prefix)
            m += 1
    if m > 1:
        _sort_prefixes(&pre[0], m, NULL)
    lo = min(<int64_t>pre[0] if m else 0x7FFF, 0x7FFF)
    hi = max(<int64_t>pre[m - 1] if m else 0x8000, 0x8000)
    table_arr = np.empty(hi - lo + 3, dtype=np.uint64)
    cdef uint64_t[::1] table = table_arr
    table[0] = 0                            # below every sampled prefix: one bucket
    tops.push_back(0)
    nb = 1
    p = lo
    while p <= hi:
        if j < m and pre[j] == p:
            run = j
            while j < m and pre[j] == p:
                j += 1
            expected = <double>(j - run) * rows / m
            bits = 0
            while bits < SUB_BITS_MAX and expected / <double>(<int64_t>1 << bits) > target:
                bits += 1
            table[p - lo + 1] = (<uint64_t>nb | (<uint64_t>(shift_prefix - bits) << 32)
                                 | (((<uint64_t>1 << bits) - 1) << 48))
            tops.insert(tops.end(), <size_t>1 << bits, <uint8_t>(p >> (PREFIX_BITS - 1)))
            nb += 1 << bits
            p += 1
        else:
            # Prefixes the sample never saw, up to the next one it did (or the sign
            # change): one bucket.
            q = pre[j] if j < m else hi + 1
            if p < 0x8000 <= q:
                q = 0x8000
            for i in range(p, q):
                table[i - lo + 1] = <uint64_t>nb
            tops.push_back(<uint8_t>(p >> (PREFIX_BITS - 1)))
            nb += 1
            p = q
    table[hi - lo + 2] = <uint64_t>nb        # above every sampled prefix
    tops.push_back(1)
    tops_arr = np.empty(tops.size(), dtype=np.uint8)
    memcpy(cnp.PyArray_DATA(tops_arr), tops.data(), tops.size())
    return table_arr, lo - 1, tops_arr


cdef inline Py_ssize_t _chunk_buckets(const score_t* s, Py_ssize_t n, const Plan* plan,
                                      uint16_t* out, void* words=NULL) noexcept nogil:
    """Bucket ids of ``n <= RADIX_CHUNK`` scores into ``out`` and, when given, their
    words without the label into ``words`` (uint32 for float32 scores, else uint64);
    returns the NaN count."""
    if score_t is float:
        return indist_fast_ids32(s, n, plan.table, plan.base, plan.last, out,
                                 <uint32_t*>words)
    else:
        return indist_fast_ids64(s, n, plan.table, plan.base, plan.last, out,
                                 <uint64_t*>words)


cdef inline void* _words_of(object words, Py_ssize_t n, bint wide) except NULL:
    if (not isinstance(words, np.ndarray) or words.dtype != (np.uint64 if wide else np.uint32)
            or not words.flags.c_contiguous or not words.flags.writeable
            or words.shape[0] != n):
        raise ValueError(f"words must be a writeable {'uint64' if wide else 'uint32'} "
                         f"array of {n} elements")
    return cnp.PyArray_DATA(words) if n else <void*>1


# One pass, no count: each block of rows (one per thread) writes its words into blocks
# of ``block`` words of their buckets, taken from a range of blocks of its own and
# chained per bucket, so nothing needs to know a bucket's size in advance. (Counting
# the rows first, to place each bucket contiguously, was a second read of the rows at
# about 4 ns a row and 2 bytes a row of bucket ids.) When a bucket is swept, its blocks
# are gathered into a buffer that stays in cache (``radix_sweep_from``).

cdef inline Py_ssize_t _labels(const label_t* y, Py_ssize_t n, label_t pos, label_t neg,
                               bint has_neg, Py_ssize_t* n_bad) noexcept nogil:
    """Rows labelled ``pos`` of ``y[:n]``; those of a third label are added to ``n_bad``
    (``indist_fast_labels_*``)."""
    cdef cnp.npy_intp bad = 0, n_pos
    if label_t is uint8_t:
        n_pos = indist_fast_labels_u8(y, n, pos, neg, has_neg, &bad)
    elif label_t is int8_t:
        n_pos = indist_fast_labels_i8(y, n, pos, neg, has_neg, &bad)
    elif label_t is int32_t:
        n_pos = indist_fast_labels_i32(y, n, pos, neg, has_neg, &bad)
    elif label_t is int64_t:
        n_pos = indist_fast_labels_i64(y, n, pos, neg, has_neg, &bad)
    elif label_t is float:
        n_pos = indist_fast_labels_f32(y, n, pos, neg, has_neg, &bad)
    else:
        n_pos = indist_fast_labels_f64(y, n, pos, neg, has_neg, &bad)
    n_bad[0] += bad
    return n_pos


def radix_check(const label_t[::1] y, const score_t[::1] s, double pos_value,
                double neg_value, Py_ssize_t start, Py_ssize_t stop):
    """Rows ``start:stop`` checked before ``radix_fill`` writes them, when they will be
    released behind it: ``(positives, n_bad)``, ``n_bad`` the rows with a NaN score or
    a third label. NumPy equivalent::

        pos = y == pos_value; neg = y == neg_value
        pos.sum(), (np.isnan(s) | ~(pos | neg)).sum()

    (a row both NaN and of a third label counts twice: only zero matters.)"""
    cdef label_t pos_label = <label_t>pos_value
    cdef label_t neg_label = <label_t>(neg_value if neg_value == neg_value else pos_value)
    cdef bint has_neg = neg_value == neg_value
    cdef Py_ssize_t n_bad = 0, n_pos = 0
    _check_block(y.shape[0], s.shape[0], s.shape[0], start, stop)
    if stop == start:
        return 0, 0
    with nogil:
        n_pos = _labels(&y[start], stop - start, pos_label, neg_label, has_neg, &n_bad)
        if score_t is float:
            n_bad += indist_fast_nans32(&s[start], stop - start)
        else:
            n_bad += indist_fast_nans64(&s[start], stop - start)
    return n_pos, n_bad


cdef inline char* _line_buffer(uint8_t[::1] lines) noexcept:
    """The cache line of bucket 0 in ``lines`` (the first 64-byte boundary)."""
    cdef char* buf = <char*>&lines[0]
    return buf + ((64 - (<uintptr_t>buf & 63)) & 63)


cdef inline bint _chain_block(int64_t* head, int64_t* fill, int64_t* full, int64_t* links,
                              int64_t* next_block, int64_t end_block) noexcept nogil:
    """A bucket's open block is full: chain the writer's next free block in front of it
    (``links`` points back). True when the writer has none left."""
    if next_block[0] == end_block:
        return True
    links[next_block[0]] = head[0]
    head[0] = next_block[0]
    next_block[0] += 1
    fill[0] = 0
    full[0] += 1
    return False


def radix_fill(const label_t[::1] y, const score_t[::1] s, double pos_value,
               double neg_value, const uint64_t[::1] table, int64_t base,
               Py_ssize_t start, Py_ssize_t stop, object words, int64_t[::1] links,
               int64_t[:, ::1] state, int64_t[::1] free, uint8_t[::1] lines,
               Py_ssize_t block, bint finish):
    """Write the words of rows ``start:stop`` into their buckets' blocks and count them.

    One writer's state, kept from call to call (its rows in groups): ``state[0, k]``
    is bucket ``k``'s open block (words ``block * state[0, k]`` on), ``state[1, k]``
    the words in it, ``state[2, k]`` the full blocks chained behind it
    (``links[block]`` is the one before, -1 ends the chain), ``state[3, k]`` the
    bucket's positive rows. A full block is followed by block ``free[0]``, taken up to
    ``free[1]`` (the writer's own blocks). ``free[2]`` counts the rows with a NaN
    score or a third label (the words mean nothing then). ``lines``: a cache line per
    bucket, whose words go out to a block in one streaming store when full;
    ``finish``: write the words still in them (the writer's last rows). Blocks are
    whole lines: ``words`` is 64-byte aligned and ``block`` a multiple of a line's
    words, below 2**31 (a bucket's count in its open block is 32 bits).
    """
    cdef Plan plan = _plan_of(table, base)
    cdef Py_ssize_t i, r, n, k, nb = state.shape[1]
    cdef Py_ssize_t n_blocks = links.shape[0]
    cdef int per_line = 16 if score_t is float else 8, item = 4 if score_t is float else 8
    cdef label_t pos_label = <label_t>pos_value
    cdef label_t neg_label = <label_t>(neg_value if neg_value == neg_value else pos_value)
    cdef Py_ssize_t has_neg = neg_value == neg_value
    cdef uint16_t chunk_ids[RADIX_CHUNK]
    cdef uint64_t chunk_words[RADIX_CHUNK]     # (float32 rows use the first half)
    cdef int64_t c, m, next_block, end_block
    cdef Py_ssize_t n_bad = 0
    cdef uint64_t word, both
    cdef bint positive, ran_out = False
    _check_block(y.shape[0], s.shape[0], s.shape[0], start, stop)
    if state.shape[0] != 4 or not 1 <= nb <= 1 << 16:
        raise ValueError("state must have 4 rows of 1 to 2**16 buckets")
    if block < per_line or block % per_line or block >= 1 << 31:
        raise ValueError(f"block must be a positive multiple of {per_line} words"
                         " below 2**31")
    if free.shape[0] != 3 or not 0 <= free[0] <= free[1] <= n_blocks:
        raise ValueError("free must be [next, end, bad] within the blocks")
    if lines.shape[0] < 64 * nb + 64:
        raise ValueError("lines must hold a cache line per bucket")
    cdef char* out = <char*>_words_of(words, n_blocks * block, score_t is double)
    if n_blocks and <uintptr_t>out & 63:
        raise ValueError("words must be 64-byte aligned")
    cdef int64_t* head = &state[0, 0]
    cdef int64_t* fill = &state[1, 0]
    cdef int64_t* full = &state[2, 0]
    cdef int64_t* npos = &state[3, 0]
    for k in range(nb):
        if not 0 <= head[k] < n_blocks or not 0 <= fill[k] < block:
            raise ValueError("state holds a block outside the words")
    # A bucket's words in its open block (low 32 bits) and its positives among them
    # (high 32 bits) in one counter: one read-modify-write a row instead of two (a
    # bare C loop of the fill: 0.90-0.92x the time of separate counts). The positives
    # go to npos when the block is full and at the end of the call.
    counts_arr = np.empty(nb, dtype=np.uint64)
    cdef uint64_t* counts = <uint64_t*>cnp.PyArray_DATA(counts_arr)
    for k in range(nb):
        counts[k] = <uint64_t>fill[k]
    cdef char* line_buf = _line_buffer(lines)
    cdef char* line
    cdef int64_t* link_ptr = &links[0] if n_blocks else NULL
    next_block, end_block = free[0], free[1]
    with nogil:
        r = start
        while r < stop and not ran_out:
            n = min(<Py_ssize_t>RADIX_CHUNK, stop - r)
            # The ids and the checks in loops of their own, vectorised (one loop doing
            # it all ran at a third of the speed).
            n_bad += _chunk_buckets(&s[r], n, &plan, chunk_ids, chunk_words)
            _labels(&y[r], n, pos_label, neg_label, has_neg, &n_bad)
            for i in range(r, r + n):
                k = chunk_ids[i - r]
                both = counts[k]
                c = <int64_t><uint32_t>both
                positive = y[i] == pos_label
                if score_t is float:
                    word = (<uint32_t*>chunk_words)[i - r] | <uint32_t>positive
                else:
                    word = chunk_words[i - r] | <uint64_t>positive
                counts[k] = both + 1 + (<uint64_t>positive << 32)
                line = line_buf + 64 * k
                if (c + 1) & (per_line - 1):
                    if score_t is float:
                        (<uint32_t*>line)[c & (per_line - 1)] = <uint32_t>word
                    else:
                        (<uint64_t*>line)[c & (per_line - 1)] = word
                    continue
                # The line is full (its last word from the register: see
                # indist_fast_stream_line64).
                if score_t is float:
                    indist_fast_stream_line32(out + item * (head[k] * block + c + 1 - per_line),
                                              line, <uint32_t>word)
                else:
                    indist_fast_stream_line64(out + item * (head[k] * block + c + 1 - per_line),
                                              line, word)
                if c + 1 == block:
                    npos[k] += <int64_t>(counts[k] >> 32)
                    counts[k] = 0
                    if _chain_block(&head[k], &fill[k], &full[k], link_ptr, &next_block,
                                    end_block):
                        ran_out = True
                        break
            r += n
        for k in range(nb):
            npos[k] += <int64_t>(counts[k] >> 32)
            fill[k] = <int64_t><uint32_t>counts[k]
        if finish and not ran_out:
            for k in range(nb):
                c = fill[k]
                m = c & (per_line - 1)
                memcpy(out + item * (head[k] * block + c - m), line_buf + 64 * k, item * m)
        indist_fast_stream_done()
    free[0] = next_block
    free[2] += n_bad
    if ran_out:
        raise ValueError("the writer's blocks ran out: give it a block per bucket and one "
                         "per `block` rows")


cdef inline double _score_of(uint64_t word, uint64_t flip, bint wide) noexcept nogil:
    """The score a word holds, given its bucket's ``flip`` (0 above zero, all ones
    below): ``_word`` undone."""
    cdef uint64_t bits64
    cdef uint32_t bits32
    cdef double x
    cdef float f
    if wide:
        bits64 = (word >> 1) ^ flip
        memcpy(&x, &bits64, 8)
        return x
    bits32 = <uint32_t>((word >> 1) ^ flip)
    memcpy(&f, &bits32, 4)
    return <double>f


ctypedef fused word_t:
    uint32_t
    uint64_t


cdef void _sort_bucket(word_t* w, Py_ssize_t n) noexcept nogil:
    """Sort one bucket's words in place, unless they all hold one score (they differ
    at most in the label bit: the sweep takes them in any order). 64-bit words: one
    pass finds their range, which tells both (``_sort_u64``); 32-bit ones: the test
    stops at the first word of another score, so it costs distinct scores nothing.

    (Splitting a bucket in cache into pieces of 128 to 1024 words for NumPy's sorting
    networks cost more than it saved: 58-68 ms against 42 for the sorts of 1e7 rows.)
    """
    cdef Py_ssize_t i
    cdef word_t score_bits
    cdef uint64_t lo, hi
    if n < 2:
        return
    if word_t is uint64_t:
        indist_fast_range64(w, n, &lo, &hi)
        if (lo >> 1) != (hi >> 1):
            _sort_u64(w, n, lo, hi)
    else:
        score_bits = w[0] >> 1
        for i in range(1, n):
            if (w[i] >> 1) != score_bits:
                _sort_words32(w, n, NULL)
                return


cdef void _sweep_bucket(void* words, Py_ssize_t a, Py_ssize_t b, uint8_t top, bint wide,
                        bint blocks, Sink* out) noexcept nogil:
    """Sort words ``a:b`` (one bucket), then sweep their rows from the top
    (``_hot_row``: the sink only sweeps). ``blocks``: rows of distinct scores go eight
    at a time where they can (``words_blocks``; the caller checked that the CPU has
    them and that the sums stay exact), the rest one by one."""
    cdef Py_ssize_t i, stop
    cdef uint64_t* w64 = <uint64_t*>words
    cdef uint32_t* w32 = <uint32_t*>words
    cdef uint64_t flip = 0 if top else (ALL64 if wide else LOW32)
    cdef uint64_t word
    cdef double label
    cdef Open g
    cdef Hot h
    cdef Py_ssize_t groups_before = out.sweep.n_groups
    if wide:
        _sort_bucket(w64 + a, b - a)
    else:
        _sort_bucket(w32 + a, b - a)
    hot_load(&h, &out.sweep)
    _open_load(&g, out)
    i = b - 1
    while i >= a:
        # Blocks start where the open group is whole: the bucket's top row (buckets
        # never share a score) or a row of another score than the one above it.
        if blocks and i - 8 >= a and (i == b - 1 or _score_bits(words, i, wide)
                                      != _score_bits(words, i + 1, wide)):
            if g.tp + g.fp > 0.0:
                hot_push(&h, &out.sweep, g.score, g.tp, g.fp, h.tp + g.tp)
            g.score, g.tp, g.fp = NAN, 0.0, 0.0
            i = words_blocks(&h, words, wide, a, i)
        stop = max(i - 8, a - 1)      # a block the blocks left (or the bucket's tail)
        while i > stop:
            word = w64[i] if wide else w32[i]
            label = <double>(word & 1)
            _hot_row(&h, &out.sweep, &g, _score_of(word, flip, wide), label, 1.0 - label)
            i -= 1
    hot_store(&h, &out.sweep)
    _open_store(&g, out)
    out.m += h.n_groups - groups_before


cdef inline uint64_t _score_bits(void* words, Py_ssize_t i, bint wide) noexcept nogil:
    return ((<uint64_t*>words)[i] if wide else (<uint32_t*>words)[i]) >> 1


cdef int64_t _chain_rows(const int64_t[::1] links, int64_t blk, int64_t length, int64_t full,
                         Py_ssize_t block) except -1:
    """Rows in one writer's chain of a bucket (its open block ``blk`` holding
    ``length``, ``full`` full blocks behind it), having checked that the chain stays
    inside the blocks and is as long as the state says."""
    cdef int64_t size = 0, steps = 0
    if not 0 <= length < block:
        raise ValueError("bad bucket state")
    while blk >= 0:
        if blk >= links.shape[0] or steps > full:
            raise ValueError("bad bucket chain")
        size += length
        length = block
        blk = links[blk]
        steps += 1
    if steps != full + 1:
        raise ValueError("bad bucket chain")
    return size


cdef inline int64_t _gather(char* buf, int64_t m, const char* src, const int64_t[::1] links,
                            int64_t blk, int64_t length, Py_ssize_t block,
                            int item) noexcept nogil:
    """Copy one writer's chain of a bucket (checked by ``_chain_rows``) to ``buf`` from
    item ``m`` on; returns the items in ``buf`` then."""
    while blk >= 0:
        memcpy(buf + item * m, src + item * blk * block, item * length)
        m += length
        length = block
        blk = links[blk]
    return m


def radix_sweep_from(object words, const int64_t[::1] links, const int64_t[:, :, ::1] state,
                     Py_ssize_t block, const uint8_t[::1] tops, Py_ssize_t top,
                     Py_ssize_t bottom, Py_ssize_t split, double weight_pos,
                     double weight_neg, const double[::1] levels, bint exclude_self,
                     double tp_above, double fp_above, double gap_above, bint checkpoint):
    """Sweep buckets ``top - 1`` down to ``bottom`` from the state of the buckets above
    them: each bucket's blocks (``radix_fill``'s, ``state[t]`` the state of writer
    ``t``) are gathered into a buffer, sorted there and swept.

    The radix twin of ``summarize_sorted_from`` (same ``PieceSweep``); its checkpoint
    is the state after the buckets from ``split`` up. The words are only read, so
    a range can be swept again.
    """
    cdef Py_ssize_t nb = tops.shape[0], b, t, n_writers = state.shape[0]
    cdef Py_ssize_t n_blocks = links.shape[0]
    cdef int64_t size, biggest = 0, m
    cdef bint wide = isinstance(words, np.ndarray) and words.dtype == np.uint64
    cdef int item = 8 if wide else 4
    cdef Sink sink
    cdef Hull hull
    cdef double cp_tp = 0.0, cp_fp = 0.0, cp_gap = 0.0
    cdef Py_ssize_t cp_groups = 0
    cdef bint blocks = simd_on() and exact_blocks(weight_pos, weight_neg)
    if state.shape[1] != 4 or state.shape[2] != nb or not 0 <= bottom <= split <= top <= nb:
        raise ValueError("bad bucket range")
    if block < 1:
        raise ValueError("block must be positive")
    cdef const char* w = <const char*>_words_of(words, n_blocks * block, wide)
    # Walk every chain once: each must stay inside the words and hold what its state
    # says, and the largest bucket sizes the buffer.
    for b in range(bottom, top):
        size = 0
        for t in range(n_writers):
            size += _chain_rows(links, state[t, 0, b], state[t, 1, b], state[t, 2, b], block)
        biggest = max(biggest, size)
    buffer_arr = np.empty(biggest * item + 64, dtype=np.uint8)
    cdef char* buf = <char*>cnp.PyArray_DATA(buffer_arr)
    buf += (64 - (<uintptr_t>buf & 63)) & 63
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, None)
    sweep_start_at(&sink.sweep, tp_above, fp_above, gap_above)
    with nogil:
        for b in range(top - 1, bottom - 1, -1):
            if b == split - 1:
                _flush(&sink, <PlainMode>0, <Plain>0)   # buckets never share a score
                cp_tp = sink.sweep.tp * sink.sweep.inv_scale
                cp_fp = sink.sweep.fp * sink.sweep.inv_scale
                cp_gap, cp_groups = sink.sweep.b_gap, sink.sweep.n_groups
            m = 0
            for t in range(n_writers):
                m = _gather(buf, m, w, links, state[t, 0, b], state[t, 1, b], block, item)
            _sweep_bucket(buf, 0, m, tops[b], wide, blocks, &sink)
        _flush(&sink, <PlainMode>0, <Plain>0)
        if split == bottom:
            cp_tp = sink.sweep.tp * sink.sweep.inv_scale
            cp_fp = sink.sweep.fp * sink.sweep.inv_scale
            cp_gap, cp_groups = sink.sweep.b_gap, sink.sweep.n_groups
    cp = Checkpoint(cp_tp, 0.0, cp_fp, cp_gap, cp_groups) if checkpoint else None
    return PieceSweep(_close_sweep(&sink), sink.sweep.b_gap, _last_den(&sink.sweep),
                      sink.sweep.tp * sink.sweep.inv_scale, cp)


cdef void _write_segment(Sweep* st, Py_ssize_t g, int64_t n_rows, double[:, ::1] out,
                         double[:, :, ::1] crossings) noexcept nogil:
    """Segment ``g``'s sweep into row ``g`` of the outputs (``SegmentSweeps`` order)."""
    _write_sweep(st, n_rows, &out[g, 0], &crossings[g, 0, 0] if crossings.shape[1] else NULL)


cdef void _write_sweep(Sweep* st, int64_t n_rows, double* out, double* crossings) noexcept nogil:
    """A sweep's 8 numbers into ``out`` and its ``n_levels`` rows of 5 into
    ``crossings`` (``SegmentSweeps`` order)."""
    cdef double den = _last_den(st)
    cdef Py_ssize_t k, c
    out[0] = <double>n_rows
    out[1] = <double>st.n_groups
    out[2] = <double>st.n_undefined
    out[3] = st.weight_pos * st.inv_scale
    out[4] = st.weight_neg * st.inv_scale
    out[5] = (clamp_probability(st.auc_num / (st.weight_pos * st.weight_neg))
              if st.weight_pos > 0 and st.weight_neg > 0 else NAN)
    out[6] = clamp_probability(st.ap_num / st.weight_pos) if st.weight_pos > 0 else NAN
    # (a range below others with no group of its own has no B of its own either)
    out[7] = b_value(st.b_gap, den) if den > 0 and st.n_groups > 0 else NAN
    for k in range(st.n_levels):
        if st.crossings[k].found:
            crossings[5 * k] = <double>st.crossings[k].index
            crossings[5 * k + 1] = st.crossings[k].threshold
            crossings[5 * k + 2] = st.crossings[k].tp
            crossings[5 * k + 3] = st.crossings[k].fp
            crossings[5 * k + 4] = st.crossings[k].b
        else:
            for c in range(5):
                crossings[5 * k + c] = NAN


cdef object _sweep_result(Sweep* st, object costs):
    """The sweep's state as the ``SweepResult`` both engines return (the numbers as
    ``_write_sweep`` writes them for a table of segments)."""
    cdef double o[8]
    crossings = np.empty((st.n_levels, 5))
    _write_sweep(st, 0, o, <double*>cnp.PyArray_DATA(crossings))
    return SweepResult(st.n_groups, st.n_undefined, o[3], o[4], o[5], o[6], o[7], crossings,
                       costs)


cdef inline double _last_den(Sweep* st) noexcept nogil:
    """Den of B (definitions page, "B(r)"; scaled) at the last operating point pushed."""
    return st.weight_pos * (st.tp + st.fp) - st.tp * st.self_pairs


cdef int _check_levels(const double[::1] levels) except -1:
    if levels.shape[0] > MAX_LEVELS:
        raise ValueError(f"at most {MAX_LEVELS} levels")


def summarize_sorted(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
                     const score_t[::1] pos_lo, const score_t[::1] neg_lo,
                     const double[::1] levels, bint exclude_self, object costs=None):
    """Sweep the four sorted pieces of ``scatter_scores`` without building a table.

    ``costs``: None, or ``(t_fixed, q_fixed, rate_pi_pos)`` to gather the
    threshold-choice sums too (``indist_fast._core.results.CostSums``); rates are
    ``rate_pi_pos tpr + (1 - rate_pi_pos) fpr``, ``rate_pi_pos`` NaN meaning the
    data's base rate, and ``q_fixed < 0`` meaning ``q_fixed = rate_pi_pos``. NumPy
    equivalent:
    ``sweep_table(*table_from_sorted(...), levels, exclude_self, costs)``.
    """
    cdef Sink sink
    cdef Hull hull
    _open_sweep(&sink, &hull, <double>(pos_hi.shape[0] + pos_lo.shape[0]),
                <double>(neg_hi.shape[0] + neg_lo.shape[0]), exclude_self, levels, costs)
    with nogil:
        if sink.sweep_costs:
            _merge_pieces(pos_hi, neg_hi, pos_lo, neg_lo, &sink, <CostMode>0)
        else:
            _merge_pieces(pos_hi, neg_hi, pos_lo, neg_lo, &sink, <PlainMode>0)
    return _close_sweep(&sink)


def summarize_sorted_from(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
                          const score_t[::1] pos_lo, const score_t[::1] neg_lo,
                          double weight_pos, double weight_neg, const double[::1] levels,
                          bint exclude_self, double tp_above, double fp_above,
                          double gap_above, bint checkpoint):
    """Sweep one score range's sorted class pieces from the state of the ranges above it.

    The unweighted twin of ``summarize_keys_from``: the range is the ``*_hi`` pieces
    (ascending, every score above those of the ``*_lo`` pieces) then the ``*_lo``
    pieces; AUC and AP come back as the range's additive shares, TP and FP above are
    counts and G = 2 Num - Den of the sweep (scaled, see ``sweep.pxd``). Returns a
    ``PieceSweep``; its checkpoint (when asked for) is the state after the ``*_hi``
    pieces, so the ``*_lo`` pieces can be swept again on their own.
    """
    cdef Sink sink
    cdef Hull hull
    cdef double cp_tp = 0.0, cp_fp = 0.0, cp_gap = 0.0
    cdef Py_ssize_t cp_groups = 0
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, None)
    sweep_start_at(&sink.sweep, tp_above, fp_above, gap_above)
    with nogil:
        _merge_desc(_ptr(pos_hi), pos_hi.shape[0], _ptr(neg_hi), neg_hi.shape[0], &sink,
                    <PlainMode>0)
        _flush(&sink, <PlainMode>0, <Plain>0)      # the split falls between scores
        cp_tp = sink.sweep.tp * sink.sweep.inv_scale
        cp_fp = sink.sweep.fp * sink.sweep.inv_scale
        cp_gap, cp_groups = sink.sweep.b_gap, sink.sweep.n_groups
        _merge_desc(_ptr(pos_lo), pos_lo.shape[0], _ptr(neg_lo), neg_lo.shape[0], &sink,
                    <PlainMode>0)
        _flush(&sink, <PlainMode>0, <Plain>0)
    cp = Checkpoint(cp_tp, 0.0, cp_fp, cp_gap, cp_groups) if checkpoint else None
    return PieceSweep(_close_sweep(&sink), sink.sweep.b_gap, _last_den(&sink.sweep),
                      sink.sweep.tp * sink.sweep.inv_scale, cp)


cdef int _open_sweep(Sink* sink, Hull* hull, double weight_pos, double weight_neg,
                     bint exclude_self, const double[::1] levels, object costs) except -1:
    """A sink that sweeps, and gathers threshold-choice sums into ``c`` when asked."""
    _check_levels(levels)
    sink_init(sink)
    sink.sweeping = True
    sweep_init(&sink.sweep, weight_pos, weight_neg, exclude_self, levels)
    # The cost sums divide by each class's weight: with a class absent they are
    # undefined, so none are gathered and the facade's two-class check raises first.
    if costs is not None and weight_pos > 0 and weight_neg > 0:
        t_fixed, q_fixed, rate_pi_pos = resolve_costs(costs, weight_pos, weight_neg)
        costs_init(&sink.costs, hull, rate_pi_pos / sink.sweep.weight_pos,
                   (1.0 - rate_pi_pos) / sink.sweep.weight_neg, t_fixed, q_fixed)
        sink.sweep_costs = True
    return 0


def resolve_costs(costs, double weight_pos, double weight_neg):
    """``(t_fixed, q_fixed, rate_pi_pos)`` with the defaults filled in (see
    ``summarize_sorted``)."""
    t_fixed, q_fixed, rate_pi_pos = costs
    if rate_pi_pos != rate_pi_pos:
        rate_pi_pos = weight_pos / (weight_pos + weight_neg)
    if q_fixed < 0:
        q_fixed = rate_pi_pos
    return CostSettings(float(t_fixed), float(q_fixed), float(rate_pi_pos))


cdef object _close_sweep(Sink* sink):
    """The ``SweepResult``, with the threshold-choice sums when they were gathered."""
    cdef Costs* c = &sink.costs
    if not sink.sweep_costs:
        return _sweep_result(&sink.sweep, None)
    cdef double u = sink.sweep.inv_scale      # the sums were gathered in scaled weights
    costs_finish(c, sink.sweep.tp, sink.sweep.fp)
    try:
        if c.hull.failed:
            raise MemoryError("out of memory growing the ROC convex hull")
        hull = np.empty((3, c.hull.n))
        for i in range(c.hull.n):
            hull[0, i] = c.hull.fp[i] * u
            hull[1, i] = c.hull.tp[i] * u
            hull[2, i] = c.hull.t[i]
        sums = CostSums(c.mae_pos * u, c.mae_neg * u, c.brier_pos * u, c.brier_neg * u,
                c.min_score, c.max_score, c.t_tp * u, c.t_fp * u, c.q_tp * u, c.q_fp * u,
                hull)
    finally:
        costs_free(c)
    return _sweep_result(&sink.sweep, sums)


def table_from_sorted(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
                      const score_t[::1] pos_lo, const score_t[::1] neg_lo):
    """The score table (descending distinct scores, int64 counts) of sorted pieces.

    NumPy equivalent: ``np.unique`` of all scores with per-class ``bincount``.
    """
    cdef Py_ssize_t n = (pos_hi.shape[0] + neg_hi.shape[0]
                         + pos_lo.shape[0] + neg_lo.shape[0])
    cdef Sink sink
    table = _open_table(n, np.int64, &sink)
    with nogil:
        _merge_pieces(pos_hi, neg_hi, pos_lo, neg_lo, &sink, <PlainMode>0)
    return _close_table(table, &sink)


cdef tuple _open_table(Py_ssize_t n, object count_dtype, Sink* sink):
    """Columns for up to ``n`` groups, wired into a fresh sink as its outputs."""
    scores = np.empty(max(n, 1), dtype=np.float64)
    tp = np.empty(max(n, 1), dtype=count_dtype)
    fp = np.empty(max(n, 1), dtype=count_dtype)
    sink_init(sink)
    sink.scores = <double*>cnp.PyArray_DATA(scores)
    if count_dtype is np.int64:
        sink.tp_count = <int64_t*>cnp.PyArray_DATA(tp)
        sink.fp_count = <int64_t*>cnp.PyArray_DATA(fp)
    else:
        sink.tp_weight = <double*>cnp.PyArray_DATA(tp)
        sink.fp_weight = <double*>cnp.PyArray_DATA(fp)
    return scores, tp, fp


cdef object _close_table(tuple table, Sink* sink):
    return Table(*[_shrink(col, sink.m) for col in table])


cdef object _shrink(object arr, Py_ssize_t m):
    # realloc in place: trimming by copy would double the peak memory of a table.
    arr.resize(m, refcheck=False)
    return arr


# ---------------------------------------------------------------------------
# Weighted: sort packed keys, gather (score, weight) rows.

cdef struct Row:
    double score
    double weight


cdef inline uint64_t _order_bits(double x) noexcept nogil:
    """Map a non-NaN double to a uint64 whose unsigned order is the numeric order:
    negative scores flip every bit, the others only the sign."""
    cdef uint64_t u
    x = x + 0.0               # -0.0 becomes +0.0: equal scores must share a key
    memcpy(&u, &x, 8)
    return u ^ (<uint64_t>(<int64_t>u >> 63) | (<uint64_t>1 << 63))


def index_bits_for(Py_ssize_t n):
    """Bits a row index needs in a key: ``bit_length(n - 1)``."""
    cdef int bits = 0
    while (<Py_ssize_t>1 << bits) < n:
        bits += 1
    if bits + 1 > 40:
        raise ValueError("too many rows for one key block; split the input")
    return bits


def scatter_keys(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
                 double pos_value, double pivot, Py_ssize_t start, Py_ssize_t stop,
                 int index_bits, uint64_t[::1] keys_out, double[:, ::1] rows_out,
                 Py_ssize_t lo, Py_ssize_t hi):
    """Pack (score order, label, row) of rows ``start:stop`` into sortable keys.

    A key is ``order_bits(s) >> shift << shift | label << index_bits | row`` with
    ``shift = index_bits + 1``. Sorting keys sorts scores up to the dropped low bits;
    the readers re-sort the rare runs whose truncated scores collide, so results are
    exact. ``rows_out[row]`` gets (score, weight) side by side, so reading a row in
    key order costs one cache miss, not two. Keys of rows below the pivot go to
    ``lo`` onward, the others to ``hi`` onward; zero-weight rows are skipped. Rows
    must be clean (``count_rows`` found no bad row). ``w`` may be None (weight 1).
    """
    cdef int shift = index_bits + 1
    cdef Py_ssize_t i, down
    cdef double x, wi = 1.0
    cdef uint64_t key, is_pos
    cdef bint weighted = w is not None
    cdef label_t pos_label = <label_t>pos_value
    cdef uint64_t* keys = &keys_out[0] if keys_out.shape[0] else NULL
    cdef Row* rows = <Row*>&rows_out[0, 0] if rows_out.shape[0] else NULL
    _check_block(y.shape[0], s.shape[0], w.shape[0] if weighted else s.shape[0], start, stop)
    if rows_out.shape[0] != s.shape[0] or rows_out.shape[1] != 2:
        raise ValueError("rows_out must have shape (n, 2)")
    with nogil:
        for i in range(start, stop):
            x = <double>s[i]
            if weighted:
                wi = w[i]
            rows[i].score = x
            rows[i].weight = wi
            if wi == 0.0:
                continue      # a zero-weight row is absent (weights count copies)
            is_pos = y[i] == pos_label
            key = ((_order_bits(x) >> shift) << shift) | (is_pos << index_bits) | <uint64_t>i
            down = x < pivot
            keys[lo if down else hi] = key
            lo += down
            hi += 1 - down


def bucket_ids(const score_t[::1] s, const uint64_t[::1] table, int64_t base,
               Py_ssize_t start, Py_ssize_t stop, uint16_t[::1] ids, object words=None):
    """The radix fills' bucket ids of rows ``start:stop`` (``radix_plan``'s table) into
    ``ids[start:stop]`` and, when given, each row's word less its label bit (``_word``:
    the order bits shifted up by one; uint64 for float64 scores, uint32 for float32)
    into ``words[start:stop]``; returns the NaN scores among them. The fills' own
    loops (``indist_fast_ids*``), a block at a time, for the tests. NumPy equivalent of
    a word: ``order_bits(s) << 1`` in the scores' width."""
    cdef Plan plan = _plan_of(table, base)
    cdef Py_ssize_t c, n, n_nan = 0
    cdef bint wide = score_t is double
    cdef char* out = NULL
    _check_block(ids.shape[0], s.shape[0], s.shape[0], start, stop)
    if words is not None:
        out = <char*>_words_of(words, s.shape[0], wide)
    with nogil:
        c = start
        while c < stop:
            n = min(<Py_ssize_t>RADIX_CHUNK, stop - c)
            n_nan += _chunk_buckets(&s[c], n, &plan, &ids[c],
                                    out + c * (8 if wide else 4) if out != NULL else NULL)
            c += n
    return n_nan


def sort_buckets(uint64_t[::1] keys, const int64_t[::1] starts, Py_ssize_t bottom,
                 Py_ssize_t top):
    """Sort ``keys[starts[b]:starts[b + 1]]`` in place for buckets ``bottom:top``, as
    the radix sweeps sort a bucket's words (``_sort_u64``): for the tests and
    ``benchmarks/ab_builds.py``."""
    cdef Py_ssize_t b, m
    cdef uint64_t lo, hi
    if not 0 <= bottom <= top < starts.shape[0] or (
            top > bottom and starts[top] > keys.shape[0]):
        raise ValueError("bad bucket range")
    with nogil:
        for b in range(bottom, top):
            m = starts[b + 1] - starts[b]
            if m > 1:
                indist_fast_range64(&keys[starts[b]], m, &lo, &hi)
                _sort_u64(&keys[starts[b]], m, lo, hi)


cdef enum:
    PREFETCH_AHEAD = 24       # keys ahead whose rows are requested from memory


cdef inline void _add_key(Sink* sink, const Row* rows, uint64_t key, int index_bits,
                          uint64_t row_mask, mode_t mode) noexcept nogil:
    cdef const Row* row = &rows[key & row_mask]
    cdef double w = row.weight * sink.sweep.scale
    cdef double t, back
    if (key >> index_bits) & 1:
        _add(sink, row.score, w, 0.0, mode, <Chained>0)
        # After _add: a group it closed is emitted with TP before this row. (TwoSum
        # written out: through a pointer the sums would leave registers.)
        t = sink.chain + w
        back = t - sink.chain
        sink.chain_err += (sink.chain - (t - back)) + (w - back)
        sink.chain = t
    else:
        _add(sink, row.score, 0.0, w, mode, <Chained>0)


cdef void _emit_keys(const uint64_t[::1] keys, const Row* rows, int index_bits,
                     Sink* out, vector[pair[double, uint64_t]]& scratch,
                     mode_t mode) noexcept nogil:
    """Add the rows of ascending keys to the sink, from the top."""
    cdef Sink local = out[0]
    cdef Sink* sink = &local
    cdef int shift = index_bits + 1
    cdef uint64_t row_mask = (<uint64_t>1 << index_bits) - 1
    cdef Py_ssize_t i = keys.shape[0] - 1, j, r
    # Invariant: rows of keys above keys[i]'s prefix are added, in descending order.
    while i >= 0:
        if i >= PREFETCH_AHEAD:
            __builtin_prefetch(&rows[keys[i - PREFETCH_AHEAD] & row_mask])
        j = _run_start(keys, i, shift)
        if j == i:
            _add_key(sink, rows, keys[i], index_bits, row_mask, mode)
        else:
            _order_run(keys, j, i, rows, row_mask, scratch)
            for r in range(<Py_ssize_t>scratch.size() - 1, -1, -1):
                _add_key(sink, rows, scratch[r].second, index_bits, row_mask, mode)
        i = j - 1
    out[0] = local


cdef inline Py_ssize_t _run_start(const uint64_t[::1] keys, Py_ssize_t i,
                                  int shift) noexcept nogil:
    """First of the ascending keys that share ``keys[i]``'s truncated score."""
    cdef uint64_t prefix = keys[i] >> shift
    while i > 0 and (keys[i - 1] >> shift) == prefix:
        i -= 1
    return i


cdef void _order_run(const uint64_t[::1] keys, Py_ssize_t j, Py_ssize_t i, const Row* rows,
                     uint64_t row_mask,
                     vector[pair[double, uint64_t]]& scratch) noexcept nogil:
    """``scratch``: (exact score, key) of keys ``j..i`` (one truncated score), ascending
    by the exact score."""
    cdef Py_ssize_t r
    cdef double x, t = rows[keys[i] & row_mask].score
    cdef bint same = True
    scratch.clear()
    for r in range(j, i + 1):
        x = rows[keys[r] & row_mask].score
        same = same and x == t
        scratch.push_back(pair[double, uint64_t](x, keys[r]))
    if not same:
        std_sort(scratch.begin(), scratch.end())


cdef void _emit_pieces(const uint64_t[::1] keys_hi, const uint64_t[::1] keys_lo,
                       const Row* rows, int index_bits, Sink* sink,
                       mode_t mode) noexcept nogil:
    cdef vector[pair[double, uint64_t]] scratch
    _emit_keys(keys_hi, rows, index_bits, sink, scratch, mode)
    _emit_keys(keys_lo, rows, index_bits, sink, scratch, mode)
    _flush(sink, mode, <Chained>0)


def summarize_keys(const uint64_t[::1] keys_hi, const uint64_t[::1] keys_lo,
                   const double[:, ::1] rows, int index_bits, double weight_pos,
                   double weight_neg, const double[::1] levels, bint exclude_self,
                   object costs=None):
    """Sweep sorted ``scatter_keys`` pieces without building a table.

    TP is the compensated sum of the positive rows in key order (``chain_add``);
    ``weight_pos`` must be the total it ends at, which a compensated sum in any order
    almost always is: the last field is that total (unscaled) for the caller to
    check, and to sweep again with when it differs. NumPy equivalent:
    ``sweep_table(*table_from_keys(...), levels, exclude_self, costs)``.
    """
    cdef Sink sink
    cdef Hull hull
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, costs)
    cdef const Row* row_ptr = <const Row*>&rows[0, 0] if rows.shape[0] else NULL
    with nogil:
        if sink.sweep_costs:
            _emit_pieces(keys_hi, keys_lo, row_ptr, index_bits, &sink, <CostMode>0)
        else:
            _emit_pieces(keys_hi, keys_lo, row_ptr, index_bits, &sink, <PlainMode>0)
    return KeySweep(_close_sweep(&sink), (sink.chain + sink.chain_err) * sink.sweep.inv_scale)


def summarize_keys_from(const uint64_t[::1] keys, const double[:, ::1] rows,
                        int index_bits, double weight_pos, double weight_neg,
                        const double[::1] levels, bint exclude_self, double tp_above,
                        double tp_above_err, double fp_above, double gap_above,
                        Py_ssize_t split=-1):
    """Sweep one sorted key piece from the state of the pieces above it.

    Like ``sweep_range`` for keys: AUC and AP come back as this piece's additive
    shares. The state above is TP as a compensated pair ``tp_above + tp_above_err``
    (unscaled), FP (unscaled) and G = 2 Num - Den of B (definitions page, "B(r)"; scaled, see
    ``sweep.pxd``). Returns a ``PieceSweep``: besides the shares, the final G, the final
    Den (scaled), the final compensated TP (unscaled, to check against ``weight_pos``)
    and, when ``split`` (a key index where the truncated score changes) is given, the
    ``Checkpoint`` after the keys at and above it, else None. Lets the two pivot
    pieces of ``scatter_keys`` be swept on two threads, and a piece be swept again in
    halves.
    """
    cdef Sink sink
    cdef Hull hull
    cdef vector[pair[double, uint64_t]] scratch
    cdef Py_ssize_t n = keys.shape[0]
    if split > n:
        raise ValueError("split lies beyond the keys")
    cdef const uint64_t[::1] upper
    cdef const uint64_t[::1] lower
    # (plain assignments: a memoryview in a conditional expression miscounts its
    # acquisitions in this Cython)
    if split >= 0:
        upper = keys[split:]
        lower = keys[:split]
    else:
        upper = keys
        lower = keys[n:]
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, None)
    sink.chain = tp_above * sink.sweep.scale
    sink.chain_err = tp_above_err * sink.sweep.scale
    sweep_start_at(&sink.sweep, tp_above + tp_above_err, fp_above, gap_above)
    cdef const Row* row_ptr = <const Row*>&rows[0, 0] if rows.shape[0] else NULL
    cdef double cp_tp = 0.0, cp_err = 0.0, cp_fp = 0.0, cp_gap = 0.0
    cdef Py_ssize_t cp_groups = 0
    with nogil:
        _emit_keys(upper, row_ptr, index_bits, &sink, scratch, <PlainMode>0)
        _flush(&sink, <PlainMode>0, <Chained>0)    # the split falls between scores
        cp_tp = sink.chain * sink.sweep.inv_scale
        cp_err = sink.chain_err * sink.sweep.inv_scale
        cp_fp = sink.sweep.fp * sink.sweep.inv_scale
        cp_gap, cp_groups = sink.sweep.b_gap, sink.sweep.n_groups
        _emit_keys(lower, row_ptr, index_bits, &sink, scratch, <PlainMode>0)
        _flush(&sink, <PlainMode>0, <Chained>0)
    checkpoint = Checkpoint(cp_tp, cp_err, cp_fp, cp_gap, cp_groups) if split >= 0 else None
    return PieceSweep(_close_sweep(&sink), sink.sweep.b_gap, _last_den(&sink.sweep),
                      (sink.chain + sink.chain_err) * sink.sweep.inv_scale, checkpoint)


def table_from_keys(const uint64_t[::1] keys_hi, const uint64_t[::1] keys_lo,
                    const double[:, ::1] rows, int index_bits):
    """The weighted score table (float64 weights) of sorted ``scatter_keys`` pieces.

    NumPy equivalent: ``np.unique`` of the scores with per-class weighted ``bincount``.
    """
    cdef Sink sink
    table = _open_table(keys_hi.shape[0] + keys_lo.shape[0], np.float64, &sink)
    cdef const Row* row_ptr = <const Row*>&rows[0, 0] if rows.shape[0] else NULL
    with nogil:
        _emit_pieces(keys_hi, keys_lo, row_ptr, index_bits, &sink, <PlainMode>0)
    return _close_table(table, &sink)


# ---------------------------------------------------------------------------
# Weighted rows by radix buckets in one pass: each row of positive weight goes once
# into its bucket's blocks as (score, weight), the label in the weight's sign bit
# (``radix_fill_weighted``), as unweighted words do (``radix_fill``); each bucket is
# then gathered in cache, ordered by keys built there and swept
# (``radix_sweep_weighted_from``), or written as a table (``radix_table_weighted``).
# Against counting the rows first and writing a 24-byte key and row each (the path
# before it): one read of the rows instead of two, 16 bytes a row written instead of
# 24, and the sort and the sweep of a bucket done while it is in cache.

cdef enum:
    # A writer's int64 row per bucket (a cache line: a row touches one line of state).
    W_HEAD = 0        # the open block
    W_FILL = 1        # rows in it
    W_FULL = 2        # full blocks chained behind it
    W_POS = 3         # positive weight, a compensated pair (the bits of two doubles)
    W_POS_ERR = 4
    W_NEG = 5         # negative weight (the bits of a double)
    W_STATE = 8


cdef inline double* _wsums(int64_t* row) noexcept nogil:
    return <double*>(row + W_POS)


def radix_fill_weighted(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
                        double pos_value, double neg_value, const uint64_t[::1] table,
                        int64_t base, Py_ssize_t start, Py_ssize_t stop, double[::1] rows,
                        int64_t[::1] links, int64_t[:, ::1] state, int64_t[::1] free,
                        uint8_t[::1] lines, Py_ssize_t block, bint finish):
    """Write rows ``start:stop`` of positive weight into their buckets' blocks as
    (score, weight) pairs, the weight negated for a positive row, and add up each
    bucket's weight by class.

    ``rows`` holds blocks of ``block`` pairs (``2 * block`` doubles). One writer's
    state, kept from call to call: ``state[k]`` is bucket ``k``'s row of eight (``W_*``:
    its open block, the pairs in it, the full blocks chained behind it, then the
    bits of three doubles: its positive weight as a compensated pair and its negative
    weight). ``links``, ``free`` (its third entry counts rows with a NaN score, a third
    label or a weight that is negative, NaN or infinite), ``lines`` and ``finish`` as
    for ``radix_fill``. ``rows`` is 64-byte aligned and ``block`` a multiple of 4.
    """
    cdef Plan plan = _plan_of(table, base)
    cdef Py_ssize_t i, r, n, k, nb = state.shape[0]
    cdef Py_ssize_t n_blocks = links.shape[0]
    cdef label_t pos_label = <label_t>pos_value
    cdef label_t neg_label = <label_t>(neg_value if neg_value == neg_value else pos_value)
    cdef Py_ssize_t has_neg = neg_value == neg_value
    cdef uint16_t chunk_ids[RADIX_CHUNK]
    cdef int64_t c, next_block, end_block
    cdef int64_t* st
    cdef double* sums
    cdef Py_ssize_t n_bad = 0
    cdef double x, wi, wp, signed
    cdef uint64_t bits
    cdef bint positive, ran_out = False
    cdef Row* slot
    _check_block(y.shape[0], s.shape[0], w.shape[0], start, stop)
    if state.shape[1] != W_STATE or not 1 <= nb <= 1 << 16:
        raise ValueError(f"state must have a row of {W_STATE} for each of 1 to 2**16 buckets")
    if block < 4 or block % 4:
        raise ValueError("block must be a positive multiple of 4 rows")
    if free.shape[0] != 3 or not 0 <= free[0] <= free[1] <= n_blocks:
        raise ValueError("free must be [next, end, bad] within the blocks")
    if lines.shape[0] < 64 * nb + 64:
        raise ValueError("lines must hold a cache line per bucket")
    if rows.shape[0] != 2 * n_blocks * block:
        raise ValueError(f"rows must hold {n_blocks} blocks of {block} pairs")
    cdef Row* out = <Row*>&rows[0] if n_blocks else NULL
    if n_blocks and <uintptr_t>out & 63:
        raise ValueError("rows must be 64-byte aligned")
    for k in range(nb):
        if not 0 <= state[k, W_HEAD] < n_blocks or not 0 <= state[k, W_FILL] < block:
            raise ValueError("state holds a block outside the rows")
    cdef int64_t* state_rows = &state[0, 0]
    cdef char* line_buf = _line_buffer(lines)
    cdef int64_t* link_ptr = &links[0] if n_blocks else NULL
    next_block, end_block = free[0], free[1]
    with nogil:
        r = start
        while r < stop and not ran_out:
            n = min(<Py_ssize_t>RADIX_CHUNK, stop - r)
            n_bad += _chunk_buckets(&s[r], n, &plan, chunk_ids)
            _labels(&y[r], n, pos_label, neg_label, has_neg, &n_bad)
            n_bad += indist_fast_bad_weights(&w[r], n)
            for i in range(r, r + n):
                wi = w[i]
                if wi == 0.0:
                    continue      # a zero-weight row is absent (weights count copies)
                if i - r + FILL_AHEAD < n:  # (the line and state a row ahead lands in)
                    k = chunk_ids[i - r + FILL_AHEAD]
                    __builtin_prefetch(line_buf + 64 * k)
                    __builtin_prefetch(state_rows + W_STATE * k)
                k = chunk_ids[i - r]
                st = state_rows + W_STATE * k
                sums = _wsums(st)
                positive = y[i] == pos_label
                x = <double>s[i] + 0.0      # -0.0 becomes 0.0: a group's score, whichever
                                            # row comes first (as unweighted words do)
                # No branch on the label (a random label mispredicts): both sums take
                # every row, 0.0 for the other class (a compensated sum plus 0.0 is
                # unchanged), and the sign bit is set by arithmetic.
                wp = wi * <double>positive
                chain_add(&sums[0], &sums[1], wp)
                sums[2] += wi - wp
                memcpy(&bits, &wi, 8)
                bits |= <uint64_t>positive << 63
                memcpy(&signed, &bits, 8)
                c = st[W_FILL]
                st[W_FILL] = c + 1
                if (c + 1) & 3:
                    slot = <Row*>(line_buf + 64 * k) + (c & 3)
                    slot.score = x
                    slot.weight = signed
                    continue
                indist_fast_stream_rows(out + st[W_HEAD] * block + c - 3, line_buf + 64 * k,
                                        x, signed)
                if c + 1 == block and _chain_block(&st[W_HEAD], &st[W_FILL], &st[W_FULL],
                                                   link_ptr, &next_block, end_block):
                    ran_out = True
                    break
            r += n
        if finish and not ran_out:
            for k in range(nb):
                st = state_rows + W_STATE * k
                c = st[W_FILL]
                memcpy(out + st[W_HEAD] * block + c - (c & 3), line_buf + 64 * k,
                       sizeof(Row) * (c & 3))
        indist_fast_stream_done()
    free[0] = next_block
    free[2] += n_bad
    if ran_out:
        raise ValueError("the writer's blocks ran out: give it a block per bucket and one "
                         "per `block` rows")


cdef inline int _bit_length(uint64_t x) noexcept nogil:
    return 0 if x == 0 else 64 - __builtin_clzll(x)


cdef uint64_t _order_bucket(const Row* rows, Py_ssize_t m, uint64_t* keys,
                           vector[pair[double, uint64_t]]& scratch) noexcept nogil:
    """Put the keys of one bucket's ``m`` rows in ascending order of the rows' scores;
    returns the mask of a key's row index.

    A row's key: its score's order bits less the bucket's least, shifted right by as
    many bits as the row index needs of 62 (none for every bucket the plan sized: they
    span under 2**49), then the row index below. Plus 2**52, keys are the bits of
    positive normal doubles, which NumPy's SIMD sort orders fastest (``_sort_u64``).
    Where the shift dropped bits, rows of one key prefix are put in the exact order of
    their scores.
    """
    cdef Py_ssize_t j, r, a
    cdef int index_bits = _bit_length(<uint64_t>(m - 1)) if m > 1 else 0
    cdef uint64_t mask = (<uint64_t>1 << index_bits) - 1
    cdef uint64_t lo, hi, prefix
    cdef int shift
    cdef bint same
    if m < 1:
        return mask
    # Vectorised loops of their own (the module's own loops get SSE2 only)
    indist_fast_row_orders(<const double*>rows, m, keys)
    indist_fast_range64(keys, m, &lo, &hi)
    shift = max(0, _bit_length(hi - lo) - (62 - index_bits))
    indist_fast_row_keys(keys, m, lo, shift, index_bits, NORMAL_WORDS)
    if m > 1 and hi != lo:
        _sort_float64(keys, m, NULL)
    if shift:
        r = 0
        while r < m:
            prefix = keys[r] >> index_bits
            a = r
            same = True
            while r + 1 < m and keys[r + 1] >> index_bits == prefix:
                r += 1
                same = same and rows[keys[r] & mask].score == rows[keys[a] & mask].score
            if not same:
                scratch.clear()
                for j in range(a, r + 1):
                    scratch.push_back(pair[double, uint64_t](rows[keys[j] & mask].score,
                                                             keys[j]))
                std_sort(scratch.begin(), scratch.end())
                for j in range(a, r + 1):
                    keys[j] = scratch[j - a].second
            r += 1
    return mask


cdef inline double _positive_part(double weight, double wt) noexcept nogil:
    """``wt`` (the weight's size, maybe scaled) when ``weight``'s sign bit is set (a
    positive row of ``radix_fill_weighted``), else 0.0: by a mask, not a branch on the
    label."""
    cdef uint64_t label, bits
    cdef double tp
    memcpy(&label, &weight, 8)
    memcpy(&bits, &wt, 8)
    bits &= <uint64_t>(<int64_t>label >> 63)
    memcpy(&tp, &bits, 8)
    return tp


cdef void _sweep_bucket_rows(const Row* rows, const uint64_t* keys, Py_ssize_t m,
                             uint64_t mask, Sink* out, mode_t mode) noexcept nogil:
    """Sweep one bucket's rows in descending key order (``_order_bucket``). TP is the
    compensated sum of the rows so far (``sink_emit_chained``); the label is the
    weight's sign, taken without a branch."""
    cdef Py_ssize_t r, j
    cdef double x, wt, tp, fp, scale = out.sweep.scale
    cdef double chain = out.chain, chain_err = out.chain_err, t, back
    cdef Open g
    cdef Hot h
    cdef Py_ssize_t groups_before = out.sweep.n_groups
    if mode_t is PlainMode:
        hot_load(&h, &out.sweep)
        _open_load(&g, out)
    for r in range(m - 1, -1, -1):
        j = <Py_ssize_t>(keys[r] & mask)
        x = rows[j].score
        wt = fabs(rows[j].weight) * scale
        tp = _positive_part(rows[j].weight, wt)
        fp = wt - tp
        if mode_t is CostMode:
            out.chain, out.chain_err = chain, chain_err
            _add(out, x, tp, fp, mode, <Chained>0)     # (a group it closes has TP above)
        elif x == g.score:
            g.tp += tp
            g.fp += fp
        else:
            if g.tp + g.fp > 0.0:
                hot_push(&h, &out.sweep, g.score, g.tp, g.fp, chain + chain_err)
            g.score, g.tp, g.fp = x, tp, fp
        # chain_add written out: through a pointer the sums would leave registers
        t = chain + tp
        back = t - chain
        chain_err += (chain - (t - back)) + (tp - back)
        chain = t
    if mode_t is PlainMode:
        hot_store(&h, &out.sweep)
        _open_store(&g, out)
        out.m += h.n_groups - groups_before
    out.chain, out.chain_err = chain, chain_err


cdef tuple _row_buffers(const double[::1] rows, const int64_t[::1] links,
                        const int64_t[:, :, ::1] state, Py_ssize_t block, Py_ssize_t bottom,
                        Py_ssize_t top):
    """Check that the state and every chain of buckets ``bottom:top`` of
    ``radix_fill_weighted``'s rows stay inside the blocks and hold what the state says;
    returns a buffer for the largest bucket's rows (64 bytes of slack to align it), one
    for its keys, and the rows in all."""
    cdef Py_ssize_t n_writers = state.shape[0], n_blocks = links.shape[0], b, t
    cdef int64_t size, biggest = 0, total = 0
    if state.shape[2] != W_STATE or not 0 <= bottom <= top <= state.shape[1]:
        raise ValueError("bad bucket range")
    if block < 4 or rows.shape[0] != 2 * n_blocks * block:
        raise ValueError("rows must hold the blocks of `block` pairs the links chain")
    for b in range(bottom, top):
        size = 0
        for t in range(n_writers):
            size += _chain_rows(links, state[t, b, W_HEAD], state[t, b, W_FILL],
                                state[t, b, W_FULL], block)
        biggest = max(biggest, size)
        total += size
    return (np.empty(2 * biggest + 8, dtype=np.float64), np.empty(biggest + 1, dtype=np.uint64),
            total)


def radix_sweep_weighted_from(double[::1] rows, const int64_t[::1] links,
                              const int64_t[:, :, ::1] state, Py_ssize_t block,
                              Py_ssize_t top, Py_ssize_t bottom, Py_ssize_t split,
                              double weight_pos, double weight_neg,
                              const double[::1] levels, bint exclude_self, double tp_above,
                              double tp_above_err, double fp_above, double gap_above,
                              bint checkpoint, object costs=None):
    """Sweep buckets ``top - 1`` down to ``bottom`` of ``radix_fill_weighted``'s rows
    (``state[t]`` the state of writer ``t``) from the state of the buckets above: each
    bucket's blocks are gathered into a buffer, ordered and swept there.

    The weighted twin of ``radix_sweep_from`` and the radix twin of
    ``summarize_keys_from``: TP above is a compensated pair, and the ``PieceSweep``'s
    checkpoint (the state after the buckets from ``split`` up) holds one too. ``costs``
    (the threshold-choice sums) only with the whole range from the top. The rows are
    only read, so a range can be swept again.
    """
    cdef Py_ssize_t n_writers = state.shape[0], nb = state.shape[1], b, t
    cdef Py_ssize_t n_blocks = links.shape[0]
    cdef int64_t m
    cdef uint64_t mask
    cdef Sink sink
    cdef Hull hull
    cdef vector[pair[double, uint64_t]] scratch
    cdef double cp_tp = 0.0, cp_err = 0.0, cp_fp = 0.0, cp_gap = 0.0
    cdef Py_ssize_t cp_groups = 0
    if not 0 <= bottom <= split <= top <= nb:
        raise ValueError("bad bucket range")
    if costs is not None and (top != nb or bottom or split or checkpoint or tp_above
                              or tp_above_err or fp_above or gap_above):
        raise ValueError("costs need the sweep of every bucket from the top")
    buffer_arr, keys_arr, _ = _row_buffers(rows, links, state, block, bottom, top)
    cdef char* buf = <char*>cnp.PyArray_DATA(buffer_arr)
    buf += (64 - (<uintptr_t>buf & 63)) & 63
    cdef uint64_t* keys = <uint64_t*>cnp.PyArray_DATA(keys_arr)
    cdef const char* src = <const char*>&rows[0] if n_blocks else NULL
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, costs)
    sink.chain = tp_above * sink.sweep.scale
    sink.chain_err = tp_above_err * sink.sweep.scale
    sweep_start_at(&sink.sweep, tp_above + tp_above_err, fp_above, gap_above)
    with nogil:
        for b in range(top - 1, bottom - 1, -1):
            if b == split - 1:
                _flush(&sink, <PlainMode>0, <Chained>0)   # buckets never share a score
                cp_tp = sink.chain * sink.sweep.inv_scale
                cp_err = sink.chain_err * sink.sweep.inv_scale
                cp_fp = sink.sweep.fp * sink.sweep.inv_scale
                cp_gap, cp_groups = sink.sweep.b_gap, sink.sweep.n_groups
            m = 0
            for t in range(n_writers):
                m = _gather(buf, m, src, links, state[t, b, W_HEAD], state[t, b, W_FILL],
                            block, sizeof(Row))
            mask = _order_bucket(<const Row*>buf, m, keys, scratch)
            if sink.sweep_costs:
                _sweep_bucket_rows(<const Row*>buf, keys, m, mask, &sink, <CostMode>0)
            else:
                _sweep_bucket_rows(<const Row*>buf, keys, m, mask, &sink, <PlainMode>0)
        if sink.sweep_costs:
            _flush(&sink, <CostMode>0, <Chained>0)
        else:
            _flush(&sink, <PlainMode>0, <Chained>0)
        if split == bottom:
            cp_tp = sink.chain * sink.sweep.inv_scale
            cp_err = sink.chain_err * sink.sweep.inv_scale
            cp_fp = sink.sweep.fp * sink.sweep.inv_scale
            cp_gap, cp_groups = sink.sweep.b_gap, sink.sweep.n_groups
    cp = Checkpoint(cp_tp, cp_err, cp_fp, cp_gap, cp_groups) if checkpoint else None
    return PieceSweep(_close_sweep(&sink), sink.sweep.b_gap, _last_den(&sink.sweep),
                      (sink.chain + sink.chain_err) * sink.sweep.inv_scale, cp)


def radix_table_weighted(const double[::1] rows, const int64_t[::1] links,
                         const int64_t[:, :, ::1] state, Py_ssize_t block):
    """The weighted score table (descending distinct scores, float64 weights) of
    ``radix_fill_weighted``'s rows: each bucket's blocks gathered into a buffer, ordered
    there (``_order_bucket``) and its groups written out, from the top bucket down. A
    group's weights add up in the order ``radix_sweep_weighted_from`` adds them.

    NumPy equivalent: ``np.unique`` of the scores with per-class weighted ``bincount``
    (rows of weight 0 are absent).
    """
    cdef Py_ssize_t n_writers = state.shape[0], nb = state.shape[1], b, t, r, j
    cdef Py_ssize_t n_blocks = links.shape[0]
    cdef int64_t m
    cdef uint64_t mask
    cdef double wt, tp
    cdef Sink sink
    cdef vector[pair[double, uint64_t]] scratch
    buffer_arr, keys_arr, total = _row_buffers(rows, links, state, block, 0, nb)
    cdef char* buf = <char*>cnp.PyArray_DATA(buffer_arr)
    buf += (64 - (<uintptr_t>buf & 63)) & 63
    cdef const Row* bucket = <const Row*>buf
    cdef uint64_t* keys = <uint64_t*>cnp.PyArray_DATA(keys_arr)
    cdef const char* src = <const char*>&rows[0] if n_blocks else NULL
    table = _open_table(total, np.float64, &sink)
    with nogil:
        for b in range(nb - 1, -1, -1):
            m = 0
            for t in range(n_writers):
                m = _gather(buf, m, src, links, state[t, b, W_HEAD], state[t, b, W_FILL],
                            block, sizeof(Row))
            mask = _order_bucket(bucket, m, keys, scratch)
            for r in range(m - 1, -1, -1):
                j = <Py_ssize_t>(keys[r] & mask)
                wt = fabs(bucket[j].weight)
                tp = _positive_part(bucket[j].weight, wt)
                _add(&sink, bucket[j].score, tp, wt - tp, <PlainMode>0, <Plain>0)
        _flush(&sink, <PlainMode>0, <Plain>0)
    return _close_table(table, &sink)


# ---------------------------------------------------------------------------
# Tables: sweep and merge.

def sweep_table(const double[::1] scores, const count_t[::1] tp,
                const count_t[::1] fp, const double[::1] levels, bint exclude_self,
                object costs=None):
    """AUC, AP and the level crossings of a score table, in one pass.

    NumPy equivalent: ``indist_fast._core.reference.sweep_table``.
    """
    cdef Sink sink
    cdef Hull hull
    cdef Py_ssize_t g, m = scores.shape[0]
    cdef double wp = 0.0, wn = 0.0
    if tp.shape[0] != m or fp.shape[0] != m:
        raise ValueError("scores, tp and fp differ in length")
    for g in range(m):
        wp += <double>tp[g]
        wn += <double>fp[g]
    _open_sweep(&sink, &hull, wp, wn, exclude_self, levels, costs)
    cdef double scale = sink.sweep.scale
    with nogil:
        # Groups are distinct already: straight to the sweep.
        if sink.sweep_costs:
            for g in range(m):
                _emit(&sink, scores[g], <double>tp[g] * scale, <double>fp[g] * scale,
                      <CostMode>0, <Plain>0)
        elif scale == 1.0:          # the usual case: spare the hot loop two products
            for g in range(m):
                _emit(&sink, scores[g], <double>tp[g], <double>fp[g], <PlainMode>0, <Plain>0)
        else:
            for g in range(m):
                _emit(&sink, scores[g], <double>tp[g] * scale, <double>fp[g] * scale,
                      <PlainMode>0, <Plain>0)
    return _close_sweep(&sink)


def merge_tables(const double[::1] s1, const count_t[::1] tp1, const count_t[::1] fp1,
                 const double[::1] s2, const count_t[::1] tp2, const count_t[::1] fp2):
    """Merge two descending score tables, adding the weights of equal scores.

    NumPy equivalent: concatenate, then group by score.
    """
    cdef Py_ssize_t n1 = s1.shape[0], n2 = s2.shape[0], i = 0, k = 0, m = 0
    dtype = np.int64 if count_t is int64_t else np.float64
    scores = np.empty(n1 + n2, dtype=np.float64)
    tp = np.empty(n1 + n2, dtype=dtype)
    fp = np.empty(n1 + n2, dtype=dtype)
    cdef double[::1] so = scores
    cdef count_t[::1] tpo = tp
    cdef count_t[::1] fpo = fp
    with nogil:
        # Invariant: so[:m] holds every score above s1[i] and s2[k], descending.
        while i < n1 or k < n2:
            if k >= n2 or (i < n1 and s1[i] > s2[k]):
                so[m] = s1[i]; tpo[m] = tp1[i]; fpo[m] = fp1[i]
                i += 1
            elif i >= n1 or s2[k] > s1[i]:
                so[m] = s2[k]; tpo[m] = tp2[k]; fpo[m] = fp2[k]
                k += 1
            else:
                so[m] = s1[i]; tpo[m] = tp1[i] + tp2[k]; fpo[m] = fp1[i] + fp2[k]
                i += 1
                k += 1
            m += 1
    return Table(_shrink(scores, m), _shrink(tp, m), _shrink(fp, m))


def delong_sums(const count_t[::1] tp, const count_t[::1] fp):
    """DeLong's AUC and summed squared structural components of a score table.

    Returns ``(auc, s10, s01)`` with ``s10 = sum_g tp_g (V10_g - auc)^2`` and
    ``s01 = sum_g fp_g (V01_g - auc)^2``, where ``V10_g`` is the share of negative
    weight strictly below group ``g`` plus half of its own, ``V01_g`` the share of
    positive weight strictly above plus half of its own. NumPy equivalent:
    ``indist_fast._core.reference.delong_sums``.
    """
    cdef Py_ssize_t g, m = tp.shape[0]
    cdef double wp = 0.0, wn = 0.0, above = 0.0, below, auc_num = 0.0, auc
    cdef double s10 = 0.0, s01 = 0.0, v, t, f, scale
    if fp.shape[0] != m:
        raise ValueError("tp and fp differ in length")
    with nogil:
        for g in range(m):
            wp += <double>tp[g]
            wn += <double>fp[g]
        # Weights scaled by a power of two (see sweep.weight_scale): W_P W_N must
        # neither overflow nor underflow; s10, s01 are scaled back at the end.
        scale = weight_scale(wp, wn)
        wp = wp * scale
        wn = wn * scale
        # Pass 2: the AUC (the mean of V10); pass 3: squared deviations from it,
        # which keeps the variance free of the cancellation of sum(V^2) - n A^2.
        below = wn
        for g in range(m):
            f = <double>fp[g] * scale
            below -= f
            auc_num += (<double>tp[g] * scale) * (below + 0.5 * f)
        auc = clamp_probability(auc_num / (wp * wn))
        below = wn
        for g in range(m):
            t = <double>tp[g] * scale
            f = <double>fp[g] * scale
            below -= f
            v = (below + 0.5 * f) / wn - auc
            s10 += t * v * v
            v = (above + 0.5 * t) / wp - auc
            s01 += f * v * v
            above += t
    return DeLongSums(auc, s10 / scale, s01 / scale)


def delong_components(const uint64_t[::1] keys, const double[:, ::1] rows, int index_bits,
                      double pos_above, double neg_above, double weight_pos,
                      double weight_neg, double[::1] component_out):
    """DeLong's structural component of every row of one sorted ``scatter_keys`` piece.

    A positive row gets ``V10`` of its score group (negative weight strictly below,
    plus half the group's own, over ``W_N``), a negative row ``V01`` (positive weight
    strictly above, plus half the group's own, over ``W_P``), written at
    ``component_out[row]``; rows absent from the keys (weight 0) are left alone.
    ``pos_above`` and ``neg_above`` are the weights of the pieces above this one.
    Returns this piece's share of the AUC, ``sum(w V10) / W_P`` over its positives.
    NumPy equivalent: ``indist_fast._core.reference.delong_components``.
    """
    cdef int shift = index_bits + 1
    cdef uint64_t row_mask = (<uint64_t>1 << index_bits) - 1
    cdef uint64_t key
    cdef Py_ssize_t i = keys.shape[0] - 1, j, lo, hi, r
    cdef vector[pair[double, uint64_t]] scratch
    cdef const Row* rw = <const Row*>&rows[0, 0] if rows.shape[0] else NULL
    cdef double* comp = &component_out[0] if component_out.shape[0] else NULL
    # Scaled by a power of two (see sweep.weight_scale): sums of huge weights must not
    # overflow; the components are ratios, the same either way.
    cdef double scale = weight_scale(weight_pos, weight_neg)
    cdef double wn = weight_neg * scale
    cdef double cum_pos = pos_above * scale, cum_neg = neg_above * scale
    cdef double inv_wp = 1.0 / (weight_pos * scale), inv_wn = 1.0 / wn
    cdef double auc_num = 0.0, wt, x, g_pos, g_neg, v10, v01
    if rows.shape[1] != 2 or component_out.shape[0] != rows.shape[0]:
        raise ValueError("rows must have shape (n, 2) and component_out n entries")
    with nogil:
        # Invariant: every row of a score above keys[i]'s prefix has its component,
        # and cum_pos, cum_neg hold their weight.
        while i >= 0:
            if i >= PREFETCH_AHEAD:
                __builtin_prefetch(&rw[keys[i - PREFETCH_AHEAD] & row_mask])
                __builtin_prefetch(&comp[keys[i - PREFETCH_AHEAD] & row_mask])
            j = _run_start(keys, i, shift)
            if j == i:                          # a group of one row: no half-ties
                key = keys[i]
                wt = rw[key & row_mask].weight * scale
                if (key >> index_bits) & 1:
                    v10 = (wn - cum_neg) * inv_wn
                    comp[key & row_mask] = v10
                    auc_num += wt * v10
                    cum_pos += wt
                else:
                    comp[key & row_mask] = cum_pos * inv_wp
                    cum_neg += wt
            else:
                _order_run(keys, j, i, rw, row_mask, scratch)
                hi = <Py_ssize_t>scratch.size() - 1
                while hi >= 0:                  # the run's groups, from the top
                    x = scratch[hi].first
                    lo = hi
                    while lo > 0 and scratch[lo - 1].first == x:
                        lo -= 1
                    g_pos = g_neg = 0.0
                    for r in range(lo, hi + 1):
                        key = scratch[r].second
                        wt = rw[key & row_mask].weight * scale
                        if (key >> index_bits) & 1:
                            g_pos += wt
                        else:
                            g_neg += wt
                    v10 = (wn - cum_neg - 0.5 * g_neg) * inv_wn
                    v01 = (cum_pos + 0.5 * g_pos) * inv_wp
                    for r in range(lo, hi + 1):
                        key = scratch[r].second
                        comp[key & row_mask] = v10 if (key >> index_bits) & 1 else v01
                    auc_num += g_pos * v10
                    cum_pos += g_pos
                    cum_neg += g_neg
                    hi = lo - 1
            i = j - 1
    return auc_num * inv_wp


def paired_moments(const label_t[::1] y, double pos_value, const double[::1] w,
                   double weight_total, const double[::1] a, const double[::1] b):
    """Per class, the weighted mean of ``a - b`` and the weighted sum of squared
    deviations from it (rows of weight 0 left out; ``w`` may be None).

    Returns ``(mean_pos, squares_pos, mean_neg, squares_neg)``: DeLong's paired
    variance of two AUCs from the two models' structural components. Two passes (the
    means, then the deviations) keep it free of the cancellation of
    ``sum(d^2) - n mean^2``. ``weight_total`` (the rows' total weight) sets the power
    of two the weights are scaled by inside, so their sums cannot overflow.
    NumPy equivalent: ``reference.paired_moments``.
    """
    cdef Py_ssize_t i, n = y.shape[0]
    cdef bint weighted = w is not None
    # (its sums are linear in the weights: the total's scale keeps them finite)
    cdef double scale = weight_scale(weight_total, 0.0) if weighted else 1.0
    cdef label_t pos_label = <label_t>pos_value
    cdef double wt = 1.0, d, sum_p = 0.0, sum_n = 0.0, tot_p = 0.0, tot_n = 0.0
    cdef double mean_p, mean_n, sq_p = 0.0, sq_n = 0.0
    if a.shape[0] != n or b.shape[0] != n or (weighted and w.shape[0] != n):
        raise ValueError("row arrays differ in length")
    with nogil:
        for i in range(n):
            if weighted:
                wt = w[i] * scale
                if wt == 0.0:
                    continue
            d = wt * (a[i] - b[i])
            if y[i] == pos_label:
                sum_p += d
                tot_p += wt
            else:
                sum_n += d
                tot_n += wt
        mean_p = sum_p / tot_p if tot_p > 0 else NAN
        mean_n = sum_n / tot_n if tot_n > 0 else NAN
        for i in range(n):
            if weighted:
                wt = w[i] * scale
                if wt == 0.0:
                    continue
            if y[i] == pos_label:
                d = a[i] - b[i] - mean_p
                sq_p += wt * d * d
            else:
                d = a[i] - b[i] - mean_n
                sq_n += wt * d * d
    return mean_p, sq_p / scale, mean_n, sq_n / scale


# ---------------------------------------------------------------------------
# Out-of-core: merge sorted runs from disk in one streaming sweep.

cdef struct Stream:
    const void* data            # ascending scores (float or double), read from the top
    Py_ssize_t left             # elements not yet taken
    bint is_float               # float32 data (else float64)
    bint positive               # the run's class
    double head                 # data[left - 1] while left > 0
    uintptr_t kept_end          # pages of the run at or above this address are released
    uintptr_t step              # consumed bytes kept resident before they are released


cdef enum:
    RELEASE_BYTES = 1 << 22     # the largest release step of a stream (4 MB)
    RELEASE_CHECK = 0x3FF       # a stream checks every 1024 elements (about a page)


cdef inline void _release_consumed(Stream* s, uintptr_t page, uintptr_t step) noexcept nogil:
    """Drop the resident pages a stream has read past (they are mapped run files) once
    more than ``step`` bytes of them are held; ``step`` 0 drops them all."""
    cdef uintptr_t size = 4 if s.is_float else 8
    cdef uintptr_t start = <uintptr_t>s.data + <uintptr_t>s.left * size
    start = (start + page - 1) // page * page         # whole pages only
    if s.kept_end > start + step:
        madvise(<void*>start, s.kept_end - start, MADV_DONTNEED)
        s.kept_end = start


cdef inline double _stream_head(Stream* s) noexcept nogil:
    if s.is_float:
        return <double>(<const float*>s.data)[s.left - 1]
    return (<const double*>s.data)[s.left - 1]


cdef inline void _sift_down(Stream* streams, int* heap, int n, int i) noexcept nogil:
    """Restore the max-heap of stream heads below position i."""
    cdef int child, top = heap[i]
    cdef double value = streams[top].head
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and streams[heap[child + 1]].head > streams[heap[child]].head:
            child += 1
        if streams[heap[child]].head <= value:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = top


def summarize_runs(list runs, const double[::1] levels, bint exclude_self, object costs=None,
                   Py_ssize_t held_bytes=1 << 26):
    """Sweep sorted runs as if they were one array: a k-way merge over a heap.

    ``runs`` is a list of ``(scores, positive)``: ascending float32 or float64 scores of
    one class (typically memory-mapped run files). NumPy equivalent: concatenate the
    runs by class and ``summarize_sorted`` them. Pages of the runs already read are
    given back so that, across all runs, about ``held_bytes`` of them stay resident
    (each run keeps at least a page, and a run used up keeps none).
    """
    cdef Py_ssize_t n_streams = len(runs), k
    cdef vector[Stream] streams
    cdef vector[int] heap
    cdef Stream s
    cdef double weight_pos = 0.0, weight_neg = 0.0
    cdef int n_heap = 0
    cdef Sink sink
    cdef Hull hull
    cdef uintptr_t page = <uintptr_t>sysconf(_SC_PAGESIZE)
    # Every run holds up to its step at once: the budget is shared out between them.
    cdef uintptr_t step = <uintptr_t>max(held_bytes, 0) // <uintptr_t>max(n_streams, 1)
    step = max(page, min(step, <uintptr_t>RELEASE_BYTES))
    keep = []
    for scores, positive in runs:
        arr = np.ascontiguousarray(scores)
        if arr.ndim != 1 or arr.dtype not in (np.float32, np.float64):
            raise ValueError("runs must hold 1d float32 or float64 arrays")
        keep.append(arr)
        s.data = cnp.PyArray_DATA(arr)
        s.left = arr.shape[0]
        s.is_float = arr.dtype == np.float32
        s.positive = bool(positive)
        s.head = 0.0
        s.kept_end = (<uintptr_t>s.data + <uintptr_t>arr.nbytes) // page * page
        if s.positive:
            weight_pos += s.left
        else:
            weight_neg += s.left
        streams.push_back(s)
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, costs)
    heap.resize(max(n_streams, 1))
    with nogil:
        for k in range(n_streams):
            if streams[k].left > 0:
                streams[k].head = _stream_head(&streams[k])
                heap[n_heap] = <int>k
                n_heap += 1
        for k in range(n_heap // 2 - 1, -1, -1):
            _sift_down(streams.data(), heap.data(), n_heap, <int>k)
        if sink.sweep_costs:
            _merge_runs(streams.data(), heap.data(), n_heap, &sink, page, step, <CostMode>0)
        else:
            _merge_runs(streams.data(), heap.data(), n_heap, &sink, page, step, <PlainMode>0)
    return _close_sweep(&sink)


cdef void _merge_runs(Stream* streams, int* heap, int n_heap, Sink* sink, uintptr_t page,
                      uintptr_t step, mode_t mode) noexcept nogil:
    """Add every row of the heaped streams to the sink, highest score first."""
    cdef int top
    # Invariant: heap[0] names the stream with the highest remaining score.
    while n_heap > 0:
        top = heap[0]
        if streams[top].positive:
            _add(sink, streams[top].head, 1.0, 0.0, mode, <Plain>0)
        else:
            _add(sink, streams[top].head, 0.0, 1.0, mode, <Plain>0)
        streams[top].left -= 1
        if streams[top].left > 0:
            streams[top].head = _stream_head(&streams[top])
            if (streams[top].left & RELEASE_CHECK) == 0:
                _release_consumed(&streams[top], page, step)
        else:
            _release_consumed(&streams[top], page, 0)    # nothing left to read
            n_heap -= 1
            heap[0] = heap[n_heap]
        if n_heap > 0:
            _sift_down(streams, heap, n_heap, 0)
    _flush(sink, mode, <Plain>0)


def sweep_range(const double[::1] scores, const count_t[::1] tp, const count_t[::1] fp,
                const double[::1] levels, bint exclude_self, double weight_pos,
                double weight_neg, double tp_above, double fp_above, double b_above):
    """Sweep one score range of a larger table, starting from the ranges above it.

    ``weight_pos``/``weight_neg`` are the whole data's totals; ``tp_above``,
    ``fp_above`` and ``b_above`` (G = 2 Num - Den of B, definitions "B(r)", in the sweep's scaled
    units, see ``sweep.pxd``) are the state after every higher range. TP inside the
    range is ``tp_above`` plus the range's own weights summed in order, so with
    ``tp_above`` the in-order sums of the range totals above (``ranges._offsets``) the
    last range ends exactly at ``weight_pos``. AUC and AP come back as this range's
    additive shares; the last field is the range's final G, the next range's
    ``b_above``. NumPy equivalent: ``indist_fast._core.reference.sweep_range``.
    """
    cdef Sink sink
    cdef Hull hull
    cdef Py_ssize_t g, m = scores.shape[0]
    if tp.shape[0] != m or fp.shape[0] != m:
        raise ValueError("scores, tp and fp differ in length")
    cdef double local = 0.0, t
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, None)
    sweep_start_at(&sink.sweep, tp_above, fp_above, b_above)
    cdef double scale = sink.sweep.scale
    with nogil:
        for g in range(m):
            # TP = TP above + this range's own in-order sum: ranges then chain exactly.
            t = <double>tp[g]
            local += t
            sweep_push_at(&sink.sweep, scores[g], t * scale, <double>fp[g] * scale,
                          (tp_above + local) * scale)
    return RangeSweep(_close_sweep(&sink), sink.sweep.b_gap)


# ---------------------------------------------------------------------------
# Segments: one call sweeps every segment of the rows (evaluate_many).

cdef inline void _segment_group(const double* sa, const double* wa, Py_ssize_t* i,
                                const double* sb, const double* wb, Py_ssize_t* j,
                                double* score, double* tp_g, double* fp_g) noexcept nogil:
    """The next distinct score below the ones taken, walking both sorted class pieces
    (scores ``s*``, weights ``w*``) down from their ends (``i``, ``j`` count what is
    left), with its positive and negative weight."""
    cdef double x
    if i[0] > 0 and (j[0] == 0 or sa[i[0] - 1] >= sb[j[0] - 1]):
        x = sa[i[0] - 1]
    else:
        x = sb[j[0] - 1]
    tp_g[0] = 0.0
    fp_g[0] = 0.0
    while i[0] > 0 and sa[i[0] - 1] == x:      # -0.0 == 0.0: one score
        i[0] -= 1
        tp_g[0] += wa[i[0]]
    while j[0] > 0 and sb[j[0] - 1] == x:
        j[0] -= 1
        fp_g[0] += wb[j[0]]
    score[0] = x


cdef void _sweep_weighted_segment(const double* sa, const double* wa, Py_ssize_t n_a,
                                  const double* sb, const double* wb, Py_ssize_t n_b,
                                  Sweep* st, bint exclude_self,
                                  const double[::1] levels) noexcept nogil:
    """Sweep one segment's sorted weighted class pieces. The totals are the groups'
    weights summed in the sweep's own order first, so its TP ends exactly at W_P (see
    sweep.pxd)."""
    cdef Py_ssize_t i = n_a, j = n_b
    cdef double x, tp_g, fp_g, wp = 0.0, wn = 0.0
    while i > 0 or j > 0:
        _segment_group(sa, wa, &i, sb, wb, &j, &x, &tp_g, &fp_g)
        wp += tp_g
        wn += fp_g
    sweep_init(st, wp, wn, exclude_self, levels)
    i, j = n_a, n_b
    while i > 0 or j > 0:
        _segment_group(sa, wa, &i, sb, wb, &j, &x, &tp_g, &fp_g)
        sweep_push(st, x, tp_g * st.scale, fp_g * st.scale)


def count_segments(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
                   const int64_t[::1] codes, double pos_value, double neg_value,
                   int64_t[::1] counts, Py_ssize_t start, Py_ssize_t stop):
    """Count rows ``start:stop`` of each segment ``g`` into ``counts`` (``3 n_segments +
    1`` slots): piece ``2 g + negative`` for the rows kept, ``2 n_segments + g`` for those
    of weight 0 (dropped from the pieces, still rows of the segment), the last slot a
    sink for bad codes. Returns ``(bad, inf)``: the number of bad rows (NaN score, a
    label of neither class, a code outside ``[0, n_segments)``, a weight negative or not
    finite) and of kept rows scored +inf. Branch-free like ``count_rows``; the caller
    locates bad rows with the slower checks only when there are any. ``w`` may be None."""
    cdef Py_ssize_t i, n_bad = 0, n_inf = 0, k, is_pos, is_neg, ok, keep
    cdef Py_ssize_t sink = counts.shape[0] - 1, n_segments = (counts.shape[0] - 1) // 3
    cdef bint weighted = w is not None
    cdef int64_t g
    cdef double x, wi = 1.0
    cdef label_t pos_label = <label_t>pos_value
    cdef label_t neg_label = <label_t>(neg_value if neg_value == neg_value else pos_value)
    cdef Py_ssize_t has_neg = neg_value == neg_value
    if counts.shape[0] % 3 != 1:
        raise ValueError("counts must have 3 n_segments + 1 slots")
    _check_block(y.shape[0], s.shape[0], w.shape[0] if weighted else s.shape[0], start, stop)
    _check_block(codes.shape[0], s.shape[0], s.shape[0], start, stop)
    with nogil:
        for i in range(start, stop):
            x = <double>s[i]
            g = codes[i]
            if weighted:
                wi = w[i]
            is_pos = y[i] == pos_label
            is_neg = (y[i] == neg_label) & has_neg
            ok = (g >= 0) & (g < n_segments)
            keep = wi > 0.0
            n_bad += ((x != x) | (is_pos + is_neg == 0) | (1 - ok)
                      | (not (wi >= 0.0 and wi <= DBL_MAX)))
            n_inf += (x == INFINITY) & keep
            k = (2 * g + 1 - is_pos if keep else 2 * n_segments + g) if ok else sink
            counts[k] += 1
    return n_bad, n_inf


def place_segments(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
                   const int64_t[::1] codes, double pos_value, int64_t[::1] cursor,
                   double[::1] scores, double[::1] weights, Py_ssize_t start, Py_ssize_t stop):
    """Place rows ``start:stop`` (counted and checked by ``count_segments``) at
    ``cursor[2 g + negative]++``: their scores in ``scores`` and, with ``w``, their
    weights in ``weights`` (rows of weight 0 are skipped). Piece by piece, in row order;
    blocks of rows with disjoint cursors may run on two threads.

    A plain scatter: its stores do not wait on each other, so their cache misses
    overlap. (Write-combining lines per piece, all in L2 and copied out when full,
    measured 1.45x slower at 2e4 pieces: each row then waits on its line.)"""
    cdef Py_ssize_t i, k
    cdef int64_t c
    cdef bint weighted = w is not None
    cdef label_t pos_label = <label_t>pos_value
    _check_block(y.shape[0], s.shape[0], w.shape[0] if weighted else s.shape[0], start, stop)
    _check_block(codes.shape[0], s.shape[0], s.shape[0], start, stop)
    if weighted and weights.shape[0] != scores.shape[0]:
        raise ValueError("weights must match scores")
    with nogil:
        if weighted:
            for i in range(start, stop):
                if w[i] > 0.0:
                    k = 2 * codes[i] + (y[i] != pos_label)
                    c = cursor[k]
                    scores[c] = <double>s[i]
                    weights[c] = w[i]
                    cursor[k] = c + 1
        else:
            for i in range(start, stop):
                k = 2 * codes[i] + (y[i] != pos_label)
                scores[cursor[k]] = <double>s[i]
                cursor[k] += 1


def pad_pieces(double[::1] scores, const int64_t[::1] begin, const int64_t[::1] size,
               const int64_t[::1] length):
    """Fill piece ``k``'s padding ``scores[begin[k] + size[k]:begin[k] + length[k]]`` with
    +inf, so a row of ``length[k]`` sorts its ``size[k]`` scores first."""
    cdef Py_ssize_t k, i
    for k in range(begin.shape[0]):
        if not (0 <= size[k] <= length[k] and 0 <= begin[k]
                and begin[k] + length[k] <= scores.shape[0]):
            raise ValueError(f"piece {k} does not fit the scores")
    with nogil:
        for k in range(begin.shape[0]):
            for i in range(begin[k] + size[k], begin[k] + length[k]):
                scores[i] = INFINITY


def sweep_placed_segments(const double[::1] scores, const double[::1] weights,
                          const int64_t[::1] begin, const int64_t[::1] size,
                          const int64_t[::1] n_rows, const double[::1] levels,
                          bint exclude_self, double[:, ::1] out, double[:, :, ::1] crossings,
                          Py_ssize_t first=0, Py_ssize_t stop=-1):
    """Sweep segments ``first:stop`` (default all) of sorted pieces: piece ``k = 2 g +
    negative`` is ``scores[begin[k]:begin[k] + size[k]]``, ascending, with its rows'
    ``weights`` at the same places (None: unweighted); ``n_rows[g]`` counts segment
    ``g``'s rows, zero weights included. ``out[g]`` receives ``n_rows, n_groups,
    n_undefined, weight_pos, weight_neg, auc, average_precision, b_last`` and
    ``crossings[g]`` its ``[index, threshold, TP, FP, B]`` per level, as ``SweepResult``
    holds them. Disjoint segment ranges may run on different threads. NumPy
    equivalent: ``indist_fast._core.reference.summarize_segments``."""
    cdef Py_ssize_t n_segments = out.shape[0], g, k, a, b
    cdef bint weighted = weights is not None
    cdef const double* base = &scores[0] if scores.shape[0] else NULL
    cdef const double* wbase = &weights[0] if weighted and weights.shape[0] else NULL
    cdef Sink sink
    cdef Sweep st
    _check_levels(levels)
    if begin.shape[0] != 2 * n_segments or size.shape[0] != 2 * n_segments \
            or n_rows.shape[0] != n_segments or out.shape[1] != 8 \
            or crossings.shape[0] != n_segments or crossings.shape[1] != levels.shape[0] \
            or crossings.shape[2] != 5 or (weighted and weights.shape[0] != scores.shape[0]):
        raise ValueError("output arrays do not match the segments and levels")
    if stop < 0:
        stop = n_segments
    if not 0 <= first <= stop <= n_segments:
        raise ValueError(f"bad segment range {first}:{stop} of {n_segments}")
    for k in range(2 * first, 2 * stop):
        if not (0 <= size[k] and 0 <= begin[k] and begin[k] + size[k] <= scores.shape[0]):
            raise ValueError(f"piece {k} does not fit the scores")
    memset(&st, 0, sizeof(Sweep))
    with nogil:
        for g in range(first, stop):
            a, b = 2 * g, 2 * g + 1
            if weighted:
                _sweep_weighted_segment(base + begin[a], wbase + begin[a], size[a],
                                        base + begin[b], wbase + begin[b], size[b],
                                        &st, exclude_self, levels)
                _write_segment(&st, g, n_rows[g], out, crossings)
            else:
                sink_init(&sink)
                sink.sweeping = True
                sweep_init(&sink.sweep, <double>size[a], <double>size[b], exclude_self,
                           levels)
                _merge_desc(base + begin[a], size[a], base + begin[b], size[b], &sink,
                            <PlainMode>0)
                _flush(&sink, <PlainMode>0, <Plain>0)
                _write_segment(&sink.sweep, g, n_rows[g], out, crossings)
