/* The C half of indist_fast/_core/sweep.pxd (which declares it): the Hot sums and the
   eight-group AVX-512 blocks. Shipped with the .pxd files; an embedder's C compiler finds
   it as "indist_fast/_core/include/sweep_c.h" under indist_fast.get_include().
   Included after Python.h (Py_ssize_t). */
#ifndef INDIST_FAST_SWEEP_C_H
#define INDIST_FAST_SWEEP_C_H

#include <stdint.h>
#include <string.h>

/* The part of a Sweep that every group updates (Cython: ``Hot``). A row loop keeps
   it in a local of its own (small: the compiler holds it in registers) and writes
   it back when a level is reached and at the end; through the large Sweep each
   update was a store and a reload, and a row took twice the time. Defined in C so
   the eight-group blocks below read and write it too. */
typedef struct {
    double tp, fp, auc_num, ap_num, b_gap, next_gap, weight_pos, self_pairs;
    Py_ssize_t n_groups, n_undefined;
} indist_hot;

/* Eight groups at a time (AVX-512), where group weights are whole numbers.

   The sweep's sums are prefix sums: TP, FP and G after each of eight groups are
   the running totals plus an in-register prefix sum of the groups' terms. With
   whole weights, not too many of them (exact_blocks), every term, total and partial
   sum is an integer (or a half, for AUC) below 2**52, so these sums are exact in
   any order and equal the one-group-at-a-time loop's bit for bit. The comparisons
   that find a level (G >= next_gap Den) are the loop's own operations on the same
   values. Only the sum of AP's quotients rounds: it is added in the loop's order,
   one group after another. A block in which a level is reached is left to the
   loop (it records the crossing), and so are the rows of a score that runs on past
   the block (ties inside a block stay in it). Where the CPU lacks AVX-512 (or the
   tests turn it off, indist_simd_set) the blocks take nothing and the loop does
   it all. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(_WIN32)
#include <immintrin.h>
/* (GCC 12 warns of the intrinsics' own deliberately undefined registers) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define INDIST_SIMD_TARGET __attribute__((target("avx512f,avx512dq,avx512vl")))
static int indist_simd_state = -1;          /* unknown until first asked */
static inline int indist_simd_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")
           && __builtin_cpu_supports("avx512vl");
}
static inline int indist_simd_on(void) {
    if (indist_simd_state < 0) indist_simd_state = indist_simd_supported();
    return indist_simd_state;
}
static inline int indist_simd_set(int on) {
    indist_simd_state = on && indist_simd_supported();
    return indist_simd_state;
}
/* x[0], x[0] + x[1], ..., x[0] + ... + x[7] */
INDIST_SIMD_TARGET static inline __m512d indist_prefix8(__m512d x) {
    const __m512i z = _mm512_setzero_si512();
    __m512i v = _mm512_castpd_si512(x);
    x = _mm512_add_pd(x, _mm512_castsi512_pd(_mm512_alignr_epi64(v, z, 7)));
    v = _mm512_castpd_si512(x);
    x = _mm512_add_pd(x, _mm512_castsi512_pd(_mm512_alignr_epi64(v, z, 6)));
    v = _mm512_castpd_si512(x);
    return _mm512_add_pd(x, _mm512_castsi512_pd(_mm512_alignr_epi64(v, z, 4)));
}
/* Push eight groups (lane 0 first; weights t, f; lanes outside nz hold no rows)
   into h, AUC's terms into *auc; 0 (h untouched) when a level may be reached.
   The prefix sums do not wait on h: with ct = TP + P(t) (P: the prefix sum), G's
   terms n (above - below) = n (2 ct - t - W_P) sum to P(n (2 P(t) - t - W_P))
   + 2 TP P(n), so from one block to the next only TP, FP and G are carried. */
