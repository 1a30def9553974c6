"""The Kolmogorov-Smirnov statistic of a table against a loop over thresholds
(``oracle.ks``), scikit-learn's ROC points and SciPy's ``ks_2samp`` (statistic and
two-sided p-value for every method, ties and unequal classes), on both backends; and
its paths: rows, table columns, a ``ScoreTable``, merged tables and an Accumulator."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy.stats import ks_2samp
from sklearn.metrics import roc_curve

import indist_fast
import oracle
from indist_fast import KSResult, ScoreTable
from indist_fast.table.ks_distribution import exact_sf, ks_pvalue


def rows(seed, weighted=False, n=None, levels=6):
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(4, 40))
    y = rng.random(n) < 0.45
    y[0], y[1] = True, False
    s = rng.integers(0, levels, n) + rng.random() * y
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    if weighted:
        w[0] = w[1] = 1.0
    return y, s.astype(float), w


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("weighted", [False, True])
def test_ks_equals_the_oracle(backend, seed, weighted):
    y, s, w = rows(seed, weighted)
    ks = indist_fast.ks(y, s, sample_weight=w)
    want, where = oracle.ks(y, s, w)
    assert ks.statistic == pytest.approx(want, abs=1e-12)
    assert ks.threshold == where
    assert abs(ks.tpr - ks.fpr) == pytest.approx(ks.statistic, abs=1e-15)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("weighted", [False, True])
def test_ks_equals_sklearn_roc_curve(backend, seed, weighted):
    y, s, w = rows(seed, weighted)
    fpr, tpr, thresholds = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    gaps = np.abs(tpr - fpr)
    ks = indist_fast.ks(y, s, sample_weight=w)
    assert ks.statistic == pytest.approx(gaps.max(), abs=1e-12)
    # scikit-learn lists thresholds highest first too: the first maximum is ours
    assert ks.threshold == thresholds[np.flatnonzero(gaps >= gaps.max() - 1e-12)[0]]


def scipy_ks(y, s, w, method):
    if w is not None:                        # whole weights are copies of rows
        s, y = np.repeat(s, w.astype(int)), np.repeat(y, w.astype(int))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return ks_2samp(s[y], s[~y], method=method)


@pytest.mark.parametrize("method", ["auto", "exact", "asymp"])
@pytest.mark.parametrize("seed", range(12))
def test_ks_pvalue_equals_scipy(backend, seed, method):
    # ties (few levels), unequal classes, and integer weights as copies
    y, s, w = rows(seed, weighted=seed % 3 == 2, n=int(20 + 13 * seed), levels=4 + seed)
    ks = indist_fast.ks(y, s, sample_weight=w, method=method)
    ref = scipy_ks(y, s, w, method)
    assert ks.statistic == pytest.approx(ref.statistic, abs=1e-12)
    assert ks.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)
    assert ks.method == (method if method != "auto" else "exact")
    assert ks.sign == ref.statistic_sign * -1 or ks.statistic == 0
    assert (ks.n_pos, ks.n_neg) == (np.sum(w[y]) if w is not None else y.sum(),
                                    np.sum(w[~y]) if w is not None else (~y).sum())


@pytest.mark.parametrize("m, n", [(7, 7), (40, 40), (13, 29), (1, 9), (300, 120),
                                  (2000, 1999)])
def test_exact_tail_equals_scipy_at_every_statistic(m, n):
    """The exact tail at statistics from chance far into the tail, equal sizes too."""
    g = math.gcd(m, n)
    lcm = m // g * n
    for seed in range(6):
        # samples drifting apart: statistics from chance to far into the tail
        rng = np.random.default_rng(seed)
        a, b = rng.random(m) + 0.15 * seed, rng.random(n)
        ref = ks_2samp(a, b, method="exact")
        got = exact_sf(m, n, int(round(ref.statistic * lcm)))
        assert got == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)


def test_exact_tail_far_out_keeps_its_relative_precision():
    # every positive above every negative: p = 2 / C(m + n, m), tiny
    y = np.r_[np.ones(60, bool), np.zeros(45, bool)]
    s = np.r_[np.arange(60) + 100.0, np.arange(45.0)]
    ks = indist_fast.ks(y, s, method="exact")
    ref = ks_2samp(s[y], s[~y], method="exact")
    assert ks.statistic == 1.0 and ks.pvalue < 1e-28
    assert ks.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert ks.pvalue == pytest.approx(2 / math.comb(105, 45), rel=1e-9)


def test_auto_switches_to_the_limit_past_ten_thousand_rows_per_class(backend):
    rng = np.random.default_rng(5)
    y = np.r_[np.ones(10_001, bool), np.zeros(300, bool)]
    s = rng.normal(size=len(y)) + 0.2 * y
    ks = indist_fast.ks(y, s)
    ref = ks_2samp(s[y], s[~y])
    assert ks.method == "asymp"
    assert ks.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_exact_falls_back_like_scipy_when_the_lcm_is_too_large():
    m, n = 65_537, 65_521                     # coprime: lcm beyond SciPy's bound
    with pytest.warns(indist_fast.IndistFastWarning, match="asymp"):
        p, used = ks_pvalue(0.01, m, n, "exact")
    assert used == "asymp"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        from scipy.stats import kstwo
    assert p == pytest.approx(kstwo.sf(0.01, round(m * n / (m + n))), rel=1e-12)


def test_fractional_weights_need_method_none():
    y, s = [0, 1, 1, 0], [0.1, 0.7, 0.4, 0.3]
    w = [0.5, 1.0, 2.0, 1.0]
    with pytest.raises(ValueError, match="sample_weight.*method=None"):
        indist_fast.ks(y, s, sample_weight=w)
    ks = indist_fast.ks(y, s, sample_weight=w, method=None)
    assert ks.pvalue is None and ks.method is None
    assert ks.statistic == pytest.approx(oracle.ks(y, s, w)[0], abs=1e-12)


def test_ks_of_a_table_and_of_merged_tables_equal_the_rows(backend):
    y, s, w = rows(3, weighted=True, n=60)
    whole = indist_fast.ks(y, s, sample_weight=w)
    assert ScoreTable.from_arrays(y, s, w).ks() == whole
    halves = ScoreTable.from_arrays(y[:30], s[:30], w[:30]).merge(
        ScoreTable.from_arrays(y[30:], s[30:], w[30:]))
    assert halves.ks() == whole
    acc = indist_fast.Accumulator()
    acc.update(y[:25], s[:25], w[:25])
    acc.update(y[25:], s[25:], w[25:])
    assert acc.table.ks() == whole


def test_ks_reads_table_columns_and_pos_label():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"y": ["a", "b", "b", "a"], "p": [0.1, 0.8, 0.4, 0.5]})
    ks = indist_fast.ks(df, label="y", score="p", pos_label="b")
    assert ks == indist_fast.ks([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.5])
    assert (ks.statistic, ks.threshold, ks.sign) == (0.5, 0.8, 1)


def test_reversed_scores_have_sign_minus_one_and_ties_zero():
    ks = indist_fast.ks([1, 1, 0, 0], [0.1, 0.2, 0.8, 0.9])
    assert (ks.statistic, ks.sign, ks.tpr, ks.fpr) == (1.0, -1, 0.0, 1.0)
    tied = indist_fast.ks([1, 0], [0.5, 0.5])
    assert (tied.statistic, tied.sign, tied.pvalue) == (0.0, 0, 1.0)


def test_ks_statistic_is_scale_invariant_in_the_weights(backend):
    y, s, w = rows(5, weighted=True)
    base = indist_fast.ks(y, s, sample_weight=w, method=None)
    for factor in (1e-300, 1e300):
        scaled = indist_fast.ks(y, s, sample_weight=w * factor, method=None)
        assert scaled.statistic == pytest.approx(base.statistic, rel=1e-12)
        assert scaled.threshold == base.threshold


@pytest.mark.parametrize("bad, error, match", [
    ("Exact", ValueError, "method must be"), (1, ValueError, "method must be"),
    ("approx", ValueError, "method must be")])
def test_bad_method_is_named(bad, error, match):
    with pytest.raises(error, match=match):
        indist_fast.ks([0, 1], [0.2, 0.7], method=bad)
    with pytest.raises(error, match=match):
        ScoreTable.from_arrays([0, 1], [0.2, 0.7]).ks(method=bad)


def test_one_class_is_refused_by_name():
    with pytest.raises(ValueError, match="y_true holds only positives"):
        indist_fast.ks([1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match="zero on every row"):
        indist_fast.ks([1, 0], [0.2, 0.3], sample_weight=[0, 0])


def test_ks_record_is_plain():
    ks = indist_fast.ks([0, 1], [0.2, 0.7])
    assert isinstance(ks, KSResult)
    assert ks.to_dict() == {"statistic": 1.0, "threshold": 0.7, "tpr": 1.0, "fpr": 0.0,
                            "sign": 1, "pvalue": 1.0, "method": "exact", "n_pos": 1.0,
                            "n_neg": 1.0}
    assert str(ks).startswith("KS 1 at threshold 0.7") and "p-value 1" in str(ks)


@pytest.mark.parametrize("n", [1, 2, 7, 40, 513])
def test_equal_sizes_reflection_equals_the_band_count(n):
    from indist_fast.table.ks_distribution import _band_sf, _equal_sizes_sf
    for h in sorted({1, max(1, n // 7), max(1, n // 3), max(1, n // 2), n}):
        assert _equal_sizes_sf(n, h) == pytest.approx(_band_sf(n, n, h), rel=1e-12,
                                                      abs=1e-300)


def test_an_exact_count_too_long_falls_back_with_a_warning():
    from indist_fast.table.ks_distribution import MAX_EXACT_CELLS, exact_cells
    m, n = 1_000_000, 500_000                 # lcm small, band wide: hours of counting
    assert exact_cells(m, n, 10_000) > MAX_EXACT_CELLS
    with pytest.warns(indist_fast.IndistFastWarning, match="steps"):
        p, used = ks_pvalue(0.01, m, n, "exact")
    assert used == "asymp" and p == ks_pvalue(0.01, m, n, "asymp")[0]


@pytest.mark.parametrize("seed", range(4))
def test_counts_in_int64_equal_weights_of_one(seed):
    # counts compare exact int64 numerators, weights float64 ones: the same point wins,
    # ties included (few distinct scores)
    rng = np.random.default_rng(seed)
    y = rng.random(50_000) < 0.2
    s = rng.integers(0, 40 if seed % 2 else 5_000, 50_000).astype(float)
    counts = ScoreTable.from_arrays(y, s)
    weights = ScoreTable.from_arrays(y, s, np.ones(len(y)))
    assert counts.ks(method=None) == weights.ks(method=None)
