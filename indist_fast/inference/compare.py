"""Compare models: the difference of their metrics with an interval and a p-value.

Paired models (one set of rows, several scores) are ranked once each; DeLong's test
reads their per-row structural components, and the paired bootstrap draws every
replicate's rows once for all models (the same draw counts per row), so each model's
replicates are sweeps of its own table and the differences are taken replicate by
replicate. Unpaired models (different rows) are summarised apart and their
variances add.

By default only the AUC is compared, by DeLong: no replicates, one sort per model.
The other metrics have no closed-form variance here; naming them in ``metrics``
bootstraps them (``n_boot`` replicates, seeded: ``seed=0`` by default, so the same call
gives the same intervals and p-values).

Replicates (``method="bootstrap"``, or the metrics other than AUC): rows of weight
> 0 are the *slots*, positives first then negatives, each in row order. Replicate
``k`` draws them exactly as ``Resampler(..., seed=child).counts(k)`` does (stratified:
``n_pos`` draws among the positive slots, then ``n_neg`` among the negative ones),
with ``child`` the seed itself for paired models and, for unpaired model ``j`` (in
the order given), ``SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (j,))``.
"""

from __future__ import annotations

import itertools
import math
from statistics import NormalDist
from typing import Any, Mapping, Sequence

import numpy as np

from .._core.engine import engine
from .._core.progress import progress_bar, wants_progress
from .._core.records import DeLongComponents
from .._core.validation import Rows, check_count, check_flag, check_level, check_seed
from .._core.validation import check_real, check_two_classes, prepare_rows
from ..errors import warn_fractional_weights
from ..results.report import ReadOnlyMapping
from ..table.score_table import ScoreTable
from .bootstrap import (MAX_REPLICATES, METRICS, check_progress, derived_metrics,
                        _entropy, sweep_metrics)
from .comparison_records import Comparison, Comparisons, Difference
from .curve_tests import (CURVE_METHODS, curve_replicates, pauc_reader, point_reader,
                          ranked_resampler, venkatraman_test, z_test)
from .delong import (RankedRows, Slots, _scored_rows, delong_table,
                     model_components, paired_difference, rank_models)
from ..table.roc_readings import check_partial

__all__ = ["compare", "METHODS", "ALL_METHODS", "ALTERNATIVES", "CORRECTIONS"]

METHODS = ("delong", "bootstrap")
#: Every ``method`` of ``compare``: the metric comparisons and the curve tests.
ALL_METHODS = METHODS + CURVE_METHODS
#: Replicates (permutations) Venkatraman's test draws when ``n_perm`` is not given.
DEFAULT_N_PERM = 2000
ALTERNATIVES = ("two-sided", "greater", "less")
CORRECTIONS = (None, "holm")
DEFAULT_METRICS = ("auc",)
#: Replicates drawn when a metric is bootstrapped and ``n_boot`` is not given.
DEFAULT_N_BOOT = 2000
#: Rows times models from which DeLong gets a progress bar over the models (paired: the
#: components one model at a time instead of two on two threads; the same numbers):
#: about 2 s on a 2.5 GHz core pair.
_DELONG_PROGRESS_ROWS = 20_000_000
#: Metrics whose values lie in [0, 1]: their differences in [-1, 1] bound one-sided
#: intervals; the others (a threshold, a lift) are unbounded.
_UNIT_METRICS = frozenset({"auc", "average_precision", "precision", "tpr", "fpr", "f1", "b"})


# --- arguments ---------------------------------------------------------------------------

def _choice(value: Any, name: str, choices: Sequence[Any]) -> Any:
    """One of a few allowed values (compared by equality, strings only)."""
    if (value is None or isinstance(value, str)) and value in choices:
        return value
    raise ValueError(f"{name} must be one of {', '.join(repr(c) for c in choices)}; "
                     f"got {value!r}.")


def _metric_names(metrics: Any) -> tuple[str, ...]:
    """The ``metrics`` argument as built-in metric names, each once, in order."""
    if isinstance(metrics, str):
        metrics = (metrics,)
    try:
        names = list(metrics)
    except TypeError:
        raise TypeError(f"metrics must be a metric name or a sequence of them, got "
                        f"{metrics!r}.") from None
    for m in names:
        if not isinstance(m, str):
            raise TypeError(f"metrics must hold metric names (str), got {m!r}.")
        if m == "pauc":            # (read from each replicate's curve, not its sweep)
            continue
        if m not in METRICS or m == "b":
            if m == "b":          # B at r_b is the level itself: nothing to compare
                raise ValueError("metrics: 'b' is B at r_b, 1/2 for every model by "
                                 "definition; compare 'threshold' (r_b) or 'precision' "
                                 "(C(r_b)) instead.")
            raise ValueError(f"metrics: unknown metric {m!r}; compare knows "
                             f"{', '.join(x for x in METRICS if x != 'b')}, pauc.")
    if not names:
        raise ValueError("metrics: ask for at least one metric.")
    return tuple(dict.fromkeys(names))


