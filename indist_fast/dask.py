"""Exact evaluation of dask collections, without gathering rows on one machine.

One score (``evaluate``'s ``Report``):

1. Sampled splitters cut the score axis into ranges of similar size.
2. Each input partition is validated and sorted once into a ``ScoreTable`` where it
   lives, and cut into one piece per range.
3. The pieces of each range are merged on a worker: range tables, kept there.
4. The ranges are swept in parallel from the state of the ranges above them
   (``indist_fast.scale.ranges``): only a few numbers per range reach the client.

Segments or several scores (``evaluate_many``'s ``ReportTable``), see
``indist_fast.scale.segment_blocks``:

A. Each partition is validated once for all models, numbered by segment as
   ``evaluate_many`` numbers rows, and summarised into the score table of every (model,
   segment) where it lives; only the segment keys and table sizes reach the client.
B. The client numbers the keys of all partitions together with ``evaluate_many``'s own
   numbering (so segment order, values and dtypes are its own) and cuts the segments
   into runs of similar size.
C. Per run, on a worker: the segments' tables from every partition are merged and
   swept (``segment_tables.from_score_tables``); the client concatenates the runs.

Score tables move instead of rows: shuffling the rows by segment and calling
``evaluate_many`` per partition was up to 2x faster on a small cluster but gives neither
its segment order nor a check of the label codings (``segment_blocks`` has the
measurement and the reasons).

Needs the optional extra ``dask`` (dask and distributed); works on a local scheduler
or a ``dask.distributed`` cluster.
"""

from __future__ import annotations

from operator import getitem
from typing import Any, Iterable, Sequence

import numpy as np

from .scale import ranges
from .scale import segment_blocks as blocks
from ._core.records import SweepResult
from ._core.validation import check_columns, check_count, check_flag, check_levels
from .results.report_table import ReportTable
from .results.report import Report
from .errors import warn_one_class
from .metrics.segment_tables import append_totals, concat_tables
from .metrics.segments import RESERVED, column_names
from .table.score_table import DEFAULT_LEVELS, ScoreTable, with_main_level

__all__ = ["evaluate", "score_table"]


def _dask() -> Any:
    try:
        import dask
    except ImportError:
        raise ImportError("indist_fast.dask needs dask: pip install 'indist-fast[dask]'") from None
    return dask


def _partition_table(y: Any, s: Any, w: Any, pos_label: Any, splitters: np.ndarray
                     ) -> list[ScoreTable]:
    y, s, w = np.asarray(y), np.asarray(s), None if w is None else np.asarray(w)
    if len(y) == len(s) == 0 and (w is None or len(w) == 0):
        # A filtered frame leaves empty partitions: they hold no rows, not bad rows.
        return [ScoreTable.empty()] * (len(splitters) + 1)
    # split_table keeps the partition's label coding on every piece.
    return ranges.split_table(ScoreTable.from_arrays(y, s, w, pos_label), splitters)


def _frame_partition(df: Any, label: str, score: str, weight: str | None, pos_label: Any,
                     splitters: np.ndarray) -> list[ScoreTable]:
    return _partition_table(df[label].to_numpy(), df[score].to_numpy(),
                            None if weight is None else df[weight].to_numpy(), pos_label,
                            splitters)


def _sample(s: Any, k: int) -> np.ndarray:
    try:
        values: np.ndarray = np.asarray(s, dtype=np.float64)
    except (TypeError, ValueError):
        # Scores that are not numbers: no sample here; validating the partition
        # raises the error that names y_score.
        return np.empty(0)
    if len(values) <= k:
        return values
    picked: np.ndarray = values[np.linspace(0, len(values) - 1, k).astype(np.int64)]
    return picked


def _splitters(samples: list[np.ndarray], n_ranges: int) -> np.ndarray:
    pooled = np.concatenate(samples)
    pooled = pooled[~np.isnan(pooled)]
    if len(pooled) == 0 or n_ranges <= 1:
        return np.empty(0)
    # Cuts are sampled scores, never interpolated: between -inf and inf (or inf and
    # inf) interpolation gives NaN, and a NaN cut made ranges overlap (rows counted twice).
    cuts = np.quantile(pooled, 1.0 - np.arange(1, n_ranges) / n_ranges,
                       method="inverted_cdf")
    return np.unique(cuts)[::-1]          # descending, no empty duplicate ranges


