"""DeLong's variance of the AUC and test of two AUCs, and the Hanley-McNeil error.

DeLong's structural components are read from the score table: every positive of a
group has the same ``V10`` (share of negatives it outranks, ties one half) and every
negative the same ``V01``, so after the one sort the variance costs O(distinct
scores), never an n_pos x n_neg matrix. Weights count as copies (SPEC §1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from .._core.engine import engine
from .._core.validation import Rows, check_level, check_real, prepare_rows
from .._core.validation import check_two_classes
from ..results import record_dict
from ..table import ScoreTable

__all__ = ["delong", "delong_test", "hanley_mcneil_se", "DeLongResult", "DeLongTest",
           "structural_components"]


@dataclass(frozen=True)
class DeLongResult:
    """AUC with DeLong's variance and a normal confidence interval.

    Attributes
    ----------
    auc : float
        Area under the ROC curve (ties one half).
    variance, std_error : float
        DeLong's variance of the AUC and its square root.
    low, high : float
        ``auc -+ z std_error`` for the requested confidence, clipped to [0, 1].
    confidence : float
        Nominal coverage of ``[low, high]``.

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> r = indist_fast.delong(y, s)
    >>> round(r.auc, 4), round(r.std_error, 4), r.high
    (0.7778, 0.2485, 1.0)
    """

    auc: float
    variance: float
    std_error: float
    low: float
    high: float
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            Field name to Python float; NaN becomes None.

        Examples
        --------
        >>> import indist_fast
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
        >>> sorted(indist_fast.delong(y, s).to_dict())
        ['auc', 'confidence', 'high', 'low', 'std_error', 'variance']
        """
        return record_dict(self)


@dataclass(frozen=True)
class DeLongTest:
    """DeLong's test of two correlated AUCs on the same rows.

    Attributes
    ----------
    auc_a, auc_b : float
        The two AUCs.
    difference : float
        ``auc_a - auc_b``.
    std_error : float
        Standard error of the difference (the two AUCs' covariance included).
    z : float
        ``difference / std_error``.
    p_value : float
        Two-sided p-value of ``z`` under the standard normal.

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> t = indist_fast.delong_test(y, s, [0.2, 0.7, 0.9, 0.1, 0.3, 0.5])
    >>> round(t.difference, 4), round(t.p_value, 4)
    (-0.1111, 0.4795)
    """

    auc_a: float
    auc_b: float
    difference: float
    std_error: float
    z: float
    p_value: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            Field name to Python float; NaN becomes None.

        Examples
        --------
        >>> import indist_fast
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
        >>> t = indist_fast.delong_test(y, s, [0.2, 0.7, 0.9, 0.1, 0.3, 0.5])
        >>> sorted(t.to_dict())
        ['auc_a', 'auc_b', 'difference', 'p_value', 'std_error', 'z']
        """
        return record_dict(self)


def structural_components(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's ``V10`` (of the positives) and ``V01`` (of the negatives) per group.

    ``V10_g`` is the share of negative weight a positive at ``scores[g]`` outranks,
    ties one half; ``V01_g`` the share of positive weight that outranks a negative
    there. The AUC is the positive-weighted mean of ``V10`` (and the negative-weighted
    mean of ``V01``).

    Parameters
    ----------
    table : ScoreTable
        The distinct scores with their positive and negative weight.

    Returns
    -------
    v10 : ndarray of float64
        Per group: the share of negative weight a positive there outranks.
    v01 : ndarray of float64
        Per group: the share of positive weight that outranks a negative there.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.inference.delong import structural_components
    >>> table = ScoreTable.from_arrays([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
    >>> v10, v01 = structural_components(table)
    >>> v10.tolist(), v01.tolist()
    ([1.0, 1.0, 0.75, 0.25], [0.25, 0.75, 1.0, 1.0])
    """
    pos = table.pos.astype(np.float64)
    neg = table.neg.astype(np.float64)
    wp, wn = pos.sum(), neg.sum()
    above_pos = np.cumsum(pos) - pos              # positive weight strictly above
    below_neg = wn - np.cumsum(neg)               # negative weight strictly below
    return (below_neg + 0.5 * neg) / wn, (above_pos + 0.5 * pos) / wp


def _check_copies(table: ScoreTable) -> None:
    """DeLong's variance divides by ``W_P - 1`` and ``W_N - 1``."""
    wp, wn = table.weight_pos, table.weight_neg
    if wp <= 1 or wn <= 1:
        weighted = table.pos.dtype.kind == "f"
        cause = "y_true and sample_weight" if weighted else "y_true"
        raise ValueError(f"{cause}: DeLong's variance needs more than one positive and more "
                         "than one negative (weights count as copies); got "
                         f"{'weights' if weighted else 'counts'} {wp:g} and {wn:g}.")


def delong_table(table: ScoreTable, confidence: float = 0.95) -> DeLongResult:
    """``delong`` of the rows summarised by ``table``."""
    confidence = check_level(confidence, "confidence")
    wp, wn = table.weight_pos, table.weight_neg
    check_two_classes(wp, wn)
    _check_copies(table)
    auc, s10, s01 = engine().delong_sums(table.pos, table.neg)
    variance = s10 / (wp - 1) / wp + s01 / (wn - 1) / wn
    se = math.sqrt(variance)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    return DeLongResult(auc, variance, se, max(0.0, auc - z * se), min(1.0, auc + z * se),
                        confidence)


