# cython: language_level=3
"""The descending sweep over distinct scores, shared by every kernel that reads groups.

One place holds the arithmetic of AUC, B(r), r_b and C(r_b) (see the definitions page of
the documentation), so the fused array paths and the table
path (`sweep_table`) cannot drift apart. Operation order mirrors
`indist_fast._core.reference.sweep_table` (sequential cumulative sums), so both backends
round identically and choose the same operating point.
"""

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.math cimport INFINITY, NAN, frexp, ldexp
from libc.float cimport DBL_MAX
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
    # Weights inside the sweep are scaled by `scale` (a power of two, see
    # weight_scale) so that products of totals neither overflow nor underflow;
    # probabilities are unchanged, and B keeps its unscaled value because the
    # self-pair term is scaled by the same factor (Den = W_P T - TP in copies; see the
    # definitions page, "B(r)").
    double scale               # callers push weights already multiplied by it
    double inv_scale           # 1 / scale (exact), for the unscaled costs
    double weight_pos          # W_P (scaled), known before the sweep (B needs it)
    double weight_neg          # W_N (scaled)
    double self_pairs          # scale with exclude_self=True, 0.0 without
    Py_ssize_t n_groups        # operating points pushed so far
    Py_ssize_t n_undefined     # operating points with Den <= 0 (B is NaN there)
    double tp                  # TP_j after the last push (scaled)
    double fp                  # FP_j after the last push (scaled)
    double auc_num             # sum_g fp_g (above_g + tp_g / 2)
    double ap_num              # sum_g tp_g * precision_g
    double b_gap               # G_j = 2 Num_j - Den_j, see sweep_push_at
    double next_gap            # 2 (smallest pending level) - 1, less a slack: a cheap
                               # test that never misses a crossing (inf: none left)
    int n_levels
    double levels[MAX_LEVELS]
    Crossing crossings[MAX_LEVELS]


cdef struct Costs:
    # Condition-free sums of the threshold choice losses (Hernandez-Orallo, Flach and
    # Ferri; definitions page) for a uniform cost proportion, gathered in the
    # same sweep (see indist_fast.threshold_choice for how losses are composed).
    double rate_pos              # d(rate)/d(TP): pi1' / W_P; the rate is
    double rate_neg              # q = rate_pos TP + rate_neg FP (pi' of the condition)
    double mae_pos               # sum over positives of w (1 - s)
    double mae_neg               # sum over negatives of w s
    double brier_pos             # sum over positives of w (1 - s)^2
    double brier_neg             # sum over negatives of w s^2
    double min_score
    double max_score
    double t_fixed               # score-fixed threshold (NaN: none)
    double t_tp                  # TP, FP of the operating point at t_fixed
    double t_fp
    double q_fixed               # rate-fixed rate (NaN: none)
    bint q_found
    double q_tp                  # TP, FP interpolated at rate q_fixed
    double q_fp
    # The last ROC point, held back until the next group shows whether the curve
    # turns right there: only such corners can be hull vertices.
    double pend_fp
    double pend_tp
    double pend_t
    double pend_dfp              # the move that reached it
    double pend_dtp
    bint pending
    # Its own struct, reached by pointer: growing it calls realloc, and a call that
    # took the address of the Costs would pin every running sum above to memory.
    Hull* hull


cdef struct Hull:
    # Upper ROC convex hull in (FP, TP), from (0, 0); grown by realloc.
    double* fp
    double* tp
    double* t
    Py_ssize_t n
    Py_ssize_t cap
    bint failed                  # out of memory growing the hull


cdef struct Sink:
    # Collects rows in descending score order into groups of equal score, and sends
    # each finished group into the sweep (when `sweeping`), into table columns, or
    # both. Loops copy the Sink into a local and write it back at the end: a local
    # whose address never escapes keeps the running sums in registers.
    Sweep sweep
    bint sweeping
    bint sweep_costs           # the caller asked for the threshold-choice sums
    Costs costs                # threshold-choice sums, gathered by the CostMode
                               # specialisation of the row loops (see _kernels.pyx)
    double cur                 # score of the open group (NaN before the first row)
    double cur_tp              # its positive and negative weight so far
    double cur_fp
    double chain               # weighted key path: positive weight (scaled) of every
    double chain_err           # row added so far, the compensated sum chain + chain_err
    Py_ssize_t m               # groups written so far
    double* scores
    int64_t* tp_count          # unweighted tables
    int64_t* fp_count
    double* tp_weight          # weighted tables
    double* fp_weight


