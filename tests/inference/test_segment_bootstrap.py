"""``evaluate_many(n_boot=...)``: every row's intervals are ``bootstrap`` on its segment.

The oracle is ``indist_fast.bootstrap`` on the segment's rows alone, with the seed the
docstring promises (``SeedSequence(entropy, spawn_key=key + (table position,))``), held
bit for bit; the compiled kernel's own SeedSequence/PCG64 is held to NumPy's objects.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indist_fast
from cases import rows
from indist_fast import IndistFastWarning
from indist_fast.inference.bootstrap import percentile_bounds
from indist_fast.inference.segment_bootstrap import INTERVAL_METRICS, interval_columns

INTERVALS = interval_columns()


def _many(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return indist_fast.evaluate_many(*args, **kwargs)


def _child(seed, position):
    """The seed the docstring of ``evaluate_many`` gives the segment at ``position``."""
    return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (position,))


def assert_intervals_are_bootstrap(table, i, y, s, w, seed, position, n_boot, confidence,
                                   exclude_self=True):
    """Row ``i``'s interval columns against ``bootstrap`` of the rows given."""
    wp = float(np.sum(y * (1.0 if w is None else w)))
    wn = float(np.sum((~y) * (1.0 if w is None else w)))
    if not (wp > 0 and wn > 0):            # bootstrap refuses one class: NaN, no error
        with pytest.raises(ValueError):
            indist_fast.bootstrap(y, s, sample_weight=w, n_boot=n_boot, seed=0)
        assert all(np.isnan(table.columns[c][i]) for c in INTERVALS)
        return
    want = indist_fast.bootstrap(y, s, sample_weight=w, n_boot=n_boot,
                                 seed=_child(seed, position), confidence=confidence,
                                 exclude_self=exclude_self)
    for m in INTERVAL_METRICS:
        got = (table.columns[f"{m}_low"][i], table.columns[f"{m}_high"][i])
        expected = (want[m].low, want[m].high)
        # bit for bit (NaN where no replicate defines the metric)
        assert np.array_equal(np.array(got), np.array(expected), equal_nan=True), (
            m, got, expected)


@pytest.mark.slow
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])   # (backend: per test)
@given(case=rows(max_n=50, both_classes=False), split=st.integers(0, 2**32 - 1),
       n_groups=st.integers(1, 6), n_boot=st.integers(2, 12),
       seed=st.one_of(st.integers(0, 2**130), st.builds(
           lambda e, k: np.random.SeedSequence(e, spawn_key=tuple(k)),
           st.integers(0, 2**64), st.lists(st.integers(0, 2**33), max_size=2))),
       confidence=st.floats(0.05, 0.99), exclude_self=st.booleans())
def test_every_row_is_bootstrap_on_its_segment(backend, case, split, n_groups, n_boot, seed,
                                               confidence, exclude_self):
    """Random segment sizes (single rows, one class, all weights 0 included), ties
    within and across segments, weights, two models, any seed: every row's intervals
    are ``bootstrap`` of its segment's rows, bit for bit."""
    y, s, w = case
    groups = np.random.default_rng(split).integers(0, n_groups, len(y)) * 3 + 1
    other = -s[::-1].copy()
    table = _many(y, {"m": s, "r": other}, groups=groups, sample_weight=w, n_boot=n_boot,
                  seed=seed, confidence=confidence, exclude_self=exclude_self, total=True)
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    assert table.seed_entropy == seq.entropy and table.n_boot == n_boot
    present = np.unique(groups)
    for i in range(len(table)):
        group = table.columns["group"][i]
        position = len(present) if group is None else int(np.searchsorted(present, group))
        rows_of = np.ones(len(y), bool) if group is None else groups == group
        score = s if table.columns["model"][i] == "m" else other
        assert_intervals_are_bootstrap(table, i, y[rows_of], score[rows_of],
                                       None if w is None else w[rows_of], seq, position,
                                       n_boot, confidence, exclude_self)


@pytest.mark.slow
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=rows(max_n=60, both_classes=False), split=st.integers(0, 2**32 - 1),
       n_groups=st.integers(1, 5), n_boot=st.integers(2, 6), stratified=st.booleans())
def test_threaded_kernel_is_the_reference(monkeypatch, case, split, n_groups, n_boot,
                                          stratified):
    """Segments split over two threads (threshold lowered) give the reference's sweeps,
    one-class segments included."""
    from indist_fast._core import fast, reference
    from indist_fast._core import threads
    from indist_fast._core.validation import prepare_rows
    from indist_fast.inference.segment_bootstrap import segment_slots
    monkeypatch.setattr(threads, "PARALLEL_MIN_ROWS", 2)
    y, s, w = case
    codes = np.random.default_rng(split).integers(0, n_groups, len(y)).astype(np.int64)
    slots = segment_slots(prepare_rows(y, s, w), codes, n_groups)
    segments = np.arange(n_groups, dtype=np.int64)
    args = (2**70 + split, (3,), segments, segments + 5, n_boot, *slots[:8], stratified,
            np.array([0.3, 0.5]), True)
    got, want = fast.segment_replicate_sweeps(*args), reference.segment_replicate_sweeps(*args)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(entropy=st.integers(0, 2**300), key=st.lists(st.integers(0, 2**70), max_size=3),
       g=st.integers(0, 2**32 - 1), k=st.integers(0, 2**32 - 1))
