"""The metrics the threshold choice methods equal under a uniform cost proportion, each a
function of its own from one sort (Hernandez-Orallo, Flach and Ferri, "Threshold Choice
Methods: the Missing Link"): accuracy (score-fixed), mean absolute error
(score-uniform), Brier score (score-driven) and their macro (class-balanced) versions
under the skew condition, calibration loss (Brier minus the hull's refinement loss), log
loss, and the rate-uniform method's expected contingency table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.validation import check_two_classes, prepare_rows
from ..results.report import record_dict
from ..table.score_table import ScoreTable
from .cost_model import (SweepContext, check_scores_in_unit_interval, refuse_scores,
                         uniform_context)
from .method_registry import brier_loss, check_threshold, rate_uniform_rates
from .roc_hull import refinement


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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> tc.brier_score([0, 1], [0.25, 0.5])
    0.15625
    """
    ctx = uniform_context(y_true, y_score, sample_weight, pos_label)
    check_scores_in_unit_interval(ctx, "brier_score")
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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> tc.mean_absolute_error([0, 1], [0.25, 0.5])
    0.375
    """
    ctx = uniform_context(y_true, y_score, sample_weight, pos_label)
    check_scores_in_unit_interval(ctx, "mean_absolute_error")
    return ctx.class_mean(ctx.sums.mae_pos, ctx.sums.mae_neg)


def _error_rate(ctx: SweepContext) -> float:
    """Error rate at the context's threshold ``t``, the classes weighed as the condition
    says (pooled under cost, class-balanced under skew): score-fixed's loss."""
    missed = ctx.weight_pos - ctx.sums.t_tp
    return ctx.class_mean(max(missed, 0.0), ctx.sums.t_fp)


def _accuracy(y_true: Any, y_score: Any, t: Any, sample_weight: Any, pos_label: Any,
              condition: str) -> float:
    t_value = check_threshold(t)
    ctx = uniform_context(y_true, y_score, sample_weight, pos_label, condition, t=t_value)
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
    >>> import indist_fast.metrics.threshold_choice as tc
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
    >>> import indist_fast.metrics.threshold_choice as tc
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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> tc.macro_brier_score([0, 1, 1], [0.5, 0.5, 1.0])
    0.1875
    """
    ctx = uniform_context(y_true, y_score, sample_weight, pos_label, "skew")
    check_scores_in_unit_interval(ctx, "macro_brier_score")
    return brier_loss(ctx)


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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> tc.macro_mean_absolute_error([0, 1, 1], [0.5, 0.5, 1.0])
    0.375
    """
    ctx = uniform_context(y_true, y_score, sample_weight, pos_label, "skew")
    check_scores_in_unit_interval(ctx, "macro_mean_absolute_error")
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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(tc.calibration_loss(y, p), 6) == round(
    ...     tc.brier_score(y, p) - tc.refinement_loss(y, p), 6)
    True
    """
    ctx = uniform_context(y_true, y_score, sample_weight, pos_label, condition)
    check_scores_in_unit_interval(ctx, "calibration_loss")
    # Brier >= refinement exactly (identity is a monotone recalibration); only
    # rounding can cross zero.
    return max(brier_loss(ctx) - refinement(ctx), 0.0)


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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> round(tc.log_loss([0, 1], [0.5, 0.5]), 6) == round(__import__("math").log(2), 6)
    True
    """
    table = ScoreTable.from_rows(prepare_rows(y_true, y_score, sample_weight, pos_label))
    wp, wn = table.weight_pos, table.weight_neg
    check_two_classes(wp, wn)
    s = table.scores
    if len(s) and not (0.0 <= s[-1] and s[0] <= 1.0):
        refuse_scores(float(s[-1]), float(s[0]), "log_loss")
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
    >>> import indist_fast.metrics.threshold_choice as tc
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
        >>> import indist_fast.metrics.threshold_choice as tc
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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> table = tc.rate_uniform_contingency(y, p)
    >>> round(table.tp + table.fp, 12), round(table.error, 12) == round(
    ...     tc.expected_loss(y, p, "rate-uniform"), 12)
    (0.5, True)
    """
    ctx = uniform_context(y_true, y_score, sample_weight, pos_label, condition)
    tpr, fpr = rate_uniform_rates(ctx)
    pi1 = ctx.pi1
    pi0 = 1.0 - pi1
    return ExpectedContingency(pi1 * tpr, pi0 * fpr, pi1 * (1.0 - tpr), pi0 * (1.0 - fpr))
