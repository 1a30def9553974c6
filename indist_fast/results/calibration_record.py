"""The calibration record: the reliability curve of binned probabilities and the
numbers read from it (ECE, MCE, the Brier score and its decomposition, log loss, the
logistic recalibration line, the Hosmer-Lemeshow test)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from .report import count_text, record_dict

__all__ = ["Calibration"]


@dataclass(frozen=True, eq=False, repr=False)
class Calibration:
    """How well scores read as probabilities match the outcome rates (see
    ``indist_fast.calibration`` for how the bins are made and every formula).

    The per-bin arrays hold the non-empty bins only, lowest first (as scikit-learn's
    ``calibration_curve`` drops empty bins); ``bin`` gives each one's index among the
    ``n_bins`` bins that ``edges`` bound.

    Attributes
    ----------
    n_bins : int
        Bins asked for.
    strategy : {"uniform", "quantile"}
        How the edges were placed.
    edges : ndarray of shape (n_bins + 1,)
        Bin edges, ascending; bin ``k`` holds the scores in ``(edges[k], edges[k + 1]]``
        (the first bin from ``edges[0]`` included). Quantile edges may repeat, leaving
        bins empty.
    bin : ndarray of int64, shape (n_kept,)
        Index of each non-empty bin.
    prob_pred : ndarray of shape (n_kept,)
        Weighted mean predicted probability in each bin.
    prob_true : ndarray of shape (n_kept,)
        Weighted share of positives in each bin.
    weight : ndarray of shape (n_kept,)
        Weight (row count without weights) in each bin.
    n_rows : int
        Rows read (zero-weight rows included).
    weight_pos, weight_neg : float
        Total positive and negative weight.
    ece : float
        Expected calibration error: ``sum_k (weight_k / W) |prob_true_k - prob_pred_k|``.
    mce : float
        Maximum calibration error: ``max_k |prob_true_k - prob_pred_k|``.
    brier : float
        Brier score, the weighted mean of ``(y - p)^2``.
    reliability, resolution, uncertainty : float
        Murphy's terms over the bins: ``REL = sum_k (weight_k / W) (prob_pred_k -
        prob_true_k)^2``, ``RES = sum_k (weight_k / W) (prob_true_k - base_rate)^2``,
        ``UNC = base_rate (1 - base_rate)``.
    within_bin_variance, within_bin_covariance : float
        ``WBV = (1/W) sum_i w_i (p_i - prob_pred_k(i))^2`` and ``WBC = (1/W) sum_i w_i
        (p_i - prob_pred_k(i)) (y_i - prob_true_k(i))``: the terms that make the
        decomposition exact when the probabilities inside a bin differ,
        ``brier = REL - RES + UNC + WBV - 2 WBC``.
    log_loss : float
        Weighted mean of ``-log p`` (positives) and ``-log(1 - p)`` (negatives), the
        probabilities clipped to ``[eps, 1 - eps]`` as scikit-learn's ``log_loss``.
    slope, intercept : float
        The logistic recalibration fit ``logit P(y = 1) = intercept + slope logit(p)``
        (Cox 1958) by maximum likelihood; NaN (with a warning) when it has no finite
        maximum: one class, one distinct probability, or classes the scores separate.
    hosmer_lemeshow : float
        ``sum_k (O_k - E_k)^2 / (E_k (1 - prob_pred_k))`` over the non-empty bins, with
        ``O_k`` the positive weight and ``E_k = weight_k prob_pred_k`` the expected one.
    hosmer_lemeshow_df : int
        Non-empty bins minus 2.
    hosmer_lemeshow_pvalue : float
        Chi-squared survival function of the statistic on ``hosmer_lemeshow_df``
        degrees of freedom; NaN when they are fewer than 1.

    Examples
    --------
    >>> import indist_fast
    >>> cal = indist_fast.calibration([0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.9],
    ...                               n_bins=3)
    >>> cal.bin.tolist(), cal.prob_true.tolist(), cal.weight.tolist()
    ([0, 1, 2], [0.0, 0.5, 1.0], [2.0, 2.0, 2.0])
    >>> round(cal.brier, 4), round(cal.ece, 4)
    (0.1554, 0.125)
    """

    n_bins: int
    strategy: str
    edges: np.ndarray
    bin: np.ndarray
    prob_pred: np.ndarray
    prob_true: np.ndarray
    weight: np.ndarray
    n_rows: int
    weight_pos: float
    weight_neg: float
    ece: float
    mce: float
    brier: float
    reliability: float
    resolution: float
    uncertainty: float
    within_bin_variance: float
    within_bin_covariance: float
    log_loss: float
    slope: float
    intercept: float
    hosmer_lemeshow: float
    hosmer_lemeshow_df: int
    hosmer_lemeshow_pvalue: float

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                value.setflags(write=False)

    def __len__(self) -> int:
        return len(self.bin)

    @property
    def within_bin(self) -> float:
        """``WBV - 2 WBC``: what the binning hides, so that ``brier = reliability -
        resolution + uncertainty + within_bin`` exactly."""
        return self.within_bin_variance - 2.0 * self.within_bin_covariance

    @property
    def base_rate(self) -> float:
        """Positive share of the weight."""
        return self.weight_pos / (self.weight_pos + self.weight_neg)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (arrays as lists, NaN as None).

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> import indist_fast
        >>> cal = indist_fast.calibration([0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.9],
        ...                               n_bins=3)
        >>> d = cal.to_dict()
        >>> d["prob_true"], d["hosmer_lemeshow_df"]
        ([0.0, 0.5, 1.0], 1)
        """
        return record_dict(self)

    def to_pandas(self) -> Any:
        """One row per non-empty bin: its index, edges, weight, mean predicted
        probability and share of positives (needs pandas).

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import indist_fast
        >>> cal = indist_fast.calibration([0, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.8, 0.6, 0.9],
        ...                               n_bins=3)
        >>> cal.to_pandas().columns.tolist()
        ['bin', 'lower', 'upper', 'weight', 'prob_pred', 'prob_true']
        """
        import pandas as pd
        return pd.DataFrame({"bin": self.bin, "lower": self.edges[self.bin],
                             "upper": self.edges[self.bin + 1], "weight": self.weight,
                             "prob_pred": self.prob_pred, "prob_true": self.prob_true})

    def _repr_html_(self) -> str:
        from .html_tables import cell, table_html
        summary = ("ece", "mce", "brier", "reliability", "resolution", "uncertainty",
                   "log_loss", "slope", "intercept", "hosmer_lemeshow",
                   "hosmer_lemeshow_pvalue")
        bins = [[cell("bin", k), cell("prob_pred", f), cell("prob_true", o),
                 cell("weight", w)]
                for k, f, o, w in zip(self.bin.tolist(), self.prob_pred.tolist(),
                                      self.prob_true.tolist(), self.weight.tolist())]
        return (table_html(summary, [[cell(f, getattr(self, f)) for f in summary]],
                           caption=f"calibration, {self.strategy} bins")
                + table_html(("bin", "predicted", "observed", "weight"), bins))

    def __repr__(self) -> str:
        return (f"Calibration({len(self)} of {self.n_bins} {self.strategy} bins, "
                f"ece={self.ece:.4g}, brier={self.brier:.4g}, log_loss={self.log_loss:.4g}, "
                f"slope={self.slope:.4g}, intercept={self.intercept:.4g})")

    def __str__(self) -> str:
        p = self.hosmer_lemeshow_pvalue
        lines = [
            f"rows {self.n_rows:,}   positives {count_text(self.weight_pos)}   "
            f"negatives {count_text(self.weight_neg)}   {self.strategy} bins "
            f"{len(self)} of {self.n_bins} non-empty",
            f"ECE {self.ece:.4f}   MCE {self.mce:.4f}   log loss {self.log_loss:.4f}   "
            f"slope {self.slope:.4f}   intercept {self.intercept:.4f}",
            f"Brier {self.brier:.4f} = reliability {self.reliability:.4f} - resolution "
            f"{self.resolution:.4f} + uncertainty {self.uncertainty:.4f} + within bins "
            f"{self.within_bin:.4f}",
            f"Hosmer-Lemeshow {self.hosmer_lemeshow:.4g} on {self.hosmer_lemeshow_df} df, "
            + ("p < 1e-300" if p == 0.0          # an underflow, never p = 0
               else f"p = {'undefined' if math.isnan(p) else f'{p:.4g}'}"),
            "",
            f"{'bin':>4} {'from':>8} {'to':>8} {'weight':>12} {'predicted':>10} "
            f"{'observed':>10}",
        ]
        for k, w, f, o in zip(self.bin.tolist(), self.weight.tolist(),
                              self.prob_pred.tolist(), self.prob_true.tolist()):
            lines.append(f"{k:>4} {self.edges[k]:>8.4g} {self.edges[k + 1]:>8.4g} "
                         f"{count_text(w):>12} {f:>10.4f} {o:>10.4f}")
        return "\n".join(lines)
