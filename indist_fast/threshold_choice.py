"""Threshold choice methods and their expected loss (Hernandez-Orallo, Flach and Ferri,
"Threshold Choice Methods: the Missing Link"; definitions page, "Threshold choice methods and
expected loss").

A *threshold choice method* says which operating point a classifier uses once the
cost proportion ``c`` (the share of the misclassification cost carried by a false
negative) is known. Its loss at an operating point is

    Q(c) = 2 [c pi1 (1 - tpr) + (1 - c) pi0 fpr]

and its expected loss averages ``Q`` over ``c ~ U(0, 1)`` or ``Beta(a, b)``. With
``condition="skew"`` every ``pi`` (including the one in the predicted positive rate
``q = pi1 tpr + pi0 fpr``) is 1/2.

Every method's ``Q`` is a piecewise polynomial of degree <= 2 in ``c`` (``LossCurve``),
integrated exactly, never on a grid. For a uniform ``c`` the needed sums come out of
the same one-sort sweep as ``evaluate`` (``compare_methods`` costs about one
``evaluate``); other cost distributions read the score table. Each method is one
entry of a registry (``_REGISTRY``) that says what it needs and builds its ``Q``;
every public function dispatches through it.

Under a uniform ``c`` the methods equal familiar metrics (tests check each):
score-fixed = error rate at ``t``; score-uniform = mean absolute error; score-driven
= Brier score; rate-uniform = 1/2 + pi0 pi1 (1 - 2A); rate-driven = 1/3 + pi0 pi1
(1 - 2A); optimal = refinement loss of the ROC convex hull. Under the skew condition
they are the macro (class-balanced) versions. Those metrics are also functions of their
own (``accuracy``, ``macro_accuracy``, ``brier_score``, ``macro_brier_score``, ...,
``calibration_loss``, ``log_loss``), each from one sort.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from ._core.engine import engine
from ._core.records import CostSums, SweepResult
from ._core.validation import Rows, check_real, check_two_classes, prepare_rows
from .results import _plain, record_dict, row_where
from .table import ScoreTable

__all__ = ["METHODS", "CostDistribution", "LossCurve", "expected_loss", "compare_methods",
           "MethodComparison", "MethodLoss", "roc_convex_hull", "RocHull",
           "refinement_loss", "brier_score", "mean_absolute_error", "cost_curves",
           "CostCurves", "brier_curve", "hull_calibration", "HullCalibration", "loss_curve",
           "accuracy", "macro_accuracy", "macro_brier_score", "macro_mean_absolute_error",
           "calibration_loss", "log_loss", "rate_uniform_contingency",
           "ExpectedContingency"]

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
    >>> from indist_fast.threshold_choice import CostDistribution
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
        >>> from indist_fast.threshold_choice import CostDistribution
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
        >>> from indist_fast.threshold_choice import CostDistribution
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


def _real_array(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got {values!r}.")
    return arr.astype(np.float64, copy=False)


def _check_cost_proportions(c: Any) -> np.ndarray:
    """Cost proportions as float64: ``Q(c)`` is defined on [0, 1] only."""
    arr = _real_array(c, "c")
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
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> q = tc.loss_curve(y, p, "optimal")
    >>> q([0.0, 0.5, 1.0]).round(4).tolist()
    [0.0, 0.1667, 0.0]
    """

    breaks: np.ndarray
    coef: np.ndarray

    def __call__(self, c: Any) -> np.ndarray:
        """``Q`` at each cost proportion ``c`` (scalar or array, values in [0, 1])."""
        c = _check_cost_proportions(c)
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
        >>> import indist_fast.threshold_choice as tc
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
        >>> from indist_fast.threshold_choice import LossCurve
        >>> LossCurve.line(0.25, 0.5, 0.5)([0.0, 1.0]).tolist()
        [0.5, 0.25]
        """
        intercept, slope = _line(fnr, fpr, pi1)
        return cls(np.array([0.0, 1.0]), np.array([[intercept, slope, 0.0]]))


# --- what one sweep gives ---------------------------------------------------------------------

@dataclass(frozen=True)
class _Context:
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
    q: float                        # the rate itself, even when asked for as _Q_IS_PI

    def line(self, tp: float, fp: float) -> LossCurve:
        """``Q(c)`` of the fixed operating point labelling weights ``tp`` and ``fp``."""
        return LossCurve.line(1.0 - tp / self.weight_pos, fp / self.weight_neg, self.pi1)

    def class_mean(self, pos: float, neg: float) -> float:
        """A per-row sum split by class, as the condition weighs the classes:
        ``pi1 pos / W+ + pi0 neg / W-`` (the pooled mean under the cost condition)."""
        return self.pi1 * pos / self.weight_pos + (1.0 - self.pi1) * neg / self.weight_neg

    def crossing(self) -> tuple[float, float, float]:
        """Threshold r_b (NaN when B never reaches 1/2) and TP, FP there."""
        _, threshold, tp, fp, _ = self.sweep.crossings[0]
        return float(threshold), tp, fp

    def scores_are_probabilities(self) -> bool:
        return 0.0 <= self.sums.min_score and self.sums.max_score <= 1.0


# Passed as q_fixed, the sweep reads it as "the rate's own pi1": the base rate under
# the cost condition (known only once the classes are counted), 1/2 under skew.
_Q_IS_PI = -1.0


def _context(rows: Rows, *, condition: str, need_table: bool, t: float = math.nan,
             q: float = math.nan, exclude_self: bool = True) -> _Context:
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
    return _Context(sweep, sweep.costs, pi1, table, wp, wn, t, pi1 if q == _Q_IS_PI else q)


# --- the loss curves ----------------------------------------------------------------------------

def _check_scores_in_unit_interval(ctx: _Context, method: str) -> None:
    """Refuse scores outside [0, 1] for a method that reads them as probabilities."""
    if not ctx.scores_are_probabilities():
        _refuse_scores(ctx.sums.min_score, ctx.sums.max_score, method)


def _refuse_scores(lo: float, hi: float, method: str) -> None:
    """The error for scores outside [0, 1] where a method reads them as probabilities."""
    raise ValueError(f"y_score: {method} needs scores in [0, 1] (probability "
                     f"estimates); the scores run from {_shown(lo):.4g} to "
                     f"{_shown(hi):.4g}. Calibrate them first, or use a rate-based "
                     "method.")


def _shown(x: float) -> float:
    """``x`` with -0.0 as 0.0: the engines may keep either zero (both equal 0), and a
    displayed sign must not depend on which one did."""
    return x + 0.0


def _point_rates(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """FNR and FPR of every operating point, the first labelling nothing."""
    tpr, fpr = _rates(*_cumulative(table))
    return np.concatenate(([1.0], 1.0 - tpr)), np.concatenate(([0.0], fpr))


def _cumulative(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """TP and FP of every operating point: the table's weights summed in order."""
    return np.cumsum(table.pos, dtype=np.float64), np.cumsum(table.neg, dtype=np.float64)


