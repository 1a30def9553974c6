"""Exact evaluation of Spark DataFrames, without gathering rows on the driver.

1. ``mapInArrow`` on the rows: each partition's Arrow batches are validated once for all
   models (errors name the column, the Spark partition and the row by its values),
   numbered by segment and summarised into the score table of every (segment, model)
   by the compiled kernels (NumPy views of the Arrow columns, no pandas). Out comes a
   row per piece of each table: the segment keys, the model, the score range, the row
   count and label coding, and the entries (score, pos, neg) as one Arrow IPC record
   batch, so that Spark moves a few large values, not a row per distinct score.
2. Spark's shuffle brings the pieces of each (segment, model) to one task
   (``repartition`` by the segment columns, the model and the range).
3. ``mapInArrow`` there: the pieces of each (segment, model) swept together by the
   segment kernel (equal scores of different partitions added in its sort); out comes
   one row of sweep sums per (segment, model), or for ``score_table`` the merged
   tables.
4. The driver receives only those rows (``toArrow``), checks that the partitions'
   label codings agree, puts the segments in ``evaluate_many``'s order and builds
   the ``ReportTable`` from the sweeps.

One score without segments (a ``Report``): Spark's quantile sketch cuts the score
axis into ranges, step 3 merges each range's pieces, and ``scale.ranges``' passes sweep
the ranges in parallel over those tables kept in Spark's cache; the driver holds a few
numbers per range.

A (segment, model)'s merged table is a sufficient statistic of its rows, so the numbers
are those of ``evaluate``/``evaluate_many`` on all rows at once (bit for bit when the
weights' sums are exact: no weights, integer or dyadic ones). The driver holds one row
per (segment, model); one executor task holds the merged table of the (segment, model)
pairs it is given, an entry (24 bytes) per distinct score.

Needs the optional extra ``spark`` (pyspark >= 3.5, pyarrow). The executors' Python must
import this package: set ``PYSPARK_PYTHON`` (or ``spark.pyspark.python``) to the
interpreter that holds it.
"""

from __future__ import annotations

import contextlib
import functools
import pickle
import re
import warnings
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from ._core.records import SegmentSweeps, SweepResult
from ._core.engine import engine
from ._core.validation import (LabelCoding, Rows, check_columns, check_count, check_flag,
                               checked_classes,
                               check_levels, check_two_classes, combine_codings,
                               prepare_rows, with_scores)
from .errors import warn_one_class
from .io.frames import arrow_values, table_columns
from .scale import ranges
from .metrics.segment_tables import append_totals, entry_sweeps
from .metrics.segments import RESERVED, column_names, naming_scores, segment_codes
from .results.report import Report
from .results.report_table import ReportTable
from .table.score_table import DEFAULT_LEVELS, ScoreTable, with_main_level
from .table.segmented import SegmentedTables

__all__ = ["evaluate", "score_table"]

# Columns of the rows between the stages (segment columns may not take them): a piece
# of one (segment, model, score range)'s table per row, the table as an Arrow IPC
# stream of (score, pos, neg) in ``_TABLE``, so that Spark moves a few large values
# instead of a row per distinct score.
_MODEL, _RANGE, _PART, _ROWS, _CODING, _TABLE = ("_model", "_range", "_part", "_rows",
                                                 "_coding", "_table")
_WPOS, _WNEG, _GROUPS = "_weight_pos", "_weight_neg", "_groups"
_SWEEP_FIELDS = SegmentSweeps._fields[:-1]          # all but the crossings
_INTERNAL = frozenset({_MODEL, _RANGE, _PART, _ROWS, _CODING, _TABLE, _WPOS, _WNEG, _GROUPS,
                       "_crossings", "_values", *_SWEEP_FIELDS})
# Segments past which one NumPy sort of all rows beats a kernel call per segment.
_KERNEL_SEGMENTS = 1024
# Table entries per piece (24 bytes each): Spark's binary values stay far below 2 GB.
_PIECE = 1 << 20


@dataclass(frozen=True)
class _Spec:
    """What the executors need to know: the columns and the settings."""

    label: str
    models: tuple[str, ...]
    weight: str | None
    by: tuple[str, ...]
    pos_label: Any
    levels: tuple[float, ...]
    exclude_self: bool
    # Descending cuts of the score axis (one model, no segments): entries go to the
    # range of their score, ``scale.ranges.split_table``'s ranges.
    splitters: tuple[float, ...] = ()


def _pyspark() -> Any:
    try:
        from pyspark.sql import DataFrame
    except ImportError:
        raise ImportError("indist_fast.spark needs pyspark: pip install "
                          "'indist-fast[spark]'") from None
    return DataFrame


