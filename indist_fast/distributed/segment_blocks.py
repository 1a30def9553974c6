"""Per-segment score tables of partitions, merged and swept in blocks of segments.

The steps ``indist_fast.dask.evaluate`` runs with ``by=`` (or several scores):

1. ``partition_segments``, where each partition lives: its rows validated once for all
   models, numbered by segment as ``evaluate_many`` numbers them, and one ``ScoreTable``
   per (model, segment present) built; only the segment keys, table sizes and the label
   coding (``PartitionSegments.summary``) reach the client.
2. ``global_codes`` on the client: the keys of every partition numbered together by the
   very function ``evaluate_many`` uses, so the segments come out in its order and with
   its values; ``block_bounds`` cuts that order into blocks of similar table size.
3. ``split_blocks`` per partition, then ``block_table`` per block on a worker: the
   pieces of each segment merged (``ScoreTable.concat``) and the block's rows of the
   ``ReportTable`` computed by ``segment_tables.from_score_tables``. The client only
   concatenates the blocks' tables.

A segment's table is a sufficient statistic of its rows, and merging tables adds the
weights of equal scores, so the result equals ``evaluate_many`` on all rows at once
(bit for bit whenever the weights' sums are exact: counts, integer or dyadic weights).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import reduce
from typing import Any, Sequence

import numpy as np

from .._core.validation import LabelCoding, Rows, combine_codings, prepare_rows, with_scores
from ..errors import IndistFastWarning
from ..io.frames import table_columns
from ..report_table import ReportTable
from ..segment_tables import from_score_tables
from ..segments import _segments
from ..table import ScoreTable

__all__ = ["PartitionSegments", "partition_segments", "global_codes", "block_bounds",
           "split_blocks", "block_table", "warn_one_class"]


@dataclass(frozen=True)
class PartitionSegments:
    """One partition's rows as score tables per (model, segment).

    Attributes
    ----------
    keys : dict of str to ndarray
        Each segment column's value per segment of the partition (sorted as
        ``evaluate_many`` sorts them; only segments holding rows).
    tables : list of list of ScoreTable
        ``tables[m][g]``: model ``m`` over the partition's rows of segment ``g``.
    coding : LabelCoding or None
        The partition's label coding (None without rows).
    """

    keys: dict[str, np.ndarray]
    tables: list[list[ScoreTable]]
    coding: LabelCoding | None

    def summary(self) -> tuple[dict[str, np.ndarray], np.ndarray, LabelCoding | None]:
        """What the client needs to number the segments: keys, the distinct scores of
        each segment summed over models (to balance the blocks), and the coding."""
        sizes = np.zeros(len(self.tables[0]) if self.tables else 0, dtype=np.int64)
        for per_segment in self.tables:
            sizes += np.array([len(t) for t in per_segment], dtype=np.int64)
        return self.keys, sizes, self.coding


def partition_segments(frame: Any, label: str, scores: Sequence[str], weight: str | None,
                       by: Sequence[str], pos_label: Any) -> PartitionSegments:
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

    Returns
    -------
    PartitionSegments
    """
    columns = table_columns(frame, [("label", label), ("weight", weight)]
                            + [("score", s) for s in scores] + [("by", b) for b in by])
    y, w, score_columns, group_columns = (columns[0], columns[1],
                                          columns[2:2 + len(scores)], columns[2 + len(scores):])
    if len(y) == 0:
        # A filtered frame leaves empty partitions: they hold no rows, not bad rows.
        return PartitionSegments({name: col[:0] for name, col in zip(by, group_columns)},
                                 [[] for _ in scores], None)
    # The order of evaluate_many: rows (labels, then each model's scores) before segments.
    first = prepare_rows(y, score_columns[0], w, pos_label)
    rows = [first] + [with_scores(first, s) for s in score_columns[1:]]
    codes, n_segments, values = _segments(list(group_columns), list(by), first.n_rows)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(n_segments + 1))
    present = np.flatnonzero(bounds[1:] > bounds[:-1])  # codes may number absent values
    picks = [order[bounds[g]:bounds[g + 1]] for g in present]
    tables = [[ScoreTable.from_rows(_take(r, pick)) for pick in picks] for r in rows]
    return PartitionSegments({name: values[name][present] for name in by}, tables,
                             first.coding)


def _take(rows: Rows, pick: np.ndarray) -> Rows:
    return Rows(rows.y[pick], rows.s[pick], None if rows.w is None else rows.w[pick],
                rows.pos_value, rows.neg_value, rows.coding)


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
        Per partition, the global number of each of its segments.
    values : dict of str to ndarray
        Each segment column's value per global segment.
    sizes : ndarray of int64
        Distinct scores per global segment, summed over partitions and models.
    """
    coding = reduce(combine_codings, (c for _, _, c in summaries), None)
    if coding is None:              # no partition held a row: evaluate_many's error
        raise ValueError("y_true and y_score are empty: need at least one row.")
    counts = [len(s) for _, s, _ in summaries]
    # Empty partitions are left out: their empty key arrays may have another dtype
    # (object for a categorical) and would change the segment columns' dtype.
    keys = [np.concatenate([k[name] for k, s, _ in summaries if len(s)]) for name in by]
    codes, n_segments, values = _segments(keys, list(by), int(sum(counts)))
    # _segments may number key values no segment holds (small int ranges): drop them.
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
                 ) -> list[tuple[np.ndarray, list[list[ScoreTable]]]]:
    """Step 3 on a partition: its tables for each block, with their global codes."""
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        # The partition's segments are sorted as the global order is: a block is a run.
        a, b = np.searchsorted(codes, [lo, hi])
        out.append((codes[a:b], [per_segment[a:b] for per_segment in part.tables]))
    return out


def block_table(pieces: Sequence[tuple[np.ndarray, list[list[ScoreTable]]]], lo: int,
                n: int, by: Sequence[str], values: dict[str, np.ndarray], models: Sequence[str],
                levels: tuple[float, ...], exclude_self: bool) -> ReportTable:
    """Step 3 on a block: merge each segment's pieces (in partition order) and build
    the block's rows of the table.

    Parameters
    ----------
    pieces : sequence of ``split_blocks`` items
        The block's piece of every partition.
    lo, n : int
        Global code of the block's first segment, and the block's number of segments.
    by, models : sequence of str
        Segment columns and models.
    values : dict of str to ndarray
        Each segment column's value per segment of the block.
    levels : tuple of float
    exclude_self : bool

    Returns
    -------
    ReportTable
    """
    gathered: list[list[list[ScoreTable]]] = [[[] for _ in range(n)] for _ in models]
    for codes, tables in pieces:
        for m, per_segment in enumerate(tables):
            for code, table in zip(codes, per_segment):
                gathered[m][int(code) - lo].append(table)
    merged = [[ScoreTable.concat(parts) for parts in per_model] for per_model in gathered]
    return from_score_tables(by, values, models, merged, levels=levels,
                             exclude_self=exclude_self)


def warn_one_class(table: ReportTable) -> None:
    """The warning ``evaluate_many`` gives for rows of one class, with its wording."""
    flagged = int(np.count_nonzero(table.columns["one_class"]))
    if flagged:
        warnings.warn(f"{flagged:,} of {len(table):,} (segment, model) rows hold a single "
                      "class: their AUC, B and precision are undefined (NaN; see the "
                      "one_class column).", IndistFastWarning, stacklevel=3)
