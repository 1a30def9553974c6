"""Sweep a score table held in pieces by score range, in parallel, exactly.

When the distinct scores are split into ranges (highest range first), each range can
be swept on its own once it knows the state after the ranges above it. TP and FP
above come from the ranges' totals; B's numerator above is additive too, but each
range's share depends on TP above. So: (1) totals per range, (2) each range's
additive shares (AUC, AP, and G = 2 Num - Den, the form B is compared in), (3)
crossings of B, each range starting from the G of the ranges above. Every step is per
range and can run where the range lives (``indist_fast.dask``); only a handful of
numbers per range travel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .._core.engine import engine
from .._core.records import SweepResult
from .._core.rates import clamp_probability, first_crossings
from ..table.score_table import ScoreTable

__all__ = ["RangeTotals", "range_totals", "range_shares", "range_crossings",
           "combine_ranges", "split_table", "sweep_ranges"]


@dataclass(frozen=True)
class RangeTotals:
    """Pass 1's result for one range.

    Attributes
    ----------
    weight_pos, weight_neg : float
        The range's positive and negative weight, summed in order.
    n_groups : int
        Its distinct scores.
    n_rows : int
        Rows counted in this piece.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.scale import ranges
    >>> table = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> parts = ranges.split_table(table, [0.4])
    >>> ranges.range_totals(parts[1])
    RangeTotals(weight_pos=1.0, weight_neg=2.0, n_groups=3, n_rows=0)
    """

    weight_pos: float
    weight_neg: float
    n_groups: int
    n_rows: int        # rows counted in this piece (``split_table`` puts all in range 0)


def _in_order(x: np.ndarray) -> float:
    """Sum in order (np.cumsum), as a sweep adds: np.sum adds pairwise."""
    return float(np.cumsum(x, dtype=np.float64)[-1]) if len(x) else 0.0


def range_totals(table: ScoreTable) -> RangeTotals:
    """Pass 1: the range's weights (summed in order, as its sweep sums them) and size.

    Parameters
    ----------
    table : ScoreTable
        The range's piece of the table.

    Returns
    -------
    RangeTotals
        The range's weights and size.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.scale import ranges
    >>> table = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> parts = ranges.split_table(table, [0.4])
    >>> ranges.range_totals(parts[0])
    RangeTotals(weight_pos=2.0, weight_neg=1.0, n_groups=3, n_rows=6)
    """
    return RangeTotals(_in_order(table.pos), _in_order(table.neg), len(table), table.n_rows)


def _offsets(totals: Sequence[RangeTotals]) -> tuple[np.ndarray, np.ndarray, float, float]:
    """TP and FP above each range and the totals. A range's sweep takes TP as the TP
    above plus its own weights in order, so with these in-order sums each range starts
    exactly where the one above ends and the last ends exactly at W_P (which B's
    exact comparison needs, see ``sweep.pxd``)."""
    wp = np.cumsum([t.weight_pos for t in totals], dtype=np.float64)
    wn = np.cumsum([t.weight_neg for t in totals], dtype=np.float64)
    tp_above = np.concatenate(([0.0], wp[:-1]))
    fp_above = np.concatenate(([0.0], wn[:-1]))
    return tp_above, fp_above, float(wp[-1]), float(wn[-1])


def range_shares(table: ScoreTable, weight_pos: float, weight_neg: float, tp_above: float,
                 fp_above: float, exclude_self: bool) -> tuple[SweepResult, float]:
    """Pass 2: the range's additive shares (AUC, AP, G) given TP and FP above.

    Parameters
    ----------
    table : ScoreTable
        The range's piece of the table.
    weight_pos, weight_neg : float
        Total positive and negative weight of the whole table.
    tp_above, fp_above : float
        Positive and negative weight of the ranges above this one.
    exclude_self : bool
        Drop the pairs of a positive copy with itself from ``B``.

    Returns
    -------
    result : SweepResult
        The range's shares of AUC and AP (``auc``, ``average_precision``).
    g : float
        Its share of ``G = 2 Num - Den``.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.scale import ranges
    >>> table = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> parts = ranges.split_table(table, [0.4])
    >>> shares = [ranges.range_shares(parts[0], 3.0, 3.0, 0.0, 0.0, True),
    ...           ranges.range_shares(parts[1], 3.0, 3.0, 2.0, 1.0, True)]
    >>> round(sum(s.auc for s, _ in shares), 4)     # the whole table's AUC
    0.8889
    """
    return engine().sweep_range(table.scores, table.pos, table.neg, np.empty(0),
                                         exclude_self, weight_pos, weight_neg, tp_above,
                                         fp_above, 0.0)


def range_crossings(table: ScoreTable, weight_pos: float, weight_neg: float,
                    tp_above: float, fp_above: float, b_above: float, levels: np.ndarray,
                    exclude_self: bool) -> SweepResult:
    """Pass 3: where B reaches each level inside the range, from the state above.

    Parameters
    ----------
    table : ScoreTable
        The range's piece of the table.
    weight_pos, weight_neg : float
        Total positive and negative weight of the whole table.
    tp_above, fp_above : float
        Positive and negative weight of the ranges above this one.
    b_above : float
        ``G`` of the ranges above (from ``b_offsets``).
    levels : ndarray of float64
        Levels of ``B``.
    exclude_self : bool
        Drop the pairs of a positive copy with itself from ``B``.

    Returns
    -------
    SweepResult
        ``crossings`` has one row per level (NaN where the range does not reach it).

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.scale import ranges
    >>> table = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> parts = ranges.split_table(table, [0.4])
    >>> shares = [ranges.range_shares(parts[0], 3.0, 3.0, 0.0, 0.0, True),
    ...           ranges.range_shares(parts[1], 3.0, 3.0, 2.0, 1.0, True)]
    >>> import numpy as np
    >>> b_above = ranges.b_offsets(shares)
    >>> levels = np.array([0.5])
    >>> crossings = [
    ...     ranges.range_crossings(parts[0], 3.0, 3.0, 0.0, 0.0, b_above[0], levels, True),
    ...     ranges.range_crossings(parts[1], 3.0, 3.0, 2.0, 1.0, b_above[1], levels, True)]
    >>> from indist_fast._core.records import crossing_fields
    >>> point = crossing_fields(crossings[1].crossings[0])
    >>> float(point.index), float(point.threshold)     # index within the range
    (0.0, 0.35)
    """
    result, _ = engine().sweep_range(table.scores, table.pos, table.neg, levels,
                                              exclude_self, weight_pos, weight_neg,
                                              tp_above, fp_above, b_above)
    return result


def combine_ranges(totals: Sequence[RangeTotals], shares: Sequence[tuple[SweepResult, float]],
                   crossings: Sequence[SweepResult], n_levels: int) -> SweepResult:
    """The whole table's sweep result from the per-range pieces (highest range first).

    Parameters
    ----------
    totals : sequence of RangeTotals
        Pass 1 per range.
    shares : sequence of (SweepResult, float)
        Pass 2 per range.
    crossings : sequence of SweepResult
        Pass 3 per range.
    n_levels : int
        Levels each pass 3 looked for.

    Returns
    -------
    SweepResult
        The same result as one sweep of the whole table.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.scale import ranges
    >>> table = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> parts = ranges.split_table(table, [0.4])
    >>> totals = [ranges.range_totals(t) for t in parts]
    >>> shares = [ranges.range_shares(parts[0], 3.0, 3.0, 0.0, 0.0, True),
    ...           ranges.range_shares(parts[1], 3.0, 3.0, 2.0, 1.0, True)]
    >>> import numpy as np
    >>> b_above = ranges.b_offsets(shares)
    >>> levels = np.array([0.5])
    >>> crossings = [
    ...     ranges.range_crossings(parts[0], 3.0, 3.0, 0.0, 0.0, b_above[0], levels, True),
    ...     ranges.range_crossings(parts[1], 3.0, 3.0, 2.0, 1.0, b_above[1], levels, True)]
    >>> result = ranges.combine_ranges(totals, shares, crossings, 1)
    >>> from indist_fast._core.records import crossing_fields
    >>> point = crossing_fields(result.crossings[0])
    >>> round(result.auc, 4), float(point.index), float(point.threshold)
    (0.8889, 3.0, 0.35)
    """
    _, _, wp, wn = _offsets(totals)
    above = np.concatenate(([0], np.cumsum([t.n_groups for t in totals])[:-1]))
    out = first_crossings([(c.crossings, int(a)) for c, a in zip(crossings, above)],
                          n_levels)
    last = [c for t, c in zip(totals, crossings) if t.n_groups]
    return SweepResult(
        sum(t.n_groups for t in totals), sum(s.n_undefined for s, _ in shares), wp, wn,
        clamp_probability(sum(s.auc for s, _ in shares)),
        clamp_probability(sum(s.average_precision for s, _ in shares)),
        last[-1].b_last if last else np.nan, out)


def b_offsets(shares: Sequence[tuple[SweepResult, float]]) -> np.ndarray:
    """G = 2 Num - Den of B (definitions, "B(r)"; as ``sweep.pxd`` sums it) above each range: the
    prefix sums of the ranges' shares."""
    parts = np.array([b for _, b in shares])
    return np.concatenate(([0.0], np.cumsum(parts)[:-1]))


