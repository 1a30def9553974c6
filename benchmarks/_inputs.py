"""Seeded benchmark inputs, built once, outside any timed call."""

from __future__ import annotations

import numpy as np

SIZES = (1_000, 100_000, 10_000_000)
VARIANTS = ("continuous", "tied", "weighted")


def make(n: int, variant: str, seed: int = 0):
    """(y, s, w): bool labels with 10% positives, float64 scores, weights or None.

    ``tied`` rounds scores to 1000 distinct values; ``weighted`` adds uniform weights.
    """
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + 1.5 * y
    w = None
    if variant == "tied":
        s = np.round(s * 100) / 100
    elif variant == "weighted":
        w = rng.random(n)
    return y, s, w
