"""Bootstrap intervals of the ROC curve at given points (pROC's ``ci.se``, ``ci.sp``,
``ci.thresholds``), every point read from the same replicates after one sort.

A replicate is the draw counts of the sort-once bootstrap (``Resampler``: replicate
``k`` draws exactly the rows ``bootstrap(..., seed=seed)`` draws for its replicate
``k``); its curve is the cumulative drawn weight per distinct score, so reading the
sensitivity at a specificity costs a prefix sum and a binary search per replicate,
never a sort. pROC resorts every replicate.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.progress import progress_bar
from .._core.validation import as_1d, check_flag, check_two_classes, prepare_rows
from ..results.roc_bands_record import Band, RocBands
from ..table.roc_readings import curve_of, sensitivity_at, specificity_at
from ..table.score_table import ScoreTable
from .bootstrap import (Resampler, Seed, _entropy, check_bootstrap_settings, check_progress,
                        percentile_bounds, replicate_curves)

__all__ = ["ci_bands", "DEFAULT_POINTS"]

#: pROC's default points for ``ci.se`` and ``ci.sp``: 0, 0.1, ..., 1.
DEFAULT_POINTS = tuple(i / 10 for i in range(11))


def _rates(values: Any, name: str) -> np.ndarray | None:
    """Specificities or sensitivities: a 1-D array of values in [0, 1] (None: none)."""
    if values is None:
        return None
    arr = as_1d(np.asarray(values, dtype=object) if not np.isscalar(values) else [values],
                name)
    try:
        out = np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must hold real numbers in [0, 1], got {values!r}.") from None
    if arr.dtype == bool or any(isinstance(v, (bool, np.bool_)) for v in arr.tolist()):
        raise TypeError(f"{name} must hold real numbers in [0, 1], not booleans.")
    bad = ~((out >= 0.0) & (out <= 1.0))
    if bad.any():
        raise ValueError(f"{name} must hold values in [0, 1] (rates, not percents), got "
                         f"{out[bad][0]!r}.")
    if len(out) == 0:
        raise ValueError(f"{name} must hold at least one value.")
    return out


def _thresholds(values: Any) -> np.ndarray | None:
    if values is None:
        return None
    arr = as_1d(np.asarray(values, dtype=object) if not np.isscalar(values) else [values],
                "thresholds")
    if any(isinstance(v, (bool, np.bool_, str, bytes)) for v in arr.tolist()):
        raise TypeError(f"thresholds must hold real numbers, got {values!r}.")
    try:
        out = np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"thresholds must hold real numbers, got {values!r}.") from None
    if np.isnan(out).any():
        raise ValueError("thresholds must not hold NaN.")
    if len(out) == 0:
        raise ValueError("thresholds must hold at least one value.")
    return out


def _rates_at_thresholds(table: ScoreTable, spec: np.ndarray, sens: np.ndarray,
                         thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sensitivity and specificity predicting positive where ``score >= t``, from a
    curve's cumulative rates: the point after the distinct scores ``>= t``."""
    k = np.searchsorted(-table.scores, -thresholds, side="right")
    return sens[k], spec[k]


