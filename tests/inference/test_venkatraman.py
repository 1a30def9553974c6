"""Venkatraman's permutation tests as pROC computes them: the statistics against a
transcription of pROC's R loops, the permutations' behaviour, and compare()'s
method="venkatraman"."""

from __future__ import annotations

import numpy as np
import pytest

import indist_fast
from indist_fast.inference.venkatraman import (first_ranks, paired_permutations,
                                               paired_statistic, unpaired_statistic)


def data(seed=0, n=50):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    return (y, np.round(rng.normal(size=n) + y, 1),
            np.round(rng.normal(size=n) + 0.3 * y, 1))


def paired_by_loops(x, z, d):
    """pROC's venkatraman.paired.stat, line by line (sapply over x = 1..n)."""
    r, s = first_ranks(x), first_ranks(z)
    n = len(d)
    total = 0
    for c in range(1, n + 1):
        r_fn, r_fp = np.sum(r[d] <= c), np.sum(r[~d] > c)
        s_fn, s_fp = np.sum(s[d] <= c), np.sum(s[~d] > c)
        total += abs((s_fn + s_fp) - (r_fn + r_fp))
    return total


def unpaired_by_loops(x, d1, z, d2):
    """pROC's venkatraman.unpaired.stat, line by line (approxfun: linear, NA outside)."""
    r, s = first_ranks(x), first_ranks(z)
    mp = (d1.sum() + d2.sum()) / (2 * len(d1))

    def curve(ranks, d):
        n = len(d)
        fx = np.array([np.sum(ranks[d] <= c) for c in range(1, n + 1)]) / d.sum()
        gx = np.array([np.sum(ranks[~d] <= c) for c in range(1, n + 1)]) / (~d).sum()
        return mp * fx + (1 - mp) * gx, mp * fx + (1 - mp) * (1 - gx)

    rp, re = curve(r, d1)
    sp, se = curve(s, d2)
    x = np.sort(np.r_[rp, sp])

    def approx(px, py, at):
        return np.interp(at, px, py) if px[0] <= at <= px[-1] else np.nan

    yv = np.array([abs(approx(rp, re, v) - approx(sp, se, v)) for v in x])
    pieces = [(yv[i] + yv[i - 1]) * (x[i] - x[i - 1]) / 2 for i in range(1, len(x))]
    return float(np.nansum(pieces))


def test_first_ranks_break_ties_by_position():
    assert first_ranks(np.array([0.5, 0.1, 0.5, 0.1])).tolist() == [3, 1, 4, 2]


@pytest.mark.parametrize("seed", range(5))
def test_paired_statistic_is_procs(seed):
    y, a, b = data(seed)
    assert paired_statistic(first_ranks(a), first_ranks(b), y.astype(np.int64)) == \
        paired_by_loops(a, b, y)


@pytest.mark.parametrize("seed", range(5))
def test_unpaired_statistic_is_procs(seed):
    y, a, _ = data(seed)
    y2, _, b = data(seed + 10, n=37)
    share = (y.sum() + y2.sum()) / (2 * len(y))
    assert unpaired_statistic(first_ranks(a), y.astype(np.int64), first_ranks(b),
                              y2.astype(np.int64), share) == pytest.approx(
        unpaired_by_loops(a, y, b, y2), abs=1e-13)


def test_identical_models_never_differ():
    y, a, _ = data(1)
    c = indist_fast.compare(y, a, a, method="venkatraman", n_perm=200)["roc"]
    assert c.statistic == 0 and c.p_value == 1.0


def test_permutations_of_exchangeable_models_give_uniform_p():
    """Under the null (two noisy copies of one score), p-values are about uniform."""
    rng = np.random.default_rng(3)
    ps = []
    for _ in range(40):
        y = rng.random(80) < 0.5
        base = rng.normal(size=80) + y
        a, b = base + rng.normal(size=80), base + rng.normal(size=80)
        ps.append(indist_fast.compare(y, a, b, method="venkatraman", n_perm=100,
                                      seed=int(rng.integers(1 << 30)))["roc"].p_value)
    assert 0.3 < np.mean(ps) < 0.7
    assert np.mean(np.array(ps) < 0.1) < 0.3


