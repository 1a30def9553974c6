"""The segment kernel's layout: pieces padded to a few lengths per octave and sorted as
rows of 2-D arrays (weighted: argsorted), against ``evaluate`` on each segment."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast._core import fast
from test_segments import assert_row_is_evaluate


def assert_segments_are_evaluate(y, s, w, g):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        table = indist_fast.evaluate_many(y, s, groups=g, sample_weight=w)
    for i, value in enumerate(table.columns["group"].tolist()):
        rows = g == value
        assert_row_is_evaluate(table, i, y[rows], s[rows], None if w is None else w[rows])


def test_padded_lengths_are_few_and_tight():
    size = np.arange(0, 5000, dtype=np.int64)
    length = fast._padded_lengths(size)
    assert (length >= size).all()
    assert (length[:17] == size[:17]).all()                  # up to 16: exact
    assert (length[17:] <= size[17:] * 9 // 8 + 1).all()    # then at most 1/8 more
    for octave in range(5, 12):                             # about eight per octave
        lo, hi = 2 ** (octave - 1), 2 ** octave
        assert len(np.unique(length[lo + 1:hi + 1])) <= 9


@pytest.mark.parametrize("n", [17, 1500])
@pytest.mark.parametrize("weighted", [False, True])
def test_infinite_scores_tie_with_the_padding_without_losing_their_weight(backend, n,
                                                                          weighted):
    """A piece is padded with +inf to its padded length: its own +inf rows (with weights
    unlike the padding's) must stay ahead of the padding when the row is sorted (NumPy's
    SIMD argsort does not keep ties in order from about a thousand entries on)."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(n, bool), np.zeros(n + 5, bool)]
    s = np.r_[np.full(n // 2, np.inf), rng.normal(size=n - n // 2 - 1), -np.inf,
              rng.normal(size=n + 5)]
    rng.shuffle(s[:n])
    s[n + 3] = np.inf
    s[n + 4] = -0.0
    s[n + 5] = 0.0
    w = rng.integers(1, 9, len(y)).astype(float) if weighted else None
    g = np.zeros(len(y), dtype=np.int64)
    g[::11] = 1                                          # a second, smaller segment
    assert_segments_are_evaluate(y, s, w, g)


def test_zero_weights_count_as_rows_but_not_as_scores(backend):
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0], bool)
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    w = np.array([1.0, 0.0, 2.0, 1.0, 0.0, 3.0, 1.0, 0.0])
    g = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        table = indist_fast.evaluate_many(y, s, groups=g, sample_weight=w)
    assert table.columns["n_rows"].tolist() == [4, 4]
    for i in range(2):
        rows = g == i
        assert_row_is_evaluate(table, i, y[rows], s[rows], w[rows])


@pytest.mark.parametrize("weighted", [False, True])
def test_long_and_short_pieces_on_two_threads(threaded, weighted):
    """Pieces of many padded lengths (a run of one long piece, runs of many rows) split
    over two threads, sorted and swept: each segment is still ``evaluate``."""
    rng = np.random.default_rng(5)
    sizes = [1, 2, 3, 17, 18, 40, 41, 300, 2000]
    g = np.repeat(np.arange(len(sizes)), sizes)
    y = rng.random(len(g)) < 0.4
    s = np.round(rng.normal(size=len(g)), 2)
    w = rng.integers(0, 4, len(g)).astype(float) if weighted else None
    assert_segments_are_evaluate(y, s, w, g)


def test_weights_beyond_float64_are_refused_not_tabled(backend):
    """A segment whose weights sum past float64 has no reportable row: the table is
    refused with evaluate's message, as evaluate refuses those rows."""
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.9, 0.1, 0.8, 0.2, 0.7, 0.3])
    w = np.array([1e308, 1e308, 1.0, 1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="^sample_weight sums to more than float64"):
        indist_fast.evaluate_many(y, s, groups=[0, 0, 1, 1, 1, 1], sample_weight=w)
    with pytest.raises(ValueError, match="^sample_weight sums to more than float64"):
        indist_fast.evaluate(y[:2], s[:2], sample_weight=w[:2])
