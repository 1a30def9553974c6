"""ci_bands: pROC's ci.se / ci.sp / ci.thresholds from the sort-once replicates, each
replicate's readings checked against the replicate's rows read by brute force."""

from __future__ import annotations

import numpy as np
import pytest

import indist_fast
from indist_fast import ScoreTable
from indist_fast._core.validation import prepare_rows
from indist_fast.inference.bootstrap import Resampler


def data(seed=0, n=60, decimals=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    return y, np.round(rng.normal(size=n) + y, decimals)


def se_at_sp(y, s, sp):
    """pROC's sensitivity at specificity ``sp``: the highest sensitivity of the
    thresholds with that specificity, else the chord between the neighbouring points."""
    ts = np.r_[np.inf, np.unique(s)[::-1]]
    se = np.array([np.mean(s[y] >= t) for t in ts])
    spec = np.array([np.mean(s[~y] < t) for t in ts])
    hit = spec == sp
    if hit.any():
        return se[hit].max()
    # spec decreases along ts: the last point above sp and the first below it
    i = np.flatnonzero(spec > sp)[-1]
    j = i + 1
    return se[i] + (sp - spec[i]) / (spec[j] - spec[i]) * (se[j] - se[i])


def sp_at_se(y, s, se_value):
    ts = np.r_[np.inf, np.unique(s)[::-1]]
    se = np.array([np.mean(s[y] >= t) for t in ts])
    spec = np.array([np.mean(s[~y] < t) for t in ts])
    hit = se == se_value
    if hit.any():
        return spec[hit].max()
    j = np.flatnonzero(se > se_value)[0]
    i = j - 1
    return spec[i] + (se_value - se[i]) / (se[j] - se[i]) * (spec[j] - spec[i])


@pytest.mark.parametrize("stratified", [True, False])
def test_each_replicate_reads_its_rows(backend, stratified):
    y, s = data(1)
    sp, se, thr = [0.0, 0.3, 0.5, 0.9, 1.0], [0.0, 0.25, 0.8, 1.0], [-np.inf, 0.4, 1.0]
    b = indist_fast.ci_bands(y, s, specificities=sp, sensitivities=se, thresholds=thr,
                             n_boot=30, seed=5, stratified=stratified)
    rows = prepare_rows(y, s)
    resampler = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=5,
                                    stratified=stratified)
    for k in range(30):
        yk, sk, _ = resampler.replicate_rows(k)
        if yk.all() or not yk.any():
            assert np.isnan(b.sensitivity.replicates[k]).all()
            continue
        np.testing.assert_allclose(b.sensitivity.replicates[k],
                                   [se_at_sp(yk, sk, v) for v in sp], atol=1e-12)
        np.testing.assert_allclose(b.specificity.replicates[k],
                                   [sp_at_se(yk, sk, v) for v in se], atol=1e-12)
        np.testing.assert_allclose(b.threshold_sensitivity.replicates[k],
                                   [np.mean(sk[yk] >= t) for t in thr], atol=1e-15)
        np.testing.assert_allclose(b.threshold_specificity.replicates[k],
                                   [np.mean(sk[~yk] < t) for t in thr], atol=1e-15)
    np.testing.assert_allclose(b.sensitivity.estimate, [se_at_sp(y, s, v) for v in sp])
    np.testing.assert_allclose(b.specificity.estimate, [sp_at_se(y, s, v) for v in se])


def test_intervals_are_the_replicates_quantiles(backend):
    y, s = data(2, n=200, decimals=2)
    b = indist_fast.ci_bands(y, s, specificities=[0.5, 0.9], n_boot=300, confidence=0.9)
    q = np.quantile(b.sensitivity.replicates, [0.05, 0.5, 0.95], axis=0)
    np.testing.assert_allclose([b.sensitivity.low, b.sensitivity.median,
                                b.sensitivity.high], q, atol=1e-15)
    assert (b.sensitivity.low <= b.sensitivity.high).all()


def test_default_points_are_procs(backend):
    y, s = data(3)
    b = indist_fast.ci_bands(y, s, n_boot=20)
    assert b.sensitivity.at.tolist() == [i / 10 for i in range(11)]
    assert b.specificity is None and b.threshold_sensitivity is None


