"""The one-pass radix path of weighted ``summarize`` (``radix_fill_weighted``,
``radix_sweep_weighted_from``) against the reference twin.

The ``radix`` fixture lowers the thresholds so a few hundred rows take the path on two
threads with buckets of a few rows, written to blocks of four rows (so buckets chain
several). Hand-made cases reach what random rows rarely do: a bucket spanning so many
scores that its keys drop low bits (rows of one key prefix are then put in order by
their exact scores), zero weights, one class, bad rows and totals that do not meet.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import indist_fast
from cases import DTYPES, LAYOUTS, labelled, lower_thresholds, prepared, rows
from indist_fast._core import _radix, _radix_weighted
from indist_fast._core import fast as _fast
from indist_fast._core import fast_radix as _fast_radix
from indist_fast._core import threads as _threads
from indist_fast._core import reference as _reference
from indist_fast._core import scratch as _scratch
from test_kernels import assert_sweeps_equal

LEVELS = st.lists(st.floats(0.01, 0.99), min_size=1, max_size=5, unique=True)
COSTS = (0.5, -1.0, float("nan"))


@pytest.fixture
def radix(monkeypatch):
    log = lower_thresholds(monkeypatch)
    monkeypatch.setattr(_fast, "WEIGHTED_RADIX_MIN_ROWS", 4)
    monkeypatch.setattr(_fast_radix, "RADIX_BUCKET_ROWS", 2)
    monkeypatch.setattr(_fast_radix, "RADIX_BLOCK_BYTES", 64)     # buckets chain a few blocks
    return log


def assert_same(y, s, w, levels=(0.5, 0.2, 0.9), exclude_self=False, costs=None):
    args = (y.view(np.uint8) if y.dtype == bool else y, s, w, 1.0, 0.0,
            np.array(levels, float), exclude_self, costs)
    assert_sweeps_equal(_fast.summarize(*args), _reference.summarize(*args), 1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("layout", LAYOUTS)
def test_one_pass_on_two_threads(radix, layout):
    @settings(max_examples=60, deadline=None)
    @given(case=rows(max_n=300, weighted=True, both_classes=True, float32=False),
           dtype=st.sampled_from(DTYPES), levels=LEVELS, exclude_self=st.booleans(),
           costs=st.sampled_from([None, COSTS]))
    @example(case=(np.arange(60) % 7 == 0, np.linspace(1.0, -1.0, 60),
                   np.where(np.arange(60) % 5 == 0, 0.0, 2.0)),
             dtype=np.float64, levels=[0.3, 0.9], exclude_self=True, costs=None)
    def check(case, dtype, levels, exclude_self, costs):
        y, s, w = case
        r, info = prepared((y, s.astype(dtype), w), layout)
        args = (r.y, r.s, r.w, r.pos_value, r.neg_value, np.array(levels), exclude_self, costs)
        keys_before = radix.calls["scatter_keys"]
        with labelled(info):
            assert_sweeps_equal(_fast.summarize(*args), _reference.summarize(*args), 1e-12)
            if len(s) >= _fast.WEIGHTED_RADIX_MIN_ROWS and w[y == 1].sum() and w[y == 0].sum():
                assert radix.calls["scatter_keys"] == keys_before, "a clean case took the key path"

    check()
    for name in ("radix_fill_weighted", "radix_sweep_weighted_from"):
        assert radix.helper[name], f"{name} never ran on the helper thread"
    assert radix.pieces[3], "no rerun of the lower buckets in halves from the checkpoint"


def test_wide_bucket_orders_rows_by_exact_score(monkeypatch):
    """Rows the plan's sample skips (it takes every other row of 10,000) and that lie
    above every sampled score share one bucket spanning 2**40 to infinity: its keys drop
    14 low bits of the scores, so scores one ulp apart share a key prefix and must be
    put in order from the rows."""
    monkeypatch.setattr(_fast, "WEIGHTED_RADIX_MIN_ROWS", 4)
    log = lower_thresholds(monkeypatch)
    rng = np.random.default_rng(7)
    n = 10_000
    s = rng.normal(size=n)
    top = np.concatenate([2.0 ** 40 + rng.integers(0, 40, 3000), np.full(500, np.inf),
                          1e300 * (1 + rng.integers(0, 40, 1500) * 2.0 ** -52)])
    s[1::2] = rng.permutation(top)
    y = rng.random(n) < 0.4
    w = rng.random(n).round(2)
    assert_same(y, s, w)
    with np.errstate(over="ignore"):        # (the reference's squared scores of 1e300)
        assert_same(y, s, w, levels=(0.05, 0.5), costs=COSTS)
    assert log.calls["radix_sweep_weighted_from"]
    # The same rows at their exact places: ulps apart in every key.
    y_ties = np.tile(y[:2], n // 2)
    assert_same(y_ties, s, np.ones(n))


def test_a_group_of_both_zeros_is_at_plus_zero(radix):
    """-0.0 and 0.0 are one score; the group's threshold is 0.0 whichever row of it
    comes first (as the unweighted radix path reports it)."""
    rng = np.random.default_rng(16)
    n = 3000
    y = rng.random(n) < 0.5
    s = np.where(rng.random(n) < 0.95, -0.0, 0.0)
    s[:100], y[:100] = 1.0, False      # negatives on top: B reaches 0.3 at the zeros
    w = rng.random(n) + 0.5
    r = _fast.summarize(y.view(np.uint8), s, w, 1.0, 0.0, np.array([0.3]), False)
    threshold = r.crossings[0, 1]
    assert threshold == 0.0 and not np.signbit(threshold), r.crossings
    assert radix.calls["radix_sweep_weighted_from"]


def test_one_pass_declines_bad_rows_and_missing_weight(monkeypatch):
    monkeypatch.setattr(_fast, "WEIGHTED_RADIX_MIN_ROWS", 4)
    rng = np.random.default_rng(12)
    n = 5000
    y = (rng.random(n) < 0.3).astype(np.uint8)
    s = rng.normal(size=n)
    w = rng.random(n)
    lv = np.array([0.5])
    summary = _fast_radix._radix_weighted_summary
    assert summary(y, s, w, 1.0, 0.0, lv, True) is not None
    for bad in ("nan score", "negative weight", "inf weight", "nan weight", "third label"):
        yy, ss, ww = y.copy(), s.copy(), w.copy()
        if bad == "nan score":
            ss[4321] = np.nan
        elif bad == "third label":
            yy[4321] = 7
        else:
            ww[4321] = {"negative weight": -1.0, "inf weight": np.inf, "nan weight": np.nan}[bad]
        assert summary(yy, ss, ww, 1.0, 0.0, lv, True) is None, bad
        with _scratch.Loan() as loan:                       # (and so do tables)
            assert _fast_radix._weighted_buckets(yy, ss, ww, 1.0, 0.0, loan) is None, bad
        args = (yy, ss, ww, 1.0, 0.0, lv, True)
        with pytest.raises(ValueError) as fast_error:
            _fast.summarize(*args)
        with pytest.raises(ValueError) as ref_error:
            _reference.summarize(*args)
        assert str(fast_error.value) == str(ref_error.value), bad
    # No weight at all, none on one class, or a total past the largest double: the
    # key path sweeps them, as the reference does.
    for ww in (np.zeros(n), np.where(y == 1, 0.0, w), np.where(y == 0, 0.0, w),
               np.full(n, 1e305)):
        assert summary(y, s, ww, 1.0, 0.0, lv, True) is None
        args = (y, s, ww, 1.0, 0.0, lv, True)
        with np.errstate(over="ignore"):    # (the reference's sum of 1e305s)
            assert_sweeps_equal(_fast.summarize(*args), _reference.summarize(*args), 1e-12)


def test_totals_that_do_not_meet_are_swept_again(radix, monkeypatch):
    """W_P and the upper buckets' weight are correctly rounded totals, the sweep's TP a
    compensated sum; were they to round apart, the two pieces decline and the one-piece
    sweep runs again with its own total. Here every counted total is nudged by a few
    ulps."""
    exact = _fast_radix._exact_total

    def nudged(values):
        return exact(values) * (1 + 2.0 ** -50)
    monkeypatch.setattr(_fast_radix, "_exact_total", nudged)
    rng = np.random.default_rng(8)
    n = 3000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n).round(2)
    w = rng.random(n)
    assert_same(y, s, w, levels=(0.5, 0.1, 0.95), exclude_self=True)
    assert radix.calls["radix_sweep_weighted_from"] >= 3   # two pieces, one, once again


def test_weighted_radix_kernels_refuse_bad_arguments():
    n = 40
    rng = np.random.default_rng(9)
    s = rng.normal(size=n)
    y = (np.arange(n) % 2).astype(np.uint8)
    w = rng.random(n)
    table, base, tops = _radix.radix_plan(s, 4)
    nb, block = len(tops), 4
    first, links, free = _fast_radix._owned_blocks(nb, [n], block)
    rows = _scratch.aligned_empty(2 * len(links) * block, np.float64)
    state = np.zeros((1, nb, 8), np.int64)
    state[0, :, 0] = np.arange(nb)
    lines = np.empty(64 * nb + 64, np.uint8)
    args = (y, s, w, 1.0, 0.0, table, base, 0, n)
    fill_args = [rows, links, state[0], free[0], lines, block, True]

    def fill(at, value):
        bad = list(fill_args)
        bad[at] = value
        _radix_weighted.radix_fill_weighted(*args, *bad)
    with pytest.raises(ValueError, match="rows must hold"):
        fill(0, rows[:-2])
    with pytest.raises(ValueError, match="aligned"):
        fill(0, np.empty(len(rows) + 1)[1:])
    with pytest.raises(ValueError, match="state must"):
        fill(2, np.zeros((nb, 4), np.int64))
    with pytest.raises(ValueError, match="outside"):
        fill(2, state[0] + len(links))
    with pytest.raises(ValueError, match="free"):
        fill(3, np.array([0, len(links) + 1, 0], np.int64))
    with pytest.raises(ValueError, match="lines"):
        fill(4, np.empty(64, np.uint8))
    with pytest.raises(ValueError, match="block"):
        fill(5, 6)
    # A writer given too few blocks stops there with an error, never past them.
    with pytest.raises(ValueError, match="ran out"):
        _radix_weighted.radix_fill_weighted(y, np.zeros(n), w, 1.0, 0.0, table, base, 0, n,
                                     rows, links.copy(), state[0].copy(),
                                     np.array([free[0][0], free[0][0], 0], np.int64), lines,
                                     block, True)
    _radix_weighted.radix_fill_weighted(*args, *fill_args)
    sums = state[:, :, 3:6].view(np.float64)
    wp, wn = float(sums[..., :2].sum()), float(sums[..., 2].sum())
    lv = np.array([0.5])

    def sweep(state=state, links=links, top=nb, bottom=0, split=0, costs=None,
              tp_above=0.0):
        return _radix_weighted.radix_sweep_weighted_from(rows, links, state, block, top, bottom,
                                                  split, wp, wn, lv, False, tp_above, 0.0,
                                                  0.0, 0.0, False, costs)
    assert sweep().result.n_groups == n
    assert sweep(costs=COSTS).result.n_groups == n
    with pytest.raises(ValueError, match="bucket range"):
        sweep(top=nb + 1)
    with pytest.raises(ValueError, match="costs"):
        sweep(bottom=1, split=1, costs=COSTS)
    with pytest.raises(ValueError, match="costs"):
        sweep(tp_above=1.0, costs=COSTS)
    longer = state.copy()
    longer[0, :, 2] += 1            # one full block more than each chain holds
    with pytest.raises(ValueError, match="chain"):
        sweep(longer)
    loop = links.copy()
    loop[state[0, 0, 0]] = state[0, 0, 0]
    with pytest.raises(ValueError, match="chain"):
        sweep(links=loop)


@pytest.mark.parametrize("pos, neg", [(1e-24, 1e300), (2.0 ** -700, 2.0 ** 700),
                                      (2.0 ** -900, 2.0 ** -200)])
def test_classes_far_apart_in_weight(radix, pos, neg):
    """The sweep's scale comes from both class totals (``sweep.scale_exponent``): the
    one-pass path matches the reference where the total's scale alone made the
    lighter class vanish."""
    rng = np.random.default_rng(21)
    y = rng.random(3000) < 0.3
    s = np.round(rng.normal(size=3000) + y, 1)
    w = np.where(y, pos, neg) * (1 + rng.integers(0, 4, 3000))
    assert_same(y, s, w)
    assert_same(y, s, w, exclude_self=True, costs=COSTS)
    assert radix.calls["radix_sweep_weighted_from"]


def test_an_overflowing_class_total_is_named_inf_not_nan(radix):
    """Two positive rows of 1e308 in one bucket: its compensated pair is (inf, NaN);
    the message gives the positives' total as inf."""
    n = 3000
    y = np.zeros(n, dtype=np.uint8)
    y[:2] = 1
    s = np.zeros(n)
    s[n // 2:] = 1.0
    w = np.ones(n)
    w[:2] = 1e308
    with pytest.raises(ValueError, match=r"sample_weight sums to more than float64 holds "
                                         r"\(positives inf, negatives 2998\)"):
        indist_fast.evaluate(y, s, sample_weight=w)
    assert radix.calls["radix_fill_weighted"] and radix.calls["scatter_keys"]


def test_two_pieces_rarely_fall_back_to_one(radix, monkeypatch):
    """The lower piece starts from the upper buckets' positive weight as a pair (total
    and remainder, both correctly rounded): it then ends at W_P, and the two pieces
    stand. From the rounded total alone it ended an ulp off in about a quarter of
    calls, each swept again in one piece."""
    results = []
    two_pieces = _threads._two_pieces
    monkeypatch.setattr(_threads, "_two_pieces",
                        lambda *a, **k: results.append(two_pieces(*a, **k)) or results[-1])
    for seed in range(40):
        rng = np.random.default_rng(seed)
        y = rng.random(4000) < 0.1
        s = rng.normal(size=4000) + 1.5 * y
        w = rng.random(4000)
        _fast.summarize(y.view(np.uint8), s, w, 1.0, 0.0, np.array([0.5]), True)
    assert len(results) == 40
    assert sum(r is None for r in results) <= 1, sum(r is None for r in results)
