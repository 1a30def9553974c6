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

from indist_fast._core.sweep cimport (Sweep, Hot, sweep_init, hot_load, hot_push, hot_store,
                                     clamp_probability, MAX_LEVELS, simd_on, simd_set,
                                     groups_blocks, exact_blocks)

from indist_fast._core.records import ReplicateCounts

cnp.import_array()


def simd_blocks(on=None):
    """``_kernels.simd_blocks`` for the replicate sweeps (a flag of this module's own)."""
    return bool(simd_on() if on is None else simd_set(bool(on)))


cdef extern from "indist_resample.h":
    ctypedef struct indist_np_pcg64_state:
        void* pcg_state


cdef struct Draws:
    # 32-bit halves of the generator's raw 64-bit outputs, low half first.
    bitgen_t* rng
    void* pcg                  # NumPy's PCG64 state, stepped inline; NULL: call rng
    uint64_t raw
    bint spare                 # the high half of `raw` is still unused


cdef inline void _draws_start(Draws* d, bitgen_t* rng, void* pcg) noexcept nogil:
    d.rng = rng
    d.pcg = pcg
    d.spare = False            # every class starts on a fresh raw draw


cdef inline uint32_t _next32(Draws* d) noexcept nogil:
    if d.spare:
        d.spare = False
        return <uint32_t>(d.raw >> 32)
    # PCG64 stepped here, inlined, is the very step of its next_uint64 (child_raw's
    # tests hold it to NumPy's): the same stream, without a call through a pointer
    d.raw = indist_pcg64_next(d.pcg) if d.pcg != NULL else d.rng.next_uint64(d.rng.state)
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


cdef inline void _draw_class(Draws* d, bitgen_t* rng, void* pcg, Py_ssize_t n,
                             uint32_t reject, const int64_t* group, const double* w,
                             double* out, int64_t* counts,
                             uint32_t* hits=NULL) noexcept nogil:
    """``n`` draws among a class's ``n`` slots, adding their weights to their groups.
    ``hits``: ``n`` zeros to count unweighted draws in (left zero again)."""
    cdef Py_ssize_t j, i
    _draws_start(d, rng, pcg)
    if w == NULL and counts == NULL:        # the bootstrap's own loop, kept tight
        if hits == NULL:
            for j in range(n):
                out[group[_below(d, <uint32_t>n, reject)]] += 1.0
            return
        # Counted per slot first: the random increments then touch 4 bytes a slot
        # (0.4 MB at 1e5 rows, in L2) instead of a group index and a double (2.4 MB
        # with the other class's, past L2: each draw waited on memory). Adding the
        # counts to the groups is one pass in order. Same sums (exact integers).
        if pcg != NULL:
            indist_pcg64_hits(pcg, n, reject, hits)
        else:
            for j in range(n):
                hits[_below(d, <uint32_t>n, reject)] += 1
        for i in range(n):
            out[group[i]] += <double>hits[i]
            hits[i] = 0
        return
    for j in range(n):
        i = _below(d, <uint32_t>n, reject)
        out[group[i]] += w[i] if w != NULL else 1.0
        if counts != NULL:
            counts[i] += 1


