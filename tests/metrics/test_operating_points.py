"""Confusion counts, best thresholds, ROC dominance and intervals at an operating point,
each against an oracle computed from the rows by plain loops, scikit-learn
or the library's own reference sweep."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

import indist_fast
from indist_fast import UndefinedBWarning
from indist_fast.inference.bootstrap import Resampler
from indist_fast.metrics.operating_points import CRITERIA, wilson_interval
from indist_fast._core.validation import prepare_rows


def make_rows(seed, n=None, weighted=False, levels=6, signal=0):
    """Small rows with many ties; at least 2 of positive weight (so B is defined);
    ``signal`` lifts the positives' scores."""
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(6, 30))
    y = rng.random(n) < 0.4
    y[:2], y[2] = True, False
    s = rng.integers(0, levels, n).astype(float) + signal * y
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    return y, s, w


def weights_of(y, w):
    return np.ones(len(y)) if w is None else np.asarray(w, float)


def counts_at(y, s, w, t):
    """(tp, fp, tn, fn) at s >= t by a plain loop over rows."""
    tp = fp = tn = fn = 0.0
    for yi, si, wi in zip(y, s, weights_of(y, w)):
        if si >= t:
            tp, fp = (tp + wi, fp) if yi else (tp, fp + wi)
        else:
            fn, tn = (fn + wi, tn) if yi else (fn, tn + wi)
    return tp, fp, tn, fn


def candidates(s):
    """Every operating point's threshold: inf (nothing labelled), then distinct scores."""
    return [math.inf] + sorted(set(np.asarray(s, float).tolist()), reverse=True)


# --------------------------------------------------------------------------- confusion

@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("weighted", [False, True])
def test_confusion_equals_sklearn_confusion_matrix(backend, seed, weighted):
    y, s, w = make_rows(seed, weighted=weighted)
    # ties at the threshold, between scores, above the max and below the min
    thresholds = np.r_[np.unique(s), np.unique(s) + 0.5, s.max() + 1, s.min() - 1,
                       -np.inf, np.inf]
    c = indist_fast.confusion(y, s, thresholds, sample_weight=w)
    for i, t in enumerate(thresholds):
        (tn, fp), (fn, tp) = confusion_matrix(y, s >= t, labels=[False, True],
                                              sample_weight=w)
        assert (c.tp[i], c.fp[i], c.tn[i], c.fn[i]) == pytest.approx((tp, fp, tn, fn),
                                                                     abs=1e-12)
        assert c.threshold[i] == t


@pytest.mark.parametrize("seed", range(8))
def test_confusion_rates_match_their_formulas_and_the_curves(backend, seed):
    y, s, w = make_rows(seed, weighted=seed % 2 == 1)
    c = indist_fast.confusion(y, s, np.unique(s), sample_weight=w)
    curves = indist_fast.curves(y, s, sample_weight=w)
    wp, wn = weights_of(y, w)[y].sum(), weights_of(y, w)[~y].sum()
    for i, t in enumerate(np.unique(s)):
        tp, fp, tn, fn = counts_at(y, s, w, t)
        expect = {"tpr": tp / wp, "fpr": fp / wn, "tnr": tn / wn, "fnr": fn / wp,
                  "precision": tp / (tp + fp),
                  "npv": tn / (tn + fn) if tn + fn else math.nan,
                  "accuracy": (tp + tn) / (wp + wn),
                  "balanced_accuracy": (tp / wp + tn / wn) / 2,
                  "f1": 2 * tp / (2 * tp + fp + fn)}
        for name, value in expect.items():
            assert getattr(c, name)[i] == pytest.approx(value, abs=1e-12, nan_ok=True), name
        # B and C(r) at the operating point of t are the curves' entries there
        j = int(np.flatnonzero(curves.thresholds == t)[0])
        assert c.b[i] == curves.b[j]
        assert c.precision[i] == curves.precision[j]


def test_confusion_at_r_b_is_evaluate_operating_point(backend):
    y, s, w = make_rows(3, n=40, weighted=True, signal=3)
    report = indist_fast.evaluate(y, s, sample_weight=w)
    c = indist_fast.confusion(y, s, report.threshold, sample_weight=w)
    assert (c.precision, c.b, c.tpr, c.fpr, c.f1) == (
        report.precision, report.b, report.tpr, report.fpr, report.f1)


