# cython: language_level=3
# distutils: language = c++
"""Compiled bootstrap kernel: resample rows as counts over the already sorted table.

Private; reached through ``indist_fast._core.fast``. ``indist_fast._core.reference`` holds the
NumPy twin (same draws from the same bit generators, same results).

A replicate draws rows with replacement (within each class when stratified) as
*slots*: every row of a class is a slot holding its group (its distinct score's
index in the table) and its weight. Adding each drawn slot's weight to its group
gives the replicate's table without any sort, and one sweep reads every metric.

Draws: each raw 64-bit output of the bit generator gives two 32-bit candidates (low
half first); candidate ``x`` yields slot ``x * n >> 32`` unless the low 32 bits of
``x * n`` fall below ``(2**32 - n) % n`` (Lemire's unbiased multiply-shift). Positives
are drawn first, each class starting on a fresh raw output, then negatives, all from
replicate ``k``'s own generator, so results do not depend on how replicates are
spread over threads. A class holds fewer than 2**32 slots.
"""

import numpy as np
cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memset
from libc.math cimport NAN
from libcpp.vector cimport vector
from numpy.random cimport bitgen_t

from indist_fast._core.sweep cimport Sweep, sweep_init, sweep_push, clamp_probability, MAX_LEVELS

from indist_fast._core.results import ReplicateCounts

cnp.import_array()


cdef struct Draws:
    # 32-bit halves of the generator's raw 64-bit outputs, low half first.
    bitgen_t* rng
    uint64_t raw
    bint spare                 # the high half of `raw` is still unused


cdef inline void _draws_start(Draws* d, bitgen_t* rng) noexcept nogil:
    d.rng = rng
    d.spare = False            # every class starts on a fresh raw draw


cdef inline uint32_t _next32(Draws* d) noexcept nogil:
    if d.spare:
        d.spare = False
        return <uint32_t>(d.raw >> 32)
    d.raw = d.rng.next_uint64(d.rng.state)
    d.spare = True
    return <uint32_t>d.raw


cdef inline Py_ssize_t _below(Draws* d, uint32_t n, uint32_t reject) noexcept nogil:
    """A uniform index below ``n`` (Lemire: multiply, reject low parts below ``reject``)."""
    cdef uint64_t m
    while True:
        m = <uint64_t>_next32(d) * n
        if <uint32_t>m >= reject:
            return <Py_ssize_t>(m >> 32)


cdef inline uint32_t _reject_below(Py_ssize_t n) noexcept nogil:
    # (2**32 - n) % n: low parts below it would make some indices more likely.
    return <uint32_t>((<uint64_t>1 << 32) - <uint64_t>n) % <uint32_t>n if n > 0 else 0


cdef inline void _draw_class(Draws* d, bitgen_t* rng, Py_ssize_t n, uint32_t reject,
                             const int64_t* group, const double* w, double* out,
                             int64_t* counts) noexcept nogil:
    """``n`` draws among a class's ``n`` slots, adding their weights to their groups."""
    cdef Py_ssize_t j, i
    _draws_start(d, rng)
    for j in range(n):
        i = _below(d, <uint32_t>n, reject)
        out[group[i]] += w[i] if w != NULL else 1.0
        if counts != NULL:
            counts[i] += 1


