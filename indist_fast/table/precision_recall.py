"""The precision-recall curve of a score table and the areas under it: the step sum
(average precision), the trapezoid, the interpolated (envelope) area and AUPRG (Flach
and Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right")."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from .._core.engine import engine
from .._core.rates import operating_rates
from .._core.validation import check_weight_span, check_weight_total
from ..errors import IndistFastWarning, warn
from ..results.report import record_dict

__all__ = ["PrecisionRecallCurve", "precision_recall_of"]


@dataclasses.dataclass(frozen=True, eq=False)
class PrecisionRecallCurve:
    """The precision-recall curve of every operating point and four areas under it.

    One entry per distinct score (scikit-learn's points), highest threshold first;
    ``to_sklearn()`` gives scikit-learn's own arrays and order.

    Attributes
    ----------
    thresholds : ndarray of shape (m,)
        Distinct scores, descending; point ``j`` predicts positive where
        ``score >= thresholds[j]``.
    precision, recall : ndarray of shape (m,)
        Precision and recall (tpr) at each point.
    prevalence : float
        Share of positive weight, ``pi1``: the precision of a random ranking.
    average_precision : float
        Step sum ``sum_j (recall_j - recall_{j-1}) precision_j`` from recall 0: the
        number ``average_precision`` gives (scikit-learn's ``average_precision_score``).
    area_trapezoid : float
        Trapezoid rule through the points, starting at (recall 0, precision 1) as
        scikit-learn's arrays do: ``sklearn.metrics.auc(recall, precision)``. Linear
        interpolation in PR space is optimistic (Davis and Goadrich); it is here for
        comparison with tools that report it.
    area_interpolated : float
        The step sum over the precision envelope ``max_{k >= j} precision_k`` (the
        highest precision at this recall or beyond): the all-point interpolated average
        precision of PASCAL VOC from 2010 on (not the 11-point version).
    auprg : float
        Area under the precision-recall-gain curve (Flach and Kull, "Precision-Recall-
        Gain Curves: PR Analysis Done Right"), over recall gain in [0, 1]; see
        ``precision_recall_curve``.

    Examples
    --------
    >>> import indist_fast
    >>> pr = indist_fast.precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> pr.thresholds.tolist(), pr.precision.tolist(), pr.recall.tolist()
    ([0.8, 0.4, 0.35, 0.1], [1.0, 0.5, 0.6666666666666666, 0.5], [0.5, 0.5, 1.0, 1.0])
    """

    thresholds: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    prevalence: float
    average_precision: float
    area_trapezoid: float
    area_interpolated: float
    auprg: float

    def __post_init__(self) -> None:
        for name in ("thresholds", "precision", "recall"):
            getattr(self, name).setflags(write=False)

    def __len__(self) -> int:
        return len(self.thresholds)

    @property
    def precision_gain(self) -> np.ndarray:
        """``(precision - pi1) / ((1 - pi1) precision)`` at each point (Flach and Kull)."""
        return _gain(self.precision, self.prevalence)

    @property
    def recall_gain(self) -> np.ndarray:
        """``(recall - pi1) / ((1 - pi1) recall)`` at each point; negative where recall
        is below the prevalence (those points lie outside the PRG plot)."""
        return _gain(self.recall, self.prevalence)

    def to_sklearn(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(precision, recall, thresholds)`` exactly as scikit-learn's
        ``precision_recall_curve`` returns them: thresholds ascending, and the point
        (precision 1, recall 0) appended to the first two.

        Returns
        -------
        precision, recall : ndarray of shape (m + 1,)
        thresholds : ndarray of shape (m,)

        Examples
        --------
        >>> import indist_fast
        >>> pr = indist_fast.precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> [a.tolist() for a in pr.to_sklearn()][1:]
        [[1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8]]
        """
        return (np.r_[self.precision[::-1], 1.0], np.r_[self.recall[::-1], 0.0],
                self.thresholds[::-1].copy())

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (arrays as lists, NaN as None).

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.precision_recall_curve([0, 1], [0.2, 0.7]).to_dict()
        >>> d["recall"], d["auprg"]
        ([1.0, 1.0], 1.0)
        """
        return record_dict(self)


def _gain(rate: np.ndarray, prevalence: float) -> np.ndarray:
    """Flach and Kull's gain of a precision or recall: 0 at the prevalence, 1 at 1;
    -inf at rate 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        gain: np.ndarray = (rate - prevalence) / ((1.0 - prevalence) * rate)
    return gain


def _step_areas(recall: np.ndarray, precision: np.ndarray) -> tuple[float, float]:
    """Trapezoid area from (0, 1) through the points, and the step sum over the
    precision envelope (recall ascending along the arrays)."""
    r = np.r_[0.0, recall]
    p = np.r_[1.0, precision]
    trapezoid = float(np.sum(np.diff(r) * (p[1:] + p[:-1])) / 2.0)
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    return trapezoid, float(np.sum(np.diff(r) * envelope))


def _auprg(tp: np.ndarray, fp: np.ndarray) -> float:
    """Area under the PRG curve over recall gain in [0, 1] (Flach and Kull).

    The points are the operating points after "nothing labelled"; recall gain rises
    along them. The curve starts where recall equals the prevalence (recall gain 0):
    on the segment that crosses it, TP and FP are interpolated linearly (a random
    split of the tied group, as in the authors' reference code), and precision gain is
    read there. Points of lower recall are left out; negative precision gains count
    negatively. The last point (everything labelled) is exactly (1, 0).
    """
    wp, wn = tp[-1], fp[-1]
    pi1 = wp / (wp + wn)
    tp0, fp0 = np.r_[0.0, tp], np.r_[0.0, fp]
    with np.errstate(divide="ignore", invalid="ignore"):
        recall_gain = _gain(tp0 / wp, pi1)
        precision_gain = _gain(tp0 / (tp0 + fp0), pi1)
    precision_gain[-1], recall_gain[-1] = 0.0, 1.0
    j = int(np.argmax(recall_gain >= 0.0))       # the last point has recall gain 1
    x, y = recall_gain[j:], precision_gain[j:]
    if recall_gain[j] > 0.0:                     # j >= 1: point 0 has recall gain -inf
        alpha = (pi1 * wp - tp0[j - 1]) / (tp0[j] - tp0[j - 1])
        fp_cross = fp0[j - 1] + alpha * (fp0[j] - fp0[j - 1])
        x = np.r_[0.0, x]
        y = np.r_[1.0 - fp_cross / (pi1 * wn), y]   # (wp / wn) fp_cross / (pi1 wp)
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1])) / 2.0)