def test_confusion_shapes_scalars_and_read_only_arrays(backend):
    y, s, w = make_rows(1)
    scalar = indist_fast.confusion(y, s, 2)
    assert all(isinstance(getattr(scalar, f), float) for f in ("tp", "precision", "b"))
    grid = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 9.0]])
    c = indist_fast.confusion(y, s, grid)
    assert c.tp.shape == grid.shape and not c.tp.flags.writeable
    flat = indist_fast.confusion(y, s, grid.ravel())
    assert np.array_equal(c.tp.ravel(), flat.tp)
    assert indist_fast.confusion(y, s, np.float32(2.0)).tp == scalar.tp
    assert indist_fast.confusion(y, s, [2]).tp.tolist() == [scalar.tp]


def test_confusion_undefined_ratios_are_nan_without_warnings(backend):
    y, s = [0, 1, 1, 0, 1], [0.1, 0.9, 0.5, 0.4, 0.3]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nothing = indist_fast.confusion(y, s, 5.0)
        everything = indist_fast.confusion(y, s, -np.inf)
    assert math.isnan(nothing.precision) and math.isnan(nothing.b)
    assert nothing.f1 == 0.0 and nothing.npv == 0.4
    assert math.isnan(everything.npv) and everything.tpr == 1.0 and everything.fpr == 1.0


def test_confusion_infinite_scores_and_thresholds(backend):
    y, s = [1, 1, 0, 0, 1], [np.inf, 0.5, -np.inf, 0.2, 0.7]
    c = indist_fast.confusion(y, s, [np.inf, -np.inf, 0.6])
    assert c.tp.tolist() == [1.0, 3.0, 2.0] and c.fp.tolist() == [0.0, 2.0, 0.0]


def test_confusion_warns_when_b_is_undefined_where_rows_are_labelled(backend):
    with pytest.warns(UndefinedBWarning):
        c = indist_fast.confusion([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], 0.5,
                                  sample_weight=[0.1] * 4)
    assert math.isnan(c.b) and c.tp == pytest.approx(0.2)
    c = indist_fast.confusion([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], 0.5,
                              sample_weight=[0.1] * 4, exclude_self=False)
    assert not math.isnan(c.b)


@pytest.mark.parametrize("threshold, error, match", [
    (math.nan, ValueError, "threshold"), ([0.1, math.nan], ValueError, "threshold"),
    ("0.5", TypeError, "threshold"), (True, TypeError, "threshold"),
    ([True, False], TypeError, "threshold"), (["a"], TypeError, "threshold"),
    (None, TypeError, "threshold"),
    ([[0.1], [0.2, 0.3]], ValueError, "^threshold must be a number or a rectangular")])
def test_confusion_refuses_bad_thresholds_naming_them(backend, threshold, error, match):
    with pytest.raises(error, match=match):
        indist_fast.confusion([0, 1], [0.1, 0.9], threshold)


def test_confusion_refuses_bad_rows_and_one_class(backend):
    with pytest.raises(ValueError, match="only"):
        indist_fast.confusion([1, 1], [0.1, 0.9], 0.5)
    with pytest.raises(ValueError, match="y_score"):
        indist_fast.confusion([0, 1], [0.1, math.nan], 0.5)
    with pytest.raises(TypeError, match="exclude_self"):
        indist_fast.confusion([0, 1], [0.1, 0.9], 0.5, exclude_self="no")


def test_confusion_leaves_its_inputs_alone(backend):
    y, s, w = make_rows(2, weighted=True)
    t = np.unique(s)
    copies = [a.copy() for a in (y, s, w, t)]
    indist_fast.confusion(y, s, t, sample_weight=w)
    assert all(np.array_equal(a, b) for a, b in zip((y, s, w, t), copies))


def test_confusion_pos_label(backend):
    labels = np.array(["spam", "ham", "spam", "ham"])
    c = indist_fast.confusion(labels, [0.9, 0.8, 0.3, 0.1], 0.5, pos_label="spam")
    assert (c.tp, c.fp, c.tn, c.fn) == (1.0, 1.0, 1.0, 1.0)


