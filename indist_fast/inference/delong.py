"""DeLong's variance of the AUC and test of two AUCs, and the Hanley-McNeil error.

DeLong's structural components are read from the score table: every positive of a
group has the same ``V10`` (share of negatives it outranks, ties one half) and every
negative the same ``V01``, so after the one sort the variance costs O(distinct
scores), never an n_pos x n_neg matrix. Weights count as copies.

Comparing models on the same rows needs each row's component under every model: the
engine sorts each model's rows once and writes every row's component in one pass over
that order (``delong_components``), O(n log n) with no per-row search; the paired
variance is then one pass over the rows (``paired_moments``).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from statistics import NormalDist
from typing import Any

import numpy as np

from .._core.engine import engine
from .._core.records import DeLongComponents
from ..errors import warn_fractional_weights
from .._core.validation import (Rows, check_level, check_real, check_two_classes,
                                checked_classes, first_true, prepare_rows, raise_nan_score)
from ..results.report import record_dict
from ..table.score_table import ScoreTable

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
    _check_weights(table.weight_pos, table.weight_neg, table.pos.dtype.kind == "f")


def _check_weights(wp: float, wn: float, weighted: bool) -> None:
    if wp <= 1 or wn <= 1:
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
    result = delong_table(ScoreTable.from_rows(rows), confidence)
    warn_fractional_weights(rows.w, "DeLong's variance")
    return result


@dataclass(frozen=True, eq=False)
class Slots:
    """The rows of weight > 0 in class order: the positives, then the negatives, each
    in row order (the bootstrap's slots; paired models share them).

    Attributes
    ----------
    index : ndarray of int64
        Row of each slot.
    n_pos : int
        Slots ``[:n_pos]`` are the positives.
    weight : ndarray of float64 or None
        Weight of each slot (None: unweighted rows).
    n_rows : int
        Rows given, zero-weight rows included.
    """

    index: np.ndarray
    n_pos: int
    weight: np.ndarray | None
    n_rows: int

    @classmethod
    def from_rows(cls, rows: Rows) -> "Slots":
        """The slots of validated rows.

        Parameters
        ----------
        rows : Rows
            The output of ``indist_fast._core.validation.prepare_rows``.

        Returns
        -------
        Slots

        Examples
        --------
        >>> from indist_fast._core.validation import prepare_rows
        >>> from indist_fast.inference.delong import Slots
        >>> slots = Slots.from_rows(prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]))
        >>> slots.index.tolist(), slots.n_pos
        ([1, 2, 0, 3], 2)
        """
        is_pos = checked_classes(rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value)
        if rows.w is None:
            pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
        else:
            kept = rows.w > 0
            pos, neg = np.flatnonzero(kept & is_pos), np.flatnonzero(kept & ~is_pos)
        index = np.concatenate((pos, neg)).astype(np.int64, copy=False)
        return cls(index, len(pos), None if rows.w is None else rows.w[index], rows.n_rows)


@dataclass(frozen=True, eq=False)
class RankedRows:
    """One model's score table and its slots in score order, from one sort.

    Attributes
    ----------
    table : ScoreTable
        The table of the rows.
    slots : Slots
        The rows of weight > 0 in class order.
    order : ndarray of int64
        Slots by descending score.
    sorted_group : ndarray of int64 or None
        Group (index into ``table.scores``) of ``order``'s slots; None when every
        score is distinct (group ``i`` is then slot ``order[i]``).
    group : ndarray of int64
        Per slot: its group (computed on first use).
    """

    table: ScoreTable
    slots: Slots
    order: np.ndarray
    sorted_group: np.ndarray | None

    @cached_property
    def group(self) -> np.ndarray:
        sorted_group = (np.arange(len(self.order), dtype=np.int64)
                        if self.sorted_group is None else self.sorted_group)
        out = np.empty(len(sorted_group), dtype=np.int64)
        out[self.order] = sorted_group
        return out


_SIGN = np.uint64(63)
_LOW63 = np.uint64(2**63 - 1)


def _descending_keys(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row order by descending score, and the scores in that order (float64). ``s``
    must be a scratch copy: float64 input is changed in place (-0.0 becomes 0.0).

    One NumPy sort of uint64 keys (SIMD, several times faster than ``argsort``): the
    score's bits mapped to a descending order, their low bits replaced by the row index.
    Scores that agree in the kept high bits but differ (relative gap under about
    ``n / 2**52``) then come out in row order; those few runs are re-sorted exactly.
    """
    n = len(s)
    bits = np.uint64(max(1, (n - 1).bit_length()))
    x = s.astype(np.float64, copy=False)       # (the caller's own copy, changed here)
    x += 0.0                                   # -0.0 == 0.0: one key for both
    key = x.view(np.uint64).copy()
    # Negative floats order by falling bits, non-negative ones by rising bits:
    # flipping the low 63 bits of the non-negative ones makes every key fall.
    flip = key >> _SIGN
    flip -= np.uint64(1)
    flip &= _LOW63
    key ^= flip
    del flip
    low = np.uint64((1 << int(bits)) - 1)
    key &= ~low
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    order = (key & low).view(np.int64)
    ordered = x[order]
    bad = np.flatnonzero(ordered[1:] > ordered[:-1])
    if len(bad):
        prefix = key[bad] >> bits << bits
        starts = np.unique(np.searchsorted(key, prefix, "left"))
        ends = np.searchsorted(key, np.unique(prefix) + (np.uint64(1) << bits), "left")
        lengths = ends - starts
        idx = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(
            lengths.sum())
        run = np.repeat(np.arange(len(starts)), lengths)
        resort = np.lexsort((-ordered[idx], run))
        order[idx] = order[idx][resort]
        ordered[idx] = ordered[idx][resort]
    return order, ordered


