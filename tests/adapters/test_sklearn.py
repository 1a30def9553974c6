"""AUC, average precision and ROC points equal scikit-learn's where it computes the same."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from cases import rows
import indist_fast

metrics = pytest.importorskip("sklearn.metrics")
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _finite(s):
    # scikit-learn rejects infinite scores; shift them to finite extremes (same order)
    s = np.asarray(s, np.float64).copy()
    big = np.abs(s[np.isfinite(s)]).max(initial=1.0) * 4 + 1
    s[s == np.inf], s[s == -np.inf] = big, -big
    return s


@pytest.mark.slow
@SETTINGS
@given(case=rows())
def test_auc_and_ap_equal_sklearn(backend, case):
    y, s, w = case
    s = _finite(s)
    assert indist_fast.roc_auc(y, s, sample_weight=w) == pytest.approx(
        metrics.roc_auc_score(y, s, sample_weight=w), rel=1e-12, abs=1e-12)
    assert indist_fast.average_precision(y, s, sample_weight=w) == pytest.approx(
        metrics.average_precision_score(y, s, sample_weight=w), rel=1e-12, abs=1e-12)


@pytest.mark.slow
@SETTINGS
@given(case=rows())
def test_roc_points_equal_sklearn(backend, case):
    y, s, w = case
    s = _finite(s)
    fpr, tpr, thresholds = metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.UndefinedBWarning)   # one positive
        c = indist_fast.curves(y, s, sample_weight=w)
    # scikit-learn prepends the point (0, 0) at threshold +inf
    np.testing.assert_allclose(c.thresholds, thresholds[1:], rtol=0)
    np.testing.assert_allclose(c.fpr, fpr[1:], rtol=1e-12)
    np.testing.assert_allclose(c.tpr, tpr[1:], rtol=1e-12)


@pytest.mark.slow
def test_large_input_equals_sklearn(backend):
    rng = np.random.default_rng(11)
    n = 400_000
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + y
    w = rng.random(n)
    assert indist_fast.roc_auc(y, s) == pytest.approx(metrics.roc_auc_score(y, s), rel=1e-12)
    assert indist_fast.roc_auc(y, s, sample_weight=w) == pytest.approx(
        metrics.roc_auc_score(y, s, sample_weight=w), rel=1e-10)
    assert indist_fast.average_precision(y, s) == pytest.approx(
        metrics.average_precision_score(y, s), rel=1e-12)