def _data_set(value: Any, name: str, key: str, pos_label: Any) -> tuple[Rows, Slots]:
    """An unpaired model's rows from ``(y_true, y_score)`` or ``(y_true, y_score,
    sample_weight)``; errors name the data set and the argument that held it."""
    if not isinstance(value, (tuple, list)) or len(value) not in (2, 3):
        raise TypeError(f"{name} must be a data set (y_true, y_score) or (y_true, "
                        f"y_score, sample_weight) when paired=False and score_b is not "
                        f"given; got {type(value).__name__}"
                        + (f" of length {len(value)}." if isinstance(value, (tuple, list))
                           else "."))
    try:
        rows = prepare_rows(value[0], value[1], value[2] if len(value) == 3 else None,
                            pos_label)
        return rows, Slots.from_rows(rows)
    except (TypeError, ValueError) as exc:
        if type(exc) not in (TypeError, ValueError):
            raise
        # "y_true: y_score contains NaN" would blame y_true for data set a's scores
        raise type(exc)(f"data set {key!r} (passed as {name}): {exc}") from None


def _check_pair_names(names: Any, several: bool) -> tuple[str, str]:
    """``names`` of two models passed as two arguments (a mapping's keys name its own)."""
    if names is None:
        return "a", "b"
    if several:
        raise ValueError("names applies to two models passed as two arguments; a mapping "
                         "of models is named by its keys.")
    if isinstance(names, str) or not isinstance(names, Sequence) or len(names) != 2:
        raise TypeError(f"names must be a pair of model names (str, str), got {names!r}.")
    a, b = names
    if not (isinstance(a, str) and isinstance(b, str)):
        raise TypeError(f"names must be a pair of str, got {names!r}.")
    if a == b:
        raise ValueError(f"names must name two different models, got {names!r}.")
    return a, b


def _models(y_true: Any, score_a: Any, score_b: Any, sample_weight: Any, pos_label: Any,
            paired: bool, pair_names: tuple[str, str] = ("a", "b")) -> list[tuple[str, Rows, Slots | None]]:
    """The models to compare, named, with their validated rows, and for models on
    different rows their slots (models on the same rows share slots made on demand,
    ``_model_slots``: DeLong alone needs none)."""
    if isinstance(score_a, Mapping):
        if score_b is not None:
            raise TypeError("score_b must be None when score_a maps model names to scores.")
        named = [(key, f"score_a[{key!r}]", value) for key, value in score_a.items()]
    elif score_b is not None:
        named = [(pair_names[0], "score_a", score_a), (pair_names[1], "score_b", score_b)]
    else:
        if paired:
            raise TypeError("score_b is missing: pass two models' scores (score_a, "
                            "score_b), a mapping of model name to scores as score_a, or, "
                            "with paired=False, data sets (y_true, y_score[, "
                            "sample_weight]) as y_true and score_a (or a mapping of them "
                            "as y_true).")
        if sample_weight is not None:
            raise ValueError("sample_weight must be None with data sets: give each set's "
                             "weights as its third item.")
        if isinstance(y_true, Mapping):
            if score_a is not None:
                raise TypeError("score_a must be None when y_true maps model names to "
                                "data sets.")
            sets = [(key, f"y_true[{key!r}]", value) for key, value in y_true.items()]
        else:
            sets = [(pair_names[0], "y_true", y_true), (pair_names[1], "score_a", score_a)]
        models: list[tuple[str, Rows, Slots | None]] = [
            (key, *_data_set(value, arg, str(key), pos_label)) for key, arg, value in sets]
        _check_names(models, "y_true")
        return models
    models = [(key, _scored_rows(y_true, value, arg, sample_weight, pos_label), None)
              for key, arg, value in named]
    _check_names(models, "score_a")
    return models


def _checked_models(y_true: Any, score_a: Any, score_b: Any, sample_weight: Any,
                    pos_label: Any, paired: bool, names: Any, correction: str | None
                    ) -> tuple[list[tuple[str, Rows, Slots | None]], bool]:
    """The models to compare and whether there are several (a mapping of them), with
    ``correction`` refused for two."""
    several = isinstance(score_a, Mapping) or (
        not paired and score_b is None and isinstance(y_true, Mapping))
    models = _models(y_true, score_a, score_b, sample_weight, pos_label, paired,
                     _check_pair_names(names, several))
    if correction is not None and not several:
        raise ValueError("correction applies to several models (a mapping of them); "
                         "two models make one comparison per metric.")
    return models, several


def _check_names(models: Sequence[tuple[Any, Rows, Slots | None]], arg: str) -> None:
    """Model names are str, and there are two models at least (``arg`` held them)."""
    for key, _, _ in models:
        if not isinstance(key, str):
            raise TypeError(f"{arg}: model names (the mapping's keys) must be str, got "
                            f"{key!r} ({type(key).__name__}).")
    if len(models) < 2:
        raise ValueError(f"{arg}: compare needs at least two models, got {len(models)}.")