def _check_frame(df: Any, label: Any, score: Any, weight: Any, by: Any
                 ) -> tuple[list[str], list[str]]:
    frame_type = _pyspark()
    if not isinstance(df, frame_type):
        raise TypeError(f"df must be a pyspark.sql.DataFrame, got {type(df).__name__}.")
    if not isinstance(label, str):
        raise TypeError(f"label must be a column name, got {label!r}.")
    if weight is not None and not isinstance(weight, str):
        raise TypeError(f"weight must be a column name or None, got {weight!r}.")
    models = column_names(score, "score")
    by_names = [] if by is None else column_names(by, "by")
    check_columns([("label", label), ("weight", weight)] + [("score", m) for m in models]
                  + [("by", b) for b in by_names], df.columns, "the DataFrame")
    clash = sorted(set(by_names) & (RESERVED | _INTERNAL))
    if clash:
        raise ValueError(f"by: segment column name(s) {clash} would hide the table's own "
                         f"columns of that name; rename them (reserved: model, one_class, "
                         f"the Report fields and {', '.join(sorted(_INTERNAL))}).")
    return models, by_names


# ---- step 1, on the executors: rows to partial tables ----------------------------------

def _naming(spec: _Spec, model: str) -> Any:
    columns = {"y_true": f"label column {spec.label!r}"}
    if spec.weight is not None:
        columns["sample_weight"] = f"weight column {spec.weight!r}"
    return naming_scores(f"score column {model!r}", columns)


def _with_row(message: str, table: Any) -> str:
    """The message, with the Spark partition and the row it names shown by its values
    (a partition's row numbers mean nothing to the user)."""
    try:
        from pyspark import TaskContext
        context = TaskContext.get()
    except ImportError:             # the stage run outside Spark, on Arrow tables
        context = None
    where = f"Spark partition {context.partitionId()}" if context is not None else "a partition"
    found = re.search(r"at row (\d+)", message)
    if found is None or int(found.group(1)) >= table.num_rows:
        return f"{message} (in {where})"
    row = table.slice(int(found.group(1)), 1).to_pylist()[0]
    return f"{message} (row {found.group(1)} of {where}: {row})"


def _partial_tables(spec: _Spec, batches: Iterator[Any]) -> Iterator[Any]:
    import pyarrow as pa
    got = list(batches)
    if not got:
        return
    table = pa.Table.from_batches(got)
    if table.num_rows == 0:
        return
    try:
        yield from _summarise(spec, table)
    except (ValueError, TypeError) as exc:
        raise type(exc)(_with_row(str(exc), table)) from None


def _summarise(spec: _Spec, table: Any) -> Iterator[Any]:
    """One partition's rows as pieces of its (segment, model, range) tables."""
    import pyarrow as pa
    columns = table_columns(table, [("label", spec.label), ("weight", spec.weight)]
                            + [("score", m) for m in spec.models]
                            + [("by", b) for b in spec.by])
    y, w = columns[0], columns[1]
    scores, groups = columns[2:2 + len(spec.models)], columns[2 + len(spec.models):]
    rows: list[Rows] = []
    for model, s in zip(spec.models, scores):
        with _naming(spec, model):
            rows.append(prepare_rows(y, s, w, spec.pos_label) if not rows
                        else with_scores(rows[0], s))
    codes, n_segments, _ = segment_codes(list(groups), list(spec.by), rows[0].n_rows)
    n_rows = np.bincount(codes, minlength=n_segments)
    held = np.flatnonzero(n_rows)
    codes = (np.cumsum(n_rows > 0) - 1)[codes]
    first_row = np.full(len(held), len(codes), dtype=np.int64)
    np.minimum.at(first_row, codes, np.arange(len(codes)))
    keys = table.select(list(spec.by)).take(pa.array(first_row))
    coding = pickle.dumps(rows[0].coding)
    cuts = -np.asarray(spec.splitters, dtype=np.float64)
    pieces = []
    for m, (model, r) in enumerate(zip(spec.models, rows)):
        with _naming(spec, model):
            t = _segment_tables(r, codes, len(held))
        starts = np.searchsorted(t.codes, np.arange(len(held) + 1))
        for g, (a, b) in enumerate(zip(starts[:-1], starts[1:])):
            # the segment's entries are sorted by score: each range is a slice
            in_range = np.searchsorted(cuts, -t.scores[a:b])
            bounds = a + np.searchsorted(in_range, np.arange(len(cuts) + 2))
            for k in range(len(cuts) + 1):
                # every (segment, model, range) gets a piece, empty or not, so that each
                # reducer knows its triples; rows are counted once, in range 0
                pieces += _pieces(g, m, k, int(n_rows[held][g]) if k == 0 else 0, coding,
                                  t.scores[bounds[k]:bounds[k + 1]],
                                  t.pos[bounds[k]:bounds[k + 1]], t.neg[bounds[k]:bounds[k + 1]])
    yield from _batches(keys, pieces)