def _rates(tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TPR and FPR of cumulative TP and FP, each divided by its own last value: a
    total summed in another order can differ in the last bit, and the point that
    labels everything must be exactly (1, 1)."""
    return tp / tp[-1], fp / fp[-1]


def _line(fnr: Any, fpr: Any, pi1: float) -> tuple[Any, Any]:
    """Intercept and slope of the cost line ``Q(c) = 2 [c pi1 fnr + (1 - c) pi0 fpr]``
    (scalars or arrays alike)."""
    pi0 = 1.0 - pi1
    return 2 * pi0 * fpr, 2 * (pi1 * fnr - pi0 * fpr)


def _lines(breaks: np.ndarray, fnr: np.ndarray, fpr: np.ndarray, pi1: float) -> LossCurve:
    """One cost line per operating point, each in force on its own piece."""
    coef = np.zeros((len(fnr), 3))
    coef[:, 0], coef[:, 1] = _line(fnr, fpr, pi1)
    return LossCurve(breaks, coef)


def _score_fixed_curve(ctx: _Context) -> LossCurve:
    return ctx.line(ctx.sums.t_tp, ctx.sums.t_fp)


def _rate_fixed_curve(ctx: _Context) -> LossCurve:
    return ctx.line(ctx.sums.q_tp, ctx.sums.q_fp)


def _indistinguishability_curve(ctx: _Context) -> LossCurve:
    threshold, tp, fp = ctx.crossing()
    if math.isnan(threshold):     # no r_b, so no operating point: the loss is undefined
        tp = fp = math.nan
    return ctx.line(tp, fp)


def _score_uniform_curve(ctx: _Context) -> LossCurve:
    """``t ~ U(0, 1)``: a row scoring s is labelled with probability s, so the mean
    FNR and FPR are the classes' mean absolute errors."""
    s = ctx.sums
    return LossCurve.line(s.mae_pos / ctx.weight_pos, s.mae_neg / ctx.weight_neg, ctx.pi1)


def _rate_uniform_rates(ctx: _Context) -> tuple[float, float]:
    """Mean TPR and FPR over a uniform rate ``q = pi1 tpr + pi0 fpr``.

    On the linearly interpolated ROC, ``int tpr dq = pi1/2 + pi0 A`` and ``int fpr
    dq = pi1 (1 - A) + pi0/2`` (``int tpr dfpr = A``, ``int tpr dtpr = 1/2``), so the
    AUC of the sweep gives both exactly.
    """
    pi1, auc = ctx.pi1, float(ctx.sweep.auc)
    pi0 = 1.0 - pi1
    return 0.5 * pi1 + pi0 * auc, pi1 * (1.0 - auc) + 0.5 * pi0


def _rate_uniform_curve(ctx: _Context) -> LossCurve:
    tpr, fpr = _rate_uniform_rates(ctx)
    return LossCurve.line(1.0 - tpr, fpr, ctx.pi1)


def _score_driven_curve(ctx: _Context) -> LossCurve:
    """``t = 1 - c``: the operating point changes at ``c = 1 - score``."""
    table = ctx.table
    assert table is not None
    fnr, fpr = _point_rates(table)
    # point j (j groups labelled) is in force for c in [1 - s_j, 1 - s_{j+1})
    breaks = np.concatenate(([0.0], 1.0 - table.scores, [1.0]))
    return _lines(breaks, fnr, fpr, ctx.pi1)


def _rate_driven_curve(ctx: _Context) -> LossCurve:
    """``q = c``: on each rate segment tpr and fpr are linear in c, so Q is quadratic."""
    table = ctx.table
    assert table is not None
    pi1 = ctx.pi1
    pi0 = 1.0 - pi1
    tp, fp = table.pos.astype(np.float64), table.neg.astype(np.float64)
    cum_tp, cum_fp = _cumulative(table)
    wp, wn = cum_tp[-1], cum_fp[-1]       # the totals the rates end on (see _rates)
    t0 = np.concatenate(([0.0], cum_tp[:-1])) / wp             # tpr before the group
    f0 = np.concatenate(([0.0], cum_fp[:-1])) / wn
    # not differences of the rates: a light group next to a heavy one would vanish
    dt, df = tp / wp, fp / wn
    a = pi1 * t0 + pi0 * f0                                   # rate before the group
    width = pi1 * dt + pi0 * df
    # tpr(c) = t0 + (c - a) dt / width, fpr(c) = f0 + (c - a) df / width
    st, sf = dt / width, df / width
    alpha_t, alpha_f = t0 - a * st, f0 - a * sf              # tpr = alpha_t + st c
    # Q = 2 [pi1 c (1 - alpha_t - st c) + pi0 (1 - c)(alpha_f + sf c)]
    coef = 2 * np.stack([pi0 * alpha_f,
                         pi1 * (1 - alpha_t) + pi0 * (sf - alpha_f),
                         -pi1 * st - pi0 * sf], axis=-1)
    return LossCurve(np.concatenate((a, [1.0])), coef)


def _hull_steps(ctx: _Context) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The hull's TPR and FPR, and each segment's rise ``pi1 dtpr`` and run ``pi0 dfpr``."""
    hull = _hull(ctx)
    tpr, fpr = hull.tpr, hull.fpr
    return tpr, fpr, ctx.pi1 * np.diff(tpr), (1.0 - ctx.pi1) * np.diff(fpr)


def _optimal_curve(ctx: _Context) -> LossCurve:
    """The lower envelope of the hull vertices' lines (Hernandez-Orallo et al., the optimal method)."""
    tpr, fpr, d1, d0 = _hull_steps(ctx)
    # vertex v is optimal between the crossings with its neighbours: c = d0 / (d1 + d0)
    with np.errstate(invalid="ignore", divide="ignore"):
        cross = np.where(d1 + d0 > 0, d0 / (d1 + d0), 0.0)
    breaks = np.concatenate(([0.0], np.maximum.accumulate(cross), [1.0]))
    return _lines(breaks, 1.0 - tpr, fpr, ctx.pi1)


def _refinement(ctx: _Context) -> float:
    """Refinement loss of the hull: ``sum (pi1 dtpr + pi0 dfpr) p (1 - p)``."""
    _, _, d1, d0 = _hull_steps(ctx)
    mass = d1 + d0
    ok = mass > 0
    return float(np.sum(d1[ok] * d0[ok] / mass[ok]))


def _brier_loss(ctx: _Context) -> float:
    """Score-driven loss under a uniform c: the condition's Brier score, from the sums."""
    return ctx.class_mean(ctx.sums.brier_pos, ctx.sums.brier_neg)


def _rate_driven_loss(ctx: _Context) -> float:
    """Rate-driven loss under a uniform c (Hernandez-Orallo et al.; the condition's pis in Q and q)."""
    pi1 = ctx.pi1
    return 1.0 / 3.0 + (1.0 - pi1) * pi1 * (1.0 - 2.0 * ctx.sweep.auc)


def _no_setting(ctx: _Context) -> str:
    return ""


def _t_setting(ctx: _Context) -> str:
    return f"t={_shown(ctx.t):g}"


def _q_setting(ctx: _Context) -> str:
    return f"q={ctx.q:.4g}"


def _r_b_setting(ctx: _Context) -> str:
    return f"t=r_b={_shown(ctx.crossing()[0]):.4g}"


# --- the method registry --------------------------------------------------------------------

# What each setting keyword is, as the message for a method that lacks it names it.
_SETTINGS = {"t": "the threshold t", "q": "the predicted positive rate q"}


@dataclass(frozen=True)
class _Method:
    """One threshold choice method of Hernandez-Orallo et al.: what it needs and how its loss comes.

    Its expected loss is its loss curve integrated against the cost distribution,
    except where ``uniform_loss`` gives the uniform-c value from the sweep's sums
    alone (it saves building the score table the curve needs).
    """

    name: str
    threshold: str                  # how it picks the threshold for a cost proportion c
    equals: str                     # its expected loss under c ~ U(0, 1) (Hernandez-Orallo et al., as in the definitions page's table)
    equals_skew: str                # the same under the skew condition (pi0 = pi1 = 1/2)
    curve: Callable[[_Context], LossCurve]
    needs: str | None = None        # the setting keyword it requires, "t" or "q"
    unit_scores: bool = False       # it reads scores as probabilities: they must be in [0, 1]
    needs_table: bool = False       # its curve reads the score table
    uniform_loss: Callable[[_Context], float] | None = None
    setting: Callable[[_Context], str] = _no_setting      # compare_methods' "setting" column
    undefined: str = ""             # why its loss can be NaN

    def settings(self, t: Any, q: Any) -> tuple[float, float]:
        """``t`` and ``q`` checked, NaN when not given and not needed."""
        return _check_t(t, self.needs == "t"), _check_q(q, self.needs == "q")

    def table_needed(self, dist: CostDistribution) -> bool:
        return self.needs_table and not (dist.is_uniform and self.uniform_loss is not None)

    def loss_curve(self, ctx: _Context) -> LossCurve:
        if self.unit_scores:
            _check_scores_in_unit_interval(ctx, self.name)
        return self.curve(ctx)

    def expected_loss(self, ctx: _Context, dist: CostDistribution) -> float:
        if self.uniform_loss is not None and dist.is_uniform:
            if self.unit_scores:
                _check_scores_in_unit_interval(ctx, self.name)
            return self.uniform_loss(ctx)
        return self.loss_curve(ctx).expected(dist)

    def equals_under(self, condition: str) -> str:
        """What the expected loss equals under a uniform c: under skew every pi is 1/2,
        so the pooled metrics become their class-balanced (macro) versions."""
        return self.equals_skew if condition == "skew" else self.equals

    def describe(self) -> str:
        """One line for the docstrings."""
        needs = [f"needs ``{self.needs}``"] if self.needs else []
        if self.unit_scores:
            needs.append("needs scores in [0, 1]")
        if self.undefined:
            needs.append(f"NaN when {self.undefined}")
        extra = f" ({'; '.join(needs)})" if needs else ""
        return (f"``{self.name}``{extra}: threshold {self.threshold}; uniform c: "
                f"{self.equals} (skew: {self.equals_skew}).")


_REGISTRY: Mapping[str, _Method] = MappingProxyType({m.name: m for m in (
    _Method("score-fixed", "fixed at t", "error rate at t", "macro error rate at t",
            _score_fixed_curve, needs="t", setting=_t_setting),
    _Method("score-uniform", "t ~ U(0, 1)", "mean absolute error",
            "macro mean absolute error", _score_uniform_curve, unit_scores=True),
    _Method("score-driven", "t = 1 - c", "Brier score", "macro Brier score",
            _score_driven_curve, unit_scores=True, needs_table=True,
            uniform_loss=_brier_loss),
    _Method("rate-fixed", "at predicted positive rate q", "error rate at rate q",
            "macro error rate at rate q", _rate_fixed_curve, needs="q",
            setting=_q_setting),
    _Method("rate-uniform", "at rate q ~ U(0, 1)", "1/2 + pi0 pi1 (1 - 2 AUC)",
            "3/4 - AUC / 2", _rate_uniform_curve),
    _Method("rate-driven", "at rate q = c", "1/3 + pi0 pi1 (1 - 2 AUC)",
            "7/12 - AUC / 2", _rate_driven_curve, needs_table=True,
            uniform_loss=_rate_driven_loss),
    _Method("optimal", "minimising Q(c)", "refinement loss of the ROC hull",
            "macro refinement loss of the ROC hull", _optimal_curve),
    _Method("indistinguishability", "fixed at r_b", "error rate at r_b",
            "macro error rate at r_b", _indistinguishability_curve,
            setting=_r_b_setting, undefined="B never reaches 1/2"),
)})
METHODS = tuple(_REGISTRY)


def _check_method(method: Any) -> _Method:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}.")
    return _REGISTRY[method]


