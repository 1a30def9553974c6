/* AUC of sorted classes as four merges side by side (declared in src/_sorted.pyx). */
#ifndef INDIST_FAST_PAIRS_H
#define INDIST_FAST_PAIRS_H

#include <stdint.h>

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

#endif /* INDIST_FAST_PAIRS_H */