# ---------------------------------------------------------------------- best threshold

def merit(name, tp, fp, tn, fn, **p):
    """Each criterion's value from the four counts, written out independently."""
    P, N = tp + fn, fp + tn
    W = P + N
    if name == "accuracy":
        return (tp + tn) / W
    if name == "balanced_accuracy":
        return (tp / P + tn / N) / 2
    if name == "youden":
        return tp / P + tn / N - 1
    if name == "f1":
        return 2 * tp / (2 * tp + fp + fn)
    if name == "cost_c":
        c = p["c"]
        return -2 * (c * (P / W) * (fn / P) + (1 - c) * (N / W) * (fp / N))
    if name == "cost_fn_fp":
        return -(p["cost_fn"] * fn + p["cost_fp"] * fp) / W
    if name == "gain":
        return (p["gain_tp"] * tp + p["gain_tn"] * tn) / W
    if name == "punzi":
        return (tp / P) / (p.get("a", 3) / 2 + math.sqrt(fp * p.get("background_scale", 1)))
    if name == "ams":
        s = tp * p.get("signal_scale", 1)
        b = fp * p.get("background_scale", 1)
        br = p.get("b_reg", 10)
        if b + br == 0:
            return math.nan
        return math.sqrt(max(2 * ((s + b + br) * math.log(1 + s / (b + br)) - s), 0))
    raise AssertionError(name)


CASES = [("accuracy", "accuracy", {}), ("balanced_accuracy", "balanced_accuracy", {}),
         ("youden", "youden", {}), ("f1", "f1", {}),
         ("cost", "cost_c", {"c": 0.3}), ("cost", "cost_c", {"c": 0.8}),
         ("cost", "cost_fn_fp", {"cost_fn": 1.0, "cost_fp": 4.0}),
         ("cost", "gain", {"gain_tp": 3.0, "gain_tn": 1.0}),
         ("punzi", "punzi", {}), ("punzi", "punzi", {"a": 5, "background_scale": 0.1}),
         ("ams", "ams", {}), ("ams", "ams", {"b_reg": 0, "signal_scale": 0.01}),
         ("ams", "ams", {"b_reg": 1.5, "background_scale": 2.0})]


def brute_best(y, s, w, name, **p):
    """The highest threshold with the optimal figure of merit (maximised; losses are
    negated above), by a loop over candidates and rows."""
    values = [(t, merit(name, *counts_at(y, s, w, t), **p)) for t in candidates(s)]
    finite = [v for _, v in values if not math.isnan(v)]
    top, scale = max(finite), max(abs(v) for v in finite if math.isfinite(v))
    # ties as documented: within 1e-12 of the largest magnitude
    return next((t, v) for t, v in values if v >= top - 1e-12 * scale)


