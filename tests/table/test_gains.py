"""The gains table against a loop over distinct scores with exact fractions
(``oracle.gains_bins``) and a loop over rows per bin, on both backends; ties kept
together (bins merge), weights as copies, a merged table and an Accumulator."""

from __future__ import annotations

import numpy as np
import pytest

import indist_fast
import oracle
from indist_fast import GainsTable, ScoreTable
from indist_fast.results.gains_table import GAINS_COLUMNS


def rows(seed, n=None, levels=8, weighted=False):
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(5, 60))
    y = rng.random(n) < 0.4
    y[0], y[1] = True, False
    s = rng.integers(0, levels, n).astype(float) + 0.7 * y
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    if weighted:
        w[0] = w[1] = 1.0
    return y, s, w


@pytest.mark.parametrize("seed", range(16))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_bins", [1, 3, 10, 25])
def test_gains_equal_the_loop(backend, seed, weighted, n_bins):
    y, s, w = rows(seed, weighted=weighted)
    g = indist_fast.gains(y, s, n_bins=n_bins, sample_weight=w)
    bins = oracle.gains_bins(y, s, w, n_bins)
    assert len(g) == len(bins) <= n_bins
    ww = np.ones(len(y)) if w is None else w
    wp, wn = ww[y].sum(), ww[~y].sum()
    cum_p = cum_n = 0.0
    for i, (high, low, weight, positives) in enumerate(bins):
        inside = (s <= high) & (s >= low)
        cum_p += ww[inside & y].sum()
        cum_n += ww[inside & ~y].sum()
        want = {"bin": i + 1, "score_high": high, "score_low": low, "weight": weight,
                "positives": positives, "negatives": weight - positives,
                "share": weight / (wp + wn), "cumulative_share": (cum_p + cum_n) / (wp + wn),
                "positive_rate": positives / weight, "capture": positives / wp,
                "cumulative_capture": cum_p / wp,
                "lift": positives / weight / (wp / (wp + wn)),
                "cumulative_lift": cum_p / (cum_p + cum_n) / (wp / (wp + wn)),
                "ks": cum_p / wp - cum_n / wn}
        for name, value in want.items():
            assert g[name][i] == pytest.approx(value, rel=1e-12, abs=1e-12), name
    # bins never split a tie: the score ranges are disjoint and in order
    assert np.all(g["score_low"][:-1] > g["score_high"][1:])


def test_distinct_scores_give_equal_bins():
    s = np.arange(100.0)
    y = (s % 3 == 0)
    g = indist_fast.gains(y, s, n_bins=10)
    assert g["weight"].tolist() == [10.0] * 10
    ranked = y[np.argsort(-s)]
    assert g["positives"].tolist() == [float(ranked[i:i + 10].sum()) for i in range(0, 100, 10)]


def test_heavy_ties_merge_bins():
    # 60 of 100 rows tied at the top: bins 1..6 end together
    s = np.r_[np.full(60, 99.0), np.arange(40.0)]
    y = np.arange(100) % 2 == 0
    g = indist_fast.gains(y, s, n_bins=10)
    assert len(g) == 5 and g["weight"].tolist() == [60.0, 10.0, 10.0, 10.0, 10.0]
    one = indist_fast.gains([0, 1, 0, 1], [0.5] * 4, n_bins=4)
    assert len(one) == 1 and one["lift"].tolist() == [1.0]


def test_weights_are_copies(backend):
    y, s, w = rows(3, n=30, weighted=True)
    ry, rs = oracle.expand(y, s, w)
    a = indist_fast.gains(y, s, n_bins=7, sample_weight=w)
    b = indist_fast.gains(ry, rs, n_bins=7)
    for name in GAINS_COLUMNS:
        np.testing.assert_allclose(a[name], b[name], rtol=1e-12)


def test_merged_tables_and_an_accumulator_give_the_same(backend):
    y, s, w = rows(9, n=80, weighted=True)
    whole = indist_fast.gains(y, s, sample_weight=w)
    acc = indist_fast.Accumulator()
    for part in np.array_split(np.arange(80), 3):
        acc.update(y[part], s[part], w[part])
    merged = ScoreTable.from_arrays(y[:40], s[:40], w[:40]).merge(
        ScoreTable.from_arrays(y[40:], s[40:], w[40:]))
    for table in (acc.table, merged):
        again = table.gains()
        for name in GAINS_COLUMNS:
            np.testing.assert_array_equal(again[name], whole[name])


def test_bad_n_bins_and_one_class_are_named():
    for bad, error in ((0, ValueError), (2.0, TypeError), (True, TypeError)):
        with pytest.raises(error, match="n_bins"):
            indist_fast.gains([0, 1], [0.1, 0.2], n_bins=bad)
        with pytest.raises(error, match="n_bins"):
            ScoreTable.from_arrays([0, 1], [0.1, 0.2]).gains(bad)
    with pytest.raises(ValueError, match="y_true holds only positives"):
        indist_fast.gains([1, 1], [0.1, 0.2])


def test_record_text_dict_and_pandas():
    pd = pytest.importorskip("pandas")
    g = indist_fast.gains([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9], n_bins=3)
    assert isinstance(g, GainsTable)
    text = str(g)
    assert text.splitlines()[0].split()[:2] == ["bin", "score"]
    assert "3 bins of 3 asked; base rate 0.5" in text and repr(g) == text
    d = g.to_dict()
    assert list(d)[:len(GAINS_COLUMNS)] == list(GAINS_COLUMNS)
    assert d["positives"] == [2.0, 1.0, 0.0] and d["n_bins"] == 3
    frame = g.to_pandas()
    assert list(frame.columns) == list(GAINS_COLUMNS) and len(frame) == 3
    assert not g["lift"].flags.writeable
