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

import mmap
import os
import re
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from . import _backend
from ._validation import check_levels, prepare_rows
from .io import _READERS, read_columns
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


# --- sources: columns of a file, whole or in chunks ---------------------------------------

@dataclass
class _Source:
    n_rows: int | None                      # None when unknown before reading (CSV)
    bytes_per_row: int
    chunks: Callable[[int], Iterator[tuple[Any, Any, Any]]]
    whole: Callable[[], tuple[Any, Any, Any]] | None = None   # zero-copy columns
    release: Callable[[int, int], None] | None = None        # drop mapped rows' pages


def _npy_source(path: str, cols: dict[str, str | None]) -> _Source:
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as exc:
        raise ValueError(f"{path} could not be read as .npy: {exc}") from exc
    names = list(arr.dtype.names or [])
    for role, name in cols.items():
        if name is not None and name not in names:
            raise ValueError(f"{role}: column {name!r} is not in {path}; available columns: "
                             f"{', '.join(map(repr, names)) or 'none (a plain array)'}.")

    def chunks(rows: int) -> Iterator[tuple[Any, Any, Any]]:
        for start in range(0, len(arr), rows):
            part = arr[start:start + rows]
            yield tuple(None if n is None else np.ascontiguousarray(part[n])
                        for n in cols.values())

    return _Source(len(arr), arr.dtype.itemsize, chunks, release=_page_release(arr))


def _npz_member(path: str, zf: zipfile.ZipFile, name: str) -> np.ndarray:
    """A member array: memory-mapped when stored uncompressed, else read."""
    info = zf.getinfo(name + ".npy")
    if info.compress_type != zipfile.ZIP_STORED:
        with zf.open(info) as fh:
            return np.lib.format.read_array(fh, allow_pickle=False)
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        local = fh.read(30)
        if local[:4] != b"PK\x03\x04":
            raise ValueError(f"{path}: member {name!r} has a corrupt local header.")
        name_len = int.from_bytes(local[26:28], "little")
        extra_len = int.from_bytes(local[28:30], "little")
        start = info.header_offset + 30 + name_len + extra_len
        fh.seek(start)
        version = np.lib.format.read_magic(fh)
        read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                       else np.lib.format.read_array_header_2_0)
        shape, fortran, dtype = read_header(fh)
        offset = fh.tell()
    if dtype.hasobject or fortran or len(shape) != 1:
        raise ValueError(f"{path}: member {name!r} must be a 1d numeric array.")
    if offset + dtype.itemsize * shape[0] > os.path.getsize(path):
        raise ValueError(f"{path} is truncated: member {name!r} needs more bytes than the "
                         "file holds.")
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape)


def _npz_source(path: str, cols: dict[str, str | None]) -> _Source:
    try:
        zf = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise ValueError(f"{path} could not be read as .npz: {exc}") from exc
    with zf:
        names = [n[:-4] for n in zf.namelist() if n.endswith(".npy")]
        for role, name in cols.items():
            if name is not None and name not in names:
                raise ValueError(f"{role}: column {name!r} is not in {path}; available "
                                 f"columns: {', '.join(map(repr, names)) or 'none'}.")
        arrays = {role: (None if name is None else _npz_member(path, zf, name))
                  for role, name in cols.items()}
    lengths = {len(a) for a in arrays.values() if a is not None}
    if len(lengths) != 1:
        raise ValueError(f"{path}: the columns differ in length: {sorted(lengths)}.")
    n = lengths.pop()

    def chunks(rows: int) -> Iterator[tuple[Any, Any, Any]]:
        for start in range(0, n, rows):
            yield tuple(None if a is None else a[start:start + rows] for a in arrays.values())

    per_row = sum(a.dtype.itemsize for a in arrays.values() if a is not None)
    return _Source(n, per_row, chunks, whole=lambda: tuple(arrays.values()),
                   release=_page_release(*(a for a in arrays.values() if a is not None)))


def _arrow_chunks(batches: Iterable[Any], cols: dict[str, str | None]
                  ) -> Iterator[tuple[Any, Any, Any]]:
    for batch in batches:
        yield tuple(None if name is None else
                    batch.column(batch.schema.get_field_index(name)).to_numpy(zero_copy_only=False)
                    for name in cols.values())


def _parquet_source(path: str, cols: dict[str, str | None]) -> _Source:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError("reading .parquet needs pyarrow: pip install 'indist-fast[io]'") from None
    try:
        pf = pq.ParquetFile(path)
    except Exception as exc:   # pyarrow raises its own error types for bad files
        raise ValueError(f"{path} could not be read as .parquet: {exc}") from exc
    names = pf.schema_arrow.names
    for role, name in cols.items():
        if name is not None and name not in names:
            raise ValueError(f"{role}: column {name!r} is not in {path}; available columns: "
                             f"{', '.join(map(repr, names))}.")
    wanted = [c for c in cols.values() if c]
    per_row = sum(pf.schema_arrow.field(c).type.byte_width or 8 for c in wanted)
    return _Source(pf.metadata.num_rows, per_row,
                   lambda rows: _arrow_chunks(pf.iter_batches(batch_size=rows, columns=wanted),
                                              cols))