@pytest.mark.parametrize("criterion, oracle_name, params", CASES,
                         ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
@pytest.mark.parametrize("seed", range(10))
def test_best_threshold_is_the_brute_force_optimum(backend, criterion, oracle_name,
                                                   params, seed):
    y, s, w = make_rows(seed, weighted=seed % 2 == 1)
    best = indist_fast.best_threshold(y, s, criterion, sample_weight=w, **params)
    t, value = brute_best(y, s, w, oracle_name, **params)
    assert best.threshold == t
    sign = -1 if oracle_name in ("cost_c", "cost_fn_fp") else 1
    assert best.value == pytest.approx(sign * value, abs=1e-12)
    # the rest of the record is the confusion at that threshold
    c = indist_fast.confusion(y, s, t, sample_weight=w)
    assert (best.tp, best.fp, best.tn, best.fn, best.precision, best.b) == pytest.approx(
        (c.tp, c.fp, c.tn, c.fn, c.precision, c.b), nan_ok=True)
    assert best.criterion == criterion


@pytest.mark.parametrize("seed", range(6))
def test_best_threshold_with_real_weights_reaches_the_optimal_value(backend, seed):
    rng = np.random.default_rng(seed)
    y, s, _ = make_rows(seed, n=25)
    w = rng.random(len(y)) * 5 + 0.5
    for criterion, name, params in CASES:
        best = indist_fast.best_threshold(y, s, criterion, sample_weight=w, **params)
        _, value = brute_best(y, s, w, name, **params)
        sign = -1 if name in ("cost_c", "cost_fn_fp") else 1
        assert best.value == pytest.approx(sign * value, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("name", ["recall", "precision", "fpr", "tnr"])
@pytest.mark.parametrize("seed", range(8))
def test_targets_follow_their_rule(backend, name, seed):
    y, s, w = make_rows(seed, weighted=seed % 2 == 0)
    for target in (0.0, 0.2, 0.5, 0.75, 0.9, 1.0):
        meeting = dict(meeting_target(y, s, w, name, target))
        if not meeting:
            with pytest.raises(ValueError, match=name):
                indist_fast.best_threshold(y, s, name, sample_weight=w, target=target)
            continue
        best = indist_fast.best_threshold(y, s, name, sample_weight=w, target=target)
        # recall: the highest threshold meeting it; the others: the lowest
        expect = max(meeting) if name == "recall" else min(meeting)
        assert best.threshold == expect
        assert best.value == pytest.approx(meeting[expect])


def meeting_target(y, s, w, name, target):
    """(threshold, rate) of every candidate meeting the target, by loops."""
    out = []
    for t in candidates(s):
        tp, fp, tn, fn = counts_at(y, s, w, t)
        rate = {"recall": tp / (tp + fn), "fpr": fp / (fp + tn), "tnr": tn / (fp + tn),
                "precision": tp / (tp + fp) if tp + fp else math.nan}[name]
        if (rate <= target) if name == "fpr" else (rate >= target):
            out.append((t, rate))
    return out


def test_precision_target_out_of_reach_is_a_value_error(backend):
    y, s = [1, 0, 1, 0], [0.9, 0.8, 0.2, 0.1]      # best precision 1 at 0.9 ...
    with pytest.raises(ValueError, match="precision >= 1.0"):
        indist_fast.best_threshold([0, 1, 0, 1], [0.9, 0.8, 0.2, 0.1], "precision",
                                   target=1.0)
    assert indist_fast.best_threshold(y, s, "precision", target=1.0).threshold == 0.9


@pytest.mark.parametrize("level", [0.4, 0.5, 0.6])
@pytest.mark.parametrize("seed", range(6))
def test_indistinguishability_is_evaluates_threshold(backend, level, seed):
    y, s, w = make_rows(seed, n=40, weighted=seed % 2 == 1, levels=12, signal=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.LevelNotReachedWarning)
        point = indist_fast.evaluate(y, s, sample_weight=w, levels=(level,)).at[level]
    if not point.reached:
        with pytest.raises(ValueError, match="level"):
            indist_fast.best_threshold(y, s, "indistinguishability", sample_weight=w,
                                       level=level)
        return
    best = indist_fast.best_threshold(y, s, "indistinguishability", sample_weight=w,
                                      level=level)
    assert (best.threshold, best.precision, best.value) == (point.threshold,
                                                            point.precision, point.b)


def test_indistinguishability_not_reached_raises(backend):
    with pytest.raises(ValueError, match="level"):
        indist_fast.best_threshold([0, 0, 1, 1], [0.9, 0.8, 0.1, 0.2],
                                   "indistinguishability")


def test_plateau_returns_the_highest_threshold(backend):
    # accuracy is 4/6 at thresholds 0.9, 0.7 and 0.5: a plateau of three points
    y = [1, 0, 1, 0, 0, 1]
    s = [0.9, 0.7, 0.5, 0.3, 0.2, 0.1]
    acc = [merit("accuracy", *counts_at(np.array(y, bool), np.array(s), None, t))
           for t in candidates(s)]
    top = max(acc)
    plateau = [t for t, a in zip(candidates(s), acc) if a == top]
    assert len(plateau) >= 2
    assert indist_fast.best_threshold(y, s, "accuracy").threshold == max(plateau)
    # c = 0 makes false negatives free: every threshold ties only with "nothing
    # positive", and the highest (inf) is returned
    assert indist_fast.best_threshold(y, s, "cost", c=0.0).threshold == math.inf


def test_gains_choose_what_equal_costs_choose(backend):
    for seed in range(10):
        y, s, w = make_rows(seed, weighted=True)
        a = indist_fast.best_threshold(y, s, "cost", sample_weight=w, gain_tp=2.0,
                                       gain_tn=5.0)
        b = indist_fast.best_threshold(y, s, "cost", sample_weight=w, cost_fn=2.0,
                                       cost_fp=5.0)
        assert a.threshold == b.threshold


def test_cost_proportion_is_spec_loss(backend):
    y, s, w = make_rows(4, weighted=True)
    best = indist_fast.best_threshold(y, s, "cost", sample_weight=w, c=0.25)
    pi1 = weights_of(y, w)[y].sum() / weights_of(y, w).sum()
    q = 2 * (0.25 * pi1 * (1 - best.tpr) + 0.75 * (1 - pi1) * best.fpr)
    assert best.value == pytest.approx(q)


def test_callable_criterion(backend):
    y, s, w = make_rows(5, weighted=True)
    seen = {}

    def net(tp, fp, tn, fn):
        seen["writeable"] = tp.flags.writeable
        return tp - 3 * fp

    best = indist_fast.best_threshold(y, s, net, sample_weight=w)
    expect = brute_best(y, s, w, "cost_fn_fp", cost_fn=1.0, cost_fp=3.0)
    assert best.threshold == expect[0] and best.criterion == "net"
    assert seen["writeable"] is False
    low = indist_fast.best_threshold(y, s, lambda tp, fp, tn, fn: tp - 3 * fp,
                                     sample_weight=w, maximize=False)
    values = [(t, tp - 3 * fp) for t in candidates(s)
              for tp, fp, _, _ in [counts_at(y, s, w, t)]]
    worst = next(t for t, v in values if v == min(v for _, v in values))
    assert low.threshold == worst


def test_top_score_inf_drops_the_nothing_positive_point(backend):
    y, s = [0, 0, 1], [np.inf, 0.5, 0.1]
    # labelling nothing is the best accuracy (2/3) but no threshold s >= t does it
    best = indist_fast.best_threshold(y, s, "accuracy")
    assert best.threshold == np.inf and best.fp == 1.0
    assert best.accuracy == indist_fast.confusion(y, s, np.inf).accuracy


@pytest.mark.parametrize("call, error, match", [
    (dict(criterion="nope"), ValueError, "criterion must be one of"),
    (dict(criterion=3), ValueError, "criterion"),
    (dict(criterion="recall"), TypeError, "target"),
    (dict(criterion="recall", target=0.5, level=0.5), TypeError, "level"),
    (dict(criterion="accuracy", c=0.5), TypeError, "unexpected parameter.*c"),
    (dict(criterion="cost"), TypeError, "cost_fn"),
    (dict(criterion="cost", c=0.5, cost_fn=1.0), TypeError, "exactly one"),
    (dict(criterion="cost", cost_fn=1.0), TypeError, "exactly one"),
    (dict(criterion="cost", c=1.5), ValueError, "c must"),
    (dict(criterion="cost", cost_fn=-1.0, cost_fp=1.0), ValueError, "cost_fn"),
    (dict(criterion="cost", cost_fn=0.0, cost_fp=0.0), ValueError, "both 0"),
    (dict(criterion="cost", gain_tp="1", gain_tn=1.0), TypeError, "gain_tp"),
    (dict(criterion="punzi", a=0), ValueError, "a must"),
    (dict(criterion="punzi", background_scale=-1), ValueError, "background_scale"),
    (dict(criterion="ams", b_reg=-1), ValueError, "b_reg"),
    (dict(criterion="ams", signal_scale=math.nan), ValueError, "signal_scale"),
    (dict(criterion="recall", target=1.5), ValueError, "target"),
    (dict(criterion="fpr", target=True), TypeError, "target"),
    (dict(criterion="indistinguishability", level=1.0), ValueError, "level"),
    (dict(criterion=lambda tp, fp, tn, fn: tp, target=1), TypeError, "target"),
    (dict(criterion=lambda tp, fp, tn, fn: tp, maximize="yes"), TypeError, "maximize"),
    (dict(criterion=lambda tp, fp, tn, fn: 1.0), TypeError, "one per operating point"),
    (dict(criterion=lambda tp, fp, tn, fn: tp[:2]), TypeError, "criterion"),
    (dict(criterion=lambda tp, fp, tn, fn: 1 / 0), ValueError, "ZeroDivisionError"),
    (dict(criterion=lambda tp, fp, tn, fn: tp * np.nan), ValueError, "NaN"),
    (dict(criterion="f1", exclude_self=1), TypeError, "exclude_self"),
])
def test_best_threshold_refuses_bad_criteria_and_parameters(backend, call, error, match):
    call = dict(call)
    criterion = call.pop("criterion")
    with pytest.raises(error, match=match):
        indist_fast.best_threshold([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3], criterion, **call)


def test_every_named_criterion_is_documented():
    doc = indist_fast.best_threshold.__doc__
    assert all(f'"{name}"' in doc for name in CRITERIA)


# --------------------------------------------------------------------------- dominance

def curve_points(y, s, w):
    """ROC vertices (fpr, tpr) from (0, 0), one per distinct score, by loops."""
    pts = [(0.0, 0.0)]
    wt = weights_of(y, w)
    P, N = wt[y].sum(), wt[~y].sum()
    for t in sorted(set(np.asarray(s, float).tolist()), reverse=True):
        tp, fp, _, _ = counts_at(y, s, w, t)
        pts.append((fp / N, tp / P))
    return pts


def highest_tpr(points, x):
    """The curve's highest tpr at fpr x: max over the segments that contain x."""
    best = -math.inf
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x0 <= x <= x1:
            best = max(best, y1 if x0 == x1 else y0 + (x - x0) * (y1 - y0) / (x1 - x0))
    return best


@pytest.mark.parametrize("seed", range(25))
def test_dominates_against_a_fine_grid(backend, seed):
    rng = np.random.default_rng(seed)
    y, s, w = make_rows(seed, weighted=seed % 3 == 0)
    if seed % 4 == 0:       # a model that is A made worse on some rows: often dominated
        s_b = s + rng.normal(0, 1.5, len(s)) * (rng.random(len(s)) < 0.5)
    else:
        s_b = rng.integers(0, 6, len(s)).astype(float)
    d = indist_fast.dominates(y, s, s_b, sample_weight=w)
    pa, pb = curve_points(y, s, w), curve_points(y, s_b, w)
    # every breakpoint of both curves and a fine grid between: the difference is
    # linear between breakpoints, so this grid sees every sign the curves take
    breaks = np.array([p[0] for p in pa + pb])
    # just left of each breakpoint too: a curve's value jumps at a vertical segment
    grid = np.union1d(np.linspace(0, 1, 401),
                      np.r_[breaks, np.clip(breaks - 1e-10, 0, 1)])
    diff = np.array([highest_tpr(pa, x) - highest_tpr(pb, x) for x in grid])
    assert d.a_dominates == bool((diff >= -1e-12).all())
    assert d.b_dominates == bool((diff <= 1e-12).all())
    assert d.max_gap_a == pytest.approx(max(diff.max(), 0), abs=1e-8)
    assert d.max_gap_b == pytest.approx(max(-diff.min(), 0), abs=1e-8)
    # ranges: a grid point strictly inside a range of A is a point where A is higher
    mids = (grid[1:] + grid[:-1]) / 2
    mid_diff = np.array([highest_tpr(pa, x) - highest_tpr(pb, x) for x in mids])
    in_a = np.array([any(lo < x < hi for lo, hi in d.a_higher) for x in mids])
    in_b = np.array([any(lo < x < hi for lo, hi in d.b_higher) for x in mids])
    # away from breakpoints, where rounding of the rates may move a range's end
    far = (np.abs(mid_diff) > 1e-9) & (np.abs(mids[:, None] - breaks).min(axis=1) > 1e-9)
    assert np.array_equal(in_a[far], mid_diff[far] > 0)
    assert np.array_equal(in_b[far], mid_diff[far] < 0)


def test_dominates_identical_and_transformed_curves(backend):
    y, s, w = make_rows(7, weighted=True)
    d = indist_fast.dominates(y, s, np.exp(s), sample_weight=w)
    assert d.a_dominates and d.b_dominates and d.a_higher == d.b_higher == ()


def test_dominates_ties_are_straight_segments(backend):
    # B ties everything: its ROC is the diagonal; A's staircase crosses it
    y = [1, 0, 0, 1]
    d = indist_fast.dominates(y, [4, 3, 2, 1], [0, 0, 0, 0])
    assert not d.a_dominates and not d.b_dominates
    assert d.a_higher == ((0.0, 0.5),) and d.b_higher == ((0.5, 1.0),)


def test_dominates_names_the_bad_score(backend):
    with pytest.raises(ValueError, match="score_b contains NaN"):
        indist_fast.dominates([0, 1, 0], [0.1, 0.2, 0.3], [0.1, math.nan, 0.3])
    with pytest.raises(ValueError, match="score_a"):
        indist_fast.dominates([0, 1, 0], [[0.1], [0.2], [0.3]], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="score_b"):
        indist_fast.dominates([0, 1, 0], [0.1, 0.2, 0.3], [0.1, 0.2])
    with pytest.raises(ValueError, match="atol"):
        indist_fast.dominates([0, 1], [0.1, 0.2], [0.1, 0.2], atol=-1.0)


# ----------------------------------------------------------------------------- intervals

def test_wilson_is_the_inverted_score_test():
    """Wilson's limits are the p where |k - n p| / sqrt(n p (1 - p)) equals z."""
    from scipy.stats import norm
    for k, n, conf in [(8, 10, 0.95), (0, 7, 0.9), (7, 7, 0.99), (33, 120, 0.8),
                       (1, 1, 0.95)]:
        z = norm.ppf((1 + conf) / 2)
        low, high = wilson_interval(k, n, conf)
        for p in (low, high):
            if 0 < p < 1:
                assert abs(k - n * p) / math.sqrt(n * p * (1 - p)) == pytest.approx(z)
        assert low <= k / n <= high
        assert (low == 0) == (k == 0) and (high == 1) == (k == n)
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


def test_interval_counts_and_wilson(backend):
    y, s, w = make_rows(9, n=60)
    r = indist_fast.operating_point_intervals(y, s, 3.0, confidence=0.9)
    tp, fp, tn, fn = counts_at(y, s, None, 3.0)
    for name, (k, n) in {"tpr": (tp, tp + fn), "fpr": (fp, fp + tn),
                         "precision": (tp, tp + fp)}.items():
        iv = r[name]
        assert (iv.successes, iv.trials, iv.estimate) == (k, n, pytest.approx(k / n))
        assert (iv.low, iv.high) == wilson_interval(k, n, 0.9)
        assert math.isnan(iv.bootstrap_low)
    nothing = indist_fast.operating_point_intervals(y, s, 99.0)
    assert math.isnan(nothing["precision"].low) and nothing["tpr"].high > 0


def test_bootstrap_replicates_are_the_rates_on_resampled_rows(backend):
    y, s, w = make_rows(11, n=50, weighted=True)
    r = indist_fast.operating_point_intervals(y, s, 2.0, sample_weight=w, n_boot=30,
                                              seed=5)
    rows = prepare_rows(y, s, w)
    resampler = Resampler.from_rows(rows, indist_fast.ScoreTable.from_rows(rows), seed=5)
    for k in range(30):
        yk, sk, wk = resampler.replicate_rows(k)
        tp, fp, tn, fn = counts_at(yk, sk, wk, 2.0)
        assert r.bootstrap["tpr"].replicates[k] == pytest.approx(tp / (tp + fn))
        assert r.bootstrap["fpr"].replicates[k] == pytest.approx(fp / (fp + tn))
        assert r.bootstrap["precision"].replicates[k] == pytest.approx(
            tp / (tp + fp) if tp + fp else math.nan, nan_ok=True)
    for name in ("tpr", "fpr", "precision"):
        assert (r[name].bootstrap_low, r[name].bootstrap_high) == (
            r.bootstrap[name].low, r.bootstrap[name].high)
    again = indist_fast.operating_point_intervals(y, s, 2.0, sample_weight=w, n_boot=30,
                                                  seed=5)
    assert again.tpr == r.tpr


@pytest.mark.parametrize("kw, error, match", [
    (dict(threshold=math.nan), ValueError, "threshold"),
    (dict(threshold="x"), TypeError, "threshold"),
    (dict(confidence=1.0), ValueError, "confidence"),
    (dict(n_boot=1), ValueError, "n_boot"),
    (dict(n_boot=2.5), TypeError, "n_boot"),
    (dict(n_boot=10, seed=-1), ValueError, "seed"),
    (dict(stratified=1), TypeError, "stratified"),
])
def test_intervals_refuse_bad_settings(backend, kw, error, match):
    kw = {"threshold": 0.5, **kw}
    with pytest.raises(error, match=match):
        indist_fast.operating_point_intervals([0, 1, 1, 0], [0.1, 0.9, 0.7, 0.8], **kw)


def test_interval_results_read_as_mappings_and_json(backend):
    r = indist_fast.operating_point_intervals([0, 1, 1, 0, 1], [0.1, 0.9, 0.7, 0.8, 0.2],
                                              0.5, n_boot=20, seed=0)
    d = r.to_dict()
    assert set(d) == {"threshold", "confidence", "tpr", "fpr", "precision"}
    assert d["tpr"]["successes"] == 2.0
    with pytest.raises(KeyError, match="tpr"):
        r["auc"]


@pytest.mark.parametrize("seed", range(5))
def test_integer_weights_act_as_repeated_rows(backend, seed):
    """SPEC §1: weight 3 is three copies of the row, for every result here."""
    y, s, w = make_rows(seed, weighted=True, signal=2)
    w[3] = 0.0                                  # a zero weight is an absent row
    ry, rs = np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int))
    t = np.r_[np.unique(s), np.inf]
    a, b = (indist_fast.confusion(y, s, t, sample_weight=w),
            indist_fast.confusion(ry, rs, t))
    for name in ("tp", "fp", "tn", "fn", "precision", "npv", "f1", "b"):
        assert np.allclose(getattr(a, name), getattr(b, name), equal_nan=True), name
    for criterion, _, params in CASES:
        assert indist_fast.best_threshold(y, s, criterion, sample_weight=w,
                                          **params).threshold == \
            indist_fast.best_threshold(ry, rs, criterion, **params).threshold
    wa = indist_fast.operating_point_intervals(y, s, 2.0, sample_weight=w)
    wb = indist_fast.operating_point_intervals(ry, rs, 2.0)
    assert (wa.precision.low, wa.tpr.high) == pytest.approx((wb.precision.low, wb.tpr.high))
    assert np.allclose(indist_fast.dominates(y, s, -s, sample_weight=w).a_higher,
                       indist_fast.dominates(ry, rs, -rs).a_higher)