def _is_dask_frame(collection: Any) -> bool:
    import dask.dataframe as dd
    return isinstance(collection, dd.DataFrame)


def _check_arrays(collection: tuple[Any, ...]) -> list[Any]:
    """The dask arrays of ``(y, score[, weight])``: 1d, of one known length."""
    import dask.array as da
    names = ("y_true", "y_score", "sample_weight")
    if len(collection) not in (2, 3):
        raise ValueError("collection: pass dask arrays as (y, score) or (y, score, weight), "
                         f"got a tuple of {len(collection)}.")
    for name, arr in zip(names, collection):
        if not isinstance(arr, da.Array):
            raise TypeError(f"collection: {name} must be a dask array, got "
                            f"{type(arr).__name__}.")
        if arr.ndim != 1:
            raise ValueError(f"{name} should be a 1d array, got a dask array of shape "
                             f"{arr.shape}.")
    lengths = [arr.shape[0] for arr in collection]
    if any(np.isnan(n) for n in lengths):
        raise ValueError("collection: the dask arrays have unknown chunk sizes; call "
                         "compute_chunk_sizes() on them first.")
    if len(set(lengths)) > 1:
        raise ValueError("Found input variables with inconsistent numbers of samples: "
                         f"{lengths} ({', '.join(names[:len(lengths)])}).")
    return list(collection)


def _array_chunks(collection: tuple[Any, ...]) -> list[tuple[Any, Any, Any]]:
    """``(y, score, weight or None)`` per chunk of the labels, as delayed objects."""
    arrays = _check_arrays(collection)
    y = arrays[0]
    ys = list(y.to_delayed().ravel())
    ss = list(arrays[1].rechunk(y.chunks).to_delayed().ravel())
    ws = (list(arrays[2].rechunk(y.chunks).to_delayed().ravel()) if len(arrays) == 3
          else [None] * len(ys))
    return list(zip(ys, ss, ws))


def _merge(pieces: list[ScoreTable]) -> ScoreTable:
    return ScoreTable.concat(pieces)


