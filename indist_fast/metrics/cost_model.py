"""The cost model of threshold choice (Hernandez-Orallo, Flach and Ferri, "Threshold Choice
Methods: the Missing Link"; definitions page, "Threshold choice methods and expected
loss"): the distribution of the cost proportion ``c`` (``CostDistribution``), a loss
``Q(c)`` as an exact piecewise polynomial (``LossCurve``), the cost line of an operating
point, and the one sort and one sweep every method reads (``SweepContext``).

Under the cost condition a false negative carries the share ``c`` of the cost, and the
loss at an operating point is ``Q(c) = 2 [c pi1 (1 - tpr) + (1 - c) pi0 fpr]``; under the
skew condition every ``pi`` is 1/2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.engine import engine
from .._core.records import CostSums, SweepResult, crossing_fields
from .._core.validation import Rows, check_real, check_two_classes, prepare_rows
from ..table.score_table import ScoreTable

# --- the distribution of the cost proportion ------------------------------------------------


@dataclass(frozen=True)
class CostDistribution:
    """The distribution of the cost proportion ``c``: ``Beta(a, b)``, uniform by default.

    Parameters
    ----------
    a, b : float, default=1.0
        Beta shape parameters, both positive; ``Beta(1, 1)`` is uniform.

    Examples
    --------
    >>> from indist_fast.metrics.threshold_choice import CostDistribution
    >>> CostDistribution().is_uniform, CostDistribution(2, 6).mean
    (True, 0.25)
    """

    a: float = 1.0
    b: float = 1.0

    def __post_init__(self) -> None:
        for name in ("a", "b"):
            check_real(getattr(self, name), f"cost_distribution: {name}", low=0.0,
                       low_open=True, kind="be a number", must="be positive and finite")

    @classmethod
    def coerce(cls, value: Any) -> "CostDistribution":
        """None (uniform), a CostDistribution, or an ``(a, b)`` pair.

        Parameters
        ----------
        value : None, CostDistribution or (a, b)
            The distribution as the public functions accept it.

        Returns
        -------
        CostDistribution
            ``value`` itself, or the distribution it describes.

        Examples
        --------
        >>> from indist_fast.metrics.threshold_choice import CostDistribution
        >>> CostDistribution.coerce((2, 3)), CostDistribution.coerce(None).is_uniform
        (CostDistribution(a=2, b=3), True)
        """
        if value is None:
            return cls()
        if isinstance(value, CostDistribution):
            return value
        try:
            a, b = value
        except (TypeError, ValueError):
            raise TypeError("cost_distribution must be None (uniform), a CostDistribution "
                            f"or an (a, b) pair for Beta(a, b), got {value!r}.") from None
        return cls(a, b)

    @property
    def is_uniform(self) -> bool:
        return self.a == 1.0 and self.b == 1.0

    @property
    def mean(self) -> float:
        return self.a / (self.a + self.b)

    def partial_moments(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """``int_lo^hi c^k f(c) dc`` for k = 0, 1, 2: shape ``lo.shape + (3,)``.

        Parameters
        ----------
        lo, hi : array-like of float
            Interval ends, clipped to [0, 1].

        Returns
        -------
        ndarray of float64 of shape ``lo.shape + (3,)``
            The zeroth, first and second partial moments.

        Examples
        --------
        >>> from indist_fast.metrics.threshold_choice import CostDistribution
        >>> CostDistribution().partial_moments([0.0], [1.0]).round(4).tolist()
        [[1.0, 0.5, 0.3333]]
        """
        lo = np.clip(np.asarray(lo, dtype=np.float64), 0.0, 1.0)
        hi = np.clip(np.asarray(hi, dtype=np.float64), 0.0, 1.0)
        if self.is_uniform:
            return np.stack([(hi ** (k + 1) - lo ** (k + 1)) / (k + 1) for k in range(3)],
                            axis=-1)
        return self._beta_moments(lo, hi)

    def _moments(self) -> tuple[float, float, float]:
        """``E[c^k]`` for k = 0, 1, 2: what ``partial_moments`` gives on [0, 1]."""
        if self.is_uniform:
            return 1.0, 0.5, 1.0 / 3.0
        first = self.a / (self.a + self.b)
        return 1.0, first, first * ((self.a + 1) / (self.a + self.b + 1))

    def _beta_moments(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """The Beta moments through the regularised incomplete beta function."""
        try:
            from scipy.special import betainc
        except ImportError:
            raise ImportError("a Beta cost distribution needs scipy: pip install scipy") from None
        out = []
        scale = 1.0
        for k in range(3):      # B(a+k, b) / B(a, b) = prod_{i<k} (a+i) / (a+b+i)
            ak = self.a + k
            out.append(scale * (betainc(ak, self.b, hi) - betainc(ak, self.b, lo)))
            scale *= ak / (self.a + self.b + k)
        return np.stack(out, axis=-1)


def real_array(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got {values!r}.")
    return arr.astype(np.float64, copy=False)


def check_cost_proportions(c: Any) -> np.ndarray:
    """Cost proportions as float64: ``Q(c)`` is defined on [0, 1] only."""
    arr = real_array(c, "c")
    if not np.all((arr >= 0.0) & (arr <= 1.0)):       # NaN fails both comparisons
        raise ValueError(f"c must lie in [0, 1] (a cost proportion), got {c!r}.")
    return arr


@dataclass(frozen=True, eq=False)
class LossCurve:
    """``Q(c)`` as a piecewise polynomial: ``coef[i] @ (1, c, c^2)`` on
    ``[breaks[i], breaks[i + 1]]``.

    Call it with cost proportions to evaluate it.

    Attributes
    ----------
    breaks : ndarray of float64 of shape (n_pieces + 1,)
        Piece boundaries, from 0 to 1.
    coef : ndarray of float64 of shape (n_pieces, 3)
        Constant, linear and quadratic coefficient of each piece.

    Examples
    --------
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> q = tc.loss_curve(y, p, "optimal")
    >>> q([0.0, 0.5, 1.0]).round(4).tolist()
    [0.0, 0.1667, 0.0]
    """

    breaks: np.ndarray
    coef: np.ndarray

    def __call__(self, c: Any) -> np.ndarray:
        """``Q`` at each cost proportion ``c`` (scalar or array, values in [0, 1])."""
        c = check_cost_proportions(c)
        i = np.clip(np.searchsorted(self.breaks, c, side="right") - 1, 0, len(self.coef) - 1)
        k = self.coef[i]
        values: np.ndarray = k[..., 0] + c * (k[..., 1] + c * k[..., 2])
        return values

    def expected(self, distribution: CostDistribution) -> float:
        """``E[Q(c)]``, integrated exactly piece by piece.

        Parameters
        ----------
        distribution : CostDistribution
            The distribution of the cost proportion ``c``.

        Returns
        -------
        float
            The expected loss.

        Examples
        --------
        >>> import indist_fast.metrics.threshold_choice as tc
        >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
        >>> q = tc.loss_curve(y, p, "optimal")
        >>> round(q.expected(tc.CostDistribution()), 6) == round(tc.refinement_loss(y, p), 6)
        True
        """
        if not isinstance(distribution, CostDistribution):
            raise TypeError("distribution must be a CostDistribution, got "
                            f"{distribution!r}.")
        if len(self.coef) == 1 and self.breaks[0] <= 0.0 and self.breaks[-1] >= 1.0:
            # one piece over all of [0, 1] (a fixed operating point): the full moments
            # are exact scalars, and most methods land here, so skip the array work
            k0, k1, k2 = self.coef[0].tolist()
            m0, m1, m2 = distribution._moments()
            return float(k0 * m0 + k1 * m1 + k2 * m2)
        moments = distribution.partial_moments(self.breaks[:-1], self.breaks[1:])
        return float(np.sum(self.coef * moments))

    @classmethod
    def line(cls, fnr: float, fpr: float, pi1: float) -> "LossCurve":
        """A fixed operating point: ``Q(c) = 2 pi0 fpr + 2 c (pi1 fnr - pi0 fpr)``.

        Parameters
        ----------
        fnr, fpr : float
            The operating point's false negative and false positive rates.
        pi1 : float
            Share of positives (1/2 under the skew condition).

        Returns
        -------
        LossCurve
            One linear piece on [0, 1].

        Examples
        --------
        >>> from indist_fast.metrics.threshold_choice import LossCurve
        >>> LossCurve.line(0.25, 0.5, 0.5)([0.0, 1.0]).tolist()
        [0.5, 0.25]
        """
        intercept, slope = _line(fnr, fpr, pi1)
        return cls(np.array([0.0, 1.0]), np.array([[intercept, slope, 0.0]]))


# --- what one sweep gives ---------------------------------------------------------------------

@dataclass(frozen=True)
class SweepContext:
    """Everything the methods read: the sweep, its cost sums, the condition's pis, and
    the fixed threshold ``t`` and rate ``q`` the sums were gathered at (NaN when unset).

    Weights are the caller's (the engines gather the sums in an exactly rescaled
    form and report them unscaled); every rate and loss is a ratio of them.
    """

    sweep: SweepResult
    sums: CostSums
    pi1: float                      # condition's pi1 (the data's, or 1/2 for skew)
    table: ScoreTable | None        # only when a method's curve reads it
    weight_pos: float
    weight_neg: float
    t: float
    q: float                        # the rate itself, even when asked for as Q_IS_PI

    def line(self, tp: float, fp: float) -> LossCurve:
        """``Q(c)`` of the fixed operating point labelling weights ``tp`` and ``fp``."""
        return LossCurve.line(1.0 - tp / self.weight_pos, fp / self.weight_neg, self.pi1)

    def class_mean(self, pos: float, neg: float) -> float:
        """A per-row sum split by class, as the condition weighs the classes:
        ``pi1 pos / W+ + pi0 neg / W-`` (the pooled mean under the cost condition)."""
        return self.pi1 * pos / self.weight_pos + (1.0 - self.pi1) * neg / self.weight_neg

    def crossing(self) -> tuple[float, float, float]:
        """Threshold r_b (NaN when B never reaches 1/2) and TP, FP there."""
        point = crossing_fields(self.sweep.crossings[0])
        return float(point.threshold), point.tp, point.fp

    def scores_are_probabilities(self) -> bool:
        return 0.0 <= self.sums.min_score and self.sums.max_score <= 1.0


# Passed as q_fixed, the sweep reads it as "the rate's own pi1": the base rate under
# the cost condition (known only once the classes are counted), 1/2 under skew.
Q_IS_PI = -1.0


def sweep_context(rows: Rows, *, condition: str, need_table: bool, t: float = math.nan,
             q: float = math.nan, exclude_self: bool = True) -> SweepContext:
    """One sort, one sweep: the report fields plus every threshold-choice sum."""
    if condition not in ("cost", "skew"):
        raise ValueError(f"condition must be 'cost' or 'skew', got {condition!r}.")
    costs = (t, q, 0.5 if condition == "skew" else math.nan)   # NaN: the base rate
    eng = engine()
    levels = np.array([0.5])
    # With a class absent the engines gather no cost sums (they divide by each class's
    # weight): the sweep's own pass raises any row error (NaN score, bad weight), then
    # the two-class check below raises, before any sum is used.

    # Both engines gather the cost sums (and the hull's turn test) in weights times an
    # exact power of two, so totals far from 1 need no second sweep.
    table = ScoreTable.from_rows(rows) if need_table else None
    if table is not None:
        sweep = eng.sweep_table(table.scores, table.pos, table.neg, levels,
                                   exclude_self, costs)
    else:
        sweep = eng.summarize(rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value,
                                 levels, exclude_self, costs)
    wp, wn = sweep.weight_pos, sweep.weight_neg
    check_two_classes(wp, wn)
    assert sweep.costs is not None
    pi1 = 0.5 if condition == "skew" else wp / (wp + wn)
    return SweepContext(sweep, sweep.costs, pi1, table, wp, wn, t, pi1 if q == Q_IS_PI else q)


# --- scores as probabilities, and the cost lines of operating points ------------------

def check_scores_in_unit_interval(ctx: SweepContext, method: str) -> None:
    """Refuse scores outside [0, 1] for a method that reads them as probabilities."""
    if not ctx.scores_are_probabilities():
        refuse_scores(ctx.sums.min_score, ctx.sums.max_score, method)


def refuse_scores(lo: float, hi: float, method: str) -> None:
    """The error for scores outside [0, 1] where a method reads them as probabilities."""
    raise ValueError(f"y_score: {method} needs scores in [0, 1] (probability "
                     f"estimates); the scores run from {shown(lo):.4g} to "
                     f"{shown(hi):.4g}. Calibrate them first, or use a rate-based "
                     "method.")


def shown(x: float) -> float:
    """``x`` with -0.0 as 0.0: the engines may keep either zero (both equal 0), and a
    displayed sign must not depend on which one did."""
    return x + 0.0


def point_rates(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """FNR and FPR of every operating point, the first labelling nothing."""
    tpr, fpr = class_rates(*cumulative_weights(table))
    return np.concatenate(([1.0], 1.0 - tpr)), np.concatenate(([0.0], fpr))


def cumulative_weights(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """TP and FP of every operating point: the table's weights summed in order."""
    return np.cumsum(table.pos, dtype=np.float64), np.cumsum(table.neg, dtype=np.float64)


def class_rates(tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TPR and FPR of cumulative TP and FP, each divided by its own last value: a
    total summed in another order can differ in the last bit, and the point that
    labels everything must be exactly (1, 1)."""
    return tp / tp[-1], fp / fp[-1]


def _line(fnr: Any, fpr: Any, pi1: float) -> tuple[Any, Any]:
    """Intercept and slope of the cost line ``Q(c) = 2 [c pi1 fnr + (1 - c) pi0 fpr]``
    (scalars or arrays alike)."""
    pi0 = 1.0 - pi1
    return 2 * pi0 * fpr, 2 * (pi1 * fnr - pi0 * fpr)


def cost_lines(breaks: np.ndarray, fnr: np.ndarray, fpr: np.ndarray, pi1: float) -> LossCurve:
    """One cost line per operating point, each in force on its own piece."""
    coef = np.zeros((len(fnr), 3))
    coef[:, 0], coef[:, 1] = _line(fnr, fpr, pi1)
    return LossCurve(breaks, coef)


def uniform_context(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
                     condition: str = "cost", t: float = math.nan) -> SweepContext:
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    return sweep_context(rows, condition=condition, need_table=False, t=t)
