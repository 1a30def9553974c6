"""A score of zero is reported as 0.0, never -0.0, on both backends and every path: the
kernels write a group's score (and a crossing's threshold) plus 0.0, whichever sign of
zero the group's first row had."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import ScoreTable


def zero_sign(x) -> float:
    """+1.0 for 0.0 and -1.0 for -0.0 (they compare equal, so tests must look here)."""
    return math.copysign(1.0, float(x))


Y = np.array([1, 0, 1, 0, 1, 0])
CASES = {
    "negative zero only": np.array([-0.0, -1.0, 0.5, -0.5, -0.0, -2.0]),
    "negative zero first": np.array([-0.0, -1.0, 0.5, 0.0, -0.0, -2.0]),
    "positive zero first": np.array([0.0, -1.0, 0.5, -0.0, -0.0, -2.0]),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", list(CASES))
def test_a_zero_threshold_is_positive_zero(backend, case, dtype):
    s = CASES[case].astype(dtype)
    plain = indist_fast.evaluate(Y, s)
    weighted = indist_fast.evaluate(Y, s, sample_weight=np.full(len(Y), 2.0))
    # the zero group is where B reaches 1/2 here: r_b itself is the zero score
    assert plain.threshold == weighted.threshold == 0.0
    assert zero_sign(plain.threshold) == zero_sign(weighted.threshold) == 1.0
    for report in (plain, weighted):
        for point in report.at.values():
            assert zero_sign(point.threshold) == 1.0 or point.threshold != 0.0
    for thresholds in (indist_fast.curves(Y, s).thresholds,
                       ScoreTable.from_arrays(Y, s).scores,
                       ScoreTable.from_arrays(Y, s, np.full(len(Y), 0.5)).scores,
                       indist_fast.precision_recall_curve(Y, s).thresholds):
        zeros = thresholds[thresholds == 0.0]
        assert len(zeros) == 1 and zero_sign(zeros[0]) == 1.0


def test_zero_thresholds_of_segments_and_replicates(backend):
    s = CASES["negative zero only"]
    table = indist_fast.evaluate_many(np.r_[Y, Y], np.r_[s, s], groups=[0] * 6 + [1] * 6)
    assert [zero_sign(t) for t in table.columns["threshold"]] == [1.0, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
        boot = indist_fast.bootstrap(Y, s, metrics=["threshold"], n_boot=50, seed=1)
    reps = boot["threshold"].replicates
    assert np.any(reps == 0.0)
    assert not np.any(np.signbit(reps[reps == 0.0]))


def test_the_planted_negative_zero_is_seen():
    # the check above can fail: -0.0 == 0.0, but its sign is not
    assert -0.0 == 0.0 and zero_sign(-0.0) == -1.0
