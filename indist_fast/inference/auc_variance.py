"""The variance of an AUC and the covariance of two AUCs of the same rows, as pROC's
``var`` and ``cov``: by DeLong (exact, from the structural components), by the
bootstrap (the sort-once resampler, seeded; paired draws for the covariance) or by
Obuchowski's binormal formulas (the binormal fit of each curve, pROC's
``smooth(method="binormal")``, and the correlation of the scores within each class).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.direction import check_direction, orient_rows
from .._core.progress import progress_bar
from .._core.validation import Rows, check_flag, check_two_classes
from ..errors import warn_fractional_weights
from ..io.frames import prepare_frame_or_rows
from ..table.binormal import binormal_fit
from ..table.score_table import ScoreTable
from .bootstrap import (MAX_REPLICATES, Resampler, check_progress, derived_metrics)
from .delong import (Slots, _scored_rows, delong_table, model_components, rank_models)
from .obuchowski import cov_params, var_params
from .._core.validation import check_count, check_seed

__all__ = ["var_auc", "cov_auc", "VARIANCE_METHODS"]

#: The methods of ``var_auc`` and ``cov_auc``.
VARIANCE_METHODS = ("delong", "bootstrap", "obuchowski")


def _method(method: Any) -> str:
    if not isinstance(method, str) or method not in VARIANCE_METHODS:
        raise ValueError(f"method must be one of {', '.join(VARIANCE_METHODS)}, got "
                         f"{method!r}.")
    return method


def _class_weights(table: ScoreTable) -> tuple[float, float]:
    check_two_classes(table.weight_pos, table.weight_neg)
    return table.weight_pos, table.weight_neg


def _auc_replicates(rows: list[Rows], n_boot: int, stratified: bool, seed: Any,
                    progress: bool | None) -> list[np.ndarray]:
    """Each model's AUC on the same ``n_boot`` draws of the rows (shared slots, the
    same seed: replicate k draws the same rows for every model)."""
    slots = Slots.from_rows(rows[0])
    ranked = rank_models([(r, slots) for r in rows])
    out = []
    with progress_bar(progress, n_boot * len(rows), "bootstrap", "replicate") as bar:
        for r in ranked:
            check_two_classes(r.table.weight_pos, r.table.weight_neg)
            k, w = r.slots.n_pos, r.slots.weight
            resampler = Resampler(r.table, r.group[:k], None if w is None else w[:k],
                                  r.group[k:], None if w is None else w[k:],
                                  stratified=stratified, seed=seed)
            out.append(derived_metrics(resampler.sweeps(n_boot, np.array([0.5]),
                                                        bar=bar))["auc"])
    return out


def _check_boot(n_boot: Any, stratified: Any, seed: Any, progress: Any
                ) -> tuple[int, bool, np.random.SeedSequence, bool | None]:
    return (check_count(n_boot, "n_boot", minimum=2, maximum=MAX_REPLICATES),
            check_flag(stratified, "stratified"), check_seed(seed), check_progress(progress))


def _weighted_corr(a: np.ndarray, b: np.ndarray, w: np.ndarray | None) -> float:
    """Pearson's correlation of ``a`` and ``b`` (weights as copies)."""
    w = np.ones(len(a)) if w is None else w
    total = w.sum()
    da, db = a - np.dot(w, a) / total, b - np.dot(w, b) / total
    return float(np.dot(w, da * db) / math.sqrt(np.dot(w, da * da) * np.dot(w, db * db)))


def var_auc(y_true: Any, y_score: Any = None, *, method: str = "delong",
            n_boot: int = 2000, stratified: bool = True, seed: Any = 0,
            sample_weight: Any = None, pos_label: Any = None, direction: str = "higher",
            progress: bool | None = None, label: str | None = None,
            score: str | None = None, weight: str | None = None) -> float:
    """The variance of the AUC, as pROC's ``var(roc(...), method=...)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), or a DataFrame
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``;
        or a table whose columns ``label=``, ``score=`` (and ``weight=``) name.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive (see ``direction``).
    method : {"delong", "bootstrap", "obuchowski"}, default="delong"
        DeLong's variance (``indist_fast.delong``); the variance of ``n_boot``
        bootstrap AUCs (ddof 1); or Obuchowski's variance of the binormal fit's AUC,
        ``var_params(A, B, kappa) / n_cases`` with pROC's ``A`` and ``B`` (the
        intercept and slope of ``qnorm(sp)`` on ``qnorm(se)``) and ``kappa =
        n_controls / n_cases``.
    n_boot : int, default=2000
        Bootstrap replicates (pROC's ``boot.n``), at least 2.
    stratified : bool, default=True
        Bootstrap positives and negatives separately (pROC's ``boot.stratified``).
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the bootstrap: the same call gives the same variance; None draws fresh
        entropy.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    direction : {"higher", "lower", "auto"}, default="higher"
        Positive where the score is higher (pROC's ``"<"``) or lower (``">"``);
        ``"auto"`` picks by the class medians as pROC, warning when it picks lower.
    progress : bool or None, default=None
        A progress bar over the bootstrap replicates.
    label, score, weight : str, optional
        Column names when ``y_true`` is a table.

    Returns
    -------
    float
        The variance of the AUC.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.5, 0.3]
    >>> round(indist_fast.var_auc(y, s), 6)
    0.041667
    >>> round(indist_fast.var_auc(y, s, method="obuchowski"), 6)
    0.038113
    >>> 0 < indist_fast.var_auc(y, s, method="bootstrap", n_boot=200) < 0.1
    True
    """
    method = _method(method)
    direction = check_direction(direction)
    if method == "bootstrap":
        n_boot, stratified, seed, progress = _check_boot(n_boot, stratified, seed, progress)
    rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, label, score,
                                 weight)
    rows, _ = orient_rows(rows, direction)
    if method == "bootstrap":
        reps = _auc_replicates([rows], n_boot, stratified, seed, progress)[0]
        return float(np.var(reps[~np.isnan(reps)], ddof=1))
    table = ScoreTable.from_rows(rows)
    if method == "delong":
        result = delong_table(table)
        warn_fractional_weights(rows.w, "DeLong's variance")
        return result.variance
    wp, wn = _class_weights(table)
    fit = binormal_fit(table)
    return var_params(fit.intercept, fit.slope, wn / wp) / wp