cdef inline int scale_exponent(double weight_pos, double weight_neg, int* e) noexcept nogil:
    """Set ``e`` so that the class totals times 2**-e are in range for a sweep's
    products, 0 whenever that serves; 0 returned when no ``e`` does (classes about
    2**1500 apart). Positive, finite totals. Twin (with the reasons):
    ``indist_fast._core.rates.scale_exponent``."""
    cdef int p, q, y, lo, hi
    if weight_pos <= 0.0 or weight_neg <= 0.0:
        weight_pos = weight_neg = (weight_pos if weight_pos > weight_neg else weight_neg)
    frexp(weight_pos, &p)
    frexp(weight_neg, &q)
    frexp(weight_pos + weight_neg, &y)
    lo = y - 500
    hi = (p + q + 998) >> 1         # (floor, as the twin's: cdivision truncates //)
    if (p if p < q else q) + 999 < hi:
        hi = (p if p < q else q) + 999
    if lo > hi:
        return 0
    e[0] = lo if lo > 0 else (hi if hi < 0 else 0)
    return 1


cdef inline double weight_scale(double weight_pos, double weight_neg) noexcept nogil:
    """The power of two weights are multiplied by inside a sweep: 2**-e for
    ``scale_exponent``'s e (1 for all but extreme totals); past its range, the largest
    scale that keeps the total finite, so both totals come back nonzero for the caller
    to refuse. Twin: ``indist_fast._core.rates.weight_scale``."""
    cdef int e, y
    cdef double total = weight_pos + weight_neg
    if not (weight_pos >= 0.0 and weight_neg >= 0.0 and total > 0.0 and total <= DBL_MAX):
        return 1.0
    if not scale_exponent(weight_pos, weight_neg, &e):
        frexp(total, &y)
        e = y - 1020
    return ldexp(1.0, -e)


cdef inline double clamp_probability(double x) noexcept nogil:
    """Rounding can carry a probability an ulp outside [0, 1]; NaN stays NaN."""
    if x < 0.0:
        return 0.0
    if x > 1.0:
        return 1.0
    return x


cdef inline double clamp_b(double x) noexcept nogil:
    """B with rounding past 0 or 1 absorbed; further out it is B's exact value
    (fractional weights), kept. Twin: ``indist_fast._core.rates.clamp_b``, whose
    ``B_ROUNDING`` is the 1e-12 here."""
    if x < 0.0 and x >= -1e-12:
        return 0.0
    if x > 1.0 and x <= 1.0 + 1e-12:
        return 1.0
    return x


cdef inline double b_value(double gap, double den) noexcept nogil:
    """B_j = 1/2 + G_j / (2 Den_j): the one value every path reports and compares."""
    return clamp_b(0.5 + 0.5 * (gap / den))


cdef inline void _next_level(Sweep* st) noexcept nogil:
    cdef int k
    cdef double lowest = INFINITY
    for k in range(st.n_levels):
        if not st.crossings[k].found and st.levels[k] < lowest:
            lowest = st.levels[k]
    # B = 1/2 + G/(2 Den) >= level implies G >= (2 level - 1 - 2**-49) Den: the slack
    # covers the rounding of the quotient and the sum, so the test never misses.
    st.next_gap = (2.0 * lowest - 1.0) - 1.7763568394002505e-15


cdef inline void sweep_init(Sweep* st, double weight_pos, double weight_neg,
                            bint exclude_self, const double[::1] levels) noexcept nogil:
    cdef int k
    st.scale = weight_scale(weight_pos, weight_neg)
    st.inv_scale = 1.0 / st.scale
    st.weight_pos = weight_pos * st.scale
    st.weight_neg = weight_neg * st.scale
    st.self_pairs = st.scale if exclude_self else 0.0
    st.n_groups = 0
    st.n_undefined = 0
    st.tp = 0.0
    st.fp = 0.0
    st.auc_num = 0.0
    st.ap_num = 0.0
    st.b_gap = 0.0
    st.n_levels = <int>levels.shape[0]
    for k in range(st.n_levels):
        st.levels[k] = levels[k]
        st.crossings[k].found = False
    _next_level(st)


