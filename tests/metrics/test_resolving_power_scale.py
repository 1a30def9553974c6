"""Resolving power of an empirical model does not depend on the scale the scores are given
on (probabilities or their log-odds: one ranking), seeds make calls repeatable, and the
long steps report progress."""

from __future__ import annotations

import numpy as np
import pytest

from indist_fast.metrics.resolving_power import (Binormal, Empirical, compare_metrics, noise,
                                                 signal_curve)
from indist_fast.metrics.score_models import normal_scores

pytest.importorskip("scipy")


def probabilities(n=600, seed=3):
    """Labels and probabilities whose log-odds keep every score distinct and in order
    (checked: the invariance is about one ranking)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    p = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.3 * y - 1.5)))
    p = np.round(p, 3)                          # ties, which must stay ties
    logit = np.log(p) - np.log1p(-p)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(logit[order]) >= 0)
    assert len(np.unique(p)) == len(np.unique(logit)) < n
    return y, p, logit


def rows_of(table):
    return [(r.metric, r.interval, r.auc_interval, r.delta) for r in table.rows]


def test_probabilities_and_log_odds_give_the_same_resolving_power():
    y, p, logit = probabilities()
    a = compare_metrics(Empirical(y, p), n_rep=100, seed=5, progress=False)
    b = compare_metrics(Empirical(y, logit), n_rep=100, seed=5, progress=False)
    c = compare_metrics(Empirical(y, np.exp(3 * logit) - 7), n_rep=100, seed=5,
                        progress=False)
    assert rows_of(a) == rows_of(b) == rows_of(c)          # identical, not close
    assert all(np.isfinite(r.delta) for r in a.rows)


def test_on_the_scores_scale_the_two_differ():
    # What the default removes (and why the test above can fail): adding an increment
    # to probabilities and to log-odds makes different "slightly better" models.
    y, p, logit = probabilities()
    grid = np.linspace(0.72, 0.82, 6)
    a = signal_curve(Empirical(y, p, scale="scores"), grid=grid, progress=False)
    b = signal_curve(Empirical(y, logit, scale="scores"), grid=grid, progress=False)
    np.testing.assert_allclose(a.auc, b.auc, atol=2e-3)      # both near the grid
    assert not np.array_equal(a.values["precision"], b.values["precision"])
    na = signal_curve(Empirical(y, p), grid=grid, progress=False)
    nb = signal_curve(Empirical(y, logit), grid=grid, progress=False)
    for name in ("auc", "average_precision", "precision"):
        np.testing.assert_array_equal(na.values[name], nb.values[name])


def test_normal_scores_are_those_of_the_mid_ranks():
    from scipy.stats import norm, rankdata
    y, p, _ = probabilities(200)
    e = Empirical(y, p)
    want = norm.ppf((rankdata(p) - 0.5) / len(p))
    np.testing.assert_allclose(np.sort(e.pos), np.sort(want[y]), rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.sort(e.neg), np.sort(want[~y]), rtol=0, atol=1e-12)
    z = normal_scores(np.array([1, 3, 1]))
    assert z[1] == 0.0 and z[0] == -z[2]                    # a tied group at the middle


def test_scale_is_checked():
    with pytest.raises(ValueError, match="scale must be one of 'normal', 'scores'"):
        Empirical([0, 1], [0.1, 0.2], scale="logit")


def test_default_seed_repeats_and_none_draws_fresh():
    model = Binormal.for_auc(0.8)
    one = noise(model, n=300, prevalence=0.3, n_rep=20, progress=False)
    two = noise(model, n=300, prevalence=0.3, n_rep=20, progress=False)
    np.testing.assert_array_equal(one.values["auc"], two.values["auc"])
    fresh = noise(model, n=300, prevalence=0.3, n_rep=20, seed=None, progress=False)
    assert not np.array_equal(one.values["auc"], fresh.values["auc"])
    y, p, _ = probabilities(300)
    a = compare_metrics(Empirical(y, p), n_rep=40, progress=False)
    b = compare_metrics(Empirical(y, p), n_rep=40, progress=False)
    assert rows_of(a) == rows_of(b)


def test_progress_bars_count_replicates_and_grid_models(fake_tqdm):
    y, p, _ = probabilities(300)
    auc = lambda table: table.evaluate(levels=(0.5,)).auc      # noqa: E731
    noise(Empirical(y, p), {"auc": "auc", "sample_auc": auc}, n_rep=7, progress=True)
    signal_curve(Binormal.for_auc(0.8), grid=[0.7, 0.75, 0.8], prevalence=0.2,
                 progress=True)
    compare_metrics(Empirical(y, p), n_rep=9, grid=np.linspace(0.6, 0.95, 8),
                    progress=True)
    bars = fake_tqdm
    assert [(b.desc, b.total, b.n, b.closed) for b in bars] == [
        ("noise", 14, 14, True), ("signal curve", 3, 3, True),
        ("noise", 9, 9, True), ("signal curve", 8, 8, True)]
    bars.clear()
    noise(Binormal.for_auc(0.8), n=100, prevalence=0.3, n_rep=5, progress=False)
    assert bars == []


@pytest.mark.parametrize("call", [
    lambda v: noise(Binormal.for_auc(0.8), n=100, prevalence=0.3, n_rep=5, progress=v),
    lambda v: signal_curve(Binormal.for_auc(0.8), prevalence=0.3, progress=v),
    lambda v: compare_metrics(Binormal.for_auc(0.8), n=100, prevalence=0.3, progress=v),
])
def test_progress_is_checked(call):
    with pytest.raises(TypeError, match="progress must be True or False"):
        call("yes")
