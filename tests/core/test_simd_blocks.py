"""Sweeps that take eight groups at a time (AVX-512, ``sweep.pxd``) against the
group-at-a-time loop they stand in for: the same results to the bit, not to a
tolerance, since with whole weights every sum is exact and the one rounding sum (AP's)
is added in the loop's order.

The cases reach each way a block hands rows back to the loop: a level reached inside
a block, runs of one score shorter and longer than a block and across block edges,
undefined B (one positive, self-pairs excluded), a bucket's tail, float32 words, and
the replicate sweeps' empty groups. On a CPU without AVX-512 there is nothing to
compare and the tests say so.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cases import every_kernel, filled, lower_thresholds
from indist_fast._core import _radix, _resample, _sorted
from indist_fast._core import fast as _fast
from indist_fast._core import fast_radix as _fast_radix
from indist_fast._core import reference as _reference
from test_kernels import assert_sweeps_equal

SETTINGS = settings(max_examples=80, deadline=None)
LEVELS = st.lists(st.floats(0.01, 0.99), min_size=1, max_size=16, unique=True)


def needs_blocks(module):
    if not module.simd_blocks():
        pytest.skip("this CPU has no AVX-512: the loop does every group")


def both_ways(module, run):
    """``run()`` with the blocks on, then off."""
    module.simd_blocks(True)
    on = run()
    module.simd_blocks(False)
    try:
        off = run()
    finally:
        module.simd_blocks(True)
    return on, off


def assert_bitwise(a, b):
    assert type(a) is type(b)
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_bitwise(x, y)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a.view(np.uint8), b.view(np.uint8)), (a, b)
    elif isinstance(a, float):
        assert np.float64(a).tobytes() == np.float64(b).tobytes(), (a, b)
    else:
        assert a == b


@st.composite
def scores(draw):
    """Labels and scores with runs of one score of chosen lengths (1: all distinct)."""
    n = draw(st.integers(9, 3000))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    run = draw(st.sampled_from([1, 1, 2, 3, 7, 8, 9, 17]))
    base = rng.random(-(-n // run))
    s = np.repeat(base, run)[:n] + 0.0
    if draw(st.booleans()):                   # scattered ties as well
        s[rng.random(n) < 0.1] = 0.5
    y = (rng.random(n) < draw(st.floats(0.02, 0.98))).astype(np.int8)
    y[0], y[-1] = 1, 0
    s = s + y * draw(st.floats(0, 1))
    s -= draw(st.sampled_from([0.0, 0.0, 0.7, 3.0]))     # scores of both signs, or < 0
    if draw(st.booleans()):
        s[rng.random(n) < 0.05] = rng.choice([0.0, -0.0, np.inf, -np.inf])
    dtype = draw(st.sampled_from([np.float64, np.float32]))
    return y, s.astype(dtype)


def radix_words(y, s):
    """``summarize``'s radix blocks of the rows (buckets of ~64, blocks of two lines so
    that buckets chain), after a sweep that checks they hold every row."""
    f = filled(y, s, block_bytes=128)
    assert f.bad == 0
    sweep = _radix.radix_sweep_from(f.words, f.links, f.state, f.block, f.tops, len(f.tops),
                                      0, 0, f.wp, f.wn, np.empty(0), False, 0.0, 0.0, 0.0,
                                      False)
    assert sweep.result.n_groups == len(np.unique(s))
    return f


@pytest.mark.slow
@SETTINGS
@given(case=scores(), levels=LEVELS, exclude_self=st.booleans())
@example(case=(np.array([1] + [0] * 40, np.int8), np.linspace(1, 0, 41)), levels=[0.5, 0.99],
         exclude_self=True)                                       # undefined B
def test_radix_sweep_blocks_equal_the_loop(case, levels, exclude_self):
    needs_blocks(every_kernel)
    y, s = case
    f = radix_words(y, s)
    lv = np.array(levels)
    nb = len(f.tops)

    def sweep(top, tp=0.0, fp=0.0, gap=0.0, bottom=0):
        return _radix.radix_sweep_from(f.words, f.links, f.state, f.block, f.tops, top,
                                         bottom, bottom, f.wp, f.wn, lv, exclude_self, tp,
                                         fp, gap, True)
    assert_bitwise(*both_ways(every_kernel, lambda: sweep(nb)))
    # the lower buckets from the upper ones' state, as on two threads
    mid = nb // 2
    upper = sweep(nb, bottom=mid)
    tp = float(f.pos[mid:].sum())
    fp = float(f.sizes[mid:].sum()) - tp
    assert_bitwise(*both_ways(every_kernel, lambda: sweep(mid, tp, fp, upper.gap)))


@pytest.mark.slow
@SETTINGS
@given(case=scores())
def test_radix_fill_writes_the_same_words_with_and_without_avx512(case):
    """With AVX-512 a full line goes out in one 64-byte streaming store, its last word
    from a register; without, four 16-byte ones: the blocks hold the same words."""
    needs_blocks(every_kernel)
    y, s = case
    on = _bucket_words(filled(y, s, block_bytes=128))
    every_kernel.simd_blocks(False)
    try:
        off = _bucket_words(filled(y, s, block_bytes=128))
    finally:
        every_kernel.simd_blocks(True)
    assert len(on) == len(off)
    for a, b in zip(on, off):
        assert np.array_equal(a, b)


def _bucket_words(f):
    """Each bucket's words in chain order (the open block's first, then the full ones
    behind it), as the fill wrote them."""
    out = []
    for k in range(len(f.tops)):
        head, fill, full = (int(v) for v in f.state[0, :3, k])
        parts = [f.words[head * f.block:head * f.block + fill]]
        b = int(f.links[head])
        for _ in range(full):
            parts.append(f.words[b * f.block:(b + 1) * f.block])
            b = int(f.links[b])
        out.append(np.concatenate(parts))
    return out


def test_summarize_with_blocks_matches_the_reference(monkeypatch):
    needs_blocks(every_kernel)
    lower_thresholds(monkeypatch)
    monkeypatch.setattr(_fast, "RADIX_MIN_ROWS", 4)
    monkeypatch.setattr(_fast_radix, "RADIX_BUCKET_ROWS", 64)

    @SETTINGS
    @given(case=scores(), levels=LEVELS, exclude_self=st.booleans())
    def check(case, levels, exclude_self):
        y, s = case
        args = (y, s, None, 1.0, 0.0, np.array(levels), exclude_self)
        on, off = both_ways(every_kernel, lambda: _fast.summarize(*args))
        assert_bitwise(on, off)
        assert_sweeps_equal(on, _reference.summarize(*args), 1e-12)
    check()


@pytest.mark.slow
@SETTINGS
@given(case=scores(), levels=LEVELS, exclude_self=st.booleans())
def test_small_path_blocks_equal_the_loop(case, levels, exclude_self):
    needs_blocks(every_kernel)
    y, s = case
    args = (y, s, 1.0, 0.0, np.array(levels), exclude_self)
    on, off = both_ways(every_kernel, lambda: _sorted.summarize_small(*args))
    assert_bitwise(on, off)
    assert_sweeps_equal(on, _reference.summarize(y, s, None, *args[2:]), 1e-12)


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("exclude_self", [True, False])
def test_replicate_sweeps_blocks_equal_the_loop(stratified, exclude_self):
    needs_blocks(_resample)
    rng = np.random.default_rng(7)
    for n, m, prevalence in ((40, 13, 0.5), (3000, 800, 0.1), (3000, 3000, 0.5),
                             (500, 60, 0.97), (12, 9, 0.2)):
        y = rng.random(n) < prevalence
        y[:2] = True, False
        group = np.sort(rng.integers(0, m, n))          # descending scores' groups
        scores = np.linspace(1, 0, m)
        levels = np.linspace(0.05, 0.95, 16)

        def run(backend=_fast):
            gens = [np.random.PCG64(k) for k in range(25)]
            return backend.replicate_sweeps(gens, group[y], None, group[~y], None, scores,
                                            stratified, levels, exclude_self)
        on, off = both_ways(_resample, run)
        assert_bitwise(on, off)
        np.testing.assert_allclose(on, run(_reference), rtol=1e-12, atol=1e-12,
                                   equal_nan=True)


@pytest.mark.parametrize("module", _fast.KERNELS, ids=[m.__name__ for m in _fast.KERNELS])
def test_blocks_can_be_turned_off_and_on(module):
    needs_blocks(module)
    try:
        assert module.simd_blocks(False) is False
        assert module.simd_blocks() is False
    finally:
        assert module.simd_blocks(True) is True


@st.composite
def byte_label_rows(draw):
    """Few rows of one-byte labels in any coding, scores of both signs, and sometimes a
    bad row (NaN, a third label) anywhere: in a vector or in the rows after the last."""
    n = draw(st.integers(1, 70))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    dtype, pos, neg = draw(st.sampled_from([(np.bool_, True, False), (np.uint8, 1, 0),
                                            (np.uint8, 0, 1), (np.int8, 1, -1),
                                            (np.int8, -1, 1), (np.uint8, 255, 7)]))
    positive = rng.random(n) < draw(st.floats(0.0, 1.0))
    y = np.where(positive, pos, neg).astype(dtype)
    s = rng.normal(size=n) + draw(st.sampled_from([0.0, 1.5, -1.5]))
    special = rng.random(n) < 0.3
    s[special] = rng.choice([0.0, -0.0, np.inf, -np.inf, 0.25], size=int(special.sum()))
    bad = draw(st.sampled_from([None, None, None, "nan", "label"]))
    if bad is not None:
        k = draw(st.integers(0, n - 1))
        if bad == "nan":
            s[k] = np.nan
        elif dtype is not np.bool_:
            y[k] = 3
    one_class = draw(st.sampled_from([False, False, False, True])) and dtype is not np.bool_
    return y, s.astype(draw(st.sampled_from([np.float64, np.float32]))), pos, neg, one_class


@SETTINGS
@given(case=byte_label_rows(), levels=LEVELS, exclude_self=st.booleans())
def test_split_of_byte_labels_equals_the_row_loop(case, levels, exclude_self):
    """The vector split of one-byte labels (``indist_split_bytes``) writes the words the
    row loop writes: the sweeps agree to the bit, and bad rows give None both ways."""
    needs_blocks(every_kernel)
    y, s, pos, neg, one_class = case
    neg_value = np.nan if one_class else float(neg)      # no negative class asked for
    args = (y.view(np.uint8) if y.dtype == np.bool_ else y, s, float(pos), neg_value,
            np.array(levels), exclude_self)
    on, off = both_ways(every_kernel, lambda: _sorted.summarize_small(*args))
    assert (on is None) == (off is None)
    if on is None:
        return
    assert_bitwise(on, off)
    yy = y.view(np.uint8) if y.dtype == np.bool_ else y
    assert_sweeps_equal(on, _reference.summarize(yy, s, None, *args[2:]), 1e-12)


@SETTINGS
@given(case=byte_label_rows(), levels=LEVELS, exclude_self=st.booleans())
def test_plain_summary_equals_the_checked_one(case, levels, exclude_self):
    """``summarize_plain`` takes bool and {0, 1} byte labels as they are, and declines
    (None) every other coding, bad row or single class, as its reference twin does."""
    y, s, _, _, _ = case
    lv = np.array(levels)
    got = _sorted.summarize_plain(y, s, lv, exclude_self, 100)
    want = _reference.summarize_plain(y, s, lv, exclude_self, 100)
    assert (got is None) == (want is None)
    if got is not None:
        assert_sweeps_equal(got, want, 1e-12)