def _absent(name: str, required: bool) -> float:
    """An unset setting: NaN, or the error naming the method that needs it."""
    if required:
        method = next(m.name for m in _REGISTRY.values() if m.needs == name)
        raise ValueError(f"method {method!r} needs {_SETTINGS[name]}.")
    return math.nan


def _check_t(t: Any, required: bool) -> float:
    if t is None:
        return _absent("t", required)
    return _threshold(t)


def _threshold(t: Any) -> float:
    """A threshold: any real number but NaN (``score >= t`` with t = ±inf is fine)."""
    return check_real(t, "t", finite=False, kind="be a number", must="not be NaN")


def _check_q(q: Any, required: bool) -> float:
    if q is None:
        return _absent("q", required)
    return check_real(q, "q", low=0.0, high=1.0, kind="be a number in [0, 1]",
                      must="lie in [0, 1]")


def _describe_methods(doc: str | None) -> str | None:
    """``doc`` with its ``{methods}`` line replaced by one line per registered method."""
    if doc is None:             # python -OO
        return None
    line = next(x for x in doc.splitlines() if x.strip() == "{methods}")
    indent = line[:len(line) - len(line.lstrip())]
    listing = "\n".join(textwrap.fill(m.describe(), 88, initial_indent=indent + "- ",
                                       subsequent_indent=indent + "  ")
                         for m in _REGISTRY.values())
    return doc.replace(line, listing)


