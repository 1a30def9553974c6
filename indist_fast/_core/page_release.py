"""Memory pages of rows nobody will read again, given back to the system.

``OwnedRows`` is the ``release`` (see ``records.Release``) of arrays a caller hands
over to one ``summarize``: fresh, C-contiguous, read by nobody else (``evaluate_file``
decodes a Parquet file into such arrays). The compiled engine calls it only behind its
last pass over the rows, never after a pass that another will follow, as it may for a
memory-mapped file: file pages come back from the file, these would come back as zeros.
"""

from __future__ import annotations

import ctypes
import mmap
import sys

import numpy as np

__all__ = ["OwnedRows", "drop_pages", "small_pages"]


def _madvise() -> object | None:
    if not sys.platform.startswith("linux") or not hasattr(mmap, "MADV_DONTNEED"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    fn.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    fn.restype = ctypes.c_int
    return fn


_MADVISE = _madvise()


def _advise(arr: np.ndarray, start: int, stop: int, advice: int) -> None:
    """``madvise`` the whole pages inside elements ``start:stop`` of ``arr``."""
    if _MADVISE is None or not arr.flags.c_contiguous or stop <= start:
        return
    address = arr.ctypes.data
    lo = -(-(address + start * arr.itemsize) // mmap.PAGESIZE) * mmap.PAGESIZE
    hi = (address + stop * arr.itemsize) // mmap.PAGESIZE * mmap.PAGESIZE
    if hi > lo:
        _MADVISE(lo, hi - lo, advice)      # type: ignore[operator]


def drop_pages(arr: np.ndarray, start: int, stop: int) -> None:
    """Give back the whole pages inside elements ``start:stop`` of ``arr`` (Linux; a
    no-op elsewhere). They read as zeros afterwards: only for arrays the caller owns."""
    _advise(arr, start, stop, mmap.MADV_DONTNEED)


def small_pages(arr: np.ndarray) -> None:
    """Back a fresh array that will be written all over at once by ordinary pages, not
    huge ones (NumPy asks for huge pages for large arrays): a scatter's first writes
    would otherwise make every 2 MB of it resident at once, the whole array long before
    it is full (Linux; a no-op elsewhere)."""
    advice = getattr(mmap, "MADV_NOHUGEPAGE", None)
    if advice is not None:
        _advise(arr, 0, len(arr), advice)


class OwnedRows:
    """Release rows ``start:stop`` of arrays handed over for good: their pages go back
    (see the module's notes for when an engine may call it)."""

    def __init__(self, *arrays: np.ndarray | None) -> None:
        self._arrays = tuple(a for a in arrays if a is not None)

    def __call__(self, start: int, stop: int) -> None:
        for arr in self._arrays:
            drop_pages(arr, start, stop)
