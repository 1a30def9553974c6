"""The threshold choice method registry: one entry per method, and what each
entry declares (settings, scores in [0, 1], the score table) is what the public
functions demand and depend on."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest

import indist_fast
import indist_fast.metrics.threshold_choice as tc
from indist_fast.metrics import method_registry
from indist_fast import IndistFastWarning

# Today's messages for a missing setting: tests and the fuzz suite rely on them.
MISSING = {"t": "the threshold t", "q": "the predicted positive rate q"}
DISTRIBUTIONS = [None, (2.0, 3.0)]


@pytest.fixture(scope="module")
def data():
    """Probabilities on a grid of twentieths (ties), weighted, with an r_b."""
    g = np.random.default_rng(21)
    n = 60
    y = g.random(n) < 0.4
    s = np.round(np.clip(0.3 + 0.35 * y + g.normal(0, 0.2, n), 0, 1) * 20) / 20
    w = g.integers(1, 4, n).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        assert not math.isnan(indist_fast.evaluate(y, s, sample_weight=w).threshold)
    return y, s, w


def _settings(spec, t=0.5, q=0.3):
    return {name: value for name, value in (("t", t), ("q", q)) if spec.needs == name}


def test_registry_covers_methods_exactly():
    assert tuple(method_registry.REGISTRY) == tc.METHODS
    assert len(set(tc.METHODS)) == len(tc.METHODS) == 8
    for name, spec in method_registry.REGISTRY.items():
        assert spec.name == name
        assert spec.needs in (None, *MISSING)
    # SPEC §7: score-fixed takes t, rate-fixed q; score-uniform and score-driven read
    # scores as probabilities; everything else is rank-based or thresholded
    assert {m: s.needs for m, s in method_registry.REGISTRY.items() if s.needs} == {
        "score-fixed": "t", "rate-fixed": "q"}
    assert {m for m, s in method_registry.REGISTRY.items() if s.unit_scores} == {
        "score-uniform", "score-driven"}
    # under a uniform c every loss comes from the sweep's sums: compare_methods and
    # expected_loss build no score table (the cost of one evaluate)
    assert not any(s.table_needed(tc.CostDistribution()) for s in method_registry.REGISTRY.values())
    doc = tc.expected_loss.__doc__
    for name in tc.METHODS:
        assert len(re.findall(rf"- ``{name}``", doc)) == 1, name
    assert "{methods}" not in doc


@pytest.mark.parametrize("setting", ["t", "q"])
@pytest.mark.parametrize("method", tc.METHODS)
def test_declared_settings_are_what_the_functions_demand(backend, data, method, setting):
    y, s, w = data
    spec = method_registry.REGISTRY[method]
    given = _settings(spec)
    without = {k: v for k, v in given.items() if k != setting}
    if spec.needs == setting:
        message = f"method {method!r} needs {MISSING[setting]}."
        for fn in (tc.expected_loss, tc.loss_curve):
            with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
                fn(y, s, method, sample_weight=w, **without)
        # the setting is used: another value moves the loss
        other = {setting: {"t": 0.7, "q": 0.6}[setting]}
        assert tc.expected_loss(y, s, method, sample_weight=w, **other) != pytest.approx(
            tc.expected_loss(y, s, method, sample_weight=w, **given), abs=1e-6)
    else:
        # not needed: the setting may be left out, and a value given is ignored
        base = tc.expected_loss(y, s, method, sample_weight=w, **without)
        assert math.isfinite(base)
        assert tc.expected_loss(y, s, method, sample_weight=w, **without,
                                **{setting: 0.25}) == base


def test_compare_methods_needs_t_as_score_fixed_does(backend, data):
    y, s, w = data
    with pytest.raises(ValueError, match=r"^method 'score-fixed' needs the threshold t\.$"):
        tc.compare_methods(y, s, t=None, sample_weight=w)


@pytest.mark.parametrize("method", tc.METHODS)
def test_declared_unit_scores_are_what_the_functions_demand(backend, data, method):
    y, s, w = data
    spec = method_registry.REGISTRY[method]
    # 4 s - 1 is an exact, order-keeping map of the grid: t = 0.5 goes to 1.0
    shifted = 4 * s - 1
    kwargs = _settings(spec)
    shifted_kwargs = {k: (4 * v - 1 if k == "t" else v) for k, v in kwargs.items()}
    table = tc.compare_methods(y, shifted, t=1.0, q=0.3, sample_weight=w)
    if spec.unit_scores:
        pattern = rf"^y_score: {method} needs scores in \[0, 1\]"
        for dist in DISTRIBUTIONS:
            with pytest.raises(ValueError, match=pattern):
                tc.expected_loss(y, shifted, method, sample_weight=w, cost_distribution=dist,
                                 **shifted_kwargs)
        with pytest.raises(ValueError, match=pattern):
            tc.loss_curve(y, shifted, method, sample_weight=w, **shifted_kwargs)
        assert math.isnan(table[method].expected_loss)
        assert table[method].note == "scores outside [0, 1]"
    else:
        # rank-based or thresholded: the order-keeping map changes nothing
        for dist in DISTRIBUTIONS:
            got = tc.expected_loss(y, shifted, method, sample_weight=w, cost_distribution=dist,
                                   **shifted_kwargs)
            want = tc.expected_loss(y, s, method, sample_weight=w, cost_distribution=dist,
                                    **kwargs)
            assert got == pytest.approx(want, abs=1e-12)
        assert table[method].expected_loss == pytest.approx(
            tc.expected_loss(y, s, method, sample_weight=w, **kwargs), abs=1e-12)
        assert table[method].note == ""


@pytest.mark.parametrize("distribution", DISTRIBUTIONS)
@pytest.mark.parametrize("method", tc.METHODS)
def test_declared_table_need_is_what_the_functions_ask_for(backend, data, monkeypatch, method,
                                                           distribution):
    y, s, w = data
    spec = method_registry.REGISTRY[method]
    kwargs = _settings(spec)
    dist = tc.CostDistribution.coerce(distribution)
    real = tc.sweep_context
    asked = []

    def spy(rows, **kw):
        asked.append(kw["need_table"])
        return real(rows, **kw)

    monkeypatch.setattr(tc, "sweep_context", spy)
    loss = tc.expected_loss(y, s, method, sample_weight=w, cost_distribution=distribution,
                            **kwargs)
    curve = tc.loss_curve(y, s, method, sample_weight=w, **kwargs)
    assert asked == [spec.table_needed(dist), spec.needs_table]

    # a table the method did not ask for changes nothing
    def with_table(rows, **kw):
        return real(rows, **{**kw, "need_table": True})

    monkeypatch.setattr(tc, "sweep_context", with_table)
    assert tc.expected_loss(y, s, method, sample_weight=w, cost_distribution=distribution,
                            **kwargs) == pytest.approx(loss, abs=1e-12)
    full = tc.loss_curve(y, s, method, sample_weight=w, **kwargs)
    np.testing.assert_allclose(full.breaks, curve.breaks, atol=1e-12)
    np.testing.assert_allclose(full.coef, curve.coef, atol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("condition", ["cost", "skew"])
@pytest.mark.parametrize("distribution", DISTRIBUTIONS + [(0.7, 0.9)])
@pytest.mark.parametrize("method", tc.METHODS)
def test_expected_loss_is_the_integral_of_the_loss_curve(backend, data, method, distribution,
                                                         condition):
    # for score-driven and rate-driven under a uniform c this checks the closed forms
    # from the sweep's sums against the curves from the table
    y, s, w = data
    kwargs = _settings(method_registry.REGISTRY[method])
    curve = tc.loss_curve(y, s, method, condition=condition, sample_weight=w, **kwargs)
    got = tc.expected_loss(y, s, method, condition=condition, cost_distribution=distribution,
                           sample_weight=w, **kwargs)
    assert got == pytest.approx(curve.expected(tc.CostDistribution.coerce(distribution)),
                                abs=1e-12)


@pytest.mark.parametrize("distribution", [(1.0, 1.0), (2.0, 3.0), (0.7, 0.9), (5, 1)])
def test_one_piece_curves_integrate_as_every_curve_does(distribution):
    # a fixed operating point integrates with the distribution's scalar moments; it must
    # agree with the piecewise path, which sees the same line split at c = 0.3
    pytest.importorskip("scipy")
    dist = tc.CostDistribution(*distribution)
    line = tc.LossCurve.line(0.3, 0.6, 0.35)
    split = tc.LossCurve(np.array([0.0, 0.3, 1.0]), np.vstack([line.coef, line.coef]))
    whole = np.sum(line.coef * dist.partial_moments(line.breaks[:-1], line.breaks[1:]))
    assert line.expected(dist) == pytest.approx(whole, abs=1e-15)
    assert line.expected(dist) == pytest.approx(split.expected(dist), abs=1e-12)
