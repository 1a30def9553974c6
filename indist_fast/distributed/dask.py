"""Exact evaluation of dask collections, without gathering rows on one machine.

1. Sampled splitters cut the score axis into ranges of similar size.
2. Each input partition is validated and sorted once into a ``ScoreTable`` where it
   lives, and cut into one piece per range.
3. The pieces of each range are merged on a worker: range tables, kept there.
4. The ranges are swept in parallel from the state of the ranges above them
   (``indist_fast.distributed.ranges``): only a few numbers per range reach the client.

Needs the optional extra ``dask`` (dask and distributed); works on a local scheduler
or a ``dask.distributed`` cluster.
"""

from __future__ import annotations

from operator import getitem
from typing import Any, Iterable

import numpy as np

from . import ranges
from .._core.validation import check_columns, check_count, check_flag, check_levels
from ..results import Report
from ..table import DEFAULT_LEVELS, ScoreTable, with_main_level

__all__ = ["evaluate"]


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


def _merge(pieces: list[ScoreTable]) -> ScoreTable:
    return ScoreTable.concat(pieces)


def evaluate(collection: Any, *, label: str | None = None, score: str | None = None,
             weight: str | None = None, pos_label: Any = None,
             levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
             n_ranges: int | None = None, sample_per_partition: int = 2000) -> Report:
    """``indist_fast.evaluate`` on a dask DataFrame or dask arrays, exactly.

    Parameters
    ----------
    collection : dask DataFrame, or a tuple ``(y, score[, weight])`` of dask arrays
        The rows. Arrays are rechunked to the labels' chunks. The label coding of
        the partitions must agree (one of ``{0, 1}``, ``{-1, 1}``, or ``pos_label``
        and one other label): ValueError naming ``y_true`` otherwise.
    label, score, weight : str
        Column names (DataFrames only).
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points are reported in ``Report.at``.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    n_ranges : int, default=None
        Score ranges swept in parallel (1 to 10,000); default the number of partitions.
    sample_per_partition : int, default=2000
        Scores sampled per partition to place the range splitters (1 to 1,000,000).

    Returns
    -------
    Report
        The same report as ``indist_fast.evaluate`` on all the rows at once.

    Examples
    --------
    >>> import dask.array as da
    >>> import indist_fast, indist_fast.dask
    >>> y = da.from_array([0, 0, 1, 1, 0, 1], chunks=3)
    >>> s = da.from_array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9], chunks=3)
    >>> r = indist_fast.dask.evaluate((y, s))
    >>> round(r.auc, 4), r.threshold, r.precision
    (0.8889, 0.35, 0.75)
    """
    dask = _dask()
    delayed = dask.delayed

    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
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
        if label is not None or score is not None or weight is not None:
            raise TypeError("label=, score= and weight= name DataFrame columns; with a tuple "
                            "of dask arrays pass the weights as its third item.")
        arrays = _check_arrays(collection)
        y = arrays[0]
        ys = list(y.to_delayed().ravel())
        ss = list(arrays[1].rechunk(y.chunks).to_delayed().ravel())
        ws = (list(arrays[2].rechunk(y.chunks).to_delayed().ravel()) if len(arrays) == 3
              else [None] * len(ys))
        parts = list(zip(ys, ss, ws))
        samples = [delayed(_sample)(sp, sample_per_partition) for _, sp, _ in parts]

        def make(p: Any, spl: np.ndarray) -> Any:
            return delayed(_partition_table)(p[0], p[1], p[2], pos_label, spl)
    else:
        if not _is_dask_frame(collection):
            raise TypeError("collection must be a dask DataFrame or a tuple (y, score[, "
                            f"weight]) of dask arrays, got {type(collection).__name__}.")
        if label is None or score is None:
            raise ValueError("a dask DataFrame needs the label and score column names.")
        check_columns((("label", label), ("score", score), ("weight", weight)),
                      collection.columns, "the DataFrame")
        parts = list(collection.to_delayed())
        samples = [delayed(lambda df: _sample(df[score].to_numpy(), sample_per_partition))(p)
                   for p in parts]
        def make(p: Any, spl: np.ndarray) -> Any:
            return delayed(_frame_partition)(p, label, score, weight, pos_label, spl)
    n_ranges = n_ranges or max(1, len(parts))
    splitters = _splitters(list(dask.compute(*samples)), n_ranges)
    pieces = [make(p, splitters) for p in parts]
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
    return Report.from_sweep(result, lv, sum(t.n_rows for t in totals), exclude_self)
