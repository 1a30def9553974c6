"""``ReportTable`` from pieces: per-segment score tables, or tables of disjoint segments.

Rows summarised apart (partitions of a cluster, buckets of a file spilled by segment)
come back as one table here. A segment's ``ScoreTable`` is a sufficient statistic of its
rows, so a table built from the tables equals ``evaluate_many`` on the rows.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from .._core.engine import engine
from .._core.validation import check_flag, check_levels
from ..results.report_table import ReportTable
from ..table.score_table import ScoreTable, with_main_level

__all__ = ["from_score_tables", "concat_tables", "append_totals"]


def from_score_tables(by: Sequence[str], segments: Mapping[str, Any], models: Sequence[Any],
                      tables: Sequence[Sequence[ScoreTable]], *,
                      levels: Any = (0.4, 0.5, 0.6), exclude_self: bool = True
                      ) -> ReportTable:
    """The ``ReportTable`` of segments given by their score tables.

    Parameters
    ----------
    by : sequence of str
        Names of the segment columns.
    segments : Mapping[str, array-like]
        Each segment column's value per segment, segments in the table's row order.
    models : sequence
        The models' names.
    tables : sequence of sequences of ScoreTable
        ``tables[m][g]``: model ``m``'s table over segment ``g``'s rows.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points the table holds.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.

    Returns
    -------
    ReportTable
        Equal to ``evaluate_many`` on the rows the tables were built from.
    """
    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
    if len(tables) != len(models):
        raise ValueError(f"tables: one list per model expected ({len(models)}), got "
                         f"{len(tables)}.")
    n_seg = len(tables[0]) if tables else 0
    values = {name: np.asarray(segments[name]) for name in by}
    for name, col in values.items():
        if len(col) != n_seg:
            raise ValueError(f"segments[{name!r}]: one value per segment expected ({n_seg}), "
                             f"got {len(col)}.")
    all_levels = with_main_level(lv)
    sweeps = []
    for m, per_segment in enumerate(tables):
        if len(per_segment) != n_seg:
            raise ValueError(f"tables[{m}]: one table per segment expected ({n_seg}), got "
                             f"{len(per_segment)}.")
        sweeps.append(segment_sweeps(per_segment, all_levels, exclude_self))
    return ReportTable._from_sweeps(list(by), values, list(models), sweeps, lv, exclude_self)


def segment_sweeps(tables: Sequence[ScoreTable], levels: np.ndarray, exclude_self: bool) -> Any:
    """The tables' distinct scores as weighted rows of one class each, swept per segment
    by the segment kernel (weights hold the counts; exact below 2**53 rows)."""
    sizes = np.array([len(t.scores) for t in tables], dtype=np.int64)
    codes = np.repeat(np.arange(len(tables), dtype=np.int64), sizes)
    scores = np.concatenate([t.scores for t in tables] or [np.empty(0)])
    pos = np.concatenate([np.asarray(t.pos, dtype=np.float64) for t in tables] or [np.empty(0)])
    neg = np.concatenate([np.asarray(t.neg, dtype=np.float64) for t in tables] or [np.empty(0)])
    return entry_sweeps(codes, scores, pos, neg, np.array([t.n_rows for t in tables],
                                                          dtype=np.int64), levels, exclude_self)


def entry_sweeps(codes: np.ndarray, scores: np.ndarray, pos: np.ndarray, neg: np.ndarray,
                 n_rows: np.ndarray, levels: np.ndarray, exclude_self: bool) -> Any:
    """``segment_sweeps`` of table entries in any order (``codes[i]``: the segment of
    entry ``i``, in ``[0, len(n_rows))``; a score may repeat within a segment, as in the
    unmerged tables of several partitions): one sort of them all in the kernel."""
    y = np.concatenate((np.ones(len(scores)), np.zeros(len(scores))))
    sweeps = engine().summarize_segments(
        y, np.concatenate((scores, scores)),
        np.concatenate((pos, neg)).astype(np.float64, copy=False),
        np.concatenate((codes, codes)), len(n_rows), 1.0, 0.0, levels, exclude_self)
    return sweeps._replace(n_rows=n_rows)


def concat_tables(tables: Sequence[ReportTable]) -> ReportTable:
    """Tables of disjoint segments (same models, levels and segment columns) as one,
    rows in the order given.

    Parameters
    ----------
    tables : sequence of ReportTable

    Returns
    -------
    ReportTable
    """
    if not tables:
        raise ValueError("tables: nothing to concatenate.")
    first = tables[0]
    for t in tables[1:]:
        if (t.by, t.levels, t.exclude_self) != (first.by, first.levels, first.exclude_self) \
                or list(t.columns) != list(first.columns):
            raise ValueError("tables: the tables differ in segment columns, levels or form "
                             "of B.")
    columns = {name: np.concatenate([t.columns[name] for t in tables]) for name in first.columns}
    sources = tuple(block for t in tables for block in t._sources)
    return ReportTable(first.by, columns, first.levels, first.exclude_self)._with_sources(sources)


def append_totals(table: ReportTable, totals: ReportTable) -> ReportTable:
    """``table`` followed by the rows of ``totals`` (each model over all rows, segment
    columns None), as ``evaluate_many(total=True)`` gives them.

    Parameters
    ----------
    table, totals : ReportTable

    Returns
    -------
    ReportTable
    """
    columns = {name: np.concatenate((_objects(col) if name in table.by else col,
                                     totals.columns[name]))
               for name, col in table.columns.items()}
    return ReportTable(table.by, columns, table.levels, table.exclude_self, table.n_boot,
                       table.confidence, table.seed_entropy)._with_sources(
        table._sources + totals._sources)


def _objects(column: np.ndarray) -> np.ndarray:
    """``column`` as an object array of its own scalars (``astype(object)`` turns
    datetime64[ns] values into ints)."""
    out = np.empty(len(column), dtype=object)
    out[:] = list(column) if column.dtype.kind in "mM" else column.tolist()
    return out