def expected_loss(y_true: Any, y_score: Any, method: str, *, t: float | None = None,
                  q: float | None = None, condition: str = "cost",
                  cost_distribution: Any = None, sample_weight: Any = None,
                  pos_label: Any = None) -> float:
    """Expected loss of a threshold choice method (Hernandez-Orallo et al.), integrated exactly.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    method : str
        One of ``METHODS``, each with the threshold it uses for a cost proportion c
        and what its expected loss equals under a uniform c:

        {methods}
    t : float, optional
        Threshold of score-fixed: predict positive where ``score >= t``.
    q : float, optional
        Predicted positive rate of rate-fixed, in [0, 1].
    condition : {"cost", "skew"}, default="cost"
        ``skew`` sets pi0 = pi1 = 1/2 in the loss and in the rate.
    cost_distribution : None, CostDistribution or (a, b)
        Distribution of the cost proportion: uniform (None) or Beta(a, b).

    Returns
    -------
    float
        ``E[Q(c)]`` over the cost distribution (NaN for ``indistinguishability``
        when B never reaches 1/2).

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(tc.expected_loss(y, p, "score-driven"), 6) == round(tc.brier_score(y, p), 6)
    True
    """
    spec = _check_method(method)
    t_value, q_value = spec.settings(t, q)
    dist = CostDistribution.coerce(cost_distribution)
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    ctx = _context(rows, t=t_value, q=q_value, condition=condition,
                   need_table=spec.table_needed(dist))
    return spec.expected_loss(ctx, dist)


expected_loss.__doc__ = _describe_methods(expected_loss.__doc__)


# --- comparing all methods ----------------------------------------------------------------------

