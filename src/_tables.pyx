# cython: language_level=3
"""Compiled kernels of indist_fast over score tables: sweep, merge, DeLong sums, and the
paired moments of two models' rows.

Private; reached through ``indist_fast._core.fast`` (``indist_fast._core.reference`` is the
NumPy twin).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t
from libc.math cimport NAN

from indist_fast._core.types cimport label_t, count_t
from indist_fast._core.sweep cimport Sink, Hull, weight_scale, clamp_probability
from _common cimport *

from indist_fast._core.records import DeLongSums

cnp.import_array()

include "_sinks.pxi"


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
