# cython: language_level=3
"""What several kernel modules share, compiled into each (``cdef inline``): the sink's
grouping of rows (``_emit``, ``_add``, ``_flush``), the open group of sweep-only row
loops (``Open``, ``_hot_row``), order bits and words, NumPy's sorts and the sort of a
bucket of words, the sweep of one radix bucket (``_sweep_bucket``), the radix plan's
bucket ids and row checks, the chained blocks of the radix fills, and a sweep's numbers
written out (``_write_sweep``). The C loops are in ``src/include/indist_rows.h``.

Kernel-only (not shipped): the modules find it on Cython's include path (``src``).
Everything here is inline or a declaration, so it is no module of its own.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t, uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int32_t, uintptr_t
from libc.string cimport memcpy
from libc.math cimport NAN
from libc.float cimport DBL_MAX

from indist_fast._core.types cimport label_t, score_t
from indist_fast._core.sweep cimport (Sweep, Sink, Hot, hot_load, hot_store, hot_push,
                    words_blocks, sink_emit, sink_emit_chained, b_value, clamp_probability,
                    costs_push, MAX_LEVELS)


cdef extern from "indist_rows.h":
    ctypedef int (*SortFunc)(void*, cnp.npy_intp, void*) noexcept nogil
    SortFunc indist_fast_sort_func(int type_num)
    void indist_fast_range64(const uint64_t* w, cnp.npy_intp n, uint64_t* lo,
                             uint64_t* hi) noexcept nogil
    void indist_fast_shift64(uint64_t* w, cnp.npy_intp n, uint64_t delta) noexcept nogil
    void indist_fast_row_orders(const double* rows, cnp.npy_intp n, uint64_t* out) noexcept nogil
    void indist_fast_row_keys(uint64_t* w, cnp.npy_intp n, uint64_t lo, int shift, int bits,
                              uint64_t base) noexcept nogil
    bint indist_fast_subnormals_exact() noexcept nogil
    void indist_fast_stream_line64(void* dst, const void* src, uint64_t last) noexcept nogil
    void indist_fast_stream_line32(void* dst, const void* src, uint32_t last) noexcept nogil
    void indist_fast_stream_rows(void* dst, const void* src, double score,
                                 double weight) noexcept nogil
    void indist_fast_stream_done() noexcept nogil
    cnp.npy_intp indist_fast_ids64(const double* s, cnp.npy_intp n,
                                   const uint64_t* table, int64_t base, int64_t last,
                                   uint16_t* out, uint64_t* words) noexcept nogil
    cnp.npy_intp indist_fast_labels_u8(const uint8_t* y, cnp.npy_intp n, uint8_t pos,
                                       uint8_t neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_i8(const int8_t* y, cnp.npy_intp n, int8_t pos,
                                       int8_t neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_i32(const int32_t* y, cnp.npy_intp n, int32_t pos,
                                        int32_t neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_i64(const int64_t* y, cnp.npy_intp n, int64_t pos,
                                        int64_t neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_f32(const float* y, cnp.npy_intp n, float pos,
                                        float neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_labels_f64(const double* y, cnp.npy_intp n, double pos,
                                        double neg, int has_neg, cnp.npy_intp* n_bad) noexcept nogil
    cnp.npy_intp indist_fast_nans32(const float* s, cnp.npy_intp n) noexcept nogil
    cnp.npy_intp indist_fast_nans64(const double* s, cnp.npy_intp n) noexcept nogil
    cnp.npy_intp indist_fast_bad_weights(const double* w, cnp.npy_intp n) noexcept nogil
    cnp.npy_intp indist_fast_ids32(const float* s, cnp.npy_intp n,
                                   const uint64_t* table, int64_t base, int64_t last,
                                   uint16_t* out, uint32_t* words) noexcept nogil

    bint sorts_init "indist_fast_sorts_init"() noexcept nogil
    SortFunc _sort_words64 "indist_sort_words64"
    SortFunc _sort_words32 "indist_sort_words32"
    SortFunc _sort_prefixes "indist_sort_prefixes"
    SortFunc _sort_float64 "indist_sort_float64"
    SortFunc _sort_float32 "indist_sort_float32"
    # 64-bit words sort faster as doubles: NumPy's SIMD sort of 4,096 doubles took 4.7 ns
    # a word here, of as many uint64 6.0 (8,192: 4.9 and 6.4; 49,000: 5.6 and 7.3). A
    # word's bits order as those of a double when it is one that is positive and finite
    # (from NORMAL_WORDS to FINITE_WORDS: words below are subnormal doubles, which the FPU
    # may compare as zero, DAZ). Words of a narrower range are shifted into it for the sort.
    const uint64_t FINITE_WORDS "INDIST_FINITE_WORDS"
    const uint64_t NORMAL_WORDS "INDIST_NORMAL_WORDS"
    const uint64_t LOW32 "INDIST_LOW32"
    const uint64_t ALL64 "INDIST_ALL64"

cdef extern from *:
    void __builtin_prefetch(const void* addr) noexcept nogil
    int __builtin_clzll(unsigned long long x) noexcept nogil


# Compile-time choice of what the row loops feed: the plain sweep (and table), or the
# threshold-choice sums too. Inlined into their own copy of each loop, the cost work
# keeps its running sums in registers and leaves the plain loops as lean as before.
ctypedef char PlainMode
ctypedef short CostMode
ctypedef fused mode_t:
    PlainMode
    CostMode


ctypedef char Plain
ctypedef short Chained
ctypedef fused chain_t:
    Plain      # TP of a group is TP above plus its weight (counts, tables)
    Chained    # TP is the sink's compensated row sum (weighted rows, see sink_emit_chained)


cdef inline void _emit(Sink* k, double score, double tp, double fp, mode_t mode,
                       chain_t chain) noexcept nogil:
    if mode_t is CostMode:       # before the sweep moves on: it needs TP, FP above
        # In the sweep's scaled weights (linear sums, exact power-of-two scale):
        # _close_sweep unscales them once instead of per group.
        costs_push(&k.costs, score, k.sweep.tp, k.sweep.fp, tp, fp,
                   k.sweep.weight_pos, k.sweep.weight_neg)
    if chain_t is Chained:
        sink_emit_chained(k, score, tp, fp)
    else:
        sink_emit(k, score, tp, fp)


cdef inline void _add(Sink* k, double score, double tp, double fp, mode_t mode,
                      chain_t chain) noexcept nogil:
    """Add rows at ``score`` (no higher than any added before) to their group; weights
    times the sweep's scale."""
    if score == k.cur:
        k.cur_tp += tp
        k.cur_fp += fp
    else:
        if k.cur_tp + k.cur_fp > 0.0:      # zero-weight rows never reach a sink
            _emit(k, k.cur, k.cur_tp, k.cur_fp, mode, chain)
        k.cur = score
        k.cur_tp = tp
        k.cur_fp = fp


