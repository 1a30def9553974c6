"""compare(): DeLong (paired and unpaired) and the paired bootstrap of metric
differences, several models with Holm, and the one-sort ranking behind them."""

from __future__ import annotations

import math
import warnings
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from cases import rows
import indist_fast
from indist_fast import ScoreTable
from indist_fast._core.validation import prepare_rows
from indist_fast.inference.bootstrap import Resampler
from indist_fast.inference.compare import _holm
from indist_fast.inference.delong import rank_rows

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
Z = NormalDist()


# --- oracles ------------------------------------------------------------------------------

def components_by_pairs(y, s, w):
    """Per copy (rows repeated by their integer weights): V10 of each positive copy and
    V01 of each negative copy, by enumerating every positive-negative pair; the copies
    keep row order within each class."""
    yc, sc = oracle.expand(np.asarray(y, bool), np.asarray(s, np.float64), w)
    pos, neg = sc[yc], sc[~yc]
    wins = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return wins.mean(axis=1), wins.mean(axis=0), wins.mean()


def paired_delong_by_pairs(y, a, b, w):
    """AUC difference and its DeLong variance, O(n^2), straight from the definition."""
    v10a, v01a, auc_a = components_by_pairs(y, a, w)
    v10b, v01b, auc_b = components_by_pairs(y, b, w)
    var = (np.var(v10a - v10b, ddof=1) / len(v10a)
           + np.var(v01a - v01b, ddof=1) / len(v01a))
    return auc_a, auc_b, var


def delong_var_by_pairs(y, s, w):
    """One AUC's DeLong variance, O(n^2)."""
    v10, v01, auc = components_by_pairs(y, s, w)
    return auc, np.var(v10, ddof=1) / len(v10) + np.var(v01, ddof=1) / len(v01)


def weights_or_ones(w, n):
    return np.ones(n) if w is None else np.asarray(w, float)


def enough_copies(y, w):
    wt = weights_or_ones(w, len(y))
    y = np.asarray(y, bool)
    return wt[y].sum() > 1 and wt[~y].sum() > 1


@st.composite
def paired_rows(draw):
    """(y, a, b, w): two models' scores of the same rows (ties, ±inf, -0.0, zero weights)."""
    y, a, w = draw(rows(weighted=None, float32=False))
    b = np.array(draw(st.lists(st.sampled_from(list(a) + [0.5, -2.0]), min_size=len(a),
                               max_size=len(a))))
    return y, a, b, w


# --- the ranking ----------------------------------------------------------------------------

@pytest.mark.slow
@SETTINGS
@given(case=rows(both_classes=False))
def test_rank_rows_gives_the_engine_table_and_each_rows_group(backend, case):
    y, s, w = case
    r = prepare_rows(y, s, w)
    ranked = rank_rows(r)
    table = ScoreTable.from_rows(r)
    np.testing.assert_array_equal(ranked.table.scores, table.scores)
    assert ranked.table.pos.dtype == table.pos.dtype
    np.testing.assert_allclose(ranked.table.pos, table.pos, rtol=1e-15)
    np.testing.assert_allclose(ranked.table.neg, table.neg, rtol=1e-15)
    kept = np.flatnonzero(weights_or_ones(w, len(y)) > 0)
    # slots: kept positives in row order, then kept negatives in row order
    expected = np.r_[kept[y[kept]], kept[~y[kept]]]
    np.testing.assert_array_equal(ranked.slots.index, expected)
    np.testing.assert_array_equal(ranked.table.scores[ranked.group],
                                  s[expected].astype(np.float64) + 0.0)


@pytest.mark.parametrize("n", [64, 1000])
def test_rank_rows_resorts_scores_that_share_the_key_prefix(backend, n):
    """Scores 2**-50 apart agree in every bit the key keeps at these sizes: the exact
    re-sort of those runs must still order them."""
    g = np.random.default_rng(n)
    s = 1.0 + g.integers(0, 40, n) * 2.0**-50
    s[::7] = -s[::7]
    y = g.random(n) < 0.4
    r = prepare_rows(y, s)
    ranked = rank_rows(r)
    table = ScoreTable.from_rows(r)
    np.testing.assert_array_equal(ranked.table.scores, table.scores)
    np.testing.assert_array_equal(ranked.table.pos, table.pos)
    np.testing.assert_array_equal(ranked.table.scores[ranked.group], s[ranked.slots.index])


