"""Resolving power (SPEC §5, §8): binormal population values, exact empirical
increments, signal curves, noise and resolution."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.metrics.resolving_power import (Binormal, Empirical, compare_metrics, noise,
                                         resolution, signal_curve)
from indist_fast.metrics.resolving_power import METRICS

pytest.importorskip("scipy")


def test_binormal_auc_formula_against_monte_carlo():
    rng = np.random.default_rng(0)
    for mu, sigma in ((0.5, 1.0), (1.2, 0.6), (2.0, 1.8)):
        m = Binormal(mu, sigma)
        y, s = m.sample(400_000, 0.5, rng)
        auc = indist_fast.roc_auc(y, s)
        se = indist_fast.hanley_mcneil_se(m.auc, y.sum(), (~y).sum())
        assert abs(auc - m.auc) < 4 * se
        assert m.auc == pytest.approx(0.5 * math.erfc(-mu / math.sqrt(1 + sigma ** 2)
                                                      / math.sqrt(2)))


@pytest.mark.parametrize("sigma", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("auc", [0.55, 0.7, 0.85, 0.99])
def test_for_auc_inverts_auc(auc, sigma):
    assert Binormal.for_auc(auc, sigma).auc == pytest.approx(auc, abs=1e-12)


@pytest.mark.parametrize("prevalence", [0.05, 0.3, 0.5])
def test_population_b_identities(prevalence):
    from scipy import integrate, stats
    m = Binormal(1.1, 0.8)
    # B(-inf) = pi1/2 + pi0 A (the corrected negative-class term, SPEC §9)
    assert m.b(-40.0, prevalence) == pytest.approx(prevalence / 2 + (1 - prevalence) * m.auc,
                                                   rel=1e-9)
    for r in (-1.0, 0.3, 1.5):
        v = stats.norm.sf(r, m.mu, m.sigma)
        u = stats.norm.sf(r)
        den = prevalence * v + (1 - prevalence) * u
        plus, _ = integrate.quad(lambda t: stats.norm.pdf(t, m.mu, m.sigma)
                                 * stats.norm.sf(t, m.mu, m.sigma), r, np.inf)
        minus, _ = integrate.quad(lambda t: stats.norm.pdf(t) * stats.norm.sf(t, m.mu, m.sigma),
                                  r, np.inf)
        b_plus = prevalence * plus / den        # labelled copy positive, by integration
        assert m.b_plus(r, prevalence) == pytest.approx(b_plus, rel=1e-8)   # = v C / 2
        assert m.b(r, prevalence) == pytest.approx(b_plus + (1 - prevalence) * minus / den,
                                                   rel=1e-8)
        assert m.precision(r, prevalence) == pytest.approx(prevalence * v / den)


def test_population_c_rb_matches_a_large_sample():
    m = Binormal.for_auc(0.8, 1.3)
    rng = np.random.default_rng(1)
    for prevalence in (0.1, 0.4):
        y, s = m.sample(2_000_000, prevalence, rng)
        report = indist_fast.evaluate(y, s, levels=(0.5,))
        assert report.precision == pytest.approx(
            m.precision_at_indistinguishability(prevalence), abs=0.004)
        assert report.threshold == pytest.approx(m.indistinguishability_threshold(prevalence),
                                                 abs=0.01)
        assert report.average_precision == pytest.approx(m.average_precision(prevalence),
                                                         abs=0.004)


def test_level_not_reached_in_population():
    m = Binormal.for_auc(0.52)
    with pytest.warns(IndistFastWarning, match="B never reaches 0.6"):
        assert math.isnan(m.precision_at_indistinguishability(0.02, level=0.6))


def test_hanley_mcneil_within_ten_percent_of_simulation():
    rng = np.random.default_rng(2)
    m = Binormal.for_auc(0.8)
    aucs = [indist_fast.roc_auc(*m.sample(500, 0.4, rng)) for _ in range(3000)]
    hm = indist_fast.hanley_mcneil_se(0.8, 200, 300)
    assert hm == pytest.approx(np.std(aucs, ddof=1), rel=0.10)


def test_binormal_signal_curves_are_monotone():
    m = Binormal.for_auc(0.8)
    sig = signal_curve(m, grid=np.linspace(0.6, 0.95, 15), prevalence=0.1)
    np.testing.assert_allclose(sig.auc, np.linspace(0.6, 0.95, 15), atol=1e-12)
    for metric in ("auc", "average_precision", "precision"):
        assert sig.is_monotone(metric), metric
        assert np.all(np.diff(sig.values[metric]) > 0)


def test_empirical_signal_curve_is_monotone():
    rng = np.random.default_rng(3)
    y, s = Binormal.for_auc(0.75).sample(2000, 0.2, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        sig = signal_curve(Empirical(y, s), grid=np.linspace(0.65, 0.9, 11))
    for metric in ("auc", "average_precision", "precision"):
        assert sig.is_monotone(metric), metric
    np.testing.assert_allclose(sig.auc, np.linspace(0.65, 0.9, 11), atol=2e-3)


def test_exact_increments_raise_auroc_by_k_pairs():
    rng = np.random.default_rng(4)
    y, s = Binormal.for_auc(0.7).sample(600, 0.3, rng)
    e = Empirical(y, s)
    pairs, base = e.n_pos * e.n_neg, e.auc()
    for k in (1, 2, 3, 7, 50, 999, 12_345, e.n_out_of_order):
        d = e.increment(k)
        assert e.count_wins(d) == k
        assert (e.auc(d) - base) * pairs == pytest.approx(k, abs=1e-6)
        # just below the increment, fewer pairs are resolved
        assert e.count_wins(float(np.nextafter(e.gap(k), 0))) < k


def test_exact_increments_with_tied_scores():
    e = Empirical([1, 0, 1, 0, 0, 1], [0.2, 0.2, 0.1, 0.5, 0.3, 0.6])
    pairs, base = e.n_pos * e.n_neg, e.auc()
    assert e.n_tied == 1
    for k in range(1, e.n_out_of_order + 1):
        d = e.increment(k)
        assert (e.auc(d) - base) * pairs == pytest.approx(e.count_wins(d) + 0.5, abs=1e-9)


def test_resolution_of_auroc_against_itself_is_its_interval_width():
    m = Binormal.for_auc(0.8)
    sig = signal_curve(m, ("auc",), grid=np.linspace(0.7, 0.9, 21), prevalence=0.2)
    spread = noise(m, ("auc",), n=2000, prevalence=0.2, n_rep=300, seed=0)
    r = resolution(sig, spread, "auc", at_auc=0.8)
    lo, hi = spread.interval("auc")
    assert r.delta == pytest.approx(hi - lo, abs=1e-12)
    assert r.relative == 0.0
    assert r.resolving_power == pytest.approx(1 / (hi - lo))


def test_empirical_noise_is_the_sort_once_bootstrap():
    rng = np.random.default_rng(5)
    y, s = Binormal.for_auc(0.75).sample(1000, 0.3, rng)
    spread = noise(Empirical(y, s), n_rep=50, seed=9)
    boot = indist_fast.bootstrap(y, s, n_boot=50, seed=9,
                                 metrics=("auc", "average_precision", "precision"))
    for metric in ("auc", "average_precision", "precision"):
        np.testing.assert_array_equal(spread.values[metric], boot[metric].replicates)


@pytest.mark.slow
def test_compare_tables_and_callables():
    rng = np.random.default_rng(6)
    y, s = Binormal.for_auc(0.8).sample(1500, 0.2, rng)

    def gini(table):
        return 2 * table.evaluate(levels=(0.5,)).auc - 1

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        t = compare_metrics(Empirical(y, s), {"auc": "auc", "gini": gini}, n_rep=40, seed=1,
                    grid=np.linspace(0.7, 0.9, 9))
    # Gini is an affine function of AUROC: it resolves exactly as finely
    assert t["gini"].delta == pytest.approx(t["auc"].delta, rel=1e-6)
    assert "resolving power: empirical" in str(t)
    assert t.to_dict()["rows"][1]["metric"] == "gini"
    b = compare_metrics(Binormal.for_auc(0.8), n=3000, prevalence=0.2, n_rep=200, seed=2)
    assert [r.metric for r in b.rows] == ["auc", "average_precision", "precision"]
    assert all(r.delta > 0 for r in b.rows)


@pytest.mark.parametrize("call, error, message", [
    (lambda: Binormal(1.0, -1.0), ValueError, "sigma must be positive"),
    (lambda: Binormal.for_auc(1.0), ValueError, "auc must lie strictly between"),
    (lambda: Binormal(1.0).sample(100, 0.001, np.random.default_rng()), ValueError,
     "leaves a class empty"),
    (lambda: noise(Binormal(1.0), n_rep=10), ValueError, "needs n and prevalence"),
    (lambda: noise(Binormal(1.0), n=50, n_rep=10), ValueError, "model needs prevalence \\("),
    (lambda: signal_curve(Binormal(1.0), grid=[0.8, 0.7], prevalence=0.1), ValueError,
     "strictly increasing"),
    (lambda: signal_curve("model", grid=[0.7, 0.8]), TypeError, "Binormal, a Mixture or an Empirical"),
    (lambda: compare_metrics(Binormal(1.0), ("auc", "f2")), ValueError, "unknown metric 'f2'"),
    (lambda: Empirical([1, 1], [0.2, 0.3]), ValueError, "holds only positives"),
    (lambda: Empirical([1, 0], [0.2, 0.3]).gap(2), ValueError, "k must lie in 1..1"),
])
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_cli_resolving_power(tmp_path, capsys):
    from indist_fast.cli import main
    rng = np.random.default_rng(7)
    y, s = Binormal.for_auc(0.8).sample(800, 0.25, rng)
    np.savez(tmp_path / "d.npz", y=y.astype(int), p=s)
    assert main(["resolving-power", str(tmp_path / "d.npz"), "--label", "y", "--score", "p",
                 "--n-rep", "50"]) == 0
    out = capsys.readouterr().out
    assert "resolving power: empirical" in out and "average_precision" in out
    # the same table as the library's, on either scale
    for scale in ("normal", "scores"):
        assert main(["resolving-power", str(tmp_path / "d.npz"), "--label", "y", "--score",
                     "p", "--n-rep", "30", "--scale", scale, "--json"]) == 0
        got = json.loads(capsys.readouterr().out)
        want = compare_metrics(Empirical(y.astype(int), s, scale=scale), n_rep=30, seed=0)
        assert json.dumps(got, sort_keys=True) == json.dumps(
            json.loads(json.dumps(want.to_dict(), default=str)), sort_keys=True)


def test_a_metric_that_ignores_the_model_resolves_nothing():
    # a flat signal curve maps no value to one AUROC: NaN and a warning, never an
    # infinite resolving power from a zero-width interval
    const = {"const": lambda t: 0.3}
    with pytest.warns(IndistFastWarning, match="const"):
        t = compare_metrics(Binormal(1.0), const, n=200, prevalence=0.2, n_rep=20,
                    signal_n=2_000, seed=0)
    row = t["const"]
    assert math.isnan(row.delta) and math.isnan(row.resolving_power)
    assert "does not change with the model" in row.note
    assert t["auc"].delta > 0
    signal = signal_curve(Binormal(1.0), const, [0.6, 0.7], prevalence=0.2,
                          signal_n=2_000, seed=0)
    spread = noise(Binormal(1.0), const, n=200, prevalence=0.2, n_rep=20, seed=0)
    with pytest.raises(ValueError, match="does not change with the model"):
        resolution(signal, spread, "const", at_auc=0.65)


def test_replicate_warnings_arrive_once_each():
    # a callable calling evaluate on replicates where B misses a level warns once per
    # distinct message (with its count), not once per replicate
    def c_high(table):
        return table.evaluate(levels=(0.5, 0.999)).precision

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        noise(Binormal(1.0), {"c": c_high}, n=200, prevalence=0.2, n_rep=30, seed=0)
    mine = [w for w in caught if issubclass(w.category, IndistFastWarning)]
    assert len(mine) == len({str(w.message) for w in mine}) >= 1
    assert "30 times over the samples measured" in str(mine[0].message)
    assert mine[0].filename == __file__           # pointed at the caller's line


def test_empirical_refuses_a_size_or_prevalence_of_its_own():
    e = Empirical([0, 1, 0, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.3, 0.6])
    for kw in ({"n": 100}, {"prevalence": 0.1}):
        with pytest.raises(ValueError, match="does not apply to an Empirical model"):
            noise(e, n_rep=10, seed=0, **kw)
        with pytest.raises(ValueError, match="does not apply to an Empirical model"):
            compare_metrics(e, n_rep=10, seed=0, **kw)
    # its own values are accepted (they change nothing)
    a = noise(e, n=8, prevalence=0.5, n_rep=10, seed=0).values["auc"]
    np.testing.assert_array_equal(a, noise(e, n_rep=10, seed=0).values["auc"])


@pytest.mark.slow
def test_a_mixture_is_a_sampling_model():
    from indist_fast.population import Mixture
    m = Mixture([(1, 1.0, 1.0), (1, 2.5, 0.5)], [(4, 0.0, 1.0)])
    # one component per class: the same table as the Binormal it equals
    b = Binormal(1.0)
    one = Mixture([(1, 1.0, 1.0)], [(4, 0.0, 1.0)])
    t1 = compare_metrics(one, n=300, n_rep=40, seed=3)
    t2 = compare_metrics(b, n=300, prevalence=0.2, n_rep=40, seed=3)
    for name in METRICS:
        assert t1[name].delta == pytest.approx(t2[name].delta, rel=1e-9), name
    assert t1.prevalence == 0.2 and t1.model.startswith("mixture(")
    signal = signal_curve(m, grid=[0.7, 0.8, 0.9])
    np.testing.assert_allclose(signal.auc, [0.7, 0.8, 0.9], atol=1e-12)
    # the grid records the positive shift: the first positive mean of each model
    assert signal.grid[1] == m.with_auc(0.8).positives[0][1]
    # callables by simulation move the positives of one sample (common random numbers)
    sim = signal_curve(m, {"sample_auc": lambda t: t.evaluate(levels=(0.5,)).auc},
                       [0.7, 0.9], signal_n=20_000, seed=1)
    assert np.all(np.abs(sim.values["sample_auc"] - sim.auc) < 0.02)


def test_compare_passes_replicate_warnings_on_at_the_callers_line():
    def c_high(table):
        return table.evaluate(levels=(0.5, 0.999)).precision

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare_metrics(Binormal(1.0), {"c": c_high}, n=200, prevalence=0.2, n_rep=20,
                signal_n=2_000, grid=[0.6, 0.7, 0.8], seed=0)
    assert caught and all(w.filename == __file__ for w in caught)
    kinds = [w.category for w in caught]
    assert len(kinds) == len(set(kinds))


def test_flat_stretches_widen_the_mapping_and_flat_ends_are_not_clipped():
    from indist_fast.metrics.resolving_power import SignalCurve
    auc = np.array([0.5, 0.6, 0.7, 0.8, 0.9])
    sc = SignalCurve(auc, {"auc": auc, "m": np.array([0.1, 0.2, 0.2, 0.3, 0.4])}, auc)
    # a value on the flat stretch maps to its low end or its high end
    assert float(sc.to_auc("m", 0.2, "low")) == 0.6
    assert float(sc.to_auc("m", 0.2, "high")) == 0.7
    assert float(sc.to_auc("m", 0.25)) == pytest.approx(0.75)     # strictly rising part
    flat_start = SignalCurve(auc, {"auc": auc, "m": np.array([0.1, 0.1, 0.2, 0.3, 0.4])},
                             auc)
    with pytest.raises(ValueError, match="where the signal curve starts, flat"):
        flat_start.to_auc("m", 0.1, "low")
    assert float(flat_start.to_auc("m", 0.1, "high")) == 0.6
    with pytest.raises(ValueError, match="side must be"):
        sc.to_auc("m", 0.2, "middle")


def test_strictly_rising_curves_map_as_numpy_interp():
    from indist_fast.metrics.resolving_power import SignalCurve
    rng = np.random.default_rng(5)
    auc = np.linspace(0.55, 0.95, 9)
    m = np.cumsum(rng.uniform(0.01, 0.1, 9))
    sc = SignalCurve(auc, {"auc": auc, "m": m}, auc)
    x = np.r_[m, rng.uniform(m[0], m[-1], 49)]
    for side in ("low", "high"):
        np.testing.assert_allclose(sc.to_auc("m", x, side), np.interp(x, m, auc),
                                   rtol=0, atol=1e-15)
    assert sc.to_auc("m", x.reshape(2, -1)).shape == (2, 29)


def test_a_falling_metric_resolves_as_its_negation():
    # a loss falls as models improve: mapped as its negation, the same resolution
    m = Binormal.for_auc(0.75)
    up = {"auc2": lambda t: t.evaluate(levels=(0.5,)).auc}
    down = {"auc2": lambda t: -t.evaluate(levels=(0.5,)).auc}
    kw = dict(n=400, prevalence=0.3, n_rep=60, seed=2, signal_n=5_000,
              grid=np.linspace(0.55, 0.95, 41))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        a, b = compare_metrics(m, up, **kw)["auc2"], compare_metrics(m, down, **kw)["auc2"]
    assert not math.isnan(b.delta) and not b.note
    assert b.delta == pytest.approx(a.delta, rel=1e-9)
    assert b.auc_interval == pytest.approx(a.auc_interval, rel=1e-9)
    assert b.linear_delta == pytest.approx(a.linear_delta, rel=1e-9)


def test_samples_with_a_handful_of_positives_warn():
    with pytest.warns(IndistFastWarning, match="holds 1 positive .*use a larger n"):
        noise(Binormal.for_auc(0.8), n=1000, prevalence=0.001, n_rep=10, seed=0)


def test_a_failing_metric_is_named():
    with pytest.raises(TypeError, match="the callable 'as_array' must return a real number"):
        def as_array(t):
            return np.zeros(2)
        noise(Binormal(1.0), {"a": as_array}, n=200, prevalence=0.3, n_rep=3, seed=0)
    def broken(t):
        return 1 / 0
    with pytest.raises(ZeroDivisionError) as info:
        noise(Binormal(1.0), {"b": broken}, n=200, prevalence=0.3, n_rep=3, seed=0)
    assert "metric 'broken'" in "".join(info.value.__notes__)


def test_compare_gathers_nested_warnings_once():
    def ev(t):
        return t.evaluate().precision
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare_metrics(Binormal.for_auc(0.6), {"ev": ev}, n=1000, prevalence=0.3, n_rep=30, seed=0,
                signal_n=5_000, grid=np.linspace(0.5, 0.8, 13))
    for w in caught:
        assert str(w.message).count("times over the samples measured") <= 1


def test_auroc_maps_onto_itself_past_the_grid():
    t = compare_metrics(Binormal.for_auc(0.99), ("auc",), n=500, prevalence=0.02, n_rep=100, seed=0)
    assert t["auc"].auc_interval == t["auc"].interval
    assert t["auc"].delta > 0 and t["auc"].relative == 0.0
