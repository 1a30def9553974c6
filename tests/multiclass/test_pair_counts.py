"""The pair counts of one column from one sort: packed keys (integer sort), their
fallback when distinct scores share leading bits, and the argsort path (weights),
against counting every pair, on both backends; the two kernels and the transposing
copy against their NumPy twins."""

from __future__ import annotations

import numpy as np
import pytest

from indist_fast._core import fast, reference
from indist_fast._core.key_range import ordered_bits
from indist_fast.multiclass._pair_counts import pair_counts


def brute(codes, col, positive, k, w=None):
    w = np.ones(len(col)) if w is None else w
    out = np.zeros(k)
    for i in np.flatnonzero(codes == positive):
        for j in range(len(col)):
            out[codes[j]] += w[i] * w[j] * ((col[i] > col[j]) + 0.5 * (col[i] == col[j]))
    return out


@pytest.mark.parametrize("weighted", [False, True])
def test_every_class_at_once(backend, weighted):
    rng = np.random.default_rng(0)
    for trial in range(150):
        n, k = int(rng.integers(1, 40)), int(rng.integers(2, 7))
        codes = rng.integers(0, k, n).astype(np.int64)
        col = (rng.integers(-3, 4, n) * 0.5 if trial % 2 else rng.normal(size=n))
        if trial % 5 == 0:
            col[rng.random(n) < 0.3] = -0.0              # -0.0 ties with 0.0
        w = rng.integers(0, 3, n).astype(float) if weighted else None
        c = int(rng.integers(0, k))
        got = pair_counts(codes, col.astype(np.float64), c, k, w)
        other = np.arange(k) != c
        np.testing.assert_allclose(got[other], brute(codes, col, c, k, w)[other], atol=1e-9)


@pytest.mark.parametrize("low, high, exact", [(0.25, 0.5, True), (0.0, 0.5, True),
                                             (1e-300, 1e300, False), (-1e300, 0.5, False)])
def test_distinct_scores_one_ulp_apart(backend, low, high, exact):
    # 1.0 and the next float: exact keys keep them apart; when the scores span too
    # many order bits the keys lose their lowest bits to the class and tie them, and
    # the count of the exact scores' distinct values sends them to the argsort
    up = np.nextafter(1.0, 2.0)
    col = np.array([1.0, up, 1.0, up, low, high, 0.75])
    codes = np.array([0, 1, 1, 2, 0, 2, 1], dtype=np.int64)
    for twin in (fast, reference):
        assert twin.packed_keys(codes, col, 2)[1] is exact
    for c in range(3):
        np.testing.assert_allclose(pair_counts(codes, col, c, 3), brute(codes, col, c, 3))


def test_ordered_bits_keep_the_order():
    x = np.array([-np.inf, -2.5, -1e-300, -0.0, 0.0, 1e-300, 0.5, 3.0, np.inf])
    u = ordered_bits(x)
    assert (np.diff(u.astype(np.float64)) >= 0).all() and u[3] == u[4]
    assert (u[1:] > u[:-1]).sum() == len(x) - 2            # only -0.0 and 0.0 tie


def _column(rng, n):
    """Scores with ties (a few values, -0.0 among them) or distinct, and +-inf."""
    col = rng.integers(-3, 4, n) * 0.5 if rng.random() < 0.6 else rng.normal(size=n)
    col[rng.random(n) < 0.1] = -0.0
    col[rng.random(n) < 0.05] = np.inf
    col[rng.random(n) < 0.05] = -np.inf
    return col


@pytest.mark.parametrize("scale", [1.0, 1e-300, 1e300])
def test_packed_keys_against_twin(scale):
    rng = np.random.default_rng(4)
    for trial in range(200):
        n, bits = int(rng.integers(0, 50)), int(rng.integers(1, 17))
        codes = rng.integers(0, min(1 << bits, 9), n).astype(np.int64)
        col = _column(rng, n) * (1.0 if trial % 4 else scale)
        if trial % 3 == 0:
            col = np.abs(col)                  # probabilities' branch, zeros included
        if trial % 7 == 0 and n:
            col[0] = np.finfo(np.float64).tiny * rng.random()     # subnormal
        keys, exact = fast.packed_keys(codes, col, bits)
        want, want_exact = reference.packed_keys(codes, col, bits)
        assert keys.dtype == np.uint64 and exact is want_exact
        np.testing.assert_array_equal(keys, want)
        np.testing.assert_array_equal(keys & np.uint64((1 << bits) - 1), codes)
        if exact:                              # ascending keys: ascending scores
            s = col[np.argsort(keys, kind="stable")]
            assert (s[1:] >= s[:-1]).all()