# --- DeLong ---------------------------------------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n", [64, 1000])
def test_paired_delong_orders_scores_that_share_the_key_prefix(backend, threaded, n, weighted):
    """Scores 2**-50 apart share every bit of the engine's sort key: the components must
    still come from the exact order (two key pieces on two threads, lowered thresholds)."""
    g = np.random.default_rng(n)
    a = 1.0 + g.integers(0, 40, n) * 2.0**-50
    a[::7] = -a[::7]
    b = np.where(g.random(n) < 0.5, a, -a)
    y = g.random(n) < 0.4
    w = g.integers(0, 3, n).astype(float) if weighted else None
    d = indist_fast.compare(y, a, b, sample_weight=w, metrics="auc")["auc"]
    auc_a, auc_b, var = paired_delong_by_pairs(y, a, b, weights_or_ones(w, n))
    assert d.estimate_a == pytest.approx(auc_a, rel=1e-12)
    assert d.estimate_b == pytest.approx(auc_b, rel=1e-12)
    assert d.std_error == pytest.approx(math.sqrt(var), rel=1e-9)


@pytest.mark.slow
@SETTINGS
@given(case=paired_rows())
def test_paired_delong_equals_structural_components_by_pairs(backend, case):
    y, a, b, w = case
    if not enough_copies(y, w):
        with pytest.raises(ValueError, match="more than one positive"):
            indist_fast.compare(y, a, b, sample_weight=w, metrics="auc")
        return
    d = indist_fast.compare(y, a, b, sample_weight=w, metrics="auc")["auc"]
    auc_a, auc_b, var = paired_delong_by_pairs(y, a, b, weights_or_ones(w, len(y)))
    assert d.estimate_a == pytest.approx(auc_a, rel=1e-12)
    assert d.estimate_b == pytest.approx(auc_b, rel=1e-12)
    assert d.estimate == pytest.approx(auc_a - auc_b, abs=1e-12)
    se = math.sqrt(max(var, 0.0))
    assert d.std_error == pytest.approx(se, rel=1e-9, abs=1e-12)
    q = Z.inv_cdf(0.975)
    assert d.low == pytest.approx(max(-1.0, auc_a - auc_b - q * se), abs=1e-9)
    assert d.high == pytest.approx(min(1.0, auc_a - auc_b + q * se), abs=1e-9)
    if se > 1e-9:
        z = (auc_a - auc_b) / se
        assert d.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), rel=1e-6,
                                          abs=1e-12)
    # the same numbers as delong_test
    t = indist_fast.delong_test(y, a, b, sample_weight=w)
    assert t.std_error == pytest.approx(d.std_error, rel=1e-12, abs=1e-15)


@pytest.mark.slow
@SETTINGS
@given(first=rows(weighted=None, float32=False), second=rows(weighted=None))
def test_unpaired_delong_is_the_sum_of_two_independent_variances(backend, first, second):
    (ya, sa, wa), (yb, sb, wb) = first, second
    set_a = (ya, sa) if wa is None else (ya, sa, wa)
    set_b = (yb, sb) if wb is None else (yb, sb, wb)
    if not (enough_copies(ya, wa) and enough_copies(yb, wb)):
        with pytest.raises(ValueError, match="more than one positive"):
            indist_fast.compare(set_a, set_b, paired=False, metrics="auc")
        return
    d = indist_fast.compare(set_a, set_b, paired=False, metrics="auc")["auc"]
    auc_a, var_a = delong_var_by_pairs(ya, sa, weights_or_ones(wa, len(ya)))
    auc_b, var_b = delong_var_by_pairs(yb, sb.astype(np.float64), weights_or_ones(wb, len(yb)))
    assert d.estimate == pytest.approx(auc_a - auc_b, abs=1e-12)
    assert d.std_error == pytest.approx(math.sqrt(var_a + var_b), rel=1e-9, abs=1e-12)


def test_unpaired_delong_on_the_same_rows_ignores_their_covariance():
    g = np.random.default_rng(3)
    y = g.random(300) < 0.4
    a = y + g.normal(size=300)
    b = a + 0.3 * g.normal(size=300)
    paired = indist_fast.compare(y, a, b, metrics="auc")["auc"]
    unpaired = indist_fast.compare(y, a, b, metrics="auc", paired=False)["auc"]
    va = indist_fast.delong(y, a).variance
    vb = indist_fast.delong(y, b).variance
    assert unpaired.std_error == pytest.approx(math.sqrt(va + vb), rel=1e-12)
    assert paired.std_error < 0.5 * unpaired.std_error     # strongly correlated models


def test_identical_models_differ_by_nothing():
    g = np.random.default_rng(4)
    y = g.random(200) < 0.5
    s = np.round(g.normal(size=200) + y, 1)
    c = indist_fast.compare(y, s, s, metrics=("auc", "precision"), n_boot=50, seed=0)
    assert c["auc"].estimate == 0 and c["auc"].std_error == 0 and c["auc"].p_value == 1
    assert c["precision"].estimate == 0 and c["precision"].p_value == 1
    assert not np.any(c["precision"].replicates)