def test_kernel_streams_are_numpys(entropy, key, g, k):
    """The kernel's SeedSequence hash and PCG64 give NumPy's raw outputs."""
    from indist_fast._core import _resample, fast
    got = _resample.child_raw(fast._seed_words(entropy, tuple(key)), g, k, 6)
    want = np.random.PCG64(np.random.SeedSequence(
        entropy, spawn_key=tuple(key) + (g, k))).random_raw(6)
    np.testing.assert_array_equal(got, want)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(values=st.lists(st.lists(st.one_of(st.floats(-5, 5), st.just(np.nan),
                                          st.sampled_from([np.inf, -np.inf])),
                                min_size=4, max_size=4), min_size=1, max_size=6),
       confidence=st.one_of(st.floats(0.01, 0.99), st.sampled_from([0.5, 1 / 3])))
def test_percentile_bounds_are_per_row_quantiles(values, confidence):
    """Finite rows: np.quantile of the defined values, bit for bit. Rows with ±inf:
    the exact quantile of the order statistics (np.quantile's interpolation gives NaN
    there), read from Fractions."""
    from fractions import Fraction
    reps = np.array(values)
    low, high = percentile_bounds(reps, confidence)
    tail = (1.0 - confidence) / 2.0
    for row, lo, hi in zip(reps, low, high):
        ok = np.sort(row[~np.isnan(row)])
        if len(ok) == 0:
            assert np.isnan(lo) and np.isnan(hi)
        elif np.isfinite(ok).all():
            assert np.array_equal([lo, hi], np.quantile(ok, [tail, 1.0 - tail]))
        else:
            for got, q in ((lo, tail), (hi, 1.0 - tail)):
                at = Fraction((len(ok) - 1) * q)
                a, b = ok[int(at)], ok[min(int(at) + 1, len(ok) - 1)]
                if at == int(at) or a == b:
                    assert got == a
                elif np.isinf(a) or np.isinf(b):
                    with np.errstate(invalid="ignore"):         # -inf + inf: NaN
                        assert np.array_equal(got, a + b, equal_nan=True)
                else:
                    assert got == pytest.approx(float(a + (b - a) * float(at - int(at))))


@pytest.mark.slow
def test_seed_reproduces_and_paired_models_share_it(backend):
    rng = np.random.default_rng(5)
    y = rng.random(120) < 0.4
    s = rng.normal(size=120) + y
    w = rng.integers(1, 4, 120).astype(float)
    g = rng.integers(0, 3, 120)
    a = _many(y, {"a": s, "b": s}, groups=g, n_boot=30, seed=9)
    b = _many(y, {"a": s, "b": s}, groups=g, n_boot=30, seed=9)
    c = _many(y, {"a": s, "b": s}, groups=g, n_boot=30, seed=10)
    for name in INTERVALS:
        np.testing.assert_array_equal(a.columns[name], b.columns[name])
        # two identical models resample identically within a segment
        np.testing.assert_array_equal(a.columns[name][0::2], a.columns[name][1::2])
    assert not np.array_equal(a.columns["auc_low"], c.columns["auc_low"])
    # seed=None draws fresh entropy, reported so that a run can be repeated
    fresh = _many(y, s, groups=g, sample_weight=w, n_boot=20, seed=None)
    assert fresh.seed_entropy != 0
    again = _many(y, s, groups=g, sample_weight=w, n_boot=20, seed=fresh.seed_entropy)
    for name in INTERVALS:
        np.testing.assert_array_equal(fresh.columns[name], again.columns[name])
    # a SeedSequence is not consumed (spawned from) by the call
    seq = np.random.SeedSequence(4)
    _many(y, s, groups=g, n_boot=5, seed=seq)
    assert seq.n_children_spawned == 0


def test_without_n_boot_there_are_no_interval_columns(backend):
    t = _many([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], groups=[1, 1, 1, 1])
    assert not set(INTERVALS) & set(t.columns) and t.n_boot is None


