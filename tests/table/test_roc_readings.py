"""The ROC curve read as pROC reads it: sensitivity at a specificity and back, and
the partial area over any specificity or sensitivity range (McClish-corrected or not),
against brute-force readings of the polyline and scikit-learn's ``max_fpr``."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import indist_fast
from indist_fast import ScoreTable
from indist_fast._core.validation import prepare_rows
from indist_fast.table.roc_readings import (check_partial, curve_of, partial_area,
                                            sensitivity_at, specificity_at)


def data(seed, n=40, decimals=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    s = np.round(rng.normal(size=n) + y, decimals)
    return y, s


def points_by_thresholds(y, s):
    """The ROC points (specificity, sensitivity), one per distinct score as a threshold
    (score >= t), from +inf down."""
    ts = np.r_[np.inf, np.unique(s)[::-1]]
    sens = np.array([np.mean(s[y] >= t) for t in ts])
    spec = np.array([np.mean(s[~y] < t) for t in ts])
    return spec, sens


def polyline_value(x, y, at):
    """y on the polyline at ``at`` strictly inside a non-vertical segment."""
    for i in range(len(x) - 1):
        if x[i] < at < x[i + 1]:
            return y[i] + (at - x[i]) / (x[i + 1] - x[i]) * (y[i + 1] - y[i])
    raise AssertionError("not inside a segment")


def area_by_pieces(x, y, a, b):
    """Integral of the polyline over [a, b]: linear pieces, each its width times its
    midpoint value."""
    cuts = np.unique(np.r_[a, b, x[(x > a) & (x < b)]])
    return sum((hi - lo) * polyline_value(x, y, (lo + hi) / 2)
               for lo, hi in zip(cuts[:-1], cuts[1:]))


@pytest.mark.parametrize("seed", range(6))
def test_readings_match_brute_force(backend, seed):
    y, s = data(seed)
    spec, sens = curve_of(ScoreTable.from_rows(prepare_rows(y, s)))
    bf_spec, bf_sens = points_by_thresholds(y, s)
    np.testing.assert_array_equal(spec, bf_spec)        # the same divisions
    np.testing.assert_array_equal(sens, bf_sens)
    # exact points (0.9 among them: 1 - 0.9 is not 0.1) and between them
    for v in np.r_[np.linspace(0, 1, 21), bf_spec]:
        hit = bf_spec == v
        expect = (bf_sens[hit].max() if hit.any()
                  else polyline_value(bf_spec[::-1], bf_sens[::-1], v))
        assert sensitivity_at(spec, sens, np.array([v]))[0] == pytest.approx(expect,
                                                                             abs=1e-14)
    for v in np.r_[np.linspace(0, 1, 21), bf_sens]:
        hit = bf_sens == v
        expect = bf_spec[hit].max() if hit.any() else polyline_value(bf_sens, bf_spec, v)
        assert specificity_at(spec, sens, np.array([v]))[0] == pytest.approx(expect,
                                                                             abs=1e-14)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("low,high", [(0.8, 1.0), (0.0, 1.0), (0.1, 0.35), (0.5, 0.5001),
                                      (0.0, 0.2)])
def test_partial_area_matches_pieces(backend, seed, low, high):
    y, s = data(seed)
    spec, sens = curve_of(ScoreTable.from_rows(prepare_rows(y, s)))
    by_spec = area_by_pieces(spec[::-1], sens[::-1], low, high)
    by_sens = area_by_pieces(sens, spec, low, high)
    assert partial_area(spec, sens, low, high) == pytest.approx(by_spec, abs=1e-14)
    assert partial_area(spec, sens, low, high, "sensitivity") == pytest.approx(by_sens,
                                                                               abs=1e-14)
    chance = ((1 - low) + (1 - high)) * (high - low) / 2
    for area, focus in ((by_spec, "specificity"), (by_sens, "sensitivity")):
        corrected = partial_area(spec, sens, low, high, focus, True)
        if area < chance:
            assert np.isnan(corrected)
        else:
            assert corrected == pytest.approx(
                (1 + (area - chance) / ((high - low) - chance)) / 2, abs=1e-12)


def test_whole_range_is_the_auc(backend):
    y, s = data(7, n=300, decimals=2)
    assert indist_fast.roc_auc(y, s, partial=(0, 1)) == pytest.approx(roc_auc_score(y, s),
                                                                      abs=1e-14)
    assert indist_fast.roc_auc(y, s, partial=(1, 0), focus="sensitivity") == pytest.approx(
        roc_auc_score(y, s), abs=1e-14)


@pytest.mark.parametrize("max_fpr", [0.05, 0.2, 0.5])
def test_corner_range_is_scikit_learns_max_fpr(backend, max_fpr):
    y, s = data(3, n=500, decimals=2)
    raw = indist_fast.roc_auc(y, s, partial=(1 - max_fpr, 1))
    assert raw == pytest.approx(indist_fast.roc_auc(y, s, max_fpr=max_fpr,
                                                    standardized=False), abs=1e-14)
    # pROC's chance area over specificities (1 - f, 1) is f^2 / 2, scikit-learn's
    assert indist_fast.roc_auc(y, s, partial=(1 - max_fpr, 1), correct=True) == \
        pytest.approx(roc_auc_score(y, s, max_fpr=max_fpr), abs=1e-12)


def test_weights_count_as_copies(backend):
    y, s = data(2)
    w = np.arange(len(y)) % 3
    copies = np.repeat(np.arange(len(y)), w)
    for focus in ("specificity", "sensitivity"):
        assert indist_fast.roc_auc(y, s, sample_weight=w, partial=(0.2, 0.7), focus=focus) \
            == pytest.approx(indist_fast.roc_auc(y[copies], s[copies], partial=(0.2, 0.7),
                                                 focus=focus), abs=1e-14)


@pytest.mark.parametrize("partial,focus,error", [
    ((0.5, 0.5), "specificity", ValueError), ((0.2, 1.5), "specificity", ValueError),
    ((0.2,), "specificity", TypeError), ("ab", "specificity", TypeError),
    ((0.1, 0.2), "both", ValueError), ((0.1, float("nan")), "specificity", ValueError)])
def test_bad_ranges_are_refused(partial, focus, error):
    with pytest.raises(error, match="partial|focus"):
        check_partial(partial, focus)
    with pytest.raises(error, match="partial|focus"):
        indist_fast.roc_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], partial=partial,
                            focus=focus)


def test_partial_with_max_fpr_is_refused():
    with pytest.raises(ValueError, match="partial or max_fpr"):
        indist_fast.roc_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], partial=(0.8, 1),
                            max_fpr=0.2)


def test_one_class_is_refused():
    with pytest.raises(ValueError, match="positive|negative|class"):
        indist_fast.roc_auc([1, 1, 1], [0.1, 0.2, 0.3], partial=(0.8, 1))
