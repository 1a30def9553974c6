"""compare() by pROC's tests at a point (method="sensitivity" / "specificity"), the
unpaired DeLong test with Welch's degrees of freedom, and the bootstrap of the partial
AUC (compare(metrics=("pauc",)) and bootstrap(metrics=("pauc",)))."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import indist_fast
from indist_fast import ScoreTable
from indist_fast._core.validation import prepare_rows
from indist_fast.inference.bootstrap import Resampler
from indist_fast.table.roc_readings import curve_of, partial_area, sensitivity_at


def data(seed=0, n=120):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    return (y, np.round(rng.normal(size=n) + y, 2),
            np.round(rng.normal(size=n) + 0.5 * y, 2))


def se_at(y, s, sp):
    spec, sens = curve_of(ScoreTable.from_rows(prepare_rows(y, s)))
    return float(sensitivity_at(spec, sens, np.array([sp]))[0])


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_specificity_test_is_a_z_test_on_the_replicates(backend, alternative):
    y, a, b = data(1)
    d = indist_fast.compare(y, a, b, method="specificity", specificity=0.8, n_boot=300,
                            alternative=alternative)["sensitivity"]
    assert d.estimate_a == se_at(y, a, 0.8) and d.estimate_b == se_at(y, b, 0.8)
    sd = np.std(d.replicates, ddof=1)
    assert d.std_error == pytest.approx(sd) and d.statistic == pytest.approx(d.estimate / sd)
    p = {"two-sided": 2 * stats.norm.sf(abs(d.statistic)),
         "greater": stats.norm.sf(d.statistic), "less": stats.norm.cdf(d.statistic)}
    assert d.p_value == pytest.approx(p[alternative], rel=1e-9)
    assert d.method == "specificity" and len(d.replicates) == 300


def test_sensitivity_test_reads_specificities(backend):
    y, a, b = data(2)
    d = indist_fast.compare(y, a, b, method="sensitivity", sensitivity=0.9,
                            n_boot=200)["specificity"]
    assert 0 <= d.estimate_a <= 1 and d.method == "sensitivity"
    same = indist_fast.compare(y, a, a, method="sensitivity", sensitivity=0.9,
                               n_boot=50)["specificity"]
    assert same.estimate == 0 and same.statistic == 0 and same.p_value == 1


def test_paired_replicates_share_draws(backend):
    """Paired: replicate k draws the same rows for both models, so a model compared
    with a copy of itself shifted by a constant differs by 0 in every replicate."""
    y, a, _ = data(3)
    d = indist_fast.compare(y, a, a + 5, method="specificity", specificity=0.7,
                            n_boot=100)["sensitivity"]
    assert not d.replicates.any()
    u = indist_fast.compare(y, a, a + 5, method="specificity", specificity=0.7,
                            n_boot=100, paired=False)["sensitivity"]
    assert u.replicates.any()


@pytest.mark.parametrize("kwargs,error,match", [
    ({}, ValueError, "specificity="),
    ({"specificity": 1.5}, ValueError, "specificity"),
    ({"specificity": 0.5, "sensitivity": 0.5}, ValueError, "None"),
    ({"specificity": 0.5, "n_perm": 10}, ValueError, "n_perm"),
    ({"specificity": 0.5, "n_boot": 1}, ValueError, "n_boot"),
])
def test_point_test_arguments(kwargs, error, match):
    y, a, b = data(4)
    with pytest.raises(error, match=match):
        indist_fast.compare(y, a, b, method="specificity", **kwargs)


def test_welch_is_procs_unpaired_delong(backend):
    y, a, _ = data(5)
    y2, _, b = data(6, n=90)
    d = indist_fast.compare((y, a), (y2, b), paired=False, df="welch")["auc"]
    va = indist_fast.delong(y, a).variance
    vb = indist_fast.delong(y2, b).variance
    df = (va + vb) ** 2 / (va ** 2 / (len(y) - 1) + vb ** 2 / (len(y2) - 1))
    t = d.estimate / math.sqrt(va + vb)
    assert d.df == pytest.approx(df, rel=1e-12) and d.statistic == pytest.approx(t, rel=1e-12)
    assert d.p_value == pytest.approx(2 * stats.t.sf(abs(t), df), rel=1e-9)
    q = stats.t.ppf(0.975, df)
    assert (d.low, d.high) == pytest.approx((d.estimate - q * d.std_error,
                                             d.estimate + q * d.std_error), rel=1e-12)
    normal = indist_fast.compare((y, a), (y2, b), paired=False)["auc"]
    assert normal.df is None and normal.p_value < d.p_value
    assert "df = " in str(d)


def test_welch_needs_unpaired_delong():
    y, a, b = data(7)
    with pytest.raises(ValueError, match="welch"):
        indist_fast.compare(y, a, b, df="welch")
    with pytest.raises(ValueError, match="df"):
        indist_fast.compare(y, a, b, df="student")


def test_pauc_replicates_read_each_replicate(backend):
    y, a, _ = data(8)
    r = indist_fast.bootstrap(y, a, metrics=("auc", "pauc"), partial=(0.6, 0.9),
                              focus="sensitivity", n_boot=40, seed=2)
    rows = prepare_rows(y, a)
    resampler = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=2)
    for k in range(40):
        expect = partial_area(*curve_of(resampler.replicate_table(k)), 0.6, 0.9,
                              "sensitivity")
        assert r["pauc"].replicates[k] == pytest.approx(expect, abs=1e-14)
    assert r["pauc"].estimate == indist_fast.roc_auc(y, a, partial=(0.6, 0.9),
                                                     focus="sensitivity")
    # the auc replicates come from the same draws
    auc_k = indist_fast.roc_auc(*resampler.replicate_rows(3)[:2])
    assert r["auc"].replicates[3] == pytest.approx(auc_k, abs=1e-14)


def test_corrected_pauc_below_the_diagonal_is_undefined(backend):
    y, a, _ = data(9)
    r = indist_fast.bootstrap(y, -a, metrics=("pauc",), partial=(0.8, 1), correct=True,
                              n_boot=30)
    assert math.isnan(r["pauc"].estimate) and r["pauc"].n_undefined > 20


def test_compare_pauc(backend):
    y, a, b = data(10)
    c = indist_fast.compare(y, a, b, metrics=("auc", "pauc"), partial=(0.8, 1),
                            n_boot=200)
    d = c["pauc"]
    assert d.estimate_a == indist_fast.roc_auc(y, a, partial=(0.8, 1))
    assert d.estimate_b == indist_fast.roc_auc(y, b, partial=(0.8, 1))
    assert d.method == "bootstrap" and c["auc"].method == "delong"
    assert d.statistic == pytest.approx(d.estimate / d.std_error)


@pytest.mark.parametrize("kwargs,match", [
    ({"metrics": ("pauc",)}, "partial="),
    ({"partial": (0.8, 1)}, "pauc"),
    ({"metrics": ("pauc",), "partial": (0.8, 0.8)}, "partial"),
    ({"metrics": ("pauc",), "partial": (0.8, 1), "focus": "x"}, "focus"),
])
def test_pauc_arguments(kwargs, match):
    y, a, b = data(11)
    with pytest.raises(ValueError, match=match):
        indist_fast.compare(y, a, b, **kwargs)
    one = {k: v for k, v in kwargs.items()}
    with pytest.raises(ValueError, match=match):
        indist_fast.bootstrap(y, a, **one)
