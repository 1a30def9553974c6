"""The points a figure draws from exact curves, shared by the matplotlib figures
(``indist_fast.plot``) and the HTML pages (``indist_fast.html``): curves thinned to a
budget that keeps the ROC hull's corners, histogram bins that never refuse a narrow
range, and the checked names of several models. Only what is drawn is thinned; the
numbers behind it stay exact."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._core.engine import engine
from ..table.score_table import ScoreTable, with_main_level

__all__ = ["MAX_COORD", "MAX_BINS", "thin", "bin_edges", "model_names", "hull_corners"]


# matplotlib widens the data range by a margin when it autoscales and overflows
# beyond about 1e307; coordinates larger than this are drawn in units of a power of
# ten (the axis label says which). Only the display is scaled, never the numbers.
MAX_COORD = 1e300
# Each bin is a patch per class; beyond this a histogram only costs drawing time.
MAX_BINS = 10_000


def thin(n: int, max_points: int, keep: np.ndarray | None = None) -> np.ndarray:
    """At most ``max_points`` indices of ``0 .. n-1``, both ends included, evenly spread
    over the points, with the ``keep`` indices first (evenly thinned themselves when
    they alone exceed the budget): corners a straight chord would cut stay drawn."""
    even = np.unique(np.linspace(0, n - 1, min(n, max_points)).astype(np.int64))
    if keep is None or n <= max_points:
        return even
    kept = np.union1d(keep, [0, n - 1])
    out: np.ndarray = (kept[thin(len(kept), max_points)] if len(kept) >= max_points
                       # the spread's two ends are already kept: the union fits the budget
                       else np.union1d(kept, thin(n, max_points - len(kept) + 2)))
    return out


def bin_edges(x: np.ndarray, bins: int) -> np.ndarray:
    """``bins`` equal bins over the range of ``x`` (finite, within ``MAX_COORD``).

    Unlike ``numpy.histogram_bin_edges`` this never refuses a narrow range: scores a
    few ulps apart share fewer distinct edges instead of raising "too many bins".
    Edges are ``lo (1 - t) + hi t``, which stay within ``[lo, hi]`` and hit both.
    """
    lo, hi = (float(x.min()), float(x.max())) if len(x) else (0.0, 1.0)
    if lo == hi:                      # one distinct score: a bin around it, as numpy
        pad = max(0.5, abs(lo) * 1e-3)
        lo, hi = lo - pad, hi + pad
    t = np.linspace(0.0, 1.0, bins + 1)
    edges: np.ndarray = np.unique(lo * (1.0 - t) + hi * t)
    return edges


def model_names(models: Mapping[Any, Any], arg: str) -> list[str]:
    if not models:
        raise ValueError(f"{arg} must hold at least one model, got an empty mapping.")
    for key in models:
        if not isinstance(key, str):
            raise TypeError(f"{arg} keys must be model names (str), got {key!r} "
                            f"({type(key).__name__}).")
    return list(models)


def hull_corners(table: ScoreTable, thresholds: np.ndarray) -> np.ndarray:
    """Indices into the curve (``thresholds`` descending) of the ROC convex hull's
    vertices: the operating points optimal for some cost, which thinning must keep."""
    # the engine gathers the hull in its cost pass (one O(m) sweep, both backends)
    sweep = engine().sweep_table(table.scores, table.pos, table.neg,
                                 with_main_level((0.5,)), True, (math.nan,) * 3)
    assert sweep.costs is not None
    corners = sweep.costs.hull[2, 1:]            # column 0 is the origin
    return np.searchsorted(-thresholds, -corners)
