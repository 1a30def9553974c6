"""precision_recall_curve: scikit-learn's points, four areas, brute-force oracles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import auc as sk_auc
from sklearn.metrics import average_precision_score
from sklearn.metrics import precision_recall_curve as sk_prc

import indist_fast
from indist_fast import precision_recall_curve

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def scored_rows(draw, max_n=30):
    """Both classes, ties on a small grid, integer weights (zeros included) or none."""
    n = draw(st.integers(2, max_n))
    s = np.array(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))) / 8
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 1, 0
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), float)
        w[0], w[1] = max(w[0], 1), max(w[1], 1)
    return y, s, w


def brute_points(y, s, w):
    """TP and FP at every distinct score of positive weight, highest first, by a pass
    over the rows per threshold."""
    w = np.ones(len(s)) if w is None else np.asarray(w, float)
    thresholds = sorted({float(v) for v, wi in zip(s, w) if wi > 0}, reverse=True)
    tp = np.array([w[(s >= t) & (y == 1)].sum() for t in thresholds])
    fp = np.array([w[(s >= t) & (y == 0)].sum() for t in thresholds])
    return np.array(thresholds), tp, fp


def brute_auprg(tp, fp):
    """Flach and Kull's area from the definition, point by point: gains from the
    counts, the recall-gain-0 point on the crossing segment (counts interpolated
    linearly), then trapezoids in gain space."""
    wp, wn = tp[-1], fp[-1]
    pi = wp / (wp + wn)
    points = [(0.0, 0.0)] + list(zip(tp, fp))
    curve = []
    for k, (t, f) in enumerate(points):
        if t == 0 or t / wp < pi:
            continue
        if not curve and t / wp > pi:
            t0, f0 = points[k - 1]
            a = (pi * wp - t0) / (t - t0)
            fx = f0 + a * (f - f0)
            curve.append((0.0, 1 - (wp / wn) * fx / (pi * wp)))
        if k == len(points) - 1:
            curve.append((1.0, 0.0))
        else:
            curve.append((1 - (wp / wn) * (wp - t) / t, 1 - (wp / wn) * f / t))
    return sum((x1 - x0) * (y1 + y0) / 2 for (x0, y0), (x1, y1) in zip(curve, curve[1:]))


@SETTINGS
@given(rows=scored_rows())
def test_points_and_areas_match_scikit_learn_and_brute_force(backend, rows):
    y, s, w = rows
    pr = precision_recall_curve(y, s, sample_weight=w)
    thresholds, tp, fp = brute_points(y, s, w)
    np.testing.assert_array_equal(pr.thresholds, thresholds)
    np.testing.assert_allclose(pr.precision, tp / (tp + fp), rtol=1e-12)
    np.testing.assert_allclose(pr.recall, tp / tp[-1], rtol=1e-12)
    precision, recall, sk_thresholds = sk_prc(y, s, sample_weight=w)
    ours = pr.to_sklearn()
    np.testing.assert_array_equal(ours[2], sk_thresholds)
    np.testing.assert_allclose(ours[0], precision, rtol=1e-12)
    np.testing.assert_allclose(ours[1], recall, rtol=1e-12)
    assert pr.average_precision == pytest.approx(
        average_precision_score(y, s, sample_weight=w), abs=1e-12)
    assert pr.average_precision == indist_fast.average_precision(y, s, sample_weight=w)
    assert pr.area_trapezoid == pytest.approx(sk_auc(recall, precision), abs=1e-12)
    # interpolated precision at recall r: the best precision at recall r or beyond
    r_prev = np.r_[0.0, pr.recall[:-1]]
    best = [max(p for p, r in zip(pr.precision, pr.recall) if r >= rj) for rj in pr.recall]
    assert pr.area_interpolated == pytest.approx(float(np.sum((pr.recall - r_prev) * best)),
                                                 abs=1e-12)
    assert pr.area_interpolated >= pr.average_precision - 1e-12
    assert pr.auprg == pytest.approx(brute_auprg(tp, fp), abs=1e-12)
    assert pr.prevalence == pytest.approx(tp[-1] / (tp[-1] + fp[-1]), rel=1e-12)


@SETTINGS
@given(rows=scored_rows())
def test_integer_weights_are_copies(backend, rows):
    y, s, w = rows
    if w is None:
        return
    weighted = precision_recall_curve(y, s, sample_weight=w)
    copies = precision_recall_curve(np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int)))
    for name in ("thresholds", "precision", "recall"):
        np.testing.assert_allclose(getattr(weighted, name), getattr(copies, name),
                                   rtol=1e-12)
    for name in ("average_precision", "area_trapezoid", "area_interpolated", "auprg"):
        assert getattr(weighted, name) == pytest.approx(getattr(copies, name), abs=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_backends_agree(weighted):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.normal(size=300) + y, 1)
    w = rng.uniform(0, 2, 300) if weighted else None
    out = []
    for name in ("cython", "numpy"):
        with indist_fast._core.engine.use_backend(name):
            out.append(precision_recall_curve(y, s, sample_weight=w).to_dict())
    if not weighted:            # counts sum exactly in any order
        assert out[0] == out[1]
    for key, value in out[0].items():  # real weights: the engines sum in another order
        np.testing.assert_allclose(value, out[1][key], rtol=1e-12, err_msg=key)


def test_a_perfect_ranking_and_the_gains(backend):
    pr = precision_recall_curve([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert (pr.average_precision, pr.area_interpolated, pr.auprg) == (1.0, 1.0, 1.0)
    # gains: 0 at the prevalence, 1 at 1, -inf at 0
    np.testing.assert_allclose(pr.recall_gain, [0.0, 1.0, 1.0, 1.0], atol=1e-15)
    # precision 1, 1, 2/3, 1/2 at pi = 1/2: gain (p - 1/2) / (p / 2)
    np.testing.assert_allclose(pr.precision_gain, [1.0, 1.0, 0.5, 0.0], atol=1e-15)


def test_auprg_starts_at_recall_equal_to_the_prevalence(backend):
    # pi = 1/4: the first point (recall 1/2) is already past it, so the curve starts on
    # the segment from "nothing labelled" (TP = FP = 1/2 there: precision 1/2)
    y = [1, 0, 1, 0, 0, 0, 0, 0]
    s = [8, 8, 7, 6, 5, 4, 3, 2]
    pr = precision_recall_curve(y, s)
    pi = 0.25
    # precision gain where the curve starts: (1/2 - pi) / ((1 - pi) 1/2) = 2/3
    first = (0.5 - pi) / ((1 - pi) * 0.5)
    thresholds, tp, fp = brute_points(np.array(y), np.array(s, float), None)
    assert pr.auprg == pytest.approx(brute_auprg(tp, fp), abs=1e-15)
    gains = pr.precision_gain
    assert gains[0] == pytest.approx(first)
    # in gain space: (0, 2/3) -> (2/3, 2/3) [TP 1 FP 1] -> (1, 5/6) [TP 2 FP 1], then
    # vertical drops at recall gain 1 down to (1, 0), of no area
    rg1 = (0.5 - pi) / ((1 - pi) * 0.5)
    pg2 = (2 / 3 - pi) / ((1 - pi) * 2 / 3)
    expected = rg1 * first + (1 - rg1) * (first + pg2) / 2
    assert pr.auprg == pytest.approx(expected, abs=1e-15)


def test_a_random_ranking_has_auprg_near_zero_and_ap_near_the_prevalence():
    rng = np.random.default_rng(0)
    y = rng.random(200_000) < 0.1
    s = rng.random(200_000)
    pr = precision_recall_curve(y, s)
    assert abs(pr.auprg) < 0.05
    assert pr.average_precision == pytest.approx(pr.prevalence, abs=0.01)


def test_tables_and_pos_label(backend):
    pd = pytest.importorskip("pandas")
    y, p = [1, 0, 1, 0, 1], [0.9, 0.1, 0.3, 0.4, 0.3]
    expected = precision_recall_curve(y, p).to_dict()
    df = pd.DataFrame({"y": y, "p": p})
    assert precision_recall_curve(df, label="y", score="p").to_dict() == expected
    named = ["b" if v else "a" for v in y]
    assert precision_recall_curve(named, p, pos_label="b").to_dict() == expected


def test_result_is_frozen_and_inputs_untouched(backend):
    y = np.array([0, 1, 1, 0])
    s = np.array([0.3, 0.9, 0.3, 0.1])
    before = s.copy()
    pr = precision_recall_curve(y, s)
    np.testing.assert_array_equal(s, before)
    with pytest.raises(ValueError):
        pr.precision[0] = 0.0
    with pytest.raises(AttributeError):
        pr.auprg = 0.0          # type: ignore[misc]
    assert len(pr) == 3


@pytest.mark.parametrize("args, kwargs, error, match", [
    (([0, 0, 0], [0.1, 0.2, 0.3]), {}, ValueError, "y_true holds no positives"),
    (([1, 0], [0.1, 0.2]), {"sample_weight": [0, 1]}, ValueError, "no positives"),
    (([0, 1], [0.1, float("nan")]), {}, ValueError, "y_score"),
    (([0, 1], [0.1, 0.2]), {"sample_weight": [1, -1]}, ValueError, "sample_weight"),
    (([0, 1], [0.1, 0.2]), {"sample_weight": [0, 0]}, ValueError, "sample_weight"),
    (([0, 1, 2], [0.1, 0.2, 0.3]), {}, ValueError, "y_true"),
    (([0, 1],), {}, TypeError, "y_score"),
])
def test_bad_input_names_the_argument(backend, args, kwargs, error, match):
    with pytest.raises(error, match=match):
        precision_recall_curve(*args, **kwargs)


@pytest.mark.parametrize("w", [None, [1.0, 2.0, 0.5, 3.0]])
def test_only_positives_gives_scikit_learns_curve_and_an_undefined_auprg(backend, w):
    y, s = np.array([1, 1, 1, 1]), np.array([0.2, 0.7, 0.2, 0.9])
    with pytest.warns(indist_fast.IndistFastWarning, match="AUPRG is undefined"):
        pr = precision_recall_curve(y, s, sample_weight=w)
    precision, recall, thresholds = sk_prc(y, s, sample_weight=w)
    for ours, theirs in zip(pr.to_sklearn(), (precision, recall, thresholds)):
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-15)
    assert pr.average_precision == pytest.approx(
        average_precision_score(y, s, sample_weight=w), abs=1e-15)
    assert pr.area_trapezoid == pr.area_interpolated == 1.0
    assert np.isnan(pr.auprg)


def test_a_score_tables_curve_is_the_rows_curve(backend):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.normal(y, 1.0), 1)
    w = rng.integers(1, 4, 300).astype(float)
    parts = [indist_fast.ScoreTable.from_arrays(y[i::3], s[i::3], w[i::3]) for i in range(3)]
    merged = indist_fast.ScoreTable.concat(parts).precision_recall_curve()
    direct = precision_recall_curve(y, s, sample_weight=w)
    for name in ("thresholds", "precision", "recall"):
        np.testing.assert_array_equal(getattr(merged, name), getattr(direct, name))
    for name in ("average_precision", "area_trapezoid", "area_interpolated", "auprg"):
        assert getattr(merged, name) == pytest.approx(getattr(direct, name), abs=1e-15)


@pytest.mark.parametrize("pos, neg", [(1e-24, 1e300), (1e300, 1e-24), (1e-320, 1.0)])
def test_auprg_is_nan_with_a_warning_where_the_prevalence_is_unresolved(backend, pos, neg):
    """A prevalence that rounds to 0 or 1, or whose products underflow, leaves AUPRG's
    gains undefined in float64: NaN and a warning, not a silent NaN or -inf."""
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    s = np.array([1.0, 2.0, 3.0, 4.0, 4.0, 2.0, 0.5, 5.0])
    with pytest.warns(indist_fast.IndistFastWarning, match="AUPRG"):
        pr = indist_fast.precision_recall_curve(y, s, sample_weight=np.where(y == 1, pos, neg))
    assert np.isnan(pr.auprg) and np.isfinite(pr.average_precision)


def test_auprg_of_a_tiny_prevalence_is_finite(backend):
    """Its crossing term divides by pi1 W_N, not pi1 W_P (which underflowed to 0 and
    gave -inf at a prevalence of 1e-300)."""
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    s = np.array([1.0, 2.0, 3.0, 4.0, 4.0, 2.0, 0.5, 5.0])
    for tiny in (1e-100, 1e-300):
        pr = indist_fast.precision_recall_curve(y, s, sample_weight=np.where(y == 1, tiny, 1.0))
        assert np.isfinite(pr.auprg)
