"""Named threshold-choice metrics, skew labels, the rate-uniform contingency table and
the threshold choice paper's Table 2, against scikit-learn and brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import accuracy_score, balanced_accuracy_score
from sklearn.metrics import log_loss as sk_log_loss

import oracle
import indist_fast
import indist_fast.metrics.threshold_choice as tc

SETTINGS = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def probability_rows(draw, max_n=30):
    """Scores on a grid of twentieths in [0, 1] (ties), both classes, maybe weights."""
    n = draw(st.integers(2, max_n))
    s = np.array(draw(st.lists(st.integers(0, 20), min_size=n, max_size=n))) / 20
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    y[0], y[1] = True, False
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), float)
        w[0], w[1] = max(w[0], 1), max(w[1], 1)
    return y, s, w


def class_weights(y, w, condition):
    """Each row's weight as the condition counts it, summing to 1."""
    wt = np.ones(len(y)) if w is None else np.asarray(w, float)
    if condition == "cost":
        return wt / wt.sum()
    return np.where(y, 0.5 * wt / wt[y].sum(), 0.5 * wt / wt[~y].sum())


# --- the named metrics ---------------------------------------------------------------------

@pytest.mark.slow
@SETTINGS
@given(case=probability_rows(), t=st.integers(0, 21))
def test_accuracies_match_scikit_learn(backend, case, t):
    y, s, w = case
    t = t / 20
    assert tc.accuracy(y, s, t=t, sample_weight=w) == pytest.approx(
        accuracy_score(y, s >= t, sample_weight=w), abs=1e-12)
    assert tc.macro_accuracy(y, s, t=t, sample_weight=w) == pytest.approx(
        balanced_accuracy_score(y, s >= t, sample_weight=w), abs=1e-12)
    # and they are the score-fixed method's expected losses
    for condition, metric in (("cost", tc.accuracy), ("skew", tc.macro_accuracy)):
        assert 1 - metric(y, s, t=t, sample_weight=w) == pytest.approx(
            tc.expected_loss(y, s, "score-fixed", t=t, condition=condition,
                             sample_weight=w), abs=1e-12)


@pytest.mark.slow
@SETTINGS
@given(case=probability_rows())
def test_macro_scores_and_calibration_loss_from_the_rows(backend, case):
    y, s, w = case
    yf = y.astype(float)
    macro = class_weights(y, w, "skew")
    assert tc.macro_brier_score(y, s, sample_weight=w) == pytest.approx(
        np.sum(macro * (yf - s) ** 2), abs=1e-12)
    assert tc.macro_mean_absolute_error(y, s, sample_weight=w) == pytest.approx(
        np.sum(macro * np.abs(yf - s)), abs=1e-12)
    for condition in ("cost", "skew"):
        cw = class_weights(y, w, condition)
        keep = cw > 0
        # refinement: the Brier score of the isotonic (PAV) recalibration, ties pooled
        fitted = IsotonicRegression(out_of_bounds="clip").fit(
            s[keep], yf[keep], sample_weight=cw[keep]).predict(s[keep])
        expected = (np.sum(cw * (yf - s) ** 2)
                    - np.sum(cw[keep] * (yf[keep] - fitted) ** 2))
        got = tc.calibration_loss(y, s, condition=condition, sample_weight=w)
        assert got == pytest.approx(max(expected, 0.0), abs=1e-12)
        assert got == pytest.approx(
            tc.expected_loss(y, s, "score-driven", condition=condition, sample_weight=w)
            - tc.expected_loss(y, s, "optimal", condition=condition, sample_weight=w),
            abs=1e-12)


@pytest.mark.slow
@SETTINGS
@given(case=probability_rows())
def test_log_loss_matches_scikit_learn_inside_the_unit_interval(backend, case):
    y, s, w = case
    s = 0.02 + 0.96 * s           # no 0 or 1: scikit-learn clips those, we do not
    assert tc.log_loss(y, s, sample_weight=w) == pytest.approx(
        sk_log_loss(y, s, sample_weight=w), rel=1e-12)


def test_log_loss_at_the_ends(backend):
    # certain and right costs nothing; certain and wrong is infinite, not clipped
    assert tc.log_loss([0, 1], [0.0, 1.0]) == 0.0
    assert tc.log_loss([0, 1], [1.0, 1.0]) == math.inf
    # a zero-weight row at a certain wrong score is absent
    assert tc.log_loss([0, 1, 1], [0.5, 0.5, 0.0], sample_weight=[1, 1, 0]) == \
        pytest.approx(math.log(2))


