"""Scratch buffers kept from one call to the next.

The radix paths write every row once more into blocks (8 to 16 bytes a row). Fresh
from the system, those pages are zeroed by the operating system on first touch:
about a tenth of an ``evaluate`` of 1e7 rows (``benchmarks/first_touch.py``). A buffer
kept from an earlier call is already mapped. Three rules bound what that costs:

- at most ``limit()`` bytes are kept, idle, between calls (``set_limit``, ``release``);
- when no idle buffer is large enough, the idle ones are dropped before a new one is
  allocated, so a call's peak memory is what it would be without keeping;
- buffers below ``MIN_KEPT_BYTES`` are not kept: the C allocator's own free lists hand
  those back mapped (glibc maps fresh only allocations past its threshold, 32 MB at
  most).

A ``Loan`` lends buffers for one call and takes them all back when its ``with`` block
ends, so nothing it lent may be reachable from the call's result.
"""

from __future__ import annotations

import os
import threading
from types import TracebackType

import numpy as np

from .records import Array

__all__ = ["Loan", "aligned_empty", "limit", "set_limit", "release", "held"]

MIN_KEPT_BYTES = 16 << 20
# A new buffer gets 1/_SLACK more capacity than asked, so that a slightly larger call
# next reuses it; pages past what a call writes are never touched and cost no memory.
_SLACK = 8


def _default_limit() -> int:
    """256 MiB (a 1e7-row weighted call's blocks), at most 1/16 of physical memory."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        physical = 0
    return min(256 << 20, physical // 16) if physical > 0 else 0


_lock = threading.Lock()
_idle: list[Array] = []         # uint8 buffers, oldest first
_limit = _default_limit()


def _after_fork() -> None:
    # A forked child may inherit the lock held by a thread it does not have; its copy of
    # the idle buffers is shared with the parent until written, so drop it.
    global _lock
    _lock = threading.Lock()
    _idle.clear()


os.register_at_fork(after_in_child=_after_fork)


def aligned_empty(n: int, dtype: type) -> Array:
    """``np.empty(n, dtype)`` starting on a 64-byte boundary (blocks are whole cache
    lines), fresh: not kept."""
    item = np.dtype(dtype).itemsize
    raw: Array = np.empty(n + 64 // item, dtype=dtype)
    skip = (-raw.ctypes.data % 64) // item
    return raw[skip:skip + n]


def limit() -> int:
    """How many bytes of idle buffers are kept between calls."""
    return _limit


def held() -> int:
    """How many bytes of idle buffers are kept now."""
    with _lock:
        return sum(b.nbytes for b in _idle)


def set_limit(nbytes: int) -> int:
    """Keep at most ``nbytes`` of idle buffers (dropping the oldest past it); returns the
    limit before."""
    global _limit
    with _lock:
        before, _limit = _limit, nbytes
        _trim()
    return before


def release() -> int:
    """Drop every idle buffer; returns the bytes dropped."""
    with _lock:
        dropped = sum(b.nbytes for b in _idle)
        _idle.clear()
    return dropped


def _trim() -> None:
    """Drop the oldest idle buffers until the rest fit the limit (lock held)."""
    total = sum(b.nbytes for b in _idle)
    while _idle and total > _limit:
        total -= _idle.pop(0).nbytes


def _take(nbytes: int) -> Array:
    """An idle buffer of at least ``nbytes`` (the smallest), or a new one once the idle
    ones are dropped."""
    with _lock:
        fits = [i for i, b in enumerate(_idle) if b.nbytes >= nbytes]
        if fits:
            return _idle.pop(min(fits, key=lambda i: _idle[i].nbytes))
        _idle.clear()
        room = max(nbytes, _limit)
    return np.empty(min(nbytes + nbytes // _SLACK, room), dtype=np.uint8)


def _give(raw: Array) -> None:
    with _lock:
        if raw.nbytes <= _limit:
            _idle.append(raw)
            _trim()


class Loan:
    """Buffers lent for the length of a ``with`` block, given back at its end."""

    def __init__(self) -> None:
        self._lent: list[Array] = []

    def __enter__(self) -> Loan:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        lent, self._lent = self._lent, []
        for raw in lent:
            _give(raw)

    def aligned(self, n: int, dtype: type) -> Array:
        """``aligned_empty(n, dtype)``, from a kept buffer when it is large enough to be
        worth keeping (one past the limit is dropped when given back)."""
        item = np.dtype(dtype).itemsize
        nbytes = n * item
        if nbytes < MIN_KEPT_BYTES:
            return aligned_empty(n, dtype)
        raw = _take(nbytes + 64)
        self._lent.append(raw)
        skip = -raw.ctypes.data % 64
        return raw[skip:skip + nbytes].view(dtype)
