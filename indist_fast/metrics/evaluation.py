"""Public metric functions: validate once, run the active engine, wrap the result.

All functions take ``(y_true, y_score, *, sample_weight=None, pos_label=None)``:

y_true : array-like of shape (n_samples,)
    Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
y_score : array-like of shape (n_samples,)
    Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
sample_weight : array-like of shape (n_samples,), default=None
    Non-negative finite frequency weights: weight 3 acts as three copies of the row.
pos_label : scalar, default=None
    The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
label, score, weight : str, default=None
    Instead of arrays: a table (pandas or polars DataFrame, pyarrow Table) as the first
    argument and its column names, ``roc_auc(df, label="y", score="p")``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable

import numpy as np

from .._core.engine import engine
from .._core.records import SweepResult
from .._core.validation import (PLAIN_ROWS, check_flag, check_level, check_levels, check_real,
                               check_two_classes)
from ..io.frames import columns_by_keyword, prepare_frame_or_rows
from .roc_dominance import roc_polyline
from ..table.roc_readings import check_partial, curve_of, partial_area
from ..results.report import Curves, Report
from ..inference.bootstrap import bootstrap_table, check_resampling
from ..table.precision_recall import PrecisionRecallCurve, precision_recall_of
from ..table.score_table import DEFAULT_LEVELS, ScoreTable, with_main_level

#: Metrics ``evaluate(..., n_boot=N)`` gives intervals for.
BOOTSTRAP_METRICS = ("auc", "average_precision", "threshold", "precision", "lift")

__all__ = ["evaluate", "curves", "roc_auc", "average_precision",
           "indistinguishability_threshold", "precision_at_indistinguishability",
           "precision_recall_curve"]


@columns_by_keyword
def evaluate(y_true: Any, y_score: Any = None, *, sample_weight: Any = None,
             pos_label: Any = None, levels: Iterable[float] = DEFAULT_LEVELS,
             exclude_self: bool = True, n_boot: int | None = None, seed: Any = 0,
             confidence: float = 0.95, label: str | None = None, score: str | None = None,
             weight: str | None = None, progress: bool | None = None) -> Report:
    """Evaluate scores: AUC, average precision, and C(r_b) with its operating point.

    One sort and one sweep; without weights no per-score table is materialised.

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
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points are reported in ``Report.at``; each
        in (0, 1). Level 0.5 (the indistinguishability threshold) is always computed.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    n_boot : int, default=None
        Add stratified bootstrap intervals (``Report.intervals``) from this many
        replicates; see ``indist_fast.bootstrap``.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the bootstrap replicates (used with ``n_boot``): the same call gives
        the same intervals. None draws fresh entropy from the OS.
    confidence : float, default=0.95
        Coverage of the bootstrap intervals.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``evaluate(df, label="y", score="p")``.
    progress : bool or None, default=None
        A progress bar over the bootstrap replicates (with ``n_boot``; tqdm, on
        stderr). None: shown when stderr is a terminal or in Jupyter
        (``INDIST_FAST_PROGRESS=0`` turns that off); True always; False never.

    Returns
    -------
    Report
        Frozen dataclass; ``report.precision`` is C(r_b), ``report.threshold`` r_b.

    Warns
    -----
    LevelNotReachedWarning
        When no operating point reaches a level (its fields are NaN).

    Raises
    ------
    ValueError
        When the total weight exceeds what float64 holds (about 1.8e308): divide
        ``sample_weight`` by a common factor.

    Notes
    -----
    B is computed as ``B_j = 1/2 + G_j / (2 Den_j)`` with ``G_j = 2 Num_j - Den_j =
    sum_{g <= j} (tp_g + fp_g) (above_g - below_g)`` (definitions page, "B(r)"; ``above_g`` and
    ``below_g`` are the positive weight strictly above and below group ``g``). The
    self-pair terms cancel in G, so where B is 1/2 by structure (all scores tied, all
    positive weight in the top group, mirror-image groups) G is exactly 0 and B exactly
    0.5, whereas ``Num / Den`` can round to 0.49999999999999994. A level counts as
    reached where this B is ``>= level``: the same number ``curves(...).b`` shows, on
    both backends and on every path (tables, ``Accumulator``, files, Dask, bootstrap).

    Probabilities (AUC, average precision, precision, tpr, fpr, F1) are clamped to
    [0, 1] after rounding. B is clamped only where rounding carried it at most 1e-12
    past 0 or 1: with fractional weights the self-pair correction of B (definitions page, "B(r)") can put
    it outside [0, 1], and that value is reported as is. Weights are rescaled
    internally by a power of two chosen from both class totals when they are far from
    1, so all weights multiplied by one factor from 5e-324 to 1e308 give the same AUC,
    precision and rates as weights near 1; B with ``exclude_self=True`` is computed in
    the scaled form exactly (it counts weights as copies, so it is not scale
    invariant). Class totals more than about 2**1500 apart are refused; a row lighter
    than about 2**-1500 of the total weight counts as weight 0 (below float64's
    resolution next to the total).

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.evaluate([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> round(r.auc, 4), r.threshold, round(r.precision, 4)
    (0.8889, 0.35, 0.75)
    """
    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
    # Checked before the rows are sorted (a bad setting must not cost a sort), and
    # without n_boot too.
    n_boot, seed, confidence, progress = check_resampling(n_boot, seed, confidence, progress)
    if n_boot is None:
        return _report(y_true, y_score, sample_weight, pos_label, (label, score, weight), lv,
                       exclude_self, warn_main=True)
    rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, label, score,
                                 weight)
    # One sort serves both: the table gives the report and the bootstrap's slots.
    table = ScoreTable.from_rows(rows)
    boot = bootstrap_table(rows, table, metrics=BOOTSTRAP_METRICS, n_boot=n_boot,
                           seed=seed, confidence=confidence, exclude_self=exclude_self,
                           progress=progress)
    report = table._report(lv, exclude_self)
    return dataclasses.replace(report, intervals=boot.intervals)


def _report(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
            columns: tuple[Any, ...], levels: tuple[float, ...], exclude_self: bool,
            warn_main: bool) -> Report:
    """The report of the rows."""
    swept = with_main_level(levels)
    plain = _plain_sweep(y_true, y_score, sample_weight, pos_label, columns, swept,
                         exclude_self)
    if plain is None:
        rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, *columns)
        plain = (engine().summarize(rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value,
                                    swept, exclude_self), rows.n_rows)
    return Report.from_sweep(plain[0], levels, plain[1], exclude_self, warn_main)


@columns_by_keyword
def curves(y_true: Any, y_score: Any = None, *, sample_weight: Any = None,
           pos_label: Any = None, exclude_self: bool = True, label: str | None = None,
           score: str | None = None, weight: str | None = None) -> Curves:
    """Every operating point: thresholds, TP, FP, tpr, fpr, precision, F1, B, B+, B-.

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
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``f(df, label="y", score="p")``.

    Returns
    -------
    Curves
        One entry per distinct score, highest threshold first.

    Examples
    --------
    >>> import indist_fast
    >>> c = indist_fast.curves([0, 1, 1, 0], [0.1, 0.8, 0.8, 0.3])
    >>> c.thresholds.tolist(), c.tpr.tolist(), c.fpr.tolist()
    ([0.8, 0.3, 0.1], [1.0, 1.0, 1.0], [0.0, 0.5, 1.0])
    """
    exclude_self = check_flag(exclude_self, "exclude_self")
    rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, label, score,
                                 weight)
    return ScoreTable.from_rows(rows).curves(exclude_self=exclude_self)


def _summary(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
             level: float, exclude_self: bool, columns: tuple[Any, ...]) -> Report:
    """A report at ``level`` (checked by the caller, which reads the report at it); only
    that level warns when it is not reached."""
    with_level = (level,)
    exclude_self = check_flag(exclude_self, "exclude_self")
    return _report(y_true, y_score, sample_weight, pos_label, columns, with_level,
                   exclude_self, warn_main=False)


def _plain_sweep(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
                 columns: tuple[Any, ...], levels: np.ndarray,
                 exclude_self: bool) -> tuple[SweepResult, int] | None:
    """The sweep of a plain service call (the engine's ``summarize_plain`` checks the
    arrays and rows in C) and its row count, or None when the rows need the long way
    (checks, label coding, both cores)."""
    if (sample_weight is not None or pos_label is not None or columns[0] is not None
            or columns[1] is not None or columns[2] is not None):
        return None
    result = engine().summarize_plain(y_true, y_score, levels, exclude_self, PLAIN_ROWS)
    return None if result is None else (result, len(y_score))


def _auc_and_ap(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
                columns: tuple[Any, ...]) -> tuple[float, float]:
    """AUC and AP from a sweep without levels to report (no Report, no warnings)."""
    levels = with_main_level(())
    plain = _plain_sweep(y_true, y_score, sample_weight, pos_label, columns, levels, True)
    if plain is not None:
        result = plain[0]
    else:
        rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, *columns)
        result = engine().summarize(rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value,
                                    levels, True)
    check_two_classes(result.weight_pos, result.weight_neg)
    return float(result.auc), float(result.average_precision)


def _partial_auc(table: ScoreTable, max_fpr: float, standardized: bool) -> float:
    """The ROC area over fpr in [0, max_fpr] as scikit-learn's ``roc_auc_score`` takes
    it: trapezoids over the exact curve, the segment crossing ``max_fpr`` cut by linear
    interpolation, then McClish's standardisation when asked."""
    check_two_classes(table.weight_pos, table.weight_neg)
    fpr, tpr = roc_polyline(table)
    # fpr[-1] is 1 > max_fpr here, so the crossing segment exists and has width > 0.
    stop = int(np.searchsorted(fpr, max_fpr, side="right"))
    cut = np.interp(max_fpr, fpr[stop - 1:stop + 1], tpr[stop - 1:stop + 1])
    x, y = np.r_[fpr[:stop], max_fpr], np.r_[tpr[:stop], cut]
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1])) / 2.0)
    if not standardized:
        return area
    # McClish: 1/2 for the chance diagonal's area (max_fpr^2 / 2), 1 for a perfect one.
    min_area, max_area = 0.5 * max_fpr**2, max_fpr
    return 0.5 * (1.0 + (area - min_area) / (max_area - min_area))