cdef inline void sweep_start_at(Sweep* st, double tp_above, double fp_above,
                                double gap_above) noexcept nogil:
    """Continue below ranges already swept: their TP, FP (unscaled) and G (scaled)."""
    st.tp = tp_above * st.scale
    st.fp = fp_above * st.scale
    st.b_gap = gap_above


cdef inline void _record_crossings(Sweep* st, double threshold, double den) noexcept nogil:
    cdef int k
    cdef double b = b_value(st.b_gap, den)
    for k in range(st.n_levels):
        if not st.crossings[k].found and b >= st.levels[k]:
            st.crossings[k].found = True
            st.crossings[k].index = st.n_groups
            st.crossings[k].threshold = threshold + 0.0     # (-0.0 reported as 0.0)
            st.crossings[k].tp = st.tp * st.inv_scale
            st.crossings[k].fp = st.fp * st.inv_scale
            st.crossings[k].b = b
    _next_level(st)


cdef inline void sweep_push(Sweep* st, double threshold, double tp_g,
                            double fp_g) noexcept nogil:
    """Add the group at `threshold` (positive weight tp_g, negative fp_g, both times
    ``st.scale``; counts need no multiplication, their scale is 1) below the others;
    TP is the groups' weights summed in order."""
    sweep_push_at(st, threshold, tp_g, fp_g, st.tp + tp_g)


cdef extern from "indist_fast/_core/include/sweep_c.h":
    # The C half (indist_fast/_core/include/sweep_c.h, shipped beside this file): the Hot
    # sums a row loop keeps in registers, and the eight-group AVX-512 blocks.
    ctypedef struct Hot "indist_hot":
        double tp
        double fp
        double auc_num
        double ap_num
        double b_gap
        double next_gap
        double weight_pos
        double self_pairs
        Py_ssize_t n_groups
        Py_ssize_t n_undefined
    bint simd_on "indist_simd_on"() noexcept nogil
    bint simd_set "indist_simd_set"(bint on) noexcept nogil
    Py_ssize_t words_blocks "indist_words_blocks"(Hot* h, const void* w, bint wide, Py_ssize_t a,
                                                 Py_ssize_t i) noexcept nogil
    Py_ssize_t groups_blocks "indist_groups_blocks"(Hot* h, double* tp, double* fp, Py_ssize_t g,
                                                   Py_ssize_t m) noexcept nogil


cdef inline bint exact_blocks(double weight_pos, double weight_neg) noexcept nogil:
    """Whether whole class weights this large keep every sum of a sweep exact, so the
    blocks above may take it: |G| and Den are at most W W_P (W = W_P + W_N), AUC's
    numerator W_P W_N, and a block's partial sums 64 W_P more; all below 2**52, they
    are integers or halves that doubles hold exactly (1e7 rows always; 1e8 with up
    to 4.5e7 positives)."""
    return (weight_pos + weight_neg + 64.0) * weight_pos < 4503599627370496.0


cdef inline void hot_load(Hot* h, const Sweep* st) noexcept nogil:
    h.tp = st.tp
    h.fp = st.fp
    h.auc_num = st.auc_num
    h.ap_num = st.ap_num
    h.b_gap = st.b_gap
    h.next_gap = st.next_gap
    h.weight_pos = st.weight_pos
    h.self_pairs = st.self_pairs
    h.n_groups = st.n_groups
    h.n_undefined = st.n_undefined


cdef inline void hot_store(const Hot* h, Sweep* st) noexcept nogil:
    st.tp = h.tp
    st.fp = h.fp
    st.auc_num = h.auc_num
    st.ap_num = h.ap_num
    st.b_gap = h.b_gap
    st.n_groups = h.n_groups
    st.n_undefined = h.n_undefined


