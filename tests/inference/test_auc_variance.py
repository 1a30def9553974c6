"""var_auc and cov_auc against pROC's var and cov (pinned and live; bootstrap
statistically), a brute-force DeLong covariance, weights as copies, and bad input."""
from __future__ import annotations

import numpy as np
import pytest

import indist_fast
from proc_sets import data_sets, r_code
from proc_pinned_variance import PINNED, R_CODE
from rproc import r_numbers

SETS = list(data_sets())


def _check_exact(name, values):
    y, a, b = data_sets()[name]
    ours = [indist_fast.var_auc(y, a), indist_fast.var_auc(y, a, method="obuchowski"),
            indist_fast.cov_auc(y, a, b), indist_fast.cov_auc(y, a, b, method="obuchowski")]
    np.testing.assert_allclose(ours, values, rtol=1e-9, atol=1e-15)


def _check_bootstrap(name, values):
    y, a, b = data_sets()[name]
    var = indist_fast.var_auc(y, a, method="bootstrap", n_boot=2000, seed=3)
    cov = indist_fast.cov_auc(y, a, b, method="bootstrap", n_boot=2000, seed=3)
    # 2000 replicates each side: the variance's relative error is about 3% per side
    assert var == pytest.approx(values[0], rel=0.2)
    assert cov == pytest.approx(values[1], rel=0.3)


@pytest.mark.parametrize("name", SETS)
def test_pinned_exact(backend, name):
    _check_exact(name, PINNED[name]["exact"])


@pytest.mark.parametrize("name", SETS)
def test_pinned_bootstrap(name):
    # (the default backend: the NumPy twin's replicates are checked against it in
    # tests/core, and 2000 of them take seconds there)
    _check_bootstrap(name, PINNED[name]["bootstrap"])


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
def test_live_exact(name):
    _check_exact(name, r_numbers(r_code(R_CODE["exact"], name)))


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
def test_live_bootstrap(name):
    _check_bootstrap(name, r_numbers(r_code(R_CODE["bootstrap"], name)))


def _placements(y, s):
    """DeLong's placement values by brute force over every pair (ties one half)."""
    pos, neg = s[y == 1], s[y == 0]
    wins = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return wins.mean(axis=1), wins.mean(axis=0)


@pytest.mark.parametrize("name", SETS)
def test_delong_covariance_by_brute_force(backend, name):
    y, a, b = data_sets()[name]
    xa, ya = _placements(y, a)
    xb, yb = _placements(y, b)
    expected = np.cov(xa, xb)[0, 1] / len(xa) + np.cov(ya, yb)[0, 1] / len(ya)
    assert indist_fast.cov_auc(y, a, b) == pytest.approx(expected, rel=1e-10, abs=1e-16)
    assert indist_fast.cov_auc(y, a, a) == pytest.approx(indist_fast.var_auc(y, a), rel=1e-12)


def test_bootstrap_is_seeded_and_paired(backend):
    y, a, b = data_sets()["tied"]
    one = indist_fast.var_auc(y, a, method="bootstrap", n_boot=300, seed=5)
    assert one == indist_fast.var_auc(y, a, method="bootstrap", n_boot=300, seed=5)
    assert one != indist_fast.var_auc(y, a, method="bootstrap", n_boot=300, seed=6)
    # the same model twice: paired draws make the covariance the variance
    cov = indist_fast.cov_auc(y, a, a, method="bootstrap", n_boot=300, seed=5)
    assert cov == pytest.approx(one, rel=1e-12)


@pytest.mark.parametrize("method", ["delong", "obuchowski"])
def test_weights_count_as_copies(backend, method):
    y, a, b = data_sets()["tied"]
    w = np.arange(len(y)) % 3
    assert indist_fast.var_auc(y, a, sample_weight=w, method=method) == pytest.approx(
        indist_fast.var_auc(np.repeat(y, w), np.repeat(a, w), method=method), rel=1e-10)
    assert indist_fast.cov_auc(y, a, b, sample_weight=w, method=method) == pytest.approx(
        indist_fast.cov_auc(np.repeat(y, w), np.repeat(a, w), np.repeat(b, w),
                            method=method), rel=1e-10)


def test_direction_lower_is_the_negated_scores():
    y, a, b = data_sets()["binormal"]
    for method in ("delong", "obuchowski"):
        assert indist_fast.var_auc(y, -a, direction="lower", method=method) == pytest.approx(
            indist_fast.var_auc(y, a, method=method), rel=1e-12)
    with pytest.warns(indist_fast.DirectionWarning):
        indist_fast.cov_auc(y, -a, b, direction="auto")


@pytest.mark.parametrize("kwargs, error, match", [
    ({"method": "hanley"}, ValueError, "method"),
    ({"method": "bootstrap", "n_boot": 1}, ValueError, "n_boot"),
    ({"method": "bootstrap", "n_boot": 10.0}, TypeError, "n_boot"),
    ({"method": "bootstrap", "stratified": "yes"}, TypeError, "stratified"),
    ({"direction": ">="}, ValueError, "direction"),
])
def test_bad_arguments(kwargs, error, match):
    y, a, b = data_sets()["tiny"]
    with pytest.raises(error, match=match):
        indist_fast.var_auc(y, a, **kwargs)
    with pytest.raises(error, match=match):
        indist_fast.cov_auc(y, a, b, **kwargs)


def test_bad_data():
    with pytest.raises(ValueError):
        indist_fast.var_auc([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="score_b"):
        indist_fast.cov_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [0.1, np.nan, 0.3, 0.4])
    with pytest.raises(ValueError, match="smoothed"):
        indist_fast.var_auc([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4], method="obuchowski")


def test_inputs_unchanged():
    y, a, b = data_sets()["tiny"]
    copies = [v.copy() for v in (y, a, b)]
    indist_fast.cov_auc(y, a, b, method="obuchowski", direction="lower")
    indist_fast.var_auc(y, a, method="bootstrap", n_boot=20, direction="lower")
    assert all(np.array_equal(u, v) for u, v in zip((y, a, b), copies))
