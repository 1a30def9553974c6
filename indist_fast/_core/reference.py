"""NumPy reference twin of the compiled kernels.

Same functions, arguments and return values as ``indist_fast._core.fast`` (which drives
the compiled modules, ``indist_fast._core._sorted``, ``_radix``, ...). It is the fallback when the kernels cannot be imported and
the oracle the tests hold the kernels to. Clarity beats speed here; the arithmetic
follows the kernels' operation order (sequential cumulative sums) so that both
backends pick the same operating point: table sweeps agree to the bit. On weighted
rows the compiled engine sums TP with compensation in sort order (``sweep.pxd``,
``chain_add``) and this twin sums the table's groups in order, so the two can differ
in the last bits, yet each ends its TP exactly at its W_P, which is what makes B
exactly 1/2 where it is so by structure on both.

Sweeps return an ``indist_fast._core.records.SweepResult``.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from .curves import CurveColumns, _columns
from .key_range import key_range, ordered_bits
from .records import (Array, Costs, CostSums, DeLongComponents, DeLongSums, PairedMoments,
                      RangeSweep, ReplicateCounts, SegmentSweeps, SortedClasses, Part,
                      Release, SweepResult, Table, CROSSING_WIDTH, REPLICATE_HEAD,
                      REPLICATE_POINT, Crossing, WindowBase, WindowStep)
from .rates import clamp_probability, weight_scale
from .validation import checked_classes, plain_rows

__all__ = ["build_table", "summarize", "summarize_parts", "summarize_plain", "auc_plain", "sweep_table",
           "merge_tables",
           "replicate_counts",
           "replicate_sweeps", "delong_sums", "sweep_range", "sorted_classes",
           "summarize_runs", "summarize_segments", "summarize_models", "segment_order",
           "segment_replicate_sweeps", "delong_components", "paired_moments",
           "transpose_sums", "packed_keys", "sorted_pair_counts",
           "ordered_pair_counts", "window_step", "window_merge",
           "window_top"]


def _crossings(scores: Array, cols: CurveColumns, levels: Array) -> Array:
    """Per level, ``[index, threshold, TP, FP, B]`` where B first reaches it (NaN: never);
    "reaches" compares the very B reported."""
    crossings = np.full((len(levels), CROSSING_WIDTH), np.nan)
    for k, level in enumerate(levels):
        hits = np.flatnonzero(cols.defined & (cols.b >= level))
        if len(hits):
            j = hits[0]
            crossings[k] = Crossing(index=j, threshold=scores[j] + 0.0, tp=cols.tp[j],
                                    fp=cols.fp[j], b=cols.b[j])
    return crossings


def sweep_table(scores: Array, tp: Array, fp: Array,
                levels: Array, exclude_self: bool,
                costs: Costs = None) -> SweepResult:
    """AUC, AP and the level crossings of a score table (and, given ``costs =
    (t_fixed, q_fixed, rate_pi_pos)``, the threshold-choice sums)."""
    tpg = tp.astype(np.float64, copy=False)
    fpg = fp.astype(np.float64, copy=False)
    m = len(scores)
    with np.errstate(over="ignore", invalid="ignore"):   # infinite totals: refused later
        weight_pos = float(np.cumsum(tpg)[-1]) if m else 0.0
        weight_neg = float(np.cumsum(fpg)[-1]) if m else 0.0
        result, _ = _sweep(scores, tpg, fpg, levels, exclude_self, weight_pos, weight_neg)
    if costs is None or not (weight_pos > 0 and weight_neg > 0):
        return result         # cost sums divide by each class's weight (twin of the kernel)
    return result._replace(costs=cost_sums(scores, tpg, fpg, *costs))


def _sweep(scores: Array, tp: Array, fp: Array, levels: Array,
           exclude_self: bool, weight_pos: float, weight_neg: float, tp_above: float = 0.0,
           fp_above: float = 0.0, gap_above: float = 0.0) -> tuple[SweepResult, float]:
    """The sweep result of groups below the state given, and the final G."""
    cols, scale, tpg, fpg = _columns(tp, fp, exclude_self, weight_pos, weight_neg,
                                     tp_above, fp_above, gap_above)
    wp, wn = weight_pos * scale, weight_neg * scale
    cum_tp, cum_fp = cols.tp * scale, cols.fp * scale
    above = np.r_[tp_above * scale, cum_tp[:-1]]
    auc_num = float(np.sum(fpg * (above + tpg * 0.5)))
    with np.errstate(divide="ignore", invalid="ignore"):
        ap_num = float(np.sum(tpg * (cum_tp / (cum_tp + cum_fp)))) if len(tpg) else 0.0
    m = len(scores)
    result = SweepResult(
        m, int(np.count_nonzero(~cols.defined)), weight_pos, weight_neg,
        clamp_probability(auc_num / (wp * wn)) if wp > 0 and wn > 0 else np.nan,
        clamp_probability(ap_num / wp) if wp > 0 else np.nan,
        float(cols.b[-1]) if m else np.nan, _crossings(scores, cols, levels))
    return result, float(cols.gap[-1]) if m else gap_above


def cost_sums(scores: Array, tp: Array, fp: Array, t_fixed: float,
              q_fixed: float, rate_pi_pos: float) -> CostSums:
    """Threshold-choice sums of a score table (twin of the kernel's ``costs_push``).

    Rates are ``q = rate_pi_pos tpr + (1 - rate_pi_pos) fpr`` (NaN: the base rate);
    ``q_fixed < 0`` stands for ``rate_pi_pos``. Gathered in weights times the sweep's
    exact power-of-two scale (the hull's turn test multiplies weight differences, which
    would underflow or overflow with totals far from 1) and reported unscaled."""
    u = weight_scale(float(tp.sum()), float(fp.sum()))
    if u != 1.0:
        sums = cost_sums(scores, tp * u, fp * u, t_fixed, q_fixed, rate_pi_pos)
        hull = sums.hull.copy()
        hull[:2] /= u
        return sums._replace(
            mae_pos=sums.mae_pos / u, mae_neg=sums.mae_neg / u,
            brier_pos=sums.brier_pos / u, brier_neg=sums.brier_neg / u,
            t_tp=sums.t_tp / u, t_fp=sums.t_fp / u, q_tp=sums.q_tp / u,
            q_fp=sums.q_fp / u, hull=hull)
    wp, wn = float(tp.sum()), float(fp.sum())
    if np.isnan(rate_pi_pos):
        rate_pi_pos = wp / (wp + wn)
    if q_fixed < 0:
        q_fixed = rate_pi_pos
    k_pos, k_neg = rate_pi_pos / wp, (1.0 - rate_pi_pos) / wn
    above_tp = np.concatenate(([0.0], np.cumsum(tp)[:-1]))
    above_fp = np.concatenate(([0.0], np.cumsum(fp)[:-1]))
    a, width = k_pos * above_tp + k_neg * above_fp, k_pos * tp + k_neg * fp
    t_tp = t_fp = q_tp = q_fp = 0.0
    at_t = np.flatnonzero(scores >= t_fixed)
    if len(at_t):
        t_tp, t_fp = above_tp[at_t[-1]] + tp[at_t[-1]], above_fp[at_t[-1]] + fp[at_t[-1]]
    if not np.isnan(q_fixed):
        j = min(int(np.searchsorted(a + width, q_fixed)), len(tp) - 1)
        lam = min(max((q_fixed - a[j]) / width[j], 0.0), 1.0) if width[j] > 0 else 0.0
        q_tp, q_fp = above_tp[j] + lam * tp[j], above_fp[j] + lam * fp[j]
    with np.errstate(invalid="ignore"):     # +-inf scores: their score sums are NaN
        score_sums = (float(np.sum(tp * (1 - scores))), float(np.sum(fp * scores)),
                      float(np.sum(tp * (1 - scores) ** 2)), float(np.sum(fp * scores ** 2)))
    return CostSums(
        *score_sums,
        float(scores.min()), float(scores.max()),
        t_tp, t_fp, q_tp, q_fp,
        upper_hull(above_fp + fp, above_tp + tp, scores))


def upper_hull(fp: Array, tp: Array, thresholds: Array) -> Array:
    """Rows FP, TP, threshold of the upper convex hull of (0, 0) and the points.

    Points come with FP and TP non-decreasing; collinear points are dropped.
    """
    hx, hy, ht = [0.0], [0.0], [np.inf]
    for x, y, t in zip(fp.tolist(), tp.tolist(), thresholds.tolist()):
        while len(hx) >= 2 and ((hx[-1] - hx[-2]) * (y - hy[-2])
                                - (hy[-1] - hy[-2]) * (x - hx[-2])) >= 0:
            del hx[-1], hy[-1], ht[-1]
        hx.append(x)
        hy.append(y)
        ht.append(t)
    return np.array([hx, hy, ht])


def build_table(y: Array, s: Array, w: Array | None,
                pos_value: float, neg_value: float) -> Table:
    """Distinct scores (descending) with positive and negative weight at each.

    Counts are int64 without weights and float64 with them; zero-weight rows are
    dropped. Raises ValueError for NaN scores, third labels and bad weights.
    """
    is_pos = checked_classes(y, s, w, pos_value, neg_value)
    s = s.astype(np.float64)
    if w is not None:
        keep = w > 0
        s, is_pos, w = s[keep], is_pos[keep], w[keep]
    scores, inverse = np.unique(s, return_inverse=True)
    m = len(scores)
    if w is None:
        tp = np.bincount(inverse[is_pos], minlength=m).astype(np.int64)
        fp = np.bincount(inverse[~is_pos], minlength=m).astype(np.int64)
    else:
        # (float64 even for a class without rows: bincount of nothing gives int64)
        tp = np.bincount(inverse[is_pos], weights=w[is_pos], minlength=m).astype(np.float64)
        fp = np.bincount(inverse[~is_pos], weights=w[~is_pos], minlength=m).astype(np.float64)
    # + 0.0: a group of zeros is the score 0.0 whichever sign its first row had
    return Table(scores[::-1] + 0.0, tp[::-1].copy(), fp[::-1].copy())


def summarize(y: Array, s: Array, w: Array | None, pos_value: float,
              neg_value: float, levels: Array, exclude_self: bool,
              costs: Costs = None,
              release: Release = None) -> SweepResult:
    """Sweep result of raw rows: ``sweep_table(*build_table(...))``; ``release(0, n)``
    once the rows are read (the compiled twin calls it per row block)."""
    table = build_table(y, s, w, pos_value, neg_value)
    if release is not None:
        release(0, len(s))
    return sweep_table(*table, levels, exclude_self, costs)


def summarize_plain(y: Any, s: Any, levels: Array, exclude_self: bool,
                    max_rows: int) -> SweepResult | None:
    """``summarize`` of a plain service call (``plain_rows``), or None when the arrays
    are not plain, a row is bad (NaN score, a label that is neither value) or a class
    is missing: see ``fast.summarize_plain``."""
    rows = plain_rows(y, s, max_rows=max_rows)
    if rows is None:
        return None
    return _clean_summary(rows.y, rows.s, rows.pos_value, rows.neg_value, levels,
                          exclude_self)


def _clean_summary(y: Array, s: Array, pos_value: float, neg_value: float, levels: Array,
                   exclude_self: bool) -> SweepResult | None:
    """``summarize``, or None when a row is bad (a NaN score, a label that is neither
    value) or a class is missing."""
    is_pos = y == pos_value
    is_neg = y == neg_value
    if np.isnan(s).any() or not (is_pos | is_neg).all() or is_pos.all() or is_neg.all():
        return None
    return summarize(y, s, None, pos_value, neg_value, levels, exclude_self)


def summarize_parts(parts: Sequence[Part], rows: Sequence[int], sample: Array,
                    levels: Array, exclude_self: bool) -> SweepResult | None:
    """``summarize`` of unweighted rows labelled 1 and 0 that come in blocks (see
    ``fast.summarize_parts``): here the blocks are joined and summarized whole, or None
    when one is None, the rows are not ``rows`` or not of ``sample``'s dtype, a row is
    bad or a class is missing."""
    if len(parts) != len(rows) or not 1 <= len(parts) <= 2 or sum(rows) < 1 or min(rows) < 0:
        raise ValueError("parts and rows must be one or two writers' blocks and rows")
    ys, ss = [], []
    for part, n in zip(parts, rows):
        blocks = list(part())
        whole = [b for b in blocks if b is not None and b[1].dtype == sample.dtype]
        if len(whole) < len(blocks) or sum(len(s) for _, s in whole) != n:
            return None
        ys += [y for y, _ in whole]
        ss += [s for _, s in whole]
    return _clean_summary(np.concatenate(ys), np.concatenate(ss), 1.0, 0.0, levels,
                          exclude_self)


def auc_plain(y: Any, s: Any, max_rows: int) -> float | None:
    """The AUC of a plain service call, or None: see ``fast.auc_plain``."""
    result = summarize_plain(y, s, np.array([0.5]), True, max_rows)
    return None if result is None else float(result.auc)


def sorted_classes(y: Array, s: Array, pos_value: float, neg_value: float,
                   release: Release = None) -> SortedClasses:
    """Each class's scores, sorted ascending (in the scores' own dtype)."""
    is_pos = checked_classes(y, s, None, pos_value, neg_value)
    out = SortedClasses(np.sort(s[is_pos]), np.sort(s[~is_pos]))
    if release is not None:
        release(0, len(s))
    return out


def summarize_runs(runs: list[tuple[Array, bool]], levels: Array,
                   exclude_self: bool, costs: Costs = None,
                   held_bytes: int = 1 << 26) -> SweepResult:
    """Sweep ascending runs of one class each, ``(scores, positive)``, as one array
    (``held_bytes`` bounds the compiled twin's resident pages; unused here)."""
    def joined(positive: bool) -> Array:
        parts = [np.asarray(r, dtype=np.float64) for r, p in runs if bool(p) == positive]
        return np.concatenate(parts) if parts else np.empty(0)
    pos, neg = joined(True), joined(False)
    y = np.concatenate((np.ones(len(pos), np.uint8), np.zeros(len(neg), np.uint8)))
    return summarize(y, np.concatenate((pos, neg)), None, 1.0, 0.0, levels, exclude_self,
                     costs)


def merge_tables(s1: Array, tp1: Array, fp1: Array,
                 s2: Array, tp2: Array, fp2: Array) -> Table:
    """Merge two descending score tables, adding the weights of equal scores."""
    scores, inverse = np.unique(np.concatenate((s1, s2)), return_inverse=True)
    m = len(scores)
    dtype = np.result_type(tp1, tp2, fp1, fp2)     # one float column makes both float
    tp = np.zeros(m, dtype=dtype)
    fp = np.zeros(m, dtype=dtype)
    np.add.at(tp, inverse, np.concatenate((tp1, tp2)))
    np.add.at(fp, inverse, np.concatenate((fp1, fp2)))
    return Table(scores[::-1].copy(), tp[::-1].copy(), fp[::-1].copy())


# --- resampling (twin of src/_resample.pyx) -------------------------------------------

def _draw_indices(bit_generator: np.random.BitGenerator, n: int, count: int) -> Array:
    """``count`` uniform indices below ``n``, consumed from the raw stream exactly as
    the kernel consumes it: two 32-bit candidates per raw draw (low half first), kept
    by Lemire's rule, and a fresh raw draw for every call."""
    kept: list[Array] = [np.empty(0, np.int64)]
    reject = np.uint64((2**32 - n) % n) if n else np.uint64(0)
    low = np.uint64(0xFFFFFFFF)
    need = count
    while need:
        # ceil(need / 2) raws hold 2 * ceil(need / 2) <= need + 1 candidates, so the
        # need-th index comes from the last raw: no raw is drawn that the kernel
        # would not draw (an unused high half is dropped, as the kernel drops it).
        raw = bit_generator.random_raw((need + 1) // 2)
        candidates = np.empty(2 * len(raw), np.uint64)
        candidates[0::2], candidates[1::2] = raw & low, raw >> np.uint64(32)
        product = candidates * np.uint64(n)
        index = (product >> np.uint64(32))[(product & low) >= reject][:need]
        kept.append(index.astype(np.int64))
        need -= len(index)
    return np.concatenate(kept)


def replicate_counts(bit_generator: np.random.BitGenerator, pos_group: Array,
                     pos_weight: Array | None, neg_group: Array,
                     neg_weight: Array | None, n_groups: int, stratified: bool
                     ) -> ReplicateCounts:
    """One replicate: ``(tp, fp, pos_counts, neg_counts)``, as the kernel draws it."""
    n_pos, n_neg = len(pos_group), len(neg_group)
    if stratified:
        i_pos = _draw_indices(bit_generator, n_pos, n_pos)
        i_neg = _draw_indices(bit_generator, n_neg, n_neg)
    else:
        i = _draw_indices(bit_generator, n_pos + n_neg, n_pos + n_neg)
        i_pos, i_neg = i[i < n_pos], i[i >= n_pos] - n_pos
    pos_counts = np.bincount(i_pos, minlength=n_pos).astype(np.int64)
    neg_counts = np.bincount(i_neg, minlength=n_neg).astype(np.int64)
    pw = pos_counts if pos_weight is None else pos_counts * pos_weight
    nw = neg_counts if neg_weight is None else neg_counts * neg_weight
    tp = np.bincount(pos_group, weights=pw, minlength=n_groups).astype(np.float64)
    fp = np.bincount(neg_group, weights=nw, minlength=n_groups).astype(np.float64)
    return ReplicateCounts(tp, fp, pos_counts, neg_counts)


def replicate_sweeps(bit_generators: list[np.random.BitGenerator], pos_group: Array,
                     pos_weight: Array | None, neg_group: Array,
                     neg_weight: Array | None, scores: Array, stratified: bool,
                     levels: Array, exclude_self: bool,
                     done: Callable[[int], None] | None = None) -> Array:
    """One sweep per replicate; row ``k`` is ``[weight_pos, weight_neg, auc, ap]`` then,
    per level, ``[threshold, tp, fp, b]`` (NaN when the level is not reached).
    ``done(1)`` after each replicate (a progress bar's count)."""
    out = np.full((len(bit_generators), REPLICATE_HEAD + REPLICATE_POINT * len(levels)), np.nan)
    for k, bit_generator in enumerate(bit_generators):
        tp, fp, _, _ = replicate_counts(bit_generator, pos_group, pos_weight, neg_group,
                                        neg_weight, len(scores), stratified)
        present = tp + fp > 0
        r = sweep_table(scores[present], tp[present], fp[present], levels, exclude_self)
        out[k, :REPLICATE_HEAD] = [r.weight_pos, r.weight_neg, r.auc, r.average_precision]
        out[k, REPLICATE_HEAD:] = r.crossings[:, 1:].ravel()     # each level's, less its index
        if done is not None:
            done(1)
    return out


def delong_sums(tp: Array, fp: Array) -> DeLongSums:
    """DeLong's AUC and summed squared structural components (see the kernel)."""
    tp = tp.astype(np.float64, copy=False)
    fp = fp.astype(np.float64, copy=False)
    scale = weight_scale(float(tp.sum()), float(fp.sum())) if len(tp) else 1.0
    tp, fp = tp * scale, fp * scale
    wp, wn = tp.sum(), fp.sum()
    with np.errstate(divide="ignore", invalid="ignore"):   # one class: NaN, as the kernel
        v10 = (wn - np.cumsum(fp) + 0.5 * fp) / wn        # of a positive in each group
        v01 = (np.cumsum(tp) - tp + 0.5 * tp) / wp        # of a negative in each group
        auc = clamp_probability(float(np.dot(tp, v10) / wp))
    return DeLongSums(auc, float(np.dot(tp, (v10 - auc) ** 2)) / scale,
                      float(np.dot(fp, (v01 - auc) ** 2)) / scale)


def delong_components(y: Array, scores: list[Array], w: Array | None, pos_value: float,
                      neg_value: float) -> list[DeLongComponents]:
    """Each model's DeLong component of every row (twin of the compiled driver): group
    the rows by score with ``np.unique``, then ``V10`` / ``V01`` per group."""
    weight = np.ones(len(y)) if w is None else w
    out = []
    for s in scores:
        is_pos = checked_classes(y, s, w, pos_value, neg_value)
        groups, inverse = np.unique(s.astype(np.float64), return_inverse=True)  # ascending
        m = len(groups)
        pos = np.bincount(inverse, weights=np.where(is_pos, weight, 0.0), minlength=m)
        neg = np.bincount(inverse, weights=np.where(is_pos, 0.0, weight), minlength=m)
        wp, wn = float(pos.sum()), float(neg.sum())
        with np.errstate(divide="ignore", invalid="ignore"):   # one class: NaN
            v10 = (np.cumsum(neg) - 0.5 * neg) / wn        # negatives below, ties half
            v01 = (wp - np.cumsum(pos) + 0.5 * pos) / wp   # positives above, ties half
            auc = float(np.dot(pos, v10) / np.float64(wp))
        component = np.where(is_pos, v10[inverse], v01[inverse])
        component[weight == 0] = np.nan         # absent rows
        out.append(DeLongComponents(component, auc, wp, wn))
    return out


def paired_moments(y: Array, pos_value: float, w: Array | None, weight_total: float,
                   a: Array, b: Array) -> PairedMoments:
    """Per class, weighted mean of ``a - b`` and squared deviations (twin of the kernel;
    ``weight_total`` only scales inside the kernel)."""
    weight = np.ones(len(y)) if w is None else w
    is_pos = y == pos_value
    out = []
    for cls in (is_pos, ~is_pos):
        keep = cls & (weight > 0)
        d, wt = a[keep] - b[keep], weight[keep]
        total = wt.sum()
        mean = float(np.dot(wt, d) / total) if total > 0 else float("nan")
        out += [mean, float(np.dot(wt, (d - mean) ** 2))]
    return PairedMoments(*out)


def sweep_range(scores: Array, tp: Array, fp: Array, levels: Array,
                exclude_self: bool, weight_pos: float, weight_neg: float, tp_above: float,
                fp_above: float, b_above: float) -> RangeSweep:
    """One score range of a larger table, swept from the state of the ranges above
    (twin of the kernel; AUC and AP are this range's additive shares, ``b_above`` and
    the final value returned are G of ``_columns``)."""
    return RangeSweep(*_sweep(scores, tp.astype(np.float64, copy=False),
                              fp.astype(np.float64, copy=False), levels, exclude_self,
                              weight_pos, weight_neg, tp_above, fp_above, b_above))


def summarize_segments(y: Array, s: Array, w: Array | None, codes: Array, n_segments: int,
                       pos_value: float, neg_value: float, levels: Array,
                       exclude_self: bool) -> SegmentSweeps:
    """One sweep per segment: ``sweep_table(*build_table(...))`` of each segment's rows."""
    checked_classes(y, s, w, pos_value, neg_value)
    if len(codes) and (codes.min() < 0 or codes.max() >= n_segments):
        raise ValueError(f"segment codes must lie in [0, {n_segments})")
    out = np.empty((n_segments, 8))
    crossings = np.empty((n_segments, len(levels), CROSSING_WIDTH))
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(n_segments + 1))
    for g in range(n_segments):
        rows = order[bounds[g]:bounds[g + 1]]
        r = sweep_table(*build_table(y[rows], s[rows], None if w is None else w[rows],
                                     pos_value, neg_value), levels, exclude_self)
        out[g] = [len(rows), r.n_groups, r.n_undefined, r.weight_pos, r.weight_neg, r.auc,
                  r.average_precision, r.b_last]
        crossings[g] = r.crossings
    return SegmentSweeps.from_columns(out, crossings)


def summarize_models(y: Array, scores: list[Array], w: Array | None, codes: Array,
                     n_segments: int, pos_value: float, neg_value: float, levels: Array,
                     exclude_self: bool) -> list[SegmentSweeps]:
    """``summarize_segments`` of each model's scores, one after the other."""
    return [summarize_segments(y, s, w, codes, n_segments, pos_value, neg_value, levels,
                               exclude_self) for s in scores]


def segment_replicate_sweeps(entropy: int, spawn_key: tuple[int, ...], segments: Array,
                             keys: Array, n_boot: int, pos_start: Array, pos_group: Array,
                             pos_weight: Array | None, neg_start: Array, neg_group: Array,
                             neg_weight: Array | None, group_start: Array, scores: Array,
                             stratified: bool, levels: Array, exclude_self: bool) -> Array:
    """``replicate_sweeps`` of each listed segment's slots and groups alone, replicate
    ``k`` of ``segments[i]`` drawn by ``PCG64(SeedSequence(entropy, spawn_key=spawn_key
    + (keys[i], k)))``; rows segment-major (the kernel seeds the same streams itself)."""
    out = np.empty((len(segments) * n_boot, REPLICATE_HEAD + REPLICATE_POINT * len(levels)))
    for i, (s, key) in enumerate(zip(segments.tolist(), keys.tolist())):
        generators: list[np.random.BitGenerator] = [np.random.PCG64(np.random.SeedSequence(
            entropy, spawn_key=tuple(spawn_key) + (key, k))) for k in range(n_boot)]
        p, n, g = (slice(start[s], start[s + 1]) for start in (pos_start, neg_start,
                                                                 group_start))
        out[i * n_boot:(i + 1) * n_boot] = replicate_sweeps(
            generators, pos_group[p], None if pos_weight is None else pos_weight[p],
            neg_group[n], None if neg_weight is None else neg_weight[n], scores[g],
            stratified, levels, exclude_self)
    return out


def segment_order(codes: Array, s: Array, n_segments: int) -> tuple[Array, Array]:
    """Rows by segment in row order, and by segment then score descending (ties in row
    order), as int64 row indices."""
    if len(codes) != len(s):
        raise ValueError("codes and s differ in length")
    if len(codes) and (codes.min() < 0 or codes.max() >= n_segments):
        raise ValueError(f"segment codes must lie in [0, {n_segments})")
    # (+ 0.0: -0.0 and 0.0 are one score, tied by row as the kernel ties them)
    return (np.argsort(codes, kind="stable").astype(np.int64),
            np.lexsort((-(s.astype(np.float64) + 0.0), codes)).astype(np.int64))


# --- several classes (twin of src/_multiclass.pyx) ----------------------------------------

# Rows per block of the transposing copy: a block of the (n, k) input and its
# transpose both stay in cache (column by column copies read the whole matrix k times).
_BLOCK_ROWS = 4096


def transpose_sums(p: Array) -> tuple[Array, Array]:
    """The columns of ``p`` (2-d float64, C order) as the rows of a new array, and the
    sum of each row of ``p`` (twin of the kernel, which sums each row left to right)."""
    n, k = p.shape
    columns = np.empty((k, n), dtype=np.float64)
    sums = np.empty(n, dtype=np.float64)
    for i in range(0, n, _BLOCK_ROWS):
        block = p[i:i + _BLOCK_ROWS]
        columns[:, i:i + _BLOCK_ROWS] = block.T
        np.einsum("ij->i", block, out=sums[i:i + _BLOCK_ROWS], dtype=np.float64,
                  casting="safe")
    return columns, sums


def packed_keys(codes: Array, col: Array, bits: int) -> tuple[Array, bool]:
    """Keys ``(order bits of the score) << bits | class`` (``codes`` int64 in
    ``0 .. 2**bits - 1``, ``col`` float64 without NaN) and whether they are exact
    (``key_range``)."""
    if not 1 <= bits <= 16:
        raise ValueError(f"bits must be in 1..16, got {bits}")
    if len(codes) != len(col):
        raise ValueError("codes and col differ in length")
    low = np.uint64((1 << bits) - 1)
    outside = np.flatnonzero(codes.view(np.uint64) > low)
    if len(outside):
        raise ValueError(f"codes out of range at row {outside[0]}")
    if len(col) == 0:
        return np.empty(0, dtype=np.uint64), True
    lo, exact, signed = key_range(col, bits)
    if signed:
        u = ordered_bits(col)
    else:
        u = np.bitwise_and(col.view(np.uint64), ~np.uint64(1 << 63))    # (-0.0 as 0.0)
        np.maximum(u, np.uint64(lo), out=u)
    if exact:
        u -= np.uint64(lo)
        u <<= np.uint64(bits)
    else:
        u &= ~low
    u |= codes.view(np.uint64)
    return u, exact


def sorted_pair_counts(keys: Array, bits: int, positive: int) -> tuple[Array, int]:
    """Twice the pair counts of class ``positive`` against each class (int64, length
    ``2**bits``) from packed keys ``(order bits) << bits | class`` sorted ascending, and
    the number of distinct order bits (twin of the kernel): a row of class j adds twice
    the positive rows strictly above its score plus those at it."""
    if not 1 <= bits <= 16:
        raise ValueError(f"bits must be in 1..16, got {bits}")
    labels = (keys & np.uint64((1 << bits) - 1)).astype(np.intp)
    scores = keys >> np.uint64(bits)
    group = np.zeros(len(keys), dtype=np.intp)
    np.cumsum(scores[1:] != scores[:-1], out=group[1:])
    n_groups = int(group[-1]) + 1 if len(keys) else 0
    at = np.bincount(group[labels == positive], minlength=n_groups)
    above = at.sum() - np.cumsum(at)
    out = np.zeros(1 << bits, dtype=np.int64)
    np.add.at(out, labels, (2 * above + at)[group])       # (integers: exact)
    return out, n_groups


def ordered_pair_counts(order: Array, col: Array, codes: Array, w: Array | None,
                        positive: int, n_classes: int) -> Array:
    """Pair counts of class ``positive`` against each class (float64), rows visited in
    ``order`` (ascending ``col``), each weighing ``w`` (1 when None): a row adds its
    weight times the positive weight strictly above its score plus half that at it
    (twin of the kernel)."""
    s, labels = col[order], codes[order]
    if len(labels) and (labels.min() < 0 or labels.max() >= n_classes):
        raise ValueError("order or codes out of range")
    weights = np.ones(len(s)) if w is None else w[order]
    group = np.zeros(len(s), dtype=np.intp)
    np.cumsum(s[1:] != s[:-1], out=group[1:])
    at = np.bincount(group, weights=np.where(labels == positive, weights, 0.0))
    above = at.sum() - np.cumsum(at)
    per_row = (above + 0.5 * at)[group] * weights
    # (astype: np.bincount of no rows is int64)
    return np.bincount(labels, weights=per_row, minlength=n_classes).astype(np.float64)


def _signed_groups(s: Array, p: Array, n: Array, c: Array) -> tuple[Array, ...]:
    """Equal scores of an ascending signed run summed, in run order (as the kernel)."""
    if len(s) == 0:
        return s.astype(np.float64), p.astype(np.float64), n.astype(np.float64), \
            c.astype(np.int64)
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    return (s[starts].astype(np.float64), np.add.reduceat(p, starts).astype(np.float64),
            np.add.reduceat(n, starts).astype(np.float64),
            np.add.reduceat(c, starts).astype(np.int64))


def _check_run(names: str, *arrays: Array) -> None:
    if len({len(a) for a in arrays}) > 1:
        raise ValueError(f"{names} differ in length")


# The kernel's block of base scores per entry of ``window_top`` (the twin only checks it).
_TOP_STRIDE = 64


def window_top(base_s: Array) -> Array:
    """The first score of each block of 64 in a base's scores: the index the kernel's
    ``window_step`` walks (twin of the kernel)."""
    return np.asarray(base_s)[::_TOP_STRIDE].copy()


def window_step(base_s: Array, base_top: Array, base_pc: Array, base_nc: Array, d_s: Array,
                d_p: Array, d_n: Array, d_c: Array, x_s: Array, x_code: Array,
                x_w: Array | None, total_pos: float, out_s: Array, out_p: Array,
                out_n: Array, out_c: Array) -> WindowStep:
    """Doubled change of U when the rows ``x`` (ascending scores; a code per row, bit 0
    positive, bit 1 leaving; weights, or None for 1) come and go in a window held as a
    base (ascending distinct scores, its ``window_top``, cumulative weights of length
    m + 1) plus a delta run ``d``; the changes of the class totals; and the delta run with ``x`` merged in,
    entries whose row count and weights all fall to 0 dropped, written to ``out_*``
    (twin of the kernel)."""
    if len(base_pc) != len(base_s) + 1 or len(base_nc) != len(base_s) + 1:
        raise ValueError("base_pc and base_nc must hold m + 1 cumulative sums")
    if len(base_top) != -(-len(base_s) // _TOP_STRIDE):
        raise ValueError("base_top must be window_top(base_s)")
    _check_run("d_s, d_p, d_n and d_c", d_s, d_p, d_n, d_c)
    if len(x_code) != len(x_s) or (x_w is not None and len(x_w) != len(x_s)):
        raise ValueError("x_s, x_code and x_w differ in length")
    leaving = (x_code & 2) != 0
    weight = (np.ones(len(x_s)) if x_w is None else x_w) * np.where(leaving, -1.0, 1.0)
    positive = (x_code & 1) != 0
    v, gp, gn, gc = _signed_groups(x_s, np.where(positive, weight, 0.0),
                                   np.where(positive, 0.0, weight),
                                   np.where(leaving, -1, 1).astype(np.int64))
    # the delta's weight below and at each group's score
    d_pc = np.r_[0.0, np.cumsum(d_p)]
    d_nc = np.r_[0.0, np.cumsum(d_n)]
    lo, hi = np.searchsorted(d_s, v, "left"), np.searchsorted(d_s, v, "right")
    dp, dn = d_pc[hi] - d_pc[lo], d_nc[hi] - d_nc[lo]
    b_lo, b_hi = np.searchsorted(base_s, v, "left"), np.searchsorted(base_s, v, "right")
    n_below = base_nc[b_lo] + d_nc[lo]
    n_eq = base_nc[b_hi] - base_nc[b_lo] + dn
    p_eq = base_pc[b_hi] - base_pc[b_lo] + dp
    p_le = base_pc[b_hi] + d_pc[lo] + dp
    x_below = np.r_[0.0, np.cumsum(gn)[:-1]]
    du2 = float(np.sum(gp * (2.0 * n_below + n_eq) + gn * (2.0 * (total_pos - p_le) + p_eq)
                       + gp * (2.0 * x_below + gn)))
    order = np.argsort(np.r_[d_s, v], kind="stable")
    s, p, n, c = _signed_groups(np.r_[d_s, v][order], np.r_[d_p, gp][order],
                                np.r_[d_n, gn][order], np.r_[d_c, gc][order])
    keep = (c != 0) | (p != 0) | (n != 0)
    return WindowStep(du2, float(gp.sum()), float(gn.sum()),
                      *_written((s[keep], p[keep], n[keep], c[keep]),
                                (out_s, out_p, out_n, out_c)))


def _written(values: tuple[Array, ...], outs: tuple[Array, ...]) -> list[Array]:
    """``values`` copied to the front of ``outs``, as views of them (the kernels write
    into buffers the caller reuses)."""
    if any(len(o) < len(v) for v, o in zip(values, outs)):
        raise ValueError("the output arrays are too short")
    for v, o in zip(values, outs):
        o[:len(v)] = v
    return [o[:len(v)] for v, o in zip(values, outs)]


def window_merge(a_s: Array, a_p: Array, a_n: Array, a_c: Array, b_s: Array, b_p: Array,
                 b_n: Array, b_c: Array, s: Array, p: Array, n: Array, c: Array, pc: Array,
                 nc: Array) -> WindowBase:
    """Merge two signed runs (ascending, repeats allowed) into one of distinct scores,
    entries of row count 0 dropped, with cumulative weights (length m + 1) and the
    doubled U of the result, written to the last six arrays (twin of the kernel)."""
    outs = (s, p, n, c, pc, nc)
    _check_run("a_s, a_p, a_n and a_c", a_s, a_p, a_n, a_c)
    _check_run("b_s, b_p, b_n and b_c", b_s, b_p, b_n, b_c)
    order = np.argsort(np.r_[a_s, b_s], kind="stable")
    gs, gp, gn, gc = _signed_groups(np.r_[a_s, b_s][order], np.r_[a_p, b_p][order],
                                    np.r_[a_n, b_n][order], np.r_[a_c, b_c][order])
    keep = gc != 0
    gs, gp, gn, gc = gs[keep], gp[keep], gn[keep], gc[keep]
    gpc, gnc = np.r_[0.0, np.cumsum(gp)], np.r_[0.0, np.cumsum(gn)]
    u2 = float(np.sum(gp * (2.0 * gnc[:-1] + gn)))
    return WindowBase(u2, *_written((gs, gp, gn, gc, gpc, gnc), outs))
