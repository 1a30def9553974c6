"""Where a score column's packed keys ``(order bits of the score) << bits | class``
start and whether they are exact (the multiclass pair counts sort such keys); both
engines take it from here and differ only in how they write the keys."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .records import Array

_SIGN = np.uint64(1 << 63)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


class KeyRange(NamedTuple):
    """``lo``: the order bits the keys count from; ``signed``: the column holds negative
    scores (order bits with the sign folded, else the plain bits of non-negative floats,
    raised to at least ``lo``); ``exact``: the keys keep every order bit."""

    lo: int
    exact: bool
    signed: bool


def ordered_bits(col: Array) -> Array:
    """Unsigned integers in the order of the float64 scores (-0.0 as +0.0)."""
    u = (col + 0.0).view(np.uint64)         # (+ 0.0 turns -0.0 into +0.0)
    # negative floats: all bits flipped; others: the sign bit set
    flip = (u >> np.uint64(63)) * _ALL | _SIGN
    return u ^ flip


def key_range(col: Array, bits: int) -> KeyRange:
    """The range of the keys of ``col`` (float64 without NaN, not empty).

    Exact when the scores' order bits span less than ``2**(64 - bits)`` once shifted
    to start at 0 (probabilities: from the smallest positive score up, 0 kept below
    it; 1e-6 .. 1 spans about 2**56). Otherwise the lowest ``bits`` order bits make
    room for the class: distinct scores that share the rest tie in the keys.
    """
    room = 1 << (64 - bits)
    smallest, largest = col.min(), col.max()
    if smallest >= 0:
        lo, hi = (int(b) for b in np.array([smallest + 0.0, largest]).view(np.uint64))
        if lo == 0 and hi >= room:
            # 0 just below the smallest positive score
            lo = int(np.array(np.min(col, where=col > 0, initial=largest)).view(np.uint64)) - 1
        return KeyRange(lo, hi - lo < room, False)
    lo, hi = (int(b) for b in ordered_bits(np.array([smallest, largest])))
    return KeyRange(lo, hi - lo < room, True)
