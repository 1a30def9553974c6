"""Evaluate prediction logs in files, in memory or out of core, with exact results.

Scaling path and memory model (bytes per row; s = bytes of a score, 4 or 8):

- **In memory** (``evaluate`` on arrays): the inputs plus ``s`` for the per-class score
  buffers (no table is built without weights); with weights ``8 + 16`` more.
- **Memory-mapped files** (``.npy`` of a plain structured array read in chunks,
  ``.npz`` members stored without compression mapped directly): mapped pages count
  toward RSS as they are touched; when the data fit the memory limit the mapped
  columns go straight to ``evaluate``.
- **Parquet row groups straight into the sort** (one score of float32 or float64, 0/1
  or bool labels of a kernel dtype, no weight, no ``pos_label``, two row groups or
  more, from ``GROUPS_MIN_ROWS`` rows, within ``memory_limit``): each row group is
  decoded on one of two threads and written at once into the engine's radix buckets
  (``s`` bytes per row of words); the columns are never held whole. A null, a NaN
  score, another label or one class sends the file the long way (decoded whole, or in
  chunks), which names the problem.
- **Out of core** (the data exceed ``memory_limit``): chunks are sorted into runs on
  disk (``s`` bytes per row, in one unnamed temporary file that the system frees
  however the process ends, even on SIGKILL) and one k-way merge sweeps them all;
  memory stays around a chunk. With weights each chunk (a quarter of the limit) becomes
  a score table parked on disk (24 bytes per distinct score of the chunk); the tables
  are then swept by score range, each range merged from every table's slice of it
  within half the limit (``weighted_runs``). Measured peaks (VmHWM, 5e6 rows of
  Parquet, ``benchmarks/studies/memory_limit.py``) stay within the import's, plus
  the reader's own (a row group decoded whole, pyarrow's pool), plus the limit.
- **Chunked formats** (Parquet row groups, CSV blocks, Arrow IPC record batches,
  compressed CSV) use the same two paths; a dataset of files (a folder, hive
  partitions, a glob, a list) is read file after file as one stream of chunks.
- **Several models, segments** (``score=[...]``, ``by=``): in memory the columns go to
  ``evaluate_many`` when ``rows x (column bytes + 8 + 1 + 8 per model (+ 8 weights) +
  40)`` fits ``memory_limit``. Beyond it, rows are numbered by segment as they stream
  (a dict of segment values: memory grows with the number of segments, not rows) and
  parked in one unnamed temporary file by bucket: ranges of segments sized so that a
  bucket's rows (codes, class, weights, scores) and its sweep take half the limit.
  Chunks are sized to a quarter of it (about ``72 + 16`` per model bytes a row on
  their way). Each bucket is then read back and swept in memory; a bucket that grew
  past its size is split once (segment sizes are known by then), and a single segment
  larger than the bucket size is evaluated model by model as one score is (sorted
  runs on disk, or with weights parked score tables swept by range). The table is put in sorted
  segment order at the end. Measured peak RSS beyond the imports (pyarrow, pandas),
  4e6 rows of Parquet, two float32 models, 1,000 segments: ``memory_limit="50MB"``
  +77 MB, ``"200MB"`` +141 MB, in memory +273 MB (one score out of core at 50MB:
  +100 MB); the excess at small limits is the Parquet reader's buffers.
- **Dask** (``indist_fast.dask``): per-partition tables merged across the cluster.
"""

from __future__ import annotations

import itertools
import os
import re
import tempfile
from typing import Any, Iterable, Literal, Sequence, TypeAlias, overload

import numpy as np

from .._core.engine import engine
from .._core.page_release import OwnedRows
from .._core.validation import (check_flag, check_levels, combine_codings, labels_as_coded,
                                prepare_rows)
