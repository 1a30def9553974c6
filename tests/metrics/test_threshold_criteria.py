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
