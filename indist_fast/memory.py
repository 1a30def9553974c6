"""Scratch memory the library keeps between calls, and how to bound or drop it.

Large summaries (from about a million rows: ``evaluate``, ``roc_auc``,
``average_precision``, ``indistinguishability_threshold``,
``precision_at_indistinguishability`` and ``evaluate_file``), and weighted curves and
score tables from 3e5 rows, write every row once more into cache-sized blocks. Pages fresh from the operating system are zeroed on first
touch, which cost about a tenth of an ``evaluate`` of 1e7 rows here, so the blocks of
the last large summary are kept for the next one: by default at most 256 MiB (1/16 of
physical memory on a smaller machine), enough for 1e7 weighted rows. A summary that
takes them never holds more memory at its peak for it: when no kept buffer is large
enough, the kept ones are dropped before a new one is allocated. Other calls
(unweighted curves and tables, segments, the bootstrap) do not use them, and run
beside what is kept. Set the
limit to 0 to keep nothing, or ``release_scratch()`` after the last large call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._core import scratch
from ._core.validation import check_count

__all__ = ["set_scratch_limit", "release_scratch", "scratch_memory", "ScratchMemory"]


@dataclass(frozen=True)
class ScratchMemory:
    """What ``scratch_memory()`` reports.

    Attributes
    ----------
    limit : int
        The most bytes of idle buffers kept between calls (``set_scratch_limit``).
    kept : int
        The bytes of idle buffers kept now (buffers lent to a running call excluded).

    Examples
    --------
    >>> import indist_fast
    >>> indist_fast.ScratchMemory(limit=256 << 20, kept=0).limit
    268435456
    """

    limit: int
    kept: int


def scratch_memory() -> ScratchMemory:
    """The scratch limit and the bytes kept now, without changing either.

    Returns
    -------
    ScratchMemory
        ``limit`` and ``kept``, in bytes.

    Examples
    --------
    >>> import indist_fast
    >>> memory = indist_fast.scratch_memory()
    >>> memory.kept <= memory.limit
    True
    """
    return ScratchMemory(scratch.limit(), scratch.held())


def set_scratch_limit(nbytes: Any) -> int:
    """Keep at most ``nbytes`` of scratch buffers between calls.

    Parameters
    ----------
    nbytes : int
        The most bytes of idle buffers to keep, 0 to keep none. Buffers kept past the
        new limit are dropped at once (the oldest first).

    Returns
    -------
    int
        The limit before, so that it can be restored.

    Raises
    ------
    TypeError
        ``nbytes`` is not an integer.
    ValueError
        ``nbytes`` is negative or past 2**48.

    Examples
    --------
    >>> import indist_fast
    >>> before = indist_fast.set_scratch_limit(0)     # keep nothing
    >>> indist_fast.release_scratch()
    0
    >>> _ = indist_fast.set_scratch_limit(before)
    """
    return scratch.set_limit(check_count(nbytes, "nbytes", minimum=0, maximum=1 << 48))


def release_scratch() -> int:
    """Drop the scratch buffers kept between calls (buffers in use by a running call
    are dropped when it ends, if the limit no longer has room for them).

    Returns
    -------
    int
        The bytes dropped.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> y, s = rng.random(2_000_000) < 0.1, rng.normal(size=2_000_000)
    >>> auc = indist_fast.roc_auc(y, s)          # keeps its blocks (about 25 MB)
    >>> indist_fast.release_scratch() > 0
    True
    >>> indist_fast.release_scratch()
    0
    """
    return scratch.release()
