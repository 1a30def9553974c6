"""Both backends against brute-force pair enumeration, for every Curves and Report field."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from cases import rows
import indist_fast
from indist_fast import LevelNotReachedWarning, UndefinedBWarning

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
CURVE_FIELDS = ("thresholds", "tp", "fp", "tpr", "fpr", "precision", "f1",
                "b", "b_plus", "b_minus")


def quiet(fn, *args, **kwargs):
    """Call, returning the result and the library warnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, [w.category for w in caught]


@pytest.mark.slow
@SETTINGS
@given(case=rows(), exclude_self=st.booleans())
def test_curves_equal_pair_enumeration(backend, case, exclude_self):
    y, s, w = case
    got, caught = quiet(indist_fast.curves, y, s, sample_weight=w, exclude_self=exclude_self)
    want = oracle.curves(y, s, w, exclude_self)
    for name in CURVE_FIELDS:
        np.testing.assert_allclose(getattr(got, name), want[name], rtol=1e-12, atol=1e-12,
                                   equal_nan=True, err_msg=name)
    assert (UndefinedBWarning in caught) == bool(np.isnan(want["b"]).any())


@pytest.mark.slow
@SETTINGS
@given(case=rows(), levels=st.lists(st.sampled_from([0.2, 0.4, 0.5, 0.6, 0.75, 0.9]),
                                    min_size=1, max_size=3, unique=True))
def test_report_equals_pair_enumeration(backend, case, levels):
    y, s, w = case
    report, caught = quiet(indist_fast.evaluate, y, s, sample_weight=w, levels=levels)
    c = oracle.curves(y, s, w)
    wp, wn = (np.ones(len(s)) if w is None else w)[y].sum(), (
        np.ones(len(s)) if w is None else w)[~y].sum()
    assert report.n_rows == len(s)
    assert report.weight_pos == wp and report.weight_neg == wn
    assert report.n_thresholds == len(c["thresholds"])
    np.testing.assert_allclose(report.base_rate, wp / (wp + wn), rtol=1e-12)
    np.testing.assert_allclose(report.auc, oracle.auc(y, s, w), rtol=1e-12)
    np.testing.assert_allclose(report.average_precision, oracle.average_precision(y, s, w),
                               rtol=1e-12)
    missed = False
    for level in set(levels) | {0.5}:
        point = report.at[level] if level in report.at else None
        if point is None:          # 0.5 not requested: the top-level fields hold it
            point = report
        hits = np.flatnonzero(c["b"] >= level)
        if len(hits) == 0:
            missed = True
            assert not point.reached and np.isnan(point.threshold)
            assert np.isnan(point.precision)
            continue
        j = hits[0]
        assert point.reached
        assert point.threshold == c["thresholds"][j]
        for field, key in (("b", "b"), ("precision", "precision"), ("tpr", "tpr"),
                           ("fpr", "fpr"), ("f1", "f1")):
            np.testing.assert_allclose(getattr(point, field), c[key][j], rtol=1e-12,
                                       atol=1e-12, err_msg=field)
        np.testing.assert_allclose(point.lift, c["precision"][j] / report.base_rate,
                                   rtol=1e-12)
        if point is not report:
            assert (point.tp, point.fp) == (c["tp"][j], c["fp"][j])
    assert (LevelNotReachedWarning in caught) == missed
    at_half = report.at.get(0.5)
    if at_half is not None:
        assert report.threshold == at_half.threshold or not report.reached


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(case=rows(weighted=True), exclude_self=st.booleans())
def test_weighted_oracle_equals_copy_enumeration(case, exclude_self):
    """The weighted-pair oracle itself obeys the frequency-weight rule of SPEC §1."""
    y, s, w = case
    thresholds, b = oracle.curves_by_copies(y, s, w, exclude_self)
    want = oracle.curves(y, s, w, exclude_self)
    np.testing.assert_array_equal(thresholds, want["thresholds"])
    np.testing.assert_allclose(b, want["b"], rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("exclude_self", [True, False])
def test_scalar_functions_equal_report(backend, exclude_self):
    rng = np.random.default_rng(1)
    y = rng.random(500) < 0.3
    s = np.round(rng.normal(size=500) + y, 1)
    report = indist_fast.evaluate(y, s, exclude_self=exclude_self, levels=(0.5,))
    assert indist_fast.roc_auc(y, s) == pytest.approx(report.auc, rel=1e-12)
    assert indist_fast.average_precision(y, s) == pytest.approx(report.average_precision,
                                                                rel=1e-12)
    assert indist_fast.indistinguishability_threshold(
        y, s, exclude_self=exclude_self) == report.threshold
    assert indist_fast.precision_at_indistinguishability(
        y, s, exclude_self=exclude_self) == pytest.approx(report.precision, rel=1e-12)
    assert report.threshold == oracle.level_point(y, s, exclude_self=exclude_self)[0]