# --- the paired bootstrap -------------------------------------------------------------------

def replicate_rows(y, w, k, seed, stratified=True):
    """Rows of replicate ``k``, rebuilt from the documented derivation: slots are the
    rows of weight > 0, positives then negatives in row order, drawn as a Resampler
    with that seed draws (the draws depend on the slot counts alone)."""
    wt = weights_or_ones(w, len(y))
    kept = np.flatnonzero(wt > 0)
    pos, neg = kept[y[kept]], kept[~y[kept]]
    table = ScoreTable.from_arrays([0, 1], [0.0, 0.0])          # any one-group table
    resampler = Resampler(table, np.zeros(len(pos), np.int64), None,
                          np.zeros(len(neg), np.int64), None, stratified=stratified,
                          seed=seed)
    pos_counts, neg_counts = resampler.counts(k)
    return np.r_[np.repeat(pos, pos_counts), np.repeat(neg, neg_counts)]


def metrics_of(y, s, w, level=0.5):
    with warnings.catch_warnings():     # a level not reached is NaN, as in the replicates
        warnings.simplefilter("ignore", indist_fast.LevelNotReachedWarning)
        report = indist_fast.evaluate(y, s, sample_weight=w, levels=(level,))
    point = report.at[level]
    return {"auc": report.auc, "average_precision": report.average_precision,
            "precision": point.precision, "threshold": point.threshold}


@pytest.mark.parametrize("weighted", [False, True])
def test_paired_replicates_are_evaluate_on_the_same_resampled_rows(backend, weighted):
    g = np.random.default_rng(5)
    n = 80
    y = g.random(n) < 0.35
    a = np.round(y + g.normal(size=n), 1)
    b = np.round(0.8 * y + g.normal(size=n), 1)
    w = g.integers(0, 3, n).astype(float) if weighted else None
    names = ("auc", "average_precision", "precision", "threshold")
    c = indist_fast.compare(y, a, b, sample_weight=w, metrics=names, method="bootstrap",
                            n_boot=12, seed=123)
    assert c.seed_entropy == 123 and c.n_boot == 12
    for k in (0, 5, 11):
        idx = replicate_rows(y, w, k, 123)
        wk = None if w is None else w[idx]
        ma, mb = metrics_of(y[idx], a[idx], wk), metrics_of(y[idx], b[idx], wk)
        for m in names:
            assert c[m].replicates[k] == pytest.approx(ma[m] - mb[m], abs=1e-12,
                                                       nan_ok=True), (m, k)
    full_a, full_b = metrics_of(y, a, w), metrics_of(y, b, w)
    for m in names:
        assert c[m].estimate_a == pytest.approx(full_a[m], abs=1e-15, nan_ok=True)
        assert c[m].estimate_b == pytest.approx(full_b[m], abs=1e-15, nan_ok=True)


def test_unpaired_replicates_draw_each_set_from_its_own_stream(backend):
    g = np.random.default_rng(6)
    ya, yb = g.random(50) < 0.4, g.random(70) < 0.3
    sa, sb = ya + g.normal(size=50), yb + g.normal(size=70)
    c = indist_fast.compare((ya, sa), (yb, sb), paired=False, metrics="auc",
                            method="bootstrap", n_boot=5, seed=9)
    seed = np.random.SeedSequence(9)
    for k in range(5):
        ia = replicate_rows(ya, None, k, np.random.SeedSequence(9, spawn_key=(0,)))
        ib = replicate_rows(yb, None, k, np.random.SeedSequence(9, spawn_key=(1,)))
        expected = (indist_fast.roc_auc(ya[ia], sa[ia]) - indist_fast.roc_auc(yb[ib], sb[ib]))
        assert c["auc"].replicates[k] == pytest.approx(expected, abs=1e-12)
    assert seed.entropy == c.seed_entropy


