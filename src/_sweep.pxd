# cython: language_level=3
"""The descending sweep over distinct scores, shared by every kernel that reads groups.

One place holds the arithmetic of SPEC §2-§4, so the fused array paths and the table
path (`sweep_table`) cannot drift apart. Operation order mirrors
`indist_fast._reference.sweep_table` (sequential cumulative sums), so both backends
round identically and choose the same operating point.
"""

from libc.stdint cimport int64_t
from libc.math cimport INFINITY, NAN, fmin, fmax
from libc.string cimport memset
from libc.stdlib cimport realloc, free

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


cdef struct Costs:
    # Condition-free sums of SPEC §7 for a uniform cost proportion, gathered in the
    # same sweep (see indist_fast.threshold_choice for how losses are composed).
    double rate_pos              # d(rate)/d(TP): pi1' / W_P; the rate is
    double rate_neg              # q = rate_pos TP + rate_neg FP (pi' of the condition)
    double mae_pos               # sum over positives of w (1 - s)
    double mae_neg               # sum over negatives of w s
    double brier_pos             # sum over positives of w (1 - s)^2
    double brier_neg             # sum over negatives of w s^2
    double min_score
    double max_score
    double int_tpr               # integral of tpr over the rate q in [0, 1]
    double int_fpr               # integral of fpr over q
    double j1                    # integral of c (1 - tpr(c)) dc with rate q = c
    double j0                    # integral of (1 - c) fpr(c) dc with rate q = c
    double t_fixed               # score-fixed threshold (NaN: none)
    double t_tp                  # TP, FP of the operating point at t_fixed
    double t_fp
    double q_fixed               # rate-fixed rate (NaN: none)
    bint q_found
    double q_tp                  # TP, FP interpolated at rate q_fixed
    double q_fp
    # Upper ROC convex hull in (FP, TP), from (0, 0); grown by realloc.
    double* hull_fp
    double* hull_tp
    double* hull_t
    Py_ssize_t hull_n
    Py_ssize_t hull_cap
    bint failed                  # out of memory growing the hull


ctypedef void (*GroupHook)(Costs* c, double s, double tp_above, double fp_above,
                          double tp_g, double fp_g, double weight_pos,
                          double weight_neg) noexcept nogil


cdef struct Sink:
    # Collects rows in descending score order into groups of equal score, and sends
    # each finished group into the sweep (when `sweeping`), into table columns, or
    # both. Loops copy the Sink into a local and write it back at the end: a local
    # whose address never escapes keeps the running sums in registers.
    Sweep sweep
    bint sweeping
    Costs* costs               # threshold-choice sums too, when not NULL, through
    GroupHook costs_hook       # this out-of-line call: inlined, it slows every merge
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


cdef inline void costs_init(Costs* c, double rate_pos, double rate_neg, double t_fixed,
                            double q_fixed) noexcept nogil:
    memset(c, 0, sizeof(Costs))
    c.rate_pos = rate_pos
    c.rate_neg = rate_neg
    c.min_score = INFINITY
    c.max_score = -INFINITY
    c.t_fixed = t_fixed
    c.q_fixed = q_fixed
    c.q_found = q_fixed != q_fixed      # NaN: nothing to find
    _hull_add(c, 0.0, 0.0, INFINITY)    # predict nothing positive


cdef inline void _hull_add(Costs* c, double fp, double tp, double t) noexcept nogil:
    """Monotone chain for the upper hull; points arrive with FP, TP non-decreasing."""
    cdef Py_ssize_t n = c.hull_n
    cdef double* grown
    # Drop the last vertex while it lies on or below the line from the one before it
    # to the new point (cross product >= 0: not a strict right turn).
    while n >= 2 and ((c.hull_fp[n - 1] - c.hull_fp[n - 2]) * (tp - c.hull_tp[n - 2])
                      - (c.hull_tp[n - 1] - c.hull_tp[n - 2]) * (fp - c.hull_fp[n - 2])) >= 0.0:
        n -= 1
    if n == c.hull_cap:
        c.hull_cap = 2 * c.hull_cap + 64
        grown = <double*>realloc(c.hull_fp, c.hull_cap * sizeof(double))
        if grown == NULL:
            c.failed = True
            c.hull_n = n
            return
        c.hull_fp = grown
        grown = <double*>realloc(c.hull_tp, c.hull_cap * sizeof(double))
        if grown == NULL:
            c.failed = True
            c.hull_n = n
            return
        c.hull_tp = grown
        grown = <double*>realloc(c.hull_t, c.hull_cap * sizeof(double))
        if grown == NULL:
            c.failed = True
            c.hull_n = n
            return
        c.hull_t = grown
    c.hull_fp[n] = fp
    c.hull_tp[n] = tp
    c.hull_t[n] = t
    c.hull_n = n + 1


cdef inline void costs_free(Costs* c) noexcept nogil:
    free(c.hull_fp)
    free(c.hull_tp)
    free(c.hull_t)
    c.hull_fp = c.hull_tp = c.hull_t = NULL


cdef inline void costs_push(Costs* c, double s, double tp_above, double fp_above,
                            double tp_g, double fp_g, double weight_pos,
                            double weight_neg) noexcept nogil:
    """Add the group at score ``s`` below the operating point (tp_above, fp_above)."""
    cdef double a = c.rate_pos * tp_above + c.rate_neg * fp_above  # rate before the group
    cdef double width = c.rate_pos * tp_g + c.rate_neg * fp_g     # its share of the rates
    cdef double lam
    c.mae_pos += tp_g * (1.0 - s)
    c.mae_neg += fp_g * s
    c.brier_pos += tp_g * (1.0 - s) * (1.0 - s)
    c.brier_neg += fp_g * s * s
    c.min_score = fmin(c.min_score, s)
    c.max_score = fmax(c.max_score, s)
    # Rates: on the segment tpr and fpr are linear in q (a random split of the group).
    c.int_tpr += width * (tp_above + 0.5 * tp_g) / weight_pos
    c.int_fpr += width * (fp_above + 0.5 * fp_g) / weight_neg
    # Rate-driven (q = c), integrated exactly over c in [a, a + width], u = c - a:
    # int (a + u)(1 - tpr) du and int (1 - a - u) fpr du, tpr, fpr linear in u.
    c.j1 += ((a * width + 0.5 * width * width) * (1.0 - tp_above / weight_pos)
             - tp_g / weight_pos * (0.5 * a * width + width * width / 3.0))
    c.j0 += (fp_above * ((1.0 - a) * width - 0.5 * width * width)
             + fp_g * (0.5 * (1.0 - a) * width - width * width / 3.0)) / weight_neg
    if s >= c.t_fixed:
        c.t_tp = tp_above + tp_g
        c.t_fp = fp_above + fp_g
    if not c.q_found and c.q_fixed <= a + width:
        lam = (c.q_fixed - a) / width
        lam = fmin(fmax(lam, 0.0), 1.0)
        c.q_tp = tp_above + lam * tp_g
        c.q_fp = fp_above + lam * fp_g
        c.q_found = True
    _hull_add(c, fp_above + fp_g, tp_above + tp_g, s)


cdef inline void sink_init(Sink* k) noexcept nogil:
    memset(k, 0, sizeof(Sink))
    k.cur = NAN


cdef inline void sink_emit(Sink* k, double threshold, double tp_g, double fp_g) noexcept nogil:
    if k.costs != NULL:         # before the sweep moves on: it needs TP, FP above
        k.costs_hook(k.costs, threshold, k.sweep.tp, k.sweep.fp, tp_g, fp_g,
                     k.sweep.weight_pos, k.sweep.weight_neg)
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
