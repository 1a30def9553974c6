"""Drift between periods: each period's AUC and ``C(r_b)`` against a reference period's,
as two independent samples.

The AUC's variance in each period is DeLong's, read from the period's score table (one
sort of the rows by (period, score) gives every period's table); two disjoint periods
hold different rows, so the variance of the difference is the sum of the two. ``C(r_b)``
has no closed-form variance: its standard error is read from an unstratified bootstrap
interval of each period (the interval's width over ``2 z``, which is the standard
deviation of the replicates when they are normal). Unstratified, because the class
counts vary between periods and ``C(r_b)`` moves with them.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any, Mapping

import numpy as np

from .._core.engine import engine
from .._core.validation import Rows
from ..results.drift import Drift
from ..results.report_table import BootstrapSettings
from ..table.segmented import SegmentedTables

__all__ = ["segment_delong_variance", "two_sample_z", "drift_record", "AUC_TEST",
           "PRECISION_TEST"]

AUC_TEST = "DeLong, two independent samples (z test, two-sided)"
PRECISION_TEST = ("bootstrap standard errors (unstratified; percentile interval width "
                  "/ 2z), two independent samples (z test, two-sided)")


def segment_delong_variance(rows: Rows, codes: np.ndarray, n_segments: int) -> np.ndarray:
    """DeLong's variance of the AUC of every segment (NaN where it is undefined: one
    class, or a class of weight 1 or less).

    Parameters
    ----------
    rows : Rows
        Validated rows.
    codes : ndarray of int64
        Segment of each row, in ``[0, n_segments)``.
    n_segments : int
        Number of segments.

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.inference.drift import segment_delong_variance
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> v = segment_delong_variance(prepare_rows(y, s), np.zeros(6, np.int64), 1)
    >>> bool(v[0] == indist_fast.delong(y, s).variance)
    True
    """
    tables = SegmentedTables.from_rows(rows, codes)
    bounds = np.searchsorted(tables.codes, np.arange(n_segments + 1))
    out = np.full(n_segments, np.nan)
    eng = engine()
    for g in range(n_segments):
        a, b = bounds[g], bounds[g + 1]
        pos, neg = tables.pos[a:b], tables.neg[a:b]
        wp, wn = float(pos.sum()), float(neg.sum())
        if wp > 1 and wn > 1:
            _, s10, s01 = eng.delong_sums(pos, neg)
            out[g] = s10 / (wp - 1) / wp + s01 / (wn - 1) / wn
    return out


def two_sample_z(value: np.ndarray, variance: np.ndarray, ref: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each entry against entry ``ref``: the difference, its z statistic (variances
    added: independent samples) and the two-sided p-value; NaN at ``ref`` and where a
    variance is undefined. A difference of 0 with variance 0 is z = 0; another
    difference with variance 0 is infinite z, p-value 0."""
    diff = value - value[ref]
    se = np.sqrt(variance + variance[ref])
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.sign(diff) * np.inf))
    z[~np.isfinite(diff) | np.isnan(se)] = np.nan
    z[ref] = np.nan
    p = np.array([math.erfc(abs(v) / math.sqrt(2.0)) if not math.isnan(v) else math.nan
                  for v in z.tolist()])
    return diff, z, p


def drift_record(period: np.ndarray, ref: int, alpha: float, auc: np.ndarray,
                 auc_variance: np.ndarray, precision: np.ndarray,
                 spread: Mapping[str, np.ndarray] | None,
                 boot: BootstrapSettings | None) -> Drift:
    """The ``Drift`` of every period against period ``ref``; ``spread``: each period's
    unstratified bootstrap intervals (``segment_intervals``), None without ``n_boot``
    (``C(r_b)`` is then not tested)."""
    a_diff, a_z, a_p = two_sample_z(auc, auc_variance, ref)
    tests: dict[str, Any] = {"auc": AUC_TEST}
    if spread is None or boot is None:
        nan = np.full(len(period), np.nan)
        p_diff, p_z, p_p = nan, nan.copy(), nan.copy()
        tests["precision"] = "not tested: needs bootstrap replicates (n_boot)"
    else:
        z_half = NormalDist().inv_cdf(0.5 + boot.confidence / 2)
        se = (spread["precision_high"] - spread["precision_low"]) / (2 * z_half)
        p_diff, p_z, p_p = two_sample_z(precision, se * se, ref)
        tests["precision"] = PRECISION_TEST
    with np.errstate(invalid="ignore"):
        return Drift(period[ref], alpha, tests, period, a_diff, a_z, a_p, a_p < alpha,
                     p_diff, p_z, p_p, p_p < alpha)