@dataclass(frozen=True)
class MethodLoss:
    """One row of ``MethodComparison``.

    Attributes
    ----------
    method : str
        The threshold choice method (one of ``METHODS``).
    setting : str
        Its setting, e.g. ``t=0.5`` (empty when it has none).
    expected_loss : float
        Its expected loss (NaN when undefined, see ``note``).
    equals : str
        The metric the loss equals under a uniform cost proportion (its macro,
        class-balanced version under the skew condition).
    note : str, default=""
        Why the loss is NaN, if it is.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> row = tc.compare_methods(y, p)["optimal"]
    >>> row.equals, round(row.expected_loss, 4)
    ('refinement loss of the ROC hull', 0.0833)
    """

    method: str
    setting: str
    expected_loss: float
    equals: str
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (NaN becomes None).

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> import indist_fast.threshold_choice as tc
        >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
        >>> tc.compare_methods(y, p)["score-fixed"].to_dict()["setting"]
        't=0.5'
        """
        return record_dict(self)


@dataclass(frozen=True)
class MethodComparison:
    """Expected loss of every threshold choice method for one model.

    Attributes
    ----------
    rows : tuple of MethodLoss
        One per method, in ``METHODS`` order.
    condition : str
        ``cost`` or ``skew``.
    cost_distribution : CostDistribution
        Distribution of the cost proportion the losses average over.
    auc, base_rate : float
        The model's AUC and the data's positive share (for the identities).

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> table = tc.compare_methods(y, p)
    >>> [row.method for row in table.rows] == list(tc.METHODS)
    True
    """

    rows: tuple[MethodLoss, ...]
    condition: str
    cost_distribution: CostDistribution
    auc: float
    base_rate: float

    def __getitem__(self, method: str) -> MethodLoss:
        return row_where(self.rows, "method", method)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: the settings and one dict per row.

        Returns
        -------
        dict
            ``condition``, ``cost_distribution`` (``a``, ``b``), ``auc``,
            ``base_rate`` and ``rows``.

        Examples
        --------
        >>> import indist_fast.threshold_choice as tc
        >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
        >>> d = tc.compare_methods(y, p).to_dict()
        >>> d["cost_distribution"], len(d["rows"])
        ({'a': 1.0, 'b': 1.0}, 8)
        """
        dist = self.cost_distribution
        return record_dict(self, cost_distribution={"a": _plain(dist.a), "b": _plain(dist.b)},
                           rows=[r.to_dict() for r in self.rows])

    def __str__(self) -> str:
        d = self.cost_distribution
        dist = "c ~ U(0, 1)" if d.is_uniform else f"c ~ Beta({d.a:g}, {d.b:g})"
        lines = [f"expected loss by threshold choice method ({self.condition} condition, "
                 f"{dist}); AUC {self.auc:.4f}, base rate {self.base_rate:.4f}",
                 f"{'method':>21} {'setting':>14} {'expected loss':>14}  equals (uniform c)"]
        for r in self.rows:
            loss = "n/a" if math.isnan(r.expected_loss) else f"{r.expected_loss:.6f}"
            lines.append(f"{r.method:>21} {r.setting:>14} {loss:>14}  {r.equals}"
                         + (f"  [{r.note}]" if r.note else ""))
        return "\n".join(lines)


def compare_methods(y_true: Any, y_score: Any, *, t: float = 0.5, q: float | None = None,
                    condition: str = "cost", cost_distribution: Any = None,
                    sample_weight: Any = None, pos_label: Any = None) -> MethodComparison:
    """Expected loss of every threshold choice method, from one sort and one sweep.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    t : float, default=0.5
        Threshold of score-fixed.
    q : float, optional
        Rate of rate-fixed; default the condition's positive share (the data's base
        rate, 1/2 under skew).
    condition : {"cost", "skew"}, default="cost"
        ``skew`` sets pi0 = pi1 = 1/2 in the loss and in the rate.
    cost_distribution : None, CostDistribution or (a, b)
        Distribution of the cost proportion: uniform (None) or Beta(a, b).

    Returns
    -------
    MethodComparison
        Score-based rows are NaN, with a note, when scores leave [0, 1].

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> table = tc.compare_methods([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(table["score-driven"].expected_loss, 4)
    0.1138
    """
    t_value = _check_t(t, True)
    dist = CostDistribution.coerce(cost_distribution)
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    q_value = _Q_IS_PI if q is None else _check_q(q, True)
    ctx = _context(rows, t=t_value, q=q_value, condition=condition,
                   need_table=any(m.table_needed(dist) for m in _REGISTRY.values()))
    out = []
    for spec in _REGISTRY.values():
        if spec.unit_scores and not ctx.scores_are_probabilities():
            loss, note = math.nan, "scores outside [0, 1]"
        else:
            loss = spec.expected_loss(ctx, dist)
            note = spec.undefined if math.isnan(loss) else ""
        out.append(MethodLoss(spec.name, spec.setting(ctx), loss,
                              spec.equals_under(condition), note))
    wp, wn = ctx.weight_pos, ctx.weight_neg
    return MethodComparison(tuple(out), condition, dist, float(ctx.sweep.auc),
                            wp / (wp + wn))


# --- curves, hull and the metrics the methods equal ----------------------------------------

def _uniform_context(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
                     condition: str = "cost", t: float = math.nan) -> _Context:
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    return _context(rows, condition=condition, need_table=False, t=t)


def brier_score(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                pos_label: Any = None) -> float:
    """Mean squared difference between the label (1/0) and a score in [0, 1].

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    float
        The Brier score, in [0, 1].

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> tc.brier_score([0, 1], [0.25, 0.5])
    0.15625
    """
    ctx = _uniform_context(y_true, y_score, sample_weight, pos_label)
    _check_scores_in_unit_interval(ctx, "brier_score")
    return ctx.class_mean(ctx.sums.brier_pos, ctx.sums.brier_neg)


def mean_absolute_error(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                        pos_label: Any = None) -> float:
    """Mean absolute difference between the label (1/0) and a score in [0, 1].

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    float
        The mean absolute error, in [0, 1].

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> tc.mean_absolute_error([0, 1], [0.25, 0.5])
    0.375
    """
    ctx = _uniform_context(y_true, y_score, sample_weight, pos_label)
    _check_scores_in_unit_interval(ctx, "mean_absolute_error")
    return ctx.class_mean(ctx.sums.mae_pos, ctx.sums.mae_neg)


@dataclass(frozen=True, eq=False)
class RocHull:
    """Vertices of the ROC convex hull, from (0, 0) to (1, 1).

    Attributes
    ----------
    fpr, tpr : ndarray
        Vertex coordinates.
    fp, tp : ndarray
        Negative and positive weight at or above each vertex's threshold.
    thresholds : ndarray
        Threshold of each vertex (``inf`` for the first, which labels nothing).

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> tc.roc_convex_hull(y, p).thresholds.tolist()
    [inf, 0.8, 0.35, 0.1]
    """

    fpr: np.ndarray
    tpr: np.ndarray
    fp: np.ndarray
    tp: np.ndarray
    thresholds: np.ndarray

    def __len__(self) -> int:
        return len(self.fpr)


def _hull(ctx: _Context) -> RocHull:
    fp, tp, thresholds = ctx.sums.hull
    tpr, fpr = _rates(tp, fp)
    return RocHull(fpr, tpr, fp, tp, thresholds)