cdef void _replicate_groups(bitgen_t* rng, const int64_t* pos_group, const double* pos_w,
                            Py_ssize_t n_pos, const int64_t* neg_group,
                            const double* neg_w, Py_ssize_t n_neg, bint stratified,
                            double* tp, double* fp, Py_ssize_t m,
                            int64_t* pos_counts, int64_t* neg_counts,
                            bint zeroed=False, void* pcg=NULL,
                            uint32_t* hits=NULL) noexcept nogil:
    """One replicate's positive and negative weight per group (and slot counts if asked).
    ``zeroed``: ``tp`` and ``fp`` are all zero already (the caller cleared them).
    ``pcg``: ``rng``'s PCG64 state when it is NumPy's PCG64 (stepped inline).
    ``hits``: zeros for the larger class's slots (see ``_draw_class``), or NULL."""
    cdef Py_ssize_t j, i, n = n_pos + n_neg
    cdef uint32_t reject_pos = _reject_below(n_pos), reject_neg = _reject_below(n_neg)
    cdef uint32_t reject_all = _reject_below(n)
    cdef Draws d
    if not zeroed:
        memset(tp, 0, m * sizeof(double))
        memset(fp, 0, m * sizeof(double))
    if stratified:
        _draw_class(&d, rng, pcg, n_pos, reject_pos, pos_group, pos_w, tp, pos_counts, hits)
        _draw_class(&d, rng, pcg, n_neg, reject_neg, neg_group, neg_w, fp, neg_counts, hits)
    else:
        _draws_start(&d, rng, pcg)
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
    cdef Py_ssize_t k
    cdef int L = <int>levels.shape[0]
    cdef vector[bitgen_t*] rngs
    cdef vector[void*] pcgs
    cdef vector[double] tp, fp
    cdef vector[Py_ssize_t] present
    cdef vector[uint32_t] hits
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
        # exactly NumPy's PCG64 (not a subclass, not PCG64DXSM): its step is inlined
        pcgs.push_back((<indist_np_pcg64_state*>rngs.back().state).pcg_state
                       if type(bg) is np.random.PCG64 else NULL)
    tp.resize(max(m, 1))           # (zeros: the sweeps clear what their draws set)
    fp.resize(max(m, 1))
    present.resize(max(m, 1))
    hits.resize(max(n_pos, n_neg, 1))
    with nogil:
        for k in range(n_rep):
            _replicate_groups(rngs[k], &pos_group[0] if n_pos else NULL, pw, n_pos,
                              &neg_group[0] if n_neg else NULL, nw, n_neg, stratified,
                              tp.data(), fp.data(), m, NULL, NULL, True, pcgs[k],
                              hits.data())
            # Unweighted stratified draws add exactly n_pos and n_neg ones: the
            # totals are known (and exact) without a pass over the groups.
            _sweep_replicate(tp.data(), fp.data(), m, &scores[0] if m else NULL,
                             present.data(), exclude_self, levels, &out[k, 0],
                             <double>n_pos if stratified and pw == NULL else -1.0,
                             <double>n_neg if stratified and nw == NULL else -1.0,
                             pw == NULL and nw == NULL)


