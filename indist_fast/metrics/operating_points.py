"""Operating points: confusion counts at thresholds, thresholds chosen by a figure of
merit, ROC dominance and intervals at an operating point.

Everything reads the ``ScoreTable`` (one sort): operating point ``j`` labels positive
every row with ``s >= t_j`` (see the definitions page of the documentation), and a
threshold ``t`` selects the operating point of the distinct scores ``>= t`` by one
``np.searchsorted`` on the descending scores, never a pass over the rows per threshold.
The post's four basic counts are ``tp = isSasS``, ``fp = isBasS``, ``tn = isBasB`` and
``fn = isSasB``.

This module holds the intervals at an operating point (``operating_point_intervals``,
``wilson_interval``) and is where every name of its ``__all__`` is imported from. The
rest lives beside it: the points and ``confusion`` (``confusion_counts``),
``best_threshold`` and its criteria (``threshold_criteria``), and ``dominates``
(``roc_dominance``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Callable

import numpy as np

from .._core.rates import operating_rates
from .._core.validation import check_flag, check_level, check_real
from ..errors import warn_fractional_weights
from ..inference.bootstrap import BootstrapResult, bootstrap_table, check_resampling
from ..results.report import count_text, record_dict
from ..table.score_table import ScoreTable
from .confusion_counts import (all_points, confusion, four_digits,
                               point_index, rows_and_table)
from .roc_dominance import dominates
from .threshold_criteria import CRITERIA, best_threshold

# The records the functions return (Confusion, BestThreshold, Dominance) are documented
# where users import them: indist_fast itself.
__all__ = ["confusion", "best_threshold", "CRITERIA", "dominates",
           "operating_point_intervals", "OperatingPointIntervals", "RateInterval",
           "wilson_interval"]


# ------------------------------------------------------- intervals at a threshold

@dataclass(frozen=True)
class RateInterval:
    """A rate at an operating point with its Wilson score and bootstrap intervals.

    Attributes
    ----------
    metric : str
        ``"tpr"``, ``"fpr"`` or ``"precision"``.
    estimate : float
        The rate: ``successes / trials``.
    successes, trials : float
        The counts behind it (weighted sums with weights): tp of W_P, fp of W_N, tp of
        tp + fp.
    low, high : float
        Wilson score interval (NaN when ``trials`` is 0).
    bootstrap_low, bootstrap_high : float
        Bootstrap percentile interval (NaN without ``n_boot``).

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.operating_point_intervals([0, 1, 1, 0, 1], [0.1, 0.9, 0.7, 0.8, 0.2], 0.5)
    >>> iv = r["tpr"]
    >>> iv.estimate, iv.successes, iv.trials, round(iv.low, 4), round(iv.high, 4)
    (0.6666666666666666, 2.0, 3.0, 0.2077, 0.9385)
    """

    metric: str
    estimate: float
    successes: float
    trials: float
    low: float
    high: float
    bootstrap_low: float = math.nan
    bootstrap_high: float = math.nan


@dataclass(frozen=True)
class OperatingPointIntervals:
    """tpr, fpr and precision at one threshold with their intervals (pROC's
    ``ci.coords``). Index by metric: ``result["precision"].low``.

    Attributes
    ----------
    threshold : float
        Predict positive where ``score >= threshold``.
    confidence : float
        Nominal coverage of the intervals.
    tpr, fpr, precision : RateInterval
        Each rate with its Wilson and (with ``n_boot``) bootstrap interval.
    bootstrap : BootstrapResult or None
        The bootstrap replicates behind the bootstrap intervals (None without
        ``n_boot``).

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.operating_point_intervals([0, 1, 1, 0], [0.1, 0.9, 0.7, 0.8], 0.5)
    >>> r["fpr"].estimate, r.bootstrap is None
    (0.5, True)
    """

    threshold: float
    confidence: float
    tpr: RateInterval
    fpr: RateInterval
    precision: RateInterval
    bootstrap: BootstrapResult | None = field(default=None, repr=False)

    def __getitem__(self, metric: str) -> RateInterval:
        if metric not in ("tpr", "fpr", "precision"):
            raise KeyError(f"no rate {metric!r}; there are tpr, fpr and precision.")
        interval: RateInterval = getattr(self, metric)
        return interval

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (NaN as None), without the bootstrap replicates.

        Returns
        -------
        dict
            ``threshold``, ``confidence`` and one dict per rate.

        Examples
        --------
        >>> import indist_fast
        >>> r = indist_fast.operating_point_intervals([0, 1, 1, 0], [0.1, 0.9, 0.7, 0.8], 0.5)
        >>> r.to_dict()["precision"]["estimate"]
        0.6666666666666666
        """
        return record_dict(self, skip=("bootstrap",),
                           **{m: record_dict(self[m]) for m in ("tpr", "fpr", "precision")})

    def __str__(self) -> str:
        boot = self.bootstrap is not None
        lines = [f"at threshold {four_digits(self.threshold)}: {self.confidence:.0%} intervals, "
                 f"Wilson{' and bootstrap' if boot else ''}"]
        for m in ("tpr", "fpr", "precision"):
            r = self[m]
            line = (f"  {m:<10} {r.estimate:.4f}  [{r.low:.4f}, {r.high:.4f}]  "
                    f"{count_text(r.successes)}/{count_text(r.trials)}")
            if boot:
                line += f"  bootstrap [{r.bootstrap_low:.4f}, {r.bootstrap_high:.4f}]"
            lines.append(line)
        return "\n".join(lines)


