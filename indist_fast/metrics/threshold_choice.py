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
entry of a registry (``method_registry``) that says what it needs and builds its ``Q``;
every public function dispatches through it.

Under a uniform ``c`` the methods equal familiar metrics (tests check each):
score-fixed = error rate at ``t``; score-uniform = mean absolute error; score-driven
= Brier score; rate-uniform = 1/2 + pi0 pi1 (1 - 2A); rate-driven = 1/3 + pi0 pi1
(1 - 2A); optimal = refinement loss of the ROC convex hull. Under the skew condition
they are the macro (class-balanced) versions. Those metrics are also functions of their
own (``accuracy``, ``macro_accuracy``, ``brier_score``, ``macro_brier_score``, ...,
``calibration_loss``, ``log_loss``), each from one sort.

This module holds ``expected_loss`` and the curves ``loss_curve``, ``brier_curve`` and
``cost_curves``, and is where every name of its ``__all__`` is imported from. The rest
lives beside it: the cost proportion's distribution, ``LossCurve`` and the sweep
(``cost_model``), the methods (``method_registry``), the ROC convex hull
(``roc_hull``), ``compare_methods`` (``method_comparison``) and the metrics the methods
equal (``loss_metrics``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.validation import prepare_rows
from .cost_model import (CostDistribution, LossCurve, check_cost_proportions, cost_lines,
                         point_rates)
# The functions below reach the sweep by this module-level name (one seam for all of them).
from .cost_model import sweep_context
from .loss_metrics import (ExpectedContingency, accuracy, brier_score, calibration_loss,
                           log_loss, macro_accuracy, macro_brier_score,
                           macro_mean_absolute_error, mean_absolute_error,
                           rate_uniform_contingency)
from .method_comparison import MethodComparison, MethodLoss, compare_methods
from .method_registry import (METHODS, check_method, describe_methods, optimal_curve,
                              score_driven_curve)
# The registry under the name it had when it lived here.
from .roc_hull import HullCalibration, RocHull, hull_calibration, refinement_loss, roc_convex_hull

__all__ = ["METHODS", "CostDistribution", "LossCurve", "expected_loss", "compare_methods",
           "MethodComparison", "MethodLoss", "roc_convex_hull", "RocHull",
           "refinement_loss", "brier_score", "mean_absolute_error", "cost_curves",
           "CostCurves", "brier_curve", "hull_calibration", "HullCalibration", "loss_curve",
           "accuracy", "macro_accuracy", "macro_brier_score", "macro_mean_absolute_error",
           "calibration_loss", "log_loss", "rate_uniform_contingency",
           "ExpectedContingency"]


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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(tc.expected_loss(y, p, "score-driven"), 6) == round(tc.brier_score(y, p), 6)
    True
    """
    spec = check_method(method)
    t_value, q_value = spec.settings(t, q)
    dist = CostDistribution.coerce(cost_distribution)
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    ctx = sweep_context(rows, t=t_value, q=q_value, condition=condition,
                   need_table=spec.table_needed(dist))
    return spec.expected_loss(ctx, dist)


expected_loss.__doc__ = describe_methods(expected_loss.__doc__)


# --- the curves of the methods ---------------------------------------------------------------

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
    >>> import indist_fast.metrics.threshold_choice as tc
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
        c = check_cost_proportions(c)
        lines: np.ndarray = (self.intercept[(...,) + (None,) * c.ndim]
                             + np.multiply.outer(self.slope, c))
        return lines


def cost_curves(y_true: Any, y_score: Any, *, condition: str = "cost",
                sample_weight: Any = None, pos_label: Any = None) -> CostCurves:
    """Cost curves of every operating point and their lower envelope (Hernandez-Orallo et al.).

    This computes them; ``indist_fast.plot.cost_curves`` draws them (it calls this).

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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> cc = tc.cost_curves(y, p)
    >>> cc.envelope_c.round(4).tolist(), cc.envelope_loss.round(4).tolist()
    ([0.0, 0.5, 1.0], [0.0, 0.1667, 0.0])
    """
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    ctx = sweep_context(rows, condition=condition, need_table=True)
    table = ctx.table
    assert table is not None
    fnr, fpr = point_rates(table)
    lines = cost_lines(np.zeros(len(fnr) + 1), fnr, fpr, ctx.pi1)
    envelope = optimal_curve(ctx)
    corners = np.unique(envelope.breaks)
    return CostCurves(np.concatenate(([np.inf], table.scores)), lines.coef[:, 0],
                      lines.coef[:, 1], corners, envelope(corners),
                      score_driven_curve(ctx) if ctx.scores_are_probabilities() else None)


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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> q = tc.loss_curve(y, p, "score-fixed", t=0.5)
    >>> q([0.0, 1.0]).round(4).tolist()
    [0.0, 0.3333]
    """
    spec = check_method(method)
    t_value, q_value = spec.settings(t, q)
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    ctx = sweep_context(rows, t=t_value, q=q_value, condition=condition,
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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> b = tc.brier_curve(y, p)
    >>> round(b.expected(tc.CostDistribution()), 6) == round(tc.brier_score(y, p), 6)
    True
    """
    return loss_curve(y_true, y_score, "score-driven", condition=condition,
                      sample_weight=sample_weight, pos_label=pos_label)
