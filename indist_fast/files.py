"""Evaluate prediction logs in files, in memory or out of core, with exact results.

Scaling path and memory model (bytes per row; s = bytes of a score, 4 or 8):

- **In memory** (``evaluate`` on arrays): the inputs plus ``s`` for the per-class score
  buffers (no table is built without weights); with weights ``8 + 16`` more.
- **Memory-mapped files** (``.npy`` of a plain structured array read in chunks,
  ``.npz`` members stored without compression mapped directly): mapped pages count
  toward RSS as they are touched; when the data fit the memory limit the mapped
  columns go straight to ``evaluate``.
- **Out of core** (the data exceed ``memory_limit``): chunks are sorted into runs on
  disk (``s`` bytes per row, in a temporary directory removed on success and on
  error) and one k-way merge sweeps them all; memory stays around a chunk.
- **Chunked formats** (Parquet row groups, CSV blocks) use the same two paths.
- **Dask** (``indist_fast.dask``): per-partition tables merged across the cluster.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import tempfile
from typing import Any, Iterable, Iterator

import numpy as np

from . import _backend
from ._validation import check_levels, combine_codings, prepare_rows
from .io import _page_release, _Source, open_source
from .metrics import evaluate
from .report import Report
from .streaming import Accumulator
from .table import DEFAULT_LEVELS, with_main_level

__all__ = ["evaluate_file", "parse_memory"]

_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}
# Working bytes per row of a chunk on its way to a run: copied columns, the scatter
# buffers and NumPy's sort, with room to spare.
_CHUNK_BYTES_PER_ROW = 48


def parse_memory(limit: Any) -> int:
    """Bytes from ``"1GB"``, ``"512MiB"``, an int, or None (half the machine's RAM)."""
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

def _write_run(directory: str, k: int, pieces: Iterable[tuple[np.ndarray, bool]]
               ) -> list[tuple[str, bool]]:
    out = []
    for j, (scores, positive) in enumerate(pieces):
        if len(scores):
            name = os.path.join(directory, f"run{k:06d}_{j}.npy")
            np.save(name, scores)
            out.append((name, positive))
    return out


def evaluate_file(path: str | os.PathLike[str], *, label: str, score: str,
                  weight: str | None = None, pos_label: Any = None,
                  levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
                  memory_limit: Any = None, progress: bool | None = None,
                  tmp_dir: str | None = None) -> Report:
    """``evaluate`` on columns of a file, exactly, whatever its size.

    Parameters
    ----------
    path : str or path-like
        ``.npy`` (structured array), ``.npz``, ``.csv`` or ``.parquet``.
    label, score, weight : str
        Column names (weight optional).
    pos_label, levels, exclude_self
        As in ``indist_fast.evaluate``.
    memory_limit : int or str, default=None
        Working memory the evaluation may use, like ``"1GB"``; default half the
        machine's RAM. Beyond it, unweighted data are sorted into runs on disk and
        merged in one sweep (weighted data are accumulated as score tables).
    progress : bool, default=None
        A progress bar on stderr (tqdm); None shows it when stderr is a terminal.
    tmp_dir : str, default=None
        Where the runs go (a temporary directory inside it, removed afterwards).

    Returns
    -------
    Report
    """
    path = os.fspath(path)
    lv = check_levels(levels)
    limit = parse_memory(memory_limit)
    cols = {"label": label, "score": score, "weight": weight}
    src = open_source(path, cols)
    if src.whole is not None and src.n_rows is not None and \
            src.n_rows * (src.bytes_per_row + 16) <= limit:
        y, s, w = src.whole()
        if w is None and _backend.backend() == "cython":
            return _mapped(y, s, pos_label, lv, exclude_self)
        return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=lv,
                        exclude_self=exclude_self)
    rows_per_chunk = max(10_000, limit // _CHUNK_BYTES_PER_ROW)
    bar = _Progress(progress, src.n_rows)
    try:
        buffered, rest = _read_while_it_fits(src.chunks(rows_per_chunk), limit // 4, bar)
        if rest is None:                     # the whole file fitted: evaluate in memory
            if not buffered:
                raise ValueError("the file holds no rows.")
            y, s, w = (None if c[0] is None else np.concatenate(c) for c in zip(*buffered))
            return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=lv,
                            exclude_self=exclude_self)
        chunks = itertools.chain(_drain(buffered), rest)
        if weight is not None:
            return _accumulate(chunks, pos_label, lv, exclude_self, bar)
        return _out_of_core(src, chunks, pos_label, lv, exclude_self, bar, tmp_dir)
    finally:
        bar.close()


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
    result = _backend.engine().summarize(rows.y, rows.s, None, rows.pos_value,
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
                 tmp_dir: str | None) -> Report:
    from . import _fast, _kernels   # runs are the compiled engine's sorted pieces
    if _backend.backend() != "cython":   # chunk by chunk too: the same label-coding checks
        return _accumulate(chunks, pos_label, levels, exclude_self, bar)
    n_rows, coding = 0, None
    with tempfile.TemporaryDirectory(prefix="indist_fast_", dir=tmp_dir) as directory:
        runs: list[tuple[str, bool]] = []
        for k, (y, s, _) in enumerate(chunks):
            chunk = prepare_rows(y, s, None, pos_label)
            coding = combine_codings(coding, chunk.coding)
            pos, neg, _, _ = _fast.sorted_classes(chunk.y, chunk.s, chunk.pos_value,
                                                  chunk.neg_value)
            runs += _write_run(directory, k, ((pos, True), (neg, False)))
            if src.release is not None:           # this chunk's input pages are done
                src.release(n_rows, n_rows + chunk.n_rows)
            n_rows += chunk.n_rows
            bar.update(chunk.n_rows)
        if n_rows == 0:
            raise ValueError("the file holds no rows.")
        mapped = [(np.load(name, mmap_mode="r"), positive) for name, positive in runs]
        result = _fast._as_result(_kernels.summarize_runs(
            mapped, with_main_level(levels), exclude_self))
        del mapped
    return Report.from_sweep(result, levels, n_rows, exclude_self)
