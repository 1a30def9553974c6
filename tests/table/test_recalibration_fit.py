"""The logistic recalibration fit over a score table: exact where the maximum has a
closed form, undefined (NaN and a reason) exactly where it has no finite maximum."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from indist_fast.table.recalibration_fit import recalibration_fit


def logit(r):
    return math.log(r) - math.log1p(-r)


def fit(p, pos, neg):
    p = np.asarray(p, float)
    return recalibration_fit(p, 1 - p, np.asarray(pos, float), np.asarray(neg, float))


@settings(max_examples=200, deadline=None)
@given(p=st.lists(st.floats(0.01, 0.99), min_size=2, max_size=2, unique=True),
       pos=st.lists(st.integers(1, 50), min_size=2, max_size=2),
       neg=st.lists(st.integers(1, 50), min_size=2, max_size=2))
def test_two_scores_are_fitted_exactly(p, pos, neg):
    # two distinct scores, both classes at each: the line passes through both rates
    assume(abs(p[0] - p[1]) > 1e-3)         # (the closed form divides by their gap)
    x = [logit(v) for v in p]
    r = [a / (a + b) for a, b in zip(pos, neg)]
    slope = (logit(r[1]) - logit(r[0])) / (x[1] - x[0])
    got = fit(p, pos, neg)
    assert got.undefined == ""
    assert got.slope == pytest.approx(slope, rel=1e-9, abs=1e-9)
    assert got.intercept == pytest.approx(logit(r[0]) - slope * x[0], rel=1e-9, abs=1e-9)


def test_calibrated_table_gives_the_identity_line():
    p = np.array([0.1, 0.25, 0.5, 0.8])
    got = fit(p, 1000 * p, 1000 * (1 - p))
    assert got.slope == pytest.approx(1.0, abs=1e-12)
    assert got.intercept == pytest.approx(0.0, abs=1e-12)


def test_the_scale_of_the_weights_does_not_matter():
    p, pos, neg = [0.2, 0.4, 0.7], [1.0, 3.0, 5.0], [6.0, 4.0, 1.0]
    want = fit(p, pos, neg)
    for scale in (1e-250, 1e250):
        got = fit(p, np.multiply(pos, scale), np.multiply(neg, scale))
        assert got.slope == pytest.approx(want.slope, rel=1e-12)
        assert got.intercept == pytest.approx(want.intercept, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("p, pos, neg, reason", [
    ([0.2, 0.6], [0, 0], [1, 2], "only negatives"),
    ([0.2, 0.6], [1, 2], [0, 0], "only positives"),
    ([0.4], [3], [2], "every probability is the same"),
    ([0.2, 0.5, 0.7], [0, 1, 4], [3, 1, 0], "at or above"),      # quasi-complete
    ([0.2, 0.5, 0.7], [3, 0, 0], [0, 1, 4], "at or below"),
])
def test_no_finite_maximum_is_undefined(p, pos, neg, reason):
    got = fit(p, pos, neg)
    assert math.isnan(got.slope) and math.isnan(got.intercept)
    assert reason in got.undefined


def test_clipped_scores_collapse_to_one_value():
    # 0 and 1e-300 clip to the same eps: one distinct x, whatever the labels
    eps = np.finfo(float).eps
    p = np.array([eps, eps])
    got = recalibration_fit(p, 1 - p, np.array([1.0, 0.0]), np.array([0.0, 1.0]))
    assert "every probability is the same" in got.undefined


def test_a_subsample_start_reaches_the_same_maximum(monkeypatch):
    # past 4 SUBSAMPLE entries the fit starts from a strided subsample's maximum; from
    # the usual start it must land on the same point, to float64's resolution
    from indist_fast.table import recalibration_fit as module
    rng = np.random.default_rng(5)
    n = 4 * module.SUBSAMPLE + 1
    p = np.sort(rng.uniform(0.01, 0.99, n))
    pos = (rng.random(n) < 1 / (1 + np.exp(-(0.3 + 1.4 * np.log(p / (1 - p)))))) * 1.0
    got = recalibration_fit(p, 1 - p, pos, 1.0 - pos)
    monkeypatch.setattr(module, "SUBSAMPLE", n)
    want = recalibration_fit(p, 1 - p, pos, 1.0 - pos)
    assert got.undefined == want.undefined == ""
    assert got.slope == pytest.approx(want.slope, rel=1e-12)
    assert got.intercept == pytest.approx(want.intercept, rel=1e-12, abs=1e-12)
    assert 1.2 < got.slope < 1.6


def test_a_step_that_overshoots_is_halved_to_the_maximum():
    # from far off the Newton step overshoots (the gradient turns against it): the
    # likelihood then decides, and the same maximum is reached
    from indist_fast.table.recalibration_fit import BLOCK, _newton
    p = np.array([0.1, 0.3, 0.5, 0.7, 0.9])
    pos, neg = np.array([1.0, 2.0, 2.0, 5.0, 3.0]), np.array([4.0, 3.0, 2.0, 2.0, 1.0])
    want = recalibration_fit(p, 1 - p, pos, neg)
    x = np.log(p / (1 - p))
    shares = pos / 25.0, (pos + neg) / 25.0
    buf = np.empty((3, min(BLOCK, len(x))))
    theta = _newton(x, *shares, np.array([8.0, -12.0]), (0.0, 1.0), buf)
    assert theta is not None
    assert theta[1] == pytest.approx(want.slope, rel=1e-10)
    assert theta[0] == pytest.approx(want.intercept, rel=1e-10, abs=1e-12)