# --- printed forms ---------------------------------------------------------------------------

def test_printed_records_show_their_numbers_compactly():
    g = np.random.default_rng(5)
    y = g.random(500) < 0.3
    a, b = y + g.normal(size=500), 0.5 * y + g.normal(size=500)
    c = indist_fast.confusion(y, a, 0.25)
    text = str(c)
    for v in (c.tp, c.fp, c.tn, c.fn):             # counts in full
        assert f"{int(v):,}" in text
    big = str(indist_fast.confusion(np.r_[y, np.zeros(200_000, bool)],
                                    np.r_[a, np.full(200_000, -5.0)], 0.25))
    assert f"{int(c.tn) + 200_000:,}" in big and "e+05" not in big
    assert f"tpr {c.tpr:.4g}" in text and f"B {c.b:.4g}" in text and "\n" in text
    many = str(indist_fast.confusion(y, a, np.linspace(-1, 2, 50)))
    assert len(many.splitlines()) == 1 + 20 + 1 and "(30 more: .to_dict() holds every row)" in many
    best = indist_fast.best_threshold(y, a, "youden")
    assert str(best).startswith(f"best youden: {best.value:.4g}\nat threshold {best.threshold:.4g}")
    d = indist_fast.dominates(y, a, b)
    expected = ("A dominates B" if d.a_dominates else "B dominates A" if d.b_dominates
                else "Neither dominates")
    assert str(d).startswith(expected)
    assert str(indist_fast.dominates(y, a, a)).startswith("A and B have the same ROC")
    iv = indist_fast.operating_point_intervals(y, a, 0.25)
    lines = str(iv).splitlines()
    assert len(lines) == 4 and lines[1].split()[:2] == ["tpr", f"{iv['tpr'].estimate:.4f}"]
