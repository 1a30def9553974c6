"""calibration: scikit-learn's bins and numbers, brute-force per-row oracles for every
field, both backends, the edge cases (ties on edges, empty bins, one class, zero
weights, probabilities 0 and 1), and tables merged from chunks."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss, log_loss

from indist_fast import Calibration, ScoreTable, calibration
from indist_fast.errors import IndistFastWarning

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
FIELDS = ("ece", "mce", "brier", "reliability", "resolution", "uncertainty",
          "within_bin_variance", "within_bin_covariance", "log_loss", "hosmer_lemeshow")


def quiet_calibration(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return calibration(*args, **kwargs)


# --- the oracle: every field from the rows, one bin at a time ----------------------------

def brute_edges(p, w, n_bins, strategy):
    if strategy == "uniform":
        return np.linspace(0, 1, n_bins + 1)
    q = np.linspace(0, 1, n_bins + 1) * 100
    if w is None:
        return np.percentile(p, q)
    keep = w > 0
    edges = np.percentile(p[keep], q, weights=w[keep], method="inverted_cdf").astype(float)
    edges[0], edges[-1] = p[keep].min(), p[keep].max()
    return edges


def brute(y, p, w, n_bins, strategy):
    """Every number of ``Calibration`` by its definition, row by row."""
    y = np.asarray(y, float)
    p = np.asarray(p)
    wts = np.ones(len(p)) if w is None else np.asarray(w, float)
    edges = brute_edges(p, None if w is None else wts, n_bins, strategy)
    p64 = p.astype(float)
    ids = np.searchsorted(edges[1:-1], p64)
    W = wts.sum()
    base = (wts * y).sum() / W
    out = {"edges": edges, "bin": [], "prob_pred": [], "prob_true": [], "weight": []}
    rel = res = wbv = wbc = ece = mce = hl = 0.0
    for k in range(n_bins):
        m = (ids == k) & (wts > 0)
        if not m.any():
            continue
        wk = wts[m].sum()
        f = (wts[m] * p64[m]).sum() / wk
        o = (wts[m] * y[m]).sum() / wk
        out["bin"].append(k)
        out["prob_pred"].append(f)
        out["prob_true"].append(o)
        out["weight"].append(wk)
        rel += wk / W * (f - o) ** 2
        res += wk / W * (o - base) ** 2
        wbv += (wts[m] * (p64[m] - f) ** 2).sum() / W
        wbc += (wts[m] * (p64[m] - f) * (y[m] - o)).sum() / W
        ece += wk / W * abs(o - f)
        mce = max(mce, abs(o - f))
        observed, expected = (wts[m] * y[m]).sum(), wk * f
        if observed != expected:
            den = expected * (1 - f)
            hl += (observed - expected) ** 2 / den if den > 0 else math.inf
    eps = np.finfo(p.dtype).eps
    one = p.dtype.type(1)
    pc = np.clip(p, eps, one - eps).astype(float)
    qc = np.clip(one - p, eps, one - eps).astype(float)
    out.update(ece=ece, mce=mce, brier=(wts * (y - p64) ** 2).sum() / W,
               reliability=rel, resolution=res, uncertainty=base * (1 - base),
               within_bin_variance=wbv, within_bin_covariance=wbc,
               log_loss=-(wts * (y * np.log(pc) + (1 - y) * np.log(qc))).sum() / W,
               hosmer_lemeshow=hl)
    return out


def assert_matches(cal, want, rtol=1e-10):
    np.testing.assert_array_equal(cal.edges, want["edges"])
    np.testing.assert_array_equal(cal.bin, want["bin"])
    for name in ("prob_pred", "prob_true", "weight"):
        np.testing.assert_allclose(getattr(cal, name), want[name], rtol=rtol, atol=1e-14,
                                   err_msg=name)
    for name in FIELDS:
        assert getattr(cal, name) == pytest.approx(want[name], rel=rtol, abs=1e-13), name


@st.composite
def rows(draw, max_n=40, weights=None):
    """Probabilities on a grid of eighths (so many sit exactly on uniform edges, and
    ties cross quantile edges), both classes, integer weights with zeros, or none."""
    n = draw(st.integers(2, max_n))
    p = np.array(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))) / 8
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[0], y[1] = 1, 0
    w = None
    if weights if weights is not None else draw(st.booleans()):
        w = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), float)
        w[0], w[1] = max(w[0], 1), max(w[1], 1)
    return y, p, w


# --- scikit-learn ------------------------------------------------------------------------

@SETTINGS
@given(data=rows(weights=False), n_bins=st.integers(1, 9),
       strategy=st.sampled_from(["uniform", "quantile"]))
def test_curve_is_scikit_learns(backend, data, n_bins, strategy):
    y, p, _ = data
    cal = quiet_calibration(y, p, n_bins=n_bins, strategy=strategy)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    np.testing.assert_allclose(cal.prob_true, prob_true, rtol=1e-12)
    np.testing.assert_allclose(cal.prob_pred, prob_pred, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_random_probabilities_match_scikit_learn(backend, dtype, strategy):
    rng = np.random.default_rng(5)
    p = rng.beta(0.6, 0.9, 5000).astype(dtype)
    p[:40] = rng.choice(p[40:], 40)                      # ties
    y = rng.random(5000) < p
    w = rng.integers(0, 4, 5000).astype(float)
    for n_bins in (1, 3, 10, 37):
        cal = quiet_calibration(y, p, n_bins=n_bins, strategy=strategy)
        prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
        np.testing.assert_array_equal(cal.prob_true, prob_true)   # the same bins: exact
        np.testing.assert_allclose(cal.prob_pred, prob_pred, rtol=1e-6 if dtype == np.float32
                                   else 1e-12)
        rtol = 1e-6 if dtype == np.float32 else 1e-12      # scikit-learn sums in float32
        assert cal.brier == pytest.approx(brier_score_loss(y, p),
                                          rel=rtol)
        assert cal.log_loss == pytest.approx(log_loss(y, p), rel=rtol)
        weighted = quiet_calibration(y, p, n_bins=n_bins, strategy=strategy,
                                     sample_weight=w)
        assert weighted.brier == pytest.approx(
            brier_score_loss(y, p, sample_weight=w), rel=rtol)
        assert weighted.log_loss == pytest.approx(log_loss(y, p, sample_weight=w), rel=rtol)


def test_probabilities_zero_and_one_clip_as_scikit_learn(backend):
    y = [1, 0, 1, 0, 1, 0, 1, 0]
    p = [0.0, 1.0, 1.0, 0.0, 1e-20, 1 - 1e-17, 0.5, 0.3]
    cal = calibration(y, p)
    assert cal.log_loss == pytest.approx(log_loss(y, p), rel=1e-14)
    assert math.isfinite(cal.log_loss)
    p32 = np.array(p, np.float32)
    assert calibration(y, p32).log_loss == pytest.approx(log_loss(y, p32), rel=1e-6)
    assert calibration(y, p32).log_loss != cal.log_loss     # float32's eps is larger
    assert math.isfinite(cal.slope) and math.isfinite(cal.intercept)


# --- the oracle, both strategies, weights -----------------------------------------------

@SETTINGS
@given(data=rows(), n_bins=st.integers(1, 9),
       strategy=st.sampled_from(["uniform", "quantile"]))
def test_every_field_matches_the_row_oracle(backend, data, n_bins, strategy):
    y, p, w = data
    cal = quiet_calibration(y, p, n_bins=n_bins, strategy=strategy, sample_weight=w)
    assert_matches(cal, brute(y, p, w, n_bins, strategy))
    assert cal.n_rows == len(y)
    assert len(cal) == len(cal.bin) <= n_bins


@SETTINGS
@given(data=rows(), n_bins=st.integers(1, 9),
       strategy=st.sampled_from(["uniform", "quantile"]))
def test_the_decomposition_sums_to_the_brier_score(data, n_bins, strategy):
    y, p, w = data
    cal = quiet_calibration(y, p, n_bins=n_bins, strategy=strategy, sample_weight=w)
    parts = cal.reliability - cal.resolution + cal.uncertainty + cal.within_bin
    assert abs(parts - cal.brier) <= 1e-12


def test_decomposition_on_continuous_probabilities():
    rng = np.random.default_rng(8)
    p = rng.random(20_000) ** 2
    y = rng.random(20_000) < np.sqrt(p)
    w = rng.exponential(size=20_000)
    for strategy in ("uniform", "quantile"):
        cal = calibration(y, p, sample_weight=w, n_bins=15, strategy=strategy)
        parts = cal.reliability - cal.resolution + cal.uncertainty + cal.within_bin
        assert abs(parts - cal.brier) <= 1e-12
        assert cal.within_bin_variance > 0 and cal.within_bin != 0
        assert_matches(cal, brute(y, p, w, 15, strategy), rtol=1e-9)


def test_weighted_quantile_edges_are_scores_and_ties_go_below(backend):
    y = [0, 1, 0, 1, 0, 1, 1, 0]
    p = [0.1, 0.2, 0.2, 0.2, 0.4, 0.6, 0.6, 0.9]
    w = [1, 1, 1, 1, 2, 1, 1, 1]
    cal = calibration(y, p, sample_weight=w, n_bins=3, strategy="quantile")
    # cumulative weight 1, 4, 6, 8, 9 of 9: a third (3) is first reached at 0.2, two
    # thirds (6) at 0.4; every 0.2 and the 0.4 go below their edge
    assert cal.edges.tolist() == [0.1, 0.2, 0.4, 0.9]
    assert cal.weight.tolist() == [4.0, 2.0, 3.0]
    assert_matches(cal, brute(y, p, np.array(w, float), 3, "quantile"))


def test_a_probability_on_an_inner_edge_goes_to_the_bin_below():
    cal = quiet_calibration([0, 1, 1, 0], [0.25, 0.5, 0.5, 0.75], n_bins=4)
    assert cal.bin.tolist() == [0, 1, 2]
    assert cal.weight.tolist() == [1.0, 2.0, 1.0]
    assert quiet_calibration([1], [0.0], n_bins=4).bin.tolist() == [0]   # 0: the first bin
    assert quiet_calibration([1], [1.0], n_bins=4).bin.tolist() == [3]


def test_empty_bins_are_dropped():
    cal = quiet_calibration([0, 1, 1, 0], [0.05, 0.95, 0.91, 0.1], n_bins=10)
    assert cal.bin.tolist() == [0, 9]
    assert len(cal.prob_pred) == len(cal.prob_true) == len(cal.weight) == 2
    assert cal.weight.tolist() == [2.0, 2.0]
    # repeated quantile edges leave bins empty too
    cal = quiet_calibration([0, 1, 1, 0, 1], [0.3] * 4 + [0.8], n_bins=5, strategy="quantile")
    assert len(cal) < 5
    assert cal.weight.sum() == 5


def test_zero_weights_count_for_nothing(backend):
    y, p = [0, 1, 1, 0, 1, 0, 0], [0.1, 0.8, 0.3, 0.75, 0.7, 0.6, 0.2]
    w = [1, 2, 0, 1, 1, 0, 1]
    cal = calibration(y, p, sample_weight=w, n_bins=4)
    dropped = calibration([0, 1, 0, 1, 0], [0.1, 0.8, 0.75, 0.7, 0.2],
                          sample_weight=[1, 2, 1, 1, 1], n_bins=4)
    for name in FIELDS + ("slope", "intercept"):
        assert getattr(cal, name) == getattr(dropped, name), name
    assert cal.n_rows == 7
    with pytest.raises(ValueError, match="sample_weight is zero on every row"):
        calibration(y, p, sample_weight=[0] * 7)


# --- slope and intercept ----------------------------------------------------------------

def row_gradient(y, p, w, a, b):
    x = np.log(p) - np.log1p(-p)
    mu = 1 / (1 + np.exp(-(a + b * x)))
    r = w * (np.asarray(y, float) - mu)
    return np.array([r.sum(), (r * x).sum()]) / w.sum()


@SETTINGS
@given(data=rows(max_n=30))
def test_slope_and_intercept_are_the_row_likelihood_maximum(backend, data):
    y, p, w = data
    p = 0.02 + 0.96 * p                        # no 0 or 1: the logit is finite
    cal = quiet_calibration(y, p, sample_weight=w)
    wts = np.ones(len(p)) if w is None else w
    pos = wts * y > 0
    neg = wts * (1 - y) > 0
    x = np.log(p) - np.log1p(-p)
    separated = x[pos].min() >= x[neg].max() or x[pos].max() <= x[neg].min()
    if separated:
        assert math.isnan(cal.slope) and math.isnan(cal.intercept)
        return
    assert math.isfinite(cal.slope)
    # the score equations of the maximum, read row by row
    assert np.abs(row_gradient(y, p, wts, cal.intercept, cal.slope)).max() < 1e-9


def test_slope_and_intercept_match_an_independent_optimiser(backend):
    from scipy.optimize import minimize
    rng = np.random.default_rng(3)
    p = rng.uniform(0.01, 0.99, 3000)
    x = np.log(p / (1 - p))
    y = rng.random(3000) < 1 / (1 + np.exp(-(0.4 + 0.6 * x)))     # too extreme: b = 0.6
    w = rng.integers(1, 4, 3000).astype(float)

    def nll(theta):
        z = theta[0] + theta[1] * x
        return np.sum(w * (np.logaddexp(0, z) - y * z)) / w.sum()
    best = minimize(nll, [0.0, 1.0], method="BFGS", options={"gtol": 1e-12}).x
    cal = calibration(y, p, sample_weight=w)
    assert cal.intercept == pytest.approx(best[0], abs=1e-6)
    assert cal.slope == pytest.approx(best[1], abs=1e-6)
    assert 0.45 < cal.slope < 0.75 and 0.25 < cal.intercept < 0.55


def test_calibrated_probabilities_give_slope_one_intercept_zero():
    rng = np.random.default_rng(4)
    p = rng.random(200_000)
    y = rng.random(200_000) < p
    cal = calibration(y, p)
    assert cal.slope == pytest.approx(1.0, abs=0.03)
    assert cal.intercept == pytest.approx(0.0, abs=0.03)
    assert cal.hosmer_lemeshow_pvalue > 1e-4


@pytest.mark.parametrize("y, p, reason", [
    ([1, 1, 1], [0.2, 0.5, 0.9], "only positives"),
    ([0, 0, 0], [0.2, 0.5, 0.9], "only negatives"),
    ([0, 1, 0, 1], [0.4] * 4, "every probability is the same"),
    ([0, 0, 1, 1], [0.1, 0.3, 0.3, 0.8], "separate the classes"),
    ([1, 1, 0, 0], [0.1, 0.3, 0.6, 0.8], "every positive at or below"),
])
def test_undefined_slope_is_nan_with_a_warning(backend, y, p, reason):
    with pytest.warns(IndistFastWarning, match=reason) as caught:
        cal = calibration(y, p, n_bins=2)
    assert len(caught) == 1                          # one warning for the whole call
    assert math.isnan(cal.slope) and math.isnan(cal.intercept)
    assert "slope and intercept are NaN" in str(caught[0].message)
    # the rest stays defined
    for name in ("brier", "log_loss", "ece", "mce", "reliability"):
        assert math.isfinite(getattr(cal, name)), name


def test_one_class_keeps_brier_and_log_loss():
    with pytest.warns(IndistFastWarning):
        cal = calibration([1, 1, 1, 1], [0.2, 0.5, 0.9, 1.0])
    assert cal.brier == pytest.approx(brier_score_loss([1, 1, 1, 1], [0.2, 0.5, 0.9, 1.0]))
    assert cal.log_loss == pytest.approx(log_loss([1, 1, 1, 1], [0.2, 0.5, 0.9, 1.0],
                                                  labels=[0, 1]))
    assert cal.uncertainty == 0.0 and cal.resolution == 0.0


# --- Hosmer-Lemeshow --------------------------------------------------------------------

def test_hosmer_lemeshow_on_deciles_of_risk():
    from scipy.stats import chi2
    rng = np.random.default_rng(6)
    p = rng.uniform(0.05, 0.95, 2000)
    y = rng.random(2000) < np.clip(p + 0.1, 0, 1)      # miscalibrated: rejected
    cal = calibration(y, p, n_bins=10, strategy="quantile")
    assert cal.hosmer_lemeshow_df == 8
    ids = np.searchsorted(np.percentile(p, np.linspace(0, 100, 11))[1:-1], p)
    stat = sum((y[ids == k].sum() - p[ids == k].sum()) ** 2
               / (p[ids == k].sum() * (1 - p[ids == k].mean())) for k in range(10))
    assert cal.hosmer_lemeshow == pytest.approx(stat, rel=1e-10)
    assert cal.hosmer_lemeshow_pvalue == pytest.approx(chi2.sf(stat, 8), rel=1e-10)
    assert cal.hosmer_lemeshow_pvalue < 1e-6


def test_hosmer_lemeshow_without_degrees_of_freedom_warns():
    with pytest.warns(IndistFastWarning, match="hosmer_lemeshow_pvalue is NaN: 2 non-empty"):
        cal = calibration([0, 1, 0, 1], [0.2, 0.7, 0.4, 0.9], n_bins=2)
    assert cal.hosmer_lemeshow_df == 0 and math.isnan(cal.hosmer_lemeshow_pvalue)


def test_hosmer_lemeshow_bin_predicting_zero():
    # a bin of probability 0 with a positive in it: an infinitely bad fit
    cal = quiet_calibration([1, 0, 0, 1, 0, 1], [0.0, 0.0, 0.5, 0.5, 0.9, 0.9], n_bins=3)
    assert cal.hosmer_lemeshow == math.inf and cal.hosmer_lemeshow_pvalue == 0.0
    cal = quiet_calibration([0, 0, 0, 1, 0, 1], [0.0, 0.0, 0.5, 0.5, 0.9, 0.9], n_bins=3)
    assert math.isfinite(cal.hosmer_lemeshow)        # a matching bin adds 0


def test_hosmer_lemeshow_needs_scipy(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "scipy.stats", None)      # its import then fails
    with pytest.raises(ImportError, match="pip install scipy"):
        calibration([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3, 0.7, 0.6], n_bins=3)


# --- tables from chunks -----------------------------------------------------------------

def test_backends_agree():
    from indist_fast._core import engine as _engine
    rng = np.random.default_rng(10)
    p = rng.random(500)
    y = rng.random(500) < p
    out = []
    for name in ("cython", "numpy"):
        with _engine.use_backend(name):
            out.append(calibration(y, p, strategy="quantile").to_dict())
    assert out[0] == out[1]


# --- arguments and inputs ---------------------------------------------------------------

@pytest.mark.parametrize("bad", [-0.1, 1.5, np.nan, np.inf])
def test_a_score_outside_zero_one_is_refused_naming_y_prob(bad):
    p = np.array([0.1, 0.5, 0.9, 0.3])
    p[2] = bad
    with pytest.raises(ValueError, match=r"y_prob must hold probabilities in \[0, 1\]; "
                                         r"row 2 .*sigmoid.*CalibratedClassifierCV"):
        calibration([0, 1, 1, 0], p)
    with pytest.raises(ValueError, match="y_prob"):           # zero weight: still refused
        calibration([0, 1, 1, 0], p, sample_weight=[1, 1, 0, 1])


@pytest.mark.parametrize("kwargs, error, match", [
    ({"n_bins": 0}, ValueError, "n_bins"),
    ({"n_bins": 2.0}, TypeError, "n_bins"),
    ({"n_bins": True}, TypeError, "n_bins"),
    ({"strategy": "quantiles"}, ValueError, "strategy must be 'uniform' or 'quantile'"),
    ({"strategy": None}, TypeError, "strategy"),
])
def test_bad_settings_are_refused_by_name(kwargs, error, match):
    with pytest.raises(error, match=match):
        calibration([0, 1], [0.2, 0.8], **kwargs)
    with pytest.raises(error, match=match):
        ScoreTable.from_arrays([0, 1], [0.2, 0.8]).calibration(**kwargs)


def test_row_errors_name_y_prob():
    with pytest.raises(ValueError, match="y_prob should be a 1d array"):
        calibration([0, 1], [[0.2, 0.8]])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        calibration([0, 1, 1], [0.2, 0.8])
    with pytest.raises(TypeError, match="y_prob is missing"):
        calibration([0, 1])


def test_frames_labels_and_inputs_unchanged():
    pd = pytest.importorskip("pandas")
    y = np.array(["no", "yes", "yes", "no", "yes"])
    p = np.array([0.2, 0.9, 0.6, 0.7, 0.4])
    w = np.array([1.0, 2.0, 1.0, 1.0, 0.5])
    copies = [a.copy() for a in (y, p, w)]
    cal = calibration(y, p, sample_weight=w, pos_label="yes", n_bins=3)
    for a, b in zip((y, p, w), copies):
        np.testing.assert_array_equal(a, b)
    df = pd.DataFrame({"y": y, "p": p, "w": w})
    framed = calibration(df, label="y", score="p", weight="w", pos_label="yes", n_bins=3)
    assert framed.to_dict() == cal.to_dict()


def test_record_is_frozen_and_plain():
    import json
    cal = calibration([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.4, 0.3, 0.7, 0.6], n_bins=3)
    assert isinstance(cal, Calibration)
    with pytest.raises(AttributeError):
        cal.ece = 0.0
    with pytest.raises(ValueError):
        cal.prob_true[0] = 0.5
    d = cal.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert "within_bin" not in d and d["n_bins"] == 3
    frame = cal.to_pandas()
    assert frame["weight"].sum() == 6 and len(frame) == len(cal)
    text = str(cal)
    assert "ECE" in text and "Hosmer-Lemeshow" in text and "reliability" in text
    assert repr(cal).startswith("Calibration(3 of 3 uniform bins")
    html = cal._repr_html_()
    assert f'data-metric="ece" data-value="{cal.ece!r}"' in html
    assert html.count('data-metric="prob_true"') == len(cal)


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1.0, 1e150, 1e300])
def test_weights_of_any_scale(backend, scale):
    rng = np.random.default_rng(13)
    p = rng.random(300)
    y = rng.random(300) < p
    w = rng.integers(1, 4, 300).astype(float)
    base = calibration(y, p, sample_weight=w)
    scaled = calibration(y, p, sample_weight=w * scale)
    for name in ("ece", "mce", "brier", "log_loss", "slope", "intercept", "within_bin"):
        assert getattr(scaled, name) == pytest.approx(getattr(base, name), rel=1e-9), name
    # Hosmer-Lemeshow reads weights as counts: the statistic scales with them
    assert scaled.hosmer_lemeshow == pytest.approx(base.hosmer_lemeshow * scale, rel=1e-9)
