# cython: language_level=3
"""Compiled kernels of indist_fast, weighted rows by radix buckets: fill, sweep, table.

Private; reached through ``indist_fast._core.fast`` (``indist_fast._core.reference`` is the
NumPy twin). From a few hundred thousand weighted rows, ``summarize`` writes each row once
into radix buckets as (score, signed weight) (``radix_fill_weighted``, the bucket plan of
``_radix``) and orders and sweeps each bucket in cache (``radix_sweep_weighted_from``);
weighted tables come from the same buckets (``radix_table_weighted``).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t, uint64_t, uint16_t, uint8_t, uintptr_t
from libc.string cimport memcpy
from libc.math cimport fabs
from libcpp.vector cimport vector
from libcpp.pair cimport pair
from libcpp.algorithm cimport sort as std_sort

from indist_fast._core.types cimport label_t, score_t
from indist_fast._core.sweep cimport (Sweep, Sink, Hull, sweep_start_at, Hot, hot_load,
                                      hot_store, hot_push, sink_emit_chained, chain_add)
from _common cimport *

from indist_fast._core.records import Checkpoint, PieceSweep

cnp.import_array()

include "_sinks.pxi"


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
