# cython: language_level=3
"""Compiled kernels of indist_fast for segments: one call counts, places and sweeps every
segment of the rows (``evaluate_many``).

Private; reached through ``indist_fast._core.fast`` (``indist_fast._core.reference`` is the
NumPy twin).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t
from libc.string cimport memset
from libc.math cimport INFINITY
from libc.float cimport DBL_MAX

from indist_fast._core.types cimport label_t, score_t
from indist_fast._core.sweep cimport Sweep, Sink, sweep_init, sweep_push, sink_init
from _common cimport *

cnp.import_array()

include "_sinks.pxi"


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


cdef void _write_segment(Sweep* st, Py_ssize_t g, int64_t n_rows, double[:, ::1] out,
                         double[:, :, ::1] crossings) noexcept nogil:
    """Segment ``g``'s sweep into row ``g`` of the outputs (``SegmentSweeps`` order)."""
    _write_sweep(st, n_rows, &out[g, 0], &crossings[g, 0, 0] if crossings.shape[1] else NULL)


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