cdef inline void sweep_push_at(Sweep* st, double threshold, double tp_g, double fp_g,
                               double tp) noexcept nogil:
    """``sweep_push`` with TP after the group given by the caller (scaled): the
    weighted key path's compensated sum, or a range's TP above plus its own sum.

    B is tracked as G_j = 2 Num_j - Den_j, in which the self-pair terms cancel:
    G_j = sum_{g <= j} (tp_g + fp_g) (above_g - below_g), with below_g = W_P - TP_g the
    positive weight strictly below group g. G is exactly 0 in floating point where
    B = 1/2 by structure (all scores tied: above = below = 0; all positive weight in
    the top group: below = 0 from there on; mirror groups, whose terms cancel),
    provided W_P is the sweep's own final TP; every caller guarantees that. The
    quotient Num / Den, with its two rounding paths, is not exact there. B_j =
    1/2 + G_j / (2 Den_j) is then exactly 1/2, and a level counts as reached where
    this very B is >= the level, so every path agrees with ``Curves.b``.
    """
    cdef Hot h
    hot_load(&h, st)
    hot_push(&h, st, threshold, tp_g, fp_g, tp)
    hot_store(&h, st)


cdef inline void hot_push(Hot* h, Sweep* st, double threshold, double tp_g, double fp_g,
                          double tp) noexcept nogil:
    """``sweep_push_at`` on a loop's ``Hot`` copy of ``st`` (written back to ``st``
    before a crossing is recorded)."""
    cdef double above = h.tp               # positive weight strictly above this group
    cdef double half = tp_g * 0.5
    cdef double den
    h.auc_num += fp_g * (above + half)
    h.b_gap += (tp_g + fp_g) * (above - (h.weight_pos - tp))
    h.tp = tp
    h.fp = h.fp + fp_g

    h.ap_num += tp_g * (tp / (tp + h.fp))
    den = h.weight_pos * (tp + h.fp) - tp * h.self_pairs
    if den <= 0.0:
        h.n_undefined += 1
    elif h.b_gap >= h.next_gap * den:   # a pending level may be reached here
        hot_store(h, st)
        _record_crossings(st, threshold, den)
        h.next_gap = st.next_gap
    h.n_groups += 1


cdef inline void costs_init(Costs* c, Hull* hull, double rate_pos, double rate_neg,
                            double t_fixed, double q_fixed) noexcept nogil:
    memset(c, 0, sizeof(Costs))
    memset(hull, 0, sizeof(Hull))
    c.hull = hull
    c.rate_pos = rate_pos
    c.rate_neg = rate_neg
    c.min_score = INFINITY
    c.max_score = -INFINITY
    c.t_fixed = t_fixed
    c.q_fixed = q_fixed
    c.q_found = q_fixed != q_fixed      # NaN: nothing to find
    _hull_add(hull, 0.0, 0.0, INFINITY)     # predict nothing positive


cdef inline void _hull_add(Hull* h, double fp, double tp, double t) noexcept nogil:
    """Monotone chain for the upper hull; points arrive with FP, TP non-decreasing."""
    cdef Py_ssize_t n = h.n
    # Drop the last vertex while it lies on or below the line from the one before it
    # to the new point (cross product >= 0: not a strict right turn).
    while n >= 2 and ((h.fp[n - 1] - h.fp[n - 2]) * (tp - h.tp[n - 2])
                      - (h.tp[n - 1] - h.tp[n - 2]) * (fp - h.fp[n - 2])) >= 0.0:
        n -= 1
    h.n = n
    if n == h.cap and not _hull_grow(h):
        return
    h.fp[n] = fp
    h.tp[n] = tp
    h.t[n] = t
    h.n = n + 1


cdef inline bint _hull_grow(Hull* h) noexcept nogil:
    cdef Py_ssize_t cap = 2 * h.cap + 64
    cdef double* grown
    grown = <double*>realloc(h.fp, cap * sizeof(double))
    if grown == NULL:
        h.failed = True
        return False
    h.fp = grown
    grown = <double*>realloc(h.tp, cap * sizeof(double))
    if grown == NULL:
        h.failed = True
        return False
    h.tp = grown
    grown = <double*>realloc(h.t, cap * sizeof(double))
    if grown == NULL:
        h.failed = True
        return False
    h.t = grown
    h.cap = cap
    return True