def roc_convex_hull(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                    pos_label: Any = None) -> RocHull:
    """The ROC convex hull's vertices (operating points optimal for some cost).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    RocHull
        The vertices, from (0, 0) to (1, 1).

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> h = tc.roc_convex_hull([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> h.fpr.tolist(), h.tpr.tolist()
    ([0.0, 0.0, 0.3333333333333333, 1.0], [0.0, 0.6666666666666666, 1.0, 1.0])
    """
    return _hull(_uniform_context(y_true, y_score, sample_weight, pos_label))


def refinement_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                    pos_label: Any = None) -> float:
    """Refinement loss of the ROC convex hull: ``sum (dTP + dFP) p (1 - p) / W`` over
    hull segments with ``p = dTP / (dTP + dFP)`` (Hernandez-Orallo et al.).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    float
        The refinement loss; it equals the expected loss of the ``optimal`` method.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(tc.refinement_loss(y, p), 6) == round(tc.expected_loss(y, p, "optimal"), 6)
    True
    """
    return _refinement(_uniform_context(y_true, y_score, sample_weight, pos_label))


@dataclass(frozen=True, eq=False)
class HullCalibration:
    """Calibrated probability of each ROC hull segment.

    Segment ``i`` holds the scores in ``[lowest[i], highest[i]]``; its calibrated
    probability is its positive share ``dTP / (dTP + dFP)``.

    Attributes
    ----------
    lowest, highest : ndarray of float64
        The lowest and highest score of each segment, highest segment first.
    probability : ndarray of float64
        The calibrated probability of each segment.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> cal = tc.hull_calibration(y, p)
    >>> cal.lowest.tolist(), cal.highest.tolist()
    ([0.8, 0.35, 0.1], [0.9, 0.4, 0.2])
    """

    lowest: np.ndarray
    highest: np.ndarray
    probability: np.ndarray

    def predict(self, scores: Any) -> np.ndarray:
        """Calibrated probability of each score (scores between segments take the
        segment below them).

        Parameters
        ----------
        scores : float or array-like of shape (n,)
            Scores to calibrate; NaN is refused.

        Returns
        -------
        ndarray of float64
            The calibrated probability of each score.

        Examples
        --------
        >>> import indist_fast.threshold_choice as tc
        >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
        >>> tc.hull_calibration(y, p).predict([0.85, 0.37, 0.05]).tolist()
        [1.0, 0.5, 0.0]
        """
        s = _real_array(scores, "scores")
        if s.ndim > 1:
            raise ValueError(f"scores must be a scalar or 1-d, got shape {s.shape}.")
        if np.isnan(s).any():
            raise ValueError("scores contains NaN: it has no calibrated probability.")
        i = np.searchsorted(-self.lowest, -s, side="left")
        return self.probability[np.clip(i, 0, len(self.probability) - 1)]


def hull_calibration(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                     pos_label: Any = None) -> HullCalibration:
    """Calibrate scores by the ROC convex hull (the isotonic, PAV calibration).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    HullCalibration
        One calibrated probability per hull segment, highest scores first.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> cal = tc.hull_calibration([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> cal.probability.tolist()
    [1.0, 0.5, 0.0]
    """
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    ctx = _context(rows, condition="cost", need_table=True)
    table = ctx.table
    assert table is not None
    fp, tp, thresholds = ctx.sums.hull
    d_tp, d_fp = np.diff(tp), np.diff(fp)
    probability = d_tp / (d_tp + d_fp)
    lowest = thresholds[1:]
    # a segment's highest score is the one just below the previous vertex
    start = np.searchsorted(-table.scores, -thresholds[:-1], side="right")
    start[0] = 0
    highest = table.scores[np.minimum(start, len(table) - 1)]
    return HullCalibration(lowest, highest, probability)


@dataclass(frozen=True, eq=False)
class CostCurves:
    """Cost lines ``Q_j(c) = intercept[j] + slope[j] c`` of every operating point
    (the first labels nothing) and their lower envelope, the optimal loss.

    Attributes
    ----------
    thresholds, intercept, slope : ndarray of shape (m + 1,)
        Threshold of each operating point (``inf`` first) and its cost line.
    envelope_c, envelope_loss : ndarray
        Corners of the lower envelope (piecewise linear in c) from c = 0 to 1.
    brier : LossCurve or None
        The Brier curve from the same table (None when scores leave [0, 1]).

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> cc = tc.cost_curves(y, p)
    >>> cc.thresholds.tolist()
    [inf, 0.9, 0.8, 0.4, 0.35, 0.2, 0.1]
    >>> cc(0.5).shape       # every line at c = 0.5
    (7,)
    """

    thresholds: np.ndarray
    intercept: np.ndarray
    slope: np.ndarray
    envelope_c: np.ndarray
    envelope_loss: np.ndarray
    brier: LossCurve | None = None

    def __call__(self, c: Any) -> np.ndarray:
        """Every line at ``c``: shape ``(m + 1,) + c.shape``."""
        c = _check_cost_proportions(c)
        lines: np.ndarray = (self.intercept[(...,) + (None,) * c.ndim]
                             + np.multiply.outer(self.slope, c))
        return lines


def cost_curves(y_true: Any, y_score: Any, *, condition: str = "cost",
                sample_weight: Any = None, pos_label: Any = None) -> CostCurves:
    """Cost curves of every operating point and their lower envelope (Hernandez-Orallo et al.).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    condition : {"cost", "skew"}, default="cost"
        ``skew`` sets pi0 = pi1 = 1/2 in the loss and in the rate.

    Returns
    -------
    CostCurves
        The lines, their envelope and, for scores in [0, 1], the Brier curve.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> cc = tc.cost_curves(y, p)
    >>> cc.envelope_c.round(4).tolist(), cc.envelope_loss.round(4).tolist()
    ([0.0, 0.5, 1.0], [0.0, 0.1667, 0.0])
    """
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    ctx = _context(rows, condition=condition, need_table=True)
    table = ctx.table
    assert table is not None
    fnr, fpr = _point_rates(table)
    lines = _lines(np.zeros(len(fnr) + 1), fnr, fpr, ctx.pi1)
    envelope = _optimal_curve(ctx)
    corners = np.unique(envelope.breaks)
    return CostCurves(np.concatenate(([np.inf], table.scores)), lines.coef[:, 0],
                      lines.coef[:, 1], corners, envelope(corners),
                      _score_driven_curve(ctx) if ctx.scores_are_probabilities() else None)


