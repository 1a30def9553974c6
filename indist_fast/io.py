"""Read label, score and weight columns from .npy, .npz, .csv and .parquet files.

Every format is a *source*: its columns in chunks of bounded size, and, where the
file allows it (``.npz`` members stored without compression), the whole columns
memory-mapped without a copy. ``read_columns`` reads them whole;
``indist_fast.evaluate_file`` streams them.
"""

from __future__ import annotations

import csv
import mmap
import os
import zipfile
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import numpy as np

__all__ = ["read_columns", "open_source"]

_READ_CHUNK_ROWS = 1 << 22


def _pick(available: list[str], wanted: dict[str, str | None], path: str) -> None:
    for role, name in wanted.items():
        if name is not None and name not in available:
            raise ValueError(f"{role}: column {name!r} is not in {path}; available columns: "
                             f"{', '.join(map(repr, available)) or 'none'}.")


@dataclass
class _Source:
    n_rows: int | None                      # None when unknown before reading (CSV)
    bytes_per_row: int
    chunks: Callable[[int], Iterator[tuple[Any, ...]]]
    whole: Callable[[], tuple[Any, ...]] | None = None        # zero-copy columns
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

    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
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

    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
        for start in range(0, n, rows):
            yield tuple(None if a is None else a[start:start + rows] for a in arrays.values())

    per_row = sum(a.dtype.itemsize for a in arrays.values() if a is not None)
    return _Source(n, per_row, chunks, whole=lambda: tuple(arrays.values()),
                   release=_page_release(*(a for a in arrays.values() if a is not None)))


def _arrow_chunks(batches: Iterable[Any], cols: dict[str, str | None]
                  ) -> Iterator[tuple[Any, ...]]:
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
        data = _csv_stdlib(path, cols)
        y, s, w = data["label"], data["score"], data["weight"]
        return _Source(len(s), 24, lambda rows: iter([(y, s, w)]))

    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
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


def open_source(path: str, cols: dict[str, str | None]) -> _Source:
    """The columns ``cols`` (role -> name, or None) of the file at ``path``."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    ext = os.path.splitext(path)[1].lower()
    if ext not in _SOURCES:
        raise ValueError(f"path: cannot read {ext or 'extensionless'} files; use one of "
                         f"{', '.join(sorted(_SOURCES))}.")
    return _SOURCES[ext](path, cols)


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


def _csv_stdlib(path: str, cols: dict[str, str | None]) -> dict[str, Any]:
    """The whole CSV with the standard library (when pyarrow is missing)."""
    with open(path, newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None:
            raise ValueError(f"{path} is empty: expected a header row.")
        _pick(header, cols, path)
        index = {role: header.index(name) for role, name in cols.items() if name}
        values: dict[str, list[str]] = {role: [] for role in index}
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise ValueError(f"{path}, line {line}: {len(row)} fields, header has "
                                 f"{len(header)}.")
            for role, i in index.items():
                values[role].append(row[i])
    out: dict[str, Any] = {role: None for role in cols}
    for role, raw in values.items():
        try:
            out[role] = np.array(raw, dtype=np.float64)
        except ValueError:
            if role != "label":
                raise ValueError(f"{role}: column {cols[role]!r} of {path} is not numeric.") from None
            out[role] = np.array(raw)
    return out


def read_columns(path: str | os.PathLike[str], *, label: str, score: str,
                 weight: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Read ``(y_true, y_score, sample_weight)`` columns from a file.

    Parameters
    ----------
    path : str or path-like
        ``.npy`` (a structured array), ``.npz``, ``.csv`` or ``.parquet`` (needs
        pyarrow).
    label, score : str
        Column (field, array) names of the labels and the scores.
    weight : str, default=None
        Column of sample weights, if any.

    Returns
    -------
    tuple of ndarray
        Labels, scores and weights (None without a weight column); memory-mapped
        where the file allows it.
    """
    src = open_source(os.fspath(path), {"label": label, "score": score, "weight": weight})
    if src.whole is not None:
        y, s, w = src.whole()
        return y, s, w
    parts = list(src.chunks(_READ_CHUNK_ROWS))
    if not parts:
        raise ValueError(f"{path} holds no rows.")
    y, s, w = (None if c[0] is None else np.concatenate(c) for c in zip(*parts))
    assert y is not None and s is not None
    return y, s, w
