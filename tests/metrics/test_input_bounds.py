"""Nothing silent: row checks, the two-class check
before threshold-choice costs, bounded counts, terminating increments, and resolving
power that never reports a delta clipped to its grid."""

from __future__ import annotations

import inspect
import math
import threading
import warnings

import numpy as np
import pytest

import indist_fast
import indist_fast.metrics.threshold_choice as tc
from indist_fast import IndistFastWarning
from indist_fast.inference import sampling
from indist_fast._core.validation import check_count
from indist_fast.metrics.resolving_power import (Binormal, Empirical, compare_metrics, noise,
                                         resolution, signal_curve)


def finishes(fn, seconds=20.0):
    """Run ``fn`` on a daemon thread; fail (instead of hanging the suite) when it does
    not return in time. Returns its result or re-raises its exception."""
    out: dict[str, object] = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:       # handed back to the test thread
            out["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds} s: a hang"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*args, **kwargs)


# --- one checker for every count argument ------------------------------------------------

@pytest.mark.parametrize("value, error, message", [
    (True, TypeError, "n must be an integer, got True"),
    (np.True_, TypeError, "n must be an integer"),
    (10.0, TypeError, "n must be an integer, got 10.0"),
    (np.float64(3), TypeError, "n must be an integer"),
    ("5", TypeError, "n must be an integer"),
    (None, TypeError, "n must be an integer"),
    (0, ValueError, "n must be an integer from 1 to 100, got 0"),
    (-3, ValueError, "n must be an integer from 1 to 100, got -3"),
    (101, ValueError, "n must be an integer from 1 to 100, got 101"),
    (2**70, ValueError, "n must be an integer from 1 to 100"),
])
def test_check_count_rejects(value, error, message):
    with pytest.raises(error, match=message):
        check_count(value, "n", maximum=100)


def test_check_count_accepts_python_and_numpy_integers():
    for value in (1, 100, np.int64(7), np.uint8(9)):
        out = check_count(value, "n", maximum=100)
        assert out == int(value) and type(out) is int


Y, S = [0, 1, 1, 0, 1, 0], [0.1, 0.9, 0.4, 0.3, 0.6, 0.5]

COUNT_CALLS = {
    "bootstrap": lambda v: indist_fast.bootstrap(Y, S, n_boot=v),
    "evaluate": lambda v: indist_fast.evaluate(Y, S, n_boot=v),
    "sample_auc": lambda v: sampling.sample_auc(Y, S, v),
    "sample_b": lambda v: sampling.sample_b(Y, S, 0.3, v),
    "sample_b_curve": lambda v: sampling.sample_b_curve(Y, S, [0.3, 0.5], v),
    "noise": lambda v: noise(Binormal(1.0), n=100, prevalence=0.3, n_rep=v),
    "noise_n": lambda v: noise(Binormal(1.0), n=v, prevalence=0.3, n_rep=2),
    "sample": lambda v: Binormal(1.0).sample(v, 0.3, np.random.default_rng(0)),
    "compare_metrics": lambda v: compare_metrics(Binormal(1.0), n=100, prevalence=0.3, n_rep=v),
    "empirical_noise": lambda v: noise(Empirical(Y, S), n_rep=v),
}
COUNT_NAMES = {"bootstrap": "n_boot", "evaluate": "n_boot", "sample_auc": "n_pairs",
               "sample_b": "n_pairs", "sample_b_curve": "n_pairs", "noise": "n_rep",
               "noise_n": "n", "sample": "n", "compare_metrics": "n_rep", "empirical_noise": "n_rep"}


@pytest.mark.parametrize("call", sorted(COUNT_CALLS))
@pytest.mark.parametrize("value, error", [
    (10**12, ValueError), (2**70, ValueError), (0, ValueError), (-1, ValueError),
    (10.0, TypeError), (True, TypeError), ("10", TypeError),
])
def test_every_count_argument_is_bounded_and_typed(backend, call, value, error):
    name = COUNT_NAMES[call]
    with pytest.raises(error, match=rf"^{name} must be an integer"):
        finishes(lambda: COUNT_CALLS[call](value))


