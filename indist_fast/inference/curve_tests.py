"""Tests of two ROC curves beyond their AUCs, as R's pROC runs them: Venkatraman's
permutation test of the whole curves, the bootstrap tests at one point of the curve
(pROC's ``method="sensitivity"`` / ``"specificity"``) and the bootstrap replicates of
the partial AUC, for ``compare``.

Bootstrap replicates here are the sort-once draws of ``compare``'s other bootstrapped
metrics (the same seed draws the same rows), each read as a curve (``roc_bands``).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Callable, Sequence

import numpy as np

from .._core.progress import Bar, progress_bar
from .._core.validation import Rows
from ..table.roc_readings import curve_of, partial_area, sensitivity_at, specificity_at
from .bootstrap import Resampler, replicate_curves
from .delong import RankedRows
from .venkatraman import (first_ranks, paired_permutations, paired_statistic,
                          unpaired_permutations, unpaired_statistic)

# (its functions serve ``compare``, which documents what they compute)
__all__ = ["CURVE_METHODS"]

#: ``compare`` methods that test curves rather than a metric's difference.
CURVE_METHODS = ("venkatraman", "sensitivity", "specificity")

CurveReader = Callable[[np.ndarray, np.ndarray], float]


def point_reader(method: str, at: float) -> CurveReader:
    """pROC's reading behind ``method="specificity"`` (the sensitivity at specificity
    ``at``) or ``"sensitivity"`` (the specificity at sensitivity ``at``)."""
    point = np.array([at])
    if method == "specificity":
        return lambda spec, sens: float(sensitivity_at(spec, sens, point)[0])
    return lambda spec, sens: float(specificity_at(spec, sens, point)[0])


def pauc_reader(low: float, high: float, focus: str, correct: bool) -> CurveReader:
    """The partial AUC over ``[low, high]`` of ``focus`` (McClish-corrected when
    ``correct``) of a curve."""
    return lambda spec, sens: partial_area(spec, sens, low, high, focus, correct)


def ranked_resampler(r: RankedRows, stratified: bool, seed: np.random.SeedSequence
                     ) -> Resampler:
    """The resampler of one ranked model's slots (positives first), drawing replicate
    ``k`` from child ``k`` of ``seed``: models sharing slots and seed draw the same rows."""
    k = r.slots.n_pos
    w = r.slots.weight
    return Resampler(r.table, r.group[:k], None if w is None else w[:k], r.group[k:],
                     None if w is None else w[k:], stratified=stratified, seed=seed)


def curve_replicates(ranked: Sequence[RankedRows], names: Sequence[str], n_boot: int,
                     seeds: Sequence[np.random.SeedSequence], stratified: bool,
                     reader: CurveReader, progress: bool | None
                     ) -> tuple[list[float], list[np.ndarray]]:
    """Each model's reading on its full data and on its ``n_boot`` replicates (NaN
    where a replicate lacks a class); replicate ``k`` of a model draws the slots
    ``compare``'s bootstrap draws for it with the same seed."""
    estimates, reps = [], []
    for r, name, seed in zip(ranked, names, seeds):
        resampler = ranked_resampler(r, stratified, seed)
        estimates.append(reader(*curve_of(r.table)))
        out = np.empty(n_boot)
        with progress_bar(progress, n_boot, f"bootstrap {name}", "replicate") as bar, \
                np.errstate(divide="ignore", invalid="ignore"):
            for i, (spec, sens) in enumerate(replicate_curves(resampler, n_boot, bar)):
                out[i] = reader(spec, sens)
        reps.append(out)
    return estimates, reps


def z_test(estimate: float, diffs: np.ndarray, alternative: str, confidence: float
           ) -> tuple[float, float, float, float, float]:
    """pROC's bootstrap test: ``D = estimate / sd(diffs)`` (NaN replicates left out;
    0 when every difference and the estimate are 0), a normal p-value, and the normal
    interval ``estimate -+ z sd``: ``(sd, D, p, low, high)``."""
    ok = diffs[~np.isnan(diffs)]
    sd = float(np.std(ok, ddof=1)) if len(ok) > 1 else math.nan
    if sd == 0.0 or math.isnan(sd):
        stat = 0.0 if estimate == 0 and (len(ok) and not ok.any()) else (
            math.nan if math.isnan(sd) else math.copysign(math.inf, estimate))
    else:
        stat = estimate / sd
    if math.isnan(stat):
        p = math.nan
    elif alternative == "greater":
        p = 0.5 * math.erfc(stat / math.sqrt(2.0))
    elif alternative == "less":
        p = 0.5 * math.erfc(-stat / math.sqrt(2.0))
    else:
        p = math.erfc(abs(stat) / math.sqrt(2.0))
    if alternative == "two-sided":
        q = NormalDist().inv_cdf(0.5 + confidence / 2)
        low, high = estimate - q * sd, estimate + q * sd
    else:
        q = NormalDist().inv_cdf(confidence)
        low, high = ((estimate - q * sd, 1.0) if alternative == "greater"
                     else (-1.0, estimate + q * sd))
    return sd, stat, p, max(-1.0, low), min(1.0, high)


def venkatraman_test(rows_a: Rows, rows_b: Rows, paired: bool, n_perm: int,
                     rng: np.random.Generator, bar: Bar | None = None
                     ) -> tuple[float, np.ndarray]:
    """Venkatraman's statistic ``E`` and its ``n_perm`` permuted values (pROC's)."""
    pos_a = (rows_a.y == rows_a.pos_value).astype(np.int64)
    if paired:
        return (paired_statistic(first_ranks(rows_a.s), first_ranks(rows_b.s), pos_a),
                paired_permutations(first_ranks(rows_a.s), first_ranks(rows_b.s), pos_a,
                                    n_perm, rng, bar))
    pos_b = (rows_b.y == rows_b.pos_value).astype(np.int64)
    # pROC's pooled share of positives divides by twice the first set's size
    share = (pos_a.sum() + pos_b.sum()) / (2 * len(pos_a))
    ra, rb = first_ranks(rows_a.s), first_ranks(rows_b.s)
    return (unpaired_statistic(ra, pos_a, rb, pos_b, share),
            unpaired_permutations(ra, pos_a, rb, pos_b, share, n_perm, rng, bar))
