"""Against R's pROC: partial AUCs, coords at a specificity or sensitivity,
Venkatraman's statistics and the Welch unpaired DeLong test to 1e-12 (deterministic);
ci.se / ci.sp / ci.thresholds, the specificity and sensitivity tests, Venkatraman's
p-value and the bootstrap CI of a partial AUC statistically (Monte Carlo error of both
runs). The values pinned in ``proc_pinned_curves`` need no R; the tests marked slow
rerun its R code live (skipped, naming the Debian packages, where pROC is missing)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

import indist_fast
from proc_pinned_curves import (BAND_POINTS, N_BOOT, PINNED, POINTS, R_BOOT, R_EXACT,
                                RANGES, THRESHOLD, data_sets, halves, r_code)
from rproc import r_numbers

NAMES = list(data_sets())
EXACT = 1e-12


def ours_exact(name: str) -> list[float]:
    """The library's numbers in R_EXACT's print order."""
    y, a, b = data_sets()[name]
    out = [indist_fast.roc_auc(y, a, partial=(lo, hi), focus=focus, correct=correct)
           for lo, hi in RANGES for focus in ("specificity", "sensitivity")
           for correct in (False, True)]
    bands = indist_fast.ci_bands(y, a, specificities=POINTS, sensitivities=POINTS, n_boot=2)
    out += list(bands.sensitivity.estimate) + list(bands.specificity.estimate)
    out.append(indist_fast.compare(y, a, b, method="venkatraman", n_perm=1)["roc"].statistic)
    k = halves(y)
    welch = indist_fast.compare((y[:k], a[:k]), (y[k:], b[k:]), paired=False,
                                df="welch")["auc"]
    out += [welch.statistic, welch.df, welch.p_value]
    out.append(indist_fast.compare((y[:k], a[:k]), (y[k:], b[k:]), paired=False,
                                   method="venkatraman", n_perm=1)["roc"].statistic)
    return out


def check_exact(name: str, theirs) -> None:
    np.testing.assert_allclose(ours_exact(name), theirs, rtol=EXACT, atol=EXACT)


def quantile_tolerance(replicates: np.ndarray, q: float, step: float) -> float:
    """Four standard errors of the difference of two runs' ``q`` quantiles of ``B``
    replicates (normal approximation, ``sd sqrt(q (1 - q) / B) / phi(z_q)`` each),
    plus one step of the statistic's lattice (a rate of n rows moves by 1 / n)."""
    ok = replicates[~np.isnan(replicates)]
    z = NormalDist().inv_cdf(q)
    se = np.std(ok) * math.sqrt(q * (1 - q) / len(ok)) / NormalDist().pdf(z)
    return 4 * math.sqrt(2) * se + step


def check_band(band, r_low, r_median, r_high, step) -> None:
    for i in range(len(band.at)):
        reps = band.replicates[:, i]
        for ours, theirs, q in ((band.low[i], r_low[i], 0.025),
                                (band.median[i], r_median[i], 0.5),
                                (band.high[i], r_high[i], 0.975)):
            assert abs(ours - theirs) <= quantile_tolerance(reps, q, step), (
                band.measure, band.at[i], q, ours, theirs)


def check_boot(name: str, theirs) -> None:
    y, a, b = data_sets()[name]
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    theirs = np.asarray(theirs)
    bands = indist_fast.ci_bands(y, a, specificities=BAND_POINTS, sensitivities=BAND_POINTS,
                                 thresholds=[THRESHOLD], n_boot=N_BOOT, seed=1)
    m = len(BAND_POINTS)
    se, sp, thr = theirs[:3 * m], theirs[3 * m:6 * m], theirs[6 * m:6 * m + 6]
    check_band(bands.sensitivity, se[:m], se[m:2 * m], se[2 * m:], 1 / n_pos)
    check_band(bands.specificity, sp[:m], sp[m:2 * m], sp[2 * m:], 1 / n_neg)
    check_band(bands.threshold_sensitivity, [thr[0]], [thr[1]], [thr[2]], 1 / n_pos)
    check_band(bands.threshold_specificity, [thr[3]], [thr[4]], [thr[5]], 1 / n_neg)
    rest = theirs[6 * m + 6:]
    for (method, at), (d_r, p_r) in zip((("specificity", 0.9), ("sensitivity", 0.9)),
                                        (rest[0:2], rest[2:4])):
        d = indist_fast.compare(y, a, b, method=method, n_boot=N_BOOT,
                                **{method: at})[("sensitivity" if method == "specificity"
                                                 else "specificity")]
        # D = estimate / sd: the sd of B replicates is off by about 1 / sqrt(2 B) each
        assert abs(d.statistic - d_r) <= 0.1 * abs(d_r) + 0.05, (method, d.statistic, d_r)
        assert abs(d.p_value - p_r) <= 0.05 + 0.2 * p_r, (method, d.p_value, p_r)
    v = indist_fast.compare(y, a, b, method="venkatraman", n_perm=N_BOOT)["roc"]
    p = rest[4]
    assert abs(v.p_value - p) <= 4 * math.sqrt(2 * max(p, 0.005) * (1 - p) / N_BOOT), (
        v.p_value, p)
    pauc = indist_fast.bootstrap(y, a, metrics=("pauc",), partial=(0.8, 1), n_boot=N_BOOT,
                                 seed=1)["pauc"]
    low, median, high = rest[5:8]           # (ci.auc's middle is the replicates' median)
    reps = pauc.replicates
    step = 0.2 / n_pos                       # one positive moves it by at most 0.2 / n_pos
    assert abs(pauc.low - low) <= quantile_tolerance(reps, 0.025, step)
    assert abs(np.median(reps) - median) <= quantile_tolerance(reps, 0.5, step)
    assert abs(pauc.high - high) <= quantile_tolerance(reps, 0.975, step)


@pytest.mark.parametrize("name", NAMES)
def test_exact_values_match_pinned_proc(name):
    check_exact(name, PINNED[name]["exact"])


# (a few seconds each: one data set in the fast suite, the others with the slow ones)
@pytest.mark.parametrize("name", [n if n == "binormal" else pytest.param(n, marks=pytest.mark.slow)
                                  for n in NAMES])
def test_bootstrap_values_match_pinned_proc(name):
    check_boot(name, PINNED[name]["boot"])


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_exact_values_match_live_proc(name):
    check_exact(name, r_numbers(r_code(R_EXACT, name)))


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_bootstrap_values_match_live_proc(name):
    check_boot(name, r_numbers(r_code(R_BOOT, name), timeout=1800))


def test_pinned_values_came_from_the_code_kept_beside_them():
    """The R code still names every printed number (a changed template would leave the
    pinned values stale): counts of values printed per data set."""
    per_range = 4
    assert len(PINNED["binormal"]["exact"]) == per_range * len(RANGES) + 2 * len(POINTS) + 5
    assert len(PINNED["binormal"]["boot"]) == 6 * len(BAND_POINTS) + 6 + 2 + 2 + 1 + 3
    assert "{y}" in R_EXACT and "{y}" in R_BOOT