cdef void _replicate_groups(bitgen_t* rng, const int64_t* pos_group, const double* pos_w,
                            Py_ssize_t n_pos, const int64_t* neg_group,
                            const double* neg_w, Py_ssize_t n_neg, bint stratified,
                            double* tp, double* fp, Py_ssize_t m,
                            int64_t* pos_counts, int64_t* neg_counts) noexcept nogil:
    """One replicate's positive and negative weight per group (and slot counts if asked)."""
    cdef Py_ssize_t j, i, n = n_pos + n_neg
    cdef uint32_t reject_pos = _reject_below(n_pos), reject_neg = _reject_below(n_neg)
    cdef uint32_t reject_all = _reject_below(n)
    cdef Draws d
    memset(tp, 0, m * sizeof(double))
    memset(fp, 0, m * sizeof(double))
    if stratified:
        _draw_class(&d, rng, n_pos, reject_pos, pos_group, pos_w, tp, pos_counts)
        _draw_class(&d, rng, n_neg, reject_neg, neg_group, neg_w, fp, neg_counts)
    else:
        _draws_start(&d, rng)
        for j in range(n):
            i = _below(&d, <uint32_t>n, reject_all)
            if i < n_pos:
                tp[pos_group[i]] += pos_w[i] if pos_w != NULL else 1.0
                if pos_counts != NULL:
                    pos_counts[i] += 1
            else:
                i -= n_pos
                fp[neg_group[i]] += neg_w[i] if neg_w != NULL else 1.0
                if neg_counts != NULL:
                    neg_counts[i] += 1


cdef bitgen_t* _bitgen(object bit_generator) except NULL:
    return <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


cdef const double* _weights_ptr(const double[::1] w, Py_ssize_t n) except? NULL:
    if w is None:
        return NULL
    if w.shape[0] != n:
        raise ValueError("slot weights and groups differ in length")
    return &w[0] if n else NULL


def replicate_counts(object bit_generator, const int64_t[::1] pos_group,
                     const double[::1] pos_weight, const int64_t[::1] neg_group,
                     const double[::1] neg_weight, Py_ssize_t n_groups, bint stratified):
    """One replicate: ``(tp, fp, pos_counts, neg_counts)``.

    ``tp``/``fp`` hold each group's resampled weight, ``*_counts`` how often each slot
    was drawn. NumPy equivalent: ``indist_fast._core.reference.replicate_counts``.
    """
    cdef Py_ssize_t n_pos = pos_group.shape[0], n_neg = neg_group.shape[0]
    tp = np.empty(n_groups)
    fp = np.empty(n_groups)
    pos_counts = np.zeros(n_pos, dtype=np.int64)
    neg_counts = np.zeros(n_neg, dtype=np.int64)
    cdef bitgen_t* rng = _bitgen(bit_generator)
    cdef const double* pw = _weights_ptr(pos_weight, n_pos)
    cdef const double* nw = _weights_ptr(neg_weight, n_neg)
    cdef double* tp_ptr = <double*>cnp.PyArray_DATA(tp)
    cdef double* fp_ptr = <double*>cnp.PyArray_DATA(fp)
    cdef int64_t* pc_ptr = <int64_t*>cnp.PyArray_DATA(pos_counts)
    cdef int64_t* nc_ptr = <int64_t*>cnp.PyArray_DATA(neg_counts)
    _check_groups(pos_group, n_groups)
    _check_groups(neg_group, n_groups)
    _check_slot_count(n_pos + n_neg)
    with nogil:
        _replicate_groups(rng, &pos_group[0] if n_pos else NULL, pw, n_pos,
                          &neg_group[0] if n_neg else NULL, nw, n_neg, stratified,
                          tp_ptr, fp_ptr, n_groups, pc_ptr, nc_ptr)
    return ReplicateCounts(tp, fp, pos_counts, neg_counts)


cdef int _check_groups(const int64_t[::1] groups, Py_ssize_t n_groups) except -1:
    cdef Py_ssize_t i
    for i in range(groups.shape[0]):
        if groups[i] < 0 or groups[i] >= n_groups:
            raise ValueError(f"slot {i} names group {groups[i]} of {n_groups}")
    return 0


cdef int _check_slot_count(Py_ssize_t n) except -1:
    if n >= (<Py_ssize_t>1 << 32):
        raise ValueError(f"the bootstrap draws from fewer than 2**32 rows, got {n}")
    return 0