def test_bootstrap_builds_generators_in_chunks(backend, monkeypatch):
    """Past one chunk of generators the replicates are the ones a single chunk gives."""
    from indist_fast.inference import bootstrap as resampling
    y = np.r_[np.ones(30, bool), np.zeros(40, bool)]
    s = np.random.default_rng(0).normal(size=70) + y
    whole = indist_fast.bootstrap(y, s, n_boot=23, seed=4)
    monkeypatch.setattr(resampling, "_GENERATOR_CHUNK", 5)
    chunked = indist_fast.bootstrap(y, s, n_boot=23, seed=4)
    for metric in whole.intervals:
        np.testing.assert_array_equal(whole[metric].replicates, chunked[metric].replicates)


# --- one row validation for every function that takes rows -----------------------------

BAD_ROWS = {
    "nan score": ([0, 1, 1, 0], [0.1, np.nan, 0.3, 0.4], None, None),
    "nan weight": ([0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4], [1, np.nan, 1, 1], None),
    "negative weight": ([0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4], [1, 1, -2, 1], None),
    "infinite weight": ([0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4], [1, np.inf, 1, 1], None),
    # the extremes fix the coding, so only the kernels' pass sees the middle label
    "third label": ([0, 2, 1, 0], [0.1, 0.2, 0.3, 0.4], None, 2),
}

ROW_CALLS = {
    "sample_auc": lambda y, s, w, p: sampling.sample_auc(y, s, 10, sample_weight=w,
                                                         pos_label=p),
    "sample_b": lambda y, s, w, p: sampling.sample_b(y, s, 0.1, 10, sample_weight=w,
                                                     pos_label=p),
    "sample_b_curve": lambda y, s, w, p: sampling.sample_b_curve(
        y, s, [0.1, 0.3], 10, sample_weight=w, pos_label=p),
    "Empirical": lambda y, s, w, p: Empirical(y, s, pos_label=p),
}


@pytest.mark.parametrize("call, case", [
    (call, case) for call in sorted(ROW_CALLS) for case in sorted(BAD_ROWS)
    if not (call == "Empirical" and BAD_ROWS[case][2] is not None)])   # no weights there
def test_row_functions_raise_what_evaluate_raises(backend, call, case):
    y, s, w, pos_label = BAD_ROWS[case]
    with pytest.raises(ValueError) as expected:
        indist_fast.evaluate(y, s, sample_weight=w, pos_label=pos_label)
    with pytest.raises(ValueError) as got:
        ROW_CALLS[call](y, s, w, pos_label)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("call", sorted(ROW_CALLS))
def test_row_functions_need_two_weighted_classes(backend, call):
    with pytest.raises(ValueError, match="holds only positives"):
        ROW_CALLS[call]([1, 1, 1], [0.1, 0.2, 0.3], None, None)
    if call != "Empirical":
        with pytest.raises(ValueError, match="holds only negatives"):
            ROW_CALLS[call]([1, 0, 0], [0.1, 0.2, 0.3], [0, 1, 1], None)


def test_row_functions_leave_inputs_unchanged(backend):
    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.3, 0.2, 0.9, 0.1, 0.5], dtype=np.float32)
    w = np.array([1.0, 2.0, 0.0, 1.0, 1.0])
    before = (y.copy(), s.copy(), w.copy())
    for call in ROW_CALLS.values():
        call(y, s, None if call is ROW_CALLS["Empirical"] else w, None)
    for a, b in zip((y, s, w), before):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("thresholds, error, message", [
    ([[0.1], [0.2, 0.3]], TypeError, "thresholds must hold real numbers"),
    ([0.1, np.nan], ValueError, "thresholds must not be NaN"),
    ([0.1, "x"], TypeError, "thresholds must hold real numbers"),
    (0.3, ValueError, "thresholds should be a 1d array"),
])
def test_sample_b_curve_checks_thresholds(thresholds, error, message):
    with pytest.raises(error, match=message):
        sampling.sample_b_curve(Y, S, thresholds, 10)


@pytest.mark.parametrize("threshold, error", [(np.nan, ValueError), ("0.3", TypeError),
                                              (True, TypeError)])
def test_sample_b_checks_threshold(threshold, error):
    with pytest.raises(error, match="threshold must"):
        sampling.sample_b(Y, S, threshold, 10)


# --- threshold choice: the two-class check before any division ---------------------------