def test_single_row_and_one_class_segments_get_nan_intervals(backend):
    y = np.array([1, 1, 1, 1, 1, 0, 1, 0], dtype=bool)
    s = np.array([0.9, 0.3, 0.5, 0.8, 0.2, 0.4, 0.6, 0.1])
    groups = np.array([0, 1, 1, 1, 2, 2, 2, 2])         # one row; positives only; both
    with pytest.warns(IndistFastWarning, match="2 of 3"):
        t = indist_fast.evaluate_many(y, s, groups=groups, n_boot=20, seed=1)
    for name in INTERVALS:
        assert np.isnan(t.columns[name][:2]).all()
    assert not np.isnan(t.columns["auc_low"][2])


def test_zero_weight_segment_is_flagged_as_evaluate_refuses_it(backend):
    y = np.array([0, 1, 0, 1, 0, 1])
    s = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    w = np.array([0.0, 0, 0, 0, 1, 1])
    t = _many(y, s, sample_weight=w, groups=[1, 1, 1, 1, 2, 2], n_boot=10, seed=0)
    assert t.columns["one_class"].tolist() == [True, False]
    assert np.isnan(t.columns["auc"][0]) and np.isnan(t.columns["precision_high"][0])
    with pytest.raises(ValueError) as from_evaluate:
        indist_fast.evaluate(y[:4], s[:4], sample_weight=w[:4])
    with pytest.raises(ValueError) as from_table:
        t.report(group=1)
    assert str(from_table.value) == str(from_evaluate.value)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(n_boot=1), ValueError, "n_boot must be"),
    (dict(n_boot=0), ValueError, "n_boot must be"),
    (dict(n_boot=2.0), TypeError, "n_boot must be"),
    (dict(n_boot=True), TypeError, "n_boot must be"),
    (dict(n_boot=10**8), ValueError, "n_boot must be"),
    (dict(n_boot=5, confidence=1.0), ValueError, "confidence must"),
    (dict(n_boot=5, confidence="x"), TypeError, "confidence must"),
    (dict(confidence=0.0), ValueError, "confidence must"),
    (dict(n_boot=5, seed=-1), ValueError, "seed must be"),
    (dict(n_boot=5, seed="x"), TypeError, "seed must be"),
    (dict(n_boot=5, seed=np.random.default_rng(0)), TypeError, "seed must be"),
    (dict(n_boot=5, seed=np.random.SeedSequence([1, 2])), ValueError, "seed must be"),
    # without n_boot the seed is unused (the default is 0), and still checked
    (dict(seed=-1), ValueError, "seed must be"),
    (dict(seed="x"), TypeError, "seed must be"),
    (dict(progress="yes"), TypeError, "progress must be True or False"),
])
def test_bad_bootstrap_arguments_name_themselves(backend, kwargs, error, message):
    with pytest.raises(error, match=message):
        indist_fast.evaluate_many([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], **kwargs)


@pytest.mark.parametrize("form, name", [
    ("mapping", r"scores\['m2'\]"), ("2d", r"scores\[1\]"), ("1d", "scores"),
    ("table", "score column 'm2'")])
def test_bad_scores_name_the_model(backend, form, name):
    y = np.array([0, 1, 1, 0])
    good, bad = np.array([0.1, 0.8, 0.6, 0.3]), np.array([0.1, np.nan, 0.6, 0.3])
    if form == "mapping":
        call = lambda: indist_fast.evaluate_many(y, {"m1": good, "m2": bad})  # noqa: E731
    elif form == "2d":
        call = lambda: indist_fast.evaluate_many(y, np.c_[good, bad])  # noqa: E731
    elif form == "1d":
        call = lambda: indist_fast.evaluate_many(y, bad)  # noqa: E731
    else:
        pd = pytest.importorskip("pandas")
        df = pd.DataFrame({"y": y, "m1": good, "m2": bad})
        call = lambda: indist_fast.evaluate_many(df, label="y", score=["m1", "m2"])  # noqa: E731
    with pytest.raises(ValueError, match=f"^{name} contains NaN"):
        call()


def test_report_finds_rows_by_value(backend):
    rng = np.random.default_rng(2)
    y = rng.random(300) < 0.5
    s = rng.normal(size=300) + y
    country = rng.choice(["de", "se", "fr"], 300)
    day = rng.integers(1, 4, 300)
    t = _many(y, {"a": s, "b": -s}, groups={"country": country, "day": day}, total=True)
    for i in range(len(t)):
        segment = {"country": t.columns["country"][i], "day": t.columns["day"][i]}
        rows_of = np.ones(300, bool) if segment["day"] is None else (
            (country == segment["country"]) & (day == segment["day"]))
        score = s if t.columns["model"][i] == "a" else -s
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", indist_fast.LevelNotReachedWarning)
            want = indist_fast.evaluate(y[rows_of], score[rows_of])
            assert t.report(model=t.columns["model"][i], **segment).auc == want.auc
    assert t.report(model="a", country="se", day=np.int64(2)).auc == t.report(
        model="a", country="se", day=2.0).auc
    with pytest.raises(KeyError, match="no row"):
        t.report(model="a", country="se", day="2")
    with pytest.raises(KeyError, match="no row"):
        t.report(model="c", country="se", day=2)
    with pytest.raises(TypeError, match="model= is needed"):
        t.report(country="se", day=2)