cdef void _sweep_replicate(double* tp, double* fp, Py_ssize_t m,
                           const double* scores, Py_ssize_t* present, bint exclude_self,
                           const double[::1] levels, double* row, double wp,
                           double wn, bint whole) noexcept nogil:
    """Sweep one replicate's groups into ``row`` (columns as in ``replicate_sweeps``),
    then clear them (``tp`` and ``fp`` are all zero again, ready for the next draws).
    ``wp``/``wn``: the class totals when known exactly (unweighted counts), else < 0.
    ``whole``: the groups' weights are counts of draws (unweighted slots)."""
    cdef Py_ssize_t g, c, n_present = 0
    cdef int L = <int>levels.shape[0]
    cdef Sweep st
    cdef Hot h
    if wp < 0.0 or wn < 0.0:
        wp = 0.0
        wn = 0.0
        for g in range(m):
            wp += tp[g]
            wn += fp[g]
    sweep_init(&st, wp, wn, exclude_self, levels)
    hot_load(&h, &st)
    if whole and simd_on() and exact_blocks(wp, wn):
        # Eight groups at a time (``groups_blocks``), a block they leave group by group.
        g = 0
        while g < m:
            g = groups_blocks(&h, tp, fp, g, m)
            for c in range(g, min(g + 8, m)):
                if tp[c] + fp[c] > 0.0:
                    hot_push(&h, &st, scores[c], tp[c], fp[c], h.tp + tp[c])
                    tp[c] = 0.0
                    fp[c] = 0.0
            g = min(g + 8, m)
    else:
        # Groups the replicate did not draw make no operating point. About one in
        # three is empty, so skipping them by a branch would mispredict often: list
        # the drawn ones first, without a branch, then sweep those.
        for g in range(m):
            present[n_present] = g
            n_present += (tp[g] + fp[g]) > 0.0
        for c in range(n_present):
            g = present[c]
            hot_push(&h, &st, scores[g], tp[g] * st.scale, fp[g] * st.scale,
                     h.tp + tp[g] * st.scale)
            tp[g] = 0.0
            fp[g] = 0.0
    hot_store(&h, &st)
    row[0] = wp
    row[1] = wn
    # (the sweep's own scaled totals: W_P W_N must not overflow)
    row[2] = (clamp_probability(st.auc_num / (st.weight_pos * st.weight_neg))
              if wp > 0 and wn > 0 else _nan())
    row[3] = clamp_probability(st.ap_num / st.weight_pos) if wp > 0 else _nan()
    for c in range(L):
        if st.crossings[c].found:
            row[4 + 4 * c] = st.crossings[c].threshold
            row[5 + 4 * c] = st.crossings[c].tp
            row[6 + 4 * c] = st.crossings[c].fp
            row[7 + 4 * c] = st.crossings[c].b
        else:
            row[4 + 4 * c] = _nan()
            row[5 + 4 * c] = _nan()
            row[6 + 4 * c] = _nan()
            row[7 + 4 * c] = _nan()


cdef inline double _nan() noexcept nogil:
    return NAN


# --- replicates of many segments: NumPy's child streams, seeded in the kernel ----------
#
# Replicate k of segment g draws from PCG64(SeedSequence(entropy, spawn_key=key + (g, k))),
# exactly the stream ``bootstrap(segment rows, seed=SeedSequence(entropy, spawn_key=key
# + (g,)))`` draws for its replicate k. Building that many SeedSequence and PCG64 objects
# in Python costs about 10 us each (20 s for 10**4 segments x 200 replicates), so the
# kernel runs SeedSequence's hash (pool of four 32-bit words, numpy/random/
# bit_generator.pyx) and PCG64's seeding and step (XSL-RR 128/64) itself; the tests hold
# it to NumPy's own objects.

cdef extern from "indist_resample.h":
    ctypedef struct indist_pcg64_t:
        pass
    uint64_t indist_pcg64_next(void* st) noexcept nogil
    void indist_pcg64_hits(void* st, Py_ssize_t n, uint32_t reject,
                           uint32_t* hits) noexcept nogil
    void indist_pcg64_seed(indist_pcg64_t* r, const uint32_t* prefix, Py_ssize_t n,
                           uint32_t g, uint32_t k) noexcept nogil


def child_raw(const uint32_t[::1] prefix, uint32_t g, uint32_t k, Py_ssize_t n):
    """The first ``n`` raw outputs of child ``(g, k)``'s stream (see
    ``segment_replicate_sweeps``): for the tests, which hold it to NumPy's PCG64."""
    if prefix.shape[0] < 4:
        raise ValueError("prefix must hold at least 4 words")
    cdef indist_pcg64_t rng
    cdef Py_ssize_t i
    out = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] o = out
    indist_pcg64_seed(&rng, &prefix[0], prefix.shape[0], g, k)
    for i in range(n):
        o[i] = indist_pcg64_next(&rng)
    return out


cdef int _check_ranges(const int64_t[::1] start, Py_ssize_t n_items, str what) except -1:
    cdef Py_ssize_t i
    if start.shape[0] < 1 or start[0] != 0 or start[start.shape[0] - 1] != n_items:
        raise ValueError(f"{what} must run from 0 to {n_items}")
    for i in range(1, start.shape[0]):
        if start[i] < start[i - 1]:
            raise ValueError(f"{what} must not decrease")
    return 0


