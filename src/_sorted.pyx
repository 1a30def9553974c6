# cython: language_level=3
"""Compiled kernels of indist_fast, unweighted rows by sorted pieces: count, split, merge.

Private. The public entry points live in ``indist_fast`` and reach these through
``indist_fast._core.fast``; ``indist_fast._core.reference`` is the NumPy twin of every kernel
here, with the same return values, and is the oracle in the tests.

Up to a few hundred thousand unweighted rows: they are counted by class and by a pivot
(``count_rows``) and copied to exact places (``scatter_scores``), NumPy's SIMD sort
orders each of the four pieces in place, and one merge walks positives and negatives
downwards, pushing each distinct score into the sweep (``summarize_sorted``,
``summarize_sorted_from``, ``table_from_sorted``). Labels never need an argsort. A
service call of a few rows takes one call (``summarize_small``, ``summarize_plain``,
``auc_small``). The radix path of more rows is ``_radix``; weighted rows are ``_keys`` and
``_radix_weighted``.

Returned error fields are row indices (-1 when the rows are clean); the facade turns
them into exceptions that name the argument.
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t, uint64_t, uint32_t, uint8_t, int8_t, int32_t
from libc.math cimport NAN
from libc.float cimport DBL_MAX
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawFree

from indist_fast._core.types cimport label_t, score_t
from indist_fast._core.sweep cimport (Sweep, Sink, Hull, sweep_init, sweep_start_at,
                                      simd_on, exact_blocks, chain_add, weight_scale)
from _common cimport *

from indist_fast._core.records import Checkpoint, PieceSweep, RowCounts

cnp.import_array()

include "_sinks.pxi"


def sweep_scale(double weight_pos, double weight_neg):
    """The power of two a sweep of these class totals multiplies weights by
    (``sweep.weight_scale``). NumPy equivalent: ``rates.weight_scale``."""
    return weight_scale(weight_pos, weight_neg)


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


cdef extern from "indist_split.h":
    bint split_bytes "indist_split_bytes"(const uint8_t* y, const void* s, bint wide,
                                          Py_ssize_t n, uint8_t pos, uint8_t neg,
                                          bint has_neg, void* buf, Py_ssize_t* front,
                                          Py_ssize_t* back, Py_ssize_t* n_pos,
                                          Py_ssize_t* done) noexcept nogil



cdef inline uint64_t _word(score_t x, bint positive) noexcept nogil:
    """The row's word: order bits without their top bit, then the label."""
    if score_t is float:
        return (<uint32_t>(_order_bits32(x) << 1)) | <uint32_t>positive
    else:
        return (_order_bits(x) << 1) | <uint64_t>positive


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


cdef extern from "indist_pairs.h":
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


def summarize_sorted(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
                     const score_t[::1] pos_lo, const score_t[::1] neg_lo,
                     const double[::1] levels, bint exclude_self, object costs=None):
    """Sweep the four sorted pieces of ``scatter_scores`` without building a table.

    ``costs``: None, or ``(t_fixed, q_fixed, rate_pi_pos)`` to gather the
    threshold-choice sums too (``indist_fast._core.records.CostSums``); rates are
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