cdef inline void costs_finish(Costs* c, double tp_total, double fp_total) noexcept nogil:
    """Close the hull with the last ROC point (everything labelled); a fixed rate the
    rounded cumulative rates never reached (q = 1) is the last point."""
    if not c.q_found:
        c.q_tp = tp_total
        c.q_fp = fp_total
        c.q_found = True
    if c.pending:
        _hull_add(c.hull, c.pend_fp, c.pend_tp, c.pend_t)
        c.pending = False


cdef inline void costs_free(Costs* c) noexcept nogil:
    free(c.hull.fp)
    free(c.hull.tp)
    free(c.hull.t)
    c.hull.fp = c.hull.tp = c.hull.t = NULL


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
    # Groups arrive in descending order: the first is the highest, the last the lowest.
    if c.max_score == -INFINITY:
        c.max_score = s
    c.min_score = s
    if s >= c.t_fixed:
        c.t_tp = tp_above + tp_g
        c.t_fp = fp_above + fp_g
    if not c.q_found and c.q_fixed <= a + width:
        # (a width of 0: a class's share of the rates underflowed; q is at a then)
        lam = (c.q_fixed - a) / width if width > 0.0 else 0.0
        lam = 0.0 if lam < 0.0 else (1.0 if lam > 1.0 else lam)
        c.q_tp = tp_above + lam * tp_g
        c.q_fp = fp_above + lam * fp_g
        c.q_found = True
    # The held-back point is a corner where the curve turns right (cross product of
    # the move into it and this group's move < 0) or it cannot be a hull vertex.
    if c.pending and c.pend_dfp * tp_g - c.pend_dtp * fp_g < 0.0:
        _hull_add(c.hull, c.pend_fp, c.pend_tp, c.pend_t)
    c.pend_fp = fp_above + fp_g
    c.pend_tp = tp_above + tp_g
    c.pend_t = s
    c.pend_dfp = fp_g
    c.pend_dtp = tp_g
    c.pending = True


cdef inline void sink_init(Sink* k) noexcept nogil:
    memset(k, 0, sizeof(Sink))
    k.cur = NAN
    k.sweep.scale = 1.0          # table sinks write weights as they come
    k.sweep.inv_scale = 1.0


cdef inline void chain_add(double* s, double* err, double x) noexcept nogil:
    """Compensated running sum (TwoSum): s + err is the exact sum to about n u^2, so
    it rounds to the correctly rounded total whatever the order of the terms, but for
    totals within that distance of a rounding boundary (callers check the result)."""
    cdef double t = s[0] + x
    cdef double back = t - s[0]
    err[0] += (s[0] - (t - back)) + (x - back)
    s[0] = t


cdef inline void sink_emit(Sink* k, double threshold, double tp_g, double fp_g) noexcept nogil:
    if k.sweeping:
        sweep_push(&k.sweep, threshold, tp_g, fp_g)
    _sink_write(k, threshold, tp_g, fp_g)


cdef inline void sink_emit_chained(Sink* k, double threshold, double tp_g,
                                   double fp_g) noexcept nogil:
    """``sink_emit`` for weighted rows: TP is the compensated sum of the rows in key
    order. W_P is counted in row order, also compensated: both round to the same
    total (callers check), so below_g ends at exactly 0."""
    if k.sweeping:
        sweep_push_at(&k.sweep, threshold, tp_g, fp_g, k.chain + k.chain_err)
    _sink_write(k, threshold, tp_g, fp_g)


cdef inline void _sink_write(Sink* k, double threshold, double tp_g, double fp_g) noexcept nogil:
    if k.scores != NULL:
        # + 0.0: a group of zeros is the score 0.0 whichever sign its first row had
        k.scores[k.m] = threshold + 0.0
        if k.tp_count != NULL:
            k.tp_count[k.m] = <int64_t>tp_g
            k.fp_count[k.m] = <int64_t>fp_g
        else:
            k.tp_weight[k.m] = tp_g
            k.fp_weight[k.m] = fp_g
    k.m += 1
