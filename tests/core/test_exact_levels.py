"""B reached exactly at 1/2, probabilities in [0, 1], and
weights far from 1 (overflow, underflow) on every path and both backends.

Expected values come from exact rational arithmetic (``oracle.exact_b``,
``oracle.exact_auc``), never from the library itself.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
import indist_fast
from indist_fast import Accumulator, IndistFastWarning, ScoreTable
from indist_fast._core import fast as _fast
from indist_fast._core import threads as _threads
from indist_fast._core import reference as _reference
from indist_fast.scale import ranges as ranges
from indist_fast._core.validation import prepare_rows

HALF = Fraction(1, 2)
SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*args, **kwargs)


def _tile(y, s, w, reps):
    return np.tile(y, reps), np.tile(np.asarray(s, float), reps), np.tile(w, reps)


rng = np.random.default_rng(10)
N_BIG = _threads.PARALLEL_MIN_ROWS + 10_000     # the two-thread paths run above this
_top_y = rng.random(N_BIG) < 0.4

# B is exactly 1/2 at some operating point by structure: all scores tied; all positive
# weight in the top group; mirror groups (positive weight above one = below the other).
STRUCTURAL = {
    "issue_top_group": ([1, 1, 0, 0, 1], [2, 2, 1, 0, 2], [.3, .3, .3, .3, 2.7]),
    "issue_mirror": ([0, 0, 1, 1], [0, 1, 0, 1], [.3, .3, 1.5, 1.5]),
    "mirror_positives": ([1, 1, 0, 0], [0, 1, 0, 1], [.3, .3, 1.5, 1.5]),
    "all_tied": ([1, 0, 0, 1, 0, 1], [7.0] * 6, [.1, .2, .3, .7, .05, 2.9]),
    "all_tied_unweighted": ([1, 0, 0, 1, 0], [3.0] * 5, None),
    "big_all_tied": (rng.random(N_BIG) < 0.3, np.zeros(N_BIG), rng.random(N_BIG) + 0.01),
    "big_all_tied_unweighted": (rng.random(N_BIG) < 0.3, np.full(N_BIG, 0.25), None),
    "big_top_group": (_top_y, np.where(_top_y, 5.0, rng.normal(size=N_BIG)),
                      rng.random(N_BIG) * 3),
    # mirror groups at 2 and 0 around negatives at 1 (most rows: the pivot falls there,
    # so the crossing lies in the lower piece and the weighted sweep reruns it)
    "big_mirror": _tile([0, 1, 0, 0, 0, 0, 1], [2, 2, 1, 1, 1, 0, 0],
                        [.3, 1.5, .7, .7, .7, .3, 1.5], N_BIG // 7),
    "big_mirror_positives": _tile([1, 0, 0, 0, 0, 1, 0], [2, 2, 1, 1, 1, 0, 0],
                                  [.3, 1.5, .7, .1, .7, .3, 1.5], N_BIG // 7),
}
SMALL = [k for k in STRUCTURAL if not k.startswith("big")]


def _exact_point(y, s, w):
    """(threshold, index) where exact B first reaches 1/2; asserts B is 1/2 there."""
    thresholds, b = oracle.exact_b(y, s, w)
    j = next(i for i, v in enumerate(b) if v is not None and v >= HALF)
    assert b[j] == HALF, "the case is not structural"
    return thresholds[j], j


def _assert_at_half(report, threshold):
    assert report.reached
    assert report.threshold == threshold
    assert report.b == 0.5


@pytest.mark.slow
@pytest.mark.parametrize("name", list(STRUCTURAL))
def test_b_reaches_one_half_exactly(backend, name):
    y, s, w = STRUCTURAL[name]
    threshold, j = _exact_point(y, s, w)
    _assert_at_half(quiet(indist_fast.evaluate, y, s, sample_weight=w), threshold)
    table = ScoreTable.from_arrays(y, s, w)
    _assert_at_half(quiet(table.evaluate), threshold)
    c = quiet(indist_fast.curves, y, s, sample_weight=w)
    assert c.b[j] == 0.5
    assert np.flatnonzero(c.b >= 0.5)[0] == j     # the column agrees with `reached`
    assert quiet(indist_fast.indistinguishability_threshold, y, s, sample_weight=w) == threshold


@pytest.mark.slow
@pytest.mark.parametrize("name", list(STRUCTURAL))
def test_b_one_half_on_merged_and_ranged_tables(backend, name):
    """Accumulator chunks, and the range sweep Dask runs (split at several scores)."""
    y, s, w = STRUCTURAL[name]
    threshold, _ = _exact_point(y, s, w)
    acc = Accumulator()
    step = max(1, len(s) // 7)
    for i in range(0, len(s), step):
        acc.update(np.asarray(y)[i:i + step], np.asarray(s)[i:i + step],
                   None if w is None else np.asarray(w)[i:i + step])
    _assert_at_half(quiet(acc.result), threshold)
    table = ScoreTable.from_arrays(y, s, w)
    for cut in ([], table.scores[1:2], table.scores[1:], table.scores[: len(table) // 2 + 1]):
        pieces = ranges.split_table(table, cut)
        result = ranges.sweep_ranges(pieces, np.array([0.4, 0.5]), True)
        assert result.crossings[1, 1] == threshold and result.crossings[1, 4] == 0.5


@pytest.mark.parametrize("name", ["issue_top_group", "issue_mirror", "all_tied"])
def test_b_one_half_through_files_and_dask(backend, name, tmp_path):
    y, s, w = STRUCTURAL[name]
    threshold, _ = _exact_point(y, s, w)
    path = tmp_path / "rows.npz"
    np.savez(path, y=np.asarray(y), s=np.asarray(s, float), w=np.asarray(w))
    _assert_at_half(quiet(indist_fast.evaluate_file, path, label="y", score="s",
                          weight="w"), threshold)
    da = pytest.importorskip("dask.array")
    dask = pytest.importorskip("dask")
    arrays = tuple(da.from_array(np.asarray(a), chunks=2) for a in (y, s, w))
    with dask.config.set(scheduler="synchronous"):
        _assert_at_half(quiet(indist_fast.dask.evaluate, arrays), threshold)


def test_bootstrap_replicates_of_tied_scores_reach_one_half(backend):
    """Every replicate of all-tied rows is all tied: each reaches 1/2 at that score."""
    y, s, w = STRUCTURAL["all_tied"]
    boot = quiet(indist_fast.bootstrap, y, s, sample_weight=w, n_boot=40, seed=1,
                 metrics=("threshold",))
    assert np.all(boot.intervals["threshold"].replicates == 7.0)


@pytest.mark.slow
@pytest.mark.parametrize("name", [k for k in STRUCTURAL if k.startswith("big")])
def test_compiled_paths_above_parallel_size(name, monkeypatch):
    """The weighted two-piece sweep (and its rerun in halves) is the path taken."""
    y, s, w = STRUCTURAL[name]
    threshold, _ = _exact_point(y, s, w)
    calls = []
    two_piece = _fast._two_piece_keys
    monkeypatch.setattr(_fast, "_two_piece_keys",
                        lambda *a: calls.append(1) or two_piece(*a))
    r = prepare_rows(y, s, w)
    for engine in (_fast, _reference):
        result = engine.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value,
                                  np.array([0.5]), True)
        assert result.crossings[0, 1] == threshold and result.crossings[0, 4] == 0.5
    if w is not None and len(np.unique(s)) > 1:
        assert calls, "the two-piece weighted sweep did not run"


@st.composite
def structural(draw):
    """Random weights in a structural layout: B is exactly 1/2 somewhere."""
    kind = draw(st.sampled_from(["tied", "top", "mirror"]))
    weights = st.floats(0.01, 100.0)
    if kind == "tied":
        n = draw(st.integers(2, 30))
        y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
        y[0], y[-1] = True, False
        return y, np.zeros(n), np.array(draw(st.lists(weights, min_size=n, max_size=n)))
    if kind == "top":
        n_pos, n_neg = draw(st.integers(1, 10)), draw(st.integers(1, 20))
        s_neg = draw(st.lists(st.floats(-5, 4), min_size=n_neg, max_size=n_neg))
        y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
        w = np.array(draw(st.lists(weights, min_size=n_pos + n_neg,
                                   max_size=n_pos + n_neg)))
        return y, np.r_[np.full(n_pos, 5.0), s_neg], w
    # mirror: two groups with the same rows (same order), scores 0 and 1
    n = draw(st.integers(1, 8))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    y[0] = True
    w = np.array(draw(st.lists(weights, min_size=n, max_size=n)))
    if y.all():
        y, w = np.r_[y, False], np.r_[w, draw(weights)]
    return (np.r_[y, y], np.r_[np.zeros(len(y)), np.ones(len(y))], np.r_[w, w])


@SETTINGS
@given(case=structural(), exclude_self=st.booleans())
def test_structural_half_matches_exact_oracle(backend, case, exclude_self):
    y, s, w = case
    thresholds, b = oracle.exact_b(y, s, w, exclude_self)
    hits = [j for j, v in enumerate(b) if v is not None and v >= HALF]
    report = quiet(indist_fast.evaluate, y, s, sample_weight=w, exclude_self=exclude_self)
    c = quiet(indist_fast.curves, y, s, sample_weight=w, exclude_self=exclude_self)
    # wherever exact B is 1/2, the library says exactly 0.5
    for j, v in enumerate(b):
        if v == HALF:
            assert c.b[j] == 0.5
    assert report.reached == bool(hits)
    if hits:
        assert report.threshold == thresholds[hits[0]]
        assert report.b == c.b[hits[0]]


@SETTINGS
@given(case=structural(), levels=st.lists(st.floats(0.05, 0.95), min_size=1, max_size=4,
                                          unique=True))
def test_compiled_matches_reference_on_structural_cases(case, levels):
    r = prepare_rows(*case)
    lv = np.array(levels + [0.5])
    fast = _fast.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, True)
    ref = _reference.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, True)
    np.testing.assert_array_equal(fast.crossings[:, 0], ref.crossings[:, 0])
    np.testing.assert_allclose(fast.crossings, ref.crossings, rtol=1e-12, equal_nan=True)
    # Where B is 1/2 by structure both engines say exactly 0.5. With a positive weight
    # below 1 the first defined point can lie past 1/2 (SPEC §3's self-pair term), and
    # there the two summation orders may differ in the last bit (checked above).
    if ref.crossings[-1, 4] == 0.5 or np.isnan(ref.crossings[-1, 4]):
        np.testing.assert_array_equal(fast.crossings[-1, 4], ref.crossings[-1, 4])


# --- probabilities stay in [0, 1] ----------------------------------------------------

def test_issue_auc_is_exactly_one(backend):
    y, s, w = [0, 1, 0, 0], [1, 9, 0, -9], [2.7, 1.5, 2.7, .1]
    assert oracle.exact_auc(y, s, w) == 1
    assert indist_fast.roc_auc(y, s, sample_weight=w) == 1.0
    assert indist_fast.evaluate(y, s, sample_weight=w).auc == 1.0
    with pytest.warns(indist_fast.FractionalWeightsWarning):   # (weights 2.7, 1.5, ...)
        assert indist_fast.delong(y + [1], s + [8], sample_weight=w + [1.0]).auc <= 1.0
    se = indist_fast.hanley_mcneil_se(indist_fast.roc_auc(y, s, sample_weight=w), 1, 3)
    assert se == 0.0


PROBABILITY_FIELDS = ("auc", "average_precision", "precision", "tpr", "fpr", "f1")
CURVE_PROBABILITIES = ("tpr", "fpr", "precision", "f1")


def _in_unit_interval(x):
    x = np.asarray(x, float)
    return bool(np.all(np.isnan(x) | ((x >= 0) & (x <= 1))))


@SETTINGS
@given(n=st.integers(2, 30), data=st.data())
def test_probabilities_stay_in_unit_interval(backend, n, data):
    y = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    y[0], y[-1] = True, False
    s = np.array(data.draw(st.lists(st.sampled_from([-9.0, 0.0, 1.0, 9.0, 0.5]),
                                    min_size=n, max_size=n)))
    w = np.array(data.draw(st.lists(st.floats(0.01, 10.0), min_size=n, max_size=n)))
    report = quiet(indist_fast.evaluate, y, s, sample_weight=w, levels=(0.2, 0.5, 0.8))
    for name in PROBABILITY_FIELDS:
        assert _in_unit_interval(getattr(report, name)), name
    for point in report.at.values():
        assert _in_unit_interval([point.precision, point.tpr, point.fpr, point.f1])
    c = quiet(indist_fast.curves, y, s, sample_weight=w)
    for name in CURVE_PROBABILITIES:
        assert _in_unit_interval(getattr(c, name)), name
    # B is not a probability: fractional weights can carry SPEC's value outside [0, 1],
    # and it is reported as is; inside [0, 1] (exactly) it stays inside.
    exact = [np.nan if b is None else b for b in oracle.exact_b(y, s, w)[1]]
    for got, want in zip(c.b, exact):
        if want != want:
            assert np.isnan(got)
        else:
            assert got == pytest.approx(float(want), rel=1e-9, abs=1e-12)
            if 0 <= want <= 1:
                assert 0 <= got <= 1
    assert _in_unit_interval(indist_fast.roc_auc(y, s, sample_weight=w))
    assert _in_unit_interval(indist_fast.average_precision(y, s, sample_weight=w))


# --- weights far from 1 ----------------------------------------------------------------

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([1.0, 2.0, 3.0, 4.0, 4.0, 2.0, 0.5, 5.0])
BASE_W = np.array([1.0, 2.0, 3.0, 1.5, 0.5, 2.5, 1.0, 0.25])


@pytest.mark.parametrize("factor", [2.0 ** 664, 2.0 ** 996, 2.0 ** -664, 2.0 ** -1060])
@pytest.mark.parametrize("exclude_self", [True, False])
def test_weights_scaled_far_from_one(backend, factor, exclude_self):
    """AUC, AP and rates are scale invariant (the factors are exact powers of two,
    ~1e200, ~1e300, ~1e-200 and subnormal weights); B with exclude_self=True is not
    (SPEC §3): each is compared with its exact value at those weights."""
    w = BASE_W * factor
    report = quiet(indist_fast.evaluate, Y, S, sample_weight=w, exclude_self=exclude_self)
    base = quiet(indist_fast.evaluate, Y, S, sample_weight=BASE_W)
    assert report.auc == pytest.approx(float(oracle.exact_auc(Y, S, w)), rel=1e-12)
    assert report.auc == base.auc
    assert report.average_precision == base.average_precision
    c = quiet(indist_fast.curves, Y, S, sample_weight=w, exclude_self=exclude_self)
    cb = quiet(indist_fast.curves, Y, S, sample_weight=BASE_W)
    np.testing.assert_allclose(c.tpr, cb.tpr, rtol=1e-12)
    np.testing.assert_allclose(c.precision, cb.precision, rtol=1e-12)
    _, exact = oracle.exact_b(Y, S, w, exclude_self)
    want = np.array([np.nan if v is None else float(v) for v in exact])
    np.testing.assert_allclose(c.b, want, rtol=1e-12, equal_nan=True)
    hits = np.flatnonzero(want >= 0.5)
    assert report.reached == bool(len(hits))
    assert all(np.isfinite([report.auc, report.average_precision, report.base_rate]))


@pytest.mark.parametrize("big", [1e200, 1e308])
def test_huge_weight_mixed_with_ones(backend, big):
    w = BASE_W.copy()
    w[3] = big
    report = quiet(indist_fast.evaluate, Y, S, sample_weight=w)
    assert report.auc == pytest.approx(float(oracle.exact_auc(Y, S, w)), rel=1e-12)
    assert np.isfinite(report.average_precision) and np.isfinite(report.weight_pos)
    assert indist_fast.roc_auc(Y, S, sample_weight=w) == report.auc


@pytest.mark.parametrize("tiny", [5e-324, 1e-200])
def test_tiny_weights_mixed_with_ones(backend, tiny):
    w = BASE_W.copy()
    w[[1, 2]] = tiny
    report = quiet(indist_fast.evaluate, Y, S, sample_weight=w)
    assert report.auc == pytest.approx(float(oracle.exact_auc(Y, S, w)), rel=1e-12)
    c = quiet(indist_fast.curves, Y, S, sample_weight=w)
    _, exact = oracle.exact_b(Y, S, w)
    want = np.array([np.nan if v is None else float(v) for v in exact])
    np.testing.assert_allclose(c.b, want, rtol=1e-12, equal_nan=True)


def test_all_tiny_weights_give_numbers_not_nan(backend):
    """W_P W_N underflows without the internal rescale."""
    for tiny in (5e-324, 1e-200):
        w = np.full(len(Y), tiny)
        assert indist_fast.roc_auc(Y, S, sample_weight=w) == pytest.approx(
            float(oracle.exact_auc(Y, S, w)), rel=1e-12)
        assert np.isfinite(indist_fast.average_precision(Y, S, sample_weight=w))


@pytest.mark.parametrize("pos, neg", [(1e-24, 1e300), (1e-100, 1e250), (2.0 ** -700, 2.0 ** 700),
                                      (2.0 ** -900, 2.0 ** -200), (2.0 ** -1000, 1.0),
                                      (1e300, 1e-24), (2.0 ** 700, 2.0 ** -700)])
@pytest.mark.parametrize("exclude_self", [True, False])
def test_classes_far_apart_in_weight(backend, pos, neg, exclude_self):
    """The sweep's scale is chosen from both class totals: the lighter class must not
    underflow (a false "only negatives" error, or NaN and 0 AUCs, before) nor the
    products of totals overflow or underflow. Class-wise constant weights leave AUC
    and AP as without weights."""
    w = np.where(Y == 1, pos, neg)
    report = quiet(indist_fast.evaluate, Y, S, sample_weight=w, exclude_self=exclude_self)
    assert report.auc == pytest.approx(float(oracle.exact_auc(Y, S, w)), rel=1e-12)
    assert report.auc == pytest.approx(quiet(indist_fast.evaluate, Y, S).auc, rel=1e-12)
    assert report.average_precision == pytest.approx(_exact_ap(Y, S, w), rel=1e-12)
    assert report.weight_pos == pytest.approx(4 * pos, rel=1e-12)
    c = quiet(indist_fast.curves, Y, S, sample_weight=w, exclude_self=exclude_self)
    _, exact = oracle.exact_b(Y, S, w, exclude_self)
    want = np.array([np.nan if v is None else float(v) for v in exact])
    np.testing.assert_allclose(c.b, want, rtol=1e-12, atol=1e-12,   # (clamp_b: B's
                               equal_nan=True)                    # rounding past 0)


def _exact_ap(y, s, w):
    """Average precision (SPEC: sum over groups of tp_g / W_P times precision there)
    in exact rational arithmetic."""
    from fractions import Fraction
    weights = [Fraction(v) for v in w.tolist()]
    w_pos = sum(v for v, yi in zip(weights, y) if yi)
    tp = fp = ap = Fraction(0)
    for score in sorted(set(s.tolist()), reverse=True):
        rows = [(v, yi) for v, yi, si in zip(weights, y, s.tolist()) if si == score]
        tp_g = sum(v for v, yi in rows if yi)
        tp += tp_g
        fp += sum(v for v, yi in rows if not yi)
        if tp_g:
            ap += tp_g / w_pos * tp / (tp + fp)
    return float(ap)


@pytest.mark.parametrize("pos, neg", [(5e-322, 1e300), (1e300, 5e-322), (1e-310, 2.0 ** 700)])
def test_classes_too_far_apart_are_refused(backend, pos, neg):
    w = np.where(Y == 1, pos, neg)
    for fn in (indist_fast.evaluate, indist_fast.roc_auc, indist_fast.curves,
               indist_fast.precision_recall_curve, indist_fast.evaluate_many):
        with pytest.raises(ValueError, match=r"sample_weight: .* 2\*\*1500 apart"):
            quiet(fn, Y, S, sample_weight=w)
    groups = np.array(["a", "b"])[np.arange(len(Y)) % 2]
    with pytest.raises(ValueError, match=r"sample_weight: in the segment group='a': .* "
                                         r"2\*\*1500 apart"):
        quiet(indist_fast.evaluate_many, Y, S, sample_weight=w, groups=groups)
    within = np.where(np.arange(len(Y)) % 2, w, 1.0)     # segment b alone is too far apart
    with pytest.raises(ValueError, match=r"in the segment group='b'"):
        quiet(indist_fast.evaluate_many, Y, S, sample_weight=within, groups=groups)


def test_total_weight_beyond_float64_is_refused(backend):
    w = np.full(len(Y), 1e308)
    for fn in (indist_fast.evaluate, indist_fast.roc_auc, indist_fast.curves):
        with pytest.raises(ValueError, match="sample_weight"):
            quiet(fn, Y, S, sample_weight=w)
    with pytest.raises(ValueError, match="sample_weight"):
        quiet(ScoreTable.from_arrays(Y, S, w).evaluate)


@pytest.mark.slow
def test_weighted_sweep_reruns_with_its_own_total():
    """When the counted W_P does not round like the sweep's TP (rare with compensated
    sums; forced here), the sweep is run again with its own total, and the two-piece
    sweep steps aside: B stays exactly 1/2 where it is by structure."""
    y, s, w = STRUCTURAL["big_top_group"]
    threshold, _ = _exact_point(y, s, w)
    r = prepare_rows(y, s, w)
    keys_hi, keys_lo, rows, bits, wp, wn, tp_hi, wn_lo = _fast._sorted_keys(
        r.y, r.s, r.w, r.pos_value, r.neg_value)
    lv = np.array([0.5])
    off = np.nextafter(wp, np.inf)
    assert _fast._two_piece_keys(keys_hi, keys_lo, rows, bits, off, wn, tp_hi, wn_lo, lv,
                                 True) is None
    result = _fast._summarize_keys(keys_hi, keys_lo, rows, bits, off, wn, lv, True, None)
    assert result.crossings[0, 1] == threshold and result.crossings[0, 4] == 0.5
    assert result.weight_pos == wp


@pytest.mark.slow
@pytest.mark.parametrize("name", ["big_top_group", "big_mirror"])
def test_b_one_half_through_chunked_weighted_files(backend, name, tmp_path):
    """Beyond the memory limit, weighted files are summed as tables chunk by chunk."""
    y, s, w = STRUCTURAL[name]
    threshold, _ = _exact_point(y, s, w)
    path = tmp_path / "rows.npz"
    np.savez(path, y=np.asarray(y), s=np.asarray(s, float), w=np.asarray(w))
    _assert_at_half(quiet(indist_fast.evaluate_file, path, label="y", score="s", weight="w",
                          memory_limit=200_000, progress=False), threshold)


def test_the_sweep_scale_is_its_twins():
    """``sweep.weight_scale`` and ``rates.weight_scale`` agree on every pair of class
    totals' exponents, odd negative sums included (floor, not C's truncation)."""
    from indist_fast._core import _sorted
    from indist_fast._core.rates import weight_scale
    exponents = list(range(-1074, 1024, 7)) + [-1074, -1073, -1001, -1000, -999, -501, -500,
                                               -499, -2, -1, 0, 1, 499, 500, 501, 1023]
    rng = np.random.default_rng(3)
    for a in exponents:
        for b in rng.choice(exponents, 40):
            for wp, wn in ((2.0 ** a * 1.5, 2.0 ** int(b)), (2.0 ** a, 0.0), (0.0, 2.0 ** a)):
                if not np.isfinite(wp + wn):
                    continue
                assert _sorted.sweep_scale(wp, wn) == weight_scale(wp, wn), (wp, wn)
    for bad in ((np.nan, 1.0), (1.0, np.inf), (-1.0, 2.0), (0.0, 0.0)):
        assert _sorted.sweep_scale(*bad) == weight_scale(*bad) == 1.0


def test_a_last_b_just_below_the_level_is_shown_in_full():
    """Positives 1e324 times heavier than negatives: B with every row labelled is 1/2
    less about an ulp, and the warning shows it so (at four digits it read 0.5)."""
    from indist_fast._core import reference
    rng = np.random.default_rng(0)
    y = rng.random(1000) < 0.3
    s = np.round(rng.normal(size=1000) + y, 1)
    w = np.where(y, 1e300, 1e-24)
    result = reference.summarize(y.view(np.uint8), s, w, 1.0, 0.0, np.array([0.5]), True)
    assert 0.5 - 1e-15 < result.b_last < 0.5
    with pytest.warns(indist_fast.LevelNotReachedWarning,
                      match=r"B is 0\.49999999999999\d* at the lowest threshold"):
        indist_fast.Report.from_sweep(result, (), 1000, True)