# --- statistics --------------------------------------------------------------------------

def _normal_p(z: float, alternative: str) -> float:
    """p-value of a standard normal statistic ``z`` (A minus B)."""
    if alternative == "greater":
        return 0.5 * math.erfc(z / math.sqrt(2.0))
    if alternative == "less":
        return 0.5 * math.erfc(-z / math.sqrt(2.0))
    return math.erfc(abs(z) / math.sqrt(2.0))


def _bounds(metric: str) -> tuple[float, float]:
    return (-1.0, 1.0) if metric in _UNIT_METRICS else (-math.inf, math.inf)


def _delong_difference(metric: str, est_a: float, est_b: float, variance: float,
                       alternative: str, confidence: float,
                       df: float | None = None) -> Difference:
    """Normal interval and test of an AUC difference with DeLong's variance (Student's
    t with ``df`` degrees of freedom when given, as pROC's unpaired test)."""
    if df is not None:
        return _welch_difference(metric, est_a, est_b, variance, alternative, confidence,
                                 df)
    diff = est_a - est_b
    se = math.sqrt(variance)
    if se > 0:
        z = diff / se
    else:                       # identical rankings: no evidence either way
        z = 0.0 if diff == 0 else math.copysign(math.inf, diff)
    lo_bound, hi_bound = _bounds(metric)
    if alternative == "two-sided":
        q = NormalDist().inv_cdf(0.5 + confidence / 2)
        low, high = diff - q * se, diff + q * se
    else:
        q = NormalDist().inv_cdf(confidence)
        low, high = ((diff - q * se, hi_bound) if alternative == "greater"
                     else (lo_bound, diff + q * se))
    p = _normal_p(z, alternative)
    # a p-value that underflowed to 0 is below the smallest double, not 0
    return Difference(metric, diff, se, max(lo_bound, low), min(hi_bound, high), p, est_a,
                      est_b, "delong", alternative, confidence, p, np.empty(0), 0, p == 0.0,
                      z)


def _welch_difference(metric: str, est_a: float, est_b: float, variance: float,
                      alternative: str, confidence: float, df: float) -> Difference:
    """pROC's unpaired DeLong test: ``t = difference / std_error`` referred to Student's
    t with Welch-Satterthwaite's ``df``, and the t interval."""
    from scipy import stats          # (optional dependency: only this convention needs it)
    diff = est_a - est_b
    se = math.sqrt(variance)
    t = diff / se if se > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    dist = stats.t(df)
    if alternative == "two-sided":
        p = float(2 * dist.sf(abs(t)))
        q = float(dist.ppf(0.5 + confidence / 2))
        low, high = diff - q * se, diff + q * se
    else:
        p = float(dist.sf(t) if alternative == "greater" else dist.cdf(t))
        q = float(dist.ppf(confidence))
        low, high = ((diff - q * se, 1.0) if alternative == "greater"
                     else (-1.0, diff + q * se))
    return Difference(metric, diff, se, max(-1.0, low), min(1.0, high), p, est_a, est_b,
                      "delong", alternative, confidence, p, np.empty(0), 0, p == 0.0, t,
                      float(df))


def welch_df(variance_a: float, variance_b: float, n_a: float, n_b: float) -> float:
    """Welch-Satterthwaite's degrees of freedom of two DeLong variances, as pROC's
    ``delong.unpaired.test``: ``(V_a + V_b)^2 / (V_a^2 / (n_a - 1) + V_b^2 / (n_b -
    1))`` with ``n`` each data set's rows (weight)."""
    return (variance_a + variance_b) ** 2 / (variance_a ** 2 / (n_a - 1)
                                             + variance_b ** 2 / (n_b - 1))


def _bootstrap_difference(metric: str, est_a: float, est_b: float, reps: np.ndarray,
                          alternative: str, confidence: float) -> Difference:
    """Percentile interval of the replicate differences, and the p-value that inverts
    it: the share of replicates on the far side of 0, ``(1 + count) / (1 + B)``."""
    reps = np.array(reps, dtype=np.float64)
    reps.setflags(write=False)
    ok = reps[~np.isnan(reps)]
    lo_bound, hi_bound = _bounds(metric)
    far = 1                                  # (no replicate: p is NaN, not a bound)
    if len(ok) == 0:
        low = high = p = se = math.nan
    else:
        se = float(np.std(ok, ddof=1)) if len(ok) > 1 else math.nan
        at_or_below, at_or_above = int(np.count_nonzero(ok <= 0)), int(np.count_nonzero(ok >= 0))
        p_greater = (1.0 + at_or_below) / (1.0 + len(ok))
        p_less = (1.0 + at_or_above) / (1.0 + len(ok))
        if alternative == "two-sided":
            tail = (1.0 - confidence) / 2.0
            low, high = (float(v) for v in np.quantile(ok, [tail, 1.0 - tail]))
            p = min(1.0, 2.0 * min(p_greater, p_less))
            far = min(at_or_below, at_or_above)
        elif alternative == "greater":
            low, high, p = float(np.quantile(ok, 1.0 - confidence)), hi_bound, p_greater
            far = at_or_below
        else:
            low, high, p = lo_bound, float(np.quantile(ok, confidence)), p_less
            far = at_or_above
    # no replicate on the far side of 0: the p-value is the floor B replicates can show
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = float(np.float64(est_a - est_b) / np.float64(se))
    return Difference(metric, est_a - est_b, se, low, high, p, est_a, est_b, "bootstrap",
                      alternative, confidence, p, reps, int(len(reps) - len(ok)), far == 0,
                      statistic)


