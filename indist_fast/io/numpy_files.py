"""NumPy's own files: ``.npy`` (a structured array, one field a column) and ``.npz``
(one member a column). Members stored without compression are memory-mapped in place
(``Source.whole``: no copy); compressed ones are inflated a chunk at a time."""

from __future__ import annotations

import contextlib
import mmap
import os
import zipfile
from typing import IO, Any, Callable, Iterator

import numpy as np

from .columns import check_dtype, check_present, role_of
from .source import Source, guarded, one_line, reading

__all__ = ["open_npy", "open_npz", "page_release"]


def open_npy(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    """The columns ``cols`` of a ``.npy`` structured array, read in chunks of the map.

    ``drop_nulls`` is accepted for the registry's sake: NumPy arrays have no nulls."""
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, EOFError, OSError) as exc:
        raise ValueError(f"path: {path} could not be read as .npy: {one_line(exc)}") from exc
    if not isinstance(arr, np.ndarray):          # np.load opened a zip (an .npz)
        arr.close()
        raise ValueError(f"path: {path} could not be read as .npy: it is an .npz archive.")
    names = list(arr.dtype.names or [])
    check_present(path, cols, names, "none (a plain array)")
    if arr.ndim != 1:
        raise ValueError(f"path: {path} holds a structured array of shape {arr.shape}; "
                         "expected one dimension (one record per row).")
    for role, name in cols.items():
        if name is not None:
            check_dtype(path, role, name, arr.dtype[name])

    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
        for start in range(0, len(arr), rows):
            part = arr[start:start + rows]
            yield tuple(None if n is None else np.ascontiguousarray(part[n])
                        for n in cols.values())

    return Source(len(arr), arr.dtype.itemsize, chunks, release=page_release(arr))


def _member_header(fh: IO[bytes], path: str, key: str, name: str) -> tuple[int, np.dtype]:
    """Length and dtype of the .npy member ``name`` whose bytes ``fh`` is at."""
    try:
        version = np.lib.format.read_magic(fh)
        read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                       else np.lib.format.read_array_header_2_0)
        shape, _, dtype = read_header(fh)
    except (ValueError, EOFError) as exc:
        raise ValueError(f"path: {path} could not be read as .npz: member {name!r}: "
                         f"{one_line(exc)}") from exc
    if len(shape) != 1:
        raise ValueError(f"{role_of(key)}: member {name!r} of {path} must be a 1d array, "
                         f"got shape {shape}.")
    check_dtype(path, key, name, dtype)
    return shape[0], dtype


def _npz_mapped(path: str, info: zipfile.ZipInfo, role: str, name: str) -> np.ndarray:
    """An uncompressed member, memory-mapped in place."""
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        local = fh.read(30)
        if local[:4] != b"PK\x03\x04":
            raise ValueError(f"path: {path} could not be read as .npz: member {name!r} has "
                             "a corrupt local header.")
        start = (info.header_offset + 30 + int.from_bytes(local[26:28], "little")
                 + int.from_bytes(local[28:30], "little"))
        fh.seek(start)
        n, dtype = _member_header(fh, path, role, name)
        offset = fh.tell()
    if offset + dtype.itemsize * n > os.path.getsize(path):
        raise ValueError(f"path: {path} is truncated: member {name!r} needs more bytes than "
                         "the file holds.")
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=(n,))


def _read_exact(fh: IO[bytes], size: int, path: str, name: str) -> bytes:
    data = fh.read(size)
    if len(data) != size:
        raise ValueError(f"path: {path} is truncated: member {name!r} ends early.")
    return data


def open_npz(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    """The members ``cols`` of an ``.npz``: mapped when all are stored, else streamed.

    ``drop_nulls`` is accepted for the registry's sake: NumPy arrays have no nulls."""
    with reading(path, ".npz"), zipfile.ZipFile(path) as zf:
        members = {n[:-4]: zf.getinfo(n) for n in zf.namelist() if n.endswith(".npy")}
        check_present(path, cols, list(members))
        used = {role: name for role, name in cols.items() if name is not None}
        compressed = any(members[n].compress_type != zipfile.ZIP_STORED for n in used.values())
        if not compressed:
            mapped = {role: _npz_mapped(path, members[name], role, name)
                      for role, name in used.items()}
            specs = {role: (len(a), a.dtype) for role, a in mapped.items()}
        else:
            specs = {}
            for role, name in used.items():
                with zf.open(members[name]) as fh:
                    specs[role] = _member_header(fh, path, role, name)
    lengths = {n for n, _ in specs.values()}
    if len(lengths) != 1:
        raise ValueError(f"path: the columns of {path} differ in length: "
                         + ", ".join(f"{role_of(k)} {n}" for k, (n, _) in specs.items())
                         + ".")
    n_rows = lengths.pop()
    per_row = sum(dtype.itemsize for _, dtype in specs.values())
    if not compressed:
        arrays = tuple(mapped.get(role) for role in cols)

        def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
            for start in range(0, n_rows, rows):
                yield tuple(None if a is None else a[start:start + rows] for a in arrays)

        return Source(n_rows, per_row, chunks, whole=lambda: arrays,
                      release=page_release(*mapped.values()))

    def streamed(rows: int) -> Iterator[tuple[Any, ...]]:
        # Compressed members are inflated as they are read: memory stays at one chunk.
        with zipfile.ZipFile(path) as zf, contextlib.ExitStack() as stack:
            handles = {}
            for role, name in used.items():
                handles[role] = stack.enter_context(zf.open(members[name]))
                _member_header(handles[role], path, role, name)
            for start in range(0, n_rows, rows):
                k = min(rows, n_rows - start)
                yield tuple(None if name is None else np.frombuffer(
                    _read_exact(handles[role], k * specs[role][1].itemsize, path, name),
                    dtype=specs[role][1]) for role, name in cols.items())
            for role, fh in handles.items():      # reading to the end checks the CRC
                if fh.read(1):
                    raise ValueError(f"path: {path} could not be read as .npz: member "
                                     f"{used[role]!r} is longer than its header says.")

    return Source(n_rows, per_row, lambda rows: guarded(lambda: streamed(rows), path, ".npz"))


def page_release(*arrays: np.ndarray) -> Callable[[int, int], None]:
    """Drop the resident pages of rows ``start:stop`` of memory-mapped arrays.

    The pages stay in the page cache; the process just stops holding them, so its
    RSS counts the mapped file only where a pass is working.

    Parameters
    ----------
    *arrays : ndarray
        Columns of the same rows; those that are not memory-mapped are left alone.

    Returns
    -------
    callable
        ``release(start, stop)``.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.io import page_release
    >>> page_release(np.arange(3))(0, 3)          # nothing mapped: nothing to drop
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