@pytest.mark.parametrize("twin", [fast, reference])
def test_packed_keys_refuse_codes_out_of_range(twin):
    col = np.array([0.1, 0.5, 0.2])
    for codes in ([0, 4, 1], [0, -1, 1]):
        with pytest.raises(ValueError, match="out of range at row 1"):
            twin.packed_keys(np.array(codes, dtype=np.int64), col, 2)


def test_sorted_pair_counts_against_twin_and_brute_force():
    rng = np.random.default_rng(1)
    for trial in range(300):
        n, k = int(rng.integers(0, 60)), int(rng.integers(1, 9))
        bits = max(1, (k - 1).bit_length())
        codes = rng.integers(0, k, n).astype(np.int64)
        col = _column(rng, n)
        keys = np.sort(ordered_bits(col) >> np.uint64(bits) << np.uint64(bits)
                       | codes.view(np.uint64)) if trial % 3 == 0 else None
        if keys is None:                       # exact keys: the ranks of the scores
            ranks = np.unique(col + 0.0, return_inverse=True)[1].astype(np.uint64)
            keys = np.sort(ranks << np.uint64(bits) | codes.view(np.uint64))
        c = int(rng.integers(0, k))
        got, groups = fast.sorted_pair_counts(keys, bits, c)
        want, want_groups = reference.sorted_pair_counts(keys, bits, c)
        assert got.dtype == want.dtype == np.int64 and len(got) == 1 << bits
        np.testing.assert_array_equal(got, want)
        assert groups == want_groups == len(np.unique(keys >> np.uint64(bits)))
        if trial % 3:
            np.testing.assert_array_equal(got[:k] / 2, brute(codes, col, c, k))


def test_ordered_pair_counts_against_twin_and_brute_force():
    rng = np.random.default_rng(2)
    for trial in range(300):
        n, k = int(rng.integers(0, 60)), int(rng.integers(1, 9))
        codes = rng.integers(0, k, n).astype(np.int64)
        col = _column(rng, n)
        w = (None if trial % 3 == 0 else rng.integers(0, 3, n).astype(float) if trial % 3 == 1
             else rng.exponential(size=n) * (rng.random(n) < 0.8))     # zero weights too
        order = np.argsort(col, kind="stable" if trial % 2 else "quicksort")
        c = int(rng.integers(0, k))
        got = fast.ordered_pair_counts(order, col, codes, w, c, k)
        want = reference.ordered_pair_counts(order, col, codes, w, c, k)
        assert got.dtype == want.dtype == np.float64 and len(got) == k
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(got, brute(codes, col, c, k, w), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("twin", [fast, reference])
def test_ordered_pair_counts_refuse_codes_and_rows_out_of_range(twin):
    col, w = np.array([0.1, 0.5, 0.2]), None
    with pytest.raises(ValueError, match="out of range"):
        twin.ordered_pair_counts(np.argsort(col), col, np.array([0, 3, 1]), w, 0, 3)
    with pytest.raises(ValueError, match="out of range"):
        twin.ordered_pair_counts(np.argsort(col), col, np.array([0, -1, 1]), w, 0, 3)
    with pytest.raises(ValueError, match="bits"):
        twin.sorted_pair_counts(np.zeros(2, dtype=np.uint64), 0, 0)


def test_ordered_pair_counts_refuse_a_row_out_of_range():
    col, codes = np.array([0.1, 0.5, 0.2]), np.array([0, 1, 1])
    with pytest.raises(ValueError, match="out of range"):
        fast.ordered_pair_counts(np.array([0, 5, 1]), col, codes, None, 0, 2)


@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (5, 2), (4097, 10), (9000, 3), (60_001, 3)])
def test_transpose_sums_against_twin(shape):
    rng = np.random.default_rng(3)
    p = rng.random(shape)
    if p.size:
        p[rng.random(shape) < 0.01] = np.inf
        p[0, 0] = np.nan
    got, sums = fast.transpose_sums(p)
    want, want_sums = reference.transpose_sums(p)
    np.testing.assert_array_equal(got, p.T)
    np.testing.assert_array_equal(want, p.T)
    assert got.flags.c_contiguous and want.flags.c_contiguous
    np.testing.assert_allclose(sums, want_sums, rtol=1e-15, equal_nan=True)
    np.testing.assert_allclose(sums, p.sum(axis=1), rtol=1e-15, equal_nan=True)