def replicate_sweeps(list bit_generators, const int64_t[::1] pos_group,
                     const double[::1] pos_weight, const int64_t[::1] neg_group,
                     const double[::1] neg_weight, const double[::1] scores,
                     bint stratified, const double[::1] levels, bint exclude_self,
                     double[:, ::1] out):
    """Sweep one replicate per bit generator; row ``k`` of ``out`` gets replicate ``k``.

    Columns: ``weight_pos, weight_neg, auc, average_precision`` and, per level,
    ``threshold, tp, fp, b`` (NaN when the level is not reached). NumPy equivalent:
    ``indist_fast._core.reference.replicate_sweeps``.
    """
    cdef Py_ssize_t n_rep = len(bit_generators), m = scores.shape[0]
    cdef Py_ssize_t n_pos = pos_group.shape[0], n_neg = neg_group.shape[0]
    cdef Py_ssize_t k, g, c
    cdef int L = <int>levels.shape[0]
    cdef vector[bitgen_t*] rngs
    cdef vector[double] tp, fp
    cdef vector[Py_ssize_t] present
    cdef Py_ssize_t n_present
    cdef Sweep st
    cdef double wp, wn
    cdef const double* pw = _weights_ptr(pos_weight, n_pos)
    cdef const double* nw = _weights_ptr(neg_weight, n_neg)
    if L > MAX_LEVELS:
        raise ValueError(f"at most {MAX_LEVELS} levels")
    if out.shape[0] != n_rep or out.shape[1] != 4 + 4 * L:
        raise ValueError(f"out must have shape ({n_rep}, {4 + 4 * L})")
    _check_groups(pos_group, m)
    _check_groups(neg_group, m)
    _check_slot_count(n_pos + n_neg)
    # The generators are the caller's own, one per replicate: no lock is needed.
    for bg in bit_generators:
        rngs.push_back(_bitgen(bg))
    tp.resize(max(m, 1))
    fp.resize(max(m, 1))
    present.resize(max(m, 1))
    with nogil:
        for k in range(n_rep):
            _replicate_groups(rngs[k], &pos_group[0] if n_pos else NULL, pw, n_pos,
                              &neg_group[0] if n_neg else NULL, nw, n_neg, stratified,
                              tp.data(), fp.data(), m, NULL, NULL)
            wp = 0.0
            wn = 0.0
            for g in range(m):
                wp += tp[g]
                wn += fp[g]
            sweep_init(&st, wp, wn, exclude_self, levels)
            # Groups the replicate did not draw make no operating point. About one
            # in three is empty, so skipping them by a branch would mispredict often:
            # list the drawn ones first, without a branch, then sweep those.
            n_present = 0
            for g in range(m):
                present[n_present] = g
                n_present += (tp[g] + fp[g]) > 0.0
            for c in range(n_present):
                g = present[c]
                sweep_push(&st, scores[g], tp[g] * st.scale, fp[g] * st.scale)
            out[k, 0] = wp
            out[k, 1] = wn
            # (the sweep's own scaled totals: W_P W_N must not overflow)
            out[k, 2] = (clamp_probability(st.auc_num / (st.weight_pos * st.weight_neg))
                         if wp > 0 and wn > 0 else _nan())
            out[k, 3] = clamp_probability(st.ap_num / st.weight_pos) if wp > 0 else _nan()
            for c in range(L):
                if st.crossings[c].found:
                    out[k, 4 + 4 * c] = st.crossings[c].threshold
                    out[k, 5 + 4 * c] = st.crossings[c].tp
                    out[k, 6 + 4 * c] = st.crossings[c].fp
                    out[k, 7 + 4 * c] = st.crossings[c].b
                else:
                    out[k, 4 + 4 * c] = _nan()
                    out[k, 5 + 4 * c] = _nan()
                    out[k, 6 + 4 * c] = _nan()
                    out[k, 7 + 4 * c] = _nan()


cdef inline double _nan() noexcept nogil:
    return NAN