cdef int _check_local_groups(Py_ssize_t s, const int64_t[::1] start,
                             const int64_t[::1] group,
                             const int64_t[::1] group_start) except -1:
    """Segment ``s``'s slots name groups of its own."""
    cdef Py_ssize_t i
    cdef int64_t m = group_start[s + 1] - group_start[s]
    for i in range(start[s], start[s + 1]):
        if group[i] < 0 or group[i] >= m:
            raise ValueError(f"slot {i} names group {group[i]} of {m} in segment {s}")
    return 0


def segment_replicate_sweeps(const uint32_t[::1] prefix, const int64_t[::1] segments,
                             const int64_t[::1] keys, Py_ssize_t n_boot,
                             const int64_t[::1] pos_start, const int64_t[::1] pos_group,
                             const double[::1] pos_weight, const int64_t[::1] neg_start,
                             const int64_t[::1] neg_group, const double[::1] neg_weight,
                             const int64_t[::1] group_start, const double[::1] scores,
                             bint stratified, const double[::1] levels, bint exclude_self,
                             double[:, ::1] out):
    """``n_boot`` replicates of each listed segment, swept; row ``i * n_boot + k`` of
    ``out`` gets replicate ``k`` of ``segments[i]`` (columns as in ``replicate_sweeps``).

    Segment ``s`` owns positive slots ``pos_start[s]:pos_start[s + 1]`` (likewise the
    negatives) and score groups ``group_start[s]:group_start[s + 1]`` of ``scores``
    (each segment's distinct scores, descending); slot groups count from the
    segment's first group. Replicate ``k`` of ``segments[i]`` draws from the stream of
    the SeedSequence words ``prefix + [keys[i], k]`` (see ``child_raw``), so each
    segment's replicates are those of ``replicate_sweeps`` on its slots alone with the
    generators ``PCG64(SeedSequence(..., spawn_key=... + (keys[i], k)))``. NumPy
    equivalent: ``indist_fast._core.reference.segment_replicate_sweeps``.
    """
    cdef Py_ssize_t n_seg = segments.shape[0], n_ranges = group_start.shape[0] - 1
    cdef Py_ssize_t i, k, s, m, m_max = 1, a, n_p, n_n
    cdef int L = <int>levels.shape[0]
    cdef vector[double] tp, fp
    cdef vector[Py_ssize_t] present
    cdef indist_pcg64_t pcg
    cdef bitgen_t rng
    cdef const double* pw = _weights_ptr(pos_weight, pos_group.shape[0])
    cdef const double* nw = _weights_ptr(neg_weight, neg_group.shape[0])
    if L > MAX_LEVELS:
        raise ValueError(f"at most {MAX_LEVELS} levels")
    if prefix.shape[0] < 4:
        raise ValueError("prefix must hold at least 4 words")
    if keys.shape[0] != n_seg:
        raise ValueError("keys and segments differ in length")
    if n_boot < 0 or n_boot >= (<Py_ssize_t>1 << 32):
        raise ValueError(f"n_boot must lie in [0, 2**32), got {n_boot}")
    if out.shape[0] != n_seg * n_boot or out.shape[1] != 4 + 4 * L:
        raise ValueError(f"out must have shape ({n_seg * n_boot}, {4 + 4 * L})")
    if pos_start.shape[0] != n_ranges + 1 or neg_start.shape[0] != n_ranges + 1:
        raise ValueError("pos_start, neg_start and group_start differ in length")
    _check_ranges(group_start, scores.shape[0], "group_start")
    _check_ranges(pos_start, pos_group.shape[0], "pos_start")
    _check_ranges(neg_start, neg_group.shape[0], "neg_start")
    for i in range(n_seg):
        s = segments[i]
        if s < 0 or s >= n_ranges:
            raise ValueError(f"segments[{i}] = {s} is not a segment of {n_ranges}")
        if keys[i] < 0 or keys[i] >= (<int64_t>1 << 32):
            raise ValueError(f"keys[{i}] = {keys[i]} must lie in [0, 2**32)")
        _check_slot_count(pos_start[s + 1] - pos_start[s] + neg_start[s + 1] - neg_start[s])
        _check_local_groups(s, pos_start, pos_group, group_start)
        _check_local_groups(s, neg_start, neg_group, group_start)
        m_max = max(m_max, group_start[s + 1] - group_start[s])
    tp.resize(m_max)
    fp.resize(m_max)
    present.resize(m_max)
    rng.state = &pcg
    rng.next_uint64 = indist_pcg64_next
    with nogil:
        for i in range(n_seg):
            s = segments[i]
            m = group_start[s + 1] - group_start[s]
            a, n_p = pos_start[s], pos_start[s + 1] - pos_start[s]
            n_n = neg_start[s + 1] - neg_start[s]
            for k in range(n_boot):
                indist_pcg64_seed(&pcg, &prefix[0], prefix.shape[0], <uint32_t>keys[i],
                                  <uint32_t>k)
                _replicate_groups(&rng, &pos_group[a] if n_p else NULL,
                                  pw + a if pw != NULL else NULL, n_p,
                                  &neg_group[neg_start[s]] if n_n else NULL,
                                  nw + neg_start[s] if nw != NULL else NULL, n_n,
                                  stratified, tp.data(), fp.data(), m, NULL, NULL, True)
                _sweep_replicate(tp.data(), fp.data(), m, &scores[group_start[s]] if m else NULL,
                                 present.data(), exclude_self, levels,
                                 &out[i * n_boot + k, 0],
                                 <double>n_p if stratified and pw == NULL else -1.0,
                                 <double>n_n if stratified and nw == NULL else -1.0,
                                 pw == NULL and nw == NULL)


