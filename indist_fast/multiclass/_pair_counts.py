"""Hand and Till's pair counts of one score column: one sort of the column, then
prefix sums over the sorted rows give the positive class's pair count against EVERY
other class at once (rows of other classes weigh nothing in a pair's count, so this
is the count of the pair's rows alone)."""

from __future__ import annotations

import numpy as np

_SIGN = np.uint64(1 << 63)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def ordered_bits(col: np.ndarray) -> np.ndarray:
    """Unsigned integers in the order of the float64 scores (-0.0 as +0.0)."""
    u = (col + 0.0).view(np.uint64)         # (+ 0.0 turns -0.0 into +0.0)
    # negative floats: all bits flipped; others: the sign bit set
    flip = (u >> np.uint64(63)) * _ALL | _SIGN
    return u ^ flip


def pair_counts(codes: np.ndarray, col: np.ndarray, positive: int, n_classes: int,
                w: np.ndarray | None = None) -> np.ndarray:
    """``out[j]`` = sum over rows x of class ``positive`` and rows y of class ``j`` of
    ``w_x w_y ([s_x > s_y] + [s_x == s_y] / 2)`` with ``s`` the scores ``col``.

    Without weights the rows are sorted as packed keys (the score's leading bits, the
    class in the bits that remain), a plain sort of integers instead of an argsort; the
    keys' order is the scores' order unless two distinct scores share their leading
    bits, which a sort of the exact scores then detects (the argsort is the fallback).
    """
    if w is None and n_classes < 1 << 16 and len(col) < 1 << 31:
        counts = _packed_counts(codes, col, positive, n_classes)
        if counts is not None:
            return counts
    order = np.argsort(col, kind="stable")
    s = col[order]
    labels = codes[order].astype(np.intp)
    weights = None if w is None else w[order]
    new = s[1:] != s[:-1]
    return _group_counts(labels, new, positive, n_classes, weights)


def _packed_counts(codes: np.ndarray, col: np.ndarray, positive: int,
                   n_classes: int) -> np.ndarray | None:
    bits = max(1, int(n_classes - 1).bit_length())
    shift = np.uint64(bits)
    low = np.uint64((1 << bits) - 1)
    if col.min() >= 0:
        # (probabilities: the float's own bits are in order once the sign bit of -0.0
        # is cleared, in the same pass that clears the class's bits)
        keys = np.bitwise_and(col.view(np.uint64), ~(_SIGN | low))
    else:
        keys = ordered_bits(col)
        keys &= ~low
    keys |= codes.view(np.uint64)            # (codes: int64, non-negative)
    keys.sort()
    labels = (keys & low).view(np.int64)
    keys >>= shift                          # the leading bits alone
    new = keys[1:] != keys[:-1]
    if not new.all():
        # Ties, or distinct scores sharing their leading bits: the keys are only in the
        # scores' order when the exact scores have as many distinct values.
        exact = np.sort(col + 0.0)
        if np.count_nonzero(exact[1:] != exact[:-1]) != np.count_nonzero(new):
            return None
        return _group_counts(labels, new, positive, n_classes, None)
    # No ties: each row of another class counts the positive rows above it.
    # (int32 prefix counts: n < 2**31 rows here, see pair_counts)
    above = np.cumsum(labels == positive, dtype=np.int32)
    np.subtract(above[-1], above, out=above)
    return np.bincount(labels, weights=above, minlength=n_classes)


def _group_counts(labels: np.ndarray, new: np.ndarray, positive: int, n_classes: int,
                  w: np.ndarray | None) -> np.ndarray:
    """Pair counts of rows sorted ascending by score (``labels`` their classes, ``new``
    where the score changes): a row counts the positive weight strictly above its score
    and half the positive weight at it."""
    group = np.zeros(len(labels), dtype=np.intp)
    np.cumsum(new, out=group[1:])
    pos_row = (labels == positive) if w is None else np.where(labels == positive, w, 0.0)
    pos_group = np.bincount(group, weights=pos_row)
    above = pos_group.sum() - np.cumsum(pos_group)
    per_row = (above + 0.5 * pos_group)[group]
    if w is not None:
        per_row *= w
    return np.bincount(labels, weights=per_row, minlength=n_classes)