@pytest.mark.slow
def test_bootstrap_interval_and_p_values_follow_their_definitions(backend):
    g = np.random.default_rng(7)
    y = g.random(150) < 0.4
    a = y + g.normal(size=150)
    b = 0.7 * y + g.normal(size=150)
    out = {alt: indist_fast.compare(y, a, b, metrics=("auc", "threshold"),
                                    method="bootstrap", n_boot=300, seed=2,
                                    alternative=alt, confidence=0.9)
           for alt in ("two-sided", "greater", "less")}
    for m in ("auc", "threshold"):
        reps = out["two-sided"][m].replicates
        for alt in ("greater", "less"):
            np.testing.assert_array_equal(out[alt][m].replicates, reps)   # same seed
        ok = reps[~np.isnan(reps)]
        p_greater = (1 + np.sum(ok <= 0)) / (1 + len(ok))
        p_less = (1 + np.sum(ok >= 0)) / (1 + len(ok))
        assert out["greater"][m].p_value == pytest.approx(p_greater)
        assert out["less"][m].p_value == pytest.approx(p_less)
        assert out["two-sided"][m].p_value == pytest.approx(min(1, 2 * min(p_greater, p_less)))
        assert out["two-sided"][m].std_error == pytest.approx(np.std(ok, ddof=1))
        low, high = np.quantile(ok, [0.05, 0.95])
        assert (out["two-sided"][m].low, out["two-sided"][m].high) == pytest.approx((low, high))
        bound = 1.0 if m == "auc" else math.inf
        assert out["greater"][m].low == pytest.approx(np.quantile(ok, 0.1))
        assert out["greater"][m].high == bound
        assert out["less"][m].high == pytest.approx(np.quantile(ok, 0.9))
        assert out["less"][m].low == -bound


def test_delong_one_sided_p_values_and_intervals(backend):
    g = np.random.default_rng(8)
    y = g.random(120) < 0.5
    a = y + g.normal(size=120)
    b = 0.8 * y + g.normal(size=120)
    res = {alt: indist_fast.compare(y, a, b, metrics="auc", alternative=alt)["auc"]
           for alt in ("two-sided", "greater", "less")}
    auc_a, auc_b, var = paired_delong_by_pairs(y, a, b, np.ones(120))
    z = (auc_a - auc_b) / math.sqrt(var)
    assert res["greater"].p_value == pytest.approx(1 - Z.cdf(z), rel=1e-9)
    assert res["less"].p_value == pytest.approx(Z.cdf(z), rel=1e-9)
    assert res["two-sided"].p_value == pytest.approx(2 * min(Z.cdf(z), 1 - Z.cdf(z)), rel=1e-9)
    q = Z.inv_cdf(0.95)
    assert res["greater"].low == pytest.approx(auc_a - auc_b - q * math.sqrt(var))
    assert res["greater"].high == 1.0
    assert res["less"].high == pytest.approx(auc_a - auc_b + q * math.sqrt(var))
    assert res["less"].low == -1.0


# --- coverage -------------------------------------------------------------------------------

