"""The compiled engine against its NumPy reference twin, on generated inputs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cases import rows
from indist_fast._core import fast as _fast
from indist_fast._core import threads as _threads
from indist_fast._core import reference as _reference
from indist_fast._core.validation import prepare_rows

LEVELS = st.lists(st.floats(0.01, 0.99), min_size=1, max_size=5, unique=True)


def assert_sweeps_equal(fast, ref, tol=1e-12):
    """Sweep results: counts equal, values to tol, crossings at the same point."""
    assert fast[0] == ref[0], "number of operating points"
    assert fast[1] == ref[1], "number of undefined B"
    np.testing.assert_allclose(fast[2:7], ref[2:7], rtol=tol, atol=tol, equal_nan=True)
    np.testing.assert_allclose(fast.crossings, ref.crossings, rtol=tol, atol=tol,
                               equal_nan=True)


def assert_tables_equal(fast, ref):
    for f, r, name in zip(fast, ref, ("scores", "tp", "fp")):
        assert f.dtype == r.dtype, name
        np.testing.assert_allclose(f, r, rtol=1e-12, atol=0, err_msg=name)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(case=rows())
def test_build_table_matches_reference(case):
    r = prepare_rows(*case)
    assert_tables_equal(_fast.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value),
                        _reference.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(case=rows(), levels=LEVELS, exclude_self=st.booleans())
def test_summarize_matches_reference(case, levels, exclude_self):
    r = prepare_rows(*case)
    lv = np.array(levels)
    assert_sweeps_equal(
        _fast.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, exclude_self),
        _reference.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, exclude_self))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(case=rows(), levels=LEVELS, exclude_self=st.booleans())
def test_sweep_table_matches_reference(case, levels, exclude_self):
    r = prepare_rows(*case)
    table = _reference.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value)
    lv = np.array(levels)
    assert_sweeps_equal(_fast.sweep_table(*table, lv, exclude_self),
                        _reference.sweep_table(*table, lv, exclude_self))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(a=rows(both_classes=False), b=rows(both_classes=False))
def test_merge_tables_matches_reference(a, b):
    ra, rb = prepare_rows(*a), prepare_rows(*b)
    ta = _reference.build_table(ra.y, ra.s.astype(np.float64), ra.w, ra.pos_value, ra.neg_value)
    tb = _reference.build_table(rb.y, rb.s.astype(np.float64), rb.w, rb.pos_value, rb.neg_value)
    dtype = np.result_type(ta[1], tb[1])
    ta = (ta[0], ta[1].astype(dtype), ta[2].astype(dtype))
    tb = (tb[0], tb[1].astype(dtype), tb[2].astype(dtype))
    assert_tables_equal(_fast.merge_tables(*ta, *tb), _reference.merge_tables(*ta, *tb))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ties", [False, True])
def test_two_thread_path_matches_reference(weighted, dtype, ties):
    """Large enough to split rows into two blocks and pieces around a pivot."""
    rng = np.random.default_rng(7)
    n = _threads.PARALLEL_MIN_ROWS + 12_345
    s = rng.normal(size=n)
    if ties:
        s = np.round(s, 2)                 # ties straddle the pivot and the blocks
    s = s.astype(dtype)
    y = rng.random(n) < 0.2 + 0.5 * (s > 0)
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    r = prepare_rows(y, s, w)
    lv = np.array([0.3, 0.5, 0.7])
    assert_tables_equal(_fast.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value),
                        _reference.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value))
    assert_sweeps_equal(
        _fast.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, True),
        _reference.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, True))


def test_colliding_key_prefixes_are_resorted():
    """Weighted keys drop low score bits; scores equal in the kept bits must still
    come out in exact order (the runs are re-sorted by the full score)."""
    rng = np.random.default_rng(3)
    n = 5000
    s = 1.0 + rng.integers(0, 50, n) * np.finfo(float).eps     # differ in the last bits
    y = rng.random(n) < 0.5
    w = rng.random(n) + 0.5
    r = prepare_rows(y, s, w)
    fast = _fast.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value)
    ref = _reference.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value)
    assert len(fast[0]) == 50
    assert_tables_equal(fast, ref)


def test_counts_are_int64_without_weights():
    r = prepare_rows([0, 1, 1], [0.5, 0.5, 0.7])
    scores, tp, fp = _fast.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value)
    assert tp.dtype == fp.dtype == np.int64
    assert scores.tolist() == [0.7, 0.5] and tp.tolist() == [1, 1] and fp.tolist() == [0, 1]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(case=rows())
def test_delong_sums_match_reference(case):
    r = prepare_rows(*case)
    _, tp, fp = _reference.build_table(r.y, r.s, r.w, r.pos_value, r.neg_value)
    np.testing.assert_allclose(_fast.delong_sums(tp, fp), _reference.delong_sums(tp, fp),
                               rtol=1e-10, atol=1e-14)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(case=rows(), t=st.floats(-2, 2), q=st.one_of(st.floats(0, 1), st.just(-1.0)),
       rate_pi=st.sampled_from([float("nan"), 0.5]))
def test_cost_sums_match_reference(case, t, q, rate_pi):
    r = prepare_rows(*case)
    lv = np.array([0.5])
    fast = _fast.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, True, (t, q, rate_pi))
    ref = _reference.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, True,
                               (t, q, rate_pi))
    for name, a, b in zip(fast.costs._fields, fast.costs, ref.costs):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("informative", [True, False])
def test_weighted_two_piece_sweep_matches_reference(informative):
    """Levels reached above the pivot, and levels only reached below it (the lower
    piece is swept again from the upper piece's B numerator)."""
    rng = np.random.default_rng(21)
    n = _threads.PARALLEL_MIN_ROWS * 3
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + (1.5 * y if informative else 0.0), 3)
    w = rng.integers(1, 5, n).astype(float)
    r = prepare_rows(y, s, w)
    lv = np.array([0.2, 0.45, 0.55, 0.8])
    assert_sweeps_equal(
        _fast.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, True),
        _reference.summarize(r.y, r.s, r.w, r.pos_value, r.neg_value, lv, True), tol=1e-10)