def evaluate(collection: Any, *, label: str | None = None,
             score: str | Sequence[str] | None = None, weight: str | None = None,
             by: str | Sequence[str] | None = None, pos_label: Any = None,
             levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
             n_ranges: int | None = None, sample_per_partition: int = 2000,
             total: bool = False) -> Report | ReportTable:
    """``indist_fast.evaluate`` (one score) or ``evaluate_many`` (several scores, or
    segments) on a dask DataFrame or dask arrays, exactly.

    Parameters
    ----------
    collection : dask DataFrame, or a tuple ``(y, score[, weight])`` of dask arrays
        The rows. Arrays are rechunked to the labels' chunks. The label coding of
        the partitions must agree (one of ``{0, 1}``, ``{-1, 1}``, or ``pos_label``
        and one other label): ValueError naming ``y_true`` otherwise.
    label, weight : str
        Column names (DataFrames only).
    score : str or sequence of str
        The score column, or several (one model each; DataFrames only).
    by : str or sequence of str, default=None
        Segment columns (DataFrames only): ints, strings, categoricals, ...; several
        columns segment by their combinations. A missing value in one is a ValueError
        naming the column.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points are reported in ``Report.at``.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    n_ranges : int, default=None
        Ranges swept in parallel (1 to 10,000): ranges of scores without ``by``, runs
        of segments with it. Default the number of partitions.
    sample_per_partition : int, default=2000
        Scores sampled per partition to place the range splitters (1 to 1,000,000).
    total : bool, default=False
        Also give each model's report over all rows, as ``evaluate_many(total=True)``
        does (segment columns None there); the result is then a ``ReportTable``.

    Returns
    -------
    Report or ReportTable
        For one score named by a str, no ``by`` and no ``total``, the ``Report`` of
        ``indist_fast.evaluate`` on all the rows at once. Otherwise the ``ReportTable``
        of ``indist_fast.evaluate_many(frame, label=, score=, by=, weight=)`` on the
        computed frame: the same columns, rows and values (bit for bit when the
        weights' sums are exact: no weights, integer or dyadic ones), and the same
        warning for segments of one class.

    Notes
    -----
    With ``by=`` or several scores, each partition is summarised where it lives into
    one score table per (model, segment), and each segment's tables are merged and swept
    on one worker (runs of segments in parallel, see
    ``indist_fast.scale.segment_blocks``): a segment's merged table (one entry per
    distinct score) must fit in one worker's memory. Several scores without ``by`` are
    one segment; for one huge segment, call once per score (a str ``score``), which
    sweeps ranges of scores in parallel instead.

    Examples
    --------
    >>> import dask.array as da
    >>> import indist_fast, indist_fast.dask
    >>> y = da.from_array([0, 0, 1, 1, 0, 1], chunks=3)
    >>> s = da.from_array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9], chunks=3)
    >>> r = indist_fast.dask.evaluate((y, s))
    >>> round(r.auc, 4), r.threshold, r.precision
    (0.8889, 0.35, 0.75)

    Per segment and model, from a DataFrame:

    >>> import pandas as pd, dask.dataframe as dd
    >>> frame = pd.DataFrame({"y": [0, 1, 1, 0, 1, 0, 0, 1],
    ...                       "m1": [.1, .9, .8, .3, .6, .2, .4, .7],
    ...                       "m2": [.5, .4, .9, .1, .8, .3, .6, .2],
    ...                       "country": ["de", "de", "de", "de", "se", "se", "se", "se"]})
    >>> t = indist_fast.dask.evaluate(dd.from_pandas(frame, npartitions=2), label="y",
    ...                               score=["m1", "m2"], by="country")
    >>> t.columns["country"].tolist(), t.columns["model"].tolist()
    (['de', 'de', 'se', 'se'], ['m1', 'm2', 'm1', 'm2'])
    >>> t.columns["auc"].tolist()
    [1.0, 0.75, 1.0, 0.5]
    """
    dask = _dask()

    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
    total = check_flag(total, "total")
    # Ceilings: every range is one task per partition plus a merge, so past some
    # thousands the scheduler's overhead outweighs any parallelism (and the quantile
    # array of splitters is allocated at this length). The samples of every partition
    # are pooled on the client: 10**6 doubles (8 MB) each already place splitters far
    # more finely than any range count needs.
    if n_ranges is not None:
        n_ranges = check_count(n_ranges, "n_ranges", maximum=10_000)
    sample_per_partition = check_count(sample_per_partition, "sample_per_partition",
                                       maximum=1_000_000)
    if isinstance(collection, tuple):
        if label is not None or score is not None or weight is not None or by is not None \
                or total:
            raise TypeError("label=, score= and weight= name DataFrame columns, as does by=; "
                            "with a tuple of dask arrays pass the weights as its third item "
                            "(for segments, several models or total=, pass a dask "
                            "DataFrame).")
        result, n_rows = _sweep_by_ranges(dask, _array_chunks(collection), _array_parts,
                                          pos_label, lv, exclude_self, n_ranges,
                                          sample_per_partition)
        return Report.from_sweep(result, lv, n_rows, exclude_self)
    if not _is_dask_frame(collection):
        raise TypeError("collection must be a dask DataFrame or a tuple (y, score[, "
                        f"weight]) of dask arrays, got {type(collection).__name__}.")
    if label is None or score is None:
        raise ValueError("a dask DataFrame needs the label and score column names.")
    models = column_names(score, "score")
    by_names = [] if by is None else column_names(by, "by")
    check_columns([("label", label), ("weight", weight)] + [("score", m) for m in models]
                  + [("by", b) for b in by_names], collection.columns, "the DataFrame")
    clash = sorted(set(by_names) & RESERVED)
    if clash:
        raise ValueError(f"by: segment column name(s) {clash} would hide the table's own "
                         f"columns of that name; rename them (reserved: model, one_class "
                         f"and the Report fields).")
    parts = list(collection.to_delayed())
    if isinstance(score, str) and not by_names and not total:
        result, n_rows = _sweep_by_ranges(dask, parts, _frame_parts(label, score, weight),
                                          pos_label, lv, exclude_self, n_ranges,
                                          sample_per_partition)
        return Report.from_sweep(result, lv, n_rows, exclude_self)
    # Several models without segments go through the segment path too, as one segment:
    # its sweep is evaluate_many's bit for bit, where summing the shares of score ranges
    # rounds AUC and AP differently in the last bits (at the cost of holding each
    # model's whole table on one worker).
    table, totals = _segment_table(dask, parts, label, models, weight, by_names, pos_label,
                                   lv, exclude_self, n_ranges, total)
    warn_one_class(int(np.count_nonzero(table.columns["one_class"])), len(table))
    return table if totals is None else append_totals(table, totals)