TC_FUNCTIONS = [name for name in tc.__all__ if inspect.isfunction(getattr(tc, name))]


METHOD_ARGS = {"score-fixed": {"t": 0.5}, "rate-fixed": {"q": 0.3}}


def tc_call(name, y, s, w, method="optimal"):
    extra = ({"method": method, **METHOD_ARGS.get(method, {})}
             if name in ("expected_loss", "loss_curve") else {})
    return getattr(tc, name)(y, s, sample_weight=w, **extra)


def test_threshold_choice_function_list_is_complete():
    assert len(TC_FUNCTIONS) == 17
    assert {"expected_loss", "compare_methods", "loss_curve", "hull_calibration",
            "accuracy", "log_loss", "rate_uniform_contingency"} <= set(TC_FUNCTIONS)


ONE_CLASS = {
    "positives only": ([1, 1, 1], [0.2, 0.5, 0.9], None),
    "negatives only": ([0, 0, 0], [0.2, 0.5, 0.9], None),
    "negatives weigh zero": ([1, 0, 1, 0], [0.2, 0.5, 0.9, 0.4], [1, 0, 2, 0]),
    "positives weigh zero": ([1, 0, 1, 0], [0.2, 0.5, 0.9, 0.4], [0, 1, 0, 3]),
    "every weight zero": ([1, 0, 1, 0], [0.2, 0.5, 0.9, 0.4], [0, 0, 0, 0]),
}


@pytest.mark.parametrize("name", TC_FUNCTIONS)
@pytest.mark.parametrize("case", sorted(ONE_CLASS))
def test_threshold_choice_raises_the_two_class_error(backend, name, case):
    y, s, w = ONE_CLASS[case]
    with pytest.raises(ValueError) as expected:
        indist_fast.evaluate(y, s, sample_weight=w)
    with pytest.raises(ValueError) as got:
        tc_call(name, y, s, w)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("name", ["expected_loss", "loss_curve"])
@pytest.mark.parametrize("method", tc.METHODS)
def test_every_method_raises_the_two_class_error(backend, name, method):
    for y, s, w in ONE_CLASS.values():
        with pytest.raises(ValueError, match="holds only|zero on every row"):
            tc_call(name, y, s, w, method)


@pytest.mark.parametrize("name", TC_FUNCTIONS)
def test_threshold_choice_reports_row_errors_before_the_class_check(backend, name):
    with pytest.raises(ValueError, match="y_score contains NaN"):
        tc_call(name, [1, 1, 1], [0.2, np.nan, 0.9], None)
    with pytest.raises(ValueError, match="sample_weight must be finite and non-negative"):
        tc_call(name, [1, 0, 1], [0.2, 0.4, 0.9], [1, -1, 1])


