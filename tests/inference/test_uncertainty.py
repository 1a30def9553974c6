"""Bootstrap, DeLong, Hanley-McNeil and the pair-sampling estimators."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from cases import rows
import indist_fast
from indist_fast import IndistFastWarning
from indist_fast._core import fast as _fast
from indist_fast._core import threads as _threads
from indist_fast._core import reference as _reference
from indist_fast.inference.delong import structural_components
from indist_fast.inference.bootstrap import Resampler
from indist_fast.inference.sampling import sample_auc, sample_b, sample_b_curve
from indist_fast.table.score_table import ScoreTable
from indist_fast._core.validation import prepare_rows

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
rng = np.random.default_rng(12)


def binormal(n_pos, n_neg, auc, rng):
    mu = math.sqrt(2) * _norm_ppf(auc)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    return y, np.r_[rng.normal(mu, 1, n_pos), rng.normal(0, 1, n_neg)]


def _norm_ppf(p):
    from statistics import NormalDist
    return NormalDist().inv_cdf(p)


def _quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


def _resampler(y, s, w=None, stratified=True, seed=0):
    r = prepare_rows(y, s, w)
    return Resampler.from_rows(r, ScoreTable.from_rows(r), stratified=stratified, seed=seed)


# --- the bootstrap ---------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(case=rows(), stratified=st.booleans(), seed=st.integers(0, 2**32))
def test_kernel_draws_the_same_replicates_as_the_reference(case, stratified, seed):
    y, s, w = case
    res = _resampler(y, s, w, stratified, seed)
    args = (res.pos_group, res.pos_weight, res.neg_group, res.neg_weight)
    gens = lambda: [res.bit_generator(k) for k in range(7)]   # noqa: E731
    levels = np.array([0.4, 0.5])
    fast = _fast.replicate_sweeps(gens(), *args, res.table.scores, stratified, levels, True)
    ref = _reference.replicate_sweeps(gens(), *args, res.table.scores, stratified, levels,
                                      True)
    np.testing.assert_allclose(fast, ref, rtol=1e-12, atol=1e-12, equal_nan=True)
    for k in range(3):
        a = _fast.replicate_counts(res.bit_generator(k), *args, len(res.table), stratified)
        b = _reference.replicate_counts(res.bit_generator(k), *args, len(res.table),
                                        stratified)
        for x, z in zip(a, b):
            np.testing.assert_allclose(x, z, rtol=1e-12)


def test_results_do_not_depend_on_thread_count(monkeypatch):
    y, s = binormal(3000, 7000, 0.8, np.random.default_rng(1))
    res = _resampler(y, np.round(s, 2), seed=5)
    args = (res.pos_group, None, res.neg_group, None, res.table.scores, True,
            np.array([0.5]), True)
    two = _fast.replicate_sweeps([res.bit_generator(k) for k in range(40)], *args)
    monkeypatch.setattr(_threads, "PARALLEL_MIN_ROWS", 10**15)
    one = _fast.replicate_sweeps([res.bit_generator(k) for k in range(40)], *args)
    np.testing.assert_array_equal(one, two)


def test_same_seed_same_result_other_seed_other_result(backend):
    y, s = binormal(200, 300, 0.75, np.random.default_rng(2))
    a = indist_fast.bootstrap(y, s, n_boot=50, seed=7)
    b = indist_fast.bootstrap(y, s, n_boot=50, seed=7)
    c = indist_fast.bootstrap(y, s, n_boot=50, seed=8)
    for m in a.intervals:
        np.testing.assert_array_equal(a[m].replicates, b[m].replicates)
    assert not np.array_equal(a["auc"].replicates, c["auc"].replicates)
    again = indist_fast.bootstrap(y, s, n_boot=50, seed=a.seed_entropy)
    np.testing.assert_array_equal(a["auc"].replicates, again["auc"].replicates)


@pytest.mark.parametrize("weighted", [False, True])
def test_stratified_replicates_keep_class_counts(weighted):
    y, s = binormal(37, 91, 0.7, np.random.default_rng(3))
    w = np.random.default_rng(4).integers(1, 4, len(y)).astype(float) if weighted else None
    res = _resampler(y, s, w, stratified=True)
    loose = _resampler(y, s, w, stratified=False)
    for k in range(20):
        pos, neg = res.counts(k)
        assert (pos.sum(), neg.sum()) == (37, 91)
        pos, neg = loose.counts(k)
        assert pos.sum() + neg.sum() == 128
    assert len({loose.counts(k)[0].sum() for k in range(20)}) > 1


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("stratified", [False, True])
def test_replicate_equals_evaluate_on_resampled_rows(backend, weighted, stratified):
    y, s = binormal(150, 350, 0.75, np.random.default_rng(5))
    s = np.round(s, 1)                                             # ties
    w = np.random.default_rng(6).integers(0, 4, len(y)).astype(float) if weighted else None
    res = _resampler(y, s, w, stratified, seed=9)
    sweeps = res.sweeps(10, np.array([0.5]))
    for k in range(10):
        ry, rs, rw = res.replicate_rows(k)
        report = _quiet(indist_fast.evaluate, ry, rs, sample_weight=rw, levels=(0.5,))
        assert sweeps[k, 2] == pytest.approx(report.auc, rel=1e-12)
        assert sweeps[k, 3] == pytest.approx(report.average_precision, rel=1e-12)
        assert sweeps[k, 4] == report.threshold or (np.isnan(sweeps[k, 4])
                                                     and not report.reached)
        assert sweeps[k, 5] / (sweeps[k, 5] + sweeps[k, 6]) == pytest.approx(
            report.precision, rel=1e-12, nan_ok=True)
        table = res.replicate_table(k)
        assert _quiet(table.evaluate, (0.5,)).to_dict() == report.to_dict() | {
            "n_rows": table.n_rows}


def test_callable_metrics_see_the_same_replicates(backend):
    y, s = binormal(100, 100, 0.7, np.random.default_rng(7))

    def auc_again(table):
        return _quiet(table.evaluate, (0.5,)).auc

    r = indist_fast.bootstrap(y, s, n_boot=30, seed=1,
                              metrics={"auc": "auc", "auc_again": auc_again})
    np.testing.assert_allclose(r["auc_again"].replicates, r["auc"].replicates, rtol=1e-12)
    assert r["auc_again"].estimate == pytest.approx(r["auc"].estimate)


def test_interval_summary_matches_replicates(backend):
    y, s = binormal(300, 300, 0.8, np.random.default_rng(8))
    r = indist_fast.bootstrap(y, s, n_boot=400, seed=2, confidence=0.9)
    reps = r["precision"].replicates
    assert r["precision"].low == pytest.approx(np.quantile(reps, 0.05))
    assert r["precision"].high == pytest.approx(np.quantile(reps, 0.95))
    assert r["precision"].std_error == pytest.approx(np.std(reps, ddof=1))
    assert r["auc"].estimate == pytest.approx(indist_fast.roc_auc(y, s))
    assert "bootstrap: 400 stratified replicates" in str(r)
    assert r.to_dict()["intervals"]["auc"]["low"] == r["auc"].low


def test_evaluate_with_n_boot_adds_intervals(backend):
    y, s = binormal(300, 700, 0.8, np.random.default_rng(9))
    plain = indist_fast.evaluate(y, s)
    assert plain.intervals is None and plain.to_dict()["intervals"] is None
    report = indist_fast.evaluate(y, s, n_boot=100, seed=3)
    direct = indist_fast.bootstrap(y, s, n_boot=100, seed=3,
                                   metrics=("auc", "average_precision", "threshold",
                                            "precision", "lift"))
    assert set(report.intervals) == {"auc", "average_precision", "threshold", "precision",
                                     "lift"}
    for m in report.intervals:
        np.testing.assert_array_equal(report.intervals[m].replicates, direct[m].replicates)
    assert report.auc == plain.auc and report.precision == plain.precision
    assert "95% bootstrap intervals (100 replicates)" in str(report)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"n_boot": 1}, ValueError, "n_boot must be an integer from 2 to"),
    ({"n_boot": 10.5}, TypeError, "n_boot must be an integer"),
    ({"confidence": 1.0}, ValueError, "confidence must lie strictly between 0 and 1"),
    ({"metrics": ("auc", "gini")}, ValueError, "unknown metric 'gini'"),
    ({"metrics": {"x": 3}}, TypeError, "'x' must be a metric name or a callable"),
    ({"level": 1.5}, ValueError, "level must lie strictly between 0 and 1"),
])
def test_bootstrap_rejects_bad_settings(backend, kwargs, error, message):
    with pytest.raises(error, match=message):
        indist_fast.bootstrap([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], **kwargs)


# --- DeLong -------------------------------------------------------------------------------

def brute_force_delong(y, s, w):
    """Structural components by enumerating copies (integer weights)."""
    yc, sc = oracle.expand(np.asarray(y, bool), np.asarray(s, float), w)
    pos, neg = sc[yc], sc[~yc]
    wins = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = wins.mean(axis=1), wins.mean(axis=0)
    auc = wins.mean()
    return auc, v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg), v10, v01


@pytest.mark.slow
@SETTINGS
@given(case=rows(weighted=True))
def test_delong_equals_brute_force_structural_components(backend, case):
    y, s, w = case
    yc, _ = oracle.expand(y, s, w)
    if yc.sum() < 2 or (~yc).sum() < 2:
        with pytest.raises(ValueError, match="more than one positive"):
            indist_fast.delong(y, s, sample_weight=w)
        return
    auc, var, v10, v01 = brute_force_delong(y, s, w)
    r = indist_fast.delong(y, s, sample_weight=w)
    assert r.auc == pytest.approx(auc, rel=1e-12)
    assert r.variance == pytest.approx(var, rel=1e-9, abs=1e-15)
    # the per-group components, expanded to copies, are the brute-force ones
    table = ScoreTable.from_arrays(y, s, w)
    g10, g01 = structural_components(table)
    np.testing.assert_allclose(np.sort(np.repeat(g10, table.pos.astype(int))), np.sort(v10))
    np.testing.assert_allclose(np.sort(np.repeat(g01, table.neg.astype(int))), np.sort(v01))


def test_delong_agrees_with_bootstrap_variance():
    y, s = binormal(800, 1200, 0.8, np.random.default_rng(10))
    boot = indist_fast.bootstrap(y, s, n_boot=3000, seed=4, metrics=("auc",))
    ratio = indist_fast.delong(y, s).variance / boot["auc"].std_error ** 2
    assert 0.85 < ratio < 1.15      # the bootstrap variance's own error is ~3% here


def test_delong_test_equals_brute_force():
    g = np.random.default_rng(11)
    y = g.random(60) < 0.4
    a = np.round(g.normal(size=60) + y, 1)
    b = np.round(g.normal(size=60) + 0.5 * y, 1)
    t = indist_fast.delong_test(y, a, b)
    auc_a, _, v10a, v01a = brute_force_delong(y, a, np.ones(60))
    auc_b, _, v10b, v01b = brute_force_delong(y, b, np.ones(60))
    var = np.var(v10a - v10b, ddof=1) / y.sum() + np.var(v01a - v01b, ddof=1) / (~y).sum()
    # rows come out in the same order per class in the brute force, so pairing holds
    assert t.auc_a == pytest.approx(auc_a) and t.auc_b == pytest.approx(auc_b)
    assert t.std_error == pytest.approx(math.sqrt(var), rel=1e-10)
    assert t.z == pytest.approx((auc_a - auc_b) / math.sqrt(var), rel=1e-10)
    assert t.p_value == pytest.approx(math.erfc(abs(t.z) / math.sqrt(2)))
    swapped = indist_fast.delong_test(y, b, a)
    assert swapped.z == pytest.approx(-t.z) and swapped.p_value == pytest.approx(t.p_value)
    same = indist_fast.delong_test(y, a, a)
    assert same.z == 0 and same.p_value == 1


@pytest.mark.slow
def test_delong_is_exact_at_millions_of_rows():
    """No integer overflow: 4 million rows, where n_pos * n_neg passes 2**31 many times."""
    g = np.random.default_rng(12)
    y = g.random(4_000_000) < 0.5
    s = g.normal(size=4_000_000) + y
    r = indist_fast.delong(y, s)
    hm = indist_fast.hanley_mcneil_se(r.auc, y.sum(), (~y).sum())
    assert 0 < r.std_error < 1e-3
    assert r.std_error == pytest.approx(hm, rel=0.1)
    assert r.auc == pytest.approx(indist_fast.roc_auc(y, s), rel=1e-12)


@pytest.mark.slow
def test_delong_coverage_on_binormal_simulations():
    g = np.random.default_rng(13)
    true_auc, hits, sims = 0.75, 0, 2000
    for _ in range(sims):
        y, s = binormal(150, 150, true_auc, g)
        r = indist_fast.delong(y, s)
        hits += r.low <= true_auc <= r.high
    assert 0.93 <= hits / sims <= 0.97


@pytest.mark.slow
def test_bootstrap_coverage_on_binormal_simulations():
    g = np.random.default_rng(14)
    true_auc, hits, sims = 0.75, 0, 1000
    for i in range(sims):
        y, s = binormal(200, 200, true_auc, g)
        iv = indist_fast.bootstrap(y, s, n_boot=300, seed=i, metrics=("auc",))["auc"]
        hits += iv.low <= true_auc <= iv.high
    assert 0.93 <= hits / sims <= 0.97


def test_hanley_mcneil_formula_and_errors():
    a, n_pos, n_neg = 0.8, 40, 60
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    want = math.sqrt((a * (1 - a) + 39 * (q1 - a * a) + 59 * (q2 - a * a)) / 2400)
    assert indist_fast.hanley_mcneil_se(a, n_pos, n_neg) == pytest.approx(want)
    with pytest.raises(ValueError, match="auc must lie in"):
        indist_fast.hanley_mcneil_se(1.2, 10, 10)
    with pytest.raises(ValueError, match="at least 1"):
        indist_fast.hanley_mcneil_se(0.7, 0, 10)
    with pytest.raises(TypeError, match="auc must be a number"):
        indist_fast.hanley_mcneil_se("0.7", 10, 10)


# --- pair sampling ------------------------------------------------------------------------

def test_sample_auc_within_four_standard_errors(backend):
    y, s = binormal(400, 600, 0.7, np.random.default_rng(15))
    s = np.round(s, 1)
    e = sample_auc(y, s, 20_000, seed=1)
    assert abs(e.estimate - indist_fast.roc_auc(y, s)) < 4 * e.std_error


@pytest.mark.parametrize("replace", [True, False])
def test_sample_b_within_four_standard_errors(backend, replace):
    y, s = binormal(400, 600, 0.7, np.random.default_rng(16))
    s = np.round(s, 1)
    c = _quiet(indist_fast.curves, y, s)
    for j in (3, len(c) // 2, len(c) - 1):
        labelled = s >= c.thresholds[j]
        n_valid = int(y.sum() * labelled.sum() - (labelled & y).sum())
        n = 20_000 if replace else min(20_000, n_valid // 2)
        e = sample_b(y, s, c.thresholds[j], n, replace=replace, seed=j)
        assert abs(e.estimate - c.b[j]) < 4 * e.std_error


@pytest.mark.slow
def test_standard_errors_match_the_empirical_spread():
    y, s = binormal(300, 300, 0.75, np.random.default_rng(17))
    t = float(np.quantile(s, 0.6))
    auc = [sample_auc(y, s, 2000, seed=i) for i in range(300)]
    b = [sample_b(y, s, t, 2000, seed=i) for i in range(300)]
    for est in (auc, b):
        spread = np.std([e.estimate for e in est], ddof=1)
        assert np.mean([e.std_error for e in est]) == pytest.approx(spread, rel=0.15)


def test_sample_b_without_replacement_enumerates_every_pair():
    """Asking for every distinct valid pair gives the exact B (self-pairs excluded)."""
    y = np.array([1, 0, 1, 1, 0, 0, 1])
    s = np.array([0.9, 0.8, 0.8, 0.3, 0.2, 0.5, 0.1])
    c = _quiet(indist_fast.curves, y, s)
    for j, t in enumerate(c.thresholds):
        labelled = s >= t
        n_valid = int(y.sum() * labelled.sum() - (labelled & (y == 1)).sum())
        if n_valid == 0:
            continue
        e = sample_b(y, s, t, n_valid, replace=False, seed=0)
        assert e.estimate == pytest.approx(c.b[j], rel=1e-12)
        with pytest.raises(ValueError, match="exceeds the"):
            sample_b(y, s, t, n_valid + 1, replace=False)


def test_sampling_is_reproducible_and_validated(backend):
    y, s = [0, 1, 1, 0, 1], [0.1, 0.9, 0.4, 0.3, 0.4]
    assert sample_auc(y, s, 100, seed=3) == sample_auc(y, s, 100, seed=3)
    curve = sample_b_curve(y, s, [0.9, 0.4, 0.1], 500, seed=2)
    assert curve.estimate.shape == (3,)
    assert sample_b_curve(y, s, [0.9, 0.4, 0.1], 500, seed=2).estimate.tolist() == \
        curve.estimate.tolist()
    with pytest.raises(ValueError, match="n_pairs must be an integer from 1 to"):
        sample_auc(y, s, 0)
    with pytest.raises(TypeError, match="n_pairs must be an integer"):
        sample_b(y, s, 0.5, 10.0)
    with pytest.raises(ValueError, match="labels no row positive"):
        sample_b(y, s, 2.0, 10)
    with pytest.raises(ValueError, match="needs replace=True"):
        sample_b(y, s, 0.2, 3, replace=False, sample_weight=[1, 2, 1, 1, 1])


# --- regressions: arguments named in every error --------------------------------

Y4, S4 = np.array([0, 1, 1, 0, 1, 0]), np.array([0.1, 0.9, 0.4, 0.3, 0.7, 0.2])


@pytest.mark.parametrize("arg", ["stratified", "exclude_self"])
@pytest.mark.parametrize("value", ["no", None, 0.5, [True], 1])
def test_bootstrap_flags_must_be_bools(backend, arg, value):
    with pytest.raises(TypeError, match=f"{arg} must be True or False"):
        indist_fast.bootstrap(Y4, S4, n_boot=5, seed=0, **{arg: value})


@pytest.mark.parametrize("seed, error", [
    ("abc", TypeError), (-1, ValueError), (1.5, TypeError), ([1, -2], ValueError),
    (object(), TypeError), (math.nan, TypeError), (np.random.default_rng(0), TypeError),
    ([1, 2, 3], ValueError),          # valid entropy, but seed_entropy must be one int
])
def test_bootstrap_seed_errors_name_seed(backend, seed, error):
    for call in (lambda: indist_fast.bootstrap(Y4, S4, n_boot=5, seed=seed),
                 lambda: indist_fast.evaluate(Y4, S4, n_boot=5, seed=seed)):
        with pytest.raises(error, match="^seed must be"):
            call()


def test_resampler_checks_its_flag_and_seed():
    rows = prepare_rows(Y4, S4)
    table = ScoreTable.from_rows(rows)
    with pytest.raises(TypeError, match="stratified must be True or False"):
        Resampler.from_rows(rows, table, stratified="yes", seed=0)
    with pytest.raises(TypeError, match="^seed must be"):
        Resampler.from_rows(rows, table, seed="abc")
    # a generator's repr holds its address: the message must not change between calls
    messages = set()
    for _ in range(2):
        with pytest.raises(TypeError) as info:
            Resampler.from_rows(rows, table, seed=np.random.default_rng(0))
        messages.add(str(info.value))
    assert len(messages) == 1 and "0x" not in messages.pop()


def test_callable_metric_failures_name_metrics(backend):
    with pytest.raises(ValueError, match="metrics: the callable 'm' raised "
                                         "ZeroDivisionError") as info:
        indist_fast.bootstrap(Y4, S4, n_boot=5, seed=0, metrics={"m": lambda t: 1 / 0})
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    calls = []

    def fails_on_a_replicate(table):
        calls.append(table)
        if len(calls) > 1:
            raise KeyError("boom")
        return 0.5

    with pytest.raises(ValueError, match="metrics: the callable 'late' raised KeyError"):
        indist_fast.bootstrap(Y4, S4, n_boot=5, seed=0, metrics={"late": fails_on_a_replicate})
    for value in ("a", None, [0.5], True):
        with pytest.raises(TypeError, match="metrics: the callable 'm' must return a real"):
            indist_fast.bootstrap(Y4, S4, n_boot=5, seed=0, metrics={"m": lambda t: value})
    # numbers of any real type pass, and equal the table's own value
    r = indist_fast.bootstrap(Y4, S4, n_boot=5, seed=0,
                              metrics={"m": lambda t: np.float32(t.weight_pos)})
    assert r["m"].estimate == 3.0


@pytest.mark.parametrize("y, w, names", [
    ([0, 1], None, "y_true"),
    ([0, 1, 1, 1], None, "y_true"),
    ([0, 0, 0, 1], None, "y_true"),
    ([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5], "y_true and sample_weight"),
    ([0, 1, 0, 1], [1.0, 3.0, 0.0, 2.0], "y_true and sample_weight"),
])
def test_delong_copies_error_names_the_cause(backend, y, w, names):
    s = np.linspace(0.1, 0.9, len(y))
    # the oracle: DeLong's variance needs W_P > 1 and W_N > 1 (weights as copies)
    wt = np.ones(len(y)) if w is None else np.asarray(w)
    yb = np.asarray(y, bool)
    assert wt[yb].sum() <= 1 or wt[~yb].sum() <= 1
    for call in (lambda: indist_fast.delong(y, s, sample_weight=w),
                 lambda: indist_fast.delong_test(y, s, s[::-1], sample_weight=w)):
        with pytest.raises(ValueError, match=f"^{names}: DeLong's variance needs more"):
            call()


@pytest.mark.parametrize("bad, error", [
    (np.r_[np.nan, np.ones(5)], ValueError), (np.array(["a"] * 6), TypeError),
    (np.ones((6, 2)), ValueError), (None, ValueError), (np.ones(5), ValueError),
])
@pytest.mark.parametrize("which", ["score_a", "score_b"])
def test_delong_test_errors_name_the_scores_at_fault(backend, bad, error, which):
    args = {"score_a": S4, "score_b": S4[::-1]}
    args[which] = bad
    with pytest.raises(error) as info:
        indist_fast.delong_test(Y4, args["score_a"], args["score_b"])
    assert which in str(info.value) and "y_score" not in str(info.value)
    # delong itself still names y_score, the argument it has
    with pytest.raises(error, match="y_score"):
        indist_fast.delong(Y4, bad)


@pytest.mark.parametrize("n_pos, n_neg, name", [
    (math.nan, 10, "n_pos"), (math.inf, 10, "n_pos"), (10, math.inf, "n_neg"),
    (10, math.nan, "n_neg"), (0, 10, "n_pos"), (10, 0.5, "n_neg"), (-np.inf, 10, "n_pos"),
])
def test_hanley_mcneil_counts_must_be_finite(n_pos, n_neg, name):
    with pytest.raises(ValueError, match=f"^{name} must be a finite count of at least 1"):
        indist_fast.hanley_mcneil_se(0.8, n_pos, n_neg)
    with pytest.raises(TypeError, match="n_neg must be a number"):
        indist_fast.hanley_mcneil_se(0.8, 10, np.bool_(True))


@pytest.mark.parametrize("kind", ["PCG64", "Philox", "SFC64", "PCG64DXSM"])
@pytest.mark.parametrize("weighted, stratified", [(False, True), (True, True), (False, False)])
def test_replicate_draws_step_the_callers_generators_as_numpy(kind, weighted, stratified):
    # NumPy's PCG64 is stepped inline by the kernel, every other generator through its
    # pointer: both draw what the NumPy twin draws and leave the generators where it does
    from indist_fast._core import fast, reference
    rng = np.random.default_rng(3)
    m, n_pos, n_neg = 40, 300, 500
    pos_group = np.sort(rng.integers(0, m, n_pos))
    neg_group = np.sort(rng.integers(0, m, n_neg))
    pw = rng.random(n_pos) if weighted else None
    nw = rng.random(n_neg) if weighted else None
    scores = np.sort(rng.normal(size=m))[::-1].copy()
    make = getattr(np.random, kind)
    ours, twin = [make(k) for k in range(5)], [make(k) for k in range(5)]
    args = (pos_group, pw, neg_group, nw, scores, stratified, np.array([0.5]), True)
    got = fast.replicate_sweeps(ours, *args)
    want = reference.replicate_sweeps(twin, *args)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)
    for a, b in zip(ours, twin):            # the next raw outputs agree: same state
        np.testing.assert_array_equal(a.random_raw(3), b.random_raw(3))


def test_a_report_with_intervals_warns_at_the_callers_line_and_pickles():
    """``evaluate(..., n_boot=)`` warns of a level not reached at the caller's line, as
    without ``n_boot``; its intervals (and a bootstrap's, and a comparison's) pickle and
    copy with the record that holds them."""
    import copy
    import dataclasses
    import pickle

    y = np.array([1, 0, 0, 0, 1, 0, 0, 0, 1, 1])
    s = np.array([0.0, 1, 2, 3, 4, 5, 6, 7, 9, 10])
    for call in (lambda: indist_fast.evaluate(y, s, n_boot=20, seed=0),
                 lambda: indist_fast.evaluate(y, s),
                 lambda: ScoreTable.from_arrays(y, s).evaluate()):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert [w.category for w in caught] == [indist_fast.LevelNotReachedWarning]
        assert caught[0].filename == __file__
    with pytest.warns(indist_fast.LevelNotReachedWarning):
        r = indist_fast.evaluate(y, s, n_boot=20, seed=0)
    for record in (r, indist_fast.bootstrap(y, s, n_boot=20, seed=0),
                   indist_fast.compare(y, s, s[::-1].copy(), n_boot=20, seed=0,
                                       metrics="auc", method="bootstrap")):
        for again in (pickle.loads(pickle.dumps(record)), copy.deepcopy(record)):
            assert repr(again) == repr(record)
    back = pickle.loads(pickle.dumps(r))
    assert list(back.intervals) == list(r.intervals)
    assert np.array_equal(back.intervals["auc"].replicates, r.intervals["auc"].replicates)
    assert dataclasses.asdict(r)["intervals"]["auc"].low == r.intervals["auc"].low
    with pytest.raises(TypeError):
        r.intervals["auc"] = None            # type: ignore[index]
    # equal and hashable as records (the replicates array takes no part, as in
    # Difference): a copy equals its original instead of raising on ``==``
    assert back.intervals == r.intervals and copy.deepcopy(r) == r
    assert hash(back.intervals["auc"]) == hash(r.intervals["auc"])