def ci_bands(y_true: Any, y_score: Any, *, specificities: Any = None,
             sensitivities: Any = None, thresholds: Any = None, n_boot: int = 2000,
             confidence: float = 0.95, seed: Seed = 0, stratified: bool = True,
             sample_weight: Any = None, pos_label: Any = None,
             progress: bool | None = None) -> RocBands:
    """Bootstrap intervals of the ROC curve: sensitivity at given specificities,
    specificity at given sensitivities, and both at given thresholds (pROC's ``ci.se``,
    ``ci.sp``, ``ci.thresholds``), all read from the same replicates after one sort.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    specificities : array-like of float in [0, 1], default=None
        Where to read the sensitivity (``ci.se``). When no points at all are given,
        ``0, 0.1, ..., 1`` (pROC's default).
    sensitivities : array-like of float in [0, 1], default=None
        Where to read the specificity (``ci.sp``).
    thresholds : array-like of float, default=None
        Where to read both, predicting positive where ``score >= threshold``
        (``ci.thresholds`` with numeric thresholds).
    n_boot : int, default=2000
        Replicates (at least 2), pROC's ``boot.n``.
    confidence : float, default=0.95
        Coverage of the percentile intervals, pROC's ``conf.level``.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the replicates: the same call gives the same intervals (replicate ``k``
        draws the rows ``bootstrap(..., seed=seed)`` draws for its replicate ``k``).
        None draws fresh entropy from the OS (reported as ``seed_entropy``).
    stratified : bool, default=True
        Resample positives and negatives separately, keeping their counts (pROC's
        ``boot.stratified``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    progress : bool or None, default=None
        A progress bar over the replicates (tqdm, on stderr). None: shown when stderr
        is a terminal or in Jupyter; True always; False never.

    Returns
    -------
    RocBands
        ``.sensitivity``, ``.specificity``, ``.threshold_sensitivity``,
        ``.threshold_specificity``: a ``Band`` each (None where no points were asked).

    Notes
    -----
    A curve read between its operating points is read on the polyline through them,
    as pROC's ``coords(input=...)``: where several operating points share the given
    specificity, the highest sensitivity among them (and where several share the given
    sensitivity, the highest specificity). Intervals are the quantiles of the
    replicates (NumPy's linear quantile, R's type 7) with the median beside them, as
    pROC prints. Replicates where a reading is undefined (a replicate without one
    class, possible only with ``stratified=False``) are left out of that point's
    quantiles; pROC leaves out the whole replicate.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.3
    >>> s = rng.normal(size=1000) + y
    >>> b = indist_fast.ci_bands(y, s, specificities=[0.9], sensitivities=[0.9],
    ...                          n_boot=500)
    >>> se = b.sensitivity
    >>> bool(se.low[0] < se.estimate[0] < se.high[0]), round(float(se.estimate[0]), 3)
    (True, 0.401)
    """
    sp_at = _rates(specificities, "specificities")
    se_at = _rates(sensitivities, "sensitivities")
    thr = _thresholds(thresholds)
    if sp_at is None and se_at is None and thr is None:
        sp_at = np.array(DEFAULT_POINTS)
    n_boot, confidence = check_bootstrap_settings(n_boot, confidence)
    stratified = check_flag(stratified, "stratified")
    progress = check_progress(progress)
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    table = ScoreTable.from_rows(rows)
    check_two_classes(table.weight_pos, table.weight_neg)
    resampler = Resampler.from_rows(rows, table, stratified=stratified, seed=seed)
    entropy = _entropy(resampler.seed)

    def read(spec: np.ndarray, sens: np.ndarray) -> list[np.ndarray]:
        out = []
        if sp_at is not None:
            out.append(sensitivity_at(spec, sens, sp_at))
        if se_at is not None:
            out.append(specificity_at(spec, sens, se_at))
        if thr is not None:
            out += list(_rates_at_thresholds(table, spec, sens, thr))
        return out

    estimates = read(*curve_of(table))
    widths = [len(e) for e in estimates]
    reps = np.empty((n_boot, sum(widths)))
    with progress_bar(progress, n_boot, "ROC bands", "replicate") as bar, \
            np.errstate(divide="ignore", invalid="ignore"):
        for k, (spec, sens) in enumerate(replicate_curves(resampler, n_boot, bar)):
            reps[k] = np.concatenate(read(spec, sens))
    # (a point undefined in every replicate gets NaN bounds; confidence 0: the median)
    low, high = percentile_bounds(reps.T, confidence)
    quantiles = np.array([low, percentile_bounds(reps.T, 0.0)[0], high])
    reps.setflags(write=False)
    kinds = ([("sensitivity", "specificity", sp_at)] if sp_at is not None else []) + (
        [("specificity", "sensitivity", se_at)] if se_at is not None else []) + (
        [("sensitivity", "threshold", thr), ("specificity", "threshold", thr)]
        if thr is not None else [])
    bands, start = [], 0
    for (measure, given, at), estimate, width in zip(kinds, estimates, widths):
        cols = slice(start, start + width)
        at = np.array(at)
        for arr in (at, estimate):
            arr.setflags(write=False)
        bands.append(Band(measure, given, at, estimate, quantiles[0, cols].copy(),
                          quantiles[1, cols].copy(), quantiles[2, cols].copy(),
                          reps[:, cols]))
        start += width
    by_kind = {(b.measure, b.given): b for b in bands}
    return RocBands(by_kind.get(("sensitivity", "specificity")),
                    by_kind.get(("specificity", "sensitivity")),
                    by_kind.get(("sensitivity", "threshold")),
                    by_kind.get(("specificity", "threshold")),
                    n_boot, confidence, stratified, entropy)
