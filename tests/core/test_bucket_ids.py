"""A score's radix bucket, found in 512-bit lanes where the CPU has AVX-512 and by the
compiler's loop otherwise, is the one NumPy finds from the plan's table (``Plan`` in
``src/_common.pxd``): for float64 and float32 scores of every kind, blocks of any length
and start (the lanes' tails), with NaN scores counted. The same pass gives the fill
each row's word less its label (the order bits shifted up by one), compared with
NumPy's too. ``bucket_ids`` runs the fills' own loops on any rows."""

from __future__ import annotations

import numpy as np
import pytest

from indist_fast._core import _radix


def order_bits(s: np.ndarray) -> np.ndarray:
    """The order bits of each score (-0.0 as 0.0), as uint64 (float32: in the low 32)."""
    if s.dtype == np.float32:
        u = (s + np.float32(0)).view(np.uint32).astype(np.uint64)
        return u ^ np.where(u >> 31, np.uint64(0xFFFFFFFF), np.uint64(1 << 31))
    u = (s + 0.0).view(np.uint64)
    return u ^ np.where(u >> 63, np.uint64(2**64 - 1), np.uint64(1 << 63))


def numpy_ids(s: np.ndarray, table: np.ndarray, base: int) -> np.ndarray:
    """The bucket of each score: its order bits' top 16 less ``base``, clamped, index
    the table, whose entry is first | shift << 32 | mask << 48."""
    key = order_bits(s)
    prefix = key >> (16 if s.dtype == np.float32 else 48)
    j = np.clip(prefix.astype(np.int64) - base, 0, len(table) - 1)
    e = table[j]
    first, shift, mask = e & np.uint64(0xFFFFFFFF), (e >> 32) & np.uint64(0xFF), e >> 48
    return (first + ((key >> shift) & mask)).astype(np.uint16)


def scores(rng, n: int, dtype) -> np.ndarray:
    tiny, huge = np.finfo(dtype).smallest_subnormal, np.finfo(dtype).max
    special = np.array([0.0, -0.0, np.inf, -np.inf, tiny, -tiny, 1e-39, huge, -huge, np.nan],
                       dtype)
    return rng.permutation(np.concatenate([
        rng.normal(size=n), rng.random(n), rng.choice(special, n),
        rng.normal(scale=1e-3, size=n) + 0.5]).astype(dtype))


@pytest.fixture(params=[True, False], ids=["avx512", "loop"])
def simd(request):
    before = _radix.simd_blocks()
    on = _radix.simd_blocks(request.param)
    if request.param and not on:
        pytest.skip("the CPU has no AVX-512")
    yield on
    _radix.simd_blocks(before)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_bucket_ids_are_numpys(simd, dtype):
    rng = np.random.default_rng(11)
    s = scores(rng, 1500, dtype)
    word = np.uint32 if dtype == np.float32 else np.uint64
    want_words = (order_bits(s) << np.uint64(1)).astype(word)     # (the top bit drops)
    # plans from a few samples: fine buckets where the sample is, catch-alls elsewhere
    for sample in (s, s[:40], np.array([0.5, 0.25], dtype)):
        table, base, tops = _radix.radix_plan(sample, 8, len(s))
        want = numpy_ids(s, table, base)
        for start, stop in ((0, len(s)), (3, 3 + 8 * 37 + 5), (1, 16), (5, 6), (7, 7)):
            ids = np.full(len(s), 0xFFFF, np.uint16)
            words = np.full(len(s), 7, word)
            assert _radix.bucket_ids(s, table, base, start, stop, ids) == np.isnan(
                s[start:stop]).sum()                            # NaN rows counted
            ids_again = np.full(len(s), 0xFFFF, np.uint16)
            got = _radix.bucket_ids(s, table, base, start, stop, ids_again, words)
            assert got == np.isnan(s[start:stop]).sum()
            np.testing.assert_array_equal(ids, ids_again)
            part = slice(start, stop)
            clean = ~np.isnan(s[part])
            np.testing.assert_array_equal(ids[part][clean], want[part][clean])
            np.testing.assert_array_equal(words[part][clean], want_words[part][clean])
            assert (ids[part] < len(tops)).all()
            assert (ids[:start] == 0xFFFF).all() and (ids[stop:] == 0xFFFF).all()
            assert (words[:start] == 7).all() and (words[stop:] == 7).all()