cdef extern from "<algorithm>" namespace "std" nogil:
    void sort[Iter](Iter first, Iter last)

cdef extern from "<utility>" namespace "std" nogil:
    cdef cppclass pair[T, U]:
        T first
        U second
        pair()
        pair(T, U)


def segment_order(const int64_t[::1] codes, const double[::1] s, Py_ssize_t n_segments):
    """Rows by segment: ``(by_segment, by_score)``, both int64 row indices.

    ``by_segment`` lists each segment's rows in row order (a counting pass);
    ``by_score`` each segment's rows by score descending, ties in row order (each
    segment's (score, row) pairs sorted in cache), i.e. ``np.lexsort((-s, codes))``.
    NumPy equivalent: ``indist_fast._core.reference.segment_order``.
    """
    cdef Py_ssize_t n = codes.shape[0], i, a, b, c
    if s.shape[0] != n:
        raise ValueError("codes and s differ in length")
    for i in range(n):
        if codes[i] < 0 or codes[i] >= n_segments:
            raise ValueError(f"segment codes must lie in [0, {n_segments})")
    by_segment = np.empty(n, dtype=np.int64)
    by_score = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] seg = by_segment, out = by_score
    cdef vector[int64_t] start
    cdef vector[pair[double, int64_t]] pieces
    start.resize(n_segments + 1, 0)
    with nogil:
        for i in range(n):
            start[codes[i] + 1] += 1
        for c in range(n_segments):
            start[c + 1] += start[c]
        for i in range(n):                       # (start[c] ends at segment c's end)
            seg[start[codes[i]]] = i
            start[codes[i]] += 1
        pieces.resize(n)
        a = 0
        for c in range(n_segments):
            b = start[c]
            for i in range(a, b):
                # -s: ascending pairs are scores descending, then rows ascending
                pieces[i] = pair[double, int64_t](-s[seg[i]] + 0.0, seg[i])
            sort(pieces.begin() + a, pieces.begin() + b)
            for i in range(a, b):
                out[i] = pieces[i].second
            a = b
    return by_segment, by_score
