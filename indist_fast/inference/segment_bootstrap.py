"""Bootstrap intervals of every segment at once (``evaluate_many(..., n_boot=)``).

Each segment gets the intervals ``bootstrap`` gives on its rows alone, with the seed
``SeedSequence(entropy, spawn_key=seed.spawn_key + (g,))`` for the segment in table
position ``g``: bit for bit, since the slots, the groups and the random streams are
the same. What changes is the cost. One sort of (segment, score) per model (the
engine's ``segment_order``: a counting pass by segment, then each segment's pairs
sorted in cache, 4-6x faster than ``np.lexsort``) numbers every segment's distinct
scores; the kernel then draws and sweeps all replicates of the small segments, seeding
each replicate's PCG64 itself (building 10**6 NumPy generators in Python would take
longer than the resampling). A large segment is resampled as ``bootstrap`` resamples
one data set (``sweep_replicates``, faster there, and the bar moves within it).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.engine import engine
from ..results.report_table import BootstrapSettings
from .._core.progress import progress_bar
from .._core.validation import Rows, check_flag, check_seed
from .bootstrap import (DEFAULT_METRICS, PROGRESS_STEPS, check_resampling,
                        derived_metrics, _entropy, percentile_bounds,
                        sweep_replicates)

__all__ = ["INTERVAL_METRICS", "SegmentSlots", "bootstrap_settings",
           "segment_slots", "segment_intervals", "interval_columns"]

#: The metrics whose intervals a ReportTable holds, as ``<metric>_low``/``_high``.
INTERVAL_METRICS = DEFAULT_METRICS

# Replicate rows swept per engine call: the sweep output of a call (8 float64 per
# replicate) stays near 32 MB however many segments there are.
_CHUNK_REPLICATES = 1 << 19
# Segments of at least this many slots are resampled by ``sweep_replicates`` (NumPy
# generators, the replicate kernel on two threads), the others by the segment kernel.
# Measured on one segment of distinct scores (the same results, bit for bit): at 1e6
# slots the replicate kernel was 3.7x faster (its draws stay in cache), at 1e5 1.3x; at
# 3e4 the segment kernel was 1.4x faster (no generator built per replicate).
_LARGE_SEGMENT_SLOTS = 1 << 16
# Least work per call of the segment kernel, in slots plus groups times replicates:
# about 10 ms, enough for two threads and to make a call's fixed costs negligible.
_MIN_CALL_WORK = 1 << 21


def bootstrap_settings(n_boot: Any, seed: Any, confidence: Any,
                       progress: Any = None) -> BootstrapSettings | None:
    """``evaluate_many``'s bootstrap arguments checked as ``bootstrap`` checks them;
    None without ``n_boot`` (``seed`` and ``progress`` are then checked, and unused)."""
    checked = check_resampling(n_boot, seed, confidence, progress)
    # a sequence of ints is a valid seed elsewhere, but a table reports one int
    seq = checked.seed if checked.seed is not None else check_seed(seed)
    entropy = _entropy(seq)
    if checked.n_boot is None:
        return None
    return BootstrapSettings(checked.n_boot, checked.confidence, seq, entropy,
                             checked.progress)


class SegmentSlots(NamedTuple):
    """The resampling slots of every segment (``Resampler.from_rows`` of each
    segment's rows, laid end to end).

    Segment ``s`` owns positive slots ``pos_start[s]:pos_start[s + 1]`` and score
    groups ``group_start[s]:group_start[s + 1]`` of ``scores`` (its distinct scores
    with positive weight, descending); a slot's group counts from its segment's first.
    """

    pos_start: np.ndarray
    pos_group: np.ndarray
    pos_weight: np.ndarray | None
    neg_start: np.ndarray
    neg_group: np.ndarray
    neg_weight: np.ndarray | None
    group_start: np.ndarray
    scores: np.ndarray
    weight_pos: np.ndarray
    weight_neg: np.ndarray

    def resamplable(self) -> np.ndarray:
        """Segments ``bootstrap`` accepts: both classes, finite total weight."""
        ok: np.ndarray = ((self.weight_pos > 0) & (self.weight_neg > 0)
                          & np.isfinite(self.weight_pos + self.weight_neg))
        return ok


def _starts(counts: np.ndarray) -> np.ndarray:
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)


def segment_slots(rows: Rows, codes: np.ndarray, n_segments: int) -> SegmentSlots:
    """Every segment's slots and score groups from one sort of (segment, score).

    Parameters
    ----------
    rows : Rows
        Validated rows (``prepare_rows``).
    codes : ndarray of int64
        Segment of every row, in ``[0, n_segments)``.
    n_segments : int
        Number of segments.

    Returns
    -------
    SegmentSlots
        As ``Resampler.from_rows`` lays out each segment's slots: without weights, one
        slot per row in group order; with weights, one per row of positive weight in
        row order.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.inference.segment_bootstrap import segment_slots
    >>> rows = prepare_rows([0, 1, 1, 0, 1], [0.1, 0.8, 0.6, 0.3, 0.6])
    >>> slots = segment_slots(rows, np.array([0, 0, 1, 1, 1]), 2)
    >>> slots.scores.tolist(), slots.group_start.tolist()
    ([0.8, 0.1, 0.6, 0.3], [0, 2, 4])
    >>> slots.pos_group.tolist(), slots.pos_start.tolist()
    ([0, 0, 0], [0, 1, 3])
    """
    is_pos = rows.y == rows.pos_value
    s = rows.s.astype(np.float64)
    w = rows.w
    if w is not None:
        # Zero-weight rows are neither slots nor groups (as in ScoreTable.from_rows).
        keep = w > 0
        s, codes, is_pos, w = s[keep], codes[keep], is_pos[keep], w[keep]
    by_segment, order = engine().segment_order(codes, s, n_segments)
    sorted_codes, sorted_s = codes[order], s[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (sorted_codes[1:] != sorted_codes[:-1]) | (sorted_s[1:] != sorted_s[:-1])
    group_of_sorted = np.cumsum(first) - 1
    group_code = sorted_codes[first]
    group_start = np.searchsorted(group_code, np.arange(n_segments + 1)).astype(np.int64)
    local = np.arange(len(group_code), dtype=np.int64) - group_start[group_code]
    pos_sorted = is_pos[order]
    if w is None:
        n_groups = len(group_code)
        tp = np.bincount(group_of_sorted[pos_sorted], minlength=n_groups)
        fp = np.bincount(group_of_sorted[~pos_sorted], minlength=n_groups)
        wp = np.bincount(codes[is_pos], minlength=n_segments)
        wn = np.bincount(codes[~is_pos], minlength=n_segments)
        return SegmentSlots(_starts(wp), np.repeat(local, tp), None, _starts(wn),
                            np.repeat(local, fp), None, group_start, sorted_s[first],
                            wp.astype(np.float64), wn.astype(np.float64))
    group = np.empty(len(order), dtype=np.int64)
    group[order] = local[group_of_sorted]
    pos_rows, neg_rows = by_segment[is_pos[by_segment]], by_segment[~is_pos[by_segment]]
    return SegmentSlots(
        _starts(np.bincount(codes[pos_rows], minlength=n_segments)), group[pos_rows],
        w[pos_rows], _starts(np.bincount(codes[neg_rows], minlength=n_segments)),
        group[neg_rows], w[neg_rows], group_start, sorted_s[first],
        np.bincount(codes[pos_rows], weights=w[pos_rows], minlength=n_segments),
        np.bincount(codes[neg_rows], weights=w[neg_rows], minlength=n_segments))


def segment_intervals(slots: SegmentSlots, settings: BootstrapSettings, *, first_key: int = 0,
                      exclude_self: bool = True, stratified: bool = True
                      ) -> dict[str, np.ndarray]:
    """Percentile intervals of ``INTERVAL_METRICS`` per segment.

    Parameters
    ----------
    slots : SegmentSlots
        The segments' slots (``segment_slots``).
    settings : BootstrapSettings
        ``n_boot``, ``confidence``, the seed, and ``progress`` (a bar over the
        replicates, as ``indist_fast._core.progress`` decides).
    first_key : int, default=0
        Segment ``s`` resamples with the seed ``SeedSequence(entropy,
        spawn_key=seed.spawn_key + (first_key + s,))``.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    stratified : bool, default=True
        Resample positives and negatives separately.

    Returns
    -------
    dict of str to ndarray of float64
        ``<metric>_low`` and ``<metric>_high`` per segment; NaN for a segment of one
        class (``bootstrap`` refuses it) and where no replicate defines the metric.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.inference.segment_bootstrap import (bootstrap_settings,
    ...     segment_intervals, segment_slots)
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> slots = segment_slots(prepare_rows(y, s), np.zeros(6, np.int64), 1)
    >>> cols = segment_intervals(slots, bootstrap_settings(50, 7, 0.9))
    >>> seed = np.random.SeedSequence(7, spawn_key=(0,))
    >>> bool(cols["auc_low"][0] == indist_fast.bootstrap(y, s, n_boot=50, seed=seed,
    ...                                                  confidence=0.9)["auc"].low)
    True
    """
    stratified = check_flag(stratified, "stratified")
    n_segments = len(slots.group_start) - 1
    columns = {f"{m}_{side}": np.full(n_segments, np.nan)
               for m in INTERVAL_METRICS for side in ("low", "high")}
    todo = np.flatnonzero(slots.resamplable()).astype(np.int64)
    n_boot = settings.n_boot
    spawn_key = tuple(settings.seed.spawn_key)
    levels = np.array([0.5])

    def store(segments: np.ndarray, sweeps: np.ndarray) -> None:
        metrics = derived_metrics(sweeps)
        for m in INTERVAL_METRICS:
            low, high = percentile_bounds(metrics[m].reshape(len(segments), n_boot),
                                          settings.confidence)
            columns[f"{m}_low"][segments] = low
            columns[f"{m}_high"][segments] = high

    n_slots = np.diff(slots.pos_start) + np.diff(slots.neg_start)
    large = n_slots[todo] >= _LARGE_SEGMENT_SLOTS
    small = todo[~large]
    with progress_bar(settings.progress, len(todo) * n_boot, "bootstrap",
                      "replicate") as bar:
        for s in todo[large].tolist():
            p, q = slots.pos_start[s], slots.pos_start[s + 1]
            u, v = slots.neg_start[s], slots.neg_start[s + 1]
            store(np.array([s]), sweep_replicates(
                np.random.SeedSequence(settings.entropy, spawn_key=spawn_key + (first_key + s,)),
                n_boot, slots.pos_group[p:q], _part(slots.pos_weight, p, q),
                slots.neg_group[u:v], _part(slots.neg_weight, u, v),
                slots.scores[slots.group_start[s]:slots.group_start[s + 1]], stratified,
                levels, exclude_self, bar))
        work = (n_slots[small] + np.diff(slots.group_start)[small]) * n_boot
        for a, b in _segment_calls(work, max(1, _CHUNK_REPLICATES // n_boot)):
            segments = small[a:b]
            store(segments, engine().segment_replicate_sweeps(
                settings.entropy, spawn_key, segments, segments + first_key, n_boot,
                slots.pos_start, slots.pos_group, slots.pos_weight, slots.neg_start,
                slots.neg_group, slots.neg_weight, slots.group_start, slots.scores,
                stratified, levels, exclude_self))
            bar.update(len(segments) * n_boot)
    return columns


def _segment_calls(work: np.ndarray, most: int) -> list[tuple[int, int]]:
    """Consecutive ranges of segments, one engine call each: about ``PROGRESS_STEPS``
    of equal work (so that a bar moves evenly), each of ``_MIN_CALL_WORK`` at least
    where there is that much (two threads, few fixed costs) and of ``most`` segments at
    most (bounded output)."""
    if len(work) == 0:
        return []
    ends = np.cumsum(work, dtype=np.float64)
    step = max(float(ends[-1]) / PROGRESS_STEPS, float(_MIN_CALL_WORK))
    out, a = [], 0
    while a < len(work):
        done = float(ends[a - 1]) if a else 0.0
        b = int(np.searchsorted(ends, done + step, side="left")) + 1
        b = min(len(work), max(a + 1, min(b, a + most)))
        out.append((a, b))
        a = b
    return out


def _part(weight: np.ndarray | None, start: int, stop: int) -> np.ndarray | None:
    return None if weight is None else weight[start:stop]


def interval_columns() -> tuple[str, ...]:
    """Names of the interval columns, in table order."""
    return tuple(f"{m}_{side}" for m in INTERVAL_METRICS for side in ("low", "high"))