def test_different_curves_are_found():
    rng = np.random.default_rng(4)
    y = rng.random(400) < 0.5
    a, b = rng.normal(size=400) + 2 * y, rng.normal(size=400) + 0.2 * y
    d = indist_fast.compare(y, a, b, method="venkatraman", n_perm=200)["roc"]
    assert d.p_value < 0.01 and d.method == "venkatraman"
    assert d.estimate == pytest.approx(d.estimate_a - d.estimate_b)
    assert len(d.replicates) == 200 and not d.replicates.flags.writeable


def test_seeded_permutations():
    y, a, b = data(5)
    one = paired_permutations(first_ranks(a), first_ranks(b), y.astype(np.int64), 50,
                              np.random.default_rng(1))
    two = indist_fast.compare(y, a, b, method="venkatraman", n_perm=50, seed=7)["roc"]
    three = indist_fast.compare(y, a, b, method="venkatraman", n_perm=50, seed=7)["roc"]
    np.testing.assert_array_equal(two.replicates, three.replicates)
    assert one.shape == (50,) and (one >= 0).all()


def test_unpaired_data_sets():
    y, a, _ = data(6, n=60)
    y2, _, b = data(7, n=45)
    d = indist_fast.compare((y, a), (y2, b), paired=False, method="venkatraman",
                            n_perm=100)["roc"]
    share = (y.sum() + y2.sum()) / (2 * len(y))
    assert d.statistic == pytest.approx(unpaired_by_loops(a, y, b, y2), abs=1e-13)
    assert d.statistic == unpaired_statistic(first_ranks(a), y.astype(np.int64),
                                             first_ranks(b), y2.astype(np.int64), share)
    assert 0 <= d.p_value <= 1


def test_several_models_with_holm():
    y, a, b = data(8)
    c = indist_fast.compare(y, {"a": a, "b": b, "c": a + b}, method="venkatraman",
                            n_perm=50, correction="holm")
    assert list(c) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert all(c[p]["roc"].p_value >= c[p]["roc"].p_value_unadjusted for p in c)


@pytest.mark.parametrize("kwargs,error,match", [
    ({"n_boot": 10}, ValueError, "n_perm"),
    ({"n_perm": 0}, ValueError, "n_perm"),
    ({"alternative": "greater"}, ValueError, "two-sided"),
    ({"sample_weight": np.ones(50)}, ValueError, "sample_weight"),
    ({"metrics": ("auc", "precision")}, ValueError, "metrics"),
    ({"specificity": 0.5}, ValueError, "specificity"),
    ({"df": "welch"}, ValueError, "df"),
])
def test_bad_arguments(kwargs, error, match):
    y, a, b = data(9)
    with pytest.raises(error, match=match):
        indist_fast.compare(y, a, b, method="venkatraman", **kwargs)


def test_text_names_the_statistic():
    y, a, b = data(10)
    text = str(indist_fast.compare(y, a, b, method="venkatraman", n_perm=20))
    assert "E = " in text and "20 permutations" in text


def test_text_reads_a_zero_p_as_below_one_permutation_and_claims_no_difference():
    rng = np.random.default_rng(5)
    y = (rng.random(3000) < 0.3).astype(int)
    a = rng.normal(size=3000) + 1.5 * y
    far = indist_fast.compare(y, a, rng.normal(size=3000), method="venkatraman", n_perm=50)
    assert far["roc"].p_value == 0
    assert "p < 0.02 (no permutation as large)" in str(far)
    same = str(indist_fast.compare(y, a, a, method="venkatraman", n_perm=20))
    assert "differ" not in same and "area between the curves E = 0," in same