def wilson_interval(successes: Any, trials: Any, confidence: float = 0.95
                    ) -> tuple[Any, Any]:
    """Wilson score interval of a binomial proportion (NaN where ``trials`` is 0).

    Parameters
    ----------
    successes, trials : float or ndarray
        Counts, ``0 <= successes <= trials``.
    confidence : float, default=0.95
        Nominal coverage, in (0, 1).

    Returns
    -------
    low, high : float or ndarray
        ``(p + z^2/2n -+ z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2/n)``, ``z`` the
        normal quantile of ``(1 + confidence) / 2``.

    Examples
    --------
    >>> from indist_fast.metrics.operating_points import wilson_interval
    >>> [round(v, 4) for v in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    confidence = check_level(confidence, "confidence")
    z = NormalDist().inv_cdf((1.0 + confidence) / 2.0)
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.clip(k / n, 0.0, 1.0)
        centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n)
        half = z / (1.0 + z * z / n) * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
        low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def _rate_at(threshold: float, metric: str) -> Callable[[ScoreTable], float]:
    """The rate at ``threshold`` on any table (a bootstrap replicate's)."""
    def rate(table: ScoreTable) -> float:
        k = int(point_index(table, np.array([threshold]))[0])
        tp = float(table.pos[:k].sum())
        fp = float(table.neg[:k].sum())
        rates = operating_rates(tp, fp, table.weight_pos, table.weight_neg)
        return float(getattr(rates, metric))
    rate.__name__ = metric
    return rate


def operating_point_intervals(y_true: Any, y_score: Any, threshold: float, *,
                              sample_weight: Any = None, pos_label: Any = None,
                              confidence: float = 0.95, n_boot: int | None = None,
                              seed: Any = 0, stratified: bool = True,
                              progress: bool | None = None) -> OperatingPointIntervals:
    """tpr, fpr and precision at ``score >= threshold`` with Wilson score intervals, and
    bootstrap percentile intervals when ``n_boot`` is given (pROC's ``ci.coords``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    threshold : float
        Predict positive where ``score >= threshold`` (±inf allowed, NaN not).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
        The Wilson intervals count weights as rows (weights count copies), so they suit integer
        count weights only; with other weights use the bootstrap intervals.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    confidence : float, default=0.95
        Nominal coverage of every interval, in (0, 1).
    n_boot : int, default=None
        Add bootstrap percentile intervals from this many replicates (at least 2),
        drawn by ``indist_fast.bootstrap`` with the threshold held fixed.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the bootstrap replicates: the same call gives the same intervals. None
        draws fresh entropy from the OS.
    stratified : bool, default=True
        Bootstrap within each class, keeping the class weights.
    progress : bool or None, default=None
        A progress bar over the bootstrap replicates (tqdm, on stderr). None: shown
        when stderr is a terminal or in Jupyter; True always; False never.

    Returns
    -------
    OperatingPointIntervals
        ``result["tpr"]``, ``result["fpr"]``, ``result["precision"]``: estimate and
        intervals.

    Notes
    -----
    Wilson intervals treat tpr as ``tp`` successes of ``W_P`` trials, fpr as ``fp`` of
    ``W_N`` and precision as ``tp`` of the ``tp + fp`` rows labelled positive (so
    conditional on that number). Precision's interval is NaN when nothing is labelled.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.3
    >>> s = rng.normal(size=500) + y
    >>> r = indist_fast.operating_point_intervals(y, s, 0.5, n_boot=200, seed=1)
    >>> iv = r["precision"]
    >>> iv.low < iv.estimate < iv.high, iv.bootstrap_low < iv.estimate < iv.bootstrap_high
    (True, True)
    """
    threshold = check_real(threshold, "threshold", finite=False)
    stratified = check_flag(stratified, "stratified")
    n_boot, seed, confidence, progress = check_resampling(n_boot, seed, confidence, progress)
    rows, table = rows_and_table(y_true, y_score, sample_weight, pos_label)
    warn_fractional_weights(rows.w, "the Wilson interval")
    p = all_points(table, True)
    k = int(point_index(table, np.array([threshold]))[0])
    tp, fp = float(p.tp[k]), float(p.fp[k])
    counts = {"tpr": (tp, p.weight_pos), "fpr": (fp, p.weight_neg),
              "precision": (tp, tp + fp)}
    boot = None
    if n_boot is not None:
        boot = bootstrap_table(rows, table, metrics={m: _rate_at(threshold, m)
                                                     for m in counts},
                               n_boot=n_boot, stratified=stratified,
                               confidence=confidence, seed=seed, progress=progress)
    out = {}
    for metric, (hits, trials) in counts.items():
        low, high = wilson_interval(hits, trials, confidence)
        estimate = float(getattr(operating_rates(tp, fp, p.weight_pos, p.weight_neg),
                                 metric))
        extra = (boot[metric].low, boot[metric].high) if boot is not None else ()
        out[metric] = RateInterval(metric, estimate, hits, trials, low, high, *extra)
    return OperatingPointIntervals(threshold, confidence, out["tpr"], out["fpr"],
                                   out["precision"], boot)