def loss_curve(y_true: Any, y_score: Any, method: str, *, t: float | None = None,
               q: float | None = None, condition: str = "cost", sample_weight: Any = None,
               pos_label: Any = None) -> LossCurve:
    """``Q(c)`` of a method as an exact piecewise polynomial in c (plot or integrate
    it). ``brier_curve`` is ``loss_curve(..., "score-driven")``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    method : str
        One of ``METHODS`` (see ``expected_loss``).
    t : float, optional
        Threshold of score-fixed: predict positive where ``score >= t``.
    q : float, optional
        Predicted positive rate of rate-fixed, in [0, 1].
    condition : {"cost", "skew"}, default="cost"
        ``skew`` sets pi0 = pi1 = 1/2 in the loss and in the rate.

    Returns
    -------
    LossCurve
        ``Q(c)`` on [0, 1].

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> q = tc.loss_curve(y, p, "score-fixed", t=0.5)
    >>> q([0.0, 1.0]).round(4).tolist()
    [0.0, 0.3333]
    """
    spec = _check_method(method)
    t_value, q_value = spec.settings(t, q)
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    ctx = _context(rows, t=t_value, q=q_value, condition=condition,
                   need_table=spec.needs_table)
    return spec.loss_curve(ctx)


def brier_curve(y_true: Any, y_score: Any, *, condition: str = "cost",
                sample_weight: Any = None, pos_label: Any = None) -> LossCurve:
    """The Brier curve: score-driven loss ``Q(c)`` with threshold ``1 - c``; its mean
    over a uniform c is the Brier score.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    condition : {"cost", "skew"}, default="cost"
        ``skew`` sets pi0 = pi1 = 1/2 in the loss and in the rate.

    Returns
    -------
    LossCurve
        ``Q(c)`` on [0, 1].

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> b = tc.brier_curve(y, p)
    >>> round(b.expected(tc.CostDistribution()), 6) == round(tc.brier_score(y, p), 6)
    True
    """
    return loss_curve(y_true, y_score, "score-driven", condition=condition,
                      sample_weight=sample_weight, pos_label=pos_label)


# --- the metrics the methods equal, by name ----------------------------------------------------

def _error_rate(ctx: _Context) -> float:
    """Error rate at the context's threshold ``t``, the classes weighed as the condition
    says (pooled under cost, class-balanced under skew): score-fixed's loss."""
    missed = ctx.weight_pos - ctx.sums.t_tp
    return ctx.class_mean(max(missed, 0.0), ctx.sums.t_fp)


def _accuracy(y_true: Any, y_score: Any, t: Any, sample_weight: Any, pos_label: Any,
              condition: str) -> float:
    t_value = _threshold(t)
    ctx = _uniform_context(y_true, y_score, sample_weight, pos_label, condition, t=t_value)
    return 1.0 - _error_rate(ctx)


def accuracy(y_true: Any, y_score: Any, *, t: float = 0.5, sample_weight: Any = None,
             pos_label: Any = None) -> float:
    """Accuracy predicting positive where ``score >= t``: one minus the expected loss of
    the score-fixed method under a uniform cost proportion (Hernández-Orallo, Flach and
    Ferri, "Threshold Choice Methods: the Missing Link").

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    t : float, default=0.5
        The threshold (any real number; scores need not be probabilities).

    Returns
    -------
    float
        The weighted share of rows classified correctly.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> tc.accuracy([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    0.8333333333333334
    """
    return _accuracy(y_true, y_score, t, sample_weight, pos_label, "cost")


def macro_accuracy(y_true: Any, y_score: Any, *, t: float = 0.5, sample_weight: Any = None,
                   pos_label: Any = None) -> float:
    """Macro-accuracy (balanced accuracy) predicting positive where ``score >= t``: the
    mean of the true positive and true negative rates, one minus the score-fixed loss
    under the skew condition.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    t : float, default=0.5
        The threshold (any real number; scores need not be probabilities).

    Returns
    -------
    float
        ``(tpr + tnr) / 2`` at ``t``.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> round(tc.macro_accuracy([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]), 4)
    0.8333
    """
    return _accuracy(y_true, y_score, t, sample_weight, pos_label, "skew")


def macro_brier_score(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                      pos_label: Any = None) -> float:
    """The Brier score of each class averaged with equal class weights: the score-driven
    method's expected loss under the skew condition.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    float
        ``(mean over positives of (1 - s)^2 + mean over negatives of s^2) / 2``.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> tc.macro_brier_score([0, 1, 1], [0.5, 0.5, 1.0])
    0.1875
    """
    ctx = _uniform_context(y_true, y_score, sample_weight, pos_label, "skew")
    _check_scores_in_unit_interval(ctx, "macro_brier_score")
    return _brier_loss(ctx)


def macro_mean_absolute_error(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                              pos_label: Any = None) -> float:
    """The mean absolute error of each class averaged with equal class weights: the
    score-uniform method's expected loss under the skew condition.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    float
        ``(mean over positives of 1 - s + mean over negatives of s) / 2``.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> tc.macro_mean_absolute_error([0, 1, 1], [0.5, 0.5, 1.0])
    0.375
    """
    ctx = _uniform_context(y_true, y_score, sample_weight, pos_label, "skew")
    _check_scores_in_unit_interval(ctx, "macro_mean_absolute_error")
    return ctx.class_mean(ctx.sums.mae_pos, ctx.sums.mae_neg)


