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
  memory stays around a chunk.
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
  runs on disk, or accumulated tables with weights). The table is put in sorted
  segment order at the end. Measured peak RSS beyond the imports (pyarrow, pandas),
  4e6 rows of Parquet, two float32 models, 1,000 segments: ``memory_limit="50MB"``
  +77 MB, ``"200MB"`` +141 MB, in memory +273 MB (one score out of core at 50MB:
  +100 MB); the excess at small limits is the Parquet reader's buffers.
- **Dask** (``indist_fast.dask``): per-partition tables merged across the cluster.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import mmap
import os
import re
import shutil
import sys
import tempfile
from typing import Any, Iterable, Iterator, Literal, Sequence, TypeAlias, overload

import numpy as np

from .._core.engine import engine
from .._core.page_release import OwnedRows
from .._core.records import SegmentSweeps, SweepResult
from .._core.validation import (Rows, check_flag, check_levels, combine_codings,
                                labels_as_coded, prepare_rows, raise_nan_score,
                                raise_row_errors, with_scores)
from ..errors import warn_one_class
from .readers import (_page_release, _Source, RowGroups, describe_path, naming_columns,
                      open_source, role_of, typed_pos_label)
from ..metrics import evaluate
from ..results import Report
from ..report_table import ReportTable
from ..inference.segment_bootstrap import bootstrap_settings
from ..segments import RESERVED, _factorize, _names, evaluate_many
from .streaming import Accumulator
from ..table import DEFAULT_LEVELS, with_main_level

__all__ = ["evaluate_file", "parse_memory"]

_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}
# Working bytes per row of a chunk on its way to a run: copied columns, the scatter
# buffers and NumPy's sort, with room to spare.
_CHUNK_BYTES_PER_ROW = 48


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
    >>> from indist_fast.io.files import parse_memory
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


# --- progress -----------------------------------------------------------------------------------

class _Progress:
    """A tqdm bar on stderr over rows where the source knows them up front (one file
    of known length), else over the bytes of its files read so far (compressed CSV,
    datasets of files)."""

    def __init__(self, enabled: bool | None, src: _Source) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty()
        self.bar = None
        self.src = src
        self.by_rows = src.n_rows is not None and src.locate is None
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=src.n_rows if self.by_rows else src.n_bytes,
                                unit="rows" if self.by_rows else "B", unit_scale=True,
                                file=sys.stderr, desc="indist-fast")
            except ImportError:
                self.bar = None

    def update(self, n: int) -> None:
        """``n`` more rows are done."""
        if self.bar is None:
            return
        if self.by_rows:
            self.bar.update(n)
        elif self.src.done_bytes is not None:
            self.bar.update(max(0, self.src.done_bytes() - self.bar.n))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# --- evaluation -----------------------------------------------------------------------------------

class _RunFile:
    """The sorted runs of an out-of-core evaluation, appended to one unnamed file.

    The file is made with ``tempfile.TemporaryFile`` in ``folder``: on Linux it never
    has a name (``O_TMPFILE``), elsewhere on POSIX its name is removed at once, on
    Windows it is deleted on close. The system frees it when the last descriptor
    closes, so no ending -- success, error, SIGTERM or SIGKILL -- leaves it behind,
    and one descriptor and one mapping serve any number of runs.
    """

    def __init__(self, folder: str, n_rows: int | None) -> None:
        self.folder = folder
        self.n_rows = n_rows             # rows to come, when known: the space needed
        self.need: int | None = None
        self.size = 0
        self.pieces: list[tuple[int, np.dtype, int, bool]] = []
        try:
            self.file = tempfile.TemporaryFile(dir=folder, prefix=f"indist_fast_{os.getpid()}_",
                                               buffering=0)
        except OSError as exc:
            raise ValueError(f"tmp_dir: cannot create a temporary file in {folder}: "
                             f"{exc.strerror or exc}.") from exc

    def __enter__(self) -> "_RunFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.file.close()                # open mappings keep the data until dropped

    def add(self, pieces: Iterable[tuple[np.ndarray, bool]]) -> None:
        """Append the runs ``(ascending scores, positive)``; empty ones are skipped."""
        for scores, positive in pieces:
            if not len(scores):
                continue
            if self.need is None and self.n_rows is not None:
                self.need = self.n_rows * scores.itemsize
                self._check_space(self.need)
            self._write(bytes(-self.size % scores.itemsize))    # aligned for its dtype
            offset = self.size
            self._write(np.ascontiguousarray(scores).data.cast("B"))
            self.pieces.append((offset, scores.dtype, len(scores), positive))

    def _write(self, data: bytes | memoryview) -> None:
        view, fd = memoryview(data), self.file.fileno()
        while view:
            try:
                n = os.write(fd, view)
            except OSError as exc:
                raise self._write_error(exc, len(view)) from exc
            view = view[n:]
            self.size += n

    def _check_space(self, need: int) -> None:
        free = shutil.disk_usage(self.folder).free
        if need > free:
            raise ValueError(f"tmp_dir: {self.folder} has {free:,} bytes free; the sorted "
                             f"runs need {need:,}. Pass tmp_dir= a folder with more space "
                             "or a larger memory_limit.")

    def _write_error(self, exc: OSError, left: int) -> ValueError:
        if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            need = (f"about {self.need:,}" if self.need is not None
                    else f"more than {self.size + left:,}")
            return ValueError(f"tmp_dir: no space left in {self.folder} for the sorted runs "
                              f"({self.size:,} bytes written); they need {need} bytes. Pass "
                              "tmp_dir= a folder with more space or a larger memory_limit.")
        return ValueError(f"tmp_dir: writing the sorted runs to {self.folder} failed: "
                          f"{exc.strerror or exc}.")

    def mapped(self) -> list[tuple[np.ndarray, bool]]:
        """Every run as a read-only array over one shared memory map of the file."""
        if not self.pieces:
            return []
        mm = mmap.mmap(self.file.fileno(), self.size, access=mmap.ACCESS_READ)
        return [(np.frombuffer(mm, dtype=dtype, count=n, offset=offset), positive)
                for offset, dtype, n, positive in self.pieces]


