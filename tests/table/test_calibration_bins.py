"""The table-level calibration: quantile edges read off the cumulative counts are
numpy.percentile's to the bit, a table merged from chunks (ScoreTable.merge,
Accumulator) gives the rows' record, and a table's scores must be probabilities."""

from __future__ import annotations

import numpy as np
import pytest

import indist_fast
from indist_fast import ScoreTable, calibration
from indist_fast.table.calibration_bins import calibration_edges


# (tiny samples leave slopes and p-values undefined: those warnings are not the point)
@pytest.mark.filterwarnings("ignore::indist_fast.errors.IndistFastWarning")
def test_quantile_edges_are_numpys_to_the_bit(backend):
    rng = np.random.default_rng(2)
    for dtype in (np.float64, np.float32):
        for n in (1, 2, 7, 100, 1001):
            p = rng.random(n).astype(dtype)
            p[n // 2:] = np.round(p[n // 2:], 1)
            for n_bins in (1, 2, 3, 10, 13, 50):
                cal = calibration(np.arange(n) % 2, p, n_bins=n_bins, strategy="quantile")
                np.testing.assert_array_equal(
                    cal.edges, np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100))


def test_edges_from_counts_without_the_rows():
    # 0.1 twice, 0.4 once, 0.7 three times: numpy's percentiles of the six rows
    rows = np.array([0.1, 0.1, 0.4, 0.7, 0.7, 0.7])
    edges = calibration_edges(np.array([0.1, 0.4, 0.7]), np.array([2, 1, 3]), True, 4,
                              "quantile")
    np.testing.assert_array_equal(edges, np.percentile(rows, [0, 25, 50, 75, 100]))
    weighted = calibration_edges(np.array([0.1, 0.4, 0.7]), np.array([2.0, 1.0, 3.0]),
                                 False, 4, "quantile")
    assert weighted.tolist() == [0.1, 0.1, 0.4, 0.7, 0.7]
    np.testing.assert_array_equal(calibration_edges(np.array([0.5]), np.array([1]), True, 3,
                                                    "uniform"), np.linspace(0, 1, 4))


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("weighted", [False, True])
def test_a_table_merged_from_chunks_gives_the_same_record(backend, strategy, weighted):
    rng = np.random.default_rng(9)
    p = np.round(rng.random(3000), 3)
    y = rng.random(3000) < p
    w = rng.integers(0, 3, 3000).astype(float) if weighted else None
    whole = calibration(y, p, sample_weight=w, n_bins=7, strategy=strategy)
    cuts = [0, 500, 1700, 3000]
    parts = [ScoreTable.from_arrays(y[a:b], p[a:b], None if w is None else w[a:b])
             for a, b in zip(cuts, cuts[1:])]
    acc = indist_fast.Accumulator()
    for a, b in zip(cuts, cuts[1:]):
        acc.update(y[a:b], p[a:b], None if w is None else w[a:b])
    for table in (parts[0].merge(parts[1]).merge(parts[2]), acc.table):
        merged = table.calibration(n_bins=7, strategy=strategy)
        np.testing.assert_array_equal(merged.edges, whole.edges)
        np.testing.assert_array_equal(merged.bin, whole.bin)
        got, want = merged.to_dict(), whole.to_dict()
        assert got.keys() == want.keys()
        for name in want:               # every field, to rounding (sums in another order)
            if isinstance(want[name], str):
                assert got[name] == want[name]
            else:
                np.testing.assert_allclose(got[name], want[name], rtol=1e-12, err_msg=name)


def test_a_table_of_scores_outside_zero_one_is_refused():
    with pytest.raises(ValueError, match="the table's scores must hold probabilities"):
        ScoreTable.from_arrays([0, 1], [-1.0, 2.0]).calibration()