def _holm(p: np.ndarray, bound: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down adjusted p-values (NaN left out of the count and kept NaN), and
    which of them are upper bounds: those whose running maximum came from a bound."""
    out = np.full(len(p), math.nan)
    out_bound = np.zeros(len(p), dtype=bool)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    order = ok[np.argsort(p[ok], kind="stable")]
    running, running_bound = 0.0, False
    for i, j in enumerate(order):
        step = min(1.0, (m - i) * p[j])
        if step >= running:
            # a step capped at 1 is 1 whatever the bound: an exact value
            running, running_bound = step, bool(bound[j]) and step < 1.0
        out[j], out_bound[j] = running, running_bound
    return out, out_bound


# --- the comparison ----------------------------------------------------------------------

def _replicates(ranked: list[RankedRows], names: list[str], n_boot: int,
                seeds: list[np.random.SeedSequence], stratified: bool, level: float,
                progress: bool | None) -> list[dict[str, np.ndarray]]:
    """Every built-in metric on every replicate, per model: one sweep per replicate of
    the model's own table, the draws given by its seed over its slots. One bar per
    model, counting its replicates (one bar over all would count n_boot times models)."""
    out = []
    for r, name, seed in zip(ranked, names, seeds):
        resampler = ranked_resampler(r, stratified, seed)
        with progress_bar(progress, n_boot, f"bootstrap {name}", "replicate") as bar:
            out.append(derived_metrics(resampler.sweeps(n_boot, np.array([level]), bar=bar)))
    return out


def _paired_components(models: list[Rows], progress: bool | None) -> list[DeLongComponents]:
    """Each model's DeLong components of the shared rows: all models in one engine call
    (two at a time on two threads), or, when that takes seconds and a bar is wanted,
    one model at a time with the bar advancing per model (the same numbers)."""
    if (len(models[0].y) * len(models) < _DELONG_PROGRESS_ROWS
            or not wants_progress(progress)):
        return model_components(models)
    out: list[DeLongComponents] = []
    with progress_bar(True, len(models), "DeLong", "model") as bar:
        for rows in models:
            out += model_components([rows])
            bar.update()
    return out


def compare(y_true: Any, score_a: Any = None, score_b: Any = None, *,
            sample_weight: Any = None, pos_label: Any = None,
            metrics: Any = DEFAULT_METRICS, method: str = "delong", paired: bool = True,
            alternative: str = "two-sided", n_boot: int | None = None, seed: Any = 0,
            confidence: float = 0.95, correction: str | None = None, level: float = 0.5,
            stratified: bool = True, names: Sequence[str] | None = None,
            progress: bool | None = None, n_perm: int | None = None,
            specificity: float | None = None, sensitivity: float | None = None,
            df: str | None = None, partial: Any = None, focus: str = "specificity",
            correct: bool = False) -> Comparison | Comparisons:
    """Compare models: each metric's difference (A minus B) with an interval and p-value.

    By default the AUC alone, by DeLong's test (no resampling: about the time of one
    ``evaluate`` per model). Average precision, C(r_b), r_b and the other metrics are
    compared when named in ``metrics``, by a paired bootstrap (seeded: the same call
    gives the same result):

    - ``compare(y, a, b)``: the AUC, by DeLong.
    - ``compare(y, a, b, metrics=("auc", "average_precision", "precision"))``: the AUC
      by DeLong, average precision and C(r_b) by the bootstrap.
    - ``compare(y, a, b, metrics=..., method="bootstrap")``: every metric by the
      bootstrap, the AUC too.

    Three ways to pass the models:

    - ``compare(y_true, score_a, score_b)``: two models scoring the same rows.
    - ``compare(y_true, {"a": s_a, "b": s_b, "c": s_c})``: several models on the same
      rows; every pair is compared (``correction="holm"`` adjusts the p-values).
    - ``compare((y_a, s_a), (y_b, s_b), paired=False)``, or a mapping of names to such
      data sets as ``y_true``: models scored on different rows. A data set may carry
      weights as a third item. ``compare(y_true, score_a, score_b, paired=False)``
      treats the two models' scores of the same rows as independent samples.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), or a data set, or a mapping of them
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
        With ``paired=False`` and no ``score_b``: data set A ``(y_true, y_score[,
        sample_weight])``, or a mapping of model name to data set.
    score_a : array-like of shape (n_samples,), or a mapping, or a data set
        Model A's scores; or a mapping of model name to scores (then no ``score_b``);
        or, with ``paired=False`` and no ``score_b``, data set B.
    score_b : array-like of shape (n_samples,), default=None
        Model B's scores for the same rows.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    metrics : str or sequence of str, default=("auc",)
        Built-in metrics: ``auc``, ``average_precision``, ``threshold`` (r_b at
        ``level``), ``precision`` (C(r_b)), ``lift``, ``tpr``, ``fpr``, ``f1``. Every
        metric but ``auc`` is bootstrapped (there is no DeLong for them): naming one
        asks for ``n_boot`` replicates of the rows.
    method : {"delong", "bootstrap", "venkatraman", "sensitivity", "specificity"}, default="delong"
        How the AUC is compared: DeLong's normal interval and z-test, or the
        bootstrap (with the other metrics' replicates, if any). Each ``Difference``
        records its ``method``. The curve tests of R's pROC (``roc.test``) replace
        the metrics: ``"venkatraman"`` tests the equality of the whole ROC curves by
        ``n_perm`` permutations (one difference named ``"roc"``); ``"specificity"``
        compares the sensitivities at ``specificity`` (a difference named
        ``"sensitivity"``) and ``"sensitivity"`` the specificities at
        ``sensitivity`` (named ``"specificity"``), by pROC's bootstrap z-test.
    paired : bool, default=True
        Same rows for all models: DeLong with the components' covariance, and
        bootstrap replicates that draw the same rows for every model. False: the
        models' variances add, and each model is resampled on its own.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        "greater": A's metric above B's. One-sided alternatives give one-sided
        intervals (the other end is the metric's bound: ±1 for metrics in [0, 1]).
    n_boot : int, default=None
        Bootstrap replicates (at least 2); None: 2000 when a metric is bootstrapped.
        Giving it when nothing is bootstrapped (the AUC alone by DeLong) is an error:
        name the metrics to bootstrap, or pass ``method="bootstrap"``.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the replicates (see the module docstring for the derivation): the same
        call gives the same result. None draws fresh entropy from the OS (reported as
        ``seed_entropy``).
    confidence : float, default=0.95
        Coverage of the intervals.
    correction : {None, "holm"}, default=None
        Adjust each metric's p-values over all pairs of several models (Holm). The
        intervals are not adjusted.
    level : float, default=0.5
        Level of B for ``threshold``, ``precision`` and the other operating-point
        metrics.
    stratified : bool, default=True
        Bootstrap positives and negatives separately, keeping their counts.
    names : pair of str, default=None
        Names of models A and B when they come as two arguments (``("a", "b")`` when
        None), shown when printed and kept as ``model_a``, ``model_b``. A mapping of
        models is named by its keys.
    progress : bool or None, default=None
        A progress bar (tqdm, on stderr) over the bootstrap replicates, or over the
        models' DeLong components when there are tens of millions of rows. None:
        shown when stderr is a terminal or in Jupyter (``INDIST_FAST_PROGRESS=0``
        turns that off); True always (when there is something to count); False never.
    n_perm : int, default=None
        Permutations of ``method="venkatraman"`` (pROC's ``boot.n``); None: 2000. A
        progress bar counts them (``progress``).
    specificity, sensitivity : float, default=None
        The point of ``method="specificity"`` / ``method="sensitivity"``, in [0, 1].
    df : {None, "welch"}, default=None
        ``"welch"``: refer unpaired DeLong's statistic to Student's t with
        Welch-Satterthwaite's degrees of freedom (pROC's unpaired ``roc.test``); None:
        the normal (the default: the statistic is asymptotically normal, and the
        degrees of freedom pROC uses count rows, not the two samples behind each AUC).
        Needs SciPy.
    partial : pair of float, default=None
        The range ``(low, high)`` of ``focus`` over which the metric ``"pauc"`` (the
        partial AUC, bootstrapped) is taken; needed when ``metrics`` names it.
    focus : {"specificity", "sensitivity"}, default="specificity"
        The axis of ``partial`` (pROC's ``partial.auc.focus``).
    correct : bool, default=False
        McClish's correction of the partial AUC (pROC's ``partial.auc.correct``);
        replicates below the diagonal are NaN, counted in ``n_undefined``.

    Returns
    -------
    Comparison or Comparisons
        A ``Comparison`` for two models passed as ``score_a`` and ``score_b`` (or two
        data sets); a ``Comparisons`` of every pair for a mapping of models.

    Notes
    -----
    DeLong: the variance of the difference of the two AUCs from the per-row structural
    components (paired: their covariance included; unpaired: the two DeLong variances
    added), a normal interval, and ``z = difference / std_error``. When the standard
    error is 0 (identical rankings), ``z`` is 0 (p = 1) for equal AUCs.

    Bootstrap: replicate ``k``'s difference is model A's metric minus model B's on
    the same drawn rows (paired) or on independent draws (unpaired); the interval is
    the percentile interval of the differences and the p-value inverts it: for
    ``"greater"``, ``(1 + #{d_k <= 0}) / (1 + B)``, for ``"less"`` the same with
    ``d_k >= 0``, two-sided twice the smaller of the two (at most 1). So ``p <= alpha``
    about when the ``1 - alpha`` interval leaves 0 out, and p is never 0. Replicates
    where a metric is undefined (NaN) are left out and counted in ``n_undefined``.
    Each replicate costs about one sweep of every model's rows: 2000 replicates of
    two models take on the order of a thousand ``evaluate`` calls.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.3
    >>> a = y + rng.normal(size=2000)
    >>> b = 0.8 * y + rng.normal(size=2000)
    >>> c = indist_fast.compare(y, a, b)
    >>> d = c["auc"]
    >>> d.method, d.low < d.estimate < d.high and d.p_value < 0.05, c.n_boot
    ('delong', True, 0)
    >>> c = indist_fast.compare(y, a, b, metrics=("auc", "average_precision", "precision"),
    ...                         n_boot=200)
    >>> [c[m].method for m in c], c.n_boot
    (['delong', 'bootstrap', 'bootstrap'], 200)
    >>> c = indist_fast.compare(y, a, b, metrics=("auc", "precision"), method="bootstrap",
    ...                         n_boot=200, seed=1)
    >>> c["auc"].method, c.seed_entropy
    ('bootstrap', 1)
    """
    if isinstance(score_a, str) or isinstance(score_b, str):
        # compare(df, "a", "b"): the columns of a table, passed by name
        names = [v for v in (y_true, score_a, score_b) if isinstance(v, str)]
        shown = ", ".join(f"df[{n!r}]" for n in names)
        raise TypeError(f"compare() takes arrays, got the column names "
                        f"{', '.join(map(repr, names))}: pass the columns, "
                        f"compare(df[<label>], {shown}), or a mapping of names to "
                        f"columns, compare(df[<label>], {{name: df[name], ...}}).")
    metric_names = _metric_names(metrics)
    method = _choice(method, "method", ALL_METHODS)
    df = _choice(df, "df", (None, "welch"))
    correct = check_flag(correct, "correct")
    reader = None
    if "pauc" in metric_names:
        if partial is None:
            raise ValueError("metrics names 'pauc': give its range as partial=(low, "
                             "high) (specificities, or sensitivities with "
                             "focus='sensitivity').")
        reader = pauc_reader(*check_partial(partial, focus), correct)
    elif partial is not None:
        raise ValueError("partial applies to the metric 'pauc': add it to metrics.")
    if method in CURVE_METHODS:
        return _curve_comparison(y_true, score_a, score_b, sample_weight, pos_label,
                                 metrics, method, paired, alternative, n_boot, seed,
                                 confidence, correction, stratified, names, progress,
                                 n_perm, specificity, sensitivity, df)
    if n_perm is not None:
        raise ValueError("n_perm applies to method='venkatraman' (a permutation test).")
    if specificity is not None or sensitivity is not None:
        raise ValueError("specificity and sensitivity apply to method='specificity' and "
                         "method='sensitivity'.")
    alternative = _choice(alternative, "alternative", ALTERNATIVES)
    correction = _choice(correction, "correction", CORRECTIONS)
    paired = check_flag(paired, "paired")
    stratified = check_flag(stratified, "stratified")
    progress = check_progress(progress)
    delong_auc = method == "delong" and "auc" in metric_names
    boot = [m for m in metric_names if not (delong_auc and m == "auc")]
    if n_boot is None:
        n_boot = DEFAULT_N_BOOT
    else:
        n_boot = check_count(n_boot, "n_boot", minimum=2, maximum=MAX_REPLICATES)
        if not boot:
            raise ValueError(f"n_boot={n_boot} is given but nothing is bootstrapped: the "
                             "AUC is compared by DeLong's test. Name the metrics to "
                             "bootstrap (metrics=('auc', 'average_precision', "
                             "'precision')) or pass method='bootstrap'.")
    confidence = check_level(confidence, "confidence")
    level = check_level(level)
    seed = check_seed(seed)
    entropy = _entropy(seed)
    if df is not None and (paired or not delong_auc):
        raise ValueError("df='welch' applies to the unpaired DeLong test of the AUC "
                         "(paired=False, method='delong', metrics including 'auc').")
    models, several = _checked_models(y_true, score_a, score_b, sample_weight, pos_label,
                                      paired, names, correction)

    # DeLong on the same rows reads every row's component under each model (one sort
    # per model in the engine); the bootstrap reads each model's table and its slots'
    # groups; unpaired DeLong alone reads the tables.
    components = (_paired_components([rows for _, rows, _ in models], progress)
                  if delong_auc and paired else [])
    ranked: list[RankedRows] = []
    tables: list[ScoreTable] = []
    if boot:
        ranked = rank_models([(rows, slots) for (_, rows, _), slots
                              in zip(models, _model_slots(models, paired))])
        tables = [r.table for r in ranked]
    elif not paired:            # (one model at a time already: a bar costs nothing)
        large = sum(len(rows.y) for _, rows, _ in models) >= _DELONG_PROGRESS_ROWS
        with progress_bar(progress if large else False, len(models), "DeLong", "model") as bar:
            for _, rows, _ in models:
                tables.append(ScoreTable.from_rows(rows))
                bar.update()
    for t in tables:
        check_two_classes(t.weight_pos, t.weight_neg)
    unpaired_delong = ([delong_table(t) for t in tables] if delong_auc and not paired
                       else [])
    levels = np.array([level])
    if boot:
        estimates = [sweep_metrics(engine().sweep_table(t.scores, t.pos, t.neg, levels, True))
                     for t in tables]
    elif paired:    # DeLong alone: the AUC is the mean of the components at hand
        estimates = [{"auc": np.array([c.auc])} for c in components]
    else:
        estimates = [{"auc": np.array([d.auc])} for d in unpaired_delong]
    if delong_auc:                          # (one warning for all the models)
        any(warn_fractional_weights(rows.w, "DeLong's variance")
            for _, rows, _ in (models[:1] if paired else models))
    reps: list[dict[str, np.ndarray]] = []
    if boot:
        seeds = ([seed] * len(ranked) if paired else
                 [np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (j,))
                  for j in range(len(ranked))])
        reps = _replicates(ranked, [name for name, _, _ in models], n_boot, seeds,
                           stratified, level, progress)
        if reader is not None:
            pauc, pauc_reps = curve_replicates(ranked, [name for name, _, _ in models],
                                               n_boot, seeds, stratified, reader, progress)
            for j in range(len(models)):
                estimates[j]["pauc"], reps[j]["pauc"] = np.array([pauc[j]]), pauc_reps[j]

    pairs: dict[tuple[str, str], dict[str, Difference]] = {}
    for i, j in itertools.combinations(range(len(models)), 2):
        diffs = {}
        for m in metric_names:
            est_a, est_b = float(estimates[i][m][0]), float(estimates[j][m][0])
            if m == "auc" and delong_auc:
                if paired:
                    _, variance = paired_difference(models[i][1], components[i],
                                                    components[j])
                else:
                    variance = unpaired_delong[i].variance + unpaired_delong[j].variance
                welch = (None if df is None else welch_df(
                    unpaired_delong[i].variance, unpaired_delong[j].variance,
                    tables[i].weight_pos + tables[i].weight_neg,
                    tables[j].weight_pos + tables[j].weight_neg))
                diffs[m] = _delong_difference(m, est_a, est_b, variance, alternative,
                                              confidence, welch)
            else:
                diffs[m] = _bootstrap_difference(m, est_a, est_b, reps[i][m] - reps[j][m],
                                                 alternative, confidence)
        pairs[models[i][0], models[j][0]] = diffs
    return _comparisons(pairs, metric_names, correction, models, paired,
                        n_boot if boot else 0, entropy if boot else None, level, several)


def _comparisons(pairs: dict[tuple[str, str], dict[str, Difference]],
                 metric_names: Sequence[str], correction: str | None,
                 models: list[tuple[str, Rows, Slots | None]], paired: bool,
                 used_boot: int, entropy: int | None, level: float, several: bool
                 ) -> Comparison | Comparisons:
    """The pairs' differences as ``compare`` returns them, Holm-adjusted if asked."""
    if correction == "holm":
        for m in metric_names:
            keys = list(pairs)
            adjusted, bound = _holm(np.array([pairs[k][m].p_value_unadjusted for k in keys]),
                                    np.array([pairs[k][m].p_is_bound for k in keys]))
            for k, p, b in zip(keys, adjusted, bound):
                old = pairs[k][m]
                pairs[k][m] = Difference(**{**{f: getattr(old, f) for f in
                                               old.__dataclass_fields__},
                                            "p_value": p, "p_is_bound": bool(b)})
    comparisons = {key: Comparison(key[0], key[1], ReadOnlyMapping(diffs), paired,
                                   used_boot, entropy, level)
                   for key, diffs in pairs.items()}
    if not several:
        return next(iter(comparisons.values()))
    return Comparisons(tuple(name for name, _, _ in models), ReadOnlyMapping(comparisons),
                       correction)


def _model_slots(models: list[tuple[str, Rows, Slots | None]], paired: bool) -> list[Slots]:
    """Each model's slots: paired, one ``Slots`` for all (made from the first model's
    rows: its labels and weights are every model's); unpaired, each model's own."""
    if paired:
        return [Slots.from_rows(models[0][1])] * len(models)
    return [Slots.from_rows(rows) if slots is None else slots for _, rows, slots in models]


def _curve_comparison(y_true: Any, score_a: Any, score_b: Any, sample_weight: Any,
                      pos_label: Any, metrics: Any, method: str, paired: bool,
                      alternative: str, n_boot: Any, seed: Any, confidence: Any,
                      correction: Any, stratified: Any, names: Any, progress: Any,
                      n_perm: Any, specificity: Any, sensitivity: Any,
                      df: str | None) -> Comparison | Comparisons:
    """``compare`` by one of pROC's curve tests (``CURVE_METHODS``)."""
    if (isinstance(metrics, str) and metrics != "auc") or (
            not isinstance(metrics, str) and tuple(metrics) != DEFAULT_METRICS):
        raise ValueError(f"method={method!r} tests the curves, not metrics: leave metrics "
                         "at its default.")
    if df is not None:
        raise ValueError("df='welch' applies to method='delong'.")
    alternative = _choice(alternative, "alternative", ALTERNATIVES)
    correction = _choice(correction, "correction", CORRECTIONS)
    paired = check_flag(paired, "paired")
    stratified = check_flag(stratified, "stratified")
    progress = check_progress(progress)
    confidence = check_level(confidence, "confidence")
    seed = check_seed(seed)
    entropy = _entropy(seed)
    at = None
    if method == "venkatraman":
        if n_boot is not None:
            raise ValueError("method='venkatraman' permutes: give n_perm, not n_boot.")
        if alternative != "two-sided":
            raise ValueError("method='venkatraman' tests equality of the curves: "
                             "alternative must be 'two-sided'.")
        if specificity is not None or sensitivity is not None:
            raise ValueError("specificity and sensitivity apply to method='specificity' "
                             "and method='sensitivity'.")
        if sample_weight is not None:
            raise ValueError("sample_weight: method='venkatraman' ranks rows and takes "
                             "no weights.")
        count = check_count(DEFAULT_N_PERM if n_perm is None else n_perm, "n_perm",
                            minimum=1, maximum=MAX_REPLICATES)
        metric = "roc"
    else:
        if n_perm is not None:
            raise ValueError("n_perm applies to method='venkatraman' (a permutation test).")
        given, other = ((specificity, sensitivity) if method == "specificity"
                        else (sensitivity, specificity))
        if given is None:
            raise ValueError(f"method={method!r} needs {method}=<a value in [0, 1]>, the "
                             "point where the curves are compared.")
        if other is not None:
            raise ValueError(f"method={method!r} reads the curves at a given {method}; "
                             f"the other point argument must be None.")
        at = check_real(given, method, low=0.0, high=1.0)
        count = check_count(DEFAULT_N_BOOT if n_boot is None else n_boot, "n_boot",
                            minimum=2, maximum=MAX_REPLICATES)
        metric = "sensitivity" if method == "specificity" else "specificity"
    models, several = _checked_models(y_true, score_a, score_b, sample_weight, pos_label,
                                      paired, names, correction)
    model_names = [name for name, _, _ in models]
    ranked = rank_models([(rows, slots) for (_, rows, _), slots
                          in zip(models, _model_slots(models, paired))])
    for r in ranked:
        check_two_classes(r.table.weight_pos, r.table.weight_neg)
    aucs = [float(engine().sweep_table(r.table.scores, r.table.pos, r.table.neg,
                                       np.array([0.5]), True).auc) for r in ranked]
    pairs: dict[tuple[str, str], dict[str, Difference]] = {}
    combos = list(itertools.combinations(range(len(models)), 2))
    if method == "venkatraman":
        for i, j in combos:
            rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(
                seed.entropy, spawn_key=seed.spawn_key + (i, j))))
            with progress_bar(progress, count, f"Venkatraman {model_names[i]} vs "
                              f"{model_names[j]}", "permutation") as bar:
                stat, perms = venkatraman_test(models[i][1], models[j][1], paired, count,
                                               rng, bar)
            p = float(np.count_nonzero(perms >= stat)) / count
            perms.setflags(write=False)
            pairs[model_names[i], model_names[j]] = {metric: Difference(
                metric, aucs[i] - aucs[j], math.nan, math.nan, math.nan, p, aucs[i],
                aucs[j], method, alternative, confidence, p, perms, 0, False, stat)}
    else:
        assert at is not None
        seeds = ([seed] * len(ranked) if paired else
                 [np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (j,))
                  for j in range(len(ranked))])
        values, reps = curve_replicates(ranked, model_names, count, seeds, stratified,
                                        point_reader(method, at), progress)
        for i, j in combos:
            diffs = reps[i] - reps[j]
            estimate = values[i] - values[j]
            sd, stat, p, low, high = z_test(estimate, diffs, alternative, confidence)
            diffs.setflags(write=False)
            pairs[model_names[i], model_names[j]] = {metric: Difference(
                metric, estimate, sd, low, high, p, values[i], values[j], method,
                alternative, confidence, p, diffs, int(np.isnan(diffs).sum()), False,
                stat)}
    return _comparisons(pairs, [metric], correction, models, paired,
                        0 if method == "venkatraman" else count,
                        entropy, 0.5, several)
