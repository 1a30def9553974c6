"""The arithmetic both engine twins share on the numbers they return (``records``), so
they are turned into reported ones the same way on every path: probabilities clamped
(``clamp_probability``, ``clamp_b``), B from its gap (``b_from_gap``), the exact weight
scale (``weight_scale``, ``scale_exponent``), the rates at an operating point
(``operating_rates``, ``point_rates``) and the first crossing over pieces
(``first_crossings``).
"""

from __future__ import annotations

import math
import sys
from typing import Any, NamedTuple, Sequence

import numpy as np


def clamp_probability(x: Any) -> Any:
    """A probability (scalar or array) forced into [0, 1]; NaN stays NaN.

    Rounding can carry an exact ratio an ulp past 1 (or below 0); each result path
    clamps once, after the arithmetic, so no probability reported leaves [0, 1]. Not
    for B, which the self-pair correction lets leave [0, 1] (see ``clamp_b``).
    """
    if isinstance(x, (float, int)):       # the common scalar: no NumPy call overhead
        return _unit(x)
    out = np.clip(x, 0.0, 1.0)
    return float(out) if np.ndim(out) == 0 else out


def _unit(x: float) -> float:
    """``clamp_probability`` of a float (the scalar path, without its checks)."""
    x = float(x)
    return x if 0.0 <= x <= 1.0 or x != x else (0.0 if x < 0.0 else 1.0)


def _divide(a: float, b: float) -> float:
    """``a / b`` for floats as IEEE (and NumPy) divides: x / 0 is +-inf, 0 / 0 NaN."""
    if b != 0.0:
        return a / b
    if a == 0.0 or a != a:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


class Rates(NamedTuple):
    """The rates of operating points, from their TP and FP (definitions page): precision ``C``,
    lift ``C / base_rate``, true and false positive rates and F1; scalars or arrays as
    given to ``operating_rates``."""

    precision: Any
    lift: Any
    tpr: Any
    fpr: Any
    f1: Any


def operating_rates(tp: Any, fp: Any, weight_pos: Any, weight_neg: Any) -> Rates:
    """Precision, lift, TPR, FPR and F1 where ``tp`` positive and ``fp`` negative weight
    lie at or above the threshold, out of ``weight_pos`` and ``weight_neg``.

    The one place these formulas live: reports, curves and bootstrap replicates all
    read them here, so they agree to the bit. Any argument may be an array (they
    broadcast); scalars give Python floats. Probabilities are clamped to [0, 1] once,
    after the arithmetic; a zero denominator gives NaN or inf, never an error (a
    replicate may draw no positive).
    """
    if (isinstance(tp, float) and isinstance(fp, float) and isinstance(weight_pos, float)
            and isinstance(weight_neg, float)):
        return Rates(*point_rates(tp, fp, weight_pos, weight_neg))
    tp, fp, wp, wn = (np.asarray(v, dtype=np.float64)[()]
                      for v in (tp, fp, weight_pos, weight_neg))
    # Python float arithmetic, which these replace, overflows to inf silently.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        precision = clamp_probability(tp / (tp + fp))
        lift = precision / (wp / (wp + wn))
        return Rates(precision, float(lift) if np.ndim(lift) == 0 else lift,
                     clamp_probability(tp / wp), clamp_probability(fp / wn),
                     clamp_probability(2.0 * tp / (tp + fp + wp)))


def point_rates(tp: float, fp: float, weight_pos: float,
                weight_neg: float) -> tuple[float, float, float, float, float]:
    """``operating_rates`` of one operating point given as Python floats, as a plain
    tuple: a report's levels, where NumPy's overhead (and the named tuple's) would be
    most of the work."""
    total = tp + fp + weight_pos
    if tp + fp > 0.0 and weight_pos > 0.0 and weight_neg > 0.0 and total > 0.0:
        base = weight_pos / (weight_pos + weight_neg)
        if base > 0.0:
            # No zero denominator (the base rate may underflow to 0): _divide would
            # divide as these do. The clamps are _unit's, inline.
            p = tp / (tp + fp)
            p = p if 0.0 <= p <= 1.0 or p != p else (0.0 if p < 0.0 else 1.0)
            tpr, fpr, f1 = tp / weight_pos, fp / weight_neg, 2.0 * tp / total
            return (p, p / base,
                    tpr if 0.0 <= tpr <= 1.0 or tpr != tpr else (0.0 if tpr < 0.0 else 1.0),
                    fpr if 0.0 <= fpr <= 1.0 or fpr != fpr else (0.0 if fpr < 0.0 else 1.0),
                    f1 if 0.0 <= f1 <= 1.0 or f1 != f1 else (0.0 if f1 < 0.0 else 1.0))
    precision = _unit(_divide(tp, tp + fp))
    return (precision, _divide(precision, _divide(weight_pos, weight_pos + weight_neg)),
            _unit(_divide(tp, weight_pos)), _unit(_divide(fp, weight_neg)),
            _unit(_divide(2.0 * tp, tp + fp + weight_pos)))


