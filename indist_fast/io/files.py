"""Evaluate prediction logs in files, in memory or out of core, with exact results.

Scaling path and memory model (bytes per row; s = bytes of a score, 4 or 8):

- **In memory** (``evaluate`` on arrays): the inputs plus ``s`` for the per-class score
  buffers (no table is built without weights); with weights ``8 + 16`` more.
- **Memory-mapped files** (``.npy`` of a plain structured array read in chunks,
  ``.npz`` members stored without compression mapped directly): mapped pages count
  toward RSS as they are touched; when the data fit the memory limit the mapped
  columns go straight to ``evaluate``.
- **Out of core** (the data exceed ``memory_limit``): chunks are sorted into runs on
  disk (``s`` bytes per row, in one unnamed temporary file that the system frees
  however the process ends, even on SIGKILL) and one k-way merge sweeps them all;
  memory stays around a chunk.
- **Chunked formats** (Parquet row groups, CSV blocks) use the same two paths.
- **Dask** (``indist_fast.dask``): per-partition tables merged across the cluster.
"""

from __future__ import annotations

import errno
import itertools
import mmap
import os
import re
import shutil
import sys
import tempfile
from typing import Any, Iterable, Iterator

import numpy as np

from .._core.engine import engine
from .._core.validation import check_flag, check_levels, combine_codings, prepare_rows
from .readers import _page_release, _Source, check_path, naming_columns, open_source, typed_pos_label
from ..metrics import evaluate
from ..results import Report
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
    def __init__(self, enabled: bool | None, total: int | None) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty()
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, unit="rows", unit_scale=True, file=sys.stderr,
                                desc="indist-fast")
            except ImportError:
                self.bar = None

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

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


def evaluate_file(path: str | os.PathLike[str], *, label: str, score: str,
                  weight: str | None = None, pos_label: Any = None,
                  levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
                  memory_limit: Any = None, progress: bool | None = None,
                  tmp_dir: str | os.PathLike[str] | None = None,
                  drop_nulls: bool = False) -> Report:
    """``evaluate`` on columns of a file, exactly, whatever its size.

    The result is the one ``indist_fast.evaluate`` gives on the same columns as
    NumPy arrays, whether the file fits in memory or not. Parquet and CSV columns
    may have any type pandas, polars or pyarrow write: booleans, integers, floats,
    decimals (read as the nearest float64), strings and dictionaries (categoricals,
    read as their values; text labels need ``pos_label``).

    Parameters
    ----------
    path : str or path-like
        ``.npy`` (structured array), ``.npz``, ``.csv`` or ``.parquet``.
    label, score, weight : str
        Column names (weight optional).
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points are reported in ``Report.at``.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    memory_limit : int or str, default=None
        Working memory the evaluation may use, like ``"1GB"``; default half the
        machine's RAM. Beyond it, unweighted data are sorted into runs on disk and
        merged in one sweep (weighted data are accumulated as score tables).
        Every reader holds one bounded chunk of the file at a time.
    progress : bool, default=None
        A progress bar on stderr (tqdm); None shows it when stderr is a terminal.
    tmp_dir : str or path-like, default=None
        The folder for the sorted runs (default: the system's temporary folder). It
        must exist and be writable; this is checked before any data is read. The
        runs live in one unnamed file that the system deletes however the process
        ends (also on SIGTERM or SIGKILL); they need ``4`` or ``8`` bytes per row
        (float32 or float64 scores).
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
    Report

    Raises
    ------
    FileNotFoundError
        No file at ``path``.
    ValueError, TypeError
        Bad arguments or contents; the message starts with the argument at fault
        (``path``, ``label``, ``score``, ``weight``, ``tmp_dir``, ``memory_limit``...).
        A bad value found in the rows gives ``evaluate``'s message under the role,
        column and file, e.g. ``score: column 'p' of d.parquet: y_score contains NaN
        (first at row 5) ...``, with the row counted in the file on every path.
        A full disk is a ``ValueError`` naming ``tmp_dir`` with the bytes needed.

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> from indist_fast import evaluate, evaluate_file
    >>> y, p = [0, 1, 1, 0], [0.1, 0.9, 0.4, 0.5]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     np.savez(os.path.join(folder, "log.npz"), y=y, p=p)
    ...     r = evaluate_file(os.path.join(folder, "log.npz"), label="y", score="p",
    ...                       levels=(0.5,), progress=False)
    >>> r.auc == evaluate(y, p, levels=(0.5,)).auc
    True
    """
    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
    if progress is not None:              # None: decided by the terminal, see _Progress
        progress = check_flag(progress, "progress")
    limit = parse_memory(memory_limit)
    folder = _check_tmp_dir(tmp_dir)
    cols = {"label": label, "score": score, "weight": weight}
    src = open_source(path, cols, drop_nulls=drop_nulls)
    with naming_columns(path, cols):
        return _evaluate_source(src, path, cols, pos_label, lv, exclude_self, limit, progress,
                                folder, drop_nulls)


