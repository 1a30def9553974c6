"""smooth_roc against pROC's smooth (pinned and live), a direct reading of the binormal
fit, R's density reproduced, weights as copies, and bad input."""
from __future__ import annotations

import math

import numpy as np
import pytest

import indist_fast
from indist_fast.metrics.score_density import bw_nrd0, r_density
from proc_sets import data_sets, r_code
from proc_pinned_smooth import PINNED, R_CODE
from rproc import r_numbers

SETS = list(data_sets())
IDX = np.arange(1, 515, 64)          # pROC's 1-based positions printed


def _check_binormal(name, values):
    y, a, _ = data_sets()[name]
    res = indist_fast.smooth_roc(y, a)
    k = len(IDX)
    auc, intercept, slope = values[:3]
    sp, se = np.array(values[3:3 + k]), np.array(values[3 + k:])
    assert res.auc == pytest.approx(auc, abs=1e-12)
    assert res.intercept == pytest.approx(intercept, abs=1e-10)
    assert res.slope == pytest.approx(slope, abs=1e-10)
    # ours run in rising fpr: pROC's position i is ours 514 - i
    np.testing.assert_allclose(res.fpr[514 - IDX], 1.0 - sp, atol=1e-12)
    np.testing.assert_allclose(res.tpr[514 - IDX], se, atol=1e-12)


def _check_density(name, values, method="density", **kwargs):
    y, a, _ = data_sets()[name]
    if kwargs:
        a = a - a.min() + 0.1
    res = indist_fast.smooth_roc(y, a, method=method, **kwargs)
    k = len(IDX)
    sp, se = np.array(values[1:1 + k]), np.array(values[1 + k:])
    assert res.auc == pytest.approx(values[0], abs=1e-12)
    np.testing.assert_allclose(res.fpr[514 - IDX], 1.0 - sp, atol=1e-12)
    np.testing.assert_allclose(res.tpr[514 - IDX], se, atol=1e-12)


def _check_lower(name, values):
    y, a, _ = data_sets()[name]
    res = indist_fast.smooth_roc(y, -a, direction="lower")
    assert (res.auc, res.intercept, res.slope) == pytest.approx(tuple(values), abs=1e-10)
    assert res.direction == "lower"


CHECKS = {"binormal": _check_binormal, "density": _check_density,
          "fitdistr": lambda name, v: _check_density(name, v, "fitdistr"),
          "fitdistr_lognormal_exponential": lambda name, v: _check_density(
              name, v, "fitdistr", distribution=("lognormal", "exponential")),
          "binormal_lower": _check_lower}


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("key", list(R_CODE))
def test_pinned_proc(backend, name, key):
    CHECKS[key](name, PINNED[name][key])


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("key", list(R_CODE))
def test_live_proc(name, key):
    CHECKS[key](name, r_numbers(r_code(R_CODE[key], name)))


def test_binormal_is_the_least_squares_line_of_the_probit_points(backend):
    from scipy.stats import linregress, norm
    y, a, _ = data_sets()["tied"]
    res = indist_fast.smooth_roc(y, a)
    thresholds = np.unique(a)
    se = np.array([np.mean(a[y == 1] >= t) for t in thresholds])
    sp = np.array([np.mean(a[y == 0] < t) for t in thresholds])
    keep = (se > 0) & (se < 1) & (sp > 0) & (sp < 1)
    fit = linregress(norm.ppf(se[keep]), norm.ppf(sp[keep]))
    assert res.slope == pytest.approx(fit.slope, abs=1e-12)
    assert res.intercept == pytest.approx(fit.intercept, abs=1e-12)
    assert res.auc == pytest.approx(norm.cdf(fit.intercept / math.sqrt(1 + fit.slope ** 2)))


def test_r_density_integrates_to_one_and_matches_a_direct_kernel_sum():
    rng = np.random.default_rng(0)
    x = rng.normal(size=300)
    bw = bw_nrd0(x)
    assert bw == pytest.approx(0.9 * min(np.std(x, ddof=1),
                                         (np.quantile(x, 0.75) - np.quantile(x, 0.25)) / 1.34)
                               * 300 ** -0.2)
    grid = np.linspace(x.min() - 3 * bw, x.max() + 3 * bw, 512)
    dens = r_density(x, np.full(300, 1 / 300), bw, grid[0], grid[-1], 512)
    direct = np.exp(-0.5 * ((grid[:, None] - x) / bw) ** 2).sum(1) / (300 * bw * math.sqrt(2 * math.pi))
    # linear binning: close to the exact kernel sum, not equal
    assert np.abs(dens - direct).max() < 1e-3
    assert np.sum(dens) * (grid[1] - grid[0]) == pytest.approx(1.0, abs=1e-3)