def _segment_tables(rows: Rows, codes: np.ndarray, n_segments: int) -> SegmentedTables:
    """The score table of each segment's rows: the compiled kernel's sort per segment
    (3-5x faster than ``SegmentedTables.from_rows``' NumPy sorts at a few segments),
    one NumPy sort of them all past ``_KERNEL_SEGMENTS`` segments (a kernel call each
    would cost more than it saves)."""
    if n_segments > _KERNEL_SEGMENTS:
        return SegmentedTables.from_rows(rows, codes)
    # Bad rows are named here, by their row in the partition: the kernel would number
    # them within their segment.
    checked_classes(rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value)
    order, bounds = _by_code(codes, n_segments)
    pieces = []
    for g, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
        take = order[a:b]
        part = Rows(rows.y[take], rows.s[take], None if rows.w is None else rows.w[take],
                    rows.pos_value, rows.neg_value, rows.coding)
        t = ScoreTable.from_rows(part)
        pieces.append((np.full(len(t), g, np.int64), t.scores, t.pos, t.neg))
    return SegmentedTables(*(np.concatenate([p[k] for p in pieces]) for k in range(4)))


def _by_code(codes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows in order of their code (stable), and where each code's rows start."""
    small = codes.astype(np.uint16) if n <= 2**16 else codes
    order = np.argsort(small, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=n))))
    return order, bounds


def _pieces(segment: int, model: int, in_range: int, n_rows: int, coding: bytes,
            scores: np.ndarray, pos: np.ndarray, neg: np.ndarray,
            totals: tuple[float, float, int] = (0.0, 0.0, 0)) -> list[tuple[Any, ...]]:
    """A table as rows of at most ``_PIECE`` entries (one row when empty): the row count,
    coding and totals on the first."""
    out = []
    for k, a in enumerate(range(0, max(len(scores), 1), _PIECE)):
        first = k == 0
        out.append((segment, model, in_range, k, n_rows if first else 0, coding,
                    _blob(scores[a:a + _PIECE], pos[a:a + _PIECE], neg[a:a + _PIECE]),
                    *(totals if first else (0.0, 0.0, 0))))
    return out


