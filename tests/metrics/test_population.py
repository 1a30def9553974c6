"""Population models: Mixture against direct numerical integration (a fixed fine
Simpson rule, independent of the adaptive quadrature inside), against large samples
(the empirical engine), and Binormal as its one-component case."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import integrate, stats

import indist_fast as ifa
from indist_fast.datasets import NINE_LAYOUT, nine_datasets, nine_populations
from indist_fast.population import Binormal, Mixture

MIXTURES = [
    Mixture([(1000, 10, 2)], [(1000, 7, 2), (10_000, 2, 2)]),
    Mixture([(2, 1.0, 0.5), (1, 3.0, 1.5)], [(5, 0.0, 1.0), (1, 2.5, 0.3)]),
    Mixture([(1, 0.4, 2.0)], [(3, 0.0, 1.0)]),
]
T = np.linspace(-60.0, 80.0, 1_400_001)        # the oracle's grid (step 1e-4)


def _oracle(m: Mixture) -> dict[str, np.ndarray]:
    """Densities and survival functions on the grid, from scipy.stats."""
    def parts(components):
        total = sum(w for w, _, _ in components)
        pdf = sum(w / total * stats.norm.pdf(T, mu, sd) for w, mu, sd in components)
        sf = sum(w / total * stats.norm.sf(T, mu, sd) for w, mu, sd in components)
        return pdf, sf
    f_p, v = parts(m.positives)
    f_n, u = parts(m.negatives)
    return {"f_p": f_p, "v": v, "f_n": f_n, "u": u}


def _tail_integral(y: np.ndarray, r: float) -> float:
    """int_r^inf y(t) dt on the grid (r a grid point)."""
    i = int(round((r - T[0]) / (T[1] - T[0])))
    return float(integrate.simpson(y[i:], x=T[i:]))


@pytest.mark.slow
@pytest.mark.parametrize("m", MIXTURES)
def test_mixture_matches_direct_integration(m: Mixture) -> None:
    o = _oracle(m)
    p = m.prevalence
    assert m.auc == pytest.approx(integrate.simpson(o["v"] * o["f_n"], x=T), abs=1e-8)
    for r in (-1.0, 0.5, 2.0, 6.0, 9.0):
        i = int(round((r - T[0]) / (T[1] - T[0])))
        v, u = o["v"][i], o["u"][i]
        den = p * v + (1 - p) * u
        b = (p * v * v / 2 + (1 - p) * _tail_integral(o["f_n"] * o["v"], r)) / den
        assert m.b(r) == pytest.approx(b, abs=1e-6), r
        assert m.precision(r) == pytest.approx(p * v / den, abs=1e-12)
        assert m.b_plus(r) == pytest.approx(v * (p * v / den) / 2, abs=1e-12)
        assert m.b_minus(r) == pytest.approx(b - v * (p * v / den) / 2, abs=1e-6)
        assert m.tpr(r) == pytest.approx(v, abs=1e-14)
        assert m.fpr(r) == pytest.approx(u, abs=1e-14)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = np.where(p * o["v"] + (1 - p) * o["u"] > 0,
                     p * o["v"] / (p * o["v"] + (1 - p) * o["u"]), 0.0)
    assert m.average_precision() == pytest.approx(integrate.simpson(c * o["f_p"], x=T),
                                                  abs=1e-6)


@pytest.mark.parametrize("m", MIXTURES)
def test_threshold_identities(m: Mixture) -> None:
    p = m.prevalence
    assert m.b(-math.inf) == pytest.approx(p / 2 + (1 - p) * m.auc, abs=1e-9)
    # nothing labelled: B and its parts are 0 (their limit), precision is 0/0
    assert (m.b(math.inf), m.b_plus(math.inf), m.b_minus(math.inf)) == (0.0, 0.0, 0.0)
    assert math.isnan(m.precision(math.inf))
    for level in (0.4, 0.5):
        r = m.indistinguishability_threshold(level=level)
        assert m.b(r) == pytest.approx(level, abs=1e-9)
        assert m.precision_at_indistinguishability(level=level) == m.precision(r)
    assert m.population("precision") == m.precision_at_indistinguishability()
    assert m.population("auc") == m.auc
    # B never reaching the level is NaN, not a number
    with pytest.warns(ifa.LevelNotReachedWarning, match="B never reaches 0.999"):
        assert math.isnan(m.indistinguishability_threshold(level=0.999))
    with pytest.warns(ifa.LevelNotReachedWarning, match="B never reaches 0.999"):
        assert math.isnan(m.precision_at_indistinguishability(level=0.999))


@pytest.mark.parametrize("m", MIXTURES)
def test_vectorised_rates_and_curves(m: Mixture) -> None:
    r = np.array([-3.0, 0.0, 1.5, 12.0, math.inf, -math.inf])
    assert m.tpr(r).tolist() == [m.tpr(float(x)) for x in r]
    assert m.fpr(r).tolist() == [m.fpr(float(x)) for x in r]
    assert isinstance(m.tpr(0.0), float)
    fpr, tpr, t = m.roc_curve(n=20_001)
    assert (np.diff(t) < 0).all() and (np.diff(fpr) >= 0).all() and (np.diff(tpr) >= 0).all()
    assert fpr[0] < 1e-12 and tpr[0] < 1e-12 and fpr[-1] > 1 - 1e-12 and tpr[-1] > 1 - 1e-12
    assert np.trapezoid(tpr, fpr) == pytest.approx(m.auc, abs=1e-5)
    precision, recall, tt = m.pr_curve(n=501)
    assert precision[-1] == pytest.approx(m.prevalence, abs=1e-9)
    assert np.allclose(precision, [m.precision(float(x)) for x in tt], atol=1e-12)
    assert np.array_equal(recall, m.tpr(tt))


def test_mixture_matches_large_samples(backend: str) -> None:
    m = MIXTURES[1]
    y, s = m.sample(400_000, rng=np.random.default_rng(11))
    assert y.mean() == pytest.approx(m.prevalence, abs=1e-5)
    rep = ifa.evaluate(y, s)
    n_pos = int(y.sum())
    se = ifa.hanley_mcneil_se(m.auc, n_pos, len(y) - n_pos)
    assert abs(rep.auc - m.auc) < 5 * se
    # precision at a fixed threshold is a proportion of the labelled rows
    r = 1.0
    labelled = s >= r
    c = m.precision(r)
    assert abs(y[labelled].mean() - c) < 5 * math.sqrt(c * (1 - c) / labelled.sum())
    # C(r_b) and r_b: one estimate each, far inside 0.01 at this size
    assert rep.precision == pytest.approx(m.precision_at_indistinguishability(), abs=0.01)
    assert rep.threshold == pytest.approx(m.indistinguishability_threshold(), abs=0.02)
    assert rep.average_precision == pytest.approx(m.average_precision(), abs=0.01)


@pytest.mark.parametrize("mu,sigma,p", [(1.0, 1.0, 0.2), (0.3, 2.0, 0.5), (2.5, 0.5, 0.03)])
def test_one_component_mixture_is_binormal(mu: float, sigma: float, p: float) -> None:
    b = Binormal(mu, sigma)
    m = b.as_mixture(p)
    assert m == Mixture([(p, mu, sigma)], [(1 - p, 0, 1)])
    assert m.auc == pytest.approx(b.auc, abs=1e-15)
    for r in (-2.0, 0.0, 0.7, 3.0):
        for name in ("precision", "b", "b_plus", "b_minus"):
            assert getattr(m, name)(r) == pytest.approx(getattr(b, name)(r, p), abs=1e-12)
    assert m.indistinguishability_threshold() == pytest.approx(
        b.indistinguishability_threshold(p), abs=1e-9)
    assert m.precision_at_indistinguishability() == pytest.approx(
        b.precision_at_indistinguishability(p), abs=1e-12)
    assert m.average_precision() == pytest.approx(b.average_precision(p), abs=1e-10)
    for got, want in zip(m.roc_curve(50), b.roc_curve(50)):
        assert np.allclose(got, want, atol=1e-15)
    for got, want in zip(m.pr_curve(n=50), b.pr_curve(p, n=50)):
        assert np.allclose(got, want, atol=1e-15)


def test_nine_populations_pinned() -> None:
    """The issue's exact population C(r_b) of the nine sets, and Sumpter's A(i)."""
    pops = nine_populations()
    want = dict(zip("abcdefghi", (0.874, 0.711, 0.533, 0.873, 0.710, 0.533,
                                  0.857, 0.704, 0.526)))
    for name, c in want.items():
        assert pops[name].precision_at_indistinguishability() == pytest.approx(c, abs=5e-4)
    assert round(pops["i"].auc, 3) == 0.965
    # the populations are the ones the samples are drawn from (scores are increasing
    # in X, so A is the same): within five standard errors
    for name, (y, s) in nine_datasets(0).items():
        n_pos = int(y.sum())
        se = ifa.hanley_mcneil_se(pops[name].auc, n_pos, len(y) - n_pos)
        assert abs(ifa.roc_auc(y, s) - pops[name].auc) < 5 * se, name
        mean, n_easy = NINE_LAYOUT[name]
        assert pops[name] == Mixture([(1000, 10, 2)], [(1000, mean, 2), (n_easy, 2, 2)])


def test_height_example_auroc() -> None:
    """Beam's height example: men N(178.4, 7.6) against women N(164.7, 7.1)."""
    assert round(Mixture([(1, 178.4, 7.6)], [(1, 164.7, 7.1)]).auc, 3) == 0.906


