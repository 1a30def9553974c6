"""Venkatraman's permutation tests of the equality of two whole ROC curves, as R's pROC
computes them (``roc.test(method="venkatraman")``), permutations in NumPy batches.

Paired (Venkatraman 2000): each model's scores become ranks (ties broken by row
order, pROC's ``ties.method="first"``); the statistic is ``E = sum_x |(FN_S(x) +
FP_S(x)) - (FN_R(x) + FP_R(x))|`` over the rank cut-offs ``x = 1 .. n``, which on
ranks is ``2 sum_x |C_S(x) - C_R(x)|`` with ``C(x)`` the positives among the ``x``
lowest ranks. A permutation exchanges the two models' ranks of a row with
probability 1/2 and breaks the ties that creates with uniform jitter, exactly as
pROC's ``venkatraman.paired.permutation``.

Unpaired (Venkatraman and Begg 1996, as pROC implements it): ranks within each data
set, the statistic the integrated absolute difference of the two curves drawn against
the mixture ``mp F + (1 - mp) G`` (``mp`` is pROC's pooled share of positives, whose
denominator counts the first data set twice: kept so the statistic is pROC's); a
permutation pools both sets' jittered ranks within each class and deals them back.

The p-value is pROC's: the share of the ``n_perm`` permuted statistics at or above
the observed one (0 is possible).
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from .._core.progress import Bar

# (its functions serve ``compare(method="venkatraman")``, which documents the test)
__all__: list[str] = []

# Permutations are sorted this many rows of scores at a time: a batch of (rows x n)
# float64 and its argsort stay within a few tens of megabytes.
_BATCH_CELLS = 2_000_000


def first_ranks(score: np.ndarray) -> np.ndarray:
    """Ranks 1..n, ties broken by position (R's ``rank(ties.method="first")``)."""
    order = np.argsort(score, kind="stable")
    ranks = np.empty(len(score), dtype=np.float64)
    ranks[order] = np.arange(1, len(score) + 1, dtype=np.float64)
    return ranks


def _batches(n_perm: int, n: int) -> Iterator[int]:
    """Batch sizes summing to ``n_perm``, each about ``_BATCH_CELLS / n`` rows."""
    size = max(1, _BATCH_CELLS // max(n, 1))
    done = 0
    while done < n_perm:
        step = min(size, n_perm - done)
        yield step
        done += step


def _positives_below(keys: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """``C(x)`` for ``x = 1 .. n`` of each row of ``keys``: the positives among the
    ``x`` lowest keys (ties by position)."""
    order = np.argsort(keys, axis=-1, kind="stable")
    out: np.ndarray = np.cumsum(positive[order], axis=-1, dtype=np.int64)
    return out


def paired_statistic(rank_a: np.ndarray, rank_b: np.ndarray, positive: np.ndarray) -> float:
    """pROC's ``venkatraman.paired.stat`` of two models' ranks of the same rows."""
    diff = _positives_below(rank_b, positive) - _positives_below(rank_a, positive)
    return float(2 * np.abs(diff).sum())


def paired_permutations(rank_a: np.ndarray, rank_b: np.ndarray, positive: np.ndarray,
                        n_perm: int, rng: np.random.Generator,
                        bar: Bar | None = None) -> np.ndarray:
    """``n_perm`` statistics of pROC's paired permutation: per row, keep both ranks
    (each jittered by ``U - 1/2``) or exchange them (unjittered), with probability 1/2."""
    n = len(positive)
    out = np.empty(n_perm)
    start = 0
    for size in _batches(n_perm, n):
        jitter_a = rng.random((size, n)) - 0.5
        jitter_b = rng.random((size, n)) - 0.5
        keep = rng.random((size, n)) >= 0.5              # pROC: q = 1 - round(U)
        a = np.where(keep, rank_a + jitter_a, rank_b)
        b = np.where(keep, rank_b + jitter_b, rank_a)
        diff = _positives_below(b, positive) - _positives_below(a, positive)
        out[start:start + size] = 2 * np.abs(diff).sum(axis=1)
        start += size
        if bar is not None:
            bar.update(size)
    return out


def _mixture_curve(ranks: np.ndarray, positive: np.ndarray, share: float
                   ) -> tuple[np.ndarray, np.ndarray]:
    """pROC's ``(R.p, R.exp)`` of one data set's ranks (rows of ``ranks``): at each
    cut-off ``x = 1 .. n`` the mixture ``mp F(x) + (1 - mp) G(x)`` and the curve value
    ``mp F(x) + (1 - mp) (1 - G(x))``, F and G the positives' and negatives' shares
    with rank ``<= x``."""
    cases = _positives_below(ranks, positive)
    n_pos = int(positive.sum())
    n_neg = len(positive) - n_pos
    x = np.arange(1, len(positive) + 1)
    f = cases / n_pos
    g = (x - cases) / n_neg
    return share * f + (1 - share) * g, share * f + (1 - share) * (1 - g)


def _interp_inside(at: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """R's ``approxfun(x, y)(at)``: linear, NaN outside ``[x[0], x[-1]]`` (``x``
    strictly increasing)."""
    out: np.ndarray = np.interp(at, x, y, left=np.nan, right=np.nan)
    return out


def unpaired_statistic(rank_a: np.ndarray, positive_a: np.ndarray, rank_b: np.ndarray,
                       positive_b: np.ndarray, share: float) -> float:
    """pROC's ``venkatraman.unpaired.stat``: the trapezoid integral of ``|R.f(x) -
    S.f(x)|`` over the sorted union of both mixtures' points, NaN pieces dropped."""
    pa, ea = _mixture_curve(rank_a, positive_a, share)
    pb, eb = _mixture_curve(rank_b, positive_b, share)
    x = np.sort(np.concatenate((pa, pb)))
    y = np.abs(_interp_inside(x, pa, ea) - _interp_inside(x, pb, eb))
    pieces = (y[1:] + y[:-1]) * np.diff(x) / 2.0
    return float(np.nansum(pieces))


def unpaired_permutations(rank_a: np.ndarray, positive_a: np.ndarray, rank_b: np.ndarray,
                          positive_b: np.ndarray, share: float, n_perm: int,
                          rng: np.random.Generator, bar: Bar | None = None) -> np.ndarray:
    """``n_perm`` statistics of pROC's unpaired permutation: jitter every rank by ``U -
    1/2``, pool each class's jittered ranks of both sets, shuffle, deal the first back to
    set A's rows of that class (in row order) and the rest to set B's, rank again."""
    na = len(positive_a)
    out = np.empty(n_perm)
    rows = {cls: (np.flatnonzero(positive_a == cls), np.flatnonzero(positive_b == cls))
            for cls in (False, True)}
    for k in range(n_perm):
        a = rank_a + rng.random(na) - 0.5
        b = rank_b + rng.random(len(positive_b)) - 0.5
        new_a, new_b = a.copy(), b.copy()
        for in_a, in_b in rows.values():
            pool = rng.permutation(np.concatenate((a[in_a], b[in_b])))
            new_a[in_a] = pool[:len(in_a)]
            new_b[in_b] = pool[len(in_a):]
        out[k] = unpaired_statistic(first_ranks(new_a), positive_a, first_ranks(new_b),
                                    positive_b, share)
        if bar is not None:
            bar.update()
    return out