INDIST_SIMD_TARGET static inline int indist_push8(indist_hot* h, __m512d t, __m512d f,
                                                  __mmask8 nz, __m512d* auc) {
    const __m512d wp = _mm512_set1_pd(h->weight_pos);
    const __m512i last = _mm512_set1_epi64(7);
    __m512d pt = indist_prefix8(t), pf = indist_prefix8(f);
    __m512d pn = _mm512_add_pd(pt, pf);
    __m512d pu = indist_prefix8(_mm512_mul_pd(
        _mm512_add_pd(t, f), _mm512_sub_pd(_mm512_sub_pd(_mm512_add_pd(pt, pt), t), wp)));
    __m512d tp = _mm512_set1_pd(h->tp);
    __m512d ct = _mm512_add_pd(tp, pt);
    __m512d cf = _mm512_add_pd(_mm512_set1_pd(h->fp), pf);
    __m512d gap = _mm512_add_pd(_mm512_add_pd(_mm512_set1_pd(h->b_gap), pu),
                                _mm512_mul_pd(_mm512_add_pd(tp, tp), pn));
    __m512d den = _mm512_sub_pd(_mm512_mul_pd(wp, _mm512_add_pd(ct, cf)),
                                _mm512_mul_pd(ct, _mm512_set1_pd(h->self_pairs)));
    __mmask8 undefined = _mm512_mask_cmp_pd_mask(nz, den, _mm512_setzero_pd(), _CMP_LE_OQ);
    __mmask8 reached = _mm512_mask_cmp_pd_mask(
        nz & ~undefined, gap, _mm512_mul_pd(_mm512_set1_pd(h->next_gap), den), _CMP_GE_OQ);
    if (reached) return 0;
    /* AUC's terms f (above + t / 2), above = ct - t */
    *auc = _mm512_add_pd(*auc, _mm512_mul_pd(
        f, _mm512_sub_pd(ct, _mm512_mul_pd(t, _mm512_set1_pd(0.5)))));
    __mmask8 pos = _mm512_mask_cmp_pd_mask(nz, t, _mm512_setzero_pd(), _CMP_GT_OQ);
    double q[8];
    _mm512_storeu_pd(q, _mm512_maskz_compress_pd(
        pos, _mm512_mul_pd(t, _mm512_div_pd(ct, _mm512_add_pd(ct, cf)))));
    double ap = h->ap_num;
    /* In order, a quotient a group; without a branch on how many (it would be
       mispredicted about once a block) up to four, and the rest in a loop. The
       compressed lanes past the positives are zeros: adding them changes nothing. */
    ap = ((ap + q[0]) + q[1]) + q[2] + q[3];
    for (int k = 4, n = __builtin_popcount(pos); k < n; k++) ap += q[k];
    h->ap_num = ap;
    double sum_n = _mm512_cvtsd_f64(_mm512_permutexvar_pd(last, pn));
    h->b_gap += _mm512_cvtsd_f64(_mm512_permutexvar_pd(last, pu)) + 2.0 * h->tp * sum_n;
    h->tp += _mm512_cvtsd_f64(_mm512_permutexvar_pd(last, pt));
    h->fp += _mm512_cvtsd_f64(_mm512_permutexvar_pd(last, pf));
    h->n_groups += __builtin_popcount(nz);
    h->n_undefined += __builtin_popcount(undefined);
    return 1;
}
/* Eight rows (lane 0 first; labels t) that end groups where ``ends`` is set (the
   row below has another score): the groups up to the last end are pushed and
   their rows counted (0: none, h untouched; a level is reached or no group ends). */
INDIST_SIMD_TARGET static inline int indist_rows8(indist_hot* h, __m512d t, __mmask8 ends,
                                                  __m512d* auc) {
    if (ends == 0xFF)
        return indist_push8(h, t, _mm512_sub_pd(_mm512_set1_pd(1.0), t), 0xFF, auc) ? 8 : 0;
    if (ends == 0) return 0;
    /* Rows to the group ends: the counts of positives and negatives so far, at each
       end, less those at the end before. */
    const __m512i z = _mm512_setzero_si512();
    __m512d pos = indist_prefix8(t);
    __m512d neg = _mm512_sub_pd(_mm512_set_pd(8, 7, 6, 5, 4, 3, 2, 1), pos);
    __mmask8 nz = (__mmask8)((1u << __builtin_popcount(ends)) - 1);
    __m512i pe = _mm512_castpd_si512(_mm512_maskz_compress_pd(ends, pos));
    __m512i ne = _mm512_castpd_si512(_mm512_maskz_compress_pd(ends, neg));
    __m512d tg = _mm512_maskz_sub_pd(nz, _mm512_castsi512_pd(pe),
                                     _mm512_castsi512_pd(_mm512_alignr_epi64(pe, z, 7)));
    __m512d fg = _mm512_maskz_sub_pd(nz, _mm512_castsi512_pd(ne),
                                     _mm512_castsi512_pd(_mm512_alignr_epi64(ne, z, 7)));
    return indist_push8(h, tg, fg, nz, auc) ? 32 - __builtin_clz((unsigned)ends) : 0;
}
/* Rows i, i-1, ... of an ascending bucket of words (score bits, then the label bit;
   64-bit words when ``wide``, else 32-bit), eight at a time: returns the first row
   not taken. The caller has pushed the group above row i. */