def test_totals_keep_segment_types_in_pandas(backend):
    pd = pytest.importorskip("pandas")
    t = _many([0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.5, 0.2],
              groups={"day": np.array([1, 1, 2, 2, 3, 3]), "w": [1.5, 1.5, 2.5, 2.5, 1.5,
                                                                  1.5]},
              total=True, n_boot=10, seed=0)
    frame = t.to_pandas()
    assert frame["day"].dtype == pd.Int64Dtype() and frame["w"].dtype == pd.Float64Dtype()
    assert frame["day"].isna().tolist() == [False] * 3 + [True]
    assert frame["day"].tolist()[:3] == [1, 2, 3]
    # (without totals the columns keep their NumPy dtype)
    plain = _many([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], groups=[1, 1, 2, 2]).to_pandas()
    assert plain["group"].dtype == np.int64


def test_a_segment_column_may_not_take_an_interval_name():
    with pytest.raises(ValueError, match="auc_low"):
        indist_fast.evaluate_many([0, 1], [0.1, 0.2], groups={"auc_low": [1, 2]})


def test_inputs_are_not_modified(backend):
    y = np.array([0, 1, 1, 0, 1, 0])
    s = np.array([0.1, 0.8, 0.6, 0.3, 0.6, 0.2])
    w = np.array([1.0, 2, 0, 1, 1, 3])
    g = np.array([2, 2, 2, 5, 5, 5])
    copies = [a.copy() for a in (y, s, w, g)]
    _many(y, s, sample_weight=w, groups=g, n_boot=8, seed=1, total=True)
    for a, b in zip((y, s, w, g), copies):
        np.testing.assert_array_equal(a, b)


def test_report_finds_datetime_and_object_segments(backend):
    days = np.repeat(np.array(["2026-11-01", "2026-11-02"], dtype="datetime64[ns]"), 4)
    y, s = np.array([0, 1, 1, 0] * 2), np.array([0.1, 0.8, 0.6, 0.3, 0.2, 0.7, 0.5, 0.6])
    t = _many(y, s, groups={"day": days})
    want = indist_fast.evaluate(y[4:], s[4:]).auc
    assert t.report(day=np.datetime64("2026-11-02")).auc == want
    with pytest.raises(KeyError, match="no row"):
        t.report(day=int(days[4].astype(np.int64)))     # an int is not a day
    pd = pytest.importorskip("pandas")
    assert t.report(day=pd.Timestamp("2026-11-02")).auc == want


def test_strided_integer_groups(backend):
    """Integer groups that are their own codes may be a strided view (a column of a
    2-D array): the kernels get a contiguous copy."""
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    s = np.array([.1, .9, .8, .3, .6, .2, .4, .7])
    both = np.c_[np.repeat([1, 2], 4), np.arange(8)]
    strided = _many(y, s, groups=both[:, 0], n_boot=10, seed=0)
    plain = _many(y, s, groups=both[:, 0].copy(), n_boot=10, seed=0)
    for name in ("auc", *INTERVALS):
        np.testing.assert_array_equal(strided.columns[name], plain.columns[name])


def test_kernel_refuses_inconsistent_slots():
    """The compiled entry point checks what it indexes (the facade builds valid
    arguments; a bug there must not read out of bounds)."""
    from indist_fast._core import _resample
    prefix = np.zeros(4, np.uint32)
    i64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731
    good = dict(pos_start=i64(0, 1), pos_group=i64(0), neg_start=i64(0, 1),
                neg_group=i64(1), group_start=i64(0, 2), scores=np.array([2.0, 1.0]))

    def call(segments=i64(0), keys=i64(0), **change):
        a = {**good, **change}
        out = np.empty((len(segments) * 3, 8))
        _resample.segment_replicate_sweeps(
            prefix, segments, keys, 3, a["pos_start"], a["pos_group"], None,
            a["neg_start"], a["neg_group"], None, a["group_start"], a["scores"], True,
            np.array([0.5]), True, out)
        return out

    assert np.isfinite(call()[:, 2]).all()
    for change, message in [(dict(neg_group=i64(2)), "names group 2 of 2"),
                            (dict(pos_start=i64(0, 2)), "pos_start must run from 0 to 1"),
                            (dict(group_start=i64(0, 1)), "group_start must run"),
                            (dict(segments=i64(1)), "is not a segment"),
                            (dict(keys=i64(2**32)), "keys"),
                            (dict(keys=i64(0, 1)), "differ in length")]:
        with pytest.raises(ValueError, match=message):
            call(**change)