cdef inline void _flush(Sink* k, mode_t mode, chain_t chain) noexcept nogil:
    """Emit the open group."""
    if k.cur_tp + k.cur_fp > 0.0:
        _emit(k, k.cur, k.cur_tp, k.cur_fp, mode, chain)
    k.cur = NAN
    k.cur_tp = 0.0
    k.cur_fp = 0.0


cdef inline void _sort_u64(uint64_t* w, Py_ssize_t n, uint64_t lo, uint64_t hi) noexcept nogil:
    """Sort ``n`` words, ``lo`` and ``hi`` their least and greatest, ascending as
    uint64: as doubles where their bits are those of positive finite doubles, or of
    such doubles once all are shifted by one amount (a range under 2**63 - 2**53),
    else as uint64."""
    if hi < FINITE_WORDS and (lo >= NORMAL_WORDS or indist_fast_subnormals_exact()):
        _sort_float64(w, n, NULL)
    elif hi - lo < FINITE_WORDS - NORMAL_WORDS:
        indist_fast_shift64(w, n, NORMAL_WORDS - lo)
        _sort_float64(w, n, NULL)
        indist_fast_shift64(w, n, lo - NORMAL_WORDS)
    else:
        _sort_words64(w, n, NULL)


cdef struct Open:
    # The group a sweep-only row loop is adding to (the Sink's cur, cur_tp, cur_fp in
    # a local of the loop, beside its Hot sums).
    double score
    double tp
    double fp