def _check_tmp_dir(tmp_dir: Any) -> str | None:
    """``tmp_dir`` as a writable folder (or None), checked before any data is read."""
    if tmp_dir is None:
        return None
    if not isinstance(tmp_dir, (str, bytes, os.PathLike)):
        raise TypeError(f"tmp_dir must be a folder name (str or path-like) or None, got "
                        f"{type(tmp_dir).__name__}.")
    folder = os.fsdecode(os.fspath(tmp_dir))
    if not os.path.exists(folder):
        raise ValueError(f"tmp_dir: no such folder: {folder}")
    if not os.path.isdir(folder):
        raise ValueError(f"tmp_dir: {folder} is not a folder.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"tmp_dir: {folder} is not writable.")
    return folder


_Paths: TypeAlias = "str | os.PathLike[str] | Sequence[str | os.PathLike[str]]"


@overload
def evaluate_file(path: _Paths, *, label: str, score: str, by: None = None,
                  weight: str | None = None, pos_label: Any = None,
                  levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
                  memory_limit: Any = None, progress: bool | None = None,
                  tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: Literal[False] = False,
                  n_boot: None = None, seed: Any = None, confidence: float = 0.95
                  ) -> Report: ...


@overload
def evaluate_file(path: _Paths, *, label: str, score: list[str] | tuple[str, ...],
                  by: str | Sequence[str] | None = None, weight: str | None = None,
                  pos_label: Any = None, levels: Iterable[float] = DEFAULT_LEVELS,
                  exclude_self: bool = True, memory_limit: Any = None,
                  progress: bool | None = None, tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: bool = False, n_boot: int | None = None,
                  seed: Any = None, confidence: float = 0.95) -> ReportTable: ...


@overload
def evaluate_file(path: _Paths, *, label: str, score: str, by: str | Sequence[str],
                  weight: str | None = None, pos_label: Any = None,
                  levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
                  memory_limit: Any = None, progress: bool | None = None,
                  tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: bool = False, n_boot: int | None = None,
                  seed: Any = None, confidence: float = 0.95) -> ReportTable: ...


def evaluate_file(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
                  label: str, score: str | Sequence[str],
                  by: str | Sequence[str] | None = None, weight: str | None = None,
                  pos_label: Any = None, levels: Iterable[float] = DEFAULT_LEVELS,
                  exclude_self: bool = True, memory_limit: Any = None,
                  progress: bool | None = None, tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False, total: bool = False, n_boot: int | None = None,
                  seed: Any = None, confidence: float = 0.95) -> Report | ReportTable:
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
    in memory, so the two may differ in the last bit or two of a float (AUC by an
    ulp, say); without weights the counts, and so the thresholds found, are the same.

    Parameters
    ----------
    path : str, path-like, or a list of them
        A file: ``.parquet``, ``.csv`` (also compressed: ``.csv.gz``, ``.csv.bz2``,
        ``.csv.zst``, ``.csv.lz4``), ``.feather``/``.arrow``/``.ipc`` (Arrow IPC),
        ``.npy`` (structured array) or ``.npz``. Or a dataset of such files, read one
        after another: a folder (recursively; names starting with ``.`` or ``_`` are
        skipped; ``key=value`` folder names are hive partition keys, usable in ``by``),
        a glob pattern (``"logs/*.parquet"``, ``**`` for any depth) or a list of paths.
        Every file of a dataset has the same format and the used columns.
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
        sweep (weighted: accumulated as score tables); a table's rows are parked on
        disk by segment, in buckets that each fit the limit, and every bucket is
        evaluated in memory (a segment larger than the limit alone, model by model, as
        one score is). See the module's notes for what bounds memory.
    progress : bool, default=None
        A progress bar on stderr (tqdm), over rows, or over bytes read where the rows
        are not known up front (compressed CSV, datasets); None shows it when stderr is
        a terminal.
    tmp_dir : str or path-like, default=None
        The folder for the data parked on disk (default: the system's temporary
        folder). It must exist and be writable; this is checked before any data is
        read. They live in one unnamed file that the system deletes however the
        process ends (also on SIGTERM or SIGKILL); sorted runs need ``4`` or ``8``
        bytes per row (float32 or float64 scores), a table's rows their columns' bytes.
    total, n_boot, seed, confidence
        A table's totals and bootstrap intervals, as in ``evaluate_many`` (they make a
        table even of one score). They need every row in memory: beyond
        ``memory_limit`` they are refused (ValueError naming them) rather than dropped.
    drop_nulls : bool, default=False
        Skip the rows with a null (missing value) in a used column. By default a
        null is an error naming the column and its first row (counting data rows
        from 0). To drop them before writing the file instead: pandas
        ``df.dropna(subset=[label, score])``, polars ``df.drop_nulls([label, score])``,
        pyarrow ``table.drop_null()``. In CSV files empty fields and markers such as
        ``NA``, ``NaN`` or ``null`` are nulls. NaN stored as a float (``.npy``,
        ``.npz``, Parquet) is not a null: it is an error as in ``evaluate``.

    Returns
    -------
    Report or ReportTable
        A ``Report`` for one score (a str) without ``by``; otherwise a ``ReportTable``.

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
    if progress is not None:              # None: decided by the terminal, see _Progress
        progress = check_flag(progress, "progress")
    limit = parse_memory(memory_limit)
    folder = _check_tmp_dir(tmp_dir)
    total = check_flag(total, "total")
    bootstrap_settings(n_boot, seed, confidence)            # checked before reading
    extra = {"total": total, "n_boot": n_boot, "seed": seed, "confidence": confidence}
    if isinstance(score, str) and by is None and not total and n_boot is None:
        cols = {"label": label, "score": score, "weight": weight}
        src = open_source(path, cols, drop_nulls=drop_nulls)
        with naming_columns(path, cols):
            return _evaluate_source(src, path, cols, pos_label, lv, exclude_self, limit,
                                    progress, folder, drop_nulls)
    scores = _names(score, "score")
    by_names = [] if by is None else _names(by, "by")
    clash = sorted(set(by_names) & RESERVED)
    if clash:
        raise ValueError(f"by: segment column name(s) {clash} would hide the table's own "
                         "columns of that name; rename them (reserved: model, one_class "
                         "and the Report fields).")
    cols = {"label": label, "score": scores[0], "weight": weight,
            **{f"score#{k}": s for k, s in enumerate(scores[1:], 1)},
            **{f"by#{k}": b for k, b in enumerate(by_names)}}
    src = open_source(path, cols, drop_nulls=drop_nulls)
    plan = _TablePlan(path, cols, pos_label, lv, exclude_self, limit, folder, drop_nulls, extra)
    with naming_columns(path, cols):
        return plan.evaluate(src, progress)