def cov_auc(y_true: Any, score_a: Any, score_b: Any, *, method: str = "delong",
            n_boot: int = 2000, stratified: bool = True, seed: Any = 0,
            sample_weight: Any = None, pos_label: Any = None, direction: str = "higher",
            progress: bool | None = None) -> float:
    """The covariance of two models' AUCs on the same rows, as pROC's
    ``cov(roc1, roc2, method=...)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    score_a, score_b : array-like of shape (n_samples,)
        The two models' scores of the same rows (real, NaN not allowed).
    method : {"delong", "bootstrap", "obuchowski"}, default="delong"
        DeLong's covariance of the structural components; the covariance of the two
        AUCs over ``n_boot`` paired bootstrap replicates (ddof 1; each replicate draws
        the same rows for both); or Obuchowski's covariance of the two binormal fits,
        with the Pearson correlation of the two scores among positives and among
        negatives, divided by ``n_cases``.
    n_boot : int, default=2000
        Bootstrap replicates, at least 2.
    stratified : bool, default=True
        Bootstrap positives and negatives separately.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the bootstrap: the same call gives the same covariance.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    direction : {"higher", "lower", "auto"}, default="higher"
        As in ``var_auc``, for each model on its own (pROC gives each curve its own
        direction).
    progress : bool or None, default=None
        A progress bar over the bootstrap replicates.

    Returns
    -------
    float
        The covariance of the two AUCs (``cov_auc(y, s, s) == var_auc(y, s)``).

    Examples
    --------
    >>> import indist_fast
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> a = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.5, 0.3]
    >>> b = [0.2, 0.3, 0.6, 0.7, 0.1, 0.5, 0.4, 0.15]
    >>> round(indist_fast.cov_auc(y, a, b), 6)
    0.020833
    >>> indist_fast.cov_auc(y, a, a) == indist_fast.var_auc(y, a)
    True
    """
    method = _method(method)
    direction = check_direction(direction)
    if method == "bootstrap":
        n_boot, stratified, seed, progress = _check_boot(n_boot, stratified, seed, progress)
    rows_a = _scored_rows(y_true, score_a, "score_a", sample_weight, pos_label)
    rows_b = _scored_rows(y_true, score_b, "score_b", sample_weight, pos_label)
    rows_a, _ = orient_rows(rows_a, direction)
    rows_b, _ = orient_rows(rows_b, direction)
    if method == "bootstrap":
        reps_a, reps_b = _auc_replicates([rows_a, rows_b], n_boot, stratified, seed,
                                         progress)
        ok = ~(np.isnan(reps_a) | np.isnan(reps_b))
        return float(np.cov(reps_a[ok], reps_b[ok], ddof=1)[0, 1])
    if method == "delong":
        comp_a, comp_b = model_components([rows_a, rows_b])
        warn_fractional_weights(rows_a.w, "DeLong's covariance")
        w = np.ones(len(rows_a.y)) if rows_a.w is None else rows_a.w
        is_pos = rows_a.y == rows_a.pos_value
        total = 0.0
        for members, size in ((is_pos, comp_a.weight_pos), (~is_pos, comp_a.weight_neg)):
            keep = members & (w > 0)
            wk, ca, cb = w[keep], comp_a.component[keep], comp_b.component[keep]
            da = ca - np.dot(wk, ca) / size
            db = cb - np.dot(wk, cb) / size
            total += float(np.dot(wk, da * db)) / (size - 1) / size
        return total
    table_a, table_b = ScoreTable.from_rows(rows_a), ScoreTable.from_rows(rows_b)
    wp, wn = _class_weights(table_a)
    fit_a, fit_b = binormal_fit(table_a, "score_a"), binormal_fit(table_b, "score_b")
    is_pos = rows_a.y == rows_a.pos_value
    weights = rows_a.w
    sa, sb = rows_a.s.astype(np.float64), rows_b.s.astype(np.float64)
    if weights is not None:
        kept = weights > 0
        is_pos, sa, sb, weights = is_pos[kept], sa[kept], sb[kept], weights[kept]
    r_cases = _weighted_corr(sa[is_pos], sb[is_pos], None if weights is None else weights[is_pos])
    r_controls = _weighted_corr(sa[~is_pos], sb[~is_pos], None if weights is None else weights[~is_pos])
    # a model read with lower scores positive has negated scores here: the correlation
    # is of the scores as ranked, as pROC's (it correlates the raw scores of curves of
    # one direction)
    return cov_params(fit_a.intercept, fit_a.slope, fit_b.intercept, fit_b.slope,
                      r_controls, r_cases, wn / wp) / wp
