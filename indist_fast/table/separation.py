"""The Kolmogorov-Smirnov statistic of a score table, the largest gap between the true
and false positive rates over the operating points (definitions page, "KS"), and its
two-sided test (Kolmogorov 1933, Smirnov 1948) with ``scipy.stats.ks_2samp``'s
p-values."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.rates import operating_rates, weight_scale
from .._core.validation import check_two_classes
from ..results.ks_result import KSResult
from .ks_distribution import KS_METHODS, ks_pvalue

__all__ = ["check_ks_method", "ks_of"]


def check_ks_method(method: Any) -> str | None:
    """``method`` of ``ks``: one of ``KS_METHODS``, or a ValueError naming it.

    Parameters
    ----------
    method : Any
        The argument as passed.

    Returns
    -------
    str or None
        The method.

    Examples
    --------
    >>> from indist_fast.table.separation import check_ks_method
    >>> check_ks_method("exact")
    'exact'
    """
    if method is None or (isinstance(method, str) and method in KS_METHODS):
        return method
    raise ValueError(f"method must be 'auto', 'exact', 'asymp' or None (the statistic "
                     f"alone), got {method!r}.")


def ks_of(table: Any, method: str | None) -> KSResult:
    """The KS statistic and test of the rows of ``table``, with ``method`` already
    checked (``ScoreTable.ks``, ``indist_fast.ks``).

    Parameters
    ----------
    table : ScoreTable
        The rows' table (both classes with positive weight).
    method : str or None
        Checked by ``check_ks_method``.

    Returns
    -------
    KSResult
        The statistic, where it is reached, and the p-value.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.table.separation import ks_of
    >>> ks_of(ScoreTable.from_arrays([0, 1, 1, 0], [0.2, 0.7, 0.5, 0.1]), None).statistic
    1.0
    """
    with np.errstate(over="ignore"):        # an infinite total is refused just below
        check_two_classes(table.weight_pos, table.weight_neg)
    pos, neg = table.pos, table.neg
    if method is not None:
        _check_frequency_weights(table)
    # tpr - fpr = (TP W_N - FP W_P) / (W_P W_N): the numerators are compared, so equal
    # gaps tie exactly and the first (highest threshold) wins
    wp_int, wn_int = (int(pos.sum()), int(neg.sum())) if pos.dtype.kind == "i" else (0, 0)
    exact = 0 < wp_int * wn_int < 2**62
    if exact:
        # counts: the numerators in int64, exactly, as one prefix sum of per-score terms
        wp, wn = float(wp_int), float(wn_int)
        gap = pos * wn_int
        gap -= neg * wp_int
        np.cumsum(gap, out=gap)
    else:
        # exact for integer counts below 2**26 per class; the power-of-two scale keeps
        # the products in range
        tp, fp = np.cumsum(pos, dtype=np.float64), np.cumsum(neg, dtype=np.float64)
        wp, wn = float(tp[-1]), float(fp[-1])   # the in-order totals, as ``curves`` uses
        scale = weight_scale(wp, wn)
        gap = (tp * scale) * (wn * scale)
        gap -= (fp * scale) * (wp * scale)
    # the first largest |gap|: the first maximum and the first minimum, the larger in
    # size (the earlier on a tie), without an array of |gap|
    high, low = int(np.argmax(gap)), int(np.argmin(gap))
    k = low if -gap[low] > gap[high] or (-gap[low] == gap[high] and low < high) else high
    at_k = ((float(pos[:k + 1].sum()), float(neg[:k + 1].sum())) if exact
            else (float(tp[k]), float(fp[k])))
    rates = operating_rates(*at_k, wp, wn)
    statistic = float(min(abs(rates.tpr - rates.fpr), 1.0))
    sign = 0 if gap[k] == 0 else (1 if gap[k] > 0 else -1)
    pvalue, used = (None, None) if method is None else ks_pvalue(
        statistic, int(wp), int(wn), method)
    return KSResult(statistic=statistic, threshold=float(table.scores[k]), tpr=rates.tpr,
                    fpr=rates.fpr, sign=sign, pvalue=pvalue, method=used, n_pos=wp,
                    n_neg=wn)


def _check_frequency_weights(table: Any) -> None:
    """The test's sample sizes are the class weights, so weights must count rows."""
    if table.pos.dtype.kind == "f":
        for arr in (table.pos, table.neg):
            if np.any(np.modf(arr)[0]):
                raise ValueError("sample_weight holds weights that are not whole numbers: "
                                 "the KS p-value needs frequency weights (a weight counts "
                                 "copies of a row, the class weights are the sample "
                                 "sizes). Pass method=None for the statistic alone.")