def _blob(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> bytes:
    import pyarrow as pa
    batch = pa.record_batch([pa.array(scores, pa.float64()), pa.array(pos), pa.array(neg)],
                            ["score", "pos", "neg"])
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return bytes(sink.getvalue())


def _unblob(blobs: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    import pyarrow as pa
    tables = [pa.ipc.open_stream(pa.py_buffer(b)).read_all() for b in blobs]
    return tuple(np.concatenate([t.column(c).to_numpy() for t in tables])  # type: ignore
                 for c in ("score", "pos", "neg"))


def _batches(keys: Any, pieces: list[tuple[Any, ...]]) -> Iterator[Any]:
    """The pieces as Arrow batches of a few rows each (one per large piece)."""
    import pyarrow as pa
    names = [_MODEL, _RANGE, _PART, _ROWS, _CODING, _TABLE, _WPOS, _WNEG, _GROUPS]
    types = [pa.int32(), pa.int32(), pa.int32(), pa.int64(), pa.binary(), pa.binary(),
             pa.float64(), pa.float64(), pa.int64()]
    start, size = 0, 0
    for i, piece in enumerate(pieces + [None]):
        if piece is not None and size < 64 << 20:
            size += len(piece[6])
            continue
        chunk = pieces[start:i]
        start, size = i, 0 if piece is None else len(piece[6])
        if not chunk:
            continue
        out = keys.take(pa.array([p[0] for p in chunk], pa.int64()))
        arrays = [out.column(c).combine_chunks() for c in out.column_names]
        arrays += [pa.array([p[j + 1] for p in chunk], t) for j, t in enumerate(types)]
        yield pa.RecordBatch.from_arrays(arrays, out.column_names + names)


# ---- steps 2 and 3: the pieces of each (segment, model, range) together, merged ---------

def _merged(spec: _Spec, table: Any) -> tuple[Any, tuple[np.ndarray, ...], np.ndarray, Any]:
    """The partition's (segment, model, range) triples: their keys, model and range
    (one Arrow row each), their entries unmerged (triple number, score, pos, neg),
    their rows, and their label coding."""
    import pyarrow as pa
    n_models, n_ranges = len(spec.models), len(spec.splitters) + 1
    groups = [arrow_values(table.column(b)) for b in spec.by]
    codes, n_segments, _ = segment_codes(groups, list(spec.by), table.num_rows)
    pair = ((codes * n_models + np.asarray(table.column(_MODEL)).astype(np.int64)) * n_ranges
            + np.asarray(table.column(_RANGE)).astype(np.int64))
    used, first, pair = np.unique(pair, return_index=True, return_inverse=True)
    pair = pair.reshape(-1)
    n_rows = np.zeros(len(used), dtype=np.int64)
    np.add.at(n_rows, pair, np.asarray(table.column(_ROWS)))
    blobs = table.column(_TABLE).to_pylist()
    parts = [_unblob([b]) for b in blobs]
    sizes = np.array([len(p[0]) for p in parts], dtype=np.int64)
    flat = (np.repeat(pair, sizes),
            *(np.concatenate([p[c] for p in parts]) for c in range(3)))
    keys = table.select(list(spec.by) + [_MODEL, _RANGE]).take(pa.array(first))
    coding = None
    with _naming(spec, spec.models[0]):
        for blob in set(table.column(_CODING).to_pylist()):
            coding = combine_codings(coding, pickle.loads(blob))
    return keys, flat, n_rows, coding


def _merged_tables(flat: tuple[np.ndarray, ...], n_rows: np.ndarray) -> list[ScoreTable]:
    """Each triple's entries merged into its table (weights of equal scores added) by
    the kernel's sort, the entries read as weighted rows of one class each."""
    pair, scores, pos, neg = flat
    order, bounds = _by_code(pair, len(n_rows))
    out = []
    for g, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
        take = order[a:b]
        k = len(take)
        got = engine().build_table(
            np.concatenate((np.ones(k), np.zeros(k))), np.concatenate((scores[take],) * 2),
            np.concatenate((pos[take], neg[take])).astype(np.float64), 1.0, 0.0)
        # counts come back as float sums of counts: exact below 2**53, made int again
        t_pos, t_neg = (np.asarray(x).astype(pos.dtype) for x in got[1:])
        out.append(ScoreTable._trusted(np.asarray(got[0]), t_pos, t_neg, int(n_rows[g])))
    return out


def _reduce_sweeps(spec: _Spec, batches: Iterator[Any]) -> Iterator[Any]:
    import pyarrow as pa
    got = list(batches)
    if not got:
        return
    keys, (pair, scores, pos, neg), n_rows, coding = _merged(spec, pa.Table.from_batches(got))
    sweeps = entry_sweeps(pair, scores, pos, neg, n_rows, with_main_level(spec.levels),
                          spec.exclude_self)
    columns = {name: keys.column(name) for name in keys.column_names if name != _RANGE}
    for name in _SWEEP_FIELDS:
        columns[name] = pa.array(getattr(sweeps, name))
    crossings = np.ascontiguousarray(sweeps.crossings, dtype=np.float64).reshape(len(n_rows), -1)
    columns["_crossings"] = _lists(crossings)
    columns[_CODING] = pa.array([pickle.dumps(coding)] * len(n_rows), pa.binary())
    yield from pa.table(columns).to_batches()


def _lists(flat: np.ndarray) -> Any:
    """The rows of a 2-D array as an Arrow list column (Spark reads no fixed-size list)."""
    import pyarrow as pa
    offsets = np.arange(len(flat) + 1, dtype=np.int32) * flat.shape[1]
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat.reshape(-1)))


def _reduce_tables(spec: _Spec, batches: Iterator[Any]) -> Iterator[Any]:
    import pyarrow as pa
    got = list(batches)
    if not got:
        return
    keys, flat, n_rows, coding = _merged(spec, pa.Table.from_batches(got))
    blob = pickle.dumps(coding)
    pieces = []
    models, in_range = keys.column(_MODEL).to_pylist(), keys.column(_RANGE).to_pylist()
    for k, t in enumerate(_merged_tables(flat, n_rows)):
        # the table's totals (``scale.ranges.range_totals``: weights summed in order)
        # ride on its first piece, so that the range passes need no pass for them
        totals = ranges.range_totals(t)
        pieces += _pieces(k, models[k], in_range[k], t.n_rows, blob, t.scores, t.pos, t.neg,
                          (totals.weight_pos, totals.weight_neg, totals.n_groups))
    yield from _batches(keys.select(list(spec.by)), pieces)


# ---- the passes over score ranges (one model, no segments), on the executors -------------