def calibration_loss(y_true: Any, y_score: Any, *, condition: str = "cost",
                     sample_weight: Any = None, pos_label: Any = None) -> float:
    """Calibration loss: the Brier score minus the refinement loss of the ROC convex hull.

    The hull's refinement loss is the Brier score of the scores recalibrated by the
    hull (``hull_calibration``, the isotonic fit), so this is what calibration alone
    could still remove from the Brier score (Hernández-Orallo, Flach and Ferri,
    "Threshold Choice Methods: the Missing Link": score-driven loss minus optimal loss).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    condition : {"cost", "skew"}, default="cost"
        ``skew`` weighs the classes equally (macro Brier minus macro refinement).

    Returns
    -------
    float
        Non-negative; 0 for scores that are already hull-calibrated.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(tc.calibration_loss(y, p), 6) == round(
    ...     tc.brier_score(y, p) - tc.refinement_loss(y, p), 6)
    True
    """
    ctx = _uniform_context(y_true, y_score, sample_weight, pos_label, condition)
    _check_scores_in_unit_interval(ctx, "calibration_loss")
    # Brier >= refinement exactly (identity is a monotone recalibration); only
    # rounding can cross zero.
    return max(_brier_loss(ctx) - _refinement(ctx), 0.0)


def log_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None,
             pos_label: Any = None) -> float:
    """Mean negative log-likelihood of the labels under scores read as probabilities:
    ``-log s`` for a positive, ``-log(1 - s)`` for a negative, weighted mean.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    float
        The log loss; ``inf`` when a positive scores 0 or a negative scores 1 (no
        clipping: scikit-learn's ``log_loss`` clips to machine epsilon instead).

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> round(tc.log_loss([0, 1], [0.5, 0.5]), 6) == round(__import__("math").log(2), 6)
    True
    """
    table = ScoreTable.from_rows(prepare_rows(y_true, y_score, sample_weight, pos_label))
    wp, wn = table.weight_pos, table.weight_neg
    check_two_classes(wp, wn)
    s = table.scores
    if len(s) and not (0.0 <= s[-1] and s[0] <= 1.0):
        _refuse_scores(float(s[-1]), float(s[0]), "log_loss")
    pos, neg = table.pos.astype(np.float64), table.neg.astype(np.float64)
    # a class absent at a score adds nothing, even where its log is infinite
    with np.errstate(divide="ignore"):
        total = (np.sum(pos[pos > 0] * -np.log(s[pos > 0]))
                 + np.sum(neg[neg > 0] * -np.log1p(-s[neg > 0])))
    return float(total / (wp + wn))


@dataclass(frozen=True)
class ExpectedContingency:
    """The expected contingency table of the rate-uniform method, as proportions of all
    examples (under the skew condition, of the classes weighed equally).

    Attributes
    ----------
    tp, fp, fn, tn : float
        Expected true positives, false positives, false negatives, true negatives.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> table = tc.rate_uniform_contingency([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8])
    >>> table.tp, table.fp, table.fn, table.tn
    (0.375, 0.125, 0.125, 0.375)
    """

    tp: float
    fp: float
    fn: float
    tn: float

    @property
    def predicted_positive(self) -> float:
        """``tp + fp``: 1/2, the expected predicted positive rate."""
        return self.tp + self.fp

    @property
    def error(self) -> float:
        """``fn + fp``: the rate-uniform method's expected loss under a uniform c."""
        return self.fn + self.fp

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            ``tp``, ``fp``, ``fn``, ``tn``.

        Examples
        --------
        >>> import indist_fast.threshold_choice as tc
        >>> tc.rate_uniform_contingency([0, 1], [0.1, 0.9]).to_dict()["tp"]
        0.375
        """
        return record_dict(self)


def rate_uniform_contingency(y_true: Any, y_score: Any, *, condition: str = "cost",
                             sample_weight: Any = None,
                             pos_label: Any = None) -> ExpectedContingency:
    """The expected contingency table of the rate-uniform threshold choice method.

    The rate-uniform method labels positive a share ``q ~ U(0, 1)`` of the examples,
    whatever the operating condition: it puts the threshold at the score of an example
    drawn at random. Averaging the contingency table over ``q`` gives, as proportions
    of all examples (Hernández-Orallo, Flach and Ferri, "Threshold Choice Methods: the
    Missing Link", the table after Theorem 8 and Corollary 9)::

        TP = pi1 (pi1 / 2 + pi0 AUC)        FN = pi1 - TP
        FP = pi0 (pi1 (1 - AUC) + pi0 / 2)  TN = pi0 - FP

    A drawn positive leaves on average half the positives above it and a share AUC of
    the negatives below it; a drawn negative, a share ``1 - AUC`` of the positives and
    half the negatives above it. Each column sums to 1/2 (the expected split is in the
    middle) and ``FN + FP`` is the method's expected loss under a uniform cost
    proportion, ``1/2 + pi0 pi1 (1 - 2 AUC)``. With ties the ROC curve is interpolated
    linearly (a tied group split at random), which makes these values exact for the
    empirical curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    condition : {"cost", "skew"}, default="cost"
        ``skew`` sets pi0 = pi1 = 1/2 (in the rate too).

    Returns
    -------
    ExpectedContingency
        ``tp``, ``fp``, ``fn``, ``tn``, summing to 1.

    Examples
    --------
    >>> import indist_fast.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> table = tc.rate_uniform_contingency(y, p)
    >>> round(table.tp + table.fp, 12), round(table.error, 12) == round(
    ...     tc.expected_loss(y, p, "rate-uniform"), 12)
    (0.5, True)
    """
    ctx = _uniform_context(y_true, y_score, sample_weight, pos_label, condition)
    tpr, fpr = _rate_uniform_rates(ctx)
    pi1 = ctx.pi1
    pi0 = 1.0 - pi1
    return ExpectedContingency(pi1 * tpr, pi0 * fpr, pi1 * (1.0 - tpr), pi0 * (1.0 - fpr))