def rank_rows(rows: Rows, slots: Slots | None = None) -> RankedRows:
    """The table of validated rows, and each slot's group, from one sort.

    Parameters
    ----------
    rows : Rows
        The output of ``indist_fast._core.validation.prepare_rows``.
    slots : Slots, optional
        ``Slots.from_rows(rows)``, when already made for other scores of the same rows.

    Returns
    -------
    RankedRows
        The same table as ``ScoreTable.from_rows(rows)`` (weighted sums may differ in
        the last bits), with the group of every slot.

    Examples
    --------
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.inference.delong import rank_rows
    >>> r = rank_rows(prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.8]))
    >>> r.table.scores.tolist(), r.slots.index.tolist(), r.group.tolist()
    ([0.8, 0.6, 0.1], [1, 2, 0, 3], [0, 1, 2, 0])
    """
    slots = Slots.from_rows(rows) if slots is None else slots
    n, n_pos = len(slots.index), slots.n_pos
    order, ordered = _descending_keys(rows.s[slots.index])
    pos_sorted = order < n_pos
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    if np.count_nonzero(new) == n:              # every score distinct: group = position
        sorted_group = None
        scores = ordered
        if slots.weight is None:
            pos = pos_sorted.astype(np.int64)
            neg = 1 - pos
        else:
            w_sorted = slots.weight[order]
            pos = np.where(pos_sorted, w_sorted, 0.0)
            neg = w_sorted - pos
    else:
        starts = np.flatnonzero(new)
        sorted_group = np.cumsum(new, dtype=np.int64)
        sorted_group -= 1
        scores = np.ascontiguousarray(ordered[starts])
        if slots.weight is None:
            pos = np.add.reduceat(pos_sorted, starts, dtype=np.int64)
            neg = np.diff(np.append(starts, n)) - pos
        else:
            w_sorted = slots.weight[order]
            pos = np.add.reduceat(np.where(pos_sorted, w_sorted, 0.0), starts)
            neg = np.add.reduceat(np.where(pos_sorted, 0.0, w_sorted), starts)
    table = ScoreTable._trusted(scores, pos, neg, slots.n_rows, rows.coding)
    return RankedRows(table, slots, order, sorted_group)