def correlated_binormal(n, mu_a, mu_b, rho, g):
    """Two models' scores of the same rows: unit-variance normal noise correlated
    ``rho`` between the models, the positives shifted by ``mu``; true AUC Phi(mu/sqrt2)."""
    y = np.r_[np.ones(n // 2, bool), np.zeros(n - n // 2, bool)]
    e = g.normal(size=(n, 2))
    e[:, 1] = rho * e[:, 0] + math.sqrt(1 - rho * rho) * e[:, 1]
    return y, mu_a * y + e[:, 0], mu_b * y + e[:, 1]


TRUE_DIFF = Z.cdf(1.2 / math.sqrt(2)) - Z.cdf(0.9 / math.sqrt(2))


@pytest.mark.slow
def test_paired_delong_difference_interval_covers_95_percent():
    g = np.random.default_rng(20)
    sims, hits = 1500, 0
    for _ in range(sims):
        y, a, b = correlated_binormal(200, 1.2, 0.9, 0.6, g)
        d = indist_fast.compare(y, a, b, metrics="auc")["auc"]
        hits += d.low <= TRUE_DIFF <= d.high
    assert 0.93 <= hits / sims <= 0.97


@pytest.mark.slow
def test_paired_bootstrap_difference_interval_covers_95_percent():
    g = np.random.default_rng(21)
    sims, hits = 800, 0
    for i in range(sims):
        y, a, b = correlated_binormal(300, 1.2, 0.9, 0.6, g)
        d = indist_fast.compare(y, a, b, metrics="auc", method="bootstrap", n_boot=300,
                                seed=i)["auc"]
        hits += d.low <= TRUE_DIFF <= d.high
    assert 0.93 <= hits / sims <= 0.97


# --- several models -------------------------------------------------------------------------

def test_holm_by_hand():
    p = np.array([0.01, 0.04, 0.03, np.nan])
    # sorted 0.01, 0.03, 0.04 (m = 3): 3 * 0.01, max(0.03, 2 * 0.03), max(0.06, 0.04)
    exact = np.zeros(4, dtype=bool)
    np.testing.assert_allclose(_holm(p, exact)[0][:3], [0.03, 0.06, 0.06])
    assert math.isnan(_holm(p, exact)[0][3])
    np.testing.assert_allclose(_holm(np.array([0.5, 0.4]), exact[:2])[0], [0.8, 0.8])  # capped
    # a bound stays a bound where it sets the running maximum, and only there
    adjusted, bound = _holm(p, np.array([True, False, False, False]))
    assert bound.tolist() == [True, False, False, False]
    adjusted, bound = _holm(np.array([0.01, 0.02]), np.array([False, True]))
    assert bound.tolist() == [False, True]            # 2 * 0.01 = 0.02 <= 0.02 (the bound)


def delong_page(y, a, b):
    return indist_fast.compare(y, a, b, metrics="auc")._repr_html_()


def test_p_values_at_their_floor_print_as_bounds(backend):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    a = y + rng.normal(0, 0.3, 400)                    # far better than b
    b = rng.normal(0, 1, 400)
    d = indist_fast.compare(y, a, b, metrics="auc", method="bootstrap", n_boot=199,
                            seed=0)["auc"]
    assert d.p_is_bound and d.p_value == pytest.approx(2 / 200)
    assert "p < 0.01" in str(d) and "p = " not in str(d)
    y, a, b = (np.tile(v, 20) for v in (y, a, b))      # z beyond 38: p underflows
    delong = indist_fast.compare(y, a, b, metrics="auc")["auc"]
    assert delong.p_value == 0.0 and delong.p_is_bound
    assert "p < 1e-300" in str(delong)
    assert 'data-bound="true">&lt; 1e-300' in delong_page(y, a, b)
    close = indist_fast.compare(y, a, a + rng.normal(0, 0.3, len(a)), metrics="auc")["auc"]
    assert not close.p_is_bound and "p = " in str(close)


@pytest.mark.slow
def test_several_models_give_every_pair_with_holm(backend):
    g = np.random.default_rng(9)
    y = g.random(400) < 0.4
    models = {"x": 1.0 * y + g.normal(size=400), "y": 0.8 * y + g.normal(size=400),
              "z": 0.5 * y + g.normal(size=400)}
    plain = indist_fast.compare(y, models, metrics=("auc", "precision"), n_boot=100, seed=1)
    holm = indist_fast.compare(y, models, metrics=("auc", "precision"), n_boot=100, seed=1,
                               correction="holm")
    assert list(holm) == [("x", "y"), ("x", "z"), ("y", "z")] and holm.models == ("x", "y", "z")
    for (i, j), comparison in holm.pairs.items():
        two = indist_fast.compare(y, models[i], models[j], metrics=("auc", "precision"),
                                  n_boot=100, seed=1)
        for m in ("auc", "precision"):
            assert comparison[m].estimate == two[m].estimate
            assert comparison[m].p_value_unadjusted == two[m].p_value
            assert plain[i, j][m].p_value == two[m].p_value
            np.testing.assert_array_equal(comparison[m].replicates, two[m].replicates)
    for m in ("auc", "precision"):
        raw = [holm[k][m].p_value_unadjusted for k in holm]
        order = np.argsort(raw, kind="stable")
        expected, running = {}, 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (3 - rank) * raw[i]))
            expected[i] = running
        assert [holm[k][m].p_value for k in holm] == pytest.approx(
            [expected[i] for i in range(3)])
    with pytest.raises(KeyError, match="no pair"):
        holm["y", "x"]
    assert "x vs y" in str(holm) and "holm" in str(holm)
    assert set(holm.to_dict()["pairs"]) == {"x vs y", "x vs z", "y vs z"}


def test_unpaired_mapping_of_data_sets(backend):
    g = np.random.default_rng(10)
    sets = {name: (g.random(n) < 0.5, g.normal(size=n)) for name, n in
            (("p", 60), ("q", 80), ("r", 40))}
    c = indist_fast.compare(sets, paired=False, metrics="auc")
    assert list(c) == [("p", "q"), ("p", "r"), ("q", "r")]
    d = c["p", "r"]["auc"]
    assert d.estimate == pytest.approx(indist_fast.roc_auc(*sets["p"])
                                       - indist_fast.roc_auc(*sets["r"]))
    assert not c["p", "q"].paired


# --- results and errors ---------------------------------------------------------------------

def test_results_are_frozen_readable_and_plain(backend):
    y = np.array([0, 1, 1, 0, 1, 0, 1, 0] * 5, bool)
    a = np.linspace(0, 1, 40)
    b = a[::-1].copy()
    a0, b0, y0 = a.copy(), b.copy(), y.copy()
    c = indist_fast.compare(y, a, b, metrics=("auc", "average_precision"), n_boot=20, seed=0)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)
    np.testing.assert_array_equal(y, y0)
    d = c["auc"]
    with pytest.raises(AttributeError):
        d.estimate = 0.0
    with pytest.raises(ValueError):
        c["average_precision"].replicates[0] = 1.0
    assert str(d).startswith("auc: ") and "delong" in str(d)
    assert "bootstrap" in str(c["average_precision"])
    assert "replicates" not in d.to_dict() and d.to_dict()["method"] == "delong"
    assert c.to_dict()["differences"]["auc"]["estimate"] == d.estimate
    with pytest.raises(KeyError, match="compared: auc, average_precision"):
        c["precision"]


