"""Drive the compiled kernels: count, scatter, sort the pieces on two threads, sweep.

The compiled twin of ``indist_fast._core.reference``: the same functions, signatures
and (named) results, the ``Engine`` protocol of ``engine.py``. The sorting is
NumPy's own (SIMD, in place, GIL released), so the kernels only do the O(n) passes;
each pass over the rows runs on two threads (two row blocks) once the input is large
enough to repay a thread hand-off. Unweighted rows from ``RADIX_MIN_ROWS`` on are
sorted in cache-sized buckets of their scores' leading bits (``_radix_summary``).
"""

from __future__ import annotations

import itertools
import math
import mmap
from typing import Any, Callable, NamedTuple, TypeVar

import numpy as np

from . import (_keys, _multiclass, _radix, _radix_weighted, _resample, _runs, _segments,
               _sorted, _tables, _window, fast_radix, threads)
from .fast_radix import summarize_parts
from .key_range import key_range
from .records import (Array, Checkpoint, Costs, DeLongComponents, DeLongSums, PairedMoments,
                      PieceSweep, RangeSweep, Release, ReplicateCounts, RowCounts,
                      SegmentSweeps, SortedClasses, SweepResult, Table, WindowBase,
                      WindowStep, CROSSING_WIDTH,
                      REPLICATE_HEAD, REPLICATE_POINT)
from .page_release import OwnedRows
from .scratch import Loan
from .validation import raise_row_errors

# The compiled modules by topic; each has a flag of its own for the AVX-512 blocks
# (``simd_blocks``), which the tests turn off and on in all of them at once.
KERNELS = (_sorted, _radix, _radix_weighted, _keys, _tables, _runs, _segments, _resample)

__all__ = ["build_table", "summarize", "summarize_parts", "summarize_plain", "auc_plain",
           "sweep_table", "merge_tables",
           "replicate_counts",
           "replicate_sweeps", "delong_sums", "sweep_range", "sorted_classes",
           "summarize_runs", "summarize_segments", "summarize_models", "segment_order",
           "segment_replicate_sweeps", "delong_components", "paired_moments",
           "transpose_sums", "packed_keys", "sorted_pair_counts",
           "ordered_pair_counts", "window_step", "window_merge",
           "window_top"]

# Up to this many unweighted rows, ``summarize`` runs as one kernel call on one thread:
# the general path's fixed costs (pivot, blocks, cursors, thread hand-offs) outweigh its
# second core below about 2e5 rows (measured: 2.5x np.sort at 1e5 rows in one call, 3.1x
# on two threads; 2.0x and 1.8x at 3e5).
SMALL_ROWS = 150_000
# From this many unweighted rows on, ``summarize`` sorts by radix buckets
# (``_radix_summary``), so past ``SMALL_ROWS`` it always does: since the buckets are swept
# eight rows at a time they beat the class pieces' sorts and merge from there (one paired
# run, float64: 1.6e5 rows 2.39x np.sort against 2.57x, 2.5e5 1.87x against 2.18x;
# float32 1.6e5 3.54x against 3.45x, 2.5e5 2.78x against 3.06x).
RADIX_MIN_ROWS = 150_000
# The same for weighted rows, whose keys still sort faster as pieces below it (1.6e5
# rows: 4.66x np.sort by buckets against 4.26x; 2.5e5: 4.11x against 3.87x).
WEIGHTED_RADIX_MIN_ROWS = 300_000
_PIVOT_SAMPLE = 1023
# Batches of replicates the two threads of ``replicate_sweeps`` take in turn.
_REPLICATE_BATCHES = 16

_T = TypeVar("_T")
Pieces = tuple[Array, Array, Array, Array]