def _evaluate_source(src: _Source, path: Any, cols: dict[str, str | None], pos_label: Any,
                     lv: tuple[float, ...], exclude_self: bool, limit: int,
                     progress: bool | None, folder: str | None, drop_nulls: bool) -> Report:
    """``evaluate_file`` once its arguments are checked and its source opened."""
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
    rows_per_chunk = max(10_000, limit // _CHUNK_BYTES_PER_ROW)
    bar = _Progress(progress, src.n_rows)
    try:
        buffered, rest = _read_while_it_fits(src.chunks(rows_per_chunk), limit // 4, bar)
        if buffered:             # the label column's type is known from its first chunk
            pos_label = typed_pos_label(pos_label, buffered[0][0])
        if rest is None:                     # the whole file fitted: evaluate in memory
            if sum(len(chunk[1]) for chunk in buffered) == 0:
                raise _no_rows(path, drop_nulls)
            y, s, w = (None if c[0] is None else np.concatenate(c) for c in zip(*buffered))
            return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=lv,
                            exclude_self=exclude_self)
        chunks = _Rows(itertools.chain(_drain(buffered), rest))
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
    """Chunks that remember the file row the one being processed starts at.

    A bad row found while a chunk is processed (NaN score, third label, negative
    weight) is named by its row in the chunk; ``name_file_row`` makes it the row in
    the file, as in memory. Errors of the readers already count file rows.
    """

    def __init__(self, chunks: Iterable[tuple[Any, ...]]) -> None:
        self.chunks = iter(chunks)
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

    def name_file_row(self, exc: ValueError) -> None:
        if not self.reading and self.start and exc.args and isinstance(exc.args[0], str):
            exc.args = (re.sub(r"\bat row (\d+)",
                               lambda m: f"at row {self.start + int(m.group(1))}",
                               exc.args[0]),) + exc.args[1:]


def _no_rows(path: Any, drop_nulls: bool) -> ValueError:
    return ValueError(f"path: {check_path(path)} holds no rows"
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


def _mapped(y: np.ndarray, s: np.ndarray, pos_label: Any, levels: tuple[float, ...],
            exclude_self: bool) -> Report:
    """``evaluate`` on memory-mapped columns, releasing their pages behind each pass."""
    rows = prepare_rows(y, s, None, pos_label)
    release = (_page_release(y, s) if rows.y is y or rows.y.base is y else None)
    result = engine().summarize(rows.y, rows.s, None, rows.pos_value,
                                         rows.neg_value, with_main_level(levels),
                                         exclude_self, None, release)
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
            chunk = prepare_rows(y, s, None, pos_label)
            coding = combine_codings(coding, chunk.coding)
            pos, neg = eng.sorted_classes(chunk.y, chunk.s, chunk.pos_value, chunk.neg_value)
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