from ..inference.segment_bootstrap import bootstrap_settings
from ..io import Source, naming_columns, open_source, page_release, typed_pos_label
from ..io.source import RowGroupReader
from ..metrics.evaluation import evaluate
from ..metrics.periods import check_freq
from ..metrics.segments import RESERVED, column_names
from ..results.report import Report
from ..results.report_table import ReportTable
from ..table.score_table import DEFAULT_LEVELS, ScoreTable, with_main_level
from .file_periods import evaluate_periods
from .file_plan import TablePlan
from .file_stream import (CountedChunks, Progress, drain, no_rows, read_while_it_fits,
                          rows_in_files)
from .run_files import RunFile, check_tmp_dir
from .weighted_runs import WeightedRuns

__all__ = ["evaluate_file", "parse_memory"]

_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}
# Working bytes per row of a chunk on its way to a run: copied columns, the scatter
# buffers and NumPy's sort, with room to spare.
_CHUNK_BYTES_PER_ROW = 48
# A weighted chunk's columns (up to 8 + 8 + 8) and the building of its score table
# (about 48 bytes a row at its peak, measured: the sort's keys and the table).
_WEIGHTED_CHUNK_BYTES_PER_ROW = 72


def parse_memory(limit: Any) -> int:
    """Bytes from ``"1GB"``, ``"512MiB"``, an int, or None (half the machine's RAM).

    Parameters
    ----------
    limit : int, str or None
        Bytes, or a number with a unit (``B``, ``KB``, ``MB``, ``GB``, ``KiB``, ...).

    Returns
    -------
    int
        The limit in bytes.

    Examples
    --------
    >>> from indist_fast.scale.files import parse_memory
    >>> parse_memory("1GB"), parse_memory("512MiB"), parse_memory(1000)
    (1000000000, 536870912, 1000)
    """
    if limit is None:
        try:
            total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            total = 8 * 10**9
        return int(total // 2)
    if isinstance(limit, bool):
        raise TypeError(f"memory_limit must be bytes or a string like '1GB', got {limit!r}.")
    if isinstance(limit, (int, np.integer)):
        if limit <= 0:
            raise ValueError(f"memory_limit must be positive, got {limit}.")
        return int(limit)
    if isinstance(limit, str):
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([A-Za-z]*)\s*", limit)
        if m and m.group(2).upper() in _UNITS:
            value = float(m.group(1)) * _UNITS[m.group(2).upper()]
            if value > 0:
                return int(value)
    raise ValueError(f"memory_limit must be bytes or a string like '1GB', got {limit!r}.")


_Paths: TypeAlias = "str | os.PathLike[str] | Sequence[str | os.PathLike[str]]"


@overload
def evaluate_file(path: _Paths, *, label: str, score: str, by: None = None,
                  weight: str | None = None, pos_label: Any = None,
                  levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
                  memory_limit: Any = None, progress: bool | None = None,
                  tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: Literal[False] = False,
                  n_boot: None = None, seed: Any = 0, confidence: float = 0.95,
                  filesystem: Any = None, time: None = None,
                  freq: Any = None) -> Report: ...


@overload
def evaluate_file(path: _Paths, *, label: str, score: str | Sequence[str],
                  by: str | Sequence[str] | None = None, weight: str | None = None,
                  pos_label: Any = None, levels: Iterable[float] = DEFAULT_LEVELS,
                  exclude_self: bool = True, memory_limit: Any = None,
                  progress: bool | None = None, tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: bool = False, n_boot: int | None = None,
                  seed: Any = 0, confidence: float = 0.95, filesystem: Any = None,
                  time: str, freq: Any = None) -> ReportTable: ...


@overload
def evaluate_file(path: _Paths, *, label: str, score: list[str] | tuple[str, ...],
                  by: str | Sequence[str] | None = None, weight: str | None = None,
                  pos_label: Any = None, levels: Iterable[float] = DEFAULT_LEVELS,
                  exclude_self: bool = True, memory_limit: Any = None,
                  progress: bool | None = None, tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: bool = False, n_boot: int | None = None,
                  seed: Any = 0, confidence: float = 0.95, filesystem: Any = None,
                  time: str | None = None,
                  freq: Any = None) -> ReportTable: ...


@overload
def evaluate_file(path: _Paths, *, label: str, score: str, by: str | Sequence[str],
                  weight: str | None = None, pos_label: Any = None,
                  levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
                  memory_limit: Any = None, progress: bool | None = None,
                  tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: bool = False, n_boot: int | None = None,
                  seed: Any = 0, confidence: float = 0.95, filesystem: Any = None,
                  time: str | None = None,
                  freq: Any = None) -> ReportTable: ...


def evaluate_file(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
                  label: str, score: str | Sequence[str],
                  by: str | Sequence[str] | None = None, weight: str | None = None,
                  pos_label: Any = None, levels: Iterable[float] = DEFAULT_LEVELS,
                  exclude_self: bool = True, memory_limit: Any = None,
                  progress: bool | None = None, tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: bool = False, n_boot: int | None = None,
                  seed: Any = 0, confidence: float = 0.95, filesystem: Any = None,
                  time: str | None = None,
                  freq: Any = None) -> Report | ReportTable:
    """``evaluate`` (or ``evaluate_many``) on columns of files, exactly, whatever their size.

    One score column without ``by`` gives the ``Report`` ``indist_fast.evaluate``
    gives on the same columns as NumPy arrays; a list of score columns (even of one)
    or any ``by`` gives the ``ReportTable`` of ``indist_fast.evaluate_many`` on them
    (models in the order listed, segments in sorted order) -- whether the data fit in
    memory or not. Parquet, CSV and Arrow columns may have any type pandas, polars or
    pyarrow write: booleans, integers, floats, decimals (read as the nearest float64),
    strings and dictionaries (categoricals, read as their values; text labels need
    ``pos_label``).

    Exactly means every row and every operating point counts: no binning, sampling or
    approximation. Out of core, the sums run over merged runs in another order than
    in memory, so the two may differ by the rounding of adding the same terms in
    another order: without weights the AUC by an ulp or so, and the counts, and so
    the thresholds found, are the same; with weights, the weights' running sums round
    in another order too, so AUC, average precision and B differ by at most about
    ``n * eps`` relative in theory (measured: a few tens of ulp at 5e6 rows, where the
    in-memory AUC is itself about 170 ulp from a compensated sum and the out-of-core
    one 10), and a threshold where B lies within rounding of a level could move to its
    neighbour. Weights whose sums are exact (integers, or multiples of a power of two
    such as 1/64) give the same AUC to an ulp either way.

    Parameters
    ----------
    path : str, path-like, or a list of them
        A file: ``.parquet``, ``.csv`` (also compressed: ``.csv.gz``, ``.csv.bz2``,
        ``.csv.zst``, ``.csv.lz4``), ``.feather``/``.arrow``/``.ipc`` (Arrow IPC),
        ``.npy`` (structured array) or ``.npz``. Or a dataset of such files, read one
        after another: a folder (recursively; names starting with ``.`` or ``_`` are
        skipped; ``key=value`` folder names are hive partition keys, usable in ``by``;
        a file that holds a partition key's column too must agree with its folder),
        a glob pattern (``"logs/*.parquet"``, ``**`` for any depth) or a list of paths.
        Every file of a dataset has the same format and the used columns. Any of
        these may be a URI in an object store (``"s3://bucket/logs/"``, ``gs://``,
        ``abfs://``, ``hdfs://``, ``file://``: the schemes pyarrow's filesystems or
        fsspec resolve), read with the credentials of the standard environment
        (``AWS_ACCESS_KEY_ID``, ``AWS_ENDPOINT_URL``...); ``.npy`` and ``.npz`` are
        read from a local disk only. Nothing is written to the store.
    label, weight : str
        Column names (weight optional).
    score : str or list of str
        The score column, or the columns of several models.
    by : str or list of str, default=None
        Segment columns (file columns or partition keys): a table row per segment
        and model.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points are reported.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    memory_limit : int or str, default=None
        Working memory the evaluation may use, like ``"1GB"``; default half the
        machine's RAM. Every reader holds one bounded chunk of a file at a time. Beyond
        the limit, one unweighted score is sorted into runs on disk and merged in one
        sweep (weighted: each chunk's score table parked on disk, then swept by score
        range); a table's rows are parked on
        disk by segment, in buckets that each fit the limit, and every bucket is
        evaluated in memory (a segment larger than the limit alone, model by model, as
        one score is). See the module's notes for what bounds memory.
    progress : bool or None, default=None
        A progress bar on stderr (tqdm), over rows, or over bytes read where the rows
        are not known up front (compressed CSV, datasets), then over the bootstrap
        replicates with ``n_boot``; None shows it when stderr is a terminal or in
        Jupyter (``INDIST_FAST_PROGRESS=0`` turns that off).
    tmp_dir : str or path-like, default=None
        The folder for the data parked on disk (default: the system's temporary
        folder). It must exist and be writable; this is checked before any data is
        read. They live in one unnamed file that the system deletes however the
        process ends (also on SIGTERM or SIGKILL); sorted runs need ``4`` or ``8``
        bytes per row (float32 or float64 scores), a table's rows their columns' bytes.
    total, n_boot, confidence
        A table's totals and bootstrap intervals, as in ``evaluate_many`` (they make a
        table even of one score). They need every row in memory: beyond
        ``memory_limit`` they are refused (ValueError naming them) rather than dropped.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the bootstrap replicates (with ``n_boot``), as in ``evaluate_many``:
        the same call gives the same intervals. None draws fresh entropy from the OS.
    drop_nulls : bool, default=False
        Skip the rows with a null (missing value) in a used column. By default a
        null is an error naming the column and its first row (counting data rows
        from 0). To drop them before writing the file instead: pandas
        ``df.dropna(subset=[label, score])``, polars ``df.drop_nulls([label, score])``,
        pyarrow ``table.drop_null()``. In CSV files empty fields and markers such as
        ``NA``, ``NaN`` or ``null`` are nulls. NaN stored as a float (``.npy``,
        ``.npz``, Parquet) is not a null: it is an error as in ``evaluate``.
    filesystem : pyarrow.fs.FileSystem or fsspec.AbstractFileSystem, default=None
        The filesystem ``path`` is in, for settings the environment does not give
        (an endpoint, credentials, timeouts): ``path`` is then a path in it, such as
        ``"bucket/logs/"`` (a URI's scheme is dropped). By default each URI's own
        filesystem, local paths the local disk.
    time : str, default=None
        A time column (datetimes, or numbers of seconds): the table then has a row per
        period of ``freq`` (the first segment column, ``period``: each period's start),
        as ``indist_fast.over_time``. With one score and no ``by``, when the columns
        fit ``memory_limit``, it is ``over_time``'s table, drift tests included
        (``ReportTable.drift``, reference the first period); otherwise (several
        scores, segments, or beyond the limit, out of core) the metrics alone.
    freq : str, timedelta or number, default=None
        The length of a period with ``time`` (one day when None), in ``over_time``'s
        forms (``"1h"``, ``"1D"``, ``"1W"``, a number of seconds).

    Returns
    -------
    Report or ReportTable
        A ``Report`` for one score (a str) without ``by`` or ``time``; otherwise a
        ``ReportTable``.

    Raises
    ------
    FileNotFoundError
        No file at ``path``.
    ValueError, TypeError
        Bad arguments or contents; the message starts with the argument at fault
        (``path``, ``label``, ``score``, ``by``, ``weight``, ``tmp_dir``,
        ``memory_limit``...). A bad value found in the rows gives the in-memory
        message under the role, column and file, e.g. ``score: column 'p' of
        d.parquet: y_score contains NaN (first at row 5) ...``, with the row counted
        in its file (``at row 5 of logs/day=3/part-0.parquet`` in a dataset). A folder
        without data files or with files of several formats, a pattern matching
        nothing, files that disagree on a column's type: ``ValueError`` naming
        ``path`` and the file. A full disk is a ``ValueError`` naming ``tmp_dir``.

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> from indist_fast import evaluate, evaluate_file
    >>> y, p = [0, 1, 1, 0], [0.1, 0.9, 0.4, 0.5]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     np.savez(os.path.join(folder, "log.npz"), y=y, p=p, q=[.2, .3, .6, .1])
    ...     r = evaluate_file(os.path.join(folder, "log.npz"), label="y", score="p",
    ...                       levels=(0.5,), progress=False)
    ...     t = evaluate_file(os.path.join(folder, "log.npz"), label="y",
    ...                       score=["p", "q"], levels=(0.5,), progress=False)
    >>> r.auc == evaluate(y, p, levels=(0.5,)).auc
    True
    >>> t.columns["model"].tolist(), t.columns["auc"].tolist()
    (['p', 'q'], [0.75, 1.0])
    """
    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
    if progress is not None:              # None: decided by the terminal, see Progress
        progress = check_flag(progress, "progress")
    limit = parse_memory(memory_limit)
    folder = check_tmp_dir(tmp_dir)
    total = check_flag(total, "total")
    boot = bootstrap_settings(n_boot, seed, confidence, progress)   # before reading
    if time is None and freq is not None:
        raise ValueError(f"freq: {freq!r} is the length of a period of time=, which is not "
                         "given: pass time= (the time column) as well, or leave freq out.")
    periods = None if time is None else check_freq("1D" if freq is None else freq)
    if isinstance(score, str) and by is None and not total and n_boot is None \
            and periods is None:
        cols = {"label": label, "score": score, "weight": weight}
        src = open_source(path, cols, drop_nulls=drop_nulls, filesystem=filesystem)
        with naming_columns(path, cols):
            return _evaluate_source(src, path, cols, pos_label, lv, exclude_self, limit,
                                    progress, folder, drop_nulls)
    scores = column_names(score, "score")
    by_names = [] if by is None else column_names(by, "by")
    clash = sorted(set(by_names) & RESERVED)
    if clash:
        raise ValueError(f"by: segment column name(s) {clash} would hide the table's own "
                         "columns of that name; rename them (reserved: model, one_class "
                         "and the Report fields).")
    if periods is not None:
        if not isinstance(time, str):
            raise TypeError(f"time must be a column name (str), got {time!r}.")
        if time in by_names or "period" in by_names:
            raise ValueError(f"by: {by_names} holds the time column or 'period', which "
                             "time= makes the first segment column.")
        by_names = [time] + by_names
    cols = {"label": label, "score": scores[0], "weight": weight,
            **{f"score#{k}": s for k, s in enumerate(scores[1:], 1)},
            **{f"by#{k}": b for k, b in enumerate(by_names)}}
    if periods is not None:
        return evaluate_periods(path, cols, periods, pos_label, lv, exclude_self, limit,
                                folder, drop_nulls, total, boot, progress, filesystem)
    src = open_source(path, cols, drop_nulls=drop_nulls, filesystem=filesystem)
    plan = TablePlan(path, cols, pos_label, lv, exclude_self, limit, folder, drop_nulls, total,
                     boot)
    with naming_columns(path, cols):
        return plan.evaluate(src, progress)


def _evaluate_source(src: Source, path: Any, cols: dict[str, str | None], pos_label: Any,
                     lv: tuple[float, ...], exclude_self: bool, limit: int,
                     progress: bool | None, folder: str | None, drop_nulls: bool) -> Report:
    """``evaluate_file`` of one score once its arguments are checked and its source
    opened."""
    if src.whole is not None and src.n_rows is not None and \
            src.n_rows * (src.bytes_per_row + 16) <= limit:
        y, s, w = src.whole()
        if len(s) == 0:
            raise no_rows(path, drop_nulls)
        pos_label = typed_pos_label(pos_label, y)
        if w is None:
            return _mapped(y, s, pos_label, lv, exclude_self)
        return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=lv,
                        exclude_self=exclude_self)
    fits = src.n_rows is not None and src.n_rows * (src.bytes_per_row + 16) <= limit
    if (src.row_groups is not None and fits and pos_label is None
            and sum(src.row_groups.sizes) >= GROUPS_MIN_ROWS):
        report = _by_row_groups(src.row_groups, lv, exclude_self)
        if report is not None:
            return report
    if src.read_all is not None and fits:
        columns = src.read_all()
        if columns is not None:
            y, s, w = columns
            if len(s) == 0:
                raise no_rows(path, drop_nulls)
            with rows_in_files(src):
                pos_label = typed_pos_label(pos_label, y)
                if w is None:
                    return _owned(y, s, pos_label, lv, exclude_self)
                return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=lv,
                                exclude_self=exclude_self)
    if cols["weight"] is None:
        rows_per_chunk = max(10_000, limit // _CHUNK_BYTES_PER_ROW)
    else:       # a chunk's table is built in memory: a quarter of the limit for it
        rows_per_chunk = max(10_000, limit // 4 // _WEIGHTED_CHUNK_BYTES_PER_ROW)
    bar = Progress(progress, src)
    try:
        buffered, rest = read_while_it_fits(src.chunks(rows_per_chunk), limit // 4, bar)
        if buffered:             # the label column's type is known from its first chunk
            pos_label = typed_pos_label(pos_label, buffered[0][0])
        if rest is None:                     # the whole file fitted: evaluate in memory
            if sum(len(chunk[1]) for chunk in buffered) == 0:
                raise no_rows(path, drop_nulls)
            y, s, w = (None if c[0] is None else np.concatenate(c) for c in zip(*buffered))
            with rows_in_files(src):
                return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=lv,
                                exclude_self=exclude_self)
        chunks = CountedChunks(itertools.chain(drain(buffered), rest), src)
        try:
            if cols["weight"] is not None:
                return _weighted_out_of_core(chunks, pos_label, lv, exclude_self, bar,
                                             folder, limit // 2)
            return _out_of_core(src, chunks, pos_label, lv, exclude_self, bar, folder,
                                held_bytes=limit // 4)
        except ValueError as exc:
            chunks.name_file_row(exc)
            raise
    finally:
        bar.close()


# From this many rows on, a Parquet file's row groups go straight into the engine's
# buckets as they are decoded (``_by_row_groups``); below it the columns are decoded
# whole first, and the engine's paths for few rows take them. Read at call time.
# Measured warm, in one process (float32 scores, bool labels; row groups / whole read):
# 1e6 rows 1.06-1.32x, 3e6 1.09x, 1e7 0.92x (the sample's four row groups are a
# second decode of a small file's scores); 1e8 is where the whole read's fresh pages
# cost most.
GROUPS_MIN_ROWS = 5_000_000


def _by_row_groups(groups: RowGroupReader, levels: tuple[float, ...], exclude_self: bool
                   ) -> Report | None:
    """``evaluate`` of a Parquet file of 0/1 (or bool) labels and float scores, its row
    groups decoded on two threads and each written into the engine's radix buckets as
    it comes (``summarize_parts``): the columns are never held whole. None when the
    engine declines (a null, a NaN score, another label, one class): the caller then
    reads the file the long way, which names the problem."""
    sample = groups.sample()
    if sample is None:
        return None
    halves: list[list[int]] = [[], []]
    rows = [0, 0]
    for g, size in enumerate(groups.sizes):    # each group to the writer with fewer rows
        j = int(rows[1] < rows[0])
        halves[j].append(g)
        rows[j] += size
    parts = [lambda h=h: groups.blocks(h) for h in halves]
    result = engine().summarize_parts(parts, rows, sample, with_main_level(levels),
                                      exclude_self)
    if result is None:
        return None
    return Report.from_sweep(result, levels, sum(rows), exclude_self)


def _mapped(y: np.ndarray, s: np.ndarray, pos_label: Any, levels: tuple[float, ...],
            exclude_self: bool) -> Report:
    """``evaluate`` on memory-mapped columns, releasing their pages behind each pass."""
    rows = prepare_rows(y, s, None, pos_label)
    release = (page_release(y, s) if rows.y is y or rows.y.base is y else None)
    result = engine().summarize(rows.y, rows.s, None, rows.pos_value,
                                         rows.neg_value, with_main_level(levels),
                                         exclude_self, None, release)
    return Report.from_sweep(result, levels, rows.n_rows, exclude_self)


def _owned(y: np.ndarray, s: np.ndarray, pos_label: Any, levels: tuple[float, ...],
           exclude_self: bool) -> Report:
    """``evaluate`` on columns decoded for this call alone: the engine gives their
    pages back behind its last pass over them (``OwnedRows``), so the peak holds the
    columns and the sort's words only in part at once."""
    rows = prepare_rows(y, s, None, pos_label)
    result = engine().summarize(rows.y, rows.s, None, rows.pos_value, rows.neg_value,
                                with_main_level(levels), exclude_self, None,
                                OwnedRows(rows.y, rows.s))
    return Report.from_sweep(result, levels, rows.n_rows, exclude_self)


def _weighted_out_of_core(chunks: Iterable[tuple[Any, ...]], pos_label: Any,
                          levels: tuple[float, ...], exclude_self: bool, bar: Progress,
                          tmp_dir: str | None, budget: int) -> Report:
    """Each chunk's score table parked on disk, then the whole table swept by score
    range, a range of about ``budget`` bytes at a time (``WeightedRuns``)."""
    with WeightedRuns(tmp_dir or tempfile.gettempdir(), budget) as runs:
        for y, s, w in chunks:
            if len(s):
                with labels_as_coded(y, runs.coding):
                    runs.add(ScoreTable.from_arrays(y, s, w, pos_label))
            bar.update(len(s))
            del y, s, w                     # freed before the next chunk is read
        if runs.n_rows == 0:
            raise ValueError("the file holds no rows.")
        result = runs.sweep(with_main_level(levels), exclude_self)
    return Report.from_sweep(result, levels, runs.n_rows, exclude_self)


def _out_of_core(src: Source, chunks: Iterable[tuple[Any, ...]], pos_label: Any,
                 levels: tuple[float, ...], exclude_self: bool, bar: Progress,
                 tmp_dir: str | None, held_bytes: int) -> Report:
    """Sort the rows into runs on disk, then merge them in one sweep holding about
    ``held_bytes`` of the runs' pages resident (the engine's ``summarize_runs``)."""
    eng = engine()
    n_rows, coding = 0, None
    with RunFile(tmp_dir or tempfile.gettempdir(), src.n_rows) as runs:
        for y, s, _ in chunks:
            with labels_as_coded(y, coding):
                chunk = prepare_rows(y, s, None, pos_label)
                coding = combine_codings(coding, chunk.coding)
                pos, neg = eng.sorted_classes(chunk.y, chunk.s, chunk.pos_value,
                                              chunk.neg_value)
            runs.add(((pos, True), (neg, False)))
            if src.release is not None:           # this chunk's input pages are done
                src.release(n_rows, n_rows + chunk.n_rows)
            n_rows += chunk.n_rows
            bar.update(chunk.n_rows)
            del y, s, chunk, pos, neg          # freed before the next chunk is read
        if n_rows == 0:
            raise ValueError("the file holds no rows.")
        mapped = runs.mapped()
    try:
        result = eng.summarize_runs(mapped, with_main_level(levels), exclude_self,
                                    held_bytes=held_bytes)
    finally:
        del mapped        # the runs' space is freed with their mapping, also on error
    return Report.from_sweep(result, levels, n_rows, exclude_self)