INDIST_SIMD_TARGET static Py_ssize_t indist_words_avx512(indist_hot* h, const void* w, int wide,
                                                         Py_ssize_t a, Py_ssize_t i) {
    const __m512i reverse = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i reverse32 = _mm256_set_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m512d auc = _mm512_setzero_pd();
    __m512i here, below;       /* lane k: row i - k, and the row below it */
    indist_hot local = *h;     /* (in registers: its address stays here) */
    while (i - 8 >= a) {
        if (wide) {
            here = _mm512_permutexvar_epi64(reverse, _mm512_loadu_si512((const uint64_t*)w + i - 7));
            below = _mm512_permutexvar_epi64(reverse, _mm512_loadu_si512((const uint64_t*)w + i - 8));
        } else {
            here = _mm512_cvtepu32_epi64(_mm256_permutexvar_epi32(
                reverse32, _mm256_loadu_si256((const __m256i*)((const uint32_t*)w + i - 7))));
            below = _mm512_cvtepu32_epi64(_mm256_permutexvar_epi32(
                reverse32, _mm256_loadu_si256((const __m256i*)((const uint32_t*)w + i - 8))));
        }
        __mmask8 ends = _mm512_cmpneq_epu64_mask(_mm512_srli_epi64(here, 1),
                                                 _mm512_srli_epi64(below, 1));
        __m512d t = _mm512_cvtepu64_pd(_mm512_and_si512(here, _mm512_set1_epi64(1)));
        int rows = indist_rows8(&local, t, ends, &auc);
        if (!rows) break;
        i -= rows;
    }
    local.auc_num += _mm512_reduce_add_pd(auc);
    *h = local;
    return i;
}
/* Groups g, g+1, ... (descending scores) with weights tp[], fp[] (zero: no rows
   drawn, no operating point), eight at a time, clearing them: returns the first
   group not taken. */
INDIST_SIMD_TARGET static Py_ssize_t indist_groups_avx512(indist_hot* h, double* tp, double* fp,
                                                          Py_ssize_t g, Py_ssize_t m) {
    __m512d auc = _mm512_setzero_pd();
    indist_hot local = *h;
    while (g + 8 <= m) {
        __m512d t = _mm512_loadu_pd(tp + g), f = _mm512_loadu_pd(fp + g);
        __mmask8 nz = _mm512_cmp_pd_mask(_mm512_add_pd(t, f), _mm512_setzero_pd(), _CMP_GT_OQ);
        if (!indist_push8(&local, t, f, nz, &auc)) break;
        _mm512_storeu_pd(tp + g, _mm512_setzero_pd());
        _mm512_storeu_pd(fp + g, _mm512_setzero_pd());
        g += 8;
    }
    local.auc_num += _mm512_reduce_add_pd(auc);
    *h = local;
    return g;
}
static inline Py_ssize_t indist_words_blocks(indist_hot* h, const void* w, int wide,
                                             Py_ssize_t a, Py_ssize_t i) {
    return indist_simd_on() ? indist_words_avx512(h, w, wide, a, i) : i;
}
static inline Py_ssize_t indist_groups_blocks(indist_hot* h, double* tp, double* fp,
                                              Py_ssize_t g, Py_ssize_t m) {
    return indist_simd_on() ? indist_groups_avx512(h, tp, fp, g, m) : g;
}
#pragma GCC diagnostic pop
#else
static inline int indist_simd_on(void) { return 0; }
static inline int indist_simd_set(int on) { (void)on; return 0; }
static inline Py_ssize_t indist_words_blocks(indist_hot* h, const void* w, int wide,
                                             Py_ssize_t a, Py_ssize_t i) { return i; }
static inline Py_ssize_t indist_groups_blocks(indist_hot* h, double* tp, double* fp,
                                              Py_ssize_t g, Py_ssize_t m) { return g; }
#endif

#endif /* INDIST_FAST_SWEEP_C_H */