cdef inline void _hot_row(Hot* h, Sweep* st, Open* g, double score, double tp,
                          double fp) noexcept nogil:
    """``_add`` of a sink that only sweeps (no table, no cost sums), on the loop's
    locals: the same operations, so the same roundings."""
    if score == g.score:
        g.tp += tp
        g.fp += fp
    else:
        if g.tp + g.fp > 0.0:
            hot_push(h, st, g.score, g.tp, g.fp, h.tp + g.tp)
        g.score = score
        g.tp = tp
        g.fp = fp


cdef inline void _open_load(Open* g, const Sink* k) noexcept nogil:
    g.score = k.cur
    g.tp = k.cur_tp
    g.fp = k.cur_fp


cdef inline void _open_store(const Open* g, Sink* k) noexcept nogil:
    k.cur = g.score
    k.cur_tp = g.tp
    k.cur_fp = g.fp


cdef inline object _check_block(Py_ssize_t ny, Py_ssize_t ns, Py_ssize_t nw, Py_ssize_t start,
                  Py_ssize_t stop):
    if ny != ns or nw != ns:
        raise ValueError("row arrays differ in length")
    if not 0 <= start <= stop <= ns:
        raise ValueError(f"bad row block {start}:{stop} of {ns} rows")


cdef enum:
    PREFIX_BITS = 16          # bits of the order bits the bucket table is indexed by
    SUB_BITS_MAX = 12         # a prefix splits into at most 2**12 buckets
    PLAN_SAMPLE = 4096        # scores sampled to size the buckets
    RADIX_CHUNK = 2048        # rows whose bucket ids are found in one vectorised loop
    FILL_AHEAD = 32           # rows ahead a fill fetches its bucket's line (a row's
                              # bucket is one of thousands: its line is in L2, not L1)


cdef inline uint32_t _order_bits32(float x) noexcept nogil:
    """``_order_bits`` of a float32 score, in 32 bits (``indist_fast_bucket_ids32``
    repeats it in C, where it is vectorised)."""
    cdef uint32_t u
    x = x + <float>0.0
    memcpy(&u, &x, 4)
    return u ^ (<uint32_t>(<int32_t>u >> 31) | (<uint32_t>1 << 31))


cdef inline uint64_t _order_bits(double x) noexcept nogil:
    """Map a non-NaN double to a uint64 whose unsigned order is the numeric order:
    negative scores flip every bit, the others only the sign."""
    cdef uint64_t u
    x = x + 0.0               # -0.0 becomes +0.0: equal scores must share a key
    memcpy(&u, &x, 8)
    return u ^ (<uint64_t>(<int64_t>u >> 63) | (<uint64_t>1 << 63))


cdef struct Row:
    double score
    double weight


cdef struct Plan:
    # Where ``indist_fast_bucket_ids*`` finds a score's bucket: the prefix (top 16 order
    # bits) less ``base``, clamped to ``0..last``, indexes ``table``, whose entry is
    # first bucket | shift << 32 | mask << 48 (bucket = first + (order >> shift & mask)).
    const uint64_t* table
    int64_t base
    int64_t last


cdef inline Plan _plan_of(const uint64_t[::1] table, int64_t base) except *:
    cdef Plan p
    if table.shape[0] < 3:
        raise ValueError("a radix table has at least three entries")
    p.table = &table[0]
    p.base = base
    p.last = table.shape[0] - 1
    return p


cdef inline Py_ssize_t _chunk_buckets(const score_t* s, Py_ssize_t n, const Plan* plan,
                                      uint16_t* out, void* words=NULL) noexcept nogil:
    """Bucket ids of ``n <= RADIX_CHUNK`` scores into ``out`` and, when given, their
    words without the label into ``words`` (uint32 for float32 scores, else uint64);
    returns the NaN count."""
    if score_t is float:
        return indist_fast_ids32(s, n, plan.table, plan.base, plan.last, out,
                                 <uint32_t*>words)
    else:
        return indist_fast_ids64(s, n, plan.table, plan.base, plan.last, out,
                                 <uint64_t*>words)