def _range_tables(batches: Iterator[Any]) -> Iterator[tuple[int, ScoreTable]]:
    """The merged range tables of a partition of ``_reduce_tables``' output."""
    import pyarrow as pa
    got = list(batches)
    if not got:
        return
    table = pa.Table.from_batches(got)
    in_range = np.asarray(table.column(_RANGE))
    order = np.lexsort((np.asarray(table.column(_PART)), in_range))
    blobs = table.column(_TABLE).to_pylist()
    n_rows = np.asarray(table.column(_ROWS))
    starts = np.flatnonzero(np.diff(in_range[order], prepend=-1))
    for a, b in zip(starts, np.append(starts[1:], len(order))):
        scores, pos, neg = _unblob([blobs[i] for i in order[a:b]])
        yield int(in_range[order[a]]), ScoreTable._trusted(
            scores, pos, neg, int(n_rows[order[a:b]].sum()))


def _range_pass(spec: _Spec, step: str, given: Any, batches: Iterator[Any]) -> Iterator[Any]:
    """Pass ``step`` of ``scale.ranges`` on each range of the partition: one row per
    range, its numbers as a list of doubles."""
    import pyarrow as pa
    ids, numbers = [], []
    for r, t in _range_tables(batches):
        if step == "shares":
            wp, wn, tp_above, fp_above = given
            res, g = ranges.range_shares(t, wp, wn, tp_above[r], fp_above[r],
                                         spec.exclude_self)
            out = [res.n_groups, res.n_undefined, res.weight_pos, res.weight_neg, res.auc,
                   res.average_precision, res.b_last, g]
        else:
            wp, wn, tp_above, fp_above, b_above = given
            res = ranges.range_crossings(t, wp, wn, tp_above[r], fp_above[r], b_above[r],
                                         with_main_level(spec.levels), spec.exclude_self)
            out = [res.b_last, *np.asarray(res.crossings, dtype=np.float64).reshape(-1)]
        ids.append(r)
        numbers.append(out)
    if ids:
        yield pa.RecordBatch.from_arrays(
            [pa.array(ids, pa.int32()), _lists(np.array(numbers, dtype=np.float64))],
            [_RANGE, "_values"])


# ---- the plan, on the driver --------------------------------------------------------------

def _schema(df: Any, spec: _Spec, reduced: str) -> Any:
    from pyspark.sql import types as T
    fields = [df.schema[b] for b in spec.by] + [T.StructField(_MODEL, T.IntegerType())]
    if reduced == "sweeps":
        counts = ("n_rows", "n_groups", "n_undefined")
        fields += [T.StructField(name, T.LongType() if name in counts else T.DoubleType())
                   for name in _SWEEP_FIELDS]
        fields += [T.StructField("_crossings", T.ArrayType(T.DoubleType())),
                   T.StructField(_CODING, T.BinaryType())]
    else:
        fields += [T.StructField(_RANGE, T.IntegerType()), T.StructField(_PART, T.IntegerType()),
                   T.StructField(_ROWS, T.LongType()), T.StructField(_CODING, T.BinaryType()),
                   T.StructField(_TABLE, T.BinaryType()), T.StructField(_WPOS, T.DoubleType()),
                   T.StructField(_WNEG, T.DoubleType()), T.StructField(_GROUPS, T.LongType())]
    return T.StructType(fields)


def _combine_passes(meta: Any, run: Any, n_levels: int) -> tuple[SweepResult, int]:
    """The passes of ``scale.ranges`` combined into the sweep of the whole table, and its
    rows. ``meta``: the reducers' rows of each range (its totals); ``run(step, given)``:
    the executors' rows of ``_range_pass`` for step ``"shares"``, then
    ``"crossings"``. Every partition of the rows sent every range a row: each range
    has its row, empty or not."""
    def numbers(step: str, given: Any) -> np.ndarray:
        got = run(step, given)
        values = np.asarray(got.column("_values").combine_chunks().flatten())
        return values.reshape(got.num_rows, -1)[np.argsort(np.asarray(got.column(_RANGE)))]

    meta = meta.filter(np.asarray(meta.column(_PART)) == 0)
    order = np.argsort(np.asarray(meta.column(_RANGE)))
    totals = [ranges.RangeTotals(float(wp), float(wn), int(n), int(rows)) for wp, wn, n, rows
              in zip(*(np.asarray(meta.column(c))[order] for c in (_WPOS, _WNEG, _GROUPS,
                                                                    _ROWS)))]
    tp_above, fp_above, wp, wn = ranges._offsets(totals)
    shares = [(SweepResult(int(v[0]), int(v[1]), v[2], v[3], v[4], v[5], v[6],
                           np.empty((0, 5))), float(v[7]))
              for v in numbers("shares", (wp, wn, tp_above, fp_above))]
    b_above = ranges.b_offsets(shares)
    crossings = [SweepResult(0, 0, wp, wn, 0.0, 0.0, v[0], v[1:].reshape(n_levels, -1))
                 for v in numbers("crossings", (wp, wn, tp_above, fp_above, b_above))]
    return (ranges.combine_ranges(totals, shares, crossings, n_levels),
            sum(t.n_rows for t in totals))