@pytest.mark.parametrize("args,exc,name", [
    (([], [(1, 0, 1)]), TypeError, "positives"),
    (("abc", [(1, 0, 1)]), TypeError, "positives"),
    (([(1, 0, 1)], None), TypeError, "negatives"),
    (([(1, 0)], [(1, 0, 1)]), TypeError, "positives[0]"),
    (([(0, 0, 1)], [(1, 0, 1)]), ValueError, "positives[0] weight"),
    (([(-1, 0, 1)], [(1, 0, 1)]), ValueError, "positives[0] weight"),
    (([(1, math.nan, 1)], [(1, 0, 1)]), ValueError, "positives[0] mean"),
    (([(1, 0, 1)], [(1, 0, 1), (1, 0, 0)]), ValueError, "negatives[1] sd"),
    (([(1, 0, 1)], [(1, 0, math.inf)]), ValueError, "negatives[0] sd"),
    (([(1, 0, "x")], [(1, 0, 1)]), TypeError, "positives[0] sd"),
    (([(True, 0, 1)], [(1, 0, 1)]), TypeError, "positives[0] weight"),
    (([(1e308, 0, 1), (1e308, 0, 1)], [(1, 0, 1)]), ValueError, "positives"),
])
def test_mixture_refuses_bad_components(args, exc, name) -> None:
    with pytest.raises(exc, match=name.replace("[", r"\[").replace("]", r"\]")):
        Mixture(*args)


