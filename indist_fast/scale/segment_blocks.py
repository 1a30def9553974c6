"""Per-segment score tables of partitions, merged and swept in runs of segments.

The steps ``indist_fast.dask.evaluate`` runs with ``by=`` or several scores:

1. ``partition_segments``, where each partition lives: its rows validated once, numbered
   by segment as ``evaluate_many`` numbers them, and summarised per model into the
   score tables of all its segments at once (``SegmentedTables``: one sort by segment
   and score, no object per segment). Only the segment keys, table sizes and the label
   coding (``PartitionSegments.summary``) reach the client.
2. ``global_codes`` on the client: the keys of every partition numbered together by the
   very function ``evaluate_many`` uses, so the segments come out in its order and with
   its values and dtypes; ``block_bounds`` cuts that order into runs of similar size.
3. ``split_blocks`` per partition, then ``block_table`` per run on a worker: the
   partitions' tables of each segment merged (weights of equal scores added) and the
   run's rows of the ``ReportTable`` computed by ``segment_tables.from_score_tables``.
   The client only concatenates the runs' tables.

A segment's table is a sufficient statistic of its rows, and merging tables adds the
weights of equal scores, so the result equals ``evaluate_many`` on all rows at once
(bit for bit whenever the weights' sums are exact: counts, integer or dyadic weights).

Why tables and not rows (measured, 1e6 rows in 8 partitions, 2 models, one int segment
column; a LocalCluster of two worker processes on a shared 2-core machine, so the
numbers are noisy): against shuffling the rows by segment (``DataFrame.shuffle``) and
calling ``evaluate_many`` per partition, the tables took about as long to twice as long
(best of two runs each, several load levels: 100 segments, tables 0.5-1.3 s, shuffle
0.4-1.1 s; 10,000 segments, tables 0.7-1.8 s, shuffle 0.5-0.7 s; in memory
``evaluate_many`` takes 0.05-0.2 s: scheduling and transfers dominate), and on one
thread used 2-3x the CPU (0.3-1.0 s against 0.12-0.47 s: the tables are sorted in
NumPy, twice, where ``evaluate_many`` sorts once in the compiled kernel, and a
continuous score's table has an entry per row, 32 bytes per model, where a row is ~25).
Tables are kept for what that shuffle path leaves out: a hash shuffle puts segments in
no order (``evaluate_many``'s order over all partitions needs a sort-based shuffle, one
more pass to place its divisions), the partitions' label codings go unchecked (one more
pass), and rows never shrink where tables shrink with ties (one entry per distinct
(segment, score): rounded or calibrated scores, counts). Cheaper transfers (codes as
run lengths, counts in the smallest integer type) are the next step if it matters.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from typing import Any, Sequence

import numpy as np

from .._core.validation import (LabelCoding, combine_codings, prepare_rows,
                                with_scores)
from ..io.frames import table_columns
from ..results.report_table import ReportTable
from ..metrics.segment_tables import from_score_tables
from ..metrics.segments import segment_codes
from ..table.segmented import SegmentedTables

__all__ = ["SegmentedTables", "PartitionSegments", "partition_segments", "global_codes",
           "block_bounds", "split_blocks", "block_table"]


@dataclass(frozen=True)
class PartitionSegments:
    """One partition's rows as score tables per (model, segment).

    Attributes
    ----------
    keys : dict of str to ndarray
        Each segment column's value per segment of the partition (sorted as
        ``evaluate_many`` sorts them; only segments holding rows).
    n_rows : ndarray of int64
        Rows per segment, zero-weight rows included.
    tables : list of SegmentedTables
        One per model, segments numbered ``0 .. len(n_rows) - 1``.
    coding : LabelCoding or None
        The partition's label coding (None without rows).
    """

    keys: dict[str, np.ndarray]
    n_rows: np.ndarray
    tables: list[SegmentedTables]
    coding: LabelCoding | None

    def summary(self) -> tuple[dict[str, np.ndarray], np.ndarray, LabelCoding | None]:
        """What the client needs to number the segments: keys, the table entries of each
        segment over all models (to balance the runs), and the coding."""
        sizes = np.zeros(len(self.n_rows), dtype=np.int64)
        for t in self.tables:
            sizes += np.bincount(t.codes, minlength=len(self.n_rows))
        return self.keys, sizes, self.coding


def partition_segments(frame: Any, label: str, scores: Sequence[str], weight: str | None,
                       by: Sequence[str], pos_label: Any, index: int) -> PartitionSegments:
    """Step 1 on one partition (a pandas DataFrame).

    Parameters
    ----------
    frame : pandas.DataFrame
        The partition.
    label, weight : str
        Column names (``weight`` may be None).
    scores, by : sequence of str
        The models' score columns and the segment columns.
    pos_label : scalar
        The positive label, or None.
    index : int
        The partition's number, for errors: their row numbers count within it.

    Returns
    -------
    PartitionSegments
    """
    try:
        return _partition_segments(frame, label, scores, weight, by, pos_label)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"partition {index}: {exc}") from None


def _partition_segments(frame: Any, label: str, scores: Sequence[str], weight: str | None,
                        by: Sequence[str], pos_label: Any) -> PartitionSegments:
    columns = table_columns(frame, [("label", label), ("weight", weight)]
                            + [("score", s) for s in scores] + [("by", b) for b in by])
    y, w, score_columns, group_columns = (columns[0], columns[1],
                                          columns[2:2 + len(scores)], columns[2 + len(scores):])
    if len(y) == 0:
        # A filtered frame leaves empty partitions: they hold no rows, not bad rows.
        return PartitionSegments({name: col[:0] for name, col in zip(by, group_columns)},
                                 np.empty(0, np.int64), [], None)
    # evaluate_many's order of checks: rows (labels, then each model's scores), then
    # segments, then each model's rows in the sweep (NaN, third label, bad weight).
    first = prepare_rows(y, score_columns[0], w, pos_label)
    rows = [first] + [with_scores(first, s) for s in score_columns[1:]]
    codes, n_segments, values = segment_codes(list(group_columns), list(by), first.n_rows)
    n_rows = np.bincount(codes, minlength=n_segments)
    held = np.flatnonzero(n_rows)                 # codes may number absent values
    renumber = np.cumsum(n_rows > 0) - 1
    codes = renumber[codes]
    tables = [SegmentedTables.from_rows(r, codes) for r in rows]
    return PartitionSegments({name: values[name][held] for name in by},
                             n_rows[held].astype(np.int64), tables, first.coding)


def global_codes(summaries: Sequence[tuple[dict[str, np.ndarray], np.ndarray, Any]],
                 by: Sequence[str]) -> tuple[list[np.ndarray], dict[str, np.ndarray], np.ndarray]:
    """Step 2: every partition's segments numbered in ``evaluate_many``'s order.

    Parameters
    ----------
    summaries : sequence of ``PartitionSegments.summary()``
        One per partition, in partition order.
    by : sequence of str
        The segment columns.

    Returns
    -------
    codes : list of ndarray of int64
        Per partition, the global number of each of its segments (increasing).
    values : dict of str to ndarray
        Each segment column's value per global segment.
    sizes : ndarray of int64
        Table entries per global segment, summed over partitions and models.
    """
    coding = reduce(combine_codings, (c for _, _, c in summaries), None)
    if coding is None:              # no partition held a row: evaluate_many's error
        raise ValueError("y_true and y_score are empty: need at least one row.")
    counts = [len(s) for _, s, _ in summaries]
    # Empty partitions are left out: their empty key arrays may have another dtype
    # (object for a categorical) and would change the segment columns' dtype.
    keys = [np.concatenate([k[name] for k, s, _ in summaries if len(s)]) for name in by]
    codes, n_segments, values = segment_codes(keys, list(by), int(sum(counts)))
    # segment_codes may number key values no segment holds (small int ranges): drop them.
    held = np.bincount(codes, minlength=n_segments) > 0
    if not held.all():
        codes = (np.cumsum(held) - 1)[codes]
        values = {name: col[held] for name, col in values.items()}
        n_segments = int(held.sum())
    sizes = np.bincount(codes, weights=np.concatenate([s for _, s, _ in summaries]),
                        minlength=n_segments).astype(np.int64)
    return list(np.split(codes, np.cumsum(counts)[:-1])), values, sizes


def block_bounds(sizes: np.ndarray, n_blocks: int) -> np.ndarray:
    """Step 2: cut the segments (in order) into at most ``n_blocks`` runs of similar
    table size; returns the run boundaries, from 0 to ``len(sizes)``."""
    work = np.cumsum(sizes + 1, dtype=np.float64)        # +1: a segment costs a sweep too
    targets = work[-1] * np.arange(1, n_blocks) / n_blocks
    cuts = np.searchsorted(work, targets, side="left") + 1
    return np.unique(np.concatenate(([0], np.minimum(cuts, len(sizes)), [len(sizes)])))


def split_blocks(part: PartitionSegments, codes: np.ndarray, bounds: np.ndarray
                 ) -> list[tuple[np.ndarray, np.ndarray, list[SegmentedTables]]]:
    """Step 3 on a partition: for each run, its segments' global codes and rows, and
    its tables (global codes)."""
    tables = [t.recoded(codes) for t in part.tables]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        # The partition's segments are sorted as the global order is: a run is a slice.
        a, b = np.searchsorted(codes, [lo, hi])
        out.append((codes[a:b], part.n_rows[a:b], [t.take(lo, hi) for t in tables]))
    return out


def block_table(pieces: Sequence[tuple[np.ndarray, np.ndarray, list[SegmentedTables]]],
                lo: int, n: int, by: Sequence[str], values: dict[str, np.ndarray],
                models: Sequence[str], levels: tuple[float, ...], exclude_self: bool
                ) -> ReportTable:
    """Step 3 on a run of segments: merge the partitions' tables of each segment and
    build the run's rows of the table.

    Parameters
    ----------
    pieces : sequence of ``split_blocks`` items
        The run's piece of every partition.
    lo, n : int
        Global code of the run's first segment, and its number of segments.
    by, models : sequence of str
        Segment columns and models.
    values : dict of str to ndarray
        Each segment column's value per segment of the run.
    levels : tuple of float
    exclude_self : bool

    Returns
    -------
    ReportTable
    """
    n_rows = np.zeros(n, dtype=np.int64)
    for codes, rows, _ in pieces:
        np.add.at(n_rows, codes - lo, rows)
    merged = []
    for m in range(len(models)):
        # (an empty partition holds no tables at all)
        parts = [p[2][m] for p in pieces if p[2] and len(p[2][m].codes)]
        if parts:
            both = SegmentedTables.reduce(*(np.concatenate([getattr(t, f) for t in parts])
                                            for f in ("codes", "scores", "pos", "neg")))
            both = SegmentedTables(both.codes - lo, both.scores, both.pos, both.neg)
        else:                                   # only rows of weight 0
            both = SegmentedTables(np.empty(0, np.int64), np.empty(0),
                                   np.empty(0, np.int64), np.empty(0, np.int64))
        merged.append(both.tables(n, n_rows))
    return from_score_tables(by, values, models, merged, levels=levels,
                             exclude_self=exclude_self)


