"""The radix path of ``summarize`` (unweighted rows sorted by buckets) against the
reference twin.

The ``radix`` fixture lowers the thresholds so a few hundred rows take the path on two
threads with buckets of a few rows, written to blocks of one cache line (so buckets
chain several); each test checks in the path log that the radix kernels ran (on the
helper thread where they should). Hand-made cases reach what random rows rarely do: a
bucket the plan's sample missed (it overflows and is sorted all the same), buckets of one repeated score, one class (handed back to the general
path), bad rows (the general path's errors), both signs of zero and infinities.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cases import DTYPES, LAYOUTS, filled, labelled, lower_thresholds, prepared, rows
from indist_fast._core import _radix
from indist_fast._core import fast as _fast
from indist_fast._core import fast_radix as _fast_radix
from indist_fast._core import threads as _threads
from indist_fast._core import reference as _reference
from indist_fast._core.page_release import OwnedRows
from indist_fast._core.validation import prepare_rows
from test_kernels import assert_sweeps_equal, assert_tables_equal

LEVELS = st.lists(st.floats(0.01, 0.99), min_size=1, max_size=5, unique=True)
SETTINGS = settings(max_examples=60, deadline=None)


@pytest.fixture
def radix(monkeypatch):
    log = lower_thresholds(monkeypatch)
    monkeypatch.setattr(_fast, "RADIX_MIN_ROWS", 4)
    monkeypatch.setattr(_fast, "WEIGHTED_RADIX_MIN_ROWS", 4)
    monkeypatch.setattr(_fast_radix, "RADIX_BUCKET_ROWS", 2)
    monkeypatch.setattr(_fast_radix, "RADIX_BLOCK_BYTES", 64)     # buckets chain a few blocks
    return log


def summaries(y, s, levels=(0.5,), exclude_self=False, pos_label=None):
    r = prepare_rows(y, s, None, pos_label)
    args = (r.y, r.s, None, r.pos_value, r.neg_value, np.array(levels, float), exclude_self)
    return _fast.summarize(*args), _reference.summarize(*args)


def assert_same(y, s, levels=(0.5, 0.2, 0.9), exclude_self=False, info=""):
    fast, ref = summaries(y, s, levels, exclude_self)
    with labelled(info):
        assert_sweeps_equal(fast, ref, 1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("layout", LAYOUTS)
def test_radix_summarize_on_two_threads(radix, layout):
    @SETTINGS
    @given(case=rows(max_n=300, weighted=False, both_classes=True, float32=False),
           dtype=st.sampled_from(DTYPES), levels=LEVELS, exclude_self=st.booleans())
    @example(case=(np.arange(60) % 7 == 0, np.linspace(1.0, -1.0, 60), None),
             dtype=np.float64, levels=[0.3, 0.9], exclude_self=True)
    def check(case, dtype, levels, exclude_self):
        y, s, w = case
        r, info = prepared((y, s.astype(dtype), w), layout)
        args = (r.y, r.s, None, r.pos_value, r.neg_value, np.array(levels), exclude_self)
        with labelled(info):
            assert_sweeps_equal(_fast.summarize(*args), _reference.summarize(*args), 1e-12)

    check()
    for name in ("radix_fill", "radix_sweep_from"):
        assert radix.helper[name], f"{name} never ran on the helper thread"
    assert radix.pieces[3], "no rerun of the lower buckets in halves from the checkpoint"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_bucket_the_sample_missed_overflows_and_is_sorted(monkeypatch, dtype):
    """The plan samples every n/4096-th row: scores off that stride land in buckets
    sized for nothing and are sorted as one large bucket."""
    monkeypatch.setattr(_fast, "RADIX_MIN_ROWS", 4)
    rng = np.random.default_rng(3)
    n = 50_000
    s = np.full(n, 0.5)
    step = n // 4096
    off = np.arange(n) % step != 0
    s[off] = rng.uniform(0.6, 0.7, off.sum())
    y = rng.random(n) < 0.3
    s = s.astype(dtype)
    f = filled(y.view(np.uint8), s, writers=2)
    assert f.bad == 0
    assert f.sizes.max() > 0.8 * n, "no bucket overflowed"
    assert_same(y, s)


def test_buckets_of_one_score_and_heavy_ties(radix):
    rng = np.random.default_rng(4)
    y = rng.random(3000) < 0.2
    assert_same(y, np.full(3000, 0.25))
    assert_same(y, rng.integers(0, 3, 3000).astype(float))
    assert_same(y, np.round(rng.normal(size=3000), 1).astype(np.float32))


def test_signs_of_zero_and_infinities(radix):
    rng = np.random.default_rng(5)
    n = 2000
    s = rng.choice([0.0, -0.0, np.inf, -np.inf, 1e-300, -1e-300, 5e-324, -5e-324], n)
    y = rng.random(n) < 0.5
    for dtype in (np.float64, np.float32):
        assert_same(y, s.astype(dtype), info=str(dtype))
    # Only negative scores, only positive ones: the plan's table spans zero regardless.
    assert_same(y, -rng.random(n) - 1.0)
    assert_same(y, rng.random(n) + 1e10)


def test_one_class_and_bad_rows_take_the_general_path(radix):
    y = np.zeros(500, bool)
    s = np.linspace(0, 1, 500)
    fast, ref = summaries(y, s)
    assert_sweeps_equal(fast, ref, 1e-12)
    assert radix.calls["radix_fill"] and not radix.calls["radix_sweep_from"], (
        "one class was swept by buckets")
    y[3] = True
    s[7] = np.nan
    with pytest.raises(ValueError) as fast_error:
        summaries(y, s)
    with pytest.raises(ValueError) as ref_error:
        _reference.summarize(y.view(np.uint8), s, None, 1.0, 0.0, np.array([0.5]), False)
    assert str(fast_error.value) == str(ref_error.value)


def test_radix_kernels_refuse_bad_arguments():
    s = np.linspace(0, 1, 10)
    y = (np.arange(10) % 2).astype(np.uint8)
    table, base, tops = _radix.radix_plan(s, 4)
    with pytest.raises(ValueError, match="target"):
        _radix.radix_plan(s, 0)
    f = filled(y, s, target=4)
    args = (y, s, 1.0, 0.0, f.table, f.base, 0, 10)
    lines = np.empty(64 * len(f.tops) + 64, np.uint8)
    fill_args = (f.words, f.links, f.state[0], f.free[0], lines, f.block, True)

    def fill(at, value):
        bad = list(fill_args)
        bad[at] = value
        _radix.radix_fill(*args, *bad)
    with pytest.raises(ValueError, match="words"):
        fill(0, np.empty(len(f.words), np.uint32))
    with pytest.raises(ValueError, match="aligned"):
        fill(0, np.empty(len(f.words) + 1, np.uint64)[1:])
    with pytest.raises(ValueError, match="state must"):
        fill(2, np.zeros((3, len(f.tops)), np.int64))
    with pytest.raises(ValueError, match="outside"):
        fill(2, f.state[0] + len(f.links))
    with pytest.raises(ValueError, match="free"):
        fill(3, np.array([0, len(f.links) + 1, 0], np.int64))
    with pytest.raises(ValueError, match="lines"):
        fill(4, np.empty(64, np.uint8))
    with pytest.raises(ValueError, match="block"):
        fill(5, 12)
    # A writer given too few blocks stops there with an error, never past them.
    g = filled(y, s, target=4, block_bytes=64)
    cramped = g.free[0].copy()
    cramped[1] = cramped[0]
    with pytest.raises(ValueError, match="ran out"):
        _radix.radix_fill(np.ones(10, np.uint8), np.zeros(10), 1.0, 0.0, g.table, g.base, 0,
                            10, g.words, g.links.copy(), g.state[0].copy(), cramped, lines,
                            g.block, True)

    def sweep(state, links=f.links, top=len(f.tops)):
        return _radix.radix_sweep_from(f.words, links, state, f.block, f.tops, top, 0, 0,
                                         f.wp, f.wn, np.array([0.5]), False, 0.0, 0.0, 0.0,
                                         False)
    assert sweep(f.state).result.n_groups == 10
    with pytest.raises(ValueError, match="bucket range"):
        sweep(f.state, top=len(f.tops) + 1)
    longer = f.state.copy()
    longer[0, 2] += 1               # one full block more than the chain holds
    with pytest.raises(ValueError, match="chain"):
        sweep(longer)
    loop = f.links.copy()
    loop[f.state[0, 0]] = f.state[0, 0]
    with pytest.raises(ValueError, match="chain"):
        sweep(f.state, links=loop)

    def table(state, n_out=10, offset=0, top=len(f.tops)):
        cols = np.empty(n_out), np.empty(n_out, np.int64), np.empty(n_out, np.int64)
        return _radix.radix_table(f.words, f.links, state, f.block, f.tops, top, 0, *cols,
                                  offset), cols
    m, (scores, pos, neg) = table(f.state)
    assert m == 10 and scores.tolist() == sorted(s.tolist(), reverse=True)
    assert (pos + neg).tolist() == [1] * 10 and pos.sum() == 5
    with pytest.raises(ValueError, match="columns must hold the range's rows"):
        table(f.state, n_out=9)
    with pytest.raises(ValueError, match="columns must hold the range's rows"):
        table(f.state, offset=1)
    with pytest.raises(ValueError, match="bucket range"):
        table(f.state, top=len(f.tops) + 1)
    with pytest.raises(ValueError, match="chain"):
        table(longer)


def test_too_many_buckets_hands_back(radix, monkeypatch):
    """Bucket ids are 16-bit: a plan of more buckets leaves the rows to the general
    path (the bucket rows grow with n so that plans stay below 2**16 buckets; a
    skewed sample could still round past it)."""
    plan = _radix.radix_plan

    def too_many(s, target, n_rows=-1):
        table, base, tops = plan(s, target, n_rows)
        return table, base, np.zeros((1 << 16) + 1, np.uint8)

    monkeypatch.setattr(_fast_radix._radix, "radix_plan", too_many)
    rng = np.random.default_rng(6)
    y = rng.random(1000) < 0.5
    s = rng.normal(size=1000)
    assert _fast_radix._radix_summary(y.view(np.uint8), s, 1.0, 0.0, np.array([0.5]), False) is None
    assert_same(y, s)
    assert not radix.calls["radix_fill"]


def test_default_sizes_take_the_radix_path(monkeypatch):
    small = _fast.SMALL_ROWS
    log = lower_thresholds(monkeypatch, min_rows=_threads.PARALLEL_MIN_ROWS)
    monkeypatch.setattr(_fast, "SMALL_ROWS", small)
    rng = np.random.default_rng(7)
    # the fewest rows past the one-call path
    y = rng.random(max(small + 1, _fast.RADIX_MIN_ROWS)) < 0.1
    assert_same(y, rng.normal(size=len(y)) + y)
    assert log.helper["radix_sweep_from"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pages are given back on Linux")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_owned_rows_are_given_back_behind_the_last_pass(monkeypatch, dtype):
    """Rows handed over (``OwnedRows``) go by groups, checked first, then each group's
    pages dropped once its words are written: the same result as the reference, and
    the arrays read as zeros afterwards (their pages went back)."""
    log = lower_thresholds(monkeypatch, min_rows=_threads.PARALLEL_MIN_ROWS)
    monkeypatch.setattr(_fast, "RADIX_MIN_ROWS", 1000)
    monkeypatch.setattr(_threads, "OWNED_BLOCK_ROWS", 1 << 17)
    rng = np.random.default_rng(8)
    n = 600_000
    y = (rng.random(n) < 0.2).astype(np.uint8)
    s = (rng.normal(size=n) + y).astype(dtype)
    levels = np.array([0.5, 0.9])
    expected = _reference.summarize(y, s, None, 1.0, 0.0, levels, True)
    got = _fast.summarize(y, s, None, 1.0, 0.0, levels, True, None, OwnedRows(y, s))
    assert_sweeps_equal(got, expected, 1e-12)
    assert log.calls["radix_fill"] >= 2 * 5, "not filled by groups"
    assert not s[n // 2:n // 2 + 4096].any() and not y[n // 2:n // 2 + 4096].any()


@pytest.mark.slow
def test_owned_rows_stay_whole_when_the_radix_path_declines(monkeypatch):
    """A bad row or a missing class hands owned rows to the general path, which must
    read them intact (a release behind the fill would zero them): it gets none."""
    monkeypatch.setattr(_fast, "RADIX_MIN_ROWS", 1000)
    rng = np.random.default_rng(9)
    n = 200_000
    y = (rng.random(n) < 0.2).astype(np.uint8)
    s = rng.normal(size=n)
    s[123_456] = np.nan
    with pytest.raises(ValueError, match="123456"):
        _fast.summarize(y, s, None, 1.0, 0.0, np.array([0.5]), True, None, OwnedRows(y, s))
    s[123_456] = 0.0
    y[:] = 0
    one_class = _fast.summarize(y, s, None, 1.0, 0.0, np.array([0.5]), True, None,
                                OwnedRows(y, s))
    assert one_class.weight_neg == n and one_class.weight_pos == 0
    # With cost sums the pieces' path runs, its release dropped.
    y[::3] = 1
    costs = (0.5, -1.0, float("nan"))
    got = _fast.summarize(y, s, None, 1.0, 0.0, np.array([0.5]), True, costs, OwnedRows(y, s))
    expected = _reference.summarize(y, s, None, 1.0, 0.0, np.array([0.5]), True, costs)
    assert got.auc == pytest.approx(expected.auc, abs=1e-12)
    assert s.any(), "rows were given back before a later pass read them"


def test_mapped_release_follows_each_pass(radix, monkeypatch):
    """A release of mapped rows (their pages come back from the file) is called behind
    both passes (the check, then the fill), group by group, covering every row once
    per pass."""
    monkeypatch.setattr(_threads, "RELEASE_BLOCK_ROWS", 64)
    rng = np.random.default_rng(10)
    n = 1000
    y = (rng.random(n) < 0.3).astype(np.uint8)
    s = rng.normal(size=n) + y
    released = []
    got = _fast.summarize(y, s, None, 1.0, 0.0, np.array([0.5, 0.8]), False, None,
                          lambda a, b: released.append((a, b)))
    assert_sweeps_equal(got, _reference.summarize(y, s, None, 1.0, 0.0, np.array([0.5, 0.8]),
                                                  False), 1e-12)
    assert radix.calls["radix_fill"] >= 2 * (n // 64)
    covered = np.zeros(n, int)
    for a, b in released:
        covered[a:b] += 1
    assert (covered == 2).all(), "every row released once after each pass"


@pytest.mark.slow
@pytest.mark.parametrize("layout", LAYOUTS)
def test_weighted_radix_tables_on_two_threads(radix, layout):
    """Weighted tables by the radix buckets of weighted sweeps (``_weighted_buckets``,
    ``radix_table_weighted``): each bucket gathered, ordered and written out; zero
    weights absent. (The sweeps themselves: ``test_weighted_radix.py``.)"""
    @SETTINGS
    @given(case=rows(max_n=300, weighted=True, both_classes=True, float32=False),
           dtype=st.sampled_from(DTYPES))
    @example(case=(np.arange(60) % 7 == 0, np.linspace(1.0, -1.0, 60),
                   np.where(np.arange(60) % 5 == 0, 0.0, 2.0)), dtype=np.float64)
    def check(case, dtype):
        y, s, w = case
        r, info = prepared((y, s.astype(dtype), w), layout)
        table_args = (r.y, r.s, r.w, r.pos_value, r.neg_value)
        keys_before = radix.calls["scatter_keys"]
        with labelled(info):
            assert_tables_equal(_fast.build_table(*table_args),
                                _reference.build_table(*table_args))
            if len(s) >= _fast.WEIGHTED_RADIX_MIN_ROWS:     # (clean rows: no key path)
                assert radix.calls["scatter_keys"] == keys_before

    check()
    assert radix.helper["radix_fill_weighted"], "the fill never ran on the helper thread"
    assert radix.calls["radix_table_weighted"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_unweighted_radix_tables(radix, layout):
    """Unweighted tables by the radix buckets of sweeps (``_radix_table``,
    ``radix_table``): each bucket gathered, sorted and written out as groups, the two
    halves of the buckets on two threads (the lower half moved up behind the upper one
    where ties shortened it), equal to the reference's ``np.unique`` with per-class
    counts (int64)."""
    @SETTINGS
    @given(case=rows(max_n=300, weighted=False, both_classes=False, float32=False),
           dtype=st.sampled_from(DTYPES))
    @example(case=(np.arange(60) % 7 == 0, np.linspace(1.0, -1.0, 60), None),
             dtype=np.float64)
    def check(case, dtype):
        y, s, _ = case
        r, info = prepared((y, s.astype(dtype), None), layout)
        table_args = (r.y, r.s, None, r.pos_value, r.neg_value)
        with labelled(info):
            assert_tables_equal(_fast.build_table(*table_args),
                                _reference.build_table(*table_args))

    check()
    assert radix.calls["radix_table"], "no table was written from the buckets"
    assert radix.helper["radix_table"], "the lower buckets' table never ran on the helper"


def test_radix_tables_of_ties_zeros_infinities_and_one_class(radix):
    rng = np.random.default_rng(8)
    n = 3000
    cases = [np.full(n, 0.25), rng.integers(0, 3, n).astype(float),
             rng.choice([0.0, -0.0, np.inf, -np.inf, 1e-300, -1e-300, 5e-324, -5e-324], n),
             -rng.random(n) - 1.0]
    for y in (rng.random(n) < 0.2, np.zeros(n, bool), np.ones(n, bool)):
        for s in cases:
            for dtype in (np.float64, np.float32):
                r = prepare_rows(y, s.astype(dtype))
                args = (r.y, r.s, None, r.pos_value, r.neg_value)
                fast = _fast.build_table(*args)
                assert_tables_equal(fast, _reference.build_table(*args))
                assert not np.signbit(fast.scores[fast.scores == 0]).any()   # +0.0
    calls = radix.calls["radix_table"]
    y = rng.random(n) < 0.2
    s = rng.random(n)
    s[17] = np.nan                       # a bad row: the general path names it
    r = prepare_rows(y, np.where(np.isnan(s), 0.5, s))
    with pytest.raises(ValueError, match="NaN"):
        _fast.build_table(r.y, s, None, r.pos_value, r.neg_value)
    assert radix.calls["radix_table"] == calls


@pytest.mark.parametrize("label_dtype", [np.uint8, np.int8, np.int32, np.int64, np.float32,
                                         np.float64])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_check_and_fill_count_bad_rows_as_numpy_does(label_dtype, dtype):
    """``radix_check`` (the pass before a release) and ``radix_fill`` against NumPy:
    positives, and the NaN scores and third labels (a row with both counts twice),
    anywhere in a block (the vectorised loops' edges and tails included)."""
    rng = np.random.default_rng(11)
    for n in (1, 7, 63, 64, 65, 1000, 5000):
        y = (rng.random(n) < 0.3).astype(label_dtype)
        s = rng.normal(size=n).astype(dtype)
        for _ in range(3):
            y[rng.integers(n)] = 2
            s[rng.integers(n)] = np.nan
            for a, b in ((0, n), (n // 3, n), (n // 3, 2 * n // 3)):
                pos = y[a:b] == 1
                bad = np.isnan(s[a:b]).sum() + (~(pos | (y[a:b] == 0))).sum()
                assert _radix.radix_check(y, s, 1.0, 0.0, a, b) == (pos.sum(), bad)
            f = filled(y, s, target=8, writers=2)
            assert f.bad == np.isnan(s).sum() + (~((y == 1) | (y == 0))).sum()
            assert f.wp == (y == 1).sum() and f.wp + f.wn == n
