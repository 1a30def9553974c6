"""Calibration of predicted probabilities from rows: one validation, one sort (the
``ScoreTable``), then ``ScoreTable.calibration``'s sums over the distinct scores."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..io.frames import columns_by_keyword, prepare_frame_or_rows
from ..results.calibration_record import Calibration
from ..table.calibration_bins import (calibration_of, check_binning,
                                      refuse_probabilities)
from ..table.score_table import ScoreTable

__all__ = ["calibration"]


@columns_by_keyword
def calibration(y_true: Any, y_prob: Any = None, *, n_bins: int = 10,
                strategy: str = "uniform", sample_weight: Any = None, pos_label: Any = None,
                label: str | None = None, score: str | None = None,
                weight: str | None = None) -> Calibration:
    r"""Calibration of predicted probabilities: the reliability curve, ECE and MCE, the
    Brier score with Murphy's decomposition, log loss, the calibration slope and
    intercept, and the Hosmer-Lemeshow test.

    One sort (the ``ScoreTable``); every number is a sum over the distinct scores, so
    a table merged from chunks (``ScoreTable.merge``, ``Accumulator``) gives the same
    record through ``ScoreTable.calibration``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, each in [0, 1].
    n_bins : int, default=10
        Number of bins (at least 1).
    strategy : {"uniform", "quantile"}, default="uniform"
        ``uniform``: equal-width bins over [0, 1]. ``quantile``: bins of equal weight
        (``n_bins=10`` gives the deciles of risk of the Hosmer-Lemeshow test).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``calibration(df, label="y", score="p")``.

    Returns
    -------
    Calibration
        Per non-empty bin ``prob_pred``, ``prob_true``, ``weight`` and ``bin``; the
        ``edges``; ``ece``, ``mce``, ``brier``, ``reliability``, ``resolution``,
        ``uncertainty``, ``within_bin_variance``, ``within_bin_covariance``,
        ``log_loss``, ``slope``, ``intercept``, ``hosmer_lemeshow`` with its ``_df``
        and ``_pvalue``.

    Raises
    ------
    ValueError
        When a probability lies outside [0, 1] or is NaN (a score is not a
        probability), or ``n_bins`` / ``strategy`` are out of range.
    ImportError
        Without scipy (the Hosmer-Lemeshow p-value needs it).

    Warns
    -----
    IndistFastWarning
        When the slope and intercept are undefined (NaN: one class, one distinct
        probability, or probabilities that separate the classes), or the
        Hosmer-Lemeshow p-value is (fewer than three non-empty bins).

    Notes
    -----
    **Bins** are scikit-learn's ``calibration_curve``'s, and its curve is
    ``(prob_true, prob_pred)`` here for unweighted rows. ``uniform`` edges are
    ``linspace(0, 1, n_bins + 1)``; ``quantile`` edges are ``numpy.percentile(y_prob,
    linspace(0, 100, n_bins + 1))`` (linear interpolation between order statistics, so
    an edge may fall between two scores), computed from the cumulative counts to the
    bit. A probability is put in bin ``searchsorted(edges[1:-1], p)``: bin ``k`` holds
    ``edges[k] < p <= edges[k + 1]``, so **a probability exactly on an inner edge goes
    to the bin below it**, ties included. With ``sample_weight`` (which
    ``calibration_curve`` does not take) a bin's numbers are weighted means, and
    quantile edges are weighted inverted-CDF quantiles (``numpy.percentile(y_prob, q,
    weights=sample_weight, method="inverted_cdf")``): the inner edge ``k`` is the
    lowest score whose cumulative weight reaches ``k / n_bins`` of the total, and,
    by the same rule, its ties go below it. Which rule applies follows the table's
    counts: passing ``sample_weight`` (even all ones) selects the weighted one, and so
    does a table merged from weighted and unweighted pieces. **Empty bins are dropped** from the
    per-bin arrays (``bin`` says which were kept) and count in no sum; repeated
    quantile edges leave empty bins.

    With ``W`` the total weight, ``W_k`` bin ``k``'s weight, ``f_k`` = ``prob_pred``,
    ``o_k`` = ``prob_true`` and ``o`` the base rate:

    - ECE (Naeini, Cooper and Hauskrecht 2015) ``= sum_k (W_k / W) |o_k - f_k|``;
      MCE ``= max_k |o_k - f_k|``.
    - Brier ``= (1/W) sum_i w_i (y_i - p_i)^2`` (scikit-learn's ``brier_score_loss``).
      Murphy's (1973) decomposition ``REL - RES + UNC`` is exact only when all
      probabilities in a bin are equal; in general (Stephenson et al. 2008)

      .. math:: \mathrm{Brier} = \mathrm{REL} - \mathrm{RES} + \mathrm{UNC}
                + \mathrm{WBV} - 2\,\mathrm{WBC}

      with ``REL = sum_k (W_k/W) (f_k - o_k)^2``, ``RES = sum_k (W_k/W) (o_k - o)^2``,
      ``UNC = o (1 - o)``, the within-bin variance ``WBV = (1/W) sum_i w_i (p_i -
      f_k(i))^2`` and covariance ``WBC = (1/W) sum_i w_i (p_i - f_k(i)) (y_i -
      o_k(i))``; ``Calibration.within_bin`` is ``WBV - 2 WBC``, and the parts sum to
      the Brier score to rounding.
    - Log loss ``= -(1/W) sum_i w_i [y_i log p_i + (1 - y_i) log(1 - p_i)]`` with
      ``p`` and ``1 - p`` clipped to ``[eps, 1 - eps]``, ``eps`` the machine epsilon
      of the probabilities' dtype (float32 or float64), exactly as scikit-learn's
      ``log_loss`` does; so a confident mistake costs ``-log(eps)`` (36.04 in
      float64), not infinity.
    - Slope ``b`` and intercept ``a`` (Cox 1958): the maximum-likelihood logistic fit
      ``logit P(y = 1) = a + b logit(p)`` over the distinct probabilities with their
      class weights (Newton's method with step halving). ``b = 1, a = 0`` for
      calibrated probabilities, ``b < 1`` for predictions too extreme. A probability
      of 0 or 1 has an infinite logit: it is clipped as in the log loss and enters at
      ``logit = -+36.04`` (float64), where it pulls hard on the slope. With one class,
      one distinct probability, or probabilities that separate the classes (every
      positive at or above every negative), the likelihood has no finite maximum:
      both are NaN, with a warning.
    - Hosmer-Lemeshow ``= sum_k (O_k - E_k)^2 / (E_k (1 - f_k))`` over the non-empty
      bins of this call, ``O_k`` the positive weight and ``E_k = W_k f_k``; a bin
      whose ``f_k`` is 0 or 1 adds 0 when it matches exactly, else infinity. The
      p-value is the chi-squared survival function on ``non-empty bins - 2`` degrees
      of freedom (Hosmer and Lemeshow 1980), NaN with a warning below 1. The test
      as published uses the deciles of risk: ``strategy="quantile", n_bins=10``.

    Examples
    --------
    >>> import indist_fast
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1, 1]
    >>> p = [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0]
    >>> cal = indist_fast.calibration(y, p, n_bins=3)
    >>> cal.prob_true.round(4).tolist(), cal.prob_pred.round(3).tolist()
    ([0.3333, 0.5, 0.75], [0.2, 0.525, 0.85])
    >>> round(cal.ece, 4), round(cal.brier, 4), round(cal.log_loss, 4)
    (0.0944, 0.1736, 0.5051)
    >>> round(cal.slope, 3), round(cal.intercept, 3)
    (0.833, -0.028)
    >>> parts = cal.reliability - cal.resolution + cal.uncertainty + cal.within_bin
    >>> abs(parts - cal.brier) < 1e-12
    True
    """
    n_bins, strategy = check_binning(n_bins, strategy)
    try:
        rows = prepare_frame_or_rows(y_true, y_prob, sample_weight, pos_label, label, score,
                                     weight)
        _check_rows(rows.s)
    except (ValueError, TypeError) as exc:
        raise type(exc)(str(exc).replace("y_score", "y_prob")) from None
    table = ScoreTable.from_rows(rows)
    return calibration_of(table.scores, table.pos, table.neg, table.n_rows, n_bins, strategy,
                          rows.s.dtype)


def _check_rows(s: np.ndarray) -> None:
    """Every row's score in [0, 1], zero-weight rows included (the table leaves those
    out, and a score that is not a probability is a mistake whatever its weight)."""
    if not len(s) or (s.min() >= 0.0 and s.max() <= 1.0):   # NaN fails both
        return
    with np.errstate(invalid="ignore"):
        bad = ~((s >= 0.0) & (s <= 1.0))           # NaN included
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        refuse_probabilities("y_prob", f"row {i} holds {float(s[i])!r} ({int(bad.sum()):,} "
                             "rows lie outside [0, 1])")