cdef inline Py_ssize_t _labels(const label_t* y, Py_ssize_t n, label_t pos, label_t neg,
                               bint has_neg, Py_ssize_t* n_bad) noexcept nogil:
    """Rows labelled ``pos`` of ``y[:n]``; those of a third label are added to ``n_bad``
    (``indist_fast_labels_*``)."""
    cdef cnp.npy_intp bad = 0, n_pos
    if label_t is uint8_t:
        n_pos = indist_fast_labels_u8(y, n, pos, neg, has_neg, &bad)
    elif label_t is int8_t:
        n_pos = indist_fast_labels_i8(y, n, pos, neg, has_neg, &bad)
    elif label_t is int32_t:
        n_pos = indist_fast_labels_i32(y, n, pos, neg, has_neg, &bad)
    elif label_t is int64_t:
        n_pos = indist_fast_labels_i64(y, n, pos, neg, has_neg, &bad)
    elif label_t is float:
        n_pos = indist_fast_labels_f32(y, n, pos, neg, has_neg, &bad)
    else:
        n_pos = indist_fast_labels_f64(y, n, pos, neg, has_neg, &bad)
    n_bad[0] += bad
    return n_pos


cdef inline char* _line_buffer(uint8_t[::1] lines) noexcept:
    """The cache line of bucket 0 in ``lines`` (the first 64-byte boundary)."""
    cdef char* buf = <char*>&lines[0]
    return buf + ((64 - (<uintptr_t>buf & 63)) & 63)


cdef inline bint _chain_block(int64_t* head, int64_t* fill, int64_t* full, int64_t* links,
                              int64_t* next_block, int64_t end_block) noexcept nogil:
    """A bucket's open block is full: chain the writer's next free block in front of it
    (``links`` points back). True when the writer has none left."""
    if next_block[0] == end_block:
        return True
    links[next_block[0]] = head[0]
    head[0] = next_block[0]
    next_block[0] += 1
    fill[0] = 0
    full[0] += 1
    return False


cdef inline double _score_of(uint64_t word, uint64_t flip, bint wide) noexcept nogil:
    """The score a word holds, given its bucket's ``flip`` (0 above zero, all ones
    below): ``_word`` undone."""
    cdef uint64_t bits64
    cdef uint32_t bits32
    cdef double x
    cdef float f
    if wide:
        bits64 = (word >> 1) ^ flip
        memcpy(&x, &bits64, 8)
        return x
    bits32 = <uint32_t>((word >> 1) ^ flip)
    memcpy(&f, &bits32, 4)
    return <double>f


ctypedef fused word_t:
    uint32_t
    uint64_t


cdef inline void _sort_bucket(word_t* w, Py_ssize_t n) noexcept nogil:
    """Sort one bucket's words in place, unless they all hold one score (they differ
    at most in the label bit: the sweep takes them in any order). 64-bit words: one
    pass finds their range, which tells both (``_sort_u64``); 32-bit ones: the test
    stops at the first word of another score, so it costs distinct scores nothing.

    (Splitting a bucket in cache into pieces of 128 to 1024 words for NumPy's sorting
    networks cost more than it saved: 58-68 ms against 42 for the sorts of 1e7 rows.)
    """
    cdef Py_ssize_t i
    cdef word_t score_bits
    cdef uint64_t lo, hi
    if n < 2:
        return
    if word_t is uint64_t:
        indist_fast_range64(w, n, &lo, &hi)
        if (lo >> 1) != (hi >> 1):
            _sort_u64(w, n, lo, hi)
    else:
        score_bits = w[0] >> 1
        for i in range(1, n):
            if (w[i] >> 1) != score_bits:
                _sort_words32(w, n, NULL)
                return


cdef inline void _sort_bucket_words(void* words, Py_ssize_t a, Py_ssize_t b,
                                    bint wide) noexcept nogil:
    if wide:
        _sort_bucket(<uint64_t*>words + a, b - a)
    else:
        _sort_bucket(<uint32_t*>words + a, b - a)