@pytest.mark.parametrize("call, error, message", [
    (lambda: tc.loss_curve(Y, S, "optimal")(1.5), ValueError, "c must lie in"),
    (lambda: tc.loss_curve(Y, S, "optimal")([0.2, np.nan]), ValueError, "c must lie in"),
    (lambda: tc.loss_curve(Y, S, "optimal")("a"), TypeError, "c must hold real numbers"),
    (lambda: tc.cost_curves(Y, S)(-0.1), ValueError, "c must lie in"),
    (lambda: tc.hull_calibration(Y, S).predict([0.2, np.nan]), ValueError,
     "scores contains NaN"),
    (lambda: tc.hull_calibration(Y, S).predict(["a"]), TypeError, "scores must hold"),
    (lambda: tc.expected_loss(Y, S, "score-fixed", t=np.nan), ValueError, "t must not be"),
    (lambda: tc.expected_loss(Y, S, "score-fixed", t="0.5"), TypeError, "t must be a number"),
    (lambda: tc.expected_loss(Y, S, "rate-fixed", q=1.5), ValueError, "q must lie in"),
    (lambda: tc.compare_methods(Y, S, q=True), TypeError, "q must be a number"),
    (lambda: tc.compare_methods(Y, S, condition="x"), ValueError, "condition must be"),
    (lambda: tc.expected_loss(Y, S, "optimal", cost_distribution=(0, 1)), ValueError,
     "a must be positive"),
])
def test_threshold_choice_scalar_arguments(backend, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_cost_proportion_checks_keep_valid_calls(backend):
    curve = tc.loss_curve(Y, S, "optimal")
    c = np.linspace(0, 1, 11)
    lines = tc.cost_curves(Y, S)(c)
    # the optimal loss is the lower envelope of the operating points' cost lines
    np.testing.assert_allclose(curve(c), lines.min(axis=0), atol=1e-12)


# --- Empirical increments terminate ------------------------------------------------------

@pytest.mark.parametrize("scores", [
    [0.3, 0.1, np.inf, 0.4], [0.3, -np.inf, 0.5, 0.4], [np.inf, -np.inf, 0.5, 0.4],
    [1e308, -1e308, 0.0, 1.0],
])
def test_empirical_rejects_scores_an_increment_cannot_move(backend, scores):
    with pytest.raises(ValueError, match="y_score must be finite for an Empirical model"):
        finishes(lambda: Empirical([0, 1, 0, 1], scores, scale="scores").increment(1))
    # the normal scores of the ranks are finite whatever the scores
    e = Empirical([0, 1, 0, 1], scores)
    assert np.isfinite(e.pos).all() and np.isfinite(e.neg).all()
    assert e.auc(finishes(lambda: e.increment(1))) > e.auc()


def brute_increment(e, k):
    """The definition: the smallest d >= gap(k) that leaves no pair tied (one ulp at a
    time; only for data where that takes few steps)."""
    d = e.gap(k)
    for _ in range(10_000):
        if not e.count_ties(d):
            return d
        d = float(np.nextafter(d, np.inf))
    raise AssertionError("brute force did not settle")


def test_empirical_increment_jumps_a_tie_of_a_large_score(backend):
    # At d = gap(1) ~ 1e-9 the pair (2**20, 2**20 + 4 ulp) is tied; stepping d by its
    # own ulp (~2e-25) past that tie would take ~1e14 rounds.
    big = 2.0 ** 20
    e = Empirical([1, 0, 1, 0], [0.0, 1e-9, big, big + 4 * np.spacing(big)], scale="scores")
    d = finishes(lambda: e.increment(1))
    assert e.count_ties(d) == 0
    assert e.count_ties(float(np.nextafter(d, 0))) > 0     # and no smaller d is tie-free
    assert e.count_wins(d) == 2
    assert (e.auc(d) - e.auc()) * e.n_pos * e.n_neg == pytest.approx(2, abs=1e-9)


def test_empirical_increment_equals_the_one_ulp_definition(backend):
    rng = np.random.default_rng(11)
    for _ in range(5):
        y = rng.random(40) < 0.4
        y[:2] = True, False
        s = np.round(rng.normal(size=40) + 0.5 * y, 1)      # ties and equal gaps
        e = Empirical(y, s, scale="scores")
        for k in sorted({1, 2, e.n_out_of_order // 2, e.n_out_of_order} - {0}):
            assert finishes(lambda: e.increment(k)) == brute_increment(e, k)


# --- resolving power: never a clipped delta ----------------------------------------------

def issue_case(**kwargs):
    with pytest.warns(IndistFastWarning, match="delta is NaN .* for precision: precision: "
                                               ".* lies below every value"):
        return compare_metrics(Binormal.for_auc(0.65), n=1000, prevalence=0.01, n_rep=300, seed=0,
                       **kwargs)


@pytest.mark.slow
def test_issue_case_reports_no_clipped_delta(backend):
    table = issue_case()
    auc, ap, precision = table["auc"], table["average_precision"], table["precision"]
    # AUROC maps through itself: its delta is its own noise interval's width
    assert auc.delta == pytest.approx(auc.interval[1] - auc.interval[0], abs=1e-9)
    assert auc.auc_interval[0] < 0.55 and auc.auc_interval[1] > 0.75   # past the old grid
    # every mapped end is where the population metric takes the interval's value
    for value, a in zip(ap.interval, ap.auc_interval):
        assert Binormal.for_auc(a).average_precision(0.01) == pytest.approx(value, rel=2e-3)
    assert ap.delta != pytest.approx(auc.delta, abs=1e-4)
    assert ap.relative != 0.0
    # C(r_b)'s lower end lies below every population value (B never reaches 1/2 for
    # worse models): NaN with its reason, not the grid's edge
    assert math.isnan(precision.delta) and math.isnan(precision.auc_interval[0])
    assert "below every value the signal curve reaches" in precision.note
    assert math.isnan(precision.resolving_power) and math.isnan(precision.relative)
    assert "n/a" in str(table) and "note: precision" in str(table)
    assert table.to_dict()["rows"][2]["delta"] is None


def test_resolution_raises_instead_of_clipping():
    m = Binormal.for_auc(0.65)
    narrow = signal_curve(m, ("auc", "average_precision"), grid=np.linspace(0.6, 0.7, 11),
                          prevalence=0.01)
    spread = noise(m, ("auc", "average_precision"), n=1000, prevalence=0.01, n_rep=200,
                   seed=1)
    with pytest.raises(ValueError, match="would be clipped to the grid's edge"):
        resolution(narrow, spread, "average_precision", at_auc=0.65)
    # AUROC is the scale itself: its interval maps onto itself, past any grid
    r = resolution(narrow, spread, "auc", at_auc=0.65)
    assert r.auc_interval == r.interval and r.relative == 0.0
    with pytest.raises(ValueError, match="lies below every value"):
        narrow.to_auc("auc", 0.5)


def test_compare_with_a_narrow_grid_reports_nan_not_the_edge():
    with pytest.warns(IndistFastWarning, match="average_precision: .*clipped to the grid"):
        t = compare_metrics(Binormal.for_auc(0.65), ("auc", "average_precision"), n=1000,
                    prevalence=0.01, n_rep=200, seed=1, grid=np.linspace(0.6, 0.7, 11))
    ap = t["average_precision"]
    assert math.isnan(ap.delta) and ap.note
    assert t["auc"].delta == pytest.approx(t["auc"].interval[1] - t["auc"].interval[0])


@pytest.mark.slow
def test_covered_intervals_keep_the_default_grid():
    """When the default grid covers every interval nothing is widened or flagged."""
    m = Binormal.for_auc(0.8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = compare_metrics(m, n=4000, prevalence=0.3, n_rep=200, seed=3)
    narrow = signal_curve(m, grid=np.linspace(0.7, 0.9, 41), prevalence=0.3)
    spread = noise(m, n=4000, prevalence=0.3, n_rep=200, seed=3)
    for r in t.rows:
        assert not r.note
        assert r.delta == pytest.approx(resolution(narrow, spread, r.metric,
                                                   at_auc=m.auc).delta, abs=1e-12)


@pytest.mark.parametrize("call, error, message", [
    (lambda: compare_metrics("model"), TypeError, "model must be a Binormal, a Mixture or an Empirical"),
    (lambda: noise("model", n_rep=10), TypeError, "model must be a Binormal"),
    (lambda: signal_curve(Binormal(1.0), grid=["a", "b"], prevalence=0.1), TypeError,
     "grid must be a 1d sequence"),
    (lambda: signal_curve(Binormal(1.0), grid=np.linspace(0.1, 0.9, 10_001),
                          prevalence=0.1), ValueError, "grid holds at most"),
    (lambda: Binormal("1"), TypeError, "mu must be a real number"),
    (lambda: Binormal(1.0, None), TypeError, "sigma must be a real number"),
    (lambda: Binormal.for_auc("0.7"), TypeError, "auc must be a real number"),
    (lambda: Empirical([1, 0, 1, 0], [0.1, 0.3, 0.2, 0.4]).gap(1.0), TypeError,
     "k must be an integer"),
])
def test_resolving_power_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_resolution_names_an_unknown_metric():
    m = Binormal.for_auc(0.8)
    sig = signal_curve(m, ("auc",), prevalence=0.2)
    spread = noise(m, ("auc",), n=500, prevalence=0.2, n_rep=20, seed=0)
    with pytest.raises(ValueError, match="metric 'f1' is not on the signal curve"):
        sig.to_auc("f1", 0.5)
    with pytest.raises(ValueError, match="metric 'f1' was not measured"):
        resolution(sig, spread, "f1", at_auc=0.8)
    with pytest.raises(ValueError, match="metric 'f1' was not measured"):
        spread.interval("f1")


# --- pair sampling cannot loop for ever on concentrated weights -------------------------

def weighted_b_oracle(y, s, w, t):
    """Weights as sampling probabilities, self-pairs discarded (SPEC §6), by enumeration."""
    y, s, w = np.asarray(y, bool), np.asarray(s, float), np.asarray(w, float)
    pi = np.where(y, w, 0.0) / w[y].sum()
    rho = np.where(s >= t, w, 0.0) / w[s >= t].sum()
    joint = np.outer(pi, rho)
    np.fill_diagonal(joint, 0.0)
    wins = (s[:, None] > s[None, :]) + 0.5 * (s[:, None] == s[None, :])
    return float((joint * wins).sum() / joint.sum())


def test_sample_b_refuses_weights_that_leave_almost_only_self_pairs(backend):
    y, s = [1, 0, 0], [0.9, 0.5, 0.1]
    for w in ([2.0, 1e-300, 1.0], [1000.0, 1.0, 1.0]):    # distinct share ~0 and ~0.001
        with pytest.raises(ValueError, match="sample_weight concentrates the draws"):
            finishes(lambda: sampling.sample_b(y, s, 0.5, 100, sample_weight=w))
    # at a 2% share the sampler still runs, and targets the enumerated estimand
    y, s, w = [1, 0, 1, 0], [0.9, 0.5, 0.7, 0.8], [1000.0, 20.0, 1.0, 1.0]
    e = finishes(lambda: sampling.sample_b(y, s, 0.5, 20_000, sample_weight=w, seed=3))
    assert abs(e.estimate - weighted_b_oracle(y, s, w, 0.5)) < 4 * e.std_error


# --- every argument of the sampling and resolving-power models is named -----------

from indist_fast.datasets import nine_datasets  # noqa: E402

BAD_SEEDS = [("abc", TypeError), (-1, ValueError), (1.5, TypeError), ([1, -2], ValueError),
             (object(), TypeError), (math.nan, TypeError), (True, TypeError)]
Y8, S8 = [0, 1, 0, 1, 1, 0, 0, 1], [0.1, 0.9, 0.35, 0.8, 0.4, 0.2, 0.7, 0.6]
SAMPLERS = {
    "sample_auc": lambda **kw: sampling.sample_auc(Y8, S8, 10, **kw),
    "sample_b": lambda **kw: sampling.sample_b(Y8, S8, 0.5, 10, **kw),
    "sample_b_curve": lambda **kw: sampling.sample_b_curve(Y8, S8, [0.3, 0.5], 10, **kw),
}
SEEDED = {**SAMPLERS,
          "noise[empirical]": lambda **kw: noise(Empirical(Y8, S8), n_rep=5, **kw),
          "noise[binormal]": lambda **kw: noise(Binormal(1.0), ("auc",), n=20,
                                                prevalence=0.3, n_rep=3, **kw),
          "nine_datasets": lambda **kw: nine_datasets(**kw)}


def as_tuple(result):
    """A sampler's, noise's or data sets' numbers, for comparing two runs exactly."""
    if isinstance(result, dict):
        return tuple((k, tuple(map(np.ndarray.tolist, v))) for k, v in result.items())
    if hasattr(result, "values") and isinstance(result.values, dict):
        return tuple((k, v.tolist()) for k, v in result.values.items())
    return tuple(np.ravel(getattr(result, "estimate")).tolist())


@pytest.mark.parametrize("name", SEEDED)
@pytest.mark.parametrize("seed, error", BAD_SEEDS)
def test_every_seed_argument_is_named(backend, name, seed, error):
    with pytest.raises(error, match="seed must be None, a non-negative integer"):
        SEEDED[name](seed=seed)


@pytest.mark.parametrize("name", SEEDED)
def test_seeds_keep_their_results(backend, name):
    """The checked seed gives the stream ``default_rng(seed)`` gave: results are
    reproducible and unchanged by the check (an int and its SeedSequence agree)."""
    first = as_tuple(SEEDED[name](seed=7))
    assert as_tuple(SEEDED[name](seed=np.int64(7))) == first
    assert as_tuple(SEEDED[name](seed=np.random.SeedSequence(7))) == first


@pytest.mark.parametrize("name", ["sample_auc", "sample_b", "sample_b_curve", "nine_datasets"])
def test_a_generator_is_used_as_is(backend, name):
    assert as_tuple(SEEDED[name](seed=np.random.default_rng(3))) == \
        as_tuple(SEEDED[name](seed=3))


def test_noise_refuses_a_generator_it_could_not_repeat(backend):
    for model_noise in ("noise[empirical]", "noise[binormal]"):
        with pytest.raises(TypeError, match="seed must be None"):
            SEEDED[model_noise](seed=np.random.default_rng(0))


@pytest.mark.parametrize("name", ["sample_b", "sample_b_curve"])
@pytest.mark.parametrize("flag", ["no", "False", None, 0.5, 0, 1, [True]])
def test_replace_must_be_a_bool(backend, name, flag):
    with pytest.raises(TypeError, match="replace must be True or False"):
        SAMPLERS[name](replace=flag, seed=0)


@pytest.mark.parametrize("name", ["sample_b", "sample_b_curve"])
def test_numpy_bools_still_choose_the_sampler(backend, name):
    for flag in (False, True):
        assert as_tuple(SAMPLERS[name](replace=np.bool_(flag), seed=1)) == \
            as_tuple(SAMPLERS[name](replace=flag, seed=1))


# Binormal: one prevalence check for every method that takes one

M = Binormal.for_auc(0.8)
PREVALENCE_METHODS = {
    "precision": lambda p: M.precision(0.3, p),
    "b": lambda p: M.b(0.3, p),
    "b_plus": lambda p: M.b_plus(0.3, p),
    "indistinguishability_threshold": lambda p: M.indistinguishability_threshold(p),
    "precision_at_indistinguishability": lambda p: M.precision_at_indistinguishability(p),
    "average_precision": lambda p: M.average_precision(p),
    "population[auc]": lambda p: M.population("auc", p),
    "population[precision]": lambda p: M.population("precision", p),
    "sample": lambda p: M.sample(20, p, np.random.default_rng(0)),
}


@pytest.mark.parametrize("method", PREVALENCE_METHODS)
@pytest.mark.parametrize("prevalence, error", [
    (0.0, ValueError), (1.0, ValueError), (-0.2, ValueError), (1.5, ValueError),
    (5, ValueError), (math.nan, ValueError), (math.inf, ValueError), ("0.3", TypeError),
    (None, TypeError), (True, TypeError), ([0.3], TypeError)])
def test_binormal_prevalence_is_checked_by_every_method(method, prevalence, error):
    pytest.importorskip("scipy")
    with pytest.raises(error, match="prevalence"):
        PREVALENCE_METHODS[method](prevalence)


@pytest.mark.parametrize("method", ["precision", "b", "b_plus"])
def test_binormal_threshold_r(method):
    pytest.importorskip("scipy")
    fn = getattr(M, method)
    with pytest.raises(ValueError, match="r must be a threshold"):
        fn(math.nan, 0.3)
    with pytest.raises(TypeError, match="r must be a real number"):
        fn("x", 0.3)
    # +-inf stay valid: r = -inf labels every row, +inf none
    pi, auc = 0.3, M.auc
    # (+inf labels nothing: precision is 0/0, B and B+ their limit 0)
    limits = {"precision": (pi, math.nan), "b": (pi / 2 + (1 - pi) * auc, 0.0),
              "b_plus": (pi / 2, 0.0)}[method]
    assert fn(-math.inf, pi) == pytest.approx(limits[0], rel=1e-9)
    assert fn(math.inf, pi) == limits[1] or (math.isnan(limits[1])
                                             and math.isnan(fn(math.inf, pi)))


@pytest.mark.parametrize("sigma, error", [(math.inf, ValueError), ("x", TypeError),
                                          (0.0, ValueError), (-1.0, ValueError),
                                          (math.nan, ValueError), (None, TypeError)])
def test_for_auc_names_sigma(sigma, error):
    with pytest.raises(error, match="sigma must be"):
        Binormal.for_auc(0.8, sigma)


@pytest.mark.parametrize("rng", [5.5, "seed", np.random.PCG64(0), True])
def test_binormal_sample_needs_a_generator_or_a_seed(rng):
    with pytest.raises(TypeError, match="rng must be"):
        M.sample(20, 0.3, rng)


@pytest.mark.parametrize("seed", [5, np.random.SeedSequence(5)])
def test_binormal_sample_takes_a_seed(seed):
    y, s = M.sample(20, 0.3, seed)
    assert s.tolist() == M.sample(20, 0.3, np.random.default_rng(5))[1].tolist()


def test_binormal_sample_draws_from_the_callers_generator():
    rng = np.random.default_rng(5)
    y, s = M.sample(10, 0.3, rng)
    again = np.random.default_rng(5)
    assert y.tolist() == [True] * 3 + [False] * 7
    assert s.tolist() == np.r_[again.normal(M.mu, M.sigma, 3), again.normal(0, 1, 7)].tolist()


# Empirical: shifts and AUROC targets

E8 = Empirical(Y8, S8)


@pytest.mark.parametrize("call, name", [(lambda v: E8.auc(v), "delta"),
                                        (lambda v: E8.scores(v), "delta"),
                                        (lambda v: E8.count_wins(v), "d"),
                                        (lambda v: E8.count_ties(v), "d")])
@pytest.mark.parametrize("value, error", [("x", TypeError), (math.nan, ValueError),
                                          (math.inf, ValueError), (-math.inf, ValueError),
                                          (None, TypeError),
                                          ([0.1], TypeError)])
def test_empirical_shift_is_checked(backend, call, name, value, error):
    with pytest.raises(error, match=f"{name} must be"):
        call(value)


def test_empirical_shift_must_keep_scores_finite(backend):
    e = Empirical([0, 1, 0, 1], [1e307, 2e307, -3e307, -1.5e307], scale="scores")
    for delta in (1.7e308, -1.7e308):
        with pytest.raises(ValueError, match="delta must be finite and keep the positive"):
            e.scores(delta)
    assert e.auc(1e307) == indist_fast.roc_auc(*e.scores(1e307))


def test_empirical_shift_of_a_valid_delta_is_unchanged(backend):
    y, s = E8.scores(0.25)
    assert s.tolist() == (E8.pos + 0.25).tolist() + E8.neg.tolist()
    assert E8.auc(0.25) == indist_fast.roc_auc(y, s)


@pytest.mark.parametrize("auc, error", [(math.nan, ValueError), (2.0, ValueError),
                                        (-1.0, ValueError), ("x", TypeError),
                                        (None, TypeError), (math.inf, ValueError)])
def test_increment_for_auc_names_auc(backend, auc, error):
    with pytest.raises(error, match="auc must be"):
        E8.increment_for_auc(auc)


@pytest.mark.parametrize("target", [0.0, 1.0])
def test_increment_for_auc_reaches_both_ends(backend, target):
    assert E8.auc(E8.increment_for_auc(target)) == target


# signal, noise and resolution

@pytest.fixture(scope="module")
def sig_noise():
    e = Empirical(*nine_small())
    return (signal_curve(e, grid=np.linspace(0.6, 0.95, 8)), noise(e, n_rep=20, seed=0))


def nine_small():
    rng = np.random.default_rng(4)
    y = np.r_[np.ones(30, int), np.zeros(50, int)]
    return y, np.r_[rng.normal(1.0, 1.0, 30), rng.normal(0.0, 1.0, 50)]


@pytest.mark.parametrize("fn", [resolution, indist_fast.metrics.resolving_power.resolving_power])
def test_resolution_checks_signal_noise_and_at_auc(fn, sig_noise):
    sig, spread = sig_noise
    with pytest.raises(TypeError, match="signal must be a SignalCurve"):
        fn("x", spread, "auc", at_auc=0.8)
    with pytest.raises(TypeError, match="noise must be a Noise"):
        fn(sig, sig, "auc", at_auc=0.8)
    for at_auc, error in ((math.nan, ValueError), ("x", TypeError), (1.5, ValueError),
                          (None, TypeError)):
        with pytest.raises(error, match="at_auc must be"):
            fn(sig, spread, "auc", at_auc=at_auc)


@pytest.mark.parametrize("metrics", [None, 5, 2.5, object()])
def test_metrics_must_be_names_or_callables(metrics):
    e = Empirical(Y8, S8)
    calls = (lambda: signal_curve(e, metrics, grid=[0.6, 0.7]),
             lambda: compare_metrics(e, metrics, n_rep=5, grid=[0.6, 0.7]),
             lambda: noise(e, metrics, n_rep=5))
    for call in calls:
        with pytest.raises(TypeError, match="metrics must be a metric name, a callable"):
            call()
