# cython: language_level=3
"""The descending sweep over distinct scores, shared by every kernel that reads groups.

One place holds the arithmetic of SPEC §2-§4, so the fused array paths and the table
path (`sweep_table`) cannot drift apart. Operation order mirrors
`indist_fast._reference.sweep_table` (sequential cumulative sums), so both backends
round identically and choose the same operating point.
"""

from libc.stdint cimport int64_t
from libc.math cimport INFINITY, NAN
from libc.string cimport memset

cdef enum:
    MAX_LEVELS = 16   # levels per sweep; the facade checks the count


cdef struct Crossing:
    # One per requested level: the first operating point (in descending threshold
    # order) whose B reaches the level.
    bint found
    Py_ssize_t index
    double threshold
    double tp
    double fp
    double b


cdef struct Sweep:
    double weight_pos          # W_P, known before the sweep (B's denominator needs it)
    double weight_neg          # W_N
    double self_pairs          # 1.0 drops self-pairs (exclude_self=True), 0.0 keeps them
    Py_ssize_t n_groups        # operating points pushed so far
    Py_ssize_t n_undefined     # operating points with Den <= 0 (B is NaN there)
    double tp                  # TP_j after the last push
    double fp                  # FP_j after the last push
    double auc_num             # sum_g fp_g (above_g + tp_g / 2)
    double ap_num              # sum_g tp_g * precision_g
    double b_num               # Num_j of SPEC §3
    double next_level          # smallest level not yet reached (inf when none is left)
    int n_levels
    double levels[MAX_LEVELS]
    Crossing crossings[MAX_LEVELS]


cdef struct Sink:
    # Collects rows in descending score order into groups of equal score, and sends
    # each finished group into the sweep (when `sweeping`), into table columns, or
    # both. Loops copy the Sink into a local and write it back at the end: a local
    # whose address never escapes keeps the running sums in registers.
    Sweep sweep
    bint sweeping
    double cur                 # score of the open group (NaN before the first row)
    double cur_tp              # its positive and negative weight so far
    double cur_fp
    Py_ssize_t m               # groups written so far
    double* scores
    int64_t* tp_count          # unweighted tables
    int64_t* fp_count
    double* tp_weight          # weighted tables
    double* fp_weight


cdef inline void _next_level(Sweep* st) noexcept nogil:
    cdef int k
    st.next_level = INFINITY
    for k in range(st.n_levels):
        if not st.crossings[k].found and st.levels[k] < st.next_level:
            st.next_level = st.levels[k]


cdef inline void sweep_init(Sweep* st, double weight_pos, double weight_neg,
                            bint exclude_self, const double[::1] levels) noexcept nogil:
    cdef int k
    st.weight_pos = weight_pos
    st.weight_neg = weight_neg
    st.self_pairs = 1.0 if exclude_self else 0.0
    st.n_groups = 0
    st.n_undefined = 0
    st.tp = 0.0
    st.fp = 0.0
    st.auc_num = 0.0
    st.ap_num = 0.0
    st.b_num = 0.0
    st.n_levels = <int>levels.shape[0]
    for k in range(st.n_levels):
        st.levels[k] = levels[k]
        st.crossings[k].found = False
    _next_level(st)


cdef inline void _record_crossings(Sweep* st, double threshold, double den) noexcept nogil:
    cdef int k
    for k in range(st.n_levels):
        # Compared as Num >= level * Den, the form the reference uses.
        if not st.crossings[k].found and st.b_num >= st.levels[k] * den:
            st.crossings[k].found = True
            st.crossings[k].index = st.n_groups
            st.crossings[k].threshold = threshold
            st.crossings[k].tp = st.tp
            st.crossings[k].fp = st.fp
            st.crossings[k].b = st.b_num / den
    _next_level(st)


cdef inline void sweep_push(Sweep* st, double threshold, double tp_g,
                            double fp_g) noexcept nogil:
    """Add the group at `threshold` (positive weight tp_g, negative fp_g) below the others."""
    cdef double above = st.tp               # positive weight strictly above this group
    cdef double half = tp_g * 0.5
    cdef double den
    st.auc_num += fp_g * (above + half)
    st.b_num += (tp_g + fp_g) * (above + half) - half * st.self_pairs
    st.tp = above + tp_g
    st.fp = st.fp + fp_g

    st.ap_num += tp_g * (st.tp / (st.tp + st.fp))
    den = st.weight_pos * (st.tp + st.fp) - st.tp * st.self_pairs
    if den <= 0.0:
        st.n_undefined += 1
    elif st.b_num >= st.next_level * den:   # any pending level is reached here
        _record_crossings(st, threshold, den)
    st.n_groups += 1


cdef inline void sink_init(Sink* k) noexcept nogil:
    memset(k, 0, sizeof(Sink))
    k.cur = NAN


cdef inline void sink_emit(Sink* k, double threshold, double tp_g, double fp_g) noexcept nogil:
    if k.sweeping:
        sweep_push(&k.sweep, threshold, tp_g, fp_g)
    if k.scores != NULL:
        k.scores[k.m] = threshold
        if k.tp_count != NULL:
            k.tp_count[k.m] = <int64_t>tp_g
            k.fp_count[k.m] = <int64_t>fp_g
        else:
            k.tp_weight[k.m] = tp_g
            k.fp_weight[k.m] = fp_g
    k.m += 1


cdef inline void sink_add(Sink* k, double score, double tp, double fp) noexcept nogil:
    """Add rows at `score` (no higher than any added before) to their group."""
    if score == k.cur:
        k.cur_tp += tp
        k.cur_fp += fp
    else:
        if k.cur_tp + k.cur_fp > 0.0:      # zero-weight rows never reach a sink
            sink_emit(k, k.cur, k.cur_tp, k.cur_fp)
        k.cur = score
        k.cur_tp = tp
        k.cur_fp = fp


cdef inline void sink_flush(Sink* k) noexcept nogil:
    """Emit the open group."""
    if k.cur_tp + k.cur_fp > 0.0:
        sink_emit(k, k.cur, k.cur_tp, k.cur_fp)
    k.cur = NAN
    k.cur_tp = 0.0
    k.cur_fp = 0.0
