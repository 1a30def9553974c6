# cython: language_level=3
"""Compiled kernels of indist_fast, weighted rows as packed uint64 keys.

Private; reached through ``indist_fast._core.fast`` (``indist_fast._core.reference`` is the
NumPy twin). Weighted rows pack the score's order, the label and the row index into one
uint64 key (``scatter_keys``), so NumPy's SIMD sort orders them and the weights are
gathered afterwards (``summarize_keys``, ``summarize_keys_from``, ``table_from_keys``,
``delong_components``).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint64_t
from libcpp.vector cimport vector
from libcpp.pair cimport pair
from libcpp.algorithm cimport sort as std_sort

from indist_fast._core.types cimport label_t, score_t
from indist_fast._core.sweep cimport (Sweep, Sink, Hull, sweep_start_at, chain_add,
                                      weight_scale)
from _common cimport *

from indist_fast._core.records import Checkpoint, KeySweep, PieceSweep

cnp.import_array()

include "_sinks.pxi"


# ---------------------------------------------------------------------------
# Weighted: sort packed keys, gather (score, weight) rows.


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
