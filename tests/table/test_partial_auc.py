"""Partial AUC: ``roc_auc(..., max_fpr=, standardized=)`` against scikit-learn."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score, roc_curve

import indist_fast

MAX_FPRS = [1e-3, 0.05, 0.1, 0.25, 0.5, 0.8, 0.999, 1.0]


def rows(seed, weighted):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 60))
    y = rng.random(n) < 0.35
    y[0], y[1] = True, False
    # few distinct scores: long tied runs, and segments crossing max_fpr inside a tie
    s = rng.integers(0, int(rng.integers(2, 12)), n) + 0.7 * y
    w = rng.random(n) * 4 if weighted else None
    return y, s, w


def raw_area(y, s, w, max_fpr):
    """The area under the ROC polyline up to max_fpr, from scikit-learn's curve and a
    direct integration of its linear pieces clipped at max_fpr."""
    fpr, tpr, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    area = 0.0
    for x0, y0, x1, y1 in zip(fpr, tpr, fpr[1:], tpr[1:]):
        if x0 >= max_fpr:
            break
        if x1 > max_fpr:
            y1 = y0 + (max_fpr - x0) * (y1 - y0) / (x1 - x0)
            x1 = max_fpr
        area += (x1 - x0) * (y0 + y1) / 2
    return area


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("weighted", [False, True])
def test_standardized_partial_auc_equals_sklearn(backend, seed, weighted):
    y, s, w = rows(seed, weighted)
    for max_fpr in MAX_FPRS:
        expect = roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
        assert indist_fast.roc_auc(y, s, sample_weight=w, max_fpr=max_fpr) == pytest.approx(
            expect, abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("weighted", [False, True])
def test_raw_partial_area(backend, seed, weighted):
    y, s, w = rows(seed, weighted)
    for max_fpr in MAX_FPRS:
        raw = indist_fast.roc_auc(y, s, sample_weight=w, max_fpr=max_fpr,
                                  standardized=False)
        assert raw == pytest.approx(raw_area(y, s, w, max_fpr), abs=1e-12)
        assert 0.0 <= raw <= max_fpr + 1e-15
        # McClish's map between the two, undone
        std = indist_fast.roc_auc(y, s, sample_weight=w, max_fpr=max_fpr)
        lo, hi = max_fpr**2 / 2, max_fpr
        if max_fpr < 1:
            assert raw == pytest.approx(lo + (2 * std - 1) * (hi - lo), abs=1e-12)


def test_max_fpr_one_is_the_auc(backend):
    y, s, w = rows(3, True)
    auc = indist_fast.roc_auc(y, s, sample_weight=w)
    assert indist_fast.roc_auc(y, s, sample_weight=w, max_fpr=1) == auc
    assert indist_fast.roc_auc(y, s, sample_weight=w, max_fpr=1.0, standardized=False) == auc


def test_partial_auc_of_perfect_and_chance_rankings(backend):
    y = np.r_[np.ones(5, bool), np.zeros(5, bool)]
    assert indist_fast.roc_auc(y, np.r_[np.ones(5), np.zeros(5)], max_fpr=0.2) == 1.0
    # all tied: the diagonal, exactly chance
    assert indist_fast.roc_auc(y, np.zeros(10), max_fpr=0.3) == pytest.approx(0.5)
    assert indist_fast.roc_auc(y, np.zeros(10), max_fpr=0.3,
                               standardized=False) == pytest.approx(0.045)


def test_partial_auc_from_a_table_and_with_labels(backend):
    pd = pytest.importorskip("pandas")
    y, s, w = rows(5, True)
    df = pd.DataFrame({"y": np.where(y, "pos", "neg"), "s": s, "w": w})
    expect = roc_auc_score(y, s, sample_weight=w, max_fpr=0.3)
    got = indist_fast.roc_auc(df, label="y", score="s", weight="w", pos_label="pos",
                              max_fpr=0.3)
    assert got == pytest.approx(expect, abs=1e-12)


@pytest.mark.parametrize("max_fpr, error", [
    (0, ValueError), (0.0, ValueError), (-0.1, ValueError), (1.5, ValueError),
    (math.nan, ValueError), (math.inf, ValueError), ("0.1", TypeError), (True, TypeError)])
def test_max_fpr_is_validated_naming_it(backend, max_fpr, error):
    with pytest.raises(error, match="max_fpr"):
        indist_fast.roc_auc([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.2], max_fpr=max_fpr)


def test_standardized_is_a_flag(backend):
    with pytest.raises(TypeError, match="standardized"):
        indist_fast.roc_auc([0, 1], [0.1, 0.9], max_fpr=0.5, standardized="no")


def test_partial_auc_needs_two_classes(backend):
    with pytest.raises(ValueError, match="only"):
        indist_fast.roc_auc([1, 1, 1], [0.1, 0.9, 0.3], max_fpr=0.5)