def _pivot(s: np.ndarray) -> float:
    """A sample median: splits rows into two halves of similar size for two threads."""
    if len(s) < threads.PARALLEL_MIN_ROWS:
        return -np.inf          # everything goes to the "hi" piece, one thread
    # (max: tests lower threads.PARALLEL_MIN_ROWS below the sample size to reach this path)
    sample = s[:: max(1, len(s) // _PIVOT_SAMPLE)].astype(np.float64)
    sample = sample[~np.isnan(sample)]
    if len(sample) == 0:
        return -np.inf
    # A sample element, not np.median: the mean of the middle two is NaN (and warns)
    # when they are -inf and inf.
    middle = len(sample) // 2
    return float(np.partition(sample, middle)[middle])


def _sort_in_place(lo: list[np.ndarray], hi: list[np.ndarray]) -> None:
    """Sort every piece in place, the ``lo`` pieces on the helper thread."""
    def sort_all(pieces: list[np.ndarray]) -> None:
        for piece in pieces:
            if len(piece) > 1:
                piece.sort()
    if sum(len(p) for p in lo) == 0:
        sort_all(hi)
    else:
        threads._on_two_threads([lambda: sort_all(hi), lambda: sort_all(lo)])


def _count(y: Array, s: Array, w: Array | None, pos_value: float, neg_value: float,
           pivot: float, blocks: list[tuple[int, int]], check: bool = True
           ) -> list[RowCounts]:
    """Per-block counts; raises on the first bad row of the blocks (unless ``check`` is
    False: the caller raises once all blocks are counted)."""
    def job(b: tuple[int, int]) -> Callable[[], RowCounts]:
        return lambda: _sorted.count_rows(y, s, w, pos_value, neg_value, pivot, *b)
    counts = threads._on_two_threads([job(b) for b in blocks])
    if check:
        _raise_first_bad_row(counts, y, s, w, pos_value)
    return counts


def _raise_first_bad_row(counts: list[RowCounts], y: Array, s: Array, w: Array | None,
                         pos_value: float) -> None:
    """The error of the whole input's first bad row of each kind, as the reference
    raises it (a NaN anywhere outranks a third label in an earlier block)."""
    def first(rows: list[int]) -> int:
        return min((r for r in rows if r >= 0), default=-1)
    raise_row_errors(first([c.bad_label for c in counts]), first([c.nan_row for c in counts]),
                     first([c.bad_weight for c in counts]), y, s, w, pos_value=pos_value)


def _cursors(sizes: list[list[int]]) -> tuple[list[list[int]], list[int]]:
    """Start of each block's share in each part, parts laid end to end in order.

    ``sizes[b][p]`` rows of block ``b`` go to part ``p``; the result gives, per
    block, where its rows of each part start, and the total size of each part.
    """
    totals = [sum(block[p] for block in sizes) for p in range(len(sizes[0]))]
    part_start = np.concatenate(([0], np.cumsum(totals)[:-1])).tolist()
    starts, running = [], list(part_start)
    for block in sizes:
        starts.append(list(running))
        running = [r + k for r, k in zip(running, block)]
    return starts, totals


def _sorted_pieces(y: Array, s: Array, pos_value: float, neg_value: float,
                   release: Release = None) -> Pieces:
    """Per class, the scores below and above the pivot, each sorted (hi, then lo)."""
    pos, neg, n_pos_lo, n_neg_lo = _split_classes(y, s, pos_value, neg_value, release)
    return pos[n_pos_lo:], neg[n_neg_lo:], pos[:n_pos_lo], neg[:n_neg_lo]


def sorted_classes(y: Array, s: Array, pos_value: float, neg_value: float,
                   release: Release = None) -> SortedClasses:
    """Each class's scores, sorted ascending (in the scores' own dtype)."""
    pos, neg, _, _ = _split_classes(y, s, pos_value, neg_value, release)
    return SortedClasses(pos, neg)


def _split_classes(y: Array, s: Array, pos_value: float, neg_value: float,
                   release: Release = None) -> tuple[Array, Array, int, int]:
    """Each class's scores, sorted ascending, and where its below-pivot part ends.

    The two parts of a class are sorted on different threads, but everything below the
    pivot lies below everything above it, so each class buffer is sorted as a whole.
    """
    pivot, groups = _pivot(s), threads._passes(len(s), release)
    counts = []
    for group in groups:
        counts += _count(y, s, None, pos_value, neg_value, pivot, group, check=False)
        if release is not None:
            release(group[0][0], group[-1][1])
    _raise_first_bad_row(counts, y, s, None, pos_value)
    pos_starts, (n_pos_lo, n_pos_hi) = _cursors([[c.pos_lo, c.pos_hi] for c in counts])
    neg_starts, (n_neg_lo, n_neg_hi) = _cursors([[c.neg_lo, c.neg_hi] for c in counts])
    pos = np.empty(n_pos_lo + n_pos_hi, dtype=s.dtype)
    neg = np.empty(n_neg_lo + n_neg_hi, dtype=s.dtype)
    def scatter(b: tuple[int, int], ps: list[int], ns: list[int]) -> Callable[[], None]:
        return lambda: _sorted.scatter_scores(y, s, pos_value, pivot, b[0], b[1], pos, neg,
                                               ps[0], ps[1], ns[0], ns[1])
    i = 0
    for group in groups:
        threads._on_two_threads([scatter(b, pos_starts[i + j], neg_starts[i + j])
                         for j, b in enumerate(group)])
        i += len(group)
        if release is not None:
            release(group[0][0], group[-1][1])
    _sort_in_place([neg[:n_neg_lo], pos[:n_pos_lo]], [neg[n_neg_lo:], pos[n_pos_lo:]])
    return pos, neg, n_pos_lo, n_neg_lo


def _two_sum(a: float, b: float) -> tuple[float, float]:
    """``a + b`` and its rounding error (the kernels' ``chain_add``)."""
    s = a + b
    back = s - a
    return s, (a - (s - back)) + (b - back)


def _compensated(parts: list[tuple[float, float]]) -> tuple[float, float]:
    """Compensated sums ``(s, err)`` of row blocks added into one."""
    s, err = 0.0, 0.0
    for part_s, part_err in parts:
        s, e = _two_sum(s, part_s)
        err += e + part_err
    return (s, err) if math.isfinite(s) else (s, 0.0)   # inf: no NaN error term


def _sorted_keys(y: Array, s: Array, w: Array | None, pos_value: float, neg_value: float
                 ) -> tuple[Array, Array, Array, int, float, float, tuple[float, float],
                            float]:
    """Sorted key pieces and rows of the input (weight 1 per row without ``w``), with
    ``W_P``, ``W_N``, the positive weight above the pivot as a compensated pair, and
    ``W_N`` below it."""
    pivot, blocks = _pivot(s), threads._blocks(len(s))
    counts = _count(y, s, w, pos_value, neg_value, pivot, blocks)
    starts, (n_lo, n_hi) = _cursors([[c.pos_lo + c.neg_lo, c.pos_hi + c.neg_hi] for c in counts])
    index_bits = _keys.index_bits_for(len(s))
    keys = np.empty(n_lo + n_hi, dtype=np.uint64)
    rows = np.empty((len(s), 2), dtype=np.float64)
    def scatter(b: tuple[int, int], st: list[int]) -> Callable[[], None]:
        return lambda: _keys.scatter_keys(y, s, w, pos_value, pivot, b[0], b[1],
                                             index_bits, keys, rows, st[0], st[1])
    threads._on_two_threads([scatter(b, st) for b, st in zip(blocks, starts)])
    keys_lo, keys_hi = keys[:n_lo], keys[n_lo:]
    _sort_in_place([keys_lo], [keys_hi])
    if w is None:                           # the counts are the weights
        n_pos_lo = sum(c.pos_lo for c in counts)
        n_pos = n_pos_lo + sum(c.pos_hi for c in counts)
        n_neg_lo = sum(c.neg_lo for c in counts)
        return (keys_hi, keys_lo, rows, index_bits, float(n_pos),
                float(n_neg_lo + sum(c.neg_hi for c in counts)),
                (float(n_pos - n_pos_lo), 0.0), float(n_neg_lo))
    pos_s, pos_err = _compensated([(c.weight_pos, c.weight_pos_err) for c in counts])
    lo_s, lo_err = _compensated([(c.weight_pos_lo, c.weight_pos_lo_err) for c in counts])
    hi_s, hi_err = _two_sum(pos_s, -lo_s)
    weight_neg = float(sum(c.weight_neg for c in counts))
    weight_neg_lo = float(sum(c.weight_neg_lo for c in counts))
    return (keys_hi, keys_lo, rows, index_bits, pos_s + pos_err, weight_neg,
            (hi_s, hi_err + (pos_err - lo_err)), weight_neg_lo)


def build_table(y: Array, s: Array, w: Array | None, pos_value: float,
                neg_value: float) -> Table:
    """Distinct scores (descending) with positive and negative weight at each.

    Weighted rows from ``WEIGHTED_RADIX_MIN_ROWS`` on go through the radix buckets of
    ``summarize`` (``_weighted_buckets``, ``radix_table_weighted``), unweighted ones from
    ``RADIX_MIN_ROWS`` on too (``_radix_table``: each bucket sorted and written out);
    fewer, or rows those decline (a bad row, which the sorted path names), by sorted
    keys or sorted class pieces."""
    if w is not None:
        if len(s) >= WEIGHTED_RADIX_MIN_ROWS:
            with Loan() as loan:
                k = fast_radix._weighted_buckets(y, s, w, pos_value, neg_value, loan)
                if k is not None:
                    return _radix_weighted.radix_table_weighted(k.rows, k.links, k.state, k.block)
        keys_hi, keys_lo, rows, index_bits, *_ = _sorted_keys(y, s, w, pos_value, neg_value)
        return _keys.table_from_keys(keys_hi, keys_lo, rows, index_bits)
    if len(s) >= RADIX_MIN_ROWS:
        radix = fast_radix._radix_table(y, s, pos_value, neg_value)
        if radix is not None:
            return radix
    return _sorted.table_from_sorted(*_sorted_pieces(y, s, pos_value, neg_value))


def summarize(y: Array, s: Array, w: Array | None, pos_value: float, neg_value: float,
              levels: Array, exclude_self: bool, costs: Costs = None,
              release: Release = None) -> SweepResult:
    """Sweep result of raw rows, read while merging: no table is materialised.

    ``release(start, stop)``, when given, is called once the passes are done with rows
    ``start:stop`` (memory-mapped input can drop those pages): per row group without
    weights, for all rows at once after the weighted passes (they copy what they need).
    An ``OwnedRows`` release (arrays handed over) is only called behind the last pass
    over the rows.
    """
    if w is None and costs is None and len(s) <= SMALL_ROWS:
        small = _sorted.summarize_small(y, s, pos_value, neg_value, levels, exclude_self)
        if small is not None:           # (else a bad row or one class: the general path)
            if release is not None:
                release(0, len(s))
            return small
    if w is not None and len(s) >= WEIGHTED_RADIX_MIN_ROWS:
        radix = fast_radix._radix_weighted_summary(y, s, w, pos_value, neg_value, levels,
                                                   exclude_self,
                                        costs)
        if radix is not None:
            if release is not None:
                release(0, len(s))
            return radix
    if w is not None:
        keys_hi, keys_lo, rows, bits, wp, wn, tp_hi, wn_lo = _sorted_keys(
            y, s, w, pos_value, neg_value)
        if release is not None:
            release(0, len(s))
        if costs is None and len(keys_lo) and len(keys_hi) and math.isfinite(wp):
            two_piece = _two_piece_keys(keys_hi, keys_lo, rows, bits, wp, wn, tp_hi, wn_lo,
                                        levels, exclude_self)
            if two_piece is not None:
                return two_piece
        return _summarize_keys(keys_hi, keys_lo, rows, bits, wp, wn, levels, exclude_self,
                               costs)
    if costs is None and len(s) >= RADIX_MIN_ROWS:
        radix = fast_radix._radix_summary(y, s, pos_value, neg_value, levels, exclude_self, release)
        if radix is not None:
            return radix
    if isinstance(release, OwnedRows):  # the pieces' release after each pass would zero
        release = None                  # rows they read again
    pieces = _sorted_pieces(y, s, pos_value, neg_value, release)
    both = len(pieces[0]) + len(pieces[2]) > 0 and len(pieces[1]) + len(pieces[3]) > 0
    if (costs is None and both and len(s) >= threads.PARALLEL_MIN_ROWS
            and not getattr(threads._serial, "on", False)):
        return _two_piece_sorted(pieces, levels, exclude_self)
    return _sorted.summarize_sorted(*pieces, levels, exclude_self, costs)


def summarize_plain(y: Any, s: Any, levels: Array, exclude_self: bool,
                    max_rows: int) -> SweepResult | None:
    """``summarize`` of a plain service call (plain as for ``auc_plain``), or None
    having done nothing else: the caller then validates the rows the long way. The
    kernel checks the arrays' layout and every row in C, so a service call of a
    thousand rows pays no Python-level scan. One thread: for few rows."""
    result: SweepResult | None = _sorted.summarize_plain(y, s, levels, exclude_self,
                                                          max_rows)
    return result


def auc_plain(y: Any, s: Any, max_rows: int) -> float | None:
    """The AUC of a plain service call, or None having done nothing else. Plain: NumPy
    arrays, 1-d, C-contiguous, aligned, native, 1 to ``max_rows`` rows, bool or {0, 1}
    labels of a kernel dtype, float64 or float32 scores; None also for a NaN score,
    another label or one class. The kernel checks all that in C and counts the sorted
    classes instead of sweeping them (``_auc_of_sorted``)."""
    return _sorted.auc_small(y, s, max_rows)


def summarize_runs(runs: list[tuple[Array, bool]], levels: Array, exclude_self: bool,
                   costs: Costs = None, held_bytes: int = 1 << 26) -> SweepResult:
    """Sweep ascending runs of one class each, ``(scores, positive)``, as one array:
    a k-way merge holding about ``held_bytes`` of the runs' pages resident.

    The merge gives back the pages it has read. Only a read-only file mapping gets
    them back from the file; any other run is merged from a copy, since giving back
    pages of ordinary memory zeroes them (the caller's array would be overwritten).
    """
    runs = [(scores if _read_only_mapping(scores) else np.array(scores), positive)
            for scores, positive in runs]
    return _runs.summarize_runs(runs, levels, exclude_self, costs, held_bytes)


def _read_only_mapping(arr: object) -> bool:
    """Whether ``arr`` views a read-only memory map of a file."""
    base = arr
    while isinstance(base, (np.ndarray, memoryview)):
        base = base.base if isinstance(base, np.ndarray) else base.obj
    if not isinstance(base, mmap.mmap):
        return False
    with memoryview(base) as view:
        return view.readonly


def _prefix_split(keys: Array, bits: int) -> int:
    """A key index near the middle where the truncated score changes (-1 if none
    nearby): keys on either side then hold different scores."""
    n = len(keys)
    if n < 2:
        return -1
    shift = np.uint64(bits + 1)
    lo, hi = max(1, n // 2 - 4096), min(n, n // 2 + 4096)
    prefix = keys[lo - 1:hi] >> shift
    change = np.flatnonzero(prefix[1:] != prefix[:-1])
    if len(change) == 0:
        return -1
    return int(lo + change[np.argmin(np.abs(lo + change - n // 2))])


def _summarize_keys(keys_hi: Array, keys_lo: Array, rows: Array, bits: int, wp: float,
                    wn: float, levels: Array, exclude_self: bool, costs: Costs
                    ) -> SweepResult:
    """One sweep of the key pieces, with ``W_P`` equal to the sweep's final TP.

    B's comparison is exact at its structural equalities only when ``W_P`` is the total
    the sweep's TP ends at (see ``sweep.pxd``). Both are compensated sums, so they
    almost always agree; when they do not, the sweep runs again with its own total.
    """
    out = _keys.summarize_keys(keys_hi, keys_lo, rows, bits, wp, wn, levels,
                                  exclude_self, costs)
    if out.tp_end != wp and math.isfinite(wp):     # (an infinite total is refused later)
        out = _keys.summarize_keys(keys_hi, keys_lo, rows, bits, out.tp_end, wn, levels,
                                      exclude_self, costs)
    return out.result


def _two_piece_keys(keys_hi: Array, keys_lo: Array, rows: Array, bits: int, wp: float,
                    wn: float, tp_hi: tuple[float, float], wn_lo: float, levels: Array,
                    exclude_self: bool) -> SweepResult | None:
    """Sweep the pivot's two key pieces on two threads (they gather rows at random, so
    a second core doubles the memory-level parallelism); see ``_two_pieces``."""
    fp_hi = wn - wn_lo
    split = _prefix_split(keys_lo, bits)

    def sweep(keys: Array, lv: Array, tp: tuple[float, float], fp: float, gap: float,
              at: int = -1) -> Callable[[], PieceSweep]:
        return lambda: _keys.summarize_keys_from(keys, rows, bits, wp, wn, lv,
                                                    exclude_self, tp[0], tp[1], fp, gap, at)

    def again(gap_hi: float, cp: Checkpoint | None) -> list[Callable[[], PieceSweep]]:
        if cp is None:
            return [sweep(keys_lo, levels, tp_hi, fp_hi, gap_hi)]
        return [sweep(keys_lo[split:], levels, tp_hi, fp_hi, gap_hi),
                sweep(keys_lo[:split], levels, (cp.tp, cp.tp_err), cp.fp, gap_hi + cp.gap)]

    return threads._two_pieces(sweep(keys_hi, levels, (0.0, 0.0), 0.0, 0.0),
                       sweep(keys_lo, np.empty(0), tp_hi, fp_hi, 0.0, split), again,
                       tp_hi[0] + tp_hi[1], wp, wn, len(levels))


def _two_piece_sorted(pieces: Pieces, levels: Array, exclude_self: bool) -> SweepResult:
    """Sweep the sorted class pieces above and below the pivot on two threads (the
    merge is branchy, one row at a time: a second core halves it); see ``_two_pieces``.
    Counts are exact, so the pieces' TP always meet."""
    pos_hi, neg_hi, pos_lo, neg_lo = pieces
    wp, wn = float(len(pos_hi) + len(pos_lo)), float(len(neg_hi) + len(neg_lo))
    tp_hi, fp_hi = float(len(pos_hi)), float(len(neg_hi))
    # The lower pieces' halves for a second look: scores >= v, then below v.
    v = pos_lo[len(pos_lo) // 2] if len(pos_lo) else (neg_lo[len(neg_lo) // 2] if len(neg_lo)
                                                      else 0.0)
    a, b = int(np.searchsorted(pos_lo, v)), int(np.searchsorted(neg_lo, v))
    upper, lower = (pos_lo[a:], neg_lo[b:]), (pos_lo[:a], neg_lo[:b])
    empty = pos_lo[:0]

    def sweep(hi: tuple[Array, Array], lo: tuple[Array, Array], lv: Array, tp: float,
              fp: float, gap: float, checkpoint: bool = False) -> Callable[[], PieceSweep]:
        return lambda: _sorted.summarize_sorted_from(*hi, *lo, wp, wn, lv, exclude_self, tp,
                                                      fp, gap, checkpoint)

    def again(gap_hi: float, cp: Checkpoint | None) -> list[Callable[[], PieceSweep]]:
        assert cp is not None
        return [sweep(upper, (empty, empty), levels, tp_hi, fp_hi, gap_hi),
                sweep(lower, (empty, empty), levels, cp.tp, cp.fp, gap_hi + cp.gap)]

    out = threads._two_pieces(sweep((pos_hi, neg_hi), (empty, empty), levels, 0.0, 0.0, 0.0),
                      sweep(upper, lower, np.empty(0), tp_hi, fp_hi, 0.0, True), again,
                      tp_hi, wp, wn, len(levels))
    assert out is not None
    return out


def sweep_table(scores: Array, tp: Array, fp: Array, levels: Array, exclude_self: bool,
                costs: Costs = None) -> SweepResult:
    """AUC, AP and the level crossings of a score table."""
    return _tables.sweep_table(scores, tp, fp, levels, exclude_self, costs)


def merge_tables(s1: Array, tp1: Array, fp1: Array, s2: Array, tp2: Array,
                 fp2: Array) -> Table:
    """Merge two descending score tables, adding the weights of equal scores."""
    return _tables.merge_tables(s1, tp1, fp1, s2, tp2, fp2)


def sweep_range(scores: Array, tp: Array, fp: Array, levels: Array, exclude_self: bool,
                weight_pos: float, weight_neg: float, tp_above: float, fp_above: float,
                b_above: float) -> RangeSweep:
    """One score range swept from the state of the ranges above it."""
    return _runs.sweep_range(scores, tp, fp, levels, exclude_self, weight_pos, weight_neg,
                                tp_above, fp_above, b_above)


def delong_sums(tp: Array, fp: Array) -> DeLongSums:
    """DeLong's AUC and summed squared structural components of a score table."""
    return _tables.delong_sums(tp, fp)


def replicate_counts(bit_generator: np.random.BitGenerator, pos_group: Array,
                     pos_weight: Array | None, neg_group: Array, neg_weight: Array | None,
                     n_groups: int, stratified: bool) -> ReplicateCounts:
    """One replicate: ``(tp, fp, pos_counts, neg_counts)``."""
    return _resample.replicate_counts(bit_generator, pos_group, pos_weight, neg_group,
                                      neg_weight, n_groups, stratified)


def replicate_sweeps(bit_generators: list[np.random.BitGenerator], pos_group: Array,
                     pos_weight: Array | None, neg_group: Array, neg_weight: Array | None,
                     scores: Array, stratified: bool, levels: Array,
                     exclude_self: bool, done: Callable[[int], None] | None = None) -> Array:
    """One sweep per replicate, the replicates shared by two threads. Replicate ``k``
    draws from ``bit_generators[k]`` alone, so the split does not change results.
    ``done(k)`` after each batch of ``k`` replicates, from the thread that swept it (a
    progress bar's count: batches are what a call is made of, while calls of fewer
    replicates would each pay the kernel's start, about 1.5 replicates' time).

    Each thread takes the next batch of replicates when it is done with one, so a
    thread slowed by the machine's other work does not leave the other one waiting
    (halves fixed in advance: one finished 10% before the other, in one run)."""
    n_rep = len(bit_generators)
    out = np.empty((n_rep, REPLICATE_HEAD + REPLICATE_POINT * len(levels)))
    work = n_rep * (len(pos_group) + len(neg_group) + len(scores))
    two = work >= threads.PARALLEL_MIN_ROWS and n_rep > 1
    batch = max(1, -(-n_rep // _REPLICATE_BATCHES) if two else n_rep)
    starts = list(range(0, n_rep, batch))
    rest = iter(starts[2:])                    # (next() on it is atomic under the GIL)

    def job(first: list[int]) -> Callable[[], None]:
        # Each thread's first batch is its own: both start, however fast the other.
        def run() -> None:
            for a in itertools.chain(first, rest):
                b = min(n_rep, a + batch)
                _resample.replicate_sweeps(bit_generators[a:b], pos_group, pos_weight,
                                           neg_group, neg_weight, scores, stratified,
                                           levels, exclude_self, out[a:b])
                if done is not None:
                    done(b - a)
        return run
    threads._on_two_threads([job(starts[:1]), job(starts[1:2])] if two else [job(starts)])
    return out


def _padded_lengths(size: Array) -> Array:
    """Piece lengths rounded up to one of about eight sizes per octave (at most 1/8
    more; up to 16 exact), so pieces of one padded length can be sorted as the rows
    of a 2-D array: one NumPy call that releases the GIL, where a call per piece would
    hold it (NumPy sorts arrays this small without releasing it)."""
    exponent = np.frexp(size.astype(np.float64))[1]        # the bit length of each size
    step = np.left_shift(1, np.maximum(exponent - 4, 0)).astype(np.int64)
    padded: Array = -(-size // step) * step
    return padded


class _Placed(NamedTuple):
    """Rows placed by segment and class, each piece sorted ascending: piece ``k = 2 g +
    negative`` is ``scores[begin[k]:begin[k] + size[k]]`` (its weights at the same places
    of ``weights``, None without weights); ``n_rows[g]`` counts segment ``g``'s rows,
    zero weights included."""

    scores: Array
    weights: Array | None
    begin: Array
    size: Array
    n_rows: Array


def _place_segments(y: Array, s: Array, w: Array | None, codes: Array, n_segments: int,
                    pos_value: float, neg_value: float) -> _Placed:
    """Count and check the rows (``count_segments``), place them (``place_segments``),
    both in two blocks on two threads, then sort the pieces: pieces of one padded length
    lie side by side, padded with +inf, and are sorted together as rows of a 2-D array
    (weighted: argsorted, scores and weights taken in that order)."""
    blocks = threads._blocks(len(s))
    counts = [np.zeros(3 * n_segments + 1, dtype=np.int64) for _ in blocks]
    def count(b: tuple[int, int], c: Array) -> Callable[[], tuple[int, int]]:
        return lambda: _segments.count_segments(y, s, w, codes, pos_value, neg_value, c, *b)
    found = threads._on_two_threads([count(b, c) for b, c in zip(blocks, counts)])
    if sum(bad for bad, _ in found):
        _count(y, s, w, pos_value, neg_value, -np.inf, blocks)     # raises on bad rows
        raise ValueError(f"segment codes must lie in [0, {n_segments})")
    size: Array = np.sum([c[:2 * n_segments] for c in counts], axis=0)
    n_rows = size[0::2] + size[1::2] + np.sum([c[2 * n_segments:-1] for c in counts], axis=0)
    length = _padded_lengths(size)
    order = np.argsort(length, kind="stable")       # pieces grouped by padded length
    ends = np.cumsum(length[order])
    begin = np.empty_like(size)
    begin[order] = ends - length[order]
    scores = np.empty(int(ends[-1]) if len(ends) else 0)
    weights = None if w is None else np.empty_like(scores)
    # each block writes its rows of a piece after the earlier blocks' rows of it
    cursors = [begin + sum(c[:2 * n_segments] for c in counts[:b]) for b in range(len(blocks))]
    def place(b: tuple[int, int], c: Array) -> Callable[[], None]:
        return lambda: _segments.place_segments(y, s, w, codes, pos_value, c, scores, weights, *b)
    threads._on_two_threads([place(b, c) for b, c in zip(blocks, cursors)])
    _segments.pad_pieces(scores, begin, size, length)
    # A real +inf ties with the padding: a stable argsort keeps it (and its weight) ahead.
    _sort_rows(scores, weights, length[order], ends, stable=sum(inf for _, inf in found) > 0)
    return _Placed(scores, weights, begin, size, n_rows)


def _sort_rows(scores: Array, weights: Array | None, lengths: Array, ends: Array,
               stable: bool) -> None:
    """Sort the runs of equal-length pieces (``lengths``, ascending, ending at ``ends``)
    as rows of 2-D views, each run's rows split over two threads; ``weights`` (if any)
    follow their scores."""
    last = np.flatnonzero(np.diff(lengths, append=-1))         # last piece of each run
    first = np.concatenate(([0], last[:-1] + 1))
    halves: tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]] = ([], [])
    load = [0, 0]
    for a, b in zip(first.tolist(), last.tolist()):
        width = int(lengths[a])
        if width < 2:
            continue
        lo, hi = int(ends[a]) - width, int(ends[b])
        if b == a:                   # one long piece: whichever thread has less
            side = int(load[0] > load[1])
            halves[side].append((lo, hi, width))
            load[side] += hi - lo
        else:
            mid = lo + (b - a + 1) // 2 * width
            halves[0].append((lo, mid, width))
            halves[1].append((mid, hi, width))
            load[0] += mid - lo
            load[1] += hi - mid

    def sort_all(parts: list[tuple[int, int, int]]) -> Callable[[], None]:
        def run() -> None:
            for lo, hi, width in parts:
                rows = scores[lo:hi].reshape(-1, width)
                if weights is None:
                    rows.sort(axis=1)
                    continue
                order = rows.argsort(axis=1, kind="stable" if stable else None)
                rows[...] = np.take_along_axis(rows, order, axis=1)
                w_rows = weights[lo:hi].reshape(-1, width)
                w_rows[...] = np.take_along_axis(w_rows, order, axis=1)
        return run
    jobs = [sort_all(halves[0]), sort_all(halves[1])]
    if sum(load) < threads.PARALLEL_MIN_ROWS:
        jobs = [sort_all(halves[0] + halves[1])]
    threads._on_two_threads(jobs)


def summarize_segments(y: Array, s: Array, w: Array | None, codes: Array, n_segments: int,
                       pos_value: float, neg_value: float, levels: Array,
                       exclude_self: bool) -> SegmentSweeps:
    """One sweep per segment (``codes``: int64 segment of each row, in
    ``[0, n_segments)``): rows placed by segment and class in one counting pass, each
    piece sorted, each segment swept on its own. One segment is plain ``summarize``."""
    if n_segments == 1 and len(codes) and not codes.any():
        whole = summarize(y, s, w, pos_value, neg_value, levels, exclude_self)
        return SegmentSweeps.from_sweep(whole, len(s))
    out = np.empty((n_segments, 8))
    crossings = np.empty((n_segments, len(levels), CROSSING_WIDTH))
    p = _place_segments(y, s, w, codes, n_segments, pos_value, neg_value)
    # two segment ranges of about equal rows, one per thread
    rows = np.cumsum(p.size[0::2] + p.size[1::2])
    half = int(np.searchsorted(rows, rows[-1] // 2)) if len(s) >= threads.PARALLEL_MIN_ROWS \
        else n_segments
    def sweep(a: int, b: int) -> Callable[[], None]:
        return lambda: _segments.sweep_placed_segments(p.scores, p.weights, p.begin, p.size,
                                                      p.n_rows, levels, exclude_self, out,
                                                      crossings, a, b)
    threads._on_two_threads([sweep(a, b) for a, b in ((0, half), (half, n_segments)) if b > a])
    return SegmentSweeps.from_columns(out, crossings)


def summarize_models(y: Array, scores: list[Array], w: Array | None, codes: Array,
                     n_segments: int, pos_value: float, neg_value: float, levels: Array,
                     exclude_self: bool) -> list[SegmentSweeps]:
    """``summarize_segments`` of each model's scores over the same labels, weights and
    segments. Two models run at a time, one per thread, each on its thread alone (with
    the split it would use on two, so the results are the same): measured 3.4x one
    model's time for four models of 1e7 rows, where one after the other takes 4.1x.
    Two evaluations' buffers are then held at once."""
    def one(s: Array) -> SegmentSweeps:
        return summarize_segments(y, s, w, codes, n_segments, pos_value, neg_value, levels,
                                  exclude_self)
    return _per_model(one, scores, len(y))


def _per_model(one: Callable[[Array], _T], scores: list[Array], n_rows: int) -> list[_T]:
    """``one`` of each model's scores, two models at a time, one per thread, each on its
    thread alone (with the split it would use on two, so results do not depend on the
    pairing); results in order."""
    if len(scores) < 2 or n_rows < threads.PARALLEL_MIN_ROWS:
        return [one(s) for s in scores]
    def alone(s: Array) -> Callable[[], _T]:
        def run() -> _T:
            threads._serial.on = True
            try:
                return one(s)
            finally:
                threads._serial.on = False
        return run
    out: list[_T] = []
    for k in range(0, len(scores) - 1, 2):
        out += threads._on_two_threads([alone(scores[k]), alone(scores[k + 1])])
    if len(scores) % 2:
        out.append(one(scores[-1]))
    return out


def delong_components(y: Array, scores: list[Array], w: Array | None, pos_value: float,
                      neg_value: float) -> list[DeLongComponents]:
    """Each model's DeLong structural component of every row, from one sort per model.

    The rows are checked as ``build_table`` checks them (per model: the first NaN
    score, third label or bad weight raises). Each model's keys are sorted in two pivot
    pieces; the pieces' components are written on two threads (the lower piece starts
    from the weights above the pivot), or models run two at a time, one per thread.
    """
    def one(s: Array) -> DeLongComponents:
        keys_hi, keys_lo, rows, bits, wp, wn, (hi_s, hi_err), wn_lo = _sorted_keys(
            y, s, w, pos_value, neg_value)
        # (rows of weight 0 are absent from the keys: NaN, as in the twin)
        component = (np.empty if w is None else np.zeros)(len(s), dtype=np.float64)
        if w is not None:
            component[w == 0] = np.nan
        def piece(keys: Array, pos_above: float, neg_above: float) -> Callable[[], float]:
            return lambda: _keys.delong_components(keys, rows, bits, pos_above, neg_above,
                                                      wp, wn, component)
        jobs = [piece(keys_hi, 0.0, 0.0)]
        if len(keys_lo):
            jobs.append(piece(keys_lo, hi_s + hi_err, wn - wn_lo))
        auc = sum(threads._on_two_threads(jobs))
        return DeLongComponents(component, auc, wp, wn)
    return _per_model(one, scores, len(y))


def paired_moments(y: Array, pos_value: float, w: Array | None, weight_total: float,
                   a: Array, b: Array) -> PairedMoments:
    """Per class, weighted mean and squared deviations of ``a - b`` (see the kernel)."""
    return PairedMoments(*_tables.paired_moments(y, pos_value, w, weight_total, a, b))


def _seed_words(entropy: int, spawn_key: tuple[int, ...]) -> np.ndarray:
    """SeedSequence's assembled entropy of ``spawn_key + (g, k)`` without ``g, k``: the
    entropy's 32-bit words, padded to the pool size of 4 (a spawn key follows), then
    each key element's words (``numpy.random.SeedSequence.get_assembled_entropy``)."""
    def words(n: int) -> list[int]:
        out = [n & 0xFFFFFFFF]
        while n >> 32:
            n >>= 32
            out.append(n & 0xFFFFFFFF)
        return out
    run = words(int(entropy))
    run += [0] * (4 - len(run))
    return np.array(run + [w for key in spawn_key for w in words(int(key))], dtype=np.uint32)


def segment_replicate_sweeps(entropy: int, spawn_key: tuple[int, ...], segments: Array,
                             keys: Array, n_boot: int, pos_start: Array, pos_group: Array,
                             pos_weight: Array | None, neg_start: Array, neg_group: Array,
                             neg_weight: Array | None, group_start: Array, scores: Array,
                             stratified: bool, levels: Array, exclude_self: bool) -> Array:
    """``n_boot`` swept replicates of each listed segment, the segments split over two
    threads; replicate ``k`` of ``segments[i]`` draws from ``PCG64(SeedSequence(entropy,
    spawn_key=spawn_key + (keys[i], k)))``, seeded in the kernel."""
    prefix = _seed_words(entropy, spawn_key)
    out = np.empty((len(segments) * n_boot, REPLICATE_HEAD + REPLICATE_POINT * len(levels)))
    if len(out) == 0:
        return out
    # two halves of about equal slots, one per thread
    slots = (pos_start[1:] - pos_start[:-1] + neg_start[1:] - neg_start[:-1])[segments]
    work = np.cumsum(slots)
    half = (int(np.searchsorted(work, work[-1] // 2)) if len(work) > 1 and
            int(work[-1]) * n_boot >= threads.PARALLEL_MIN_ROWS else len(segments))
    def job(a: int, b: int) -> Callable[[], None]:
        return lambda: _resample.segment_replicate_sweeps(
            prefix, segments[a:b], keys[a:b], n_boot, pos_start, pos_group, pos_weight,
            neg_start, neg_group, neg_weight, group_start, scores, stratified, levels,
            exclude_self, out[a * n_boot:b * n_boot])
    threads._on_two_threads([job(a, b) for a, b in ((0, half), (half, len(segments))) if b > a])
    return out


def segment_order(codes: Array, s: Array, n_segments: int) -> tuple[Array, Array]:
    """Rows by segment in row order, and by segment then score descending (ties in row
    order): a counting pass, then each segment's (score, row) pairs sorted in cache."""
    return _resample.segment_order(np.ascontiguousarray(codes, dtype=np.int64),
                                   np.ascontiguousarray(s, dtype=np.float64), n_segments)


def transpose_sums(p: Array) -> tuple[Array, Array]:
    """The columns of ``p`` (2-d float64, C order) as the rows of a new array, and the
    sum of each row of ``p``, in one pass over ``p``: each half of the rows on a thread
    of its own when there are many."""
    n, k = p.shape
    columns = np.empty((k, n), dtype=np.float64)
    sums = np.empty(n, dtype=np.float64)
    half = n // 2 if n >= threads.PARALLEL_MIN_ROWS else n

    def job(start: int, stop: int) -> Callable[[], None]:
        return lambda: _multiclass.transpose_rows(p, columns, sums, start, stop)
    threads._on_two_threads([job(0, half)] + ([job(half, n)] if half < n else []))
    return columns, sums


def packed_keys(codes: Array, col: Array, bits: int) -> tuple[Array, bool]:
    """Keys ``(order bits of the score) << bits | class`` and whether they are exact:
    the column's range by NumPy's vectorised min and max, the keys in one pass."""
    if not 1 <= bits <= 16:
        raise ValueError(f"bits must be in 1..16, got {bits}")
    if len(codes) != len(col):
        raise ValueError("codes and col differ in length")
    if len(col) == 0:
        return np.empty(0, dtype=np.uint64), True
    lo, exact, signed = key_range(col, bits)
    return _multiclass.packed_keys(codes, col, bits, lo, exact, signed), exact


def sorted_pair_counts(keys: Array, bits: int, positive: int) -> tuple[Array, int]:
    """Twice one class's pair counts against every class, from sorted packed keys, and
    the number of distinct scores."""
    return _multiclass.sorted_pair_counts(keys, bits, positive)


def ordered_pair_counts(order: Array, col: Array, codes: Array, w: Array | None,
                        positive: int, n_classes: int) -> Array:
    """One class's pair counts against every class, rows visited in ascending order."""
    return _multiclass.ordered_pair_counts(order, col, codes, w, positive, n_classes)


def window_step(base_s: Array, base_top: Array, base_pc: Array, base_nc: Array, d_s: Array,
                d_p: Array, d_n: Array, d_c: Array, x_s: Array, x_code: Array,
                x_w: Array | None, total_pos: float, out_s: Array, out_p: Array,
                out_n: Array, out_c: Array) -> WindowStep:
    """Doubled change of U when rows come and go in a window, and its new delta run."""
    return _window.window_step(base_s, base_top, base_pc, base_nc, d_s, d_p, d_n, d_c, x_s,
                               x_code, x_w, total_pos, out_s, out_p, out_n, out_c)


def window_top(base_s: Array) -> Array:
    """The index of a window's base that ``window_step`` walks."""
    return _window.window_top(base_s)


def window_merge(a_s: Array, a_p: Array, a_n: Array, a_c: Array, b_s: Array, b_p: Array,
                 b_n: Array, b_c: Array, s: Array, p: Array, n: Array, c: Array, pc: Array,
                 nc: Array) -> WindowBase:
    """Two signed runs merged into a window's base, with its doubled U."""
    return _window.window_merge(a_s, a_p, a_n, a_c, b_s, b_p, b_n, b_c, s, p, n, c, pc, nc)
