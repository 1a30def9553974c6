"""Hand and Till's pair counts of one score column: one sort of the column, then
prefix sums over the sorted rows give the positive class's pair count against EVERY
other class at once (rows of other classes weigh nothing in a pair's count, so this
is the count of the pair's rows alone)."""

from __future__ import annotations

import numpy as np

from .._core.engine import engine

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

    Without weights the rows are sorted as packed integer keys, the score's order bits
    above the class's bits: a plain sort instead of an argsort (about 5x cheaper).
    """
    # (twice a count of pairs fits int64 below 2**31 rows)
    if w is None and n_classes < 1 << 16 and len(col) < 1 << 31:
        counts = _packed_counts(codes, col, positive, n_classes)
        if counts is not None:
            return counts
    order = np.argsort(col)             # (ties are grouped by value: no need of stable)
    return engine().ordered_pair_counts(order, col, codes, w, positive, n_classes)


def packed_keys(codes: np.ndarray, col: np.ndarray, bits: int) -> tuple[np.ndarray, bool]:
    """Keys ``(order bits of the score) << bits | class`` and whether they are exact.

    Exact when the scores' order bits span less than ``2**(64 - bits)`` once shifted
    to start at 0 (probabilities: from the smallest positive score up, 0 kept below
    it; 1e-6 .. 1 spans about 2**56). Otherwise the lowest ``bits`` order bits make
    room for the class: distinct scores that share the rest tie in the keys.
    """
    low = np.uint64((1 << bits) - 1)
    room = np.uint64(1 << (64 - bits))
    smallest, largest = col.min(), col.max()
    if smallest >= 0:
        u = np.bitwise_and(col.view(np.uint64), ~_SIGN)       # (-0.0 as 0.0)
        lo, hi = np.array([smallest + 0.0, largest]).view(np.uint64)
        if lo == 0 and hi >= room:
            # 0 just below the smallest positive score
            lo = np.array(np.min(col, where=col > 0, initial=largest)).view(np.uint64)
            lo -= np.uint64(1)
            np.maximum(u, lo, out=u)
    else:
        u = ordered_bits(col)
        lo, hi = ordered_bits(np.array([smallest, largest]))
    exact = bool(hi - lo < room)
    if exact:
        u -= lo
        u <<= np.uint64(bits)
    else:
        u &= ~low
    u |= codes.view(np.uint64)              # (codes: int64, non-negative)
    return u, exact


def _packed_counts(codes: np.ndarray, col: np.ndarray, positive: int,
                   n_classes: int) -> np.ndarray | None:
    bits = max(1, int(n_classes - 1).bit_length())
    keys, exact = packed_keys(codes, col, bits)
    keys.sort()
    twice, n_scores = engine().sorted_pair_counts(keys, bits, positive)
    # Inexact keys tie distinct scores that share their kept bits: then the keys are
    # in the scores' order only if the scores have as many distinct values.
    if not exact and n_scores < len(keys):
        scores = np.sort(col + 0.0)
        if np.count_nonzero(scores[1:] != scores[:-1]) + 1 != n_scores:
            return None
    return twice[:n_classes] / 2.0