def _reduced(df: Any, spec: _Spec, reduced: str, n_partitions: int | None) -> Any:
    """Steps 1-3 as a Spark DataFrame (lazy): a row of sweep sums per (segment, model)
    (``reduced="sweeps"``), or the merged entries (``"tables"``)."""
    frame = df.select(*dict.fromkeys([spec.label, *spec.models, *(
        [] if spec.weight is None else [spec.weight]), *spec.by]))
    partial = _map(frame, functools.partial(_partial_tables, spec), _schema(df, spec, "tables"))
    n = n_partitions or max(1, frame.rdd.getNumPartitions())
    shuffled = partial.repartition(n, *spec.by, _MODEL, _RANGE)
    reducer = _reduce_sweeps if reduced == "sweeps" else _reduce_tables
    return _map(shuffled, functools.partial(reducer, spec), _schema(df, spec, reduced))


def _map(frame: Any, function: Any, schema: Any) -> Any:
    """``frame.mapInArrow``, without pyspark's warning that it does not support pandas 3
    (it checks pandas' version for every Python UDF; this path uses no pandas)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas",
                                FutureWarning)
        return frame.mapInArrow(function, schema)


def _arrow(out: Any) -> Any:
    """A (small) Spark DataFrame's rows as a pyarrow Table on the driver."""
    with _row_errors():
        if hasattr(out, "toArrow"):
            return out.toArrow()
        import pyarrow as pa            # pyspark 3.5 has no toArrow: its Arrow collector
        return pa.Table.from_batches(out._collect_as_arrow())


@contextlib.contextmanager
def _row_errors() -> Iterator[None]:
    """A bad row found on an executor reaches the driver as Spark's PythonException:
    raised again as the ValueError or TypeError it was there."""
    from pyspark.errors import PythonException
    try:
        yield
    except PythonException as exc:
        found = re.search(r"^(ValueError|TypeError): (.+)$", str(exc), re.MULTILINE)
        if found is None:
            raise
        kind = ValueError if found.group(1) == "ValueError" else TypeError
        raise kind(found.group(2)) from None


def _splitters(df: Any, score: str, n_ranges: int) -> tuple[float, ...]:
    """Cuts of the score axis into ranges of similar size, from Spark's quantile
    sketch of the score column (one pass over that column alone)."""
    if n_ranges <= 1:
        return ()
    from pyspark.errors import PySparkException
    try:
        cuts = np.asarray(df.approxQuantile(score, list(1.0 - np.arange(1, n_ranges) / n_ranges),
                                            0.1 / n_ranges), dtype=np.float64)
    except PySparkException:
        return ()           # scores that are not numbers: step 1 names the column
    cuts = cuts[~np.isnan(cuts)]
    return tuple(np.unique(cuts)[::-1].tolist())      # descending, no empty ranges


def _sweep_ranges(df: Any, spec: _Spec, n_partitions: int | None
                  ) -> tuple[tuple[SweepResult, int], LabelCoding]:
    """One model's sweep, score range by score range (``scale.ranges``' three passes
    on the executors, over the merged range tables kept in Spark's cache)."""
    from pyspark import StorageLevel
    n = n_partitions or max(1, df.rdd.getNumPartitions())
    spec = _Spec(spec.label, spec.models, spec.weight, spec.by, spec.pos_label, spec.levels,
                 spec.exclude_self, _splitters(df, spec.models[0], n))
    tables = _reduced(df, spec, "tables", n).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        meta = _arrow(tables.drop(_TABLE))
        coding = _coding_of(meta, spec)
        # (the passes read the tables alone: the codings stay in the JVM)
        entries = tables.select(_RANGE, _PART, _ROWS, _TABLE)

        def run(step: str, given: Any) -> Any:
            return _arrow(_map(entries, functools.partial(_range_pass, spec, step, given),
                               "_range int, _values array<double>"))

        result = _combine_passes(meta, run, len(with_main_level(spec.levels)))
    finally:
        tables.unpersist()
    return result, coding


def _coding_of(result: Any, spec: _Spec) -> LabelCoding:
    coding: LabelCoding | None = None
    with _naming(spec, spec.models[0]):
        for blob in set(result.column(_CODING).drop_null().to_pylist()):
            coding = combine_codings(coding, pickle.loads(blob))
    if coding is None:
        raise ValueError("df holds no rows.")
    return coding


