# cython: language_level=3
"""Compiled kernels of indist_fast, unweighted rows by radix buckets: plan, fill, sweep.

Private; reached through ``indist_fast._core.fast`` (``indist_fast._core.reference`` is the
NumPy twin). The plan for an unweighted call (``summarize``) from a few hundred thousand
rows: a sample of the scores sizes buckets of their order bits (``radix_plan``); each half
of the rows, on its own thread, is checked, counted per bucket and written as one word per
row, the score's order bits and the label, into blocks chained per bucket
(``radix_fill``); each bucket's blocks are gathered in cache, sorted by NumPy's own sort
and swept at once, the upper and lower buckets on two threads (``radix_sweep_from``).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t, uint64_t, uint32_t, uint16_t, uint8_t, uintptr_t
from libc.string cimport memcpy
from libcpp.vector cimport vector

from indist_fast._core.types cimport label_t, score_t
from indist_fast._core.sweep cimport (Sweep, Sink, Hull, sweep_start_at, simd_on,
                                      exact_blocks)
from _common cimport *

from indist_fast._core.records import Checkpoint, PieceSweep

cnp.import_array()

include "_sinks.pxi"


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


cdef inline uint64_t _order_of(score_t x) noexcept nogil:
    if score_t is float:
        return _order_bits32(x)
    else:
        return _order_bits(x)


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


cdef int64_t _bucket_rows(const int64_t[::1] links, const int64_t[:, :, ::1] state,
                         Py_ssize_t block, Py_ssize_t nb, Py_ssize_t top, Py_ssize_t bottom,
                         int64_t* total) except -1:
    """The rows of the largest bucket of ``bottom:top`` (it sizes the gathering buffer),
    and their sum in ``total`` when given, after checking the range and walking every
    chain once: each must stay inside the words and hold what its state says."""
    cdef Py_ssize_t b, t
    cdef int64_t size, biggest = 0
    if state.shape[1] != 4 or state.shape[2] != nb or not 0 <= bottom <= top <= nb:
        raise ValueError("bad bucket range")
    if block < 1:
        raise ValueError("block must be positive")
    for b in range(bottom, top):
        size = 0
        for t in range(state.shape[0]):
            size += _chain_rows(links, state[t, 0, b], state[t, 1, b], state[t, 2, b], block)
        biggest = max(biggest, size)
        if total != NULL:
            total[0] += size
    return biggest


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
    cdef int64_t biggest, m
    cdef bint wide = isinstance(words, np.ndarray) and words.dtype == np.uint64
    cdef int item = 8 if wide else 4
    cdef Sink sink
    cdef Hull hull
    cdef double cp_tp = 0.0, cp_fp = 0.0, cp_gap = 0.0
    cdef Py_ssize_t cp_groups = 0
    cdef bint blocks = simd_on() and exact_blocks(weight_pos, weight_neg)
    if not bottom <= split <= top:
        raise ValueError("bad bucket range")
    cdef const char* w = <const char*>_words_of(words, n_blocks * block, wide)
    biggest = _bucket_rows(links, state, block, nb, top, bottom, NULL)
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


def radix_table(object words, const int64_t[::1] links, const int64_t[:, :, ::1] state,
                Py_ssize_t block, const uint8_t[::1] tops, Py_ssize_t top,
                Py_ssize_t bottom, double[::1] scores, int64_t[::1] pos, int64_t[::1] neg,
                Py_ssize_t offset):
    """Write the score table (descending distinct scores, int64 counts) of buckets
    ``top - 1`` down to ``bottom`` of ``radix_fill``'s words into ``scores``, ``pos``
    and ``neg`` from ``offset`` on; returns the groups written. Each bucket is gathered,
    sorted in cache and written out as groups (``_table_bucket``), without a sweep.

    The radix twin of ``table_from_sorted``: the same table as ``np.unique`` of the
    rows' scores with per-class counts. The words are only read; two calls on disjoint
    bucket ranges may run at once, each into its own part of the columns (the rows of
    the range bound its groups).
    """
    cdef Py_ssize_t nb = tops.shape[0], b, t, n_writers = state.shape[0]
    cdef Py_ssize_t n_blocks = links.shape[0]
    cdef int64_t biggest, total = 0, m
    cdef bint wide = isinstance(words, np.ndarray) and words.dtype == np.uint64
    cdef int item = 8 if wide else 4
    cdef Sink sink
    cdef const char* w = <const char*>_words_of(words, n_blocks * block, wide)
    biggest = _bucket_rows(links, state, block, nb, top, bottom, &total)
    if (offset < 0 or scores.shape[0] < offset + total or pos.shape[0] != scores.shape[0]
            or neg.shape[0] != scores.shape[0]):
        raise ValueError("the table's columns must hold the range's rows from offset on")
    buffer_arr = np.empty(biggest * item + 64, dtype=np.uint8)
    cdef char* buf = <char*>cnp.PyArray_DATA(buffer_arr)
    buf += (64 - (<uintptr_t>buf & 63)) & 63
    sink_init(&sink)
    if total:
        sink.scores = &scores[offset]
        sink.tp_count = &pos[offset]
        sink.fp_count = &neg[offset]
    with nogil:
        for b in range(top - 1, bottom - 1, -1):
            m = 0
            for t in range(n_writers):
                m = _gather(buf, m, w, links, state[t, 0, b], state[t, 1, b], block, item)
            _table_bucket(buf, 0, m, tops[b], wide, &sink)
    return sink.m


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