cdef inline void _sweep_bucket(void* words, Py_ssize_t a, Py_ssize_t b, uint8_t top, bint wide,
                        bint blocks, Sink* out) noexcept nogil:
    """Sort words ``a:b`` (one bucket), then sweep their rows from the top
    (``_hot_row``: the sink only sweeps). ``blocks``: rows of distinct scores go eight
    at a time where they can (``words_blocks``; the caller checked that the CPU has
    them and that the sums stay exact), the rest one by one."""
    cdef Py_ssize_t i, stop
    cdef uint64_t* w64 = <uint64_t*>words
    cdef uint32_t* w32 = <uint32_t*>words
    cdef uint64_t flip = 0 if top else (ALL64 if wide else LOW32)
    cdef uint64_t word
    cdef double label
    cdef Open g
    cdef Hot h
    cdef Py_ssize_t groups_before = out.sweep.n_groups
    _sort_bucket_words(words, a, b, wide)
    hot_load(&h, &out.sweep)
    _open_load(&g, out)
    i = b - 1
    while i >= a:
        # Blocks start where the open group is whole: the bucket's top row (buckets
        # never share a score) or a row of another score than the one above it.
        if blocks and i - 8 >= a and (i == b - 1 or _score_bits(words, i, wide)
                                      != _score_bits(words, i + 1, wide)):
            if g.tp + g.fp > 0.0:
                hot_push(&h, &out.sweep, g.score, g.tp, g.fp, h.tp + g.tp)
            g.score, g.tp, g.fp = NAN, 0.0, 0.0
            i = words_blocks(&h, words, wide, a, i)
        stop = max(i - 8, a - 1)      # a block the blocks left (or the bucket's tail)
        while i > stop:
            word = w64[i] if wide else w32[i]
            label = <double>(word & 1)
            _hot_row(&h, &out.sweep, &g, _score_of(word, flip, wide), label, 1.0 - label)
            i -= 1
    hot_store(&h, &out.sweep)
    _open_store(&g, out)
    out.m += h.n_groups - groups_before


cdef inline void _table_bucket(void* words, Py_ssize_t a, Py_ssize_t b, uint8_t top,
                               bint wide, Sink* out) noexcept nogil:
    """Sort words ``a:b`` (one bucket), then write their groups from the top into the
    sink's table columns (int64 counts): a group is a run of words of equal score
    bits, its positives the sum of their label bits. Nothing is swept."""
    cdef Py_ssize_t i, start
    cdef uint64_t* w64 = <uint64_t*>words
    cdef uint32_t* w32 = <uint32_t*>words
    cdef uint64_t flip = 0 if top else (ALL64 if wide else LOW32)
    cdef uint64_t bits
    cdef int64_t pos
    _sort_bucket_words(words, a, b, wide)
    i = b - 1
    while i >= a:
        start = i
        bits = _score_bits(words, i, wide)
        pos = 0
        if wide:
            while i >= a and (w64[i] >> 1) == bits:
                pos += <int64_t>(w64[i] & 1)
                i -= 1
        else:
            while i >= a and (w32[i] >> 1) == bits:
                pos += <int64_t>(w32[i] & 1)
                i -= 1
        # + 0.0: a group of zeros is the score 0.0 whichever sign its first row had
        out.scores[out.m] = _score_of(bits << 1, flip, wide) + 0.0
        out.tp_count[out.m] = pos
        out.fp_count[out.m] = <int64_t>(start - i) - pos
        out.m += 1


cdef inline uint64_t _score_bits(void* words, Py_ssize_t i, bint wide) noexcept nogil:
    return ((<uint64_t*>words)[i] if wide else (<uint32_t*>words)[i]) >> 1


cdef inline int64_t _chain_rows(const int64_t[::1] links, int64_t blk, int64_t length, int64_t full,
                         Py_ssize_t block) except -1:
    """Rows in one writer's chain of a bucket (its open block ``blk`` holding
    ``length``, ``full`` full blocks behind it), having checked that the chain stays
    inside the blocks and is as long as the state says."""
    cdef int64_t size = 0, steps = 0
    if not 0 <= length < block:
        raise ValueError("bad bucket state")
    while blk >= 0:
        if blk >= links.shape[0] or steps > full:
            raise ValueError("bad bucket chain")
        size += length
        length = block
        blk = links[blk]
        steps += 1
    if steps != full + 1:
        raise ValueError("bad bucket chain")
    return size


cdef inline int64_t _gather(char* buf, int64_t m, const char* src, const int64_t[::1] links,
                            int64_t blk, int64_t length, Py_ssize_t block,
                            int item) noexcept nogil:
    """Copy one writer's chain of a bucket (checked by ``_chain_rows``) to ``buf`` from
    item ``m`` on; returns the items in ``buf`` then."""
    while blk >= 0:
        memcpy(buf + item * m, src + item * blk * block, item * length)
        m += length
        length = block
        blk = links[blk]
    return m