# B's own rounding slack: a sweep's sums round, so a B that is exactly 0 or 1 can come
# out a few ulps past it; anything further out is B's exact value (fractional weights
# push Num_j or Den_j past the bounds through the self-pair terms) and is kept.
# Twin: ``sweep.B_ROUNDING``.
B_ROUNDING = 1e-12


def clamp_b(x: Any) -> Any:
    """B, B+ or B- (scalar or array) with rounding past 0 or 1 absorbed; NaN stays NaN.

    Unlike a probability, B is not confined to [0, 1]: with fractional weights the
    self-pair correction of B (definitions, "B(r)") can carry it outside. Only values within
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


def weight_scale(weight_pos: float, weight_neg: float) -> float:
    """The power of two a sweep multiplies weights by (twin of ``sweep.weight_scale``).

    ``2**-e`` for ``e = scale_exponent(weight_pos, weight_neg)``; when no exponent
    serves (classes more than about 2**1500 apart, refused by ``check_two_classes``),
    the largest scale that keeps the total finite, so that both totals come back from
    the sweep nonzero. Exact: probabilities are unchanged, and B keeps its value
    because the sweep scales the self-pair term by the same factor.
    """
    total = weight_pos + weight_neg
    if not (weight_pos >= 0.0 and weight_neg >= 0.0 and 0.0 < total <= sys.float_info.max):
        return 1.0
    e = scale_exponent(weight_pos, weight_neg)
    return math.ldexp(1.0, -(math.frexp(total)[1] - 1020 if e is None else e))


def scale_exponent(weight_pos: float, weight_neg: float) -> int | None:
    """``e`` with the class totals times ``2**-e`` in range for a sweep's products, 0
    whenever that serves (unscaled weights for all but extreme totals); None when no
    ``e`` does. Positive, finite totals (twin of ``sweep.scale_exponent``).

    The sweep multiplies totals by totals (Den = W_P T - TP, AUC's FP TP, the hull's
    turns; none past W**2, none below W_P W_N), so it needs W**2 <= 2**1000 (``e >=
    lo``), W_P W_N >= 2**-1000 and each class total >= 2**-1000 (``e <= hi``): classes
    up to about 2**1500 apart.
    """
    if weight_pos <= 0.0 or weight_neg <= 0.0:      # (one class: only the total matters)
        weight_pos = weight_neg = max(weight_pos, weight_neg)
    p, q = math.frexp(weight_pos)[1], math.frexp(weight_neg)[1]
    lo = math.frexp(weight_pos + weight_neg)[1] - 500
    hi = min((p + q + 998) >> 1, min(p, q) + 999)
    if lo > hi:
        return None
    return lo if lo > 0 else (hi if hi < 0 else 0)


def b_from_gap(gap: float, den: float) -> float:
    """B = 1/2 + G / (2 Den) with G = 2 Num - Den (see ``sweep.pxd``); NaN where
    Den <= 0."""
    return clamp_b(0.5 + 0.5 * (gap / den)) if den > 0 else math.nan


def first_crossings(pieces: Sequence[tuple[np.ndarray, int]], n_levels: int) -> np.ndarray:
    """Per level, the first crossing over pieces taken highest first; each piece is its
    ``crossings`` array and the number of operating points above it (added to the
    index)."""
    out = np.full((n_levels, 5), np.nan)
    for crossings, groups_above in pieces:
        for k in range(n_levels):
            if np.isnan(out[k, 0]) and not np.isnan(crossings[k, 0]):
                out[k] = crossings[k]
                out[k, 0] += groups_above
    return out
