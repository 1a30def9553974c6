"""Precision, recall and lift at k against the average over every order of the rows
(ties at the cut), on both backends; k as rows, as a share, as weight; the errors
that name k; the same numbers from a merged table."""

from __future__ import annotations

import numpy as np
import pytest

import indist_fast
import oracle
from indist_fast import ScoreTable, TopK


def rows(seed, n=None, levels=3):
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(3, 8))
    y = rng.random(n) < 0.5
    y[0], y[1] = True, False
    return y, rng.integers(0, levels, n).astype(float)


@pytest.mark.parametrize("seed", range(12))
def test_top_k_is_the_expectation_over_orders_of_ties(backend, seed):
    y, s = rows(seed)
    for k in range(1, len(y) + 1):
        top = indist_fast.top_k(y, s, k)
        want = float(oracle.top_k_by_orders(y, s, k))
        assert top.tp == pytest.approx(want, abs=1e-12)
        assert top.precision == pytest.approx(want / k, abs=1e-12)
        assert top.recall == pytest.approx(want / y.sum(), abs=1e-12)
        assert top.lift == pytest.approx((want / k) / y.mean(), rel=1e-12)
        # the threshold is the score of the k-th row by score
        assert top.threshold == np.sort(s)[::-1][k - 1]


def test_top_k_worked_example_with_a_tie_at_the_cut():
    # 0.9 (+), then three rows at 0.8 of which one positive, then 0.1 (-)
    top = indist_fast.top_k([1, 1, 0, 0, 0], [0.9, 0.8, 0.8, 0.8, 0.1], 3)
    assert top.tie_share == pytest.approx(2 / 3)
    assert top.tp == pytest.approx(1 + 2 / 3)
    clean = indist_fast.top_k([1, 1, 0, 0, 0], [0.9, 0.8, 0.8, 0.8, 0.1], 4)
    assert (clean.tie_share, clean.tp, clean.threshold) == (1.0, 2.0, 0.8)


def test_a_share_is_of_the_rows(backend):
    y, s = rows(4, n=20, levels=50)
    assert indist_fast.top_k(y, s, 0.25) == TopK(**{
        **indist_fast.top_k(y, s, 5).to_dict(), "k": 0.25})
    every = indist_fast.top_k(y, s, 1.0)
    assert (every.size, every.recall, every.lift) == (20.0, 1.0, 1.0)
    assert indist_fast.top_k(y, s, 20).precision == pytest.approx(y.mean())


def test_k_counts_weight_as_rows(backend):
    y, s = rows(6, n=7, levels=4)
    w = np.array([3, 1, 0, 2, 1, 2, 1], dtype=float)
    ry, rs = oracle.expand(y, s, w)
    for k in (1, 2, 5, 9, int(w.sum())):
        got = indist_fast.top_k(y, s, k, sample_weight=w)
        assert got == indist_fast.top_k(ry, rs, k)
    half = indist_fast.top_k(y, s, 0.5, sample_weight=w)
    assert half.size == 5.0


def test_merged_tables_and_columns_give_the_same(backend):
    pd = pytest.importorskip("pandas")
    y, s = rows(8, n=40, levels=10)
    whole = indist_fast.top_k(y, s, 13)
    merged = ScoreTable.from_arrays(y[:17], s[:17]).merge(ScoreTable.from_arrays(y[17:],
                                                                                  s[17:]))
    assert merged.top_k(13) == whole
    df = pd.DataFrame({"y": np.where(y, "yes", "no"), "p": s})
    assert indist_fast.top_k(df, k=13, label="y", score="p", pos_label="yes") == whole


@pytest.mark.parametrize("k, error, match", [
    (0, ValueError, "at least 1"), (-2, ValueError, "at least 1"),
    (7, ValueError, "at most the number of rows"), (0.0, ValueError, r"\(0, 1\]"),
    (1.5, ValueError, r"\(0, 1\]"), (float("nan"), ValueError, r"\(0, 1\]"),
    (True, TypeError, "k must be"), ("3", TypeError, "k must be"),
    (None, TypeError, "k is missing")])
def test_bad_k_is_named(k, error, match):
    with pytest.raises(error, match=match):
        indist_fast.top_k([0, 1, 1, 0, 1, 0], [0.1, 0.5, 0.4, 0.2, 0.9, 0.3], k)
    if k is not None:
        with pytest.raises(error, match=match):
            ScoreTable.from_arrays([0, 1, 1, 0, 1, 0], [0.1, 0.5, 0.4, 0.2, 0.9, 0.3]).top_k(k)


def test_one_class_is_refused_by_name():
    with pytest.raises(ValueError, match="y_true holds only negatives"):
        indist_fast.top_k([0, 0, 0], [0.1, 0.2, 0.3], 1)


def test_record_is_plain():
    top = indist_fast.top_k([0, 1, 1, 0], [0.2, 0.7, 0.5, 0.1], 1)
    assert top.to_dict() == {"k": 1, "size": 1.0, "threshold": 0.7, "tie_share": 1.0,
                             "tp": 1.0, "precision": 1.0, "recall": 0.5, "lift": 2.0,
                             "base_rate": 0.5}
    assert "precision 1, recall 0.5, lift 2" in str(top)


@pytest.mark.parametrize("k", [1, 4095, 4096, 4097, 30_000, 99_999, 100_000, 0.37, 1.0])
def test_counts_read_as_far_as_the_cut_equal_weights_of_one(k):
    # counts find the cut in blocks that double from the top; weights of one (float64)
    # run one prefix sum over the table: the two must agree, in every block and at the end
    rng = np.random.default_rng(7)
    y = rng.random(100_000) < 0.3
    s = rng.integers(0, 20_000, 100_000).astype(float)
    counts = ScoreTable.from_arrays(y, s)
    weights = ScoreTable.from_arrays(y, s, np.ones(len(y)))
    assert counts.pos.dtype.kind == "i" and weights.pos.dtype.kind == "f"
    assert counts.top_k(k) == weights.top_k(k)
