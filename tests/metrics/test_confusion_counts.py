"""Matthews' correlation and Cohen's kappa of the thresholded predictions against
scikit-learn's ``matthews_corrcoef`` and ``cohen_kappa_score`` (weights, ties, every
threshold, the degenerate ones where every row is predicted one class), on both
backends."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, matthews_corrcoef

import indist_fast


def rows(seed, weighted):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 40))
    y = rng.random(n) < 0.4
    y[0], y[1] = True, False
    s = rng.integers(0, 6, n).astype(float) + 0.5 * y * rng.random()
    w = rng.integers(0, 4, n) * rng.choice([1.0, 0.37]) if weighted else None
    if weighted:
        w[0] = w[1] = 1.0
    return y, s, w


@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("weighted", [False, True])
def test_mcc_and_kappa_equal_sklearn(backend, seed, weighted):
    y, s, w = rows(seed, weighted)
    # every operating point, between scores, nothing and everything predicted positive
    thresholds = np.r_[np.unique(s), np.unique(s) + 0.25, s.max() + 1, s.min() - 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = indist_fast.confusion(y, s, thresholds, sample_weight=w)
    for i, t in enumerate(thresholds):
        assert c.mcc[i] == pytest.approx(
            matthews_corrcoef(y, s >= t, sample_weight=w), abs=1e-12)
        assert c.kappa[i] == pytest.approx(
            cohen_kappa_score(y, s >= t, sample_weight=w), abs=1e-12)


def test_one_predicted_class_gives_zero_as_sklearn():
    y, s = [0, 1, 1, 0], [0.1, 0.8, 0.3, 0.4]
    for t in (0.0, 1.0):                    # everything, nothing predicted positive
        c = indist_fast.confusion(y, s, t)
        assert (c.mcc, c.kappa) == (0.0, 0.0)
        pred = np.asarray(s) >= t
        assert matthews_corrcoef(y, pred) == 0.0 and cohen_kappa_score(y, pred) == 0.0


def test_perfect_and_reversed_predictions():
    c = indist_fast.confusion([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], 0.5)
    assert (c.mcc, c.kappa) == (1.0, 1.0)
    c = indist_fast.confusion([1, 1, 0, 0], [0.1, 0.2, 0.8, 0.9], 0.5)
    assert (c.mcc, c.kappa) == (-1.0, -1.0)


def test_extreme_weights_keep_mcc_and_kappa(backend):
    y, s, w = rows(2, weighted=True)
    base = indist_fast.confusion(y, s, np.unique(s), sample_weight=w, exclude_self=False)
    for factor in (1e-300, 1e300):
        scaled = indist_fast.confusion(y, s, np.unique(s), sample_weight=w * factor,
                                       exclude_self=False)
        np.testing.assert_allclose(scaled.mcc, base.mcc, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(scaled.kappa, base.kappa, rtol=1e-12, atol=1e-15)


def test_text_and_dict_carry_them():
    c = indist_fast.confusion([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], 0.5)
    assert str(c).splitlines()[-1] == "mcc 1  kappa 1"
    assert c.to_dict()["mcc"] == 1.0 and c.to_dict()["kappa"] == 1.0
