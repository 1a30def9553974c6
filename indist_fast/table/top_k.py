"""Precision, recall and lift among the ``k`` highest-scored rows of a score table,
ties at the cut counted by their expected share."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.validation import check_two_classes
from ..results.top_k_result import TopK

__all__ = ["check_k", "top_k_of"]


def check_k(k: Any) -> int | float:
    """``k`` of ``top_k``: an int >= 1 (rows) or a float in (0, 1] (a share of them);
    the bound by the number of rows is checked against the table (``top_k_of``).

    Parameters
    ----------
    k : Any
        The argument as passed.

    Returns
    -------
    int or float
        ``k`` as a Python number.

    Examples
    --------
    >>> from indist_fast.table.top_k import check_k
    >>> check_k(5), check_k(0.1)
    (5, 0.1)
    """
    if isinstance(k, (bool, np.bool_)):
        raise TypeError(f"k must be an int (rows) or a float in (0, 1] (a share of the "
                        f"rows), got {k!r}.")
    if isinstance(k, (int, np.integer)):
        if k < 1:
            raise ValueError(f"k must be at least 1 row (or a share in (0, 1]), got {k}.")
        return int(k)
    if isinstance(k, (float, np.floating)):
        if not 0.0 < k <= 1.0:
            raise ValueError(f"k as a float is a share of the rows and must lie in (0, 1], "
                             f"got {k!r}; pass an int for a number of rows.")
        return float(k)
    raise TypeError(f"k must be an int (rows) or a float in (0, 1] (a share of the rows), "
                    f"got {k!r} ({type(k).__name__}).")


def top_k_of(table: Any, k: int | float) -> TopK:
    """``top_k`` of a ``ScoreTable``'s rows, ``k`` already checked by ``check_k``.

    Parameters
    ----------
    table : ScoreTable
        The rows' table (both classes with positive weight).
    k : int or float
        Rows or a share of them; an int above the rows raises ValueError naming ``k``.

    Returns
    -------
    TopK
        Precision, recall and lift among the rows taken.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.table.top_k import top_k_of
    >>> top_k_of(ScoreTable.from_arrays([0, 1, 1, 0], [0.2, 0.7, 0.5, 0.1]), 1).precision
    1.0
    """
    with np.errstate(over="ignore"):        # an infinite total is refused just below
        check_two_classes(table.weight_pos, table.weight_neg)
    pos, neg = table.pos, table.neg
    if pos.dtype.kind == "i":
        # counts: the totals exact from two sums, the running count only as far as the cut
        wp = float(pos.sum())
        total = wp + float(neg.sum())
        taken = None
    else:
        taken = np.cumsum(pos + neg)
        tp = np.cumsum(pos)
        total, wp = float(taken[-1]), float(tp[-1])
    if isinstance(k, int):
        if k > total:
            raise ValueError(f"k must be at most the number of rows ({total:,g}; with "
                             f"sample_weight, their weight), got {k:,}.")
        size = float(k)
    else:
        size = k * total if k < 1.0 else total
    # The cut falls in the first group whose running weight reaches ``size``; of that
    # tied group, the rows taken are a random subset, so each brings the group's
    # positive share on average.
    if taken is None:
        j, before = _first_reaching(pos, neg, size)
        tp_before = float(pos[:j].sum())
    else:
        j = min(int(np.searchsorted(taken, size, side="left")), len(taken) - 1)
        before = float(taken[j - 1]) if j else 0.0
        tp_before = float(tp[j - 1]) if j else 0.0
    group = float(pos[j]) + float(neg[j])
    share = min(max((size - before) / group, 0.0), 1.0)
    positives = tp_before + share * float(pos[j])
    precision = min(positives / size, 1.0)
    base_rate = wp / total
    return TopK(k=k, size=size, threshold=float(table.scores[j]), tie_share=float(share),
                tp=float(positives), precision=float(precision),
                recall=float(min(positives / wp, 1.0)), lift=float(precision / base_rate),
                base_rate=base_rate)


def _first_reaching(pos: np.ndarray, neg: np.ndarray, size: float) -> tuple[int, float]:
    """The first entry whose running count (``pos + neg``, int64) reaches ``size``, and
    the count before it, summed in blocks that double from the top: a cut among the
    highest scores reads few entries. The last entry when none reaches it."""
    carry, i, block = 0, 0, 1 << 12
    while i < len(pos):
        running = np.cumsum(pos[i:i + block] + neg[i:i + block])
        running += carry
        if running[-1] >= size or i + block >= len(pos):
            at = min(int(np.searchsorted(running, size, side="left")), len(running) - 1)
            return i + at, float(running[at - 1] if at else carry)
        carry, i, block = int(running[-1]), i + block, block * 2
    raise AssertionError("unreachable: the table is not empty")