def _array_parts(part: Any, k: int, pos_label: Any) -> tuple[Any, Any]:
    """The sampling and table-making tasks of one chunk ``(y, score, weight)``."""
    def make(splitters: np.ndarray) -> Any:
        return delayed(_partition_table)(part[0], part[1], part[2], pos_label, splitters)
    delayed = _dask().delayed
    return delayed(_sample)(part[1], k), make


def _frame_parts(label: str, score: str, weight: str | None) -> Any:
    """``_array_parts`` for a partition of a DataFrame and one model's column."""
    def parts(part: Any, k: int, pos_label: Any) -> tuple[Any, Any]:
        def make(splitters: np.ndarray) -> Any:
            return delayed(_frame_partition)(part, label, score, weight, pos_label,
                                             splitters)
        delayed = _dask().delayed
        return delayed(_frame_sample)(part, score, k), make
    return parts


def _frame_sample(frame: Any, score: str, k: int) -> np.ndarray:
    return _sample(frame[score].to_numpy(), k)


def _sweep_by_ranges(dask: Any, parts: list[Any], tasks: Any, pos_label: Any,
                     lv: tuple[float, ...], exclude_self: bool, n_ranges: int | None,
                     sample_per_partition: int) -> tuple[SweepResult, int]:
    """One model's sweep over all partitions, range by range (steps 1-4 of the module
    docstring), and the number of rows."""
    delayed = dask.delayed
    samples, makers = zip(*[tasks(p, sample_per_partition, pos_label) for p in parts])
    n_ranges = n_ranges or max(1, len(parts))
    splitters = _splitters(list(dask.compute(*samples)), n_ranges)
    pieces = [make(splitters) for make in makers]
    n = len(splitters) + 1
    tables = [delayed(_merge)([delayed(getitem)(piece, r) for piece in pieces])
              for r in range(n)]
    tables = dask.persist(*tables)             # the range tables stay on the workers
    totals = dask.compute(*[delayed(ranges.range_totals)(t) for t in tables])
    tp_above, fp_above, wp, wn = ranges._offsets(totals)
    shares = dask.compute(*[delayed(ranges.range_shares)(t, wp, wn, a, f, exclude_self)
                            for t, a, f in zip(tables, tp_above, fp_above)])
    b_above = ranges.b_offsets(shares)
    level_array = with_main_level(lv)
    crossings = dask.compute(*[delayed(ranges.range_crossings)(t, wp, wn, a, f, b,
                                                                level_array, exclude_self)
                               for t, a, f, b in zip(tables, tp_above, fp_above, b_above)])
    result = ranges.combine_ranges(totals, shares, crossings, len(level_array))
    return result, sum(t.n_rows for t in totals)