@pytest.mark.parametrize("fn", [tc.macro_brier_score, tc.macro_mean_absolute_error,
                                tc.calibration_loss, tc.log_loss])
def test_probability_metrics_refuse_scores_outside_the_unit_interval(backend, fn):
    with pytest.raises(ValueError, match="y_score: .* needs scores in \\[0, 1\\]"):
        fn([0, 1, 1], [0.2, 1.5, 0.7])


@pytest.mark.parametrize("fn", [tc.accuracy, tc.macro_accuracy, tc.macro_brier_score,
                                tc.macro_mean_absolute_error, tc.calibration_loss,
                                tc.log_loss, tc.rate_uniform_contingency])
@pytest.mark.parametrize("args, kwargs, error, match", [
    (([1, 1], [0.2, 0.3]), {}, ValueError, "y_true holds only positives"),
    (([0, 1], [0.2, float("nan")]), {}, ValueError, "y_score"),
    (([0, 1], [0.2, 0.3]), {"sample_weight": [1, -2]}, ValueError, "sample_weight"),
    (([0, 1], [0.2, 0.3]), {"pos_label": 7}, ValueError, "pos_label"),
])
def test_bad_rows_name_the_argument(backend, fn, args, kwargs, error, match):
    with pytest.raises(error, match=match):
        fn(*args, **kwargs)


@pytest.mark.parametrize("t, error", [(float("nan"), ValueError), ("x", TypeError),
                                      (None, TypeError)])
@pytest.mark.parametrize("fn", [tc.accuracy, tc.macro_accuracy])
def test_accuracy_threshold_is_checked(backend, fn, t, error):
    with pytest.raises(error, match="^t must"):
        fn([0, 1], [0.2, 0.3], t=t)


# --- compare_methods: what each row equals, by condition ------------------------------------

EQUALS = {
    "cost": {"score-fixed": "error rate at t", "score-uniform": "mean absolute error",
             "score-driven": "Brier score", "rate-fixed": "error rate at rate q",
             "rate-uniform": "1/2 + pi0 pi1 (1 - 2 AUC)",
             "rate-driven": "1/3 + pi0 pi1 (1 - 2 AUC)",
             "optimal": "refinement loss of the ROC hull",
             "indistinguishability": "error rate at r_b"},
    "skew": {"score-fixed": "macro error rate at t",
             "score-uniform": "macro mean absolute error",
             "score-driven": "macro Brier score", "rate-fixed": "macro error rate at rate q",
             "rate-uniform": "3/4 - AUC / 2", "rate-driven": "7/12 - AUC / 2",
             "optimal": "macro refinement loss of the ROC hull",
             "indistinguishability": "macro error rate at r_b"},
}


@pytest.mark.parametrize("condition", ["cost", "skew"])
def test_compare_methods_rows_say_what_their_values_are(backend, condition):
    g = np.random.default_rng(5)
    y = g.random(60) < 0.3          # unbalanced, so pooled and macro values differ
    s = np.clip(np.round(0.5 * g.random(60) + 0.4 * y, 2), 0, 1)
    table = tc.compare_methods(y, s, t=0.5, condition=condition)
    assert {r.method: r.equals for r in table.rows} == EQUALS[condition]
    assert condition in str(table) and EQUALS[condition]["score-driven"] in str(table)
    auc = oracle.auc(y, s, None)
    pooled = condition == "cost"
    value = {r.method: r.expected_loss for r in table.rows}
    brier = tc.brier_score if pooled else tc.macro_brier_score
    mae = tc.mean_absolute_error if pooled else tc.macro_mean_absolute_error
    acc = tc.accuracy if pooled else tc.macro_accuracy
    assert value["score-driven"] == pytest.approx(brier(y, s), abs=1e-12)
    assert value["score-uniform"] == pytest.approx(mae(y, s), abs=1e-12)
    assert value["score-fixed"] == pytest.approx(1 - acc(y, s, t=0.5), abs=1e-12)
    assert value["optimal"] == pytest.approx(
        brier(y, s) - tc.calibration_loss(y, s, condition=condition), abs=1e-12)
    if not pooled:
        assert value["rate-uniform"] == pytest.approx(3 / 4 - auc / 2, abs=1e-12)
        assert value["rate-driven"] == pytest.approx(7 / 12 - auc / 2, abs=1e-12)
        # the macro values are not the pooled ones on unbalanced data
        assert value["score-driven"] != pytest.approx(tc.brier_score(y, s), abs=1e-6)