def test_bad_arguments_name_themselves() -> None:
    m = MIXTURES[0]
    with pytest.raises(ValueError, match="r must"):
        m.tpr([0.0, math.nan])
    with pytest.raises(TypeError, match="r must"):
        m.fpr("x")
    with pytest.raises(TypeError, match="r must"):
        m.fpr(True)
    with pytest.raises(ValueError, match="prevalence"):
        m.b(0.0, prevalence=1.0)
    with pytest.raises(ValueError, match="level"):
        m.indistinguishability_threshold(level=0.0)
    with pytest.raises(ValueError, match="n must"):
        m.roc_curve(n=1)
    with pytest.raises(TypeError, match="rng"):
        m.sample(10, rng=1.5)
    with pytest.raises(TypeError, match="rng"):
        m.sample(10, rng="seed")
    with pytest.raises(ValueError, match="metric"):
        m.population("nope")
    with pytest.raises(TypeError, match="prevalence is required"):
        Binormal(1.0).b(0.0)
    with pytest.raises(TypeError, match="prevalence is required"):
        Binormal(1.0).pr_curve()
    with pytest.raises(TypeError, match="r must"):
        Binormal(1.0).tpr(None)


def test_mixture_is_frozen_and_hashable() -> None:
    m = Mixture([[1, 0.5, 1]], ((2, 0, 1),))
    assert m.positives == ((1.0, 0.5, 1.0),)
    assert hash(m) == hash(Mixture([(1.0, 0.5, 1.0)], [(2.0, 0.0, 1.0)]))
    with pytest.raises(AttributeError):
        m.positives = ()                          # type: ignore[misc]
    comps = [[1, 0.5, 1]]
    Mixture(comps, [(1, 0, 1)])
    assert comps == [[1, 0.5, 1]]                 # inputs are never modified


def test_prevalence_argument_reweights_the_classes() -> None:
    """A prevalence passed to a method is the same population with the classes'
    weights rescaled to it (the components' shares within a class unchanged)."""
    m = MIXTURES[1]
    p = 0.3
    wp = sum(w for w, _, _ in m.positives)
    wn = sum(w for w, _, _ in m.negatives)
    same = Mixture([(w / wp * p, mu, sd) for w, mu, sd in m.positives],
                   [(w / wn * (1 - p), mu, sd) for w, mu, sd in m.negatives])
    assert same.prevalence == pytest.approx(p, abs=1e-15)
    for r in (-1.0, 0.8, 2.0):
        assert m.b(r, p) == pytest.approx(same.b(r), abs=1e-12)
        assert m.precision(r, p) == pytest.approx(same.precision(r), abs=1e-15)
    assert m.precision_at_indistinguishability(p) == pytest.approx(
        same.precision_at_indistinguishability(), abs=1e-12)
    assert m.average_precision(p) == pytest.approx(same.average_precision(), abs=1e-12)
    assert m.auc == pytest.approx(same.auc, abs=1e-15)