Y4 = np.array([0, 1, 1, 0, 1, 0])
S4 = np.array([0.1, 0.8, 0.6, 0.3, 0.5, 0.2])


@pytest.mark.parametrize("call, error, name", [
    (lambda: indist_fast.compare(Y4, S4, S4, method="mann"), ValueError, "^method must"),
    (lambda: indist_fast.compare(Y4, S4, S4, alternative="bigger"), ValueError,
     "^alternative must"),
    (lambda: indist_fast.compare(Y4, S4, S4, correction="bonferroni"), ValueError,
     "^correction must"),
    (lambda: indist_fast.compare(Y4, S4, S4, correction="holm"), ValueError, "^correction"),
    (lambda: indist_fast.compare(Y4, S4, S4, metrics="gini"), ValueError, "^metrics"),
    (lambda: indist_fast.compare(Y4, S4, S4, metrics=()), ValueError, "^metrics"),
    (lambda: indist_fast.compare(Y4, S4, S4, metrics=[1]), TypeError, "^metrics"),
    (lambda: indist_fast.compare(Y4, S4, S4, n_boot=1), ValueError, "^n_boot"),
    (lambda: indist_fast.compare(Y4, S4, S4, n_boot=10.0), TypeError, "^n_boot"),
    (lambda: indist_fast.compare(Y4, S4, S4, confidence=1.5), ValueError, "^confidence"),
    (lambda: indist_fast.compare(Y4, S4, S4, level=0), ValueError, "^level"),
    (lambda: indist_fast.compare(Y4, S4, S4, seed=-1), ValueError, "^seed"),
    (lambda: indist_fast.compare(Y4, S4, S4, paired="no"), TypeError, "^paired"),
    (lambda: indist_fast.compare(Y4, S4, S4, stratified=1), TypeError, "^stratified"),
    (lambda: indist_fast.compare(Y4, np.r_[np.nan, S4[1:]], S4), ValueError, "^score_a"),
    (lambda: indist_fast.compare(Y4, S4, np.r_[S4[1:], np.nan]), ValueError, "^score_b"),
    (lambda: indist_fast.compare(Y4, S4, S4[:5]), ValueError, "score_b"),
    (lambda: indist_fast.compare(Y4, S4, ["a"] * 6), TypeError, "score_b"),
    (lambda: indist_fast.compare(Y4, {"x": S4, "y": np.r_[np.nan, S4[1:]]}), ValueError,
     r"^score_a\['y'\]"),
    (lambda: indist_fast.compare(Y4, {"x": S4}), ValueError, "^score_a: .*at least two"),
    (lambda: indist_fast.compare(Y4, {1: S4, 2: S4}), TypeError, "^score_a: model names"),
    (lambda: indist_fast.compare({"x": (Y4, S4)}, paired=False), ValueError,
     "^y_true: .*at least two"),
    (lambda: indist_fast.compare(Y4, {"x": S4, "y": S4}, S4), TypeError, "^score_b"),
    (lambda: indist_fast.compare(Y4, S4), TypeError, "^score_b is missing"),
    (lambda: indist_fast.compare(Y4 * 2, S4, S4), ValueError, "^y_true"),
    (lambda: indist_fast.compare(Y4, S4, S4, sample_weight=-Y4), ValueError,
     "^sample_weight"),
    (lambda: indist_fast.compare((Y4, S4), (Y4, S4, -S4), paired=False), ValueError,
     r"^data set 'b' \(passed as score_a\): sample_weight"),
    (lambda: indist_fast.compare((Y4, S4), (Y4,), paired=False), TypeError, "^score_a must"),
    (lambda: indist_fast.compare(S4, (Y4, S4), paired=False), TypeError, "^y_true must"),
    (lambda: indist_fast.compare((Y4, [np.nan] * 6), (Y4, S4), paired=False), ValueError,
     r"^data set 'a' \(passed as y_true\): y_score contains NaN"),
    (lambda: indist_fast.compare((Y4, S4), (Y4, S4), sample_weight=S4, paired=False),
     ValueError, "^sample_weight must be None"),
    (lambda: indist_fast.compare({"x": (Y4, S4), "y": (Y4, S4)}, S4, paired=False),
     TypeError, "^score_a must be None"),
    (lambda: indist_fast.compare([0, 1, 0, 0], [1, 2, 3, 4], [4, 3, 2, 1]), ValueError,
     "^y_true: DeLong's variance"),
    (lambda: indist_fast.compare([0, 0, 0, 0], [1, 2, 3, 4], [4, 3, 2, 1]), ValueError,
     "y_true"),
])
def test_errors_name_the_argument(backend, call, error, name):
    with pytest.raises(error, match=name):
        call()


