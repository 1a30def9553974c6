"""The pair counts of one column from one sort: packed keys (integer sort), their
fallback when distinct scores share leading bits, and the argsort path (weights),
against counting every pair."""

from __future__ import annotations

import numpy as np
import pytest

from indist_fast.multiclass._pair_counts import ordered_bits, packed_keys, pair_counts


def brute(codes, col, positive, k, w=None):
    w = np.ones(len(col)) if w is None else w
    out = np.zeros(k)
    for i in np.flatnonzero(codes == positive):
        for j in range(len(col)):
            out[codes[j]] += w[i] * w[j] * ((col[i] > col[j]) + 0.5 * (col[i] == col[j]))
    return out


@pytest.mark.parametrize("weighted", [False, True])
def test_every_class_at_once(weighted):
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
def test_distinct_scores_one_ulp_apart(low, high, exact):
    # 1.0 and the next float: exact keys keep them apart; when the scores span too
    # many order bits the keys lose their lowest bits to the class and tie them, and
    # the count of the exact scores' distinct values sends them to the argsort
    up = np.nextafter(1.0, 2.0)
    col = np.array([1.0, up, 1.0, up, low, high, 0.75])
    codes = np.array([0, 1, 1, 2, 0, 2, 1], dtype=np.int64)
    assert packed_keys(codes, col, 2)[1] is exact
    for c in range(3):
        np.testing.assert_allclose(pair_counts(codes, col, c, 3), brute(codes, col, c, 3))


def test_ordered_bits_keep_the_order():
    x = np.array([-np.inf, -2.5, -1e-300, -0.0, 0.0, 1e-300, 0.5, 3.0, np.inf])
    u = ordered_bits(x)
    assert (np.diff(u.astype(np.float64)) >= 0).all() and u[3] == u[4]
    assert (u[1:] > u[:-1]).sum() == len(x) - 2            # only -0.0 and 0.0 tie