def _dominant_balance(pi1: float, below_pos: Any, above_neg: Any, lo: float,
                      hi: float) -> float:
    """The root of ``pi1 (1 - v(r)) = (1 - pi1) c(r)``, in log space: between classes
    far apart, ``B(r) = 1/2`` reduces to it (the terms it drops are below 1e-15 of
    those it keeps at the separations tested)."""
    from scipy.optimize import brentq
    return float(brentq(lambda r: (math.log(pi1) + below_pos(r)
                                   - math.log1p(-pi1) - above_neg(r)), lo, hi, xtol=1e-14))


def test_r_b_is_exact_between_classes_far_apart() -> None:
    # Between classes far apart B is 1/2 to within 1e-20 and less (far below an ulp of
    # B) over a long stretch; r_b is still the exact crossing, from the tails:
    # Binormal(20) at 1/2 once gave 11.7 (the top of that stretch) for 10.
    from scipy.special import log_ndtr
    for mu in (16, 20, 30, 40):
        # about mu/2 at prevalence 1/2, where 1 - v = u (up to 1e-15 of them)
        assert Binormal(mu).indistinguishability_threshold(0.5) == pytest.approx(
            mu / 2, abs=1e-9), mu
    for mu, p in ((16, 0.2), (20, 0.2), (20, 0.7), (30, 0.05)):
        want = _dominant_balance(p, lambda r: log_ndtr(r - mu), lambda r: log_ndtr(-r),
                                 0.0, mu)
        got = Binormal(mu).indistinguishability_threshold(p)
        assert abs(got - want) < 1e-9, (mu, p, got, want)
        assert Binormal(mu).precision_at_indistinguishability(p) == Binormal(mu).precision(
            got, p)
    # classes 20,000 sd apart: every tail underflows as a number, not as a logarithm
    m = Mixture(positives=[(1, 100, 0.01)], negatives=[(1, -100, 0.01)])
    assert abs(m.indistinguishability_threshold()) < 1e-9


def test_threshold_reached_only_with_everything_labelled() -> None:
    # identical classes: B = v/2 < 1/2 at every finite threshold, 1/2 in the limit
    for m in (Mixture([(1, 0, 1)], [(3, 0, 1)]), Binormal(0.0).as_mixture(0.5)):
        assert m.indistinguishability_threshold() == -math.inf
        assert m.precision_at_indistinguishability() == pytest.approx(m.prevalence)
        with pytest.warns(ifa.LevelNotReachedWarning):
            assert math.isnan(m.indistinguishability_threshold(level=0.6))


def test_methods_take_arrays_of_thresholds() -> None:
    m = MIXTURES[0]
    r = np.array([[-math.inf, -1.0], [0.5, math.inf]])
    for name in ("precision", "b", "b_plus", "b_minus", "tpr", "fpr"):
        got = getattr(m, name)(r)
        assert got.shape == r.shape, name
        want = [getattr(m, name)(float(x)) for x in r.ravel()]
        np.testing.assert_array_equal(got.ravel(), want, err_msg=name)
    assert isinstance(m.b(0.0), float)
    with pytest.raises(ValueError, match="r must"):
        m.b([0.0, math.nan])


def test_sample_takes_a_seed() -> None:
    m = MIXTURES[0]
    a, b = m.sample(50, rng=3), m.sample(50, rng=3)
    np.testing.assert_array_equal(a[1], b[1])          # a seed repeats the sample
    g = np.random.default_rng(3)
    c, d = m.sample(50, rng=g), m.sample(50, rng=g)
    assert not np.array_equal(c[1], d[1])              # a generator advances
    np.testing.assert_array_equal(c[1], a[1])          # seed 3 == default_rng(3)
    assert Binormal(1.0).sample(10, 0.3)[0].sum() == 3  # fresh entropy by default


def test_r_b_between_a_shared_cluster_and_far_negatives_is_exact() -> None:
    # Every positive lies in the top cluster, beside negatives of the same
    # distribution; the other negatives lie far below. Between the clusters B is 1/2
    # to within 1e-50 over a long stretch (a root finder on B itself once stopped
    # at -6.75, the top of the stretch at 6.75): the shared cluster's part of B cancels
    # exactly, and what is left balances 0.2 Phi(r - 15) against 0.3 Phi(-r - 15).
    from scipy.special import log_ndtr
    m = Mixture(positives=[(1, 15, 1)], negatives=[(1, 15, 1), (3, -15, 1)])
    r = m.indistinguishability_threshold()
    want = _dominant_balance(0.2, lambda x: log_ndtr(x - 15),
                             lambda x: math.log(0.3 / 0.8) + log_ndtr(-x - 15), -5.0, 5.0)
    assert abs(r - want) < 1e-9 and 0.0 < r < 0.02
    assert m.precision_at_indistinguishability() == m.precision(r)
