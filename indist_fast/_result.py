"""The one-sweep summary both engines return."""

from __future__ import annotations

import math
import sys
from typing import Any, NamedTuple

import numpy as np


class SweepResult(NamedTuple):
    """Everything one descending sweep over a score table reads (SPEC §2-§4).

    ``crossings`` has one row per requested level, ``[index, threshold, TP, FP, B]``
    of the first operating point with ``B >= level`` (NaN when none reaches it). B
    there is ``1/2 + G / (2 Den)`` with ``G = 2 Num - Den`` summed in the form that is
    exactly 0 where B is 1/2 by structure, and "reaches" means this very value is
    ``>= level`` (see ``src/_sweep.pxd``), so it agrees with ``Curves.b``.
    ``b_last`` is B at the lowest threshold (every row labelled). ``costs`` holds
    the threshold-choice sums (``CostSums``) when the sweep was asked for them.
    """

    n_groups: int
    n_undefined: int
    weight_pos: float
    weight_neg: float
    auc: float
    average_precision: float
    b_last: float
    crossings: np.ndarray
    costs: CostSums | None = None


class CostSums(NamedTuple):
    """Condition-free sums of SPEC §7 from one sweep (uniform cost proportion).

    ``mae_*``, ``brier_*``: sums of w (1 - s) and w (1 - s)^2 over positives, of w s and
    w s^2 over negatives. ``t_tp``, ``t_fp``:
    the operating point at the fixed threshold; ``q_tp``, ``q_fp``: at the fixed
    rate. ``hull``: rows FP, TP, threshold of the upper ROC convex hull from (0, 0).
    """

    mae_pos: float
    mae_neg: float
    brier_pos: float
    brier_neg: float
    min_score: float
    max_score: float
    t_tp: float
    t_fp: float
    q_tp: float
    q_fp: float
    hull: np.ndarray


def clamp_probability(x: Any) -> Any:
    """A probability (scalar or array) forced into [0, 1]; NaN stays NaN.

    Rounding can carry an exact ratio an ulp past 1 (or below 0); each result path
    clamps once, after the arithmetic, so no probability reported leaves [0, 1]. Not
    for B, which SPEC §3 lets leave [0, 1] (see ``clamp_b``).
    """
    if isinstance(x, (float, int)):       # the common scalar: no NumPy call overhead
        x = float(x)
        return x if 0.0 <= x <= 1.0 or x != x else (0.0 if x < 0.0 else 1.0)
    out = np.clip(x, 0.0, 1.0)
    return float(out) if np.ndim(out) == 0 else out


# B's own rounding slack: a sweep's sums round, so a B that is exactly 0 or 1 can come
# out a few ulps past it; anything further out is SPEC §3's value (fractional weights
# push Num_j or Den_j past the bounds through the self-pair terms) and is kept.
# Twin: ``_sweep.B_ROUNDING``.
B_ROUNDING = 1e-12


def clamp_b(x: Any) -> Any:
    """B, B+ or B- (scalar or array) with rounding past 0 or 1 absorbed; NaN stays NaN.

    Unlike a probability, B is not confined to [0, 1]: with fractional weights the
    self-pair correction of SPEC §3 can carry it outside. Only values within
    ``B_ROUNDING`` of the interval are clamped onto it.
    """
    if isinstance(x, (float, int)):
        x = float(x)
        if -B_ROUNDING <= x < 0.0:
            return 0.0
        return 1.0 if 1.0 < x <= 1.0 + B_ROUNDING else x
    x = np.asarray(x, dtype=np.float64)
    out = np.where((x < 0.0) & (x >= -B_ROUNDING), 0.0,
                   np.where((x > 1.0) & (x <= 1.0 + B_ROUNDING), 1.0, x))
    return float(out) if np.ndim(out) == 0 else out


def weight_scale(total: float) -> float:
    """The power of two a sweep multiplies weights by (twin of ``_sweep.weight_scale``).

    1 for totals in [2**-256, 2**256]; otherwise ``2**-e`` with ``e`` the binary
    exponent of the total clamped to [-1000, 1000] (the scale and its inverse stay
    normal), so products of totals neither overflow nor underflow. Exact: probabilities are unchanged, and B keeps its value because the
    sweep scales the self-pair term by the same factor.
    """
    if not 0.0 < total <= sys.float_info.max:
        return 1.0
    e = math.frexp(total)[1]
    return 1.0 if -256 <= e <= 256 else math.ldexp(1.0, -min(max(e, -1000), 1000))


def b_from_gap(gap: float, den: float) -> float:
    """B = 1/2 + G / (2 Den) with G = 2 Num - Den (see ``_sweep.pxd``); NaN where
    Den <= 0."""
    return clamp_b(0.5 + 0.5 * (gap / den)) if den > 0 else math.nan