def test_seeded_and_reproducible(backend):
    y, s = data(4)
    one = indist_fast.ci_bands(y, s, thresholds=[0.5], n_boot=50, seed=3)
    two = indist_fast.ci_bands(y, s, thresholds=[0.5], n_boot=50, seed=3)
    other = indist_fast.ci_bands(y, s, thresholds=[0.5], n_boot=50, seed=4)
    np.testing.assert_array_equal(one.threshold_sensitivity.replicates,
                                  two.threshold_sensitivity.replicates)
    assert not np.array_equal(one.threshold_sensitivity.replicates,
                              other.threshold_sensitivity.replicates)
    assert one.seed_entropy == 3


def test_weights_count_as_copies_on_the_full_data(backend):
    y, s = data(5)
    w = np.arange(len(y)) % 3
    copies = np.repeat(np.arange(len(y)), w)
    a = indist_fast.ci_bands(y, s, sample_weight=w, specificities=[0.3, 0.7],
                             sensitivities=[0.6], n_boot=20)
    b = indist_fast.ci_bands(y[copies], s[copies], specificities=[0.3, 0.7],
                             sensitivities=[0.6], n_boot=20)
    np.testing.assert_allclose(a.sensitivity.estimate, b.sensitivity.estimate, atol=1e-15)
    np.testing.assert_allclose(a.specificity.estimate, b.specificity.estimate, atol=1e-15)


def test_records_and_tables():
    y, s = data(6)
    b = indist_fast.ci_bands(y, s, specificities=[0.5], thresholds=[0.2], n_boot=20)
    frame = b.to_pandas()
    assert frame.shape == (3, 7)
    assert frame["given"].tolist() == ["specificity", "threshold", "threshold"]
    d = b.to_dict()
    assert d["specificity"] is None and d["sensitivity"]["at"] == [0.5]
    assert "ROC bands" in str(b)
    with pytest.raises(ValueError):
        b.sensitivity.replicates[0, 0] = 1.0


@pytest.mark.parametrize("kwargs,error,match", [
    ({"specificities": [0.5, 1.2]}, ValueError, "specificities"),
    ({"specificities": [50]}, ValueError, "percents"),
    ({"sensitivities": [np.nan]}, ValueError, "sensitivities"),
    ({"sensitivities": []}, ValueError, "sensitivities"),
    ({"specificities": [True]}, TypeError, "specificities"),
    ({"thresholds": [np.nan]}, ValueError, "thresholds"),
    ({"thresholds": ["a"]}, TypeError, "thresholds"),
    ({"n_boot": 1}, ValueError, "n_boot"),
    ({"confidence": 1.5}, ValueError, "confidence"),
    ({"stratified": "yes"}, TypeError, "stratified"),
    ({"seed": -1}, ValueError, "seed"),
])
def test_bad_arguments_name_themselves(kwargs, error, match):
    y, s = data(7)
    with pytest.raises(error, match=match):
        indist_fast.ci_bands(y, s, **kwargs)


def test_one_class_is_refused():
    with pytest.raises(ValueError, match="negative|class"):
        indist_fast.ci_bands([1, 1, 1], [0.1, 0.2, 0.3], n_boot=10)


def test_inputs_are_not_modified():
    y, s = data(8)
    points = np.array([0.2, 0.8])
    keep = y.copy(), s.copy(), points.copy()
    indist_fast.ci_bands(y, s, specificities=points, sensitivities=points,
                         thresholds=points, n_boot=10)
    for a, b in zip((y, s, points), keep):
        np.testing.assert_array_equal(a, b)


def test_replicates_without_a_class_are_left_out_quietly(recwarn):
    """Unstratified replicates of two rows often draw one class: those readings are
    NaN, left out of the quantiles, and a point with no defined replicate has NaN
    bounds, all without a warning."""
    for seed in range(20):
        b = indist_fast.ci_bands([0, 1], [0.1, 0.2], n_boot=2, stratified=False, seed=seed,
                                 specificities=[0.5])
        reps = b.sensitivity.replicates[:, 0]
        if np.isnan(reps).all():
            assert np.isnan(b.sensitivity.low[0]) and np.isnan(b.sensitivity.high[0])
        else:
            assert b.sensitivity.low[0] == np.nanmin(reps)
    assert not recwarn.list