#: Below this many slots per model, ranking models one after the other beats a thread
#: hand-off.
PARALLEL_MIN_SLOTS = 50_000


def rank_models(models: list[tuple[Rows, Slots]]) -> list[RankedRows]:
    """``rank_rows`` of several models, two at a time on two threads (NumPy's sort,
    element-wise passes and gathers release the GIL), each model's ``group`` computed
    on its thread.

    Parameters
    ----------
    models : list of (Rows, Slots)
        Each model's validated rows and slots.

    Returns
    -------
    list of RankedRows
        In the order given.
    """
    def one(model: tuple[Rows, Slots]) -> RankedRows:
        ranked = rank_rows(*model)
        ranked.group
        return ranked

    if len(models) < 2 or max(len(slots.index) for _, slots in models) < PARALLEL_MIN_SLOTS:
        return [one(m) for m in models]
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="indist_fast_rank") as pool:
        return list(pool.map(one, models))


def model_components(models: list[Rows]) -> list[DeLongComponents]:
    """Every row's DeLong component under each model of the same rows (labels and
    weights shared, one score array each), with each model's AUC and class weights.

    Raises ValueError when a class is missing or holds a single copy (DeLong's
    variance divides by ``W_P - 1`` and ``W_N - 1``).
    """
    first = models[0]
    out = engine().delong_components(first.y, [m.s for m in models], first.w,
                                     first.pos_value, first.neg_value)
    check_two_classes(out[0].weight_pos, out[0].weight_neg)
    _check_weights(out[0].weight_pos, out[0].weight_neg, first.w is not None)
    return out


def paired_difference(rows: Rows, a: DeLongComponents, b: DeLongComponents
                      ) -> tuple[float, float]:
    """DeLong's difference of two models' AUCs on the same rows, and its variance.

    Parameters
    ----------
    rows : Rows
        The rows (labels and weights) both models scored.
    a, b : DeLongComponents
        The two models' components (``model_components``).

    Returns
    -------
    difference, variance : float
        ``AUC_a - AUC_b`` (the positive-weighted mean of the difference of the ``V10``)
        and its variance, the components' covariance included.
    """
    wp, wn = a.weight_pos, a.weight_neg
    m = engine().paired_moments(rows.y, rows.pos_value, rows.w, wp + wn, a.component,
                                b.component)
    variance = m.squares_pos / (wp - 1) / wp + m.squares_neg / (wn - 1) / wn
    return m.mean_pos, max(variance, 0.0)


def _scored_rows(y_true: Any, scores: Any, name: str, sample_weight: Any,
                 pos_label: Any) -> Rows:
    """Rows of one model's scores through the one row-validation path, its NaN scores
    checked here (the engines check labels and weights when they sort).

    That path calls the scores ``y_score``; here several arguments hold scores, so its
    errors are re-raised with the one at fault named instead."""
    try:
        rows = prepare_rows(y_true, scores, sample_weight, pos_label)
        raise_nan_score(first_true(np.isnan(rows.s)))
        return rows
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
    rows_a = _scored_rows(y_true, score_a, "score_a", sample_weight, pos_label)
    rows_b = _scored_rows(y_true, score_b, "score_b", sample_weight, pos_label)
    comp_a, comp_b = model_components([rows_a, rows_b])
    warn_fractional_weights(rows_a.w, "DeLong's variance")
    _, variance = paired_difference(rows_a, comp_a, comp_b)
    diff = comp_a.auc - comp_b.auc
    se = math.sqrt(variance)
    if se > 0:
        z = diff / se
    else:                                   # identical rankings: no evidence either way
        z = 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return DeLongTest(comp_a.auc, comp_b.auc, diff, se, z,
                      math.erfc(abs(z) / math.sqrt(2.0)))


def hanley_mcneil_se(auc: float, n_pos: float, n_neg: float) -> float:
    """Hanley and McNeil's standard error of an AUC (Radiology, 1982; used by Beam,
    "Resolving power"; definitions page, "Hanley-McNeil standard error").

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
