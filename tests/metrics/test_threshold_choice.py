"""Threshold choice methods (SPEC §7): identities, direct integration, hull, curves."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
import indist_fast
import indist_fast.metrics.threshold_choice as tc
from indist_fast import IndistFastWarning

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def probability_rows(draw, max_n=30):
    """Scores in [0, 1] on a grid of twentieths (ties), both classes, maybe weights."""
    n = draw(st.integers(2, max_n))
    s = np.array(draw(st.lists(st.integers(0, 20), min_size=n, max_size=n))) / 20
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    y[0], y[1] = True, False
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), float)
        w[0], w[1] = max(w[0], 1), max(w[1], 1)
    return y, s, w


def weights(s, w):
    return np.ones(len(s)) if w is None else np.asarray(w, float)


def pis(y, w, condition):
    wt = weights(y, w)
    pi1 = wt[y].sum() / wt.sum()
    return (0.5, 0.5) if condition == "skew" else (pi1, 1 - pi1)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


# --- an independent oracle: Q(c) straight from the rows -------------------------------------

def rates_at(y, s, w, t):
    """(fnr, fpr) predicting positive where s >= t."""
    wt = weights(s, w)
    lab = s >= t
    return 1 - wt[y & lab].sum() / wt[y].sum(), wt[~y & lab].sum() / wt[~y].sum()


def rates_at_rate(y, s, w, q, condition):
    """(fnr, fpr) at predicted positive rate q, a tied group split at random."""
    p1, p0 = pis(y, w, condition)
    tpr_pts, fpr_pts = [0.0], [0.0]
    for t in np.unique(s)[::-1]:
        fnr, fpr = rates_at(y, s, w, t)
        tpr_pts.append(1 - fnr)
        fpr_pts.append(fpr)
    tpr_pts, fpr_pts = np.array(tpr_pts), np.array(fpr_pts)
    rate = p1 * tpr_pts + p0 * fpr_pts
    return 1 - np.interp(q, rate, tpr_pts), np.interp(q, rate, fpr_pts)


def q_of(c, fnr, fpr, condition, y, w):
    p1, p0 = pis(y, w, condition)
    return 2 * (c * p1 * fnr + (1 - c) * p0 * fpr)


def direct_loss(y, s, w, method, condition, density, t=None, q=None, grid=4001):
    """Midpoint rule over c (and over t or q where the method draws one)."""
    c = (np.arange(grid) + 0.5) / grid
    dens = density(c)
    if method in ("score-fixed", "indistinguishability"):
        vals = q_of(c, *rates_at(y, s, w, t), condition, y, w)
    elif method == "rate-fixed":
        vals = q_of(c, *rates_at_rate(y, s, w, q, condition), condition, y, w)
    elif method == "score-uniform":
        u = (np.arange(801) + 0.5) / 801
        fnr, fpr = np.mean([rates_at(y, s, w, x) for x in u], axis=0)
        vals = q_of(c, fnr, fpr, condition, y, w)
    elif method == "rate-uniform":
        u = (np.arange(801) + 0.5) / 801
        fnr, fpr = np.mean([rates_at_rate(y, s, w, x, condition) for x in u], axis=0)
        vals = q_of(c, fnr, fpr, condition, y, w)
    elif method == "score-driven":
        vals = np.array([q_of(x, *rates_at(y, s, w, 1 - x), condition, y, w) for x in c])
    elif method == "rate-driven":
        vals = np.array([q_of(x, *rates_at_rate(y, s, w, x, condition), condition, y, w)
                         for x in c])
    elif method == "optimal":           # the best of every operating point, no hull
        points = [rates_at(y, s, w, x) for x in np.r_[np.inf, np.unique(s)]]
        vals = np.min([q_of(c, fnr, fpr, condition, y, w) for fnr, fpr in points], axis=0)
    return float(np.mean(vals * dens))


UNIFORM = lambda c: np.ones_like(c)           # noqa: E731


def beta_density(a, b):
    from scipy.stats import beta
    return lambda c: beta.pdf(c, a, b)


# --- identities, exact -------------------------------------------------------------------------

@pytest.mark.slow
@SETTINGS
@given(case=probability_rows(), t=st.integers(0, 20))
def test_identities_cost_condition(backend, case, t):
    y, s, w = case
    wt = weights(s, w)
    W = wt.sum()
    pi1 = wt[y].sum() / W
    pi0 = 1 - pi1
    auc = oracle.auc(y, s, w)
    loss = lambda m, **k: tc.expected_loss(y, s, m, sample_weight=w, **k)   # noqa: E731
    yf = y.astype(float)
    assert loss("score-driven") == pytest.approx(np.sum(wt * (yf - s) ** 2) / W, abs=1e-12)
    assert loss("score-uniform") == pytest.approx(np.sum(wt * np.abs(yf - s)) / W, abs=1e-12)
    err = np.sum(wt * ((y & (s < t / 20)) | (~y & (s >= t / 20)))) / W
    assert loss("score-fixed", t=t / 20) == pytest.approx(err, abs=1e-12)
    assert loss("rate-uniform") == pytest.approx(0.5 + pi0 * pi1 * (1 - 2 * auc), abs=1e-12)
    assert loss("rate-driven") == pytest.approx(1 / 3 + pi0 * pi1 * (1 - 2 * auc), abs=1e-12)
    assert loss("optimal") == pytest.approx(tc.refinement_loss(y, s, sample_weight=w),
                                            abs=1e-12)
    assert tc.brier_score(y, s, sample_weight=w) == pytest.approx(loss("score-driven"),
                                                                  abs=1e-12)
    assert tc.mean_absolute_error(y, s, sample_weight=w) == pytest.approx(
        loss("score-uniform"), abs=1e-12)


@pytest.mark.slow
@SETTINGS
@given(case=probability_rows(), t=st.integers(0, 20))
def test_identities_skew_condition(backend, case, t):
    y, s, w = case
    wt = weights(s, w)
    auc = oracle.auc(y, s, w)
    yf = y.astype(float)

    def macro(values):
        return 0.5 * (np.sum((wt * values)[y]) / wt[y].sum()
                      + np.sum((wt * values)[~y]) / wt[~y].sum())

    loss = lambda m, **k: tc.expected_loss(y, s, m, sample_weight=w, condition="skew", **k)  # noqa
    assert loss("score-driven") == pytest.approx(macro((yf - s) ** 2), abs=1e-12)
    assert loss("score-uniform") == pytest.approx(macro(np.abs(yf - s)), abs=1e-12)
    fnr, fpr = rates_at(y, s, w, t / 20)
    assert loss("score-fixed", t=t / 20) == pytest.approx((fnr + fpr) / 2, abs=1e-12)
    assert loss("rate-uniform") == pytest.approx(0.5 + 0.25 * (1 - 2 * auc), abs=1e-12)
    assert loss("rate-driven") == pytest.approx(1 / 3 + 0.25 * (1 - 2 * auc), abs=1e-12)


# --- every method against direct numerical integration -------------------------------------

METHOD_ARGS = [("score-fixed", {"t": 0.45}), ("score-uniform", {}), ("score-driven", {}),
               ("rate-fixed", {"q": 0.37}), ("rate-uniform", {}), ("rate-driven", {}),
               ("optimal", {}), ("indistinguishability", {})]


@pytest.mark.slow
@pytest.mark.parametrize("condition", ["cost", "skew"])
@pytest.mark.parametrize("distribution", [None, (2.0, 3.0), (0.7, 0.9)])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("method, kwargs", METHOD_ARGS, ids=[m for m, _ in METHOD_ARGS])
def test_methods_equal_direct_integration(backend, method, kwargs, condition, distribution,
                                          weighted):
    g = np.random.default_rng(3)
    n = 40
    y = g.random(n) < 0.4
    s = np.round(np.clip(0.35 + 0.3 * y + g.normal(0, 0.2, n), 0, 1), 1)   # ties
    w = g.integers(0, 4, n).astype(float) if weighted else None
    if w is not None:
        w[np.flatnonzero(y)[0]] = w[np.flatnonzero(~y)[0]] = 1.0
    density = UNIFORM if distribution is None else beta_density(*distribution)
    args = dict(kwargs)
    if method == "indistinguishability":
        args["t"] = quiet(indist_fast.evaluate, y, s, sample_weight=w).threshold
    got = tc.expected_loss(y, s, method, condition=condition, cost_distribution=distribution,
                           sample_weight=w, **kwargs)
    want = direct_loss(y, s, w, method, condition, density, **args)
    # the grid's error: a step per breakpoint of c, and Beta(0.7, .) is unbounded at 0
    assert got == pytest.approx(want, abs=3e-3 if distribution == (0.7, 0.9) else 1e-3)


def test_beta_one_one_equals_uniform():
    d = tc.CostDistribution(1.0, 1.0)
    lo, hi = np.array([0.0, 0.1, 0.5]), np.array([0.3, 0.7, 1.0])
    np.testing.assert_allclose(d._beta_moments(lo, hi), d.partial_moments(lo, hi),
                               rtol=1e-12)
    g = np.random.default_rng(4)
    y = g.random(200) < 0.3
    s = np.clip(0.3 * y + g.random(200) * 0.7, 0, 1)
    for method, kwargs in METHOD_ARGS:
        a = tc.expected_loss(y, s, method, cost_distribution=None, **kwargs)
        b = tc.expected_loss(y, s, method, cost_distribution=(1.0, 1.0 + 1e-12), **kwargs)
        assert b == pytest.approx(a, rel=1e-9), method


# --- hull, curves, calibration -------------------------------------------------------------------

@pytest.mark.slow
@SETTINGS
@given(case=probability_rows())
def test_hull_is_convex_and_holds_every_optimal_point(backend, case):
    y, s, w = case
    hull = tc.roc_convex_hull(y, s, sample_weight=w)
    assert hull.fpr[0] == 0 and hull.tpr[0] == 0 and hull.fpr[-1] == 1 and hull.tpr[-1] == 1
    dx, dy = np.diff(hull.fpr), np.diff(hull.tpr)
    cross = dx[:-1] * dy[1:] - dy[:-1] * dx[1:]
    assert np.all(cross < 1e-12)                           # strictly turning right
    c = quiet(indist_fast.curves, y, s, sample_weight=w)
    # every ROC point is on or under the hull
    under = np.interp(c.fpr, hull.fpr, hull.tpr)
    assert np.all(c.tpr <= under + 1e-12)
    # for every cost the best operating point is as good as the best hull vertex
    grid = np.linspace(0, 1, 101)
    p1 = hull.tp[-1] / (hull.tp[-1] + hull.fp[-1])
    all_fnr, all_fpr = np.r_[1.0, 1 - c.tpr], np.r_[0.0, c.fpr]
    best_all = np.min(2 * (np.outer(grid, p1 * all_fnr) + np.outer(1 - grid, (1 - p1) * all_fpr)),
                      axis=1)
    best_hull = np.min(2 * (np.outer(grid, p1 * (1 - hull.tpr))
                            + np.outer(1 - grid, (1 - p1) * hull.fpr)), axis=1)
    np.testing.assert_allclose(best_hull, best_all, atol=1e-12)


def test_cost_curves_envelope_is_the_lowest_line(backend):
    g = np.random.default_rng(5)
    y = g.random(300) < 0.3
    s = np.round(g.normal(size=300) + y, 1)
    cc = tc.cost_curves(y, s)
    assert len(cc.intercept) == len(np.unique(s)) + 1
    grid = np.linspace(0, 1, 201)
    lowest = cc(grid).min(axis=0)
    np.testing.assert_allclose(np.interp(grid, cc.envelope_c, cc.envelope_loss), lowest,
                               atol=1e-12)
    assert cc.envelope_c[0] == 0 and cc.envelope_c[-1] == 1


def test_brier_curve_integrates_to_the_brier_score(backend):
    g = np.random.default_rng(6)
    y = g.random(500) < 0.4
    s = np.clip(0.4 * y + 0.6 * g.random(500), 0, 1)
    curve = tc.brier_curve(y, s)
    assert curve.expected(tc.CostDistribution()) == pytest.approx(tc.brier_score(y, s),
                                                                  abs=1e-12)
    c = (np.arange(20000) + 0.5) / 20000
    assert np.mean(curve(c)) == pytest.approx(tc.brier_score(y, s), abs=1e-4)
    assert curve(0.25) == pytest.approx(q_of(0.25, *rates_at(y, s, None, 0.75), "cost", y,
                                             None))


def test_hull_calibration_is_isotonic_regression(backend):
    isotonic = pytest.importorskip("sklearn.isotonic")
    g = np.random.default_rng(7)
    y = g.random(400) < 0.35
    s = np.round(g.normal(size=400) + y, 1)
    cal = tc.hull_calibration(y, s)
    assert np.all(np.diff(cal.probability) <= 1e-12)
    pav = isotonic.IsotonicRegression(increasing=True).fit(s, y.astype(float))
    grid = np.unique(s)
    np.testing.assert_allclose(cal.predict(grid), pav.predict(grid), atol=1e-12)


def test_compare_methods_table(backend):
    g = np.random.default_rng(8)
    y = g.random(1000) < 0.3
    p = np.clip(0.3 * y + 0.7 * g.random(1000), 0, 1)
    table = tc.compare_methods(y, p)
    assert [r.method for r in table.rows] == list(tc.METHODS)
    for r in table.rows:
        kwargs = {"t": 0.5} if r.method == "score-fixed" else (
            {"q": table.base_rate} if r.method == "rate-fixed" else {})
        assert r.expected_loss == pytest.approx(tc.expected_loss(y, p, r.method, **kwargs),
                                                abs=1e-12)
    assert "refinement loss of the ROC hull" in str(table)
    assert table.to_dict()["rows"][0]["method"] == "score-fixed"
    shifted = tc.compare_methods(y, p * 4 - 1)             # scores leave [0, 1]
    assert math.isnan(shifted["score-driven"].expected_loss)
    assert shifted["score-driven"].note == "scores outside [0, 1]"
    assert shifted["rate-driven"].expected_loss == pytest.approx(
        table["rate-driven"].expected_loss, abs=1e-12)      # ranks unchanged


@pytest.mark.parametrize("call, error, message", [
    (lambda y, s: tc.expected_loss(y, s, "cheapest"), ValueError, "method must be one of"),
    (lambda y, s: tc.expected_loss(y, s, "score-fixed"), ValueError, "needs the threshold t"),
    (lambda y, s: tc.expected_loss(y, s, "rate-fixed"), ValueError, "needs the predicted"),
    (lambda y, s: tc.expected_loss(y, s, "rate-fixed", q=1.5), ValueError, "q must lie in"),
    (lambda y, s: tc.expected_loss(y, s, "optimal", condition="risk"), ValueError,
     "condition must be 'cost' or 'skew'"),
    (lambda y, s: tc.expected_loss(y, s, "optimal", cost_distribution=(0, 1)), ValueError,
     "a must be positive"),
    (lambda y, s: tc.expected_loss(y, s, "optimal", cost_distribution="beta"), TypeError,
     "cost_distribution must be None"),
    (lambda y, s: tc.expected_loss(y, s * 3, "score-driven"), ValueError,
     r"score-driven needs scores in \[0, 1\]"),
    (lambda y, s: tc.brier_score(y, s - 1), ValueError, r"brier_score needs scores in \[0, 1\]"),
])
def test_bad_arguments(backend, call, error, message):
    with pytest.raises(error, match=message):
        call(np.array([0, 1, 1, 0]), np.array([0.1, 0.9, 0.4, 0.3]))


def test_cli_losses(tmp_path, capsys):
    from indist_fast.cli import main
    g = np.random.default_rng(9)
    y = (g.random(200) < 0.3).astype(int)
    p = np.clip(0.3 * y + 0.7 * g.random(200), 0, 1)
    np.savez(tmp_path / "d.npz", y=y, p=p)
    assert main(["losses", str(tmp_path / "d.npz"), "--label", "y", "--score", "p"]) == 0
    out = capsys.readouterr().out
    assert f"{tc.expected_loss(y, p, 'optimal'):.6f}" in out
    assert main(["losses", str(tmp_path / "d.npz"), "--label", "y", "--score", "p",
                 "--beta", "2", "3", "--json"]) == 0
    assert '"b": 3.0' in capsys.readouterr().out


def test_cost_curves_carry_the_brier_curve(backend):
    g = np.random.default_rng(12)
    y = g.random(400) < 0.4
    p = np.clip(0.4 * y + 0.6 * g.random(400), 0, 1)
    cc = tc.cost_curves(y, p)
    grid = np.linspace(0, 1, 51)
    np.testing.assert_allclose(cc.brier(grid), tc.brier_curve(y, p)(grid), atol=1e-12)
    assert tc.cost_curves(y, p * 3).brier is None


# --- regressions: weights of any scale, -0.0, errors naming their argument -------

def _all_quantities(y, s, w):
    """Every threshold-choice quantity that is invariant to scaling all weights."""
    # Vertex lists are compared as curves: weights times a factor round, so a corner
    # collinear at one scale may turn by an ulp at another and be kept.
    grid = np.linspace(0, 1, 41)
    hull = tc.roc_convex_hull(y, s, sample_weight=w)
    cc = tc.cost_curves(y, s, sample_weight=w)
    cal = tc.hull_calibration(y, s, sample_weight=w)
    out = {"hull": np.interp(grid, hull.fpr, hull.tpr),
           "refinement": tc.refinement_loss(y, s, sample_weight=w),
           "envelope": np.interp(grid, cc.envelope_c, cc.envelope_loss),
           "calibration": cal.predict(np.unique(s))}
    for method, kwargs in METHOD_ARGS:
        if method != "indistinguishability":      # B counts weights as copies (SPEC §3)
            out[method] = tc.expected_loss(y, s, method, sample_weight=w, **kwargs)
            out[method + " (beta)"] = tc.expected_loss(
                y, s, method, sample_weight=w, cost_distribution=(2.0, 3.0), **kwargs)
    return out


@pytest.mark.slow
@SETTINGS
@given(case=probability_rows(), factor=st.sampled_from([1e-300, 2.0**-1000 * 3, 0.05,
                                                        1 / 3, 1e200, 1e300]))
def test_quantities_do_not_depend_on_the_scale_of_the_weights(backend, case, factor):
    y, s, w = case
    w = weights(s, w)
    base = _all_quantities(y, s, w)
    scaled = _all_quantities(y, s, w * factor)
    for key, value in base.items():
        np.testing.assert_allclose(scaled[key], value, rtol=1e-12, atol=1e-15, err_msg=key)
    hull = tc.roc_convex_hull(y, s, sample_weight=w * factor)
    # the hull runs exactly from (0, 0) to (1, 1), and reports the caller's own weights
    assert (hull.fpr[0], hull.tpr[0], hull.fpr[-1], hull.tpr[-1]) == (0.0, 0.0, 1.0, 1.0)
    np.testing.assert_allclose(hull.tp[-1], (w * factor)[y].sum(), rtol=1e-12)
    np.testing.assert_allclose(hull.fp[-1], (w * factor)[~y].sum(), rtol=1e-12)


@pytest.mark.parametrize("factor", [1e-300, 1e200])
def test_optimal_loss_with_extreme_weights_equals_direct_integration(backend, factor):
    # the hull's turn test multiplied two tiny (or huge) weight differences: the hull
    # collapsed to the diagonal and the optimal loss became the rate-uniform one
    y = np.array([0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0], bool)
    s = np.array([0.6, 0.0, 0.9, 0.0, 0.8, 0.1, 0.6, 0.7, 0.2, 0.6, 0.0, 0.1])
    w = np.full(12, factor)
    want = direct_loss(y, s, w, "optimal", "cost", UNIFORM)
    assert tc.expected_loss(y, s, "optimal", sample_weight=w) == pytest.approx(want, abs=1e-6)
    assert tc.refinement_loss(y, s, sample_weight=w) == pytest.approx(want, abs=1e-6)
    cc = tc.cost_curves(y, s, sample_weight=w)
    np.testing.assert_allclose(cc(cc.envelope_c).min(axis=0), cc.envelope_loss, atol=1e-12)
    # r_b still comes from B with the caller's weights (not invariant to their scale)
    r_b = quiet(indist_fast.evaluate, y, s, sample_weight=w).threshold
    got = tc.expected_loss(y, s, "indistinguishability", sample_weight=w)
    if math.isnan(r_b):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(direct_loss(y, s, w, "score-fixed", "cost", UNIFORM,
                                                t=r_b), abs=1e-6)


def test_negative_zero_is_shown_as_zero(backend):
    y = np.arange(12) % 3 == 0
    s = np.where(np.arange(12) % 2, -0.0, 0.0)
    table = tc.compare_methods(y, s, t=-0.0)
    assert table["indistinguishability"].setting == "t=r_b=0"
    assert table["score-fixed"].setting == "t=0"
    assert "-0" not in str(table)
    with pytest.raises(ValueError, match=r"from -0\.9 to 0\."):
        tc.brier_score(y, -np.linspace(0, 0.9, 12))


@pytest.mark.parametrize("call", [
    lambda y, s: tc.brier_score(y, s),
    lambda y, s: tc.mean_absolute_error(y, s),
    lambda y, s: tc.brier_curve(y, s),
    lambda y, s: tc.expected_loss(y, s, "score-driven"),
    lambda y, s: tc.expected_loss(y, s, "score-uniform"),
    lambda y, s: tc.loss_curve(y, s, "score-uniform"),
    lambda y, s: tc.expected_loss(y, s, "score-driven", cost_distribution=(2, 3)),
], ids=["brier_score", "mean_absolute_error", "brier_curve", "score-driven",
        "score-uniform", "loss_curve", "score-driven-beta"])
@pytest.mark.parametrize("scores", [[0.0, 9.0, 4.0, 3.0], [-np.inf, 0.5, 0.2, np.inf]])
def test_score_range_errors_name_y_score(backend, call, scores):
    with pytest.raises(ValueError, match=r"^y_score: .* needs scores in \[0, 1\]"):
        call(np.array([0, 1, 1, 0]), np.array(scores))


def test_calibration_and_loss_curve_arguments_are_checked(backend):
    y, s = np.array([0, 1, 1, 0]), np.array([0.1, 0.9, 0.4, 0.3])
    cal = tc.hull_calibration(y, s)
    with pytest.raises(ValueError, match="scores must be a scalar or 1-d"):
        cal.predict([[0.1, 0.2]])
    assert cal.predict(0.95) == cal.predict([0.95])[0]
    curve = tc.brier_curve(y, s)
    for bad in ("uniform", (1, 1), None):
        with pytest.raises(TypeError, match="distribution must be a CostDistribution"):
            curve.expected(bad)