@columns_by_keyword
def roc_auc(y_true: Any, y_score: Any = None, *, sample_weight: Any = None,
            pos_label: Any = None, max_fpr: float | None = None, standardized: bool = True,
            label: str | None = None, score: str | None = None,
            weight: str | None = None, partial: Any = None, focus: str = "specificity",
            correct: bool = False) -> float:
    """Area under the ROC curve, ties counted one half (equals scikit-learn's); with
    ``max_fpr``, the partial area up to that false positive rate.

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
    max_fpr : float, default=None
        In (0, 1]: the partial area over fpr in ``[0, max_fpr]`` (the ROC segment that
        crosses ``max_fpr`` cut by linear interpolation), as scikit-learn's
        ``roc_auc_score(max_fpr=)``. None or 1 gives the whole AUC.
    standardized : bool, default=True
        With ``max_fpr``: McClish's standardised partial area ``(1 + (A_p - m) /
        (M - m)) / 2`` with ``m = max_fpr^2 / 2`` (the chance diagonal) and ``M =
        max_fpr`` (a perfect ranking), so chance gives 1/2 and perfect 1, exactly as
        scikit-learn; False gives the raw area ``A_p`` (at most ``max_fpr``).
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``f(df, label="y", score="p")``.
    partial : pair of float, default=None
        R pROC's partial AUC (``auc(partial.auc=)``): the area over ``focus`` in
        ``[low, high]`` (either order), any range in [0, 1], not only one anchored at
        a corner: ``partial=(0.8, 1)`` is the sensitivity integrated over
        specificities 0.8 to 1 (at most 0.2). Not with ``max_fpr`` (scikit-learn's
        spelling of ``partial=(1 - max_fpr, 1)`` with its own standardisation).
    focus : {"specificity", "sensitivity"}, default="specificity"
        The axis of ``partial``: ``"sensitivity"`` integrates the specificity over
        sensitivities in the range (pROC's ``partial.auc.focus``).
    correct : bool, default=False
        With ``partial``: McClish's correction as pROC's ``partial.auc.correct``,
        ``(1 + (A - m) / (M - m)) / 2`` with ``m`` the chance diagonal's area over the
        range and ``M = high - low``; NaN for a curve below the diagonal there (pROC:
        NA, with a warning).

    Returns
    -------
    float
        The probability that a random positive outscores a random negative; with
        ``max_fpr`` or ``partial``, the (corrected) partial area.

    Examples
    --------
    >>> import indist_fast
    >>> indist_fast.roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> indist_fast.roc_auc(y, s, max_fpr=0.5), indist_fast.roc_auc(
    ...     y, s, max_fpr=0.5, standardized=False)
    (0.8518518518518519, 0.3888888888888889)
    >>> round(indist_fast.roc_auc(y, s, partial=(0.5, 1)), 4), round(indist_fast.roc_auc(
    ...     y, s, partial=(0.6, 1), focus="sensitivity", correct=True), 4)
    (0.3889, 0.8264)
    """
    if (max_fpr is None and partial is None and sample_weight is None and pos_label is None and label is None
            and score is None and weight is None and standardized is True):
        # A plain service call: the kernel checks the rows as it splits them, and
        # anything it declines (None) takes the long way below, which raises or
        # handles it.
        auc = engine().auc_plain(y_true, y_score, PLAIN_ROWS)
        if auc is not None:
            return auc
    standardized = check_flag(standardized, "standardized")
    if max_fpr is not None:
        # Checked before the rows are sorted: a bad setting must not cost a sort.
        max_fpr = check_real(max_fpr, "max_fpr", low=0.0, high=1.0, low_open=True)
    correct = check_flag(correct, "correct")
    if partial is not None:
        if max_fpr is not None:
            raise ValueError("give partial or max_fpr, not both: max_fpr=f is "
                             "partial=(1 - f, 1) with scikit-learn's standardisation.")
        low, high, focus = check_partial(partial, focus)
        rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, label,
                                     score, weight)
        table = ScoreTable.from_rows(rows)
        check_two_classes(table.weight_pos, table.weight_neg)
        return partial_area(*curve_of(table), low, high, focus, correct)
    if max_fpr is None or max_fpr == 1.0:
        return _auc_and_ap(y_true, y_score, sample_weight, pos_label,
                           (label, score, weight))[0]
    rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, label, score,
                                 weight)
    return _partial_auc(ScoreTable.from_rows(rows), max_fpr, standardized)


