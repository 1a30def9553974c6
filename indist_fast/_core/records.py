"""What the engines return, named, and the arithmetic on it both twins share.

``SweepResult`` is the one-sweep summary every evaluation reads; the other records
carry a kernel's extra state (a table, row counts, a piece's final G) so that no caller
indexes a positional tuple. The functions turn those numbers into reported ones the same
way on every path: probabilities clamped (``clamp_probability``, ``clamp_b``), B from
its gap (``b_from_gap``), the exact weight scale (``weight_scale``), the rates at an
operating point (``operating_rates``) and the first crossing over pieces
(``first_crossings``).
"""

from __future__ import annotations

import math
import sys
from typing import Any, Callable, Iterable, NamedTuple, Sequence, TypeVar

import numpy as np
from numpy.typing import NDArray

_R = TypeVar("_R")


_new, _set = object.__new__, object.__setattr__  # (a frozen dataclass's __setattr__ refuses)


def frozen_instance(cls: type[_R], **values: Any) -> _R:
    """A frozen dataclass built without its generated ``__init__``, whose one
    ``object.__setattr__`` per field is most of the Python cost of a service call of
    a thousand rows (rows, operating points, report). Only for classes without
    ``__post_init__``; every field given."""
    return frozen_from(cls, values)         # the call's own fresh dict


def frozen_from(cls: type[_R], values: dict[str, Any]) -> _R:
    """``frozen_instance`` from a dict of every field, in their order, that becomes the
    instance's own (a dict literal: cheaper than keyword arguments per field)."""
    obj = _new(cls)
    _set(obj, "__dict__", values)
    return obj

# The annotations both engine twins use, so that their signatures read the same.
Array = NDArray[Any]
Costs = tuple[float, float, float] | None        # (t_fixed, q_fixed, rate_pi_pos)
Release = Callable[[int, int], None] | None      # release(start, stop): rows read
# One writer's rows for ``summarize_parts``: an iterator of ``(y, s)`` blocks, made on
# the thread that writes them (None for a block its source cannot give as it is).
Part = Callable[[], Iterable["tuple[Array, Array] | None"]]


class SweepResult(NamedTuple):
    """Everything one descending sweep over a score table reads.

    See the definitions page of the documentation: AUC, B(r), r_b, C(r_b).

    ``crossings`` has one row per requested level, ``[index, threshold, TP, FP, B]``
    of the first operating point with ``B >= level`` (NaN when none reaches it). B
    there is ``1/2 + G / (2 Den)`` with ``G = 2 Num - Den`` summed in the form that is
    exactly 0 where B is 1/2 by structure, and "reaches" means this very value is
    ``>= level`` (see ``indist_fast/_core/sweep.pxd``), so it agrees with ``Curves.b``.
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


class Table(NamedTuple):
    """A score table: distinct scores (descending) with the positive and negative
    weight at each (int64 counts without weights, float64 sums with them)."""

    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray


class SortedClasses(NamedTuple):
    """Each class's scores, sorted ascending (the runs of out-of-core evaluation)."""

    pos: np.ndarray
    neg: np.ndarray


class RowCounts(NamedTuple):
    """One row block counted by class and by side of a pivot (``count_rows``).

    ``*_lo`` fields cover rows with score below the pivot. ``bad_label``, ``nan_row``
    and ``bad_weight`` are the first such row or -1. Weight sums are 0 without
    weights; the positive ones are compensated pairs (``weight_pos +
    weight_pos_err`` is their sum to about n u^2).
    """

    pos_lo: int
    pos_hi: int
    neg_lo: int
    neg_hi: int
    weight_pos: float
    weight_neg: float
    bad_label: int
    nan_row: int
    bad_weight: int
    weight_pos_lo: float
    weight_neg_lo: float
    weight_pos_err: float
    weight_pos_lo_err: float


class KeySweep(NamedTuple):
    """A sweep of weighted key pieces and the compensated TP it ended at (the total
    positive weight B's exact comparison needs, see ``sweep.pxd``)."""

    result: SweepResult
    tp_end: float


class Checkpoint(NamedTuple):
    """A sweep's state after the keys at and above a split: TP as a compensated pair,
    FP, G = 2 Num - Den (scaled) and the operating points so far."""

    tp: float
    tp_err: float
    fp: float
    gap: float
    n_groups: int