cdef inline void _write_sweep(Sweep* st, int64_t n_rows, double* out, double* crossings) noexcept nogil:
    """A sweep's 8 numbers into ``out`` and its ``n_levels`` rows of 5 into
    ``crossings`` (``SegmentSweeps`` order)."""
    cdef double den = _last_den(st)
    cdef Py_ssize_t k, c
    out[0] = <double>n_rows
    out[1] = <double>st.n_groups
    out[2] = <double>st.n_undefined
    out[3] = st.weight_pos * st.inv_scale
    out[4] = st.weight_neg * st.inv_scale
    out[5] = (clamp_probability(st.auc_num / (st.weight_pos * st.weight_neg))
              if st.weight_pos > 0 and st.weight_neg > 0 else NAN)
    out[6] = clamp_probability(st.ap_num / st.weight_pos) if st.weight_pos > 0 else NAN
    # (a range below others with no group of its own has no B of its own either)
    out[7] = b_value(st.b_gap, den) if den > 0 and st.n_groups > 0 else NAN
    for k in range(st.n_levels):
        if st.crossings[k].found:
            crossings[5 * k] = <double>st.crossings[k].index
            crossings[5 * k + 1] = st.crossings[k].threshold
            crossings[5 * k + 2] = st.crossings[k].tp
            crossings[5 * k + 3] = st.crossings[k].fp
            crossings[5 * k + 4] = st.crossings[k].b
        else:
            for c in range(5):
                crossings[5 * k + c] = NAN


cdef inline double _last_den(Sweep* st) noexcept nogil:
    """Den of B (definitions page, "B(r)"; scaled) at the last operating point pushed."""
    return st.weight_pos * (st.tp + st.fp) - st.tp * st.self_pairs


cdef inline int _check_levels(const double[::1] levels) except -1:
    if levels.shape[0] > MAX_LEVELS:
        raise ValueError(f"at most {MAX_LEVELS} levels")


cdef enum:
    PREFETCH_AHEAD = 24       # keys ahead whose rows are requested from memory


cdef inline void _merge_desc(const score_t* pos, Py_ssize_t n_pos, const score_t* neg,
                      Py_ssize_t n_neg, Sink* out, mode_t mode) noexcept nogil:
    """Walk two ascending arrays from the top, emitting one group per distinct score.

    Run-based: the inner loop takes every negative above the next positive, so the
    only unpredictable branch is a switch of class. (A select-based merge makes each
    index wait for the previous load and compare, ~10 cycles a row.)
    """
    cdef Sink local = out[0]
    cdef Sink* sink = &local
    cdef Py_ssize_t i = n_pos - 1, k = n_neg - 1
    cdef score_t p
    if mode_t is PlainMode:
        if out.sweeping and out.scores == NULL:
            _merge_desc_sweep(pos, n_pos, neg, n_neg, out)
            return
    # Invariant: rows above pos[i] and neg[k] have been added to the sink.
    while i >= 0:
        p = pos[i]
        while k >= 0 and neg[k] > p:
            _add(sink, <double>neg[k], 0.0, 1.0, mode, <Plain>0)
            k -= 1
        _add(sink, <double>p, 1.0, 0.0, mode, <Plain>0)
        i -= 1
    while k >= 0:
        _add(sink, <double>neg[k], 0.0, 1.0, mode, <Plain>0)
        k -= 1
    out[0] = local


cdef inline void _merge_desc_sweep(const score_t* pos, Py_ssize_t n_pos, const score_t* neg,
                            Py_ssize_t n_neg, Sink* out) noexcept nogil:
    """``_merge_desc`` into a sink that only sweeps, on ``Hot`` locals (``_hot_row``)."""
    cdef Py_ssize_t i = n_pos - 1, k = n_neg - 1
    cdef score_t p
    cdef Open g
    cdef Hot h
    cdef Py_ssize_t groups_before = out.sweep.n_groups
    hot_load(&h, &out.sweep)
    _open_load(&g, out)
    while i >= 0:
        p = pos[i]
        while k >= 0 and neg[k] > p:
            _hot_row(&h, &out.sweep, &g, <double>neg[k], 0.0, 1.0)
            k -= 1
        _hot_row(&h, &out.sweep, &g, <double>p, 1.0, 0.0)
        i -= 1
    while k >= 0:
        _hot_row(&h, &out.sweep, &g, <double>neg[k], 0.0, 1.0)
        k -= 1
    hot_store(&h, &out.sweep)
    _open_store(&g, out)
    out.m += h.n_groups - groups_before