@pytest.mark.parametrize("module", ["indist_fast.inference.compare",
                                    "indist_fast.inference.delong"])
def test_examples_in_docstrings_run(module):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_printed_pairs_name_their_models_and_results_compare_equal():
    rng = np.random.default_rng(4)
    y = rng.random(600) < 0.3
    models = {"A": y + rng.normal(size=600), "B": rng.normal(size=600),
              "C": 0.5 * y + rng.normal(size=600)}
    text = str(indist_fast.compare(y, models, metrics="auc"))
    assert text.startswith("3 models, 3 pairs")
    assert "auc: A " in text and ", C " in text and "B - C " in text
    assert "2 models, 1 pair\n" in str(indist_fast.compare(y, {"A": models["A"],
                                                               "B": models["B"]},
                                                           metrics="auc"))
    one = [indist_fast.compare(y, models["A"], models["C"], method="bootstrap", n_boot=20,
                               seed=5, metrics="auc")["auc"] for _ in range(2)]
    assert one[0] == one[1]                 # the replicates array is not compared
    assert "C(r_b): a " in str(indist_fast.compare(y, models["A"], models["C"], n_boot=20,
                                                   seed=5, metrics="precision"))


def test_b_is_not_a_comparison():
    y, a = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2]
    with pytest.raises(ValueError, match="^metrics: 'b' is B at r_b, 1/2 for every model"):
        indist_fast.compare(y, a, a[::-1], metrics=("auc", "b"))


@pytest.mark.parametrize("weights, warns", [([2.0, 1.0] * 10, False), ([0.5, 1.5] * 10, True),
                                            (None, False)])
def test_fractional_weights_warn_where_weights_count_as_copies(weights, warns):
    g = np.random.default_rng(2)
    y = np.arange(20) % 3 == 0
    a, b = g.normal(size=(2, 20))
    calls = [lambda: indist_fast.delong(y, a, sample_weight=weights),
             lambda: indist_fast.delong_test(y, a, b, sample_weight=weights),
             lambda: indist_fast.compare(y, a, b, sample_weight=weights, metrics="auc"),
             lambda: indist_fast.compare((y, a, weights), (y, b, weights), paired=False,
                                         metrics="auc"),
             lambda: indist_fast.operating_point_intervals(y, a, 0.0, sample_weight=weights)]
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        kinds = [w.category for w in caught]
        assert kinds == ([indist_fast.FractionalWeightsWarning] if warns else []), kinds
        if warns:
            assert caught[0].filename == __file__    # points at the caller's line
    with warnings.catch_warnings():                # the bootstrap resamples rows: silent
        warnings.simplefilter("error")
        indist_fast.compare(y, a, b, sample_weight=weights, method="bootstrap", n_boot=20,
                            metrics="auc", seed=0)


def test_two_models_take_names():
    y, a, b = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2], [.2, .7, .3, .1, .6, .5]
    c = indist_fast.compare(y, a, b, metrics="auc", names=("new", "old"))
    assert (c.model_a, c.model_b) == ("new", "old")
    assert str(c).startswith("new vs old") and "new - old" in str(c)
    u = indist_fast.compare((y, a), (y, b), paired=False, metrics="auc", names=["x", "y"])
    assert (u.model_a, u.model_b) == ("x", "y")
    for bad, error in [("ab", TypeError), (("a",), TypeError), (("a", 1), TypeError),
                       (("a", "a"), ValueError)]:
        with pytest.raises(error, match="names"):
            indist_fast.compare(y, a, b, metrics="auc", names=bad)
    with pytest.raises(ValueError, match="names applies to two models"):
        indist_fast.compare(y, {"p": a, "q": b}, metrics="auc", names=("p", "q"))


# --- defaults: the AUC by DeLong, the rest bootstrapped when named -----------------------

def _three(n=400, seed=12):
    g = np.random.default_rng(seed)
    y = g.random(n) < 0.3
    return y, y + g.normal(size=n), 0.7 * y + g.normal(size=n)