def delong(y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None,
           confidence: float = 0.95) -> DeLongResult:
    """AUC and its DeLong variance in O(n log n) (one sort, no pair matrix).

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
    confidence : float, default=0.95
        Coverage of the normal interval ``[low, high]``.

    Returns
    -------
    DeLongResult

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.delong([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(r.auc, 4), round(r.variance, 4)
    (0.8889, 0.0247)
    """
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    return delong_table(ScoreTable.from_rows(rows), confidence)


def _row_components(rows: Rows, table: ScoreTable) -> tuple[np.ndarray, ...]:
    """Per kept row (weight > 0): V10 of the positives, V01 of the negatives, weights."""
    v10, v01 = structural_components(table)
    keep = slice(None) if rows.w is None else rows.w > 0
    s = rows.s[keep].astype(np.float64)
    is_pos = rows.y[keep] == rows.pos_value
    group = np.searchsorted(-table.scores, -s)        # scores are strictly descending
    w = np.ones(len(s)) if rows.w is None else rows.w[keep]
    return v10[group[is_pos]], v01[group[~is_pos]], w[is_pos], w[~is_pos]


def _scored_rows(y_true: Any, scores: Any, name: str, sample_weight: Any,
                 pos_label: Any) -> tuple[Rows, ScoreTable]:
    """Rows and table of one model's scores, through the one row-validation path.

    That path calls the scores ``y_score``; here two arguments hold scores, so its
    errors are re-raised with the one at fault named instead."""
    try:
        rows = prepare_rows(y_true, scores, sample_weight, pos_label)
        return rows, ScoreTable.from_rows(rows)
    except (TypeError, ValueError) as exc:
        message = str(exc)
        if type(exc) not in (TypeError, ValueError) or "y_score" not in message:
            raise
        raise type(exc)(message.replace("y_score", name)) from None


def delong_test(y_true: Any, score_a: Any, score_b: Any, *, sample_weight: Any = None,
                pos_label: Any = None) -> DeLongTest:
    """DeLong's test that two models' AUCs on the same rows are equal.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    score_a, score_b : array-like of shape (n_samples,)
        The two models' scores for the same rows (real, NaN not allowed).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Returns
    -------
    DeLongTest
        The two AUCs, their difference, its standard error, ``z`` and the p-value.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(3000) < 0.5
    >>> t = indist_fast.delong_test(y, y + rng.normal(size=3000), rng.normal(size=3000))
    >>> t.auc_a > t.auc_b and t.p_value < 1e-6
    True
    """
    rows_a, table_a = _scored_rows(y_true, score_a, "score_a", sample_weight, pos_label)
    rows_b, table_b = _scored_rows(y_true, score_b, "score_b", sample_weight, pos_label)
    wp, wn = table_a.weight_pos, table_a.weight_neg
    check_two_classes(wp, wn)
    _check_copies(table_a)
    v10_a, v01_a, w_pos, w_neg = _row_components(rows_a, table_a)
    v10_b, v01_b, _, _ = _row_components(rows_b, table_b)
    auc_a = float(np.dot(w_pos, v10_a) / wp)
    auc_b = float(np.dot(w_pos, v10_b) / wp)
    # Variance of the difference: the components of a - b, positives and negatives.
    d10 = (v10_a - v10_b) - (auc_a - auc_b)
    d01 = (v01_a - v01_b) - (auc_a - auc_b)
    variance = (float(np.dot(w_pos, d10 ** 2)) / (wp - 1) / wp
                + float(np.dot(w_neg, d01 ** 2)) / (wn - 1) / wn)
    diff = auc_a - auc_b
    se = math.sqrt(max(variance, 0.0))
    if se > 0:
        z = diff / se
    else:                                   # identical rankings: no evidence either way
        z = 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return DeLongTest(auc_a, auc_b, diff, se, z, math.erfc(abs(z) / math.sqrt(2.0)))


def hanley_mcneil_se(auc: float, n_pos: float, n_neg: float) -> float:
    """Hanley and McNeil's standard error of an AUC (SPEC §8).

    ``Q1 = A/(2-A)``, ``Q2 = 2A^2/(1+A)``,
    ``SE^2 = [A(1-A) + (n_P-1)(Q1-A^2) + (n_N-1)(Q2-A^2)] / (n_P n_N)``.

    Parameters
    ----------
    auc : float
        The AUC ``A``, in [0, 1].
    n_pos, n_neg : float
        Number (or effective weighted number) of positives and negatives, each >= 1.

    Returns
    -------
    float
        The standard error ``SE``.

    Examples
    --------
    >>> from indist_fast import hanley_mcneil_se
    >>> round(hanley_mcneil_se(0.8, 100, 100), 5)
    0.03137
    """
    auc = check_real(auc, "auc", low=0.0, high=1.0, kind="be a number")
    # Counts may be effective (weighted) sizes, so any finite real >= 1 will do.
    n_pos, n_neg = (check_real(value, name, low=1.0, kind="be a number",
                               must="be a finite count of at least 1")
                    for name, value in (("n_pos", n_pos), ("n_neg", n_neg)))
    q1 = auc / (2.0 - auc)
    q2 = 2.0 * auc * auc / (1.0 + auc)
    var = (auc * (1 - auc) + (n_pos - 1) * (q1 - auc * auc)
           + (n_neg - 1) * (q2 - auc * auc)) / (n_pos * n_neg)
    return math.sqrt(max(var, 0.0))