def _order(result: Any, spec: _Spec
           ) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray, np.ndarray]:
    """The rows of ``result`` in ``evaluate_many``'s order: segments sorted by their
    values, models in the order given, then score ranges and pieces; with each
    segment's values, and the segment and model of every row."""
    keys = [arrow_values(result.column(b)) for b in spec.by]
    codes, _, values = segment_codes(keys, list(spec.by), result.num_rows)
    model = np.asarray(result.column(_MODEL))
    later = [np.asarray(result.column(c)) for c in (_PART, _RANGE) if c in result.column_names]
    order = np.lexsort((*later, model, codes))
    present = np.unique(codes)
    dense = np.searchsorted(present, codes)
    return order, {k: v[present] for k, v in values.items()}, dense[order], model[order]


def _report_table(result: Any, spec: _Spec) -> ReportTable:
    """The ``ReportTable`` of the reducers' rows of sweep sums (``_reduce_sweeps``)."""
    _coding_of(result, spec)
    rows, values, _, _ = _order(result, spec)
    taken = result.take(rows)
    n_models = len(spec.models)
    crossings = np.asarray(taken.column("_crossings").combine_chunks().flatten()).reshape(
        len(rows), len(with_main_level(spec.levels)), -1)
    sweeps = [SegmentSweeps._make([np.asarray(taken.column(name))[m::n_models]
                                   for name in _SWEEP_FIELDS] + [crossings[m::n_models]])
              for m in range(n_models)]
    return ReportTable._from_sweeps(list(spec.by), values, list(spec.models), sweeps,
                                    spec.levels, spec.exclude_self)


def evaluate(df: Any, *, label: str, score: str | Sequence[str], weight: str | None = None,
             by: str | Sequence[str] | None = None, pos_label: Any = None,
             levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
             total: bool = False, n_partitions: int | None = None
             ) -> Report | ReportTable:
    """``indist_fast.evaluate`` (one score) or ``evaluate_many`` (several scores, or
    segments) on a Spark DataFrame, exactly, computed on the executors.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows.
    label : str
        The label column: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    score : str or sequence of str
        The score column, or several (one model each).
    weight : str, default=None
        A column of non-negative finite frequency weights.
    by : str or sequence of str, default=None
        Segment columns; several segment by their combinations. A null in one is a
        ValueError naming the column.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points are reported in ``Report.at``.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    total : bool, default=False
        Also give each model's report over all rows (segment columns None there), as
        ``evaluate_many(total=True)``; costs one more pass over ``df``.
    n_partitions : int, default=None
        Partitions of the shuffle that brings each (segment, model)'s entries together
        (1 to 100,000); default the partitions of ``df``.

    Returns
    -------
    Report or ReportTable
        For one score named by a str, no ``by`` and no ``total``, the ``Report`` of
        ``indist_fast.evaluate`` on the rows. Otherwise the ``ReportTable`` of
        ``indist_fast.evaluate_many(rows, label=, score=, by=, weight=)``: the same
        columns, rows and values (bit for bit when the weights' sums are exact: no
        weights, integer or dyadic ones), and the same warning for segments of one
        class.

    Raises
    ------
    ValueError
        For a bad row (NaN score, third label, negative weight, null segment): the
        message names the column, the Spark partition and the row by its values.

    Notes
    -----
    Each partition's rows become score tables on its executor (``mapInArrow``, the
    compiled kernels), Spark's shuffle brings each (segment, model)'s pieces to one
    task, which merges and sweeps them: the driver receives one row per (segment,
    model). A (segment, model)'s merged table, an entry per distinct score, must fit
    one executor task's memory. The executors' Python must hold indist_fast (set
    ``PYSPARK_PYTHON``).

    Examples
    --------
    >>> import indist_fast.spark
    >>> rows = [(0, .1, .5, "de"), (1, .9, .4, "de"), (1, .8, .9, "de"), (0, .3, .1, "de"),
    ...         (1, .6, .8, "se"), (0, .2, .3, "se"), (0, .4, .6, "se"), (1, .7, .2, "se")]
    >>> df = spark.createDataFrame(rows, ["y", "m1", "m2", "country"])  # doctest: +SKIP
    >>> t = indist_fast.spark.evaluate(df, label="y", score=["m1", "m2"],
    ...                                by="country")  # doctest: +SKIP
    >>> t.columns["auc"].tolist()  # doctest: +SKIP
    [1.0, 0.75, 1.0, 0.5]
    >>> r = indist_fast.spark.evaluate(df, label="y", score="m1")  # doctest: +SKIP
    >>> round(r.auc, 4)  # doctest: +SKIP
    0.9375
    """
    models, by_names = _check_frame(df, label, score, weight, by)
    spec = _Spec(label, tuple(models), weight, tuple(by_names), pos_label,
                 check_levels(levels), check_flag(exclude_self, "exclude_self"))
    total = check_flag(total, "total")
    if n_partitions is not None:
        n_partitions = check_count(n_partitions, "n_partitions", maximum=100_000)
    if isinstance(score, str) and not by_names and not total:
        (sweep, n_rows), _ = _sweep_ranges(df, spec, n_partitions)
        check_two_classes(sweep.weight_pos, sweep.weight_neg)
        return Report.from_sweep(sweep, spec.levels, n_rows, spec.exclude_self)
    table = _report_table(_arrow(_reduced(df, spec, "sweeps", n_partitions)), spec)
    warn_one_class(int(np.count_nonzero(table.columns["one_class"])), len(table))
    if not total:
        return table
    whole = evaluate(df, label=label, score=models, weight=weight, pos_label=pos_label,
                     levels=spec.levels, exclude_self=spec.exclude_self,
                     n_partitions=n_partitions)
    assert isinstance(whole, ReportTable)
    columns = dict(whole.columns)
    for name in by_names:
        columns[name] = np.array([None] * len(whole), dtype=object)
    totals = ReportTable(tuple(by_names), {name: columns[name] for name in table.columns},
                         whole.levels, whole.exclude_self)._with_sources(whole._sources)
    return append_totals(table, totals)