def test_fixed_rate_one_is_the_last_operating_point():
    """q = 1 must land on the last point even when rounded cumulative rates stop just
    short of 1 (found by hypothesis in CI)."""
    y = np.array([True] + [False] * 21 + [True, True])
    s = np.zeros(24)
    s[21] = 1.0
    r = prepare_rows(y, s)
    for engine in (_fast, _reference):
        costs = engine.summarize(r.y, r.s, None, r.pos_value, r.neg_value, np.array([0.5]),
                                 True, (0.0, 1.0, float("nan"))).costs
        assert (costs.q_tp, costs.q_fp) == (3.0, 21.0)


@st.composite
def float_tables(draw):
    """Score tables with arbitrary float weights (not integers): sums round."""
    m = draw(st.integers(1, 25))
    weights = st.one_of(st.just(0.0), st.floats(1e-3, 1e3))
    tp = np.array(draw(st.lists(weights, min_size=m, max_size=m)))
    fp = np.array(draw(st.lists(weights, min_size=m, max_size=m)))
    keep = tp + fp > 0
    tp, fp = np.r_[0.5, tp[keep]], np.r_[draw(weights), fp[keep]]
    if draw(st.booleans()):      # mirror image below: B is 1/2 at the bottom (exactly)
        tp, fp = np.r_[tp, tp[::-1]], np.r_[fp, fp[::-1]]
    return -np.arange(len(tp), dtype=float), tp, fp


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(table=float_tables(), levels=LEVELS, exclude_self=st.booleans())
def test_sweeps_of_float_tables_equal_reference_bit_for_bit(table, levels, exclude_self):
    """Twins do the same operations in the same order: crossings and B agree exactly,
    also where B sits exactly on a level."""
    lv = np.array(levels + [0.5])
    fast = _fast.sweep_table(*table, lv, exclude_self)
    ref = _reference.sweep_table(*table, lv, exclude_self)
    np.testing.assert_array_equal(fast.crossings, ref.crossings)
    np.testing.assert_array_equal(fast.b_last, ref.b_last)
    assert fast.n_undefined == ref.n_undefined


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(table=float_tables(), levels=LEVELS, exclude_self=st.booleans(),
       above=st.tuples(st.floats(0, 50), st.floats(0, 50), st.floats(-100, 100)))
def test_sweep_range_equals_reference_bit_for_bit(table, levels, exclude_self, above):
    scores, tp, fp = table
    tp_above, fp_above, gap_above = above
    wp, wn = tp_above + float(np.cumsum(tp)[-1]), fp_above + float(np.sum(fp))
    lv = np.array(levels)
    fast, gap_fast = _fast.sweep_range(scores, tp, fp, lv, exclude_self, wp, wn,
                                       tp_above, fp_above, gap_above)
    ref, gap_ref = _reference.sweep_range(scores, tp, fp, lv, exclude_self, wp, wn,
                                          tp_above, fp_above, gap_above)
    np.testing.assert_array_equal(fast.crossings, ref.crossings)
    assert gap_fast == gap_ref


def test_mirror_table_reaches_one_half_exactly_on_both_engines():
    """Mirror groups around a middle group of negatives: B is exactly 1/2 at the
    bottom (the quotient Num / Den rounds below it)."""
    tp = np.array([0.1, 0.0, 0.1]) * 3
    fp = np.array([0.7, 0.2, 0.7])
    scores = np.array([2.0, 1.0, 0.0])
    for engine in (_fast, _reference):
        r = engine.sweep_table(scores, tp, fp, np.array([0.5]), True)
        assert r.b_last == 0.5 and r.crossings[0, 0] == 2 and r.crossings[0, 4] == 0.5