def _segment_table(dask: Any, parts: list[Any], label: str, models: list[str],
                   weight: str | None, by: list[str], pos_label: Any, lv: tuple[float, ...],
                   exclude_self: bool, n_ranges: int | None, total: bool
                   ) -> tuple[ReportTable, ReportTable | None]:
    """The table of every (segment, model), steps A-C of the module docstring, and with
    ``total`` each model's table over all rows (one more run, of one segment)."""
    delayed = dask.delayed
    tables = dask.persist(*[delayed(blocks.partition_segments)(p, label, models, weight, by,
                                                               pos_label, i)
                            for i, p in enumerate(parts)])
    summaries = dask.compute(*[delayed(blocks.PartitionSegments.summary)(t) for t in tables])
    codes, values, sizes = blocks.global_codes(summaries, by)
    bounds = blocks.block_bounds(sizes, min(n_ranges or len(parts), len(sizes)))
    n_blocks = len(bounds) - 1
    split = [delayed(blocks.split_blocks, nout=n_blocks)(t, c, bounds)
             for t, c in zip(tables, codes)]
    pieces = [[s[b] for s in split] for b in range(n_blocks)]
    per_block = [delayed(blocks.block_table)(pieces[b], int(lo), int(hi - lo), by,
                                             {k: v[lo:hi] for k, v in values.items()},
                                             models, lv, exclude_self)
                 for b, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:]))]
    if total:
        whole = [delayed(blocks.split_blocks, nout=1)(t, np.zeros(len(c), np.int64),
                                                      np.array([0, 1]))[0]
                 for t, c in zip(tables, codes)]
        per_block.append(delayed(blocks.block_table)(
            whole, 0, 1, by, {name: np.array([None], dtype=object) for name in by}, models,
            lv, exclude_self))
    done = list(dask.compute(*per_block))
    if total:
        return concat_tables(done[:-1]), done[-1]
    return concat_tables(done), None


def score_table(collection: Any, *, label: str | None = None, score: str | None = None,
                weight: str | None = None, pos_label: Any = None) -> ScoreTable:
    """The ``ScoreTable`` of all the rows of a dask collection, built where they live.

    Each partition becomes its table on its worker; the tables merge in a tree (eight
    at a time) and only the merged table reaches the client. Read it for what a
    ``Report`` does not hold: ``table.calibration()``, ``table.ks()``,
    ``table.gains()``, ``table.top_k(k)``, curves.

    Parameters
    ----------
    collection : dask DataFrame, or a tuple ``(y, score[, weight])`` of dask arrays
        The rows, as ``evaluate`` takes them; the label codings of the partitions must
        agree.
    label, score, weight : str
        Column names (DataFrames only; weight optional).
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    ScoreTable
        The table ``ScoreTable.from_arrays`` gives on the computed rows (weights of
        equal scores added in another order: equal to rounding, exactly for counts and
        integer weights). It holds an entry per distinct score, 24 bytes each, and
        must fit the client's memory.

    Examples
    --------
    >>> import dask.array as da
    >>> import indist_fast.dask
    >>> y = da.from_array([0, 0, 1, 1, 0, 1], chunks=3)
    >>> s = da.from_array([0.1, 0.4, 0.4, 0.8, 0.2, 0.9], chunks=3)
    >>> t = indist_fast.dask.score_table((y, s))
    >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
    ([0.9, 0.8, 0.4, 0.2, 0.1], [1, 1, 1, 0, 0], [0, 0, 1, 1, 1])
    """
    dask = _dask()
    delayed = dask.delayed
    none = np.empty(0)                   # no splitters: each partition one table
    if isinstance(collection, tuple):
        if label is not None or score is not None or weight is not None:
            raise TypeError("label=, score= and weight= name DataFrame columns; with a "
                            "tuple of dask arrays pass the weights as its third item.")
        tables = [delayed(getitem)(delayed(_partition_table)(a, b, c, pos_label, none), 0)
                  for a, b, c in _array_chunks(collection)]
    elif _is_dask_frame(collection):
        if label is None or score is None:
            raise ValueError("a dask DataFrame needs the label and score column names.")
        if not isinstance(score, str):
            raise TypeError(f"score: one column name (a str), got {type(score).__name__}; "
                            "call once per model.")
        check_columns([("label", label), ("score", score), ("weight", weight)],
                      collection.columns, "the DataFrame")
        tables = [delayed(getitem)(delayed(_frame_partition)(p, label, score, weight,
                                                             pos_label, none), 0)
                  for p in collection.to_delayed()]
    else:
        raise TypeError("collection must be a dask DataFrame or a tuple (y, score[, "
                        f"weight]) of dask arrays, got {type(collection).__name__}.")
    while len(tables) > 1:
        tables = [delayed(_merge)(tables[i:i + 8]) for i in range(0, len(tables), 8)]
    table: ScoreTable = dask.compute(tables[0])[0]
    if table.n_rows == 0:
        raise ValueError("collection holds no rows.")
    return table
