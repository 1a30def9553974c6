# Included (``include "_sinks.pxi"``) by every kernel module after ``cnp.import_array()``:
# the Python-level side of a sink (open a sweep or a table, close it into the engine's
# records), the module's flag for the AVX-512 blocks and its copy of NumPy's sorts. Code
# that makes Python objects cannot be ``cdef inline`` in a .pxd (a .pxd imports no Python
# names), so it has this one home and is compiled into each module that includes it.

from libc.stdint cimport int64_t
from indist_fast._core.sweep cimport (Sink, Hull, Costs, sink_init, sweep_init, costs_init,
                                     costs_finish, costs_free, simd_on, simd_set)
from indist_fast._core.records import CostSettings, CostSums, SweepResult, Table

if not sorts_init():
    raise ImportError("NumPy has no quicksort for unsigned integers or floats")


def simd_blocks(on=None):
    """Whether sweeps take eight rows of distinct scores at a time (AVX-512, see
    ``sweep.pxd``), after turning that on (where the CPU can) or off when ``on`` is
    given. The tests run both ways: the results are the same to the bit."""
    return bool(simd_on() if on is None else simd_set(bool(on)))


cdef int _open_sweep(Sink* sink, Hull* hull, double weight_pos, double weight_neg,
                     bint exclude_self, const double[::1] levels, object costs) except -1:
    """A sink that sweeps, and gathers threshold-choice sums into ``c`` when asked."""
    _check_levels(levels)
    sink_init(sink)
    sink.sweeping = True
    sweep_init(&sink.sweep, weight_pos, weight_neg, exclude_self, levels)
    # The cost sums divide by each class's weight: with a class absent they are
    # undefined, so none are gathered and the facade's two-class check raises first.
    if costs is not None and weight_pos > 0 and weight_neg > 0:
        t_fixed, q_fixed, rate_pi_pos = _resolve_costs(costs, weight_pos, weight_neg)
        costs_init(&sink.costs, hull, rate_pi_pos / sink.sweep.weight_pos,
                   (1.0 - rate_pi_pos) / sink.sweep.weight_neg, t_fixed, q_fixed)
        sink.sweep_costs = True
    return 0


cdef object _resolve_costs(costs, double weight_pos, double weight_neg):
    """``(t_fixed, q_fixed, rate_pi_pos)`` with the defaults filled in (see
    ``summarize_sorted``)."""
    t_fixed, q_fixed, rate_pi_pos = costs
    if rate_pi_pos != rate_pi_pos:
        rate_pi_pos = weight_pos / (weight_pos + weight_neg)
    if q_fixed < 0:
        q_fixed = rate_pi_pos
    return CostSettings(float(t_fixed), float(q_fixed), float(rate_pi_pos))


cdef object _close_sweep(Sink* sink):
    """The ``SweepResult``, with the threshold-choice sums when they were gathered."""
    cdef Costs* c = &sink.costs
    if not sink.sweep_costs:
        return _sweep_result(&sink.sweep, None)
    cdef double u = sink.sweep.inv_scale      # the sums were gathered in scaled weights
    costs_finish(c, sink.sweep.tp, sink.sweep.fp)
    try:
        if c.hull.failed:
            raise MemoryError("out of memory growing the ROC convex hull")
        hull = np.empty((3, c.hull.n))
        for i in range(c.hull.n):
            hull[0, i] = c.hull.fp[i] * u
            hull[1, i] = c.hull.tp[i] * u
            hull[2, i] = c.hull.t[i]
        sums = CostSums(c.mae_pos * u, c.mae_neg * u, c.brier_pos * u, c.brier_neg * u,
                c.min_score, c.max_score, c.t_tp * u, c.t_fp * u, c.q_tp * u, c.q_fp * u,
                hull)
    finally:
        costs_free(c)
    return _sweep_result(&sink.sweep, sums)


cdef object _sweep_result(Sweep* st, object costs):
    """The sweep's state as the ``SweepResult`` both engines return (the numbers as
    ``_write_sweep`` writes them for a table of segments)."""
    cdef double o[8]
    crossings = np.empty((st.n_levels, 5))
    _write_sweep(st, 0, o, <double*>cnp.PyArray_DATA(crossings))
    return SweepResult(st.n_groups, st.n_undefined, o[3], o[4], o[5], o[6], o[7], crossings,
                       costs)


cdef tuple _open_table(Py_ssize_t n, object count_dtype, Sink* sink):
    """Columns for up to ``n`` groups, wired into a fresh sink as its outputs."""
    scores = np.empty(max(n, 1), dtype=np.float64)
    tp = np.empty(max(n, 1), dtype=count_dtype)
    fp = np.empty(max(n, 1), dtype=count_dtype)
    sink_init(sink)
    sink.scores = <double*>cnp.PyArray_DATA(scores)
    if count_dtype is np.int64:
        sink.tp_count = <int64_t*>cnp.PyArray_DATA(tp)
        sink.fp_count = <int64_t*>cnp.PyArray_DATA(fp)
    else:
        sink.tp_weight = <double*>cnp.PyArray_DATA(tp)
        sink.fp_weight = <double*>cnp.PyArray_DATA(fp)
    return scores, tp, fp


cdef object _close_table(tuple table, Sink* sink):
    return Table(*[_shrink(col, sink.m) for col in table])


cdef object _shrink(object arr, Py_ssize_t m):
    # realloc in place: trimming by copy would double the peak memory of a table.
    arr.resize(m, refcheck=False)
    return arr