def precision_recall_of(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray
                        ) -> PrecisionRecallCurve:
    """The curve of a score table (distinct scores descending, class weights at each):
    what ``precision_recall_curve`` and ``ScoreTable.precision_recall_curve`` return.

    Without negatives the curve is still defined (precision 1 at every point, every
    area 1, as scikit-learn gives), but AUPRG is not: the gains divide by
    ``1 - pi1 = 0``; it is NaN, with a warning. Without positives recall is 0/0:
    ValueError.

    Parameters
    ----------
    scores : ndarray of shape (m,)
        Distinct scores, descending.
    pos, neg : ndarray of shape (m,)
        Positive and negative weight (or counts) at each score.

    Returns
    -------
    PrecisionRecallCurve

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.table.precision_recall import precision_recall_of
    >>> pr = precision_recall_of(np.array([0.9, 0.5, 0.1]), np.array([1, 1, 0]),
    ...                          np.array([0, 1, 1]))
    >>> pr.precision.tolist(), pr.average_precision
    ([1.0, 0.6666666666666666, 0.5], 0.8333333333333333)
    """
    with np.errstate(over="ignore"):          # an infinite total is refused just below
        wp = float(np.sum(pos, dtype=np.float64))
        wn = float(np.sum(neg, dtype=np.float64))
    check_weight_total(wp, wn)
    check_weight_span(wp, wn)
    if wp <= 0:
        raise ValueError("y_true holds no positives (rows of weight 0 excluded): recall is "
                         "undefined, so there is no precision-recall curve."
                         if wn > 0 else
                         "sample_weight is zero on every row: nothing to evaluate.")
    # The step sum is the engine's, so this area is average_precision's to the bit.
    swept = engine().sweep_table(scores, pos, neg, np.array([0.5]), True)
    tp = np.cumsum(pos, dtype=np.float64)
    fp = np.cumsum(neg, dtype=np.float64)
    # TP ends at the in-order total: recall is over that same total (as in curves()).
    rates = operating_rates(tp, fp, tp[-1], fp[-1])
    trapezoid, interpolated = _step_areas(rates.tpr, rates.precision)
    prevalence = tp[-1] / (tp[-1] + fp[-1])
    if wn > 0:
        with np.errstate(all="ignore"):
            auprg = _auprg(tp, fp) if 0.0 < prevalence < 1.0 else float("nan")
        if not math.isfinite(auprg):
            auprg = float("nan")
            warn(f"The positives' share of the weight is {prevalence:g} (classes "
                 "far apart in weight): AUPRG's gains divide by the prevalence and "
                 "by 1 - prevalence, which float64 cannot resolve here, so it is "
                 "NaN.", IndistFastWarning)
    else:
        auprg = float("nan")
        warn("y_true holds only positives: precision is 1 at every threshold "
             "and every area is 1, but AUPRG is undefined (the gains divide by "
             "1 - prevalence = 0): it is NaN.", IndistFastWarning)
    return PrecisionRecallCurve(scores.copy(), rates.precision, rates.tpr,
                                float(tp[-1] / (tp[-1] + fp[-1])),
                                float(swept.average_precision), trapezoid, interpolated,
                                auprg)
