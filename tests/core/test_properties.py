"""Identities the SPEC says must hold exactly: weights as copies, merging, B's shape."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cases import rows
from reports import assert_reports_equal
import indist_fast
from indist_fast import IndistFastWarning, ScoreTable

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def _report(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return indist_fast.evaluate(*args, **kwargs)


def _curves(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return indist_fast.curves(*args, **kwargs)


@pytest.mark.slow
@SETTINGS
@given(case=rows(weighted=True), exclude_self=st.booleans())
def test_weighted_equals_repeated_rows(backend, case, exclude_self):
    y, s, w = case
    reps = w.astype(int)
    a = _report(y, s, sample_weight=w, exclude_self=exclude_self)
    b = _report(np.repeat(y, reps), np.repeat(s, reps), exclude_self=exclude_self)
    assert_reports_equal(a, b, skip=("n_rows",))
    ca = _curves(y, s, sample_weight=w, exclude_self=exclude_self)
    cb = _curves(np.repeat(y, reps), np.repeat(s, reps), exclude_self=exclude_self)
    for name in ("thresholds", "tp", "fp", "b", "b_plus", "b_minus", "f1"):
        np.testing.assert_allclose(getattr(ca, name), getattr(cb, name), rtol=1e-12,
                                   equal_nan=True, err_msg=name)


@pytest.mark.slow
@SETTINGS
@given(case=rows(), cut=st.floats(0, 1))
def test_merged_halves_equal_whole(backend, case, cut):
    y, s, w = case
    k = int(cut * len(s))
    parts = [(y[:k], s[:k], None if w is None else w[:k]),
             (y[k:], s[k:], None if w is None else w[k:])]
    tables = [ScoreTable.from_arrays(*p) if len(p[1]) else ScoreTable.empty() for p in parts]
    merged = tables[0].merge(tables[1])
    whole = ScoreTable.from_arrays(y, s, w)
    assert merged.n_rows == whole.n_rows == len(s)
    np.testing.assert_array_equal(merged.scores, whole.scores)
    assert merged.pos.dtype == whole.pos.dtype
    np.testing.assert_allclose(merged.pos, whole.pos, rtol=1e-12)
    np.testing.assert_allclose(merged.neg, whole.neg, rtol=1e-12)
    assert_reports_equal(_report_table(merged), _report_table(whole))


def _report_table(table):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return table.evaluate()


def test_concat_of_many_chunks_equals_whole(backend):
    rng = np.random.default_rng(5)
    y = rng.random(10_000) < 0.3
    s = np.round(rng.normal(size=10_000), 1)
    chunks = [ScoreTable.from_arrays(y[i:i + 777], s[i:i + 777]) for i in range(0, 10_000, 777)]
    merged = ScoreTable.concat(chunks)
    whole = ScoreTable.from_arrays(y, s)
    np.testing.assert_array_equal(merged.scores, whole.scores)
    np.testing.assert_array_equal(merged.pos, whole.pos)
    np.testing.assert_array_equal(merged.neg, whole.neg)


@pytest.mark.slow
@SETTINGS
@given(case=rows(), exclude_self=st.booleans())
def test_b_is_non_decreasing_as_threshold_falls(backend, case, exclude_self):
    y, s, w = case
    b = _curves(y, s, sample_weight=w, exclude_self=exclude_self).b
    b = b[~np.isnan(b)]
    assert np.all(np.diff(b) >= -1e-12)


@pytest.mark.slow
@SETTINGS
@given(case=rows(weighted=False))
def test_b_at_lowest_point_matches_closed_form(backend, case):
    y, s, _ = case
    report = _report(y, s)
    c = _curves(y, s)
    wp, wn = report.weight_pos, report.weight_neg
    if wp + wn > 1:
        want = (wp / 2 + wn * report.auc - 0.5) / (wp + wn - 1)
        np.testing.assert_allclose(c.b[-1], want, rtol=1e-12)
    # all pairs: B(-inf) = (P/2 + N A) / (P + N), the paper's population form
    all_pairs = _curves(y, s, exclude_self=False)
    np.testing.assert_allclose(all_pairs.b[-1], (wp / 2 + wn * report.auc) / (wp + wn),
                               rtol=1e-12)


@pytest.mark.slow
@SETTINGS
@given(case=rows())
def test_b_splits_into_plus_and_minus(backend, case):
    y, s, w = case
    c = _curves(y, s, sample_weight=w)
    np.testing.assert_allclose(c.b, c.b_plus + c.b_minus, rtol=1e-12, atol=1e-15,
                               equal_nan=True)
    # labelled copy positive: the wins among TP copies with the ties of a copy with
    # itself removed are TP (TP - 1) / 2 (SPEC §5: B+ = v C / 2 in the population)
    wp = c.tp[-1]
    den = wp * (c.tp + c.fp) - c.tp
    ok = den > 0
    np.testing.assert_allclose(c.b_plus[ok], (c.tp * (c.tp - 1) / 2)[ok] / den[ok],
                               rtol=1e-12, atol=1e-15)


def test_easy_negatives_raise_auc_but_not_c_rb(backend):
    """The paper's point: AUC grows with easy negatives, C(r_b) does not move much."""
    sets = indist_fast.datasets.nine_datasets(seed=0)
    a, g = indist_fast.evaluate(*sets["a"]), indist_fast.evaluate(*sets["g"])
    assert g.auc > a.auc + 0.01
    assert abs(g.precision - a.precision) < 0.05


def test_report_and_table_pickle(backend):
    y, s = [0, 1, 1, 0, 1], [0.1, 0.9, 0.4, 0.3, 0.4]
    report = indist_fast.evaluate(y, s, levels=(0.5,))
    again = pickle.loads(pickle.dumps(report.to_dict()))
    assert again == report.to_dict()
    table = ScoreTable.from_arrays(y, s)
    t2 = pickle.loads(pickle.dumps(table))
    np.testing.assert_array_equal(t2.scores, table.scores)
    np.testing.assert_array_equal(t2.pos, table.pos)


@pytest.mark.slow
@SETTINGS
@given(case=rows(), levels=st.lists(st.floats(0.05, 0.95), min_size=1, max_size=4,
                                    unique=True), exclude_self=st.booleans())
def test_reached_agrees_with_the_b_column(backend, case, levels, exclude_self):
    """A level is reached at the first point where ``curves(...).b >= level``, with the
    same B: one number, compared once."""
    y, s, w = case
    report = _report(y, s, sample_weight=w, levels=levels, exclude_self=exclude_self)
    c = _curves(y, s, sample_weight=w, exclude_self=exclude_self)
    for level, point in report.at.items():
        hits = np.flatnonzero(c.b >= level)
        assert point.reached == bool(len(hits))
        if len(hits):
            assert point.threshold == c.thresholds[hits[0]]
            assert point.b == c.b[hits[0]]
            assert point.tpr == c.tpr[hits[0]] and point.precision == c.precision[hits[0]]


@pytest.mark.slow
@SETTINGS
@given(case=rows(weighted=True), factor_exp=st.sampled_from([-1060, -700, 0, 700, 990]))
def test_scaling_weights_by_a_power_of_two_keeps_probabilities(backend, case, factor_exp):
    """AUC, AP, precision and the rates are invariant to scaling every weight; with an
    exact power of two and the internal rescale they stay bit for bit the same."""
    y, s, w = case
    a = _report(y, s, sample_weight=w, exclude_self=False)
    b = _report(y, s, sample_weight=np.ldexp(w, factor_exp), exclude_self=False)
    for name in ("auc", "average_precision", "threshold", "precision", "tpr", "fpr",
                 "f1", "b"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
