"""The ROC convex hull and what it gives (Hernandez-Orallo, Flach and Ferri, "Threshold
Choice Methods: the Missing Link"): its vertices (``roc_convex_hull``, the operating
points optimal for some cost), its refinement loss (the expected loss of the optimal
threshold choice method) and the calibration it defines (``hull_calibration``, the
isotonic, PAV calibration). The engines find the hull in the same sweep as the cost sums.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.validation import prepare_rows
from .cost_model import SweepContext, class_rates, real_array, sweep_context, uniform_context


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
    >>> import indist_fast.metrics.threshold_choice as tc
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


def hull_of(ctx: SweepContext) -> RocHull:
    fp, tp, thresholds = ctx.sums.hull
    tpr, fpr = class_rates(tp, fp)
    return RocHull(fpr, tpr, fp, tp, thresholds)


def hull_steps(ctx: SweepContext) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The hull's TPR and FPR, and each segment's rise ``pi1 dtpr`` and run ``pi0 dfpr``."""
    hull = hull_of(ctx)
    tpr, fpr = hull.tpr, hull.fpr
    return tpr, fpr, ctx.pi1 * np.diff(tpr), (1.0 - ctx.pi1) * np.diff(fpr)


def refinement(ctx: SweepContext) -> float:
    """Refinement loss of the hull: ``sum (pi1 dtpr + pi0 dfpr) p (1 - p)``."""
    _, _, d1, d0 = hull_steps(ctx)
    mass = d1 + d0
    ok = mass > 0
    return float(np.sum(d1[ok] * d0[ok] / mass[ok]))


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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> h = tc.roc_convex_hull([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> h.fpr.tolist(), h.tpr.tolist()
    ([0.0, 0.0, 0.3333333333333333, 1.0], [0.0, 0.6666666666666666, 1.0, 1.0])
    """
    return hull_of(uniform_context(y_true, y_score, sample_weight, pos_label))


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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(tc.refinement_loss(y, p), 6) == round(tc.expected_loss(y, p, "optimal"), 6)
    True
    """
    return refinement(uniform_context(y_true, y_score, sample_weight, pos_label))


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
    >>> import indist_fast.metrics.threshold_choice as tc
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
        >>> import indist_fast.metrics.threshold_choice as tc
        >>> y, p = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
        >>> tc.hull_calibration(y, p).predict([0.85, 0.37, 0.05]).tolist()
        [1.0, 0.5, 0.0]
        """
        s = real_array(scores, "scores")
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
    >>> import indist_fast.metrics.threshold_choice as tc
    >>> cal = tc.hull_calibration([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> cal.probability.tolist()
    [1.0, 0.5, 0.0]
    """
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    ctx = sweep_context(rows, condition="cost", need_table=True)
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