def split_table(table: ScoreTable, splitters: np.ndarray) -> list[ScoreTable]:
    """Cut a table at descending ``splitters``: range ``r`` holds the scores in
    ``[splitters[r], splitters[r-1])`` (range 0 everything >= splitters[0], the last
    range everything below the last splitter). Equal scores share a range.

    Parameters
    ----------
    table : ScoreTable
        The table to cut.
    splitters : array-like of float
        Descending cut scores.

    Returns
    -------
    list of ScoreTable
        ``len(splitters) + 1`` pieces, highest range first; the first counts every row.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.scale import ranges
    >>> table = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> parts = ranges.split_table(table, [0.4])
    >>> [t.scores.tolist() for t in parts]
    [[0.9, 0.8, 0.4], [0.35, 0.2, 0.1]]
    """
    cuts = np.searchsorted(-table.scores, -np.asarray(splitters, dtype=np.float64),
                           side="right")
    bounds = np.concatenate(([0], cuts, [len(table)]))
    # Every piece keeps the table's label coding: range merges of pieces from many
    # partitions then hold them all to one coding.
    return [ScoreTable._trusted(table.scores[a:b], table.pos[a:b], table.neg[a:b],
                                table.n_rows if i == 0 else 0, table.coding)
            for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:]))]


def sweep_ranges(tables: Sequence[ScoreTable], levels: np.ndarray,
                 exclude_self: bool) -> SweepResult:
    """The three passes, one process: the reference for the distributed driver.

    Parameters
    ----------
    tables : sequence of ScoreTable
        The pieces, highest range first (as ``split_table`` gives them).
    levels : ndarray of float64
        Levels of ``B`` to find.
    exclude_self : bool
        Drop the pairs of a positive copy with itself from ``B``.

    Returns
    -------
    SweepResult
        The same result as one sweep of the whole table.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.scale import ranges
    >>> table = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> parts = ranges.split_table(table, [0.4])
    >>> import numpy as np
    >>> result = ranges.sweep_ranges(parts, np.array([0.5]), True)
    >>> import indist_fast
    >>> r = indist_fast.evaluate([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> from indist_fast._core.records import crossing_fields
    >>> result.auc == r.auc, float(crossing_fields(result.crossings[0]).threshold) == r.threshold
    (True, True)
    """
    totals = [range_totals(t) for t in tables]
    tp_above, fp_above, wp, wn = _offsets(totals)
    shares = [range_shares(t, wp, wn, a, f, exclude_self)
              for t, a, f in zip(tables, tp_above, fp_above)]
    b_above = b_offsets(shares)
    crossings = [range_crossings(t, wp, wn, a, f, b, levels, exclude_self)
                 for t, a, f, b in zip(tables, tp_above, fp_above, b_above)]
    return combine_ranges(totals, shares, crossings, len(levels))