def _evaluate_source(src: _Source, path: Any, cols: dict[str, str | None], pos_label: Any,
                     lv: tuple[float, ...], exclude_self: bool, limit: int,
                     progress: bool | None, folder: str | None, drop_nulls: bool) -> Report:
    """``evaluate_file`` of one score once its arguments are checked and its source
    opened."""
    if src.whole is not None and src.n_rows is not None and \
            src.n_rows * (src.bytes_per_row + 16) <= limit:
        y, s, w = src.whole()
        if len(s) == 0:
            raise _no_rows(path, drop_nulls)
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
                raise _no_rows(path, drop_nulls)
            with _rows_in_files(src):
                pos_label = typed_pos_label(pos_label, y)
                if w is None:
                    return _owned(y, s, pos_label, lv, exclude_self)
                return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=lv,
                                exclude_self=exclude_self)
    rows_per_chunk = max(10_000, limit // _CHUNK_BYTES_PER_ROW)
    bar = _Progress(progress, src)
    try:
        buffered, rest = _read_while_it_fits(src.chunks(rows_per_chunk), limit // 4, bar)
        if buffered:             # the label column's type is known from its first chunk
            pos_label = typed_pos_label(pos_label, buffered[0][0])
        if rest is None:                     # the whole file fitted: evaluate in memory
            if sum(len(chunk[1]) for chunk in buffered) == 0:
                raise _no_rows(path, drop_nulls)
            y, s, w = (None if c[0] is None else np.concatenate(c) for c in zip(*buffered))
            with _rows_in_files(src):
                return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=lv,
                                exclude_self=exclude_self)
        chunks = _Rows(itertools.chain(_drain(buffered), rest), src)
        try:
            if cols["weight"] is not None:
                return _accumulate(chunks, pos_label, lv, exclude_self, bar)
            return _out_of_core(src, chunks, pos_label, lv, exclude_self, bar, folder,
                                held_bytes=limit // 4)
        except ValueError as exc:
            chunks.name_file_row(exc)
            raise
    finally:
        bar.close()


class _Rows:
    """Chunks that remember the row the one being processed starts at.

    A bad row found while a chunk is processed (NaN score, third label, negative
    weight) is named by its row in the chunk; ``name_file_row`` makes it the row in
    the file (in a dataset: the row in its file, and the file), as in memory. Errors
    of the readers already count file rows.
    """

    def __init__(self, chunks: Iterable[tuple[Any, ...]], src: _Source | None = None) -> None:
        self.chunks = iter(chunks)
        self.src = src
        self.start = self.end = 0
        self.reading = False

    def __iter__(self) -> "_Rows":
        return self

    def __next__(self) -> tuple[Any, ...]:
        self.reading = True
        chunk = next(self.chunks)
        self.reading = False
        self.start, self.end = self.end, self.end + len(chunk[1])
        return chunk

    def name_file_row(self, exc: BaseException) -> None:
        if self.reading:
            return
        whole = self.start == 0 and self.src is not None and self.src.n_rows == self.end
        if exc.args and isinstance(exc.args[0], str) and not whole:
            # Said of one chunk: later chunks may hold pos_label (then the chunk's two
            # other labels are one too many), so say which rows were looked at.
            exc.args = (exc.args[0].replace(
                "is not a value of y_true (",
                f"is not a value of y_true in the chunk read at row 0 "
                f"({self.end - self.start:,} rows; "),) + exc.args[1:]
        _name_rows(exc, self.start, self.src)


_AT_ROW = re.compile(r"\bat row (\d+)(?! of )")


def _name_rows(exc: BaseException, start: int, src: _Source | None) -> None:
    """Rows ``at row N`` of a message counted from ``start`` in the stream of rows, and
    in a dataset, named by their file: ``at row 7 of logs/day=2/part-0.parquet``."""
    if not (exc.args and isinstance(exc.args[0], str)):
        return
    locate = None if src is None else src.locate
    unkept = None if src is None else src.unkept
    if not start and locate is None and unkept is None:
        return

    def where(m: re.Match[str]) -> str:
        row = start + int(m.group(1))
        try:
            if locate is not None:
                name, local = locate(row)
                return f"at row {local} of {name}"
            return f"at row {row if unkept is None else unkept(row)}"
        except Exception:   # the file could not be read again: say what the row is
            return f"at row {row} of the rows without a null"
    exc.args = (_AT_ROW.sub(where, exc.args[0]),) + exc.args[1:]


@contextlib.contextmanager
def _rows_in_files(src: _Source) -> Iterator[None]:
    """Errors of an evaluation of every row at once, with their rows named in files."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        _name_rows(exc, 0, src)
        raise


def _no_rows(path: Any, drop_nulls: bool) -> ValueError:
    return ValueError(f"path: {describe_path(path)} holds no rows"
                      + (" without a null." if drop_nulls else "."))


def _drain(items: list[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    """Yield and forget: a buffered chunk is freed once it has been used."""
    items.reverse()
    while items:
        yield items.pop()


def _read_while_it_fits(chunks: Iterator[tuple[Any, ...]], budget: int, bar: _Progress
                        ) -> tuple[list[tuple[Any, ...]], Iterator[tuple[Any, ...]] | None]:
    """Chunks read until their bytes pass ``budget``: ``(read, rest)``, ``rest`` None
    when the stream ended first (sizes are not always known up front: CSV)."""
    read: list[tuple[Any, ...]] = []
    size = 0
    for chunk in chunks:
        read.append(chunk)
        size += sum(np.asarray(a).nbytes for a in chunk if a is not None)
        if size > budget:
            return read, chunks
    for chunk in read:
        bar.update(len(chunk[1]))
    return read, None


# From this many rows on, a Parquet file's row groups go straight into the engine's
# buckets as they are decoded (``_by_row_groups``); below it the columns are decoded
# whole first, and the engine's paths for few rows take them. Read at call time.
# Measured warm, in one process (float32 scores, bool labels; row groups / whole read):
# 1e6 rows 1.06-1.32x, 3e6 1.09x, 1e7 0.92x (the sample's four row groups are a
# second decode of a small file's scores); 1e8 is where the whole read's fresh pages
# cost most.
GROUPS_MIN_ROWS = 5_000_000


def _by_row_groups(groups: RowGroups, levels: tuple[float, ...], exclude_self: bool
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
    release = (_page_release(y, s) if rows.y is y or rows.y.base is y else None)
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


def _accumulate(chunks: Iterable[tuple[Any, ...]], pos_label: Any,
                levels: tuple[float, ...], exclude_self: bool, bar: _Progress) -> Report:
    acc = Accumulator(pos_label=pos_label)
    for y, s, w in chunks:
        acc.update(y, s, w)
        bar.update(len(s))
    if acc.n_rows == 0:
        raise ValueError("the file holds no rows.")
    return acc.result(levels, exclude_self=exclude_self)


def _out_of_core(src: _Source, chunks: Iterable[tuple[Any, ...]], pos_label: Any,
                 levels: tuple[float, ...], exclude_self: bool, bar: _Progress,
                 tmp_dir: str | None, held_bytes: int) -> Report:
    """Sort the rows into runs on disk, then merge them in one sweep holding about
    ``held_bytes`` of the runs' pages resident (the engine's ``summarize_runs``)."""
    eng = engine()
    n_rows, coding = 0, None
    with _RunFile(tmp_dir or tempfile.gettempdir(), src.n_rows) as runs:
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


# --- several models, segments: ReportTable ------------------------------------------------------

# Working bytes per row of a bucket evaluated in memory, beyond its columns: the codes
# renumbered (8), ``summarize_segments``' placement of one model's rows by segment and
# class (scores and weights copied, an index) and NumPy's temporaries.
_TABLE_BYTES_PER_ROW = 40
# Working bytes per row of a chunk on its way to the buckets, beyond its scores: the
# Arrow batch and its NumPy columns, the label check, segment codes and their
# factorisation (a sort of int64 keys, its inverse), the order by bucket and the
# copies written (measured: about 100 at two models).
_PARK_BYTES_PER_ROW = 72


def _concat_sweeps(parts: list[SegmentSweeps]) -> SegmentSweeps:
    """The segments of several ``SegmentSweeps`` one after another."""
    return SegmentSweeps(*(np.concatenate(fields) for fields in zip(*parts)))


class _Spill(_RunFile):
    """Rows parked on disk by bucket, in one unnamed temporary file (see ``_RunFile``):
    each bucket a list of pieces, each piece its columns' ``(offset, dtype, n)``."""

    def __init__(self, folder: str) -> None:
        super().__init__(folder, None)
        self.buckets: dict[int, list[list[tuple[int, np.dtype, int] | None]]] = {}

    def __enter__(self) -> "_Spill":
        return self

    def put(self, bucket: int, arrays: list[np.ndarray | None]) -> None:
        piece: list[tuple[int, np.dtype, int] | None] = []
        for arr in arrays:
            if arr is None:
                piece.append(None)
                continue
            arr = np.ascontiguousarray(arr)
            self._write(bytes(-self.size % arr.itemsize))
            piece.append((self.size, arr.dtype, len(arr)))
            self._write(arr.view(np.uint8).reshape(-1).data)
        self.buckets.setdefault(bucket, []).append(piece)

    def read(self, piece: list[tuple[int, np.dtype, int] | None]) -> list[np.ndarray | None]:
        out: list[np.ndarray | None] = []
        for spec in piece:
            if spec is None:
                out.append(None)
                continue
            offset, dtype, n = spec
            buf = bytearray(n * dtype.itemsize)
            view, got = memoryview(buf), 0
            self.file.seek(offset)
            try:
                while got < len(buf):
                    k = self.file.readinto(view[got:])
                    if not k:
                        raise ValueError(f"tmp_dir: the rows parked in {self.folder} ended "
                                         "early (the temporary file was cut short).")
                    got += k
            finally:
                self.file.seek(0, os.SEEK_END)          # appends go on at the end
            out.append(np.frombuffer(buf, dtype=dtype))
        return out


class _TablePlan:
    """``evaluate_file`` with several models or segments: in memory when the columns
    fit ``limit``, else rows parked on disk by segment buckets and each bucket swept in
    memory (see ``evaluate_file``)."""

    def __init__(self, path: Any, cols: dict[str, str | None], pos_label: Any,
                 levels: tuple[float, ...], exclude_self: bool, limit: int,
                 folder: str | None, drop_nulls: bool, extra: dict[str, Any]) -> None:
        self.path, self.cols, self.pos_label = path, cols, pos_label
        # totals and intervals (evaluate_many's): the in-memory path alone gives them
        self.extra = extra
        self.needs_rows = bool(extra["total"]) or extra["n_boot"] is not None
        self.levels, self.exclude_self, self.limit = levels, exclude_self, limit
        self.folder = folder or tempfile.gettempdir()
        self.drop_nulls = drop_nulls
        self.score_keys = [k for k in cols if role_of(k) == "score"]
        self.by_keys = [k for k in cols if role_of(k) == "by"]
        self.models = [cols[k] for k in self.score_keys]
        self.by = [str(cols[k]) for k in self.by_keys]
        weighted = cols["weight"] is not None
        # bytes of a parked row: codes, class, weight, scores (float64 at most)
        self.row_bytes = 8 + 1 + 8 * weighted + 8 * len(self.models)
        # Half the limit for a bucket swept in memory, a quarter for a chunk being
        # parked; the rest is the readers' buffers and the interpreter's own.
        self.cap = max(1_000, self.limit // 2 // (self.row_bytes + _TABLE_BYTES_PER_ROW))

    # -- entry -----------------------------------------------------------------------------------
    def evaluate(self, src: _Source, progress: bool | None) -> ReportTable:
        per_row = src.bytes_per_row + self.row_bytes + _TABLE_BYTES_PER_ROW
        rows_per_chunk = max(10_000, self.limit // 4 // (
            _PARK_BYTES_PER_ROW + 16 * len(self.models) + 8 * len(self.by)))
        bar = _Progress(progress, src)
        try:
            if src.n_rows is None:
                budget = self.limit // 4
            else:
                budget = self.limit if src.n_rows * per_row <= self.limit else -1
            if not self.needs_rows and self._by_partitions(src, rows_per_chunk, bar):
                return self._table()
            buffered, rest = _read_while_it_fits(src.chunks(rows_per_chunk), budget, bar)
            if buffered:
                self.pos_label = typed_pos_label(self.pos_label, buffered[0][0])
            if rest is None:
                return self._in_memory(buffered, src)
            if self.needs_rows:
                raise ValueError(f"total=/n_boot: they need every row in memory, and the rows "
                                 f"exceed memory_limit "
                                 f"({self.limit:,} bytes); raise memory_limit, or leave them "
                                 "out for the out-of-core table.")
            chunks = _Rows(itertools.chain(_drain(buffered), rest), src)
            try:
                return self._out_of_core(chunks, bar)
            except (ValueError, TypeError) as exc:
                chunks.name_file_row(exc)
                raise
        finally:
            bar.close()

    # -- segments that are partitions -----------------------------------------------------------
    def _by_partitions(self, src: _Source, rows_per_chunk: int, bar: _Progress) -> bool:
        """Segments made only of partition keys are sets of whole files: each is read
        and swept on its own, in memory (as ``evaluate_many`` sweeps one segment), so
        memory holds one segment and no rows are parked. False (nothing done) when
        the segments are not partitions, or one of them may not fit ``limit``."""
        parts = src.parts
        if not self.by_keys or parts is None or src.chunks_of is None or any(
                k not in constants for constants, _ in parts for k in self.by_keys):
            return False
        groups: dict[tuple[Any, ...], list[int]] = {}
        for i, (constants, _) in enumerate(parts):
            key = tuple(constants[k].tolist()[0] for k in self.by_keys)
            groups.setdefault(key, []).append(i)
        per_row = src.bytes_per_row + self.row_bytes + _TABLE_BYTES_PER_ROW
        for files in groups.values():
            sizes = [parts[i][1] for i in files]
            if any(n is None for n in sizes) or sum(n or 0 for n in sizes) * per_row > self.limit:
                return False
        eng = engine()
        self._start()
        coding = None
        for key, files in groups.items():
            buffered = []
            for chunk in src.chunks_of(files, rows_per_chunk):
                buffered.append(chunk)
                bar.update(len(chunk[1]))
            if buffered:
                self.pos_label = typed_pos_label(self.pos_label, buffered[0][0])
            if sum(len(chunk[1]) for chunk in buffered) == 0:
                continue                      # every row dropped: no segment
            columns = {k: None if c[0] is None else np.concatenate(c)
                       for k, c in zip(self.cols, zip(*buffered))}
            del buffered
            with _rows_in_files(src):
                for k in self.score_keys:
                    self._check_nan(np.asarray(columns[k]), k)
                with labels_as_coded(columns["label"], coding):
                    rows = prepare_rows(columns["label"], columns["score"],
                                        columns["weight"], self.pos_label)
                    coding = combine_codings(coding, rows.coding)
                    codes = np.zeros(rows.n_rows, dtype=np.int64)
                    sweeps = [eng.summarize_segments(r.y, r.s, r.w, codes, 1, r.pos_value,
                                                     r.neg_value, self.levels_all,
                                                     self.exclude_self)
                              for r in [rows] + [with_scores(rows, columns[k])
                                                 for k in self.score_keys[1:]]]
            code = self.index[key] = len(self.index)
            for j, k in enumerate(self.by_keys):
                self.values[j].append(parts[files[0]][0][k])
            self.done_codes.append(np.array([code]))
            for model, sw in enumerate(sweeps):
                self.done[model].append(sw)
            del columns, rows, codes, sweeps
        if not self.index:
            raise _no_rows(self.path, self.drop_nulls)
        return True

    def _start(self) -> None:
        """Empty segment numbering and results."""
        self.index: dict[Any, int] = {}
        self.values: list[list[np.ndarray]] = [[] for _ in self.by_keys]
        self.done_codes: list[np.ndarray] = []
        self.done: list[list[SegmentSweeps]] = [[] for _ in self.models]
        self.levels_all = with_main_level(self.levels)

    # -- in memory ------------------------------------------------------------------------------
    def _in_memory(self, buffered: list[tuple[Any, ...]], src: _Source) -> ReportTable:
        if sum(len(chunk[1]) for chunk in buffered) == 0:
            raise _no_rows(self.path, self.drop_nulls)
        columns = {k: None if c[0] is None else np.concatenate(c)
                   for k, c in zip(self.cols, zip(*buffered))}
        buffered.clear()
        with _rows_in_files(src), self._naming_segments():
            for k in self.score_keys:
                self._check_nan(np.asarray(columns[k]), k)
            return evaluate_many(
                columns["label"], {self.cols[k]: columns[k] for k in self.score_keys},
                groups={self.cols[k]: columns[k] for k in self.by_keys} or None,
                sample_weight=columns["weight"], pos_label=self.pos_label,
                levels=self.levels, exclude_self=self.exclude_self, **self.extra)

    def _check_nan(self, s: np.ndarray, key: str) -> None:
        """A NaN score named by its own model's column (the evaluation names the first
        model's), with ``evaluate``'s message."""
        if s.dtype.kind != "f":
            return
        bad = np.flatnonzero(np.isnan(s))
        if len(bad):
            with naming_columns(self.path, {"score": self.cols[key]}):
                raise_nan_score(int(bad[0]))

    @contextlib.contextmanager
    def _naming_segments(self) -> Iterator[None]:
        """Errors about a segment column (a missing value...) under ``by``, its column
        and the file, as the readers' errors are."""
        try:
            yield
        except (ValueError, TypeError) as exc:
            if exc.args and isinstance(exc.args[0], str):
                name = next((b for b in self.by if exc.args[0].startswith(f"{b} ")), None)
                if name is not None:
                    exc.args = (f"by: column {name!r} of {describe_path(self.path)}: "
                                f"{exc.args[0]}",) + exc.args[1:]
            raise

    # -- out of core ---------------------------------------------------------------------------
    def _out_of_core(self, chunks: _Rows, bar: _Progress) -> ReportTable:
        eng = engine()
        self._start()
        self.seg_rows = np.zeros(0, dtype=np.int64)
        self.seg_pos = np.zeros(0, dtype=np.float64)          # class weights per segment
        self.seg_neg = np.zeros(0, dtype=np.float64)
        self.bucket_of = np.zeros(0, dtype=np.int64)
        self.bucket_rows = [0]
        coding = None
        with _Spill(self.folder) as spill:
            for chunk in chunks:
                parts = dict(zip(self.cols, chunk))
                with labels_as_coded(parts["label"], coding):
                    rows = prepare_rows(parts["label"], parts["score"], parts["weight"],
                                        self.pos_label)
                    coding = combine_codings(coding, rows.coding)
                    positive = self._checked_classes(rows, parts)
                scores = [rows.s] + [with_scores(rows, parts[k]).s
                                     for k in self.score_keys[1:]]
                with self._naming_segments():
                    codes = self._codes(parts, rows.n_rows)
                self._count(codes, positive, rows.w)
                self._park(spill, codes, positive, rows.w, scores)
                bar.update(rows.n_rows)
                del chunk, parts, rows, positive, scores, codes
            if not self.index:
                raise _no_rows(self.path, self.drop_nulls)
            for b in sorted(spill.buckets):
                self._bucket(spill, spill.buckets[b], np.flatnonzero(self.bucket_of == b),
                             eng)
        return self._table()

    def _checked_classes(self, rows: Rows, parts: dict[str, Any]) -> np.ndarray:
        """Each row's class (uint8, 1 positive), after the checks the in-memory sweep
        makes on every row: a third label, a NaN score (in any model), a bad weight."""
        positive = rows.y == rows.pos_value
        bad = np.flatnonzero(~positive & (rows.y != rows.neg_value))
        if len(bad):
            raise_row_errors(int(bad[0]), -1, -1, rows.y, rows.s, None,
                             pos_value=rows.pos_value)
        for k in self.score_keys:
            self._check_nan(np.asarray(parts[k]) if k != "score" else rows.s, k)
        if rows.w is not None:
            bad = np.flatnonzero(~(np.isfinite(rows.w) & (rows.w >= 0)))
            if len(bad):
                raise_row_errors(-1, -1, int(bad[0]), rows.y, rows.s, rows.w,
                                 pos_value=rows.pos_value)
        classes: np.ndarray = positive.view(np.uint8)
        return classes

    def _codes(self, parts: dict[str, Any], n: int) -> np.ndarray:
        """Global segment codes of a chunk's rows: numbered as segments first appear
        (their sorted order is settled at the end)."""
        if not self.by_keys:
            if not self.index:
                self.index[()] = 0
                self._new_segments(1)
            return np.zeros(n, dtype=np.int64)
        local = [_factorize(parts[k], name, n) for k, name in zip(self.by_keys, self.by)]
        combined = np.zeros(n, dtype=np.int64)
        for codes, uniques in local:
            combined = combined * len(uniques) + codes
        present, inverse = np.unique(combined, return_inverse=True)
        picks, rest = [], present
        for codes, uniques in reversed(local):
            picks.append(rest % len(uniques))
            rest = rest // len(uniques)
        picks.reverse()
        keys = list(zip(*(u[p].tolist() for (_, u), p in zip(local, picks))))
        glob = np.empty(len(present), dtype=np.int64)
        new = []
        for i, key in enumerate(keys):
            code = self.index.get(key)
            if code is None:
                code = self.index[key] = len(self.index)
                new.append(i)
            glob[i] = code
        if new:
            for j, ((_, uniques), p) in enumerate(zip(local, picks)):
                self.values[j].append(uniques[p[new]])
            self._new_segments(len(new))
        out: np.ndarray = glob[inverse.reshape(-1)]
        return out

    def _new_segments(self, k: int) -> None:
        """Room for the ``k`` segments just numbered, placed in the open bucket (a new one once it
        holds ``cap`` rows: segments arriving in turn, as partitions do, fill buckets
        one after another; buckets that outgrow ``cap`` are split at the end)."""
        if self.bucket_rows[-1] >= self.cap:
            self.bucket_rows.append(0)
        first, need = len(self.index) - k, len(self.index)
        if need > len(self.seg_rows):          # room doubles: appends cost O(1) a segment
            more = max(need, 2 * len(self.seg_rows)) - len(self.seg_rows)
            self.seg_rows = np.concatenate((self.seg_rows, np.zeros(more, dtype=np.int64)))
            self.seg_pos = np.concatenate((self.seg_pos, np.zeros(more)))
            self.seg_neg = np.concatenate((self.seg_neg, np.zeros(more)))
            self.bucket_of = np.concatenate((self.bucket_of,
                                             np.full(more, -1, dtype=np.int64)))
        self.bucket_of[first:need] = len(self.bucket_rows) - 1

    def _count(self, codes: np.ndarray, positive: np.ndarray, w: np.ndarray | None) -> None:
        m = len(self.seg_rows)
        weights = np.ones(len(codes)) if w is None else w
        self.seg_rows += np.bincount(codes, minlength=m)
        self.seg_pos += np.bincount(codes, weights=weights * positive, minlength=m)
        self.seg_neg += np.bincount(codes, weights=weights * (1 - positive), minlength=m)
        added = np.bincount(self.bucket_of[codes], minlength=len(self.bucket_rows))
        self.bucket_rows = [r + int(a) for r, a in zip(self.bucket_rows, added)]

    def _park(self, spill: _Spill, codes: np.ndarray, positive: np.ndarray,
              w: np.ndarray | None, scores: list[np.ndarray]) -> None:
        code_dtype = np.int32 if len(self.index) < 2**31 else np.int64
        buckets = self.bucket_of[codes]
        columns = [codes.astype(code_dtype), positive, w, *scores]
        if buckets.min() == buckets.max():
            spill.put(int(buckets[0]), columns)
            return
        order = np.argsort(buckets, kind="stable")
        bounds = np.searchsorted(buckets[order], np.arange(buckets.max() + 2))
        for b in range(len(bounds) - 1):
            lo, hi = bounds[b], bounds[b + 1]
            if hi > lo:
                take = order[lo:hi]
                spill.put(b, [None if c is None else c[take] for c in columns])

    def _bucket(self, spill: _Spill, pieces: list[Any], segs: np.ndarray, eng: Any) -> None:
        """Sweep the segments ``segs`` parked in ``pieces``: in memory when they fit,
        else split into buckets that do (sizes are known now), a lone segment too
        large model by model out of core."""
        n = int(self.seg_rows[segs].sum())
        if n <= self.cap:
            columns = [None if c[0] is None else np.concatenate(c)
                       for c in zip(*(spill.read(p) for p in pieces))]
            codes, positive, w, scores = columns[0], columns[1], columns[2], columns[3:]
            lookup = np.zeros(len(self.index), dtype=np.int64)
            lookup[segs] = np.arange(len(segs))
            local = lookup[codes]
            del codes, columns
            self.done_codes.append(segs)
            for k, s in enumerate(scores):
                self.done[k].append(eng.summarize_segments(
                    positive, s, w, local, len(segs), 1.0, 0.0, self.levels_all,
                    self.exclude_self))
            return
        if len(segs) == 1:
            self._one_segment(spill, pieces, int(segs[0]), eng)
            return
        sub = np.zeros(len(self.index), dtype=np.int64)       # segment -> new bucket
        first = max(spill.buckets) + 1
        groups: list[list[int]] = [[]]
        filled = 0
        for seg in segs.tolist():
            if groups[-1] and filled + self.seg_rows[seg] > self.cap:
                groups.append([])
                filled = 0
            groups[-1].append(seg)
            filled += int(self.seg_rows[seg])
        for g, members in enumerate(groups):
            sub[members] = first + g
        for piece in pieces:
            columns = spill.read(piece)
            target = sub[columns[0]]
            for b in np.unique(target).tolist():
                keep = target == b
                spill.put(b, [None if c is None else c[keep] for c in columns])
        for g, members in enumerate(groups):
            self._bucket(spill, spill.buckets.pop(first + g), np.array(members), eng)

    def _one_segment(self, spill: _Spill, pieces: list[Any], seg: int, eng: Any) -> None:
        """A segment larger than the memory limit: each model out of core, as one score
        is (sorted runs and one merge; weighted, accumulated score tables)."""
        n = int(self.seg_rows[seg])
        two_classes = self.seg_pos[seg] > 0 and self.seg_neg[seg] > 0
        for k in range(len(self.models)):
            if self.cols["weight"] is not None or not two_classes:
                # a table of the distinct scores (one class: only its counts are reported)
                acc = Accumulator(pos_label=1)
                for piece in pieces:
                    columns = spill.read(piece)
                    acc.update(columns[1], columns[3 + k], columns[2])
                table = acc.table
                if two_classes:
                    result = eng.sweep_table(table.scores, table.pos, table.neg,
                                             self.levels_all, self.exclude_self)
                else:
                    result = _one_class_sweep(table, self.levels_all)
            else:
                with _RunFile(self.folder, n) as runs:
                    for piece in pieces:
                        columns = spill.read(piece)
                        pos, neg = eng.sorted_classes(columns[1], columns[3 + k], 1.0, 0.0)
                        runs.add(((pos, True), (neg, False)))
                        del columns, pos, neg
                    mapped = runs.mapped()
                try:
                    result = eng.summarize_runs(mapped, self.levels_all, self.exclude_self,
                                                held_bytes=self.limit // 4)
                finally:
                    del mapped
            self.done[k].append(SegmentSweeps.from_sweep(result, n))
        self.done_codes.append(np.array([seg]))

    def _table(self) -> ReportTable:
        """The swept segments in sorted order of their values, as ``evaluate_many``."""
        m = len(self.index)
        if self.by_keys:
            values = [np.concatenate(v) for v in self.values]
            ranks = [_factorize(v, name, m)[0] for v, name in zip(values, self.by)]
            order = np.lexsort(ranks[::-1])
        else:
            values, order = [], np.zeros(1, dtype=np.int64)
        swept = np.concatenate(self.done_codes)
        where = np.empty(m, dtype=np.int64)
        where[swept] = np.arange(len(swept))
        sweeps = [_concat_sweeps(parts).take(where[order]) for parts in self.done]
        segments = {name: v[order] for name, v in zip(self.by, values)}
        table = ReportTable._from_sweeps(self.by, segments, self.models, sweeps, self.levels,
                                        self.exclude_self)
        warn_one_class(int(np.count_nonzero(table.columns["one_class"])), len(table), 4)
        return table


def _one_class_sweep(table: Any, levels: np.ndarray) -> SweepResult:
    """The sweep of a segment of one class: its counts; its metrics are undefined
    (the table reports them as NaN)."""
    nan = float("nan")
    return SweepResult(len(table.scores), 0, float(np.sum(table.pos)),
                       float(np.sum(table.neg)), nan, nan, nan,
                       np.full((len(levels), 5), nan))