@pytest.mark.parametrize("method", ["binormal", "density", "fitdistr"])
def test_weights_count_as_copies(backend, method):
    y, a, _ = data_sets()["tied"]
    w = np.arange(len(y)) % 3
    kw = {"bw": 0.3} if method == "density" else {}
    weighted = indist_fast.smooth_roc(y, a, sample_weight=w, method=method, **kw)
    copies = indist_fast.smooth_roc(np.repeat(y, w), np.repeat(a, w), method=method, **kw)
    assert weighted.auc == pytest.approx(copies.auc, abs=1e-12)
    np.testing.assert_allclose(weighted.tpr, copies.tpr, atol=1e-12)


def test_curve_runs_from_corner_to_corner_and_is_read_only():
    y, a, _ = data_sets()["binormal"]
    for method in ("binormal", "density", "fitdistr"):
        res = indist_fast.smooth_roc(y, a, method=method, n=100)
        assert len(res.fpr) == 102
        assert (res.fpr[0], res.tpr[0], res.fpr[-1], res.tpr[-1]) == (0.0, 0.0, 1.0, 1.0)
        assert np.all(np.diff(res.fpr) >= 0)
        with pytest.raises(ValueError):
            res.fpr[0] = 1.0
        assert res.to_dict()["method"] == method


def test_auto_direction_warns_and_reads_the_other_way():
    y, a, _ = data_sets()["binormal"]
    with pytest.warns(indist_fast.DirectionWarning):
        res = indist_fast.smooth_roc(y, -a, direction="auto")
    assert res.auc == pytest.approx(indist_fast.smooth_roc(y, a).auc, abs=1e-12)


@pytest.mark.parametrize("kwargs, match", [
    ({"method": "spline"}, "method"), ({"n": 1}, "n"), ({"bw": -1.0}, "bw"),
    ({"bw": "scott"}, "bw"), ({"adjust": 0}, "adjust"), ({"direction": "up"}, "direction"),
    ({"method": "fitdistr", "distribution": "gamma"}, "distribution"),
    ({"method": "fitdistr", "distribution": ("normal",)}, "distribution"),
])
def test_bad_arguments(kwargs, match):
    y, a, _ = data_sets()["tiny"]
    with pytest.raises(ValueError, match=match):
        indist_fast.smooth_roc(y, a, **kwargs)


def test_not_smoothable_and_one_class_and_weighted_nrd0():
    with pytest.raises(ValueError, match="cannot be smoothed"):
        indist_fast.smooth_roc([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError):
        indist_fast.smooth_roc([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="bw"):
        indist_fast.smooth_roc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], method="density",
                               sample_weight=[1, 2, 1, 1])
    with pytest.raises(ValueError, match="finite"):
        indist_fast.smooth_roc([0, 1, 0, 1], [0.1, np.inf, 0.3, 0.4], method="density")
    with pytest.raises(ValueError, match="positive"):
        indist_fast.smooth_roc([0, 1, 0, 1], [-0.1, 0.2, 0.3, 0.4], method="fitdistr",
                               distribution="lognormal")
    with pytest.raises(ValueError, match="non-negative"):
        indist_fast.smooth_roc([0, 1, 0, 1], [0.1, -0.2, 0.3, 0.4], method="fitdistr",
                               distribution=("normal", "exponential"))
    with pytest.raises(ValueError, match="vary"):
        indist_fast.smooth_roc([0, 1, 0, 1], [0.1, 0.2, 0.1, 0.4], method="fitdistr")


def test_inputs_unchanged_and_frames():
    pd = pytest.importorskip("pandas")
    y, a, _ = data_sets()["tiny"]
    y0, a0 = y.copy(), a.copy()
    res = indist_fast.smooth_roc(y, a, direction="lower")
    assert np.array_equal(y, y0) and np.array_equal(a, a0) and res.direction == "lower"
    df = pd.DataFrame({"t": y, "p": a})
    assert indist_fast.smooth_roc(df, label="t", score="p").auc == indist_fast.smooth_roc(y, a).auc