def test_default_is_the_auc_by_delong_without_replicates(backend, monkeypatch):
    y, a, b = _three()
    from indist_fast.inference import compare as module
    drawn = []
    monkeypatch.setattr(module, "_replicates", lambda *args: drawn.append(1) or [])
    c = indist_fast.compare(y, a, b)
    assert list(c) == ["auc"] and c["auc"].method == "delong" and drawn == []
    assert c.n_boot == 0 and c.seed_entropy is None and len(c["auc"].replicates) == 0
    t = indist_fast.delong_test(y, a, b)
    assert c["auc"].p_value == pytest.approx(t.p_value, rel=1e-9)
    assert c["auc"].estimate == pytest.approx(t.difference, abs=1e-15)
    several = indist_fast.compare(y, {"a": a, "b": b, "c": a + b}, correction="holm")
    assert [list(p) for p in several.pairs.values()] == [["auc"]] * 3
    assert several["a", "b"]["auc"].p_value_unadjusted == c["auc"].p_value
    assert list(indist_fast.compare((y, a), (y, b), paired=False)) == ["auc"]


def test_named_metrics_are_bootstrapped_with_2000_seeded_replicates():
    y, a, b = _three(120)
    c = indist_fast.compare(y, a, b, metrics=("auc", "average_precision", "precision"))
    assert [c[m].method for m in c] == ["delong", "bootstrap", "bootstrap"]
    assert c.n_boot == 2000 == len(c["precision"].replicates) and c.seed_entropy == 0
    again = indist_fast.compare(y, a, b, metrics=("auc", "average_precision", "precision"))
    assert again.to_dict() == c.to_dict()
    np.testing.assert_array_equal(again["precision"].replicates, c["precision"].replicates)


def test_method_bootstrap_bootstraps_the_auc_asked_for(backend):
    y, a, b = _three()
    boot = indist_fast.compare(y, a, b, method="bootstrap", n_boot=50)
    assert list(boot) == ["auc"] and boot["auc"].method == "bootstrap" and boot.n_boot == 50
    both = indist_fast.compare(y, a, b, metrics=("auc", "threshold"), method="bootstrap",
                               n_boot=50)
    assert [both[m].method for m in both] == ["bootstrap", "bootstrap"]
    np.testing.assert_array_equal(both["auc"].replicates, boot["auc"].replicates)


def test_n_boot_without_anything_to_bootstrap_says_what_to_do(backend):
    y, a, b = _three()
    for kwargs in ({}, {"metrics": "auc"}, {"paired": False}):
        with pytest.raises(ValueError, match=r"^n_boot=200 is given but nothing is "
                           r"bootstrapped: .*metrics=.*method='bootstrap'"):
            indist_fast.compare(y, a, b, n_boot=200, **kwargs)
    with pytest.raises(KeyError, match=r"'precision' was not compared; compared: auc\. "
                       r"Name it in compare\(\.\.\., metrics=\.\.\.\)"):
        indist_fast.compare(y, a, b)["precision"]
    with pytest.raises(KeyError, match=r"compared: auc\.[\"']$"):      # (no hint)
        indist_fast.compare(y, a, b)["gini"]


@pytest.mark.parametrize("weighted", [False, True])
def test_unpaired_delong_alone_reads_the_same_tables_as_with_the_bootstrap(backend, weighted):
    """Without replicates the tables come from the engine's sort, not the ranked slots:
    the same AUCs and variances (weighted sums may differ in the last bits)."""
    y, a, b = _three(300, 5)
    w = np.random.default_rng(1).integers(1, 4, 300).astype(float) if weighted else None
    alone = indist_fast.compare((y, a) if w is None else (y, a, w), (y, b), paired=False)
    both = indist_fast.compare((y, a) if w is None else (y, a, w), (y, b), paired=False,
                               metrics=("auc", "precision"), n_boot=2)
    for field in ("estimate", "estimate_a", "estimate_b", "std_error", "p_value"):
        assert getattr(alone["auc"], field) == pytest.approx(getattr(both["auc"], field),
                                                             rel=1e-12, abs=1e-15)
    va, vb = (indist_fast.delong(y, a, sample_weight=w).variance,
              indist_fast.delong(y, b).variance)
    assert alone["auc"].std_error == pytest.approx(math.sqrt(va + vb), rel=1e-12)



def test_column_names_say_how_to_pass_the_columns():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"y": [0, 1, 1, 0], "a": [.1, .8, .6, .3], "b": [.2, .7, .1, .4]})
    with pytest.raises(TypeError, match=r"^compare\(\) takes arrays, got the column names "
                                        r"'a', 'b': pass the columns, compare\(df\[<label>\], "
                                        r"df\['a'\], df\['b'\]\)"):
        indist_fast.compare(df, "a", "b")