@columns_by_keyword
def average_precision(y_true: Any, y_score: Any = None, *, sample_weight: Any = None,
                      pos_label: Any = None, label: str | None = None,
                      score: str | None = None, weight: str | None = None) -> float:
    """Step-sum average precision (equals scikit-learn's ``average_precision_score``).

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
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``f(df, label="y", score="p")``.

    Returns
    -------
    float
        Precision averaged over the recall steps.

    Examples
    --------
    >>> import indist_fast
    >>> round(indist_fast.average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    return _auc_and_ap(y_true, y_score, sample_weight, pos_label, (label, score, weight))[1]


@columns_by_keyword
def indistinguishability_threshold(y_true: Any, y_score: Any = None, *,
                                   sample_weight: Any = None, pos_label: Any = None,
                                   level: float = 0.5, exclude_self: bool = True,
                                   label: str | None = None, score: str | None = None,
                                   weight: str | None = None) -> float:
    """r at ``level``: the highest threshold whose ``B >= level`` (NaN, with a warning,
    when none reaches it).

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
    level : float, default=0.5
        Level of ``B`` in (0, 1); 0.5 is the indistinguishability threshold.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``f(df, label="y", score="p")``.

    Returns
    -------
    float
        The threshold r_b, or NaN when no threshold reaches ``level``.

    Warns
    -----
    LevelNotReachedWarning
        When no threshold reaches ``level``.

    Examples
    --------
    >>> import indist_fast
    >>> indist_fast.indistinguishability_threshold([0, 0, 1, 1, 0, 1],
    ...                                            [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    0.35
    """
    level = check_level(level)
    report = _summary(y_true, y_score, sample_weight, pos_label, level, exclude_self,
                      (label, score, weight))
    return report.at[level].threshold


@columns_by_keyword
def precision_at_indistinguishability(y_true: Any, y_score: Any = None, *,
                                      sample_weight: Any = None, pos_label: Any = None,
                                      level: float = 0.5, exclude_self: bool = True,
                                      label: str | None = None, score: str | None = None,
                                      weight: str | None = None) -> float:
    """C(r_b): precision at the indistinguishability threshold of ``level``.

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
    level : float, default=0.5
        Level of ``B`` in (0, 1); 0.5 is the indistinguishability threshold.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``f(df, label="y", score="p")``.

    Returns
    -------
    float
        The precision C(r_b), or NaN when no threshold reaches ``level``.

    Warns
    -----
    LevelNotReachedWarning
        When no threshold reaches ``level``.

    Examples
    --------
    >>> import indist_fast
    >>> indist_fast.precision_at_indistinguishability([0, 0, 1, 1, 0, 1],
    ...                                               [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    0.75
    """
    level = check_level(level)
    report = _summary(y_true, y_score, sample_weight, pos_label, level, exclude_self,
                      (label, score, weight))
    return report.at[level].precision


@columns_by_keyword
def precision_recall_curve(y_true: Any, y_score: Any = None, *, sample_weight: Any = None,
                           pos_label: Any = None, label: str | None = None,
                           score: str | None = None,
                           weight: str | None = None) -> PrecisionRecallCurve:
    """Precision and recall at every operating point, and the areas under the curve.

    One sort (the ``ScoreTable``) and one sweep; the points are scikit-learn's
    (``sklearn.metrics.precision_recall_curve``, weights and ties included), listed
    highest threshold first.

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
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table): ``f(df, label="y", score="p")``.

    Returns
    -------
    PrecisionRecallCurve
        ``precision``, ``recall``, ``thresholds`` per point and the areas
        ``average_precision`` (step sum), ``area_trapezoid``, ``area_interpolated``
        (precision envelope) and ``auprg``.

    Raises
    ------
    ValueError
        When there are no positives (recall is undefined).

    Warns
    -----
    IndistFastWarning
        When there are no negatives: the curve and its areas are defined (precision 1
        everywhere, each area 1, as scikit-learn gives), AUPRG is NaN (its gains divide
        by ``1 - prevalence``).

    Notes
    -----
    AUPRG follows Flach and Kull: precision gain ``(prec - pi1) / ((1 - pi1) prec)`` and
    recall gain ``(rec - pi1) / ((1 - pi1) rec)``, with ``pi1`` the positive share, so
    a random ranking sits at gain 0 and a perfect point at 1. Recall below the
    prevalence gives a negative recall gain: that part of the curve is left out, and
    the curve starts at recall gain 0, on the segment crossing it, with TP and FP
    interpolated linearly along the segment. Precision gain there can be negative,
    and negative precision gains reduce the area, so AUPRG lies in [-inf, 1] and a
    random ranking gives about 0. It is the trapezoid area in gain space, as the
    authors compute it; it is linear in the expected F-score over operating points.

    Examples
    --------
    >>> import indist_fast
    >>> pr = indist_fast.precision_recall_curve([0, 0, 1, 1, 0, 1],
    ...                                         [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> pr.average_precision == indist_fast.average_precision(
    ...     [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    True
    >>> round(pr.area_trapezoid, 4), round(pr.area_interpolated, 4), round(pr.auprg, 4)
    (0.9028, 0.9167, 0.7917)
    """
    rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, label, score,
                                 weight)
    table = ScoreTable.from_rows(rows)
    return precision_recall_of(table.scores, table.pos, table.neg)