def _score_tables(result: Any, spec: _Spec) -> dict[tuple[Any, ...], ScoreTable]:
    """The table of each (segment..., model) from the reducers' merged pieces
    (``_reduce_tables``), score ranges joined."""
    coding = _coding_of(result, spec)
    rows, values, segment, model = _order(result, spec)
    blobs = result.column(_TABLE).to_pylist()
    n_rows = np.asarray(result.column(_ROWS))
    out: dict[tuple[Any, ...], ScoreTable] = {}
    cut = np.flatnonzero(np.diff(segment) | np.diff(model)) + 1
    for pieces in np.split(np.arange(len(rows)), cut):
        k = int(pieces[0])
        key = tuple(values[name][segment[k]] for name in spec.by) + (spec.models[model[k]],)
        out[key] = ScoreTable(*_unblob([blobs[r] for r in rows[pieces]]),
                              int(n_rows[rows[pieces]].sum()), coding)
    return out


def score_table(df: Any, *, label: str, score: str | Sequence[str], weight: str | None = None,
                by: str | Sequence[str] | None = None, pos_label: Any = None,
                n_partitions: int | None = None
                ) -> ScoreTable | dict[tuple[Any, ...], ScoreTable]:
    """The ``ScoreTable`` of a Spark DataFrame's rows (or one per segment and model),
    built on the executors.

    Read it for what a ``Report`` does not hold: ``table.curves()`` (every operating
    point), ``table.calibration()``, ``table.ks()``, ``table.gains()``,
    ``table.top_k()``.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows.
    label, weight : str
        Column names (weight optional).
    score : str or sequence of str
        The score column, or several (one model each).
    by : str or sequence of str, default=None
        Segment columns.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    n_partitions : int, default=None
        Partitions of the shuffle that merges the tables (1 to 100,000); default the
        partitions of ``df``.

    Returns
    -------
    ScoreTable or dict
        For one score named by a str and no ``by``, the table ``ScoreTable.from_arrays``
        gives on the rows. Otherwise a dict from ``(*segment values, model)`` to the
        table of that segment's rows and model, in ``evaluate_many``'s order. Each holds
        an entry per distinct score, 24 bytes each, and must fit the driver's memory.

    Examples
    --------
    >>> import indist_fast.spark
    >>> df = spark.createDataFrame([(0, .1), (0, .4), (1, .4), (1, .8)],
    ...                            ["y", "s"])  # doctest: +SKIP
    >>> t = indist_fast.spark.score_table(df, label="y", score="s")  # doctest: +SKIP
    >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()  # doctest: +SKIP
    ([0.8, 0.4, 0.1], [1, 1, 0], [0, 1, 1])
    """
    models, by_names = _check_frame(df, label, score, weight, by)
    spec = _Spec(label, tuple(models), weight, tuple(by_names), pos_label, (0.5,), True)
    if n_partitions is not None:
        n_partitions = check_count(n_partitions, "n_partitions", maximum=100_000)
    one = isinstance(score, str) and not by_names
    if one:
        # One table: merged in score ranges on the executors, concatenated here.
        n = n_partitions or max(1, df.rdd.getNumPartitions())
        spec = _Spec(label, tuple(models), weight, (), pos_label, (0.5,), True,
                     _splitters(df, models[0], n))
    out = _score_tables(_arrow(_reduced(df, spec, "tables", n_partitions)), spec)
    if one:
        return out[(models[0],)]
    return out