class PieceSweep(NamedTuple):
    """One key piece swept from the state above it: its additive shares (``result``),
    the final G and Den (scaled), the final compensated TP, and the state at the split
    asked for (None without one)."""

    result: SweepResult
    gap: float
    den: float
    tp_end: float
    checkpoint: Checkpoint | None


class RangeSweep(NamedTuple):
    """One score range swept from the state of the ranges above: its additive shares
    and crossings (``result``) and its final G = 2 Num - Den."""

    result: SweepResult
    gap: float


class DeLongSums(NamedTuple):
    """DeLong's AUC and the summed squared structural components of a score table:
    ``pos = sum_g tp_g (V10_g - auc)^2`` and ``neg = sum_g fp_g (V01_g - auc)^2``."""

    auc: float
    pos: float
    neg: float


class DeLongComponents(NamedTuple):
    """Every row's DeLong structural component under one model (``delong_components``):
    ``V10`` of its score group for a positive, ``V01`` for a negative (rows of weight 0:
    NaN), with the AUC (the positive-weighted mean of ``V10``) and the class
    weights. NaN components and AUC when a class has no weight."""

    component: np.ndarray
    auc: float
    weight_pos: float
    weight_neg: float


class PairedMoments(NamedTuple):
    """Per class, the weighted mean of the difference of two models' components and
    the weighted sum of squared deviations from it (``paired_moments``)."""

    mean_pos: float
    squares_pos: float
    mean_neg: float
    squares_neg: float


class ReplicateCounts(NamedTuple):
    """One bootstrap replicate: weight per group by class, and draws per row."""

    tp: np.ndarray
    fp: np.ndarray
    pos_counts: np.ndarray
    neg_counts: np.ndarray


class CostSettings(NamedTuple):
    """The threshold-choice settings with defaults filled in: the fixed threshold,
    the fixed rate and the rate's weight of positives."""

    t_fixed: float
    q_fixed: float
    rate_pi_pos: float


class SegmentSweeps(NamedTuple):
    """One sweep per segment, as arrays indexed by segment code (``summarize_segments``):
    the fields of ``SweepResult`` for every segment, ``n_rows`` counting its rows (zero
    weights included) and ``crossings`` of shape ``(n_segments, n_levels, 5)``."""

    n_rows: np.ndarray
    n_groups: np.ndarray
    n_undefined: np.ndarray
    weight_pos: np.ndarray
    weight_neg: np.ndarray
    auc: np.ndarray
    average_precision: np.ndarray
    b_last: np.ndarray
    crossings: np.ndarray

    @classmethod
    def from_columns(cls, out: np.ndarray, crossings: np.ndarray) -> "SegmentSweeps":
        """From the kernels' ``(n_segments, 8)`` block (the fields in order) and crossings."""
        return cls(out[:, 0].astype(np.int64), out[:, 1].astype(np.int64),
                   out[:, 2].astype(np.int64), out[:, 3].copy(), out[:, 4].copy(),
                   out[:, 5].copy(), out[:, 6].copy(), out[:, 7].copy(), crossings)

    @classmethod
    def from_sweep(cls, result: SweepResult, n_rows: int) -> "SegmentSweeps":
        """One segment holding every row: ``result`` as a table of one."""
        return cls(np.array([n_rows]), np.array([result.n_groups]),
                   np.array([result.n_undefined]), np.array([result.weight_pos]),
                   np.array([result.weight_neg]), np.array([result.auc]),
                   np.array([result.average_precision]), np.array([result.b_last]),
                   result.crossings[None])

    def take(self, keep: np.ndarray) -> "SegmentSweeps":
        """The segments where the boolean mask ``keep`` is True, renumbered in order."""
        return SegmentSweeps(*(field[keep] for field in self))

    def sweep(self, segment: int) -> SweepResult:
        """Segment ``segment``'s sweep as the ``SweepResult`` of its rows alone."""
        return SweepResult(int(self.n_groups[segment]), int(self.n_undefined[segment]),
                           float(self.weight_pos[segment]), float(self.weight_neg[segment]),
                           float(self.auc[segment]), float(self.average_precision[segment]),
                           float(self.b_last[segment]), self.crossings[segment])


class CostSums(NamedTuple):
    """Condition-free sums of the threshold choice losses from one sweep (uniform cost
    proportion; Hernandez-Orallo, Flach and Ferri, definitions page).

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
