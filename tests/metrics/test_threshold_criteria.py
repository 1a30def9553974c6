"""``best_threshold`` for Matthews' correlation and Cohen's kappa against a loop over
every candidate threshold scoring scikit-learn's values, on both backends."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, matthews_corrcoef

import indist_fast
from indist_fast.metrics.threshold_criteria import CRITERIA

SKLEARN = {"mcc": matthews_corrcoef, "kappa": cohen_kappa_score}


def rows(seed, weighted):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 40))
    y = rng.random(n) < 0.35
    y[0], y[1] = True, False
    s = rng.integers(0, 8, n).astype(float) + 1.5 * y
    w = rng.integers(0, 5, n).astype(float) if weighted else None
    if weighted:
        w[0] = w[1] = 1.0
    return y, s, w


def brute_best(y, s, w, name):
    """The highest threshold with the largest value, by a loop over candidates
    (nothing positive, then each distinct score), values from scikit-learn."""
    candidates = [math.inf] + sorted(set(s.tolist()), reverse=True)
    values = [SKLEARN[name](y, s >= t, sample_weight=w) for t in candidates]
    top = max(values)
    return next((t, v) for t, v in zip(candidates, values) if v >= top - 1e-12)


@pytest.mark.parametrize("name", ["mcc", "kappa"])
@pytest.mark.parametrize("seed", range(15))
@pytest.mark.parametrize("weighted", [False, True])
def test_best_threshold_equals_the_loop(backend, name, seed, weighted):
    y, s, w = rows(seed, weighted)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        best = indist_fast.best_threshold(y, s, name, sample_weight=w)
    t, v = brute_best(y, s, w, name)
    assert best.threshold == t
    assert best.value == pytest.approx(v, abs=1e-12)
    assert getattr(best, name) == best.value
    assert best.criterion == name


def test_the_criteria_list_them():
    assert "mcc" in CRITERIA and "kappa" in CRITERIA
    doc = indist_fast.best_threshold.__doc__
    assert '``"mcc"``' in doc and '``"kappa"``' in doc


def test_they_take_no_parameters():
    with pytest.raises(TypeError, match="unexpected parameter"):
        indist_fast.best_threshold([0, 1], [0.2, 0.7], "mcc", target=0.5)


# --- pROC's best.weights: youden and closest_topleft with cost and prevalence ----------

@pytest.mark.parametrize("cost, prevalence", [(1.0, 0.5), (2.0, 0.3), (0.5, 0.8)])
def test_best_weights_by_brute_force(backend, cost, prevalence):
    rng = np.random.default_rng(7)
    y = rng.random(120) < 0.4
    s = np.round(rng.normal(size=120) + y, 1)
    r = (1 - prevalence) / (cost * prevalence)
    candidates = np.r_[np.inf, np.unique(s)[::-1]]
    se = np.array([np.mean(s[y] >= t) for t in candidates])
    sp = np.array([np.mean(s[~y] < t) for t in candidates])
    for criterion, merit in (("youden", se + r * sp), ("closest_topleft",
                                                         -((1 - se) ** 2 + r * (1 - sp) ** 2))):
        best = indist_fast.best_threshold(y, s, criterion, cost=cost, prevalence=prevalence)
        top = np.flatnonzero(merit >= merit.max() - 1e-12)[0]     # the highest threshold
        assert best.threshold == candidates[top]
        expected = (se[top] - r * (1 - sp[top]) if criterion == "youden"
                    else (1 - se[top]) ** 2 + r * (1 - sp[top]) ** 2)
        assert best.value == pytest.approx(expected, abs=1e-12)


def test_best_weights_defaults_are_plain_youden():
    y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    plain = indist_fast.best_threshold(y, s, "youden")
    assert indist_fast.best_threshold(y, s, "youden", cost=1.0, prevalence=0.5).value == plain.value
    assert plain.value == pytest.approx(2 / 3)


@pytest.mark.parametrize("params, match", [({"cost": 0.0}, "cost"), ({"cost": -1}, "cost"),
                                           ({"prevalence": 0.0}, "prevalence"),
                                           ({"prevalence": 1.0}, "prevalence")])
def test_best_weights_bad_values(params, match):
    for criterion in ("youden", "closest_topleft"):
        with pytest.raises(ValueError, match=match):
            indist_fast.best_threshold([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], criterion,
                                       **params)
    with pytest.raises(TypeError, match="prevalence"):
        indist_fast.best_threshold([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], "f1", prevalence=0.3)