def _csv_source(path: str, cols: dict[str, str | None]) -> _Source:
    try:
        import pyarrow.csv as pcsv
    except ImportError:
        y, s, w = read_columns(path, **{k: v for k, v in cols.items()})  # stdlib reader
        return _Source(len(s), 24, lambda rows: iter([(y, s, w)]))

    def chunks(rows: int) -> Iterator[tuple[Any, Any, Any]]:
        reader = pcsv.open_csv(path, read_options=pcsv.ReadOptions(
            block_size=max(1 << 20, min(rows * 24, 1 << 30))))
        names = reader.schema.names
        for role, name in cols.items():
            if name is not None and name not in names:
                raise ValueError(f"{role}: column {name!r} is not in {path}; available "
                                 f"columns: {', '.join(map(repr, names))}.")
        yield from _arrow_chunks(reader, cols)

    return _Source(None, 24, chunks)


_SOURCES = {".npy": _npy_source, ".npz": _npz_source, ".csv": _csv_source,
            ".parquet": _parquet_source, ".pq": _parquet_source}


def _source(path: str, cols: dict[str, str | None]) -> _Source:
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    ext = os.path.splitext(path)[1].lower()
    if ext not in _SOURCES:
        raise ValueError(f"path: cannot read {ext or 'extensionless'} files; use one of "
                         f"{', '.join(sorted(_READERS))}.")
    return _SOURCES[ext](path, cols)


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
    src = _source(path, cols)
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
        if weight is not None:
            return _accumulate(src, rows_per_chunk, pos_label, lv, exclude_self, bar)
        return _out_of_core(src, rows_per_chunk, pos_label, lv, exclude_self, bar, tmp_dir)
    finally:
        bar.close()


def _page_release(*arrays: np.ndarray) -> Callable[[int, int], None]:
    """Drop the resident pages of rows ``start:stop`` of memory-mapped arrays.

    The pages stay in the page cache; the process just stops holding them, so its
    RSS counts the mapped file only where a pass is working.
    """
    maps = []
    for arr in arrays:
        mm = getattr(arr, "_mmap", None)
        if isinstance(arr, np.memmap) and mm is not None and hasattr(mm, "madvise"):
            maps.append((mm, arr.offset % mmap.ALLOCATIONGRANULARITY, arr.itemsize))

    def release(start: int, stop: int) -> None:
        for mm, base, size in maps:
            lo = base + start * size
            hi = base + stop * size
            lo = -(-lo // mmap.PAGESIZE) * mmap.PAGESIZE       # whole pages inside
            hi = hi // mmap.PAGESIZE * mmap.PAGESIZE
            if hi > lo:
                mm.madvise(mmap.MADV_DONTNEED, lo, hi - lo)

    return release


def _mapped(y: np.ndarray, s: np.ndarray, pos_label: Any, levels: tuple[float, ...],
            exclude_self: bool) -> Report:
    """``evaluate`` on memory-mapped columns, releasing their pages behind each pass."""
    rows = prepare_rows(y, s, None, pos_label)
    release = (_page_release(y, s) if rows.y is y or rows.y.base is y else None)
    result = _backend.engine().summarize(rows.y, rows.s, None, rows.pos_value,
                                         rows.neg_value, with_main_level(levels),
                                         exclude_self, None, release)
    return Report.from_sweep(result, levels, rows.n_rows, exclude_self)


def _accumulate(src: _Source, rows: int, pos_label: Any, levels: tuple[float, ...],
                exclude_self: bool, bar: _Progress) -> Report:
    acc = Accumulator(pos_label=pos_label)
    for y, s, w in src.chunks(rows):
        acc.update(y, s, w)
        bar.update(len(s))
    if acc.n_rows == 0:
        raise ValueError("the file holds no rows.")
    return acc.result(levels, exclude_self=exclude_self)


def _out_of_core(src: _Source, rows: int, pos_label: Any, levels: tuple[float, ...],
                 exclude_self: bool, bar: _Progress, tmp_dir: str | None) -> Report:
    from . import _fast, _kernels   # runs are the compiled engine's sorted pieces
    if _backend.backend() != "cython":
        y, s, w = (np.concatenate(c) if c[0] is not None else None
                   for c in zip(*src.chunks(rows)))
        return evaluate(y, s, sample_weight=w, pos_label=pos_label, levels=levels,
                        exclude_self=exclude_self)
    n_rows = 0
    with tempfile.TemporaryDirectory(prefix="indist_fast_", dir=tmp_dir) as directory:
        runs: list[tuple[str, bool]] = []
        for k, (y, s, _) in enumerate(src.chunks(rows)):
            chunk = prepare_rows(y, s, None, pos_label)
            pos_hi, neg_hi, pos_lo, neg_lo = _fast._sorted_pieces(
                chunk.y, chunk.s, chunk.pos_value, chunk.neg_value)
            # lo pieces lie below the pivot and hi above: together each class is sorted
            runs += _write_run(directory, k, ((np.concatenate((pos_lo, pos_hi)), True),
                                              (np.concatenate((neg_lo, neg_hi)), False)))
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