# --- the rate-uniform contingency table ----------------------------------------------------

def mean_rates_over_uniform_rate(y, s, w, condition, grid=20001):
    """E[tpr], E[fpr] over q ~ U(0, 1) on the ROC interpolated linearly between
    operating points, by the midpoint rule."""
    cw = class_weights(y, w, condition)
    pi1 = cw[y].sum()
    tpr, fpr = [0.0], [0.0]
    for t in np.unique(s)[::-1]:
        tpr.append(cw[y & (s >= t)].sum() / pi1)
        fpr.append(cw[~y & (s >= t)].sum() / (1 - pi1))
    tpr, fpr = np.array(tpr), np.array(fpr)
    rate = pi1 * tpr + (1 - pi1) * fpr
    q = (np.arange(grid) + 0.5) / grid
    return np.interp(q, rate, tpr).mean(), np.interp(q, rate, fpr).mean(), pi1


@SETTINGS
@given(case=probability_rows(), condition=st.sampled_from(["cost", "skew"]))
def test_rate_uniform_contingency_against_integration(backend, case, condition):
    y, s, w = case
    table = tc.rate_uniform_contingency(y, s, condition=condition, sample_weight=w)
    e_tpr, e_fpr, pi1 = mean_rates_over_uniform_rate(y, s, w, condition)
    assert table.tp == pytest.approx(pi1 * e_tpr, abs=1e-6)
    assert table.fn == pytest.approx(pi1 * (1 - e_tpr), abs=1e-6)
    assert table.fp == pytest.approx((1 - pi1) * e_fpr, abs=1e-6)
    assert table.tn == pytest.approx((1 - pi1) * (1 - e_fpr), abs=1e-6)
    assert table.predicted_positive == pytest.approx(0.5, abs=1e-12)
    assert table.tp + table.fp + table.fn + table.tn == pytest.approx(1.0, abs=1e-12)
    assert table.error == pytest.approx(
        tc.expected_loss(y, s, "rate-uniform", condition=condition, sample_weight=w),
        abs=1e-12)


# --- Table 2 of the threshold choice paper -------------------------------------------------

def ranking_with_auc(wins, n=10):
    """n positives and n negatives with no ties whose AUC is wins / n^2: positive i
    scores just above ``k_i`` negatives, the k_i summing to ``wins``."""
    k = [min(n, max(0, wins - n * i)) for i in range(n)]
    assert sum(k) == wins
    neg = np.arange(n) + 0.5
    pos = np.array(k, float)              # above exactly k negatives (those at < k)
    y = np.r_[np.ones(n, bool), np.zeros(n, bool)]
    return y, np.r_[pos, neg] / (n + 1)


@pytest.mark.parametrize("auc, printed", [(0.79, 0.188), (0.67, 0.248)])
def test_threshold_choice_table_2_rate_driven_row(backend, auc, printed):
    """Table 2's rate-driven row for models A and B. The paper's score data (its
    Figure 1 histograms) are not in the text; the row depends on them only through
    AUC (Table 1: 0.79 and 0.67) and the class balance (Theorem 10: 1/3 + pi0 pi1 (1 -
    2 AUC)), and it is reproduced with balanced classes: 1/3 - (2 AUC - 1) / 4."""
    y, s = ranking_with_auc(int(round(auc * 100)))
    assert indist_fast.roc_auc(y, s) == pytest.approx(auc, abs=1e-12)
    loss = tc.expected_loss(y, s, "rate-driven")
    assert round(loss, 3) == printed
    # the exact value, by integrating Q(c) over c with the rate set to c
    c = (np.arange(4001) + 0.5) / 4001
    tpr, fpr, pi1 = [0.0], [0.0], 0.5
    for t in np.unique(s)[::-1]:
        tpr.append(np.mean(s[y] >= t))
        fpr.append(np.mean(s[~y] >= t))
    rate = pi1 * np.array(tpr) + (1 - pi1) * np.array(fpr)
    fnr_c = 1 - np.interp(c, rate, tpr)
    fpr_c = np.interp(c, rate, fpr)
    direct = np.mean(2 * (c * pi1 * fnr_c + (1 - c) * (1 - pi1) * fpr_c))
    assert loss == pytest.approx(direct, abs=1e-6)
