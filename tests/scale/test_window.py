"""``Window``: after every batch of a stream, the report of exactly the rows in the window.

The oracle is ``evaluate`` (and ``ScoreTable.from_arrays``) on the rows the window must
hold, picked here from the whole stream by position (count windows) or by time
(duration windows), and a pair count for ``auc()``. Streams come from hypothesis:
batch sizes, ties, zero weights, one-class stretches, times with repeats; the rank
structure is rebuilt often (a small delta limit) and at its default pace.
"""

from __future__ import annotations

import copy
import datetime as dt
import pickle
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indist_fast
from indist_fast import ScoreTable, Window, evaluate
from indist_fast.scale import window as window_module

# (levels not reached, B undefined on tiny windows: evaluate warns alike; not the subject)
pytestmark = pytest.mark.filterwarnings("ignore::indist_fast.IndistFastWarning")


@st.composite
def streams(draw, max_batch: int, max_batches: int):
    """Batches ``(y, s, w, t)`` with scores from few values (ties), weights with zeros
    when weighted, and non-decreasing times (repeats included)."""
    weighted = draw(st.booleans())
    n_values = draw(st.sampled_from([3, 20, 10**6]))
    seed = draw(st.integers(0, 2**32 - 1))
    sizes = draw(st.lists(st.integers(1, max_batch), min_size=1, max_size=max_batches))
    rng = np.random.default_rng(seed)
    batches, clock = [], 0.0
    for k in sizes:
        p = rng.choice([0.0, 0.3, 0.5, 1.0])          # stretches of one class
        y = (rng.random(k) < p).astype(np.int64)
        s = rng.integers(0, n_values, k) / n_values
        w = rng.choice([0.0, 0.5, 1.0, 3.0], k) if weighted else None
        t = clock + np.cumsum(rng.choice([0.0, 0.5, 1.0, 7.0], k))
        clock = float(t[-1])
        batches.append((y, s, w, t))
    return batches


def held_rows(batches, size, duration):
    """The rows a window of ``size`` / ``duration`` holds after the last batch."""
    y, s, w, t = (np.concatenate([b[i] for b in batches]) if batches[0][i] is not None
                  else None for i in range(4))
    keep = np.ones(len(y), bool)
    if duration is not None:
        keep &= t >= t[-1] - duration
    if size is not None:
        keep[:max(0, len(y) - size)] = False
    return y[keep], s[keep], None if w is None else w[keep]


def pair_auc(y, s, w):
    """AUC by counting pairs (ties half), exactly in fractions."""
    w = np.ones(len(y)) if w is None else w
    pos, neg = s[y == 1], s[y == 0]
    wp, wn = w[y == 1], w[y == 0]
    num = Fraction(0)
    for a, x in zip(pos, wp):
        num += Fraction(float(x)) * (Fraction(float(wn[neg < a].sum()))
                                     + Fraction(float(wn[neg == a].sum())) / 2)
    return num / (Fraction(float(wp.sum())) * Fraction(float(wn.sum())))


def check_window(window, batches, size, duration):
    y, s, w = held_rows(batches, size, duration)
    assert window.n_rows == len(y)
    weight = np.ones(len(y)) if w is None else w
    pos_w, neg_w = weight[y == 1].sum(), weight[y == 0].sum()
    if pos_w <= 0 or neg_w <= 0:
        with pytest.raises(ValueError, match="single class|zero on every row"):
            window.auc()
        return
    with warnings.catch_warnings():
        # (levels not reached, B undefined: both sides warn alike)
        warnings.simplefilter("ignore")
        expected = evaluate(y, s, sample_weight=w, levels=window.levels)
        assert window.report() == expected
    table = window.table()
    ref = ScoreTable.from_arrays(y, s, w)
    assert table.scores.tolist() == ref.scores.tolist()
    assert table.pos.tolist() == ref.pos.tolist() and table.neg.tolist() == ref.neg.tolist()
    assert table.n_rows == ref.n_rows and table.pos.dtype == ref.pos.dtype
    if w is None:
        assert window.auc() == float(pair_auc(y, s, w)) == expected.auc
    else:
        assert window.auc() == pytest.approx(expected.auc, rel=1e-12, abs=1e-12)


def run_stream(batches, size, duration, read_every=1):
    """Feed the batches, checking the window after every ``read_every``-th and the last
    (between readings the rank work waits: rows that come and go cancel, and past the
    window's size the sums are rebuilt from the rows)."""
    window = Window(size=size, duration=duration, levels=(0.3, 0.5))
    for i, (y, s, w, t) in enumerate(batches):
        window.update(y, s, w, t=t if duration is not None else None)
        if (i + 1) % read_every == 0 or i + 1 == len(batches):
            check_window(window, batches[:i + 1], size, duration)
    return window


window_kinds = st.sampled_from([(1, None), (7, None), (60, None), (None, 5.0),
                                (None, 30.0), (40, 20.0)])


@pytest.mark.parametrize("rebuild", ["often", "default"])
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=streams(max_batch=40, max_batches=12), kind=window_kinds,
       read_every=st.sampled_from([1, 1, 2, 5, 100]))
def test_window_equals_evaluate_after_every_batch(backend, monkeypatch, rebuild, batches,
                                                  kind, read_every):
    if rebuild == "often":
        monkeypatch.setattr(window_module, "_MIN_DELTA", 1)
        monkeypatch.setattr(window_module, "_REBUILD_FACTOR", 0.0)
        monkeypatch.setattr(window_module, "_PENDING_CHUNKS", 2)
    run_stream(batches, *kind, read_every=read_every)


@pytest.mark.parametrize("reads", ["every batch", "at the end"])
def test_many_one_row_batches(backend, reads):
    # 1,500 batches of one row: chunks joined while held back, then (past the window's
    # size) the sums rebuilt from the rows
    rng = np.random.default_rng(8)
    y, s = rng.integers(0, 2, 1_500), rng.integers(0, 30, 1_500) / 30
    window = Window(size=700)
    for i in range(1_500):
        window.update(y[i:i + 1], s[i:i + 1])
        if reads == "every batch" and i > 20:
            auc = window.auc()
            if i % 97 == 0:
                assert auc == evaluate(y[max(0, i - 699):i + 1], s[max(0, i - 699):i + 1]).auc
    assert window.report() == evaluate(y[-700:], s[-700:])
    assert window.auc() == evaluate(y[-700:], s[-700:]).auc


@pytest.mark.slow
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=streams(max_batch=10_000, max_batches=8),
       kind=st.sampled_from([(1, None), (5_000, None), (20_000, None), (None, 2_000.0),
                             (3_000, 1_000.0)]))
def test_window_equals_evaluate_large_batches(backend, monkeypatch, batches, kind):
    monkeypatch.setattr(window_module, "_MIN_DELTA", 64)
    size, duration = kind
    window = Window(size=size, duration=duration)
    for i, (y, s, w, t) in enumerate(batches):
        window.update(y, s, w, t=t if duration is not None else None)
        held = held_rows(batches[:i + 1], size, duration)
        weight = np.ones(len(held[0])) if held[2] is None else held[2]
        if weight[held[0] == 1].sum() > 0 and weight[held[0] == 0].sum() > 0:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = evaluate(*held[:2], sample_weight=held[2])
                assert window.report() == expected
            assert window.auc() == pytest.approx(expected.auc, rel=1e-12, abs=1e-12)


def test_a_batch_larger_than_the_window_keeps_its_last_rows(backend):
    window = Window(size=3)
    window.update([1, 0, 1, 0, 1], [0.9, 0.8, 0.1, 0.2, 0.3])
    assert window.report() == evaluate([1, 0, 1], [0.1, 0.2, 0.3])
    assert window.auc() == 0.5


def test_rows_leave_a_batch_partly_oldest_first(backend):
    window = Window(size=4)
    window.update([0, 1, 1], [0.1, 0.9, 0.4])
    window.update([0, 1, 0], [0.5, 0.2, 0.6])      # (0, .1) and (1, .9) leave
    assert window.table().scores.tolist() == [0.6, 0.5, 0.4, 0.2]
    assert window.auc() == 0.0


def test_duration_window_with_datetimes_and_timedelta(backend):
    start = np.datetime64("2026-01-01T00:00:00")
    window = Window(duration=dt.timedelta(minutes=1))
    window.update([0, 1], [0.2, 0.8], t=[start, start + np.timedelta64(10, "s")])
    window.update([1, 0], [0.3, 0.6], t=dt.datetime(2026, 1, 1, 0, 1, 5))
    assert window.n_rows == 3          # the row at 0 s left at 65 s
    assert window.report() == evaluate([1, 1, 0], [0.8, 0.3, 0.6])
    with pytest.raises(TypeError, match="^t must be datetimes"):
        window.update([1], [0.5], t=100.0)


def test_times_out_of_order_are_refused_naming_t(backend):
    window = Window(duration=10)
    window.update([0, 1], [0.2, 0.8], t=[5, 6])
    before = pickle.dumps(window)
    with pytest.raises(ValueError, match="^t must not decrease: the batch starts at t=4"):
        window.update([0, 1], [0.3, 0.4], t=4)
    with pytest.raises(ValueError, match="^t must not decrease: row 1 has t=6.0"):
        window.update([0, 1], [0.3, 0.4], t=[7, 6])
    assert pickle.dumps(window) == before
    with pytest.raises(ValueError, match="^t is required"):
        window.update([0], [0.1])
    with pytest.raises(ValueError, match="^t must be finite"):
        window.update([0], [0.1], t=np.nan)
    with pytest.raises(ValueError, match="^t must hold one time for the batch or one per row"):
        window.update([0, 1], [0.1, 0.2], t=[8, 9, 10])
    with pytest.raises(TypeError, match="^t must be numbers"):
        window.update([0], [0.1], t="soon")
    window.update([0, 1], [0.3, 0.4], t=6)      # equal times are in order
    assert window.n_rows == 4


def test_label_coding_is_held_across_batches(backend):
    window = Window(size=10)
    window.update([0, 1], [0.2, 0.8])
    before = pickle.dumps(window)
    with pytest.raises(ValueError, match="y_true"):
        window.update([-1, 1], [0.3, 0.4])
    with pytest.raises(ValueError, match="y_true"):
        window.update([0, 2], [0.3, 0.4])
    assert pickle.dumps(window) == before
    text = Window(size=10, pos_label="spam")
    text.update(["ham", "spam"], [0.2, 0.8])
    text.update(["spam", "spam"], [0.1, 0.3])
    with pytest.raises(ValueError, match="y_true"):
        text.update(["eggs"], [0.5])
    assert text.report() == evaluate(["ham", "spam", "spam", "spam"], [0.2, 0.8, 0.1, 0.3],
                                     pos_label="spam")


def test_weights_every_batch_or_none(backend):
    window = Window(size=10)
    window.update([0, 1], [0.2, 0.8])
    with pytest.raises(ValueError, match="^sample_weight must be given with every batch"):
        window.update([0, 1], [0.2, 0.8], [1.0, 2.0])
    weighted = Window(size=10)
    weighted.update([0, 1], [0.2, 0.8], [1.0, 2.0])
    with pytest.raises(ValueError, match="^sample_weight must be given with every batch"):
        weighted.update([0, 1], [0.2, 0.8])
    with pytest.raises(ValueError, match="sample_weight"):
        weighted.update([0, 1], [0.2, 0.8], [1.0, -2.0])
    with pytest.raises(ValueError, match="y_score"):
        weighted.update([0, 1], [0.2, np.nan], [1.0, 2.0])


@pytest.mark.parametrize("kwargs, error, match", [
    ({}, ValueError, "^size or duration must be given"),
    ({"size": 0}, ValueError, "size"),
    ({"size": 2.0}, TypeError, "size"),
    ({"duration": 0}, ValueError, "^duration"),
    ({"duration": -1.0}, ValueError, "^duration"),
    ({"duration": "1h"}, TypeError, "^duration"),
    ({"size": 3, "levels": (1.5,)}, ValueError, "levels"),
    ({"size": 3, "pos_label": [1, 2]}, TypeError, "^pos_label"),
])
def test_bad_arguments_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        Window(**kwargs)


def test_empty_and_one_class_windows_raise(backend):
    window = Window(size=3)
    with pytest.raises(ValueError, match="holds no rows"):
        window.auc()
    with pytest.raises(ValueError, match="holds no rows"):
        window.report()
    window.update([], [])
    assert window.n_rows == 0
    window.update([1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match="single class"):
        window.auc()


def test_inputs_are_not_modified(backend):
    y, s, w, t = np.array([0, 1, 1]), np.array([-0.0, 0.5, 0.5]), np.array([1., 2., 0.]), \
        np.array([1., 2., 3.])
    copies = [a.copy() for a in (y, s, w, t)]
    window = Window(size=2, duration=5)
    window.update(y, s, w, t=t)
    window.update(y, s, w, t=t + 3)
    for a, b in zip((y, s, w, t), copies):
        assert a.tobytes() == b.tobytes()


def test_pickle_and_copy_round_trip_and_go_on(backend):
    rng = np.random.default_rng(3)
    window = Window(size=50, duration=40.0)
    clock = 0.0
    for _ in range(6):
        window.update(rng.integers(0, 2, 20), rng.random(20), t=clock + np.arange(20))
        clock += 20
    for other in (pickle.loads(pickle.dumps(window)), copy.deepcopy(window)):
        assert other.report() == window.report() and other.auc() == window.auc()
        y, s = rng.integers(0, 2, 15), rng.random(15)
        other.update(y, s, t=clock + np.arange(15))
        twin = pickle.loads(pickle.dumps(window))
        twin.update(y, s, t=clock + np.arange(15))
        assert other.report() == twin.report()
        with pytest.raises(ValueError, match="^t must not decrease"):
            other.update([1], [0.5], t=clock - 1)


def test_merge_of_time_windows_is_the_window_of_both_streams(backend):
    rng = np.random.default_rng(5)
    a, b, both = Window(duration=30.0), Window(duration=30.0), Window(duration=30.0)
    rows_a = [(rng.integers(0, 2, 10), rng.random(10), float(t)) for t in range(0, 100, 10)]
    rows_b = [(rng.integers(0, 2, 10), rng.random(10), float(t)) for t in range(5, 105, 10)]
    for y, s, t in rows_a:
        a.update(y, s, t=t)
    for y, s, t in rows_b:
        b.update(y, s, t=t)
    for y, s, t in sorted(rows_a + rows_b, key=lambda r: r[2]):
        both.update(y, s, t=t)
    n_b = b.n_rows
    merged = a.merge(b)
    assert merged is a and b.n_rows == n_b
    assert merged.report() == both.report() and merged.auc() == both.auc()
    merged.update([1, 0], [0.3, 0.7], t=120.0)
    both.update([1, 0], [0.3, 0.7], t=120.0)
    assert merged.report() == both.report()


def test_merge_refusals():
    counted = Window(size=5)
    timed = Window(duration=5)
    with pytest.raises(ValueError, match="^merge needs windows of duration= alone"):
        counted.merge(Window(size=5))
    with pytest.raises(ValueError, match="same duration"):
        timed.merge(Window(duration=6))
    with pytest.raises(ValueError, match="this window"):
        timed.merge(timed)
    with pytest.raises(TypeError, match="^other must be a Window"):
        timed.merge(indist_fast.Accumulator())
    timed.update([0, 1], [0.1, 0.2], t=1)
    weighted = Window(duration=5)
    weighted.update([0, 1], [0.1, 0.2], [1.0, 1.0], t=1)
    with pytest.raises(ValueError, match="weighted like this window"):
        timed.merge(weighted)
    coded = Window(duration=5)
    coded.update([-1, 1], [0.1, 0.2], t=1)
    with pytest.raises(ValueError, match="y_true|label"):
        timed.merge(coded)


def test_weighted_auc_stays_close_over_a_long_stream(backend):
    # U drifts by rounding as weighted rows come and go; rebuilds sum it afresh
    rng = np.random.default_rng(11)
    window = Window(size=3_000)
    ys, ss, ws = [], [], []
    for _ in range(40):
        y, s, w = rng.integers(0, 2, 500), rng.random(500), rng.random(500) * 1e3
        window.update(y, s, w)
        ys.append(y), ss.append(s), ws.append(w)
    y, s, w = (np.concatenate(a)[-3_000:] for a in (ys, ss, ws))
    assert window.auc() == pytest.approx(evaluate(y, s, sample_weight=w).auc, rel=1e-12)


def test_memory_per_row_is_bounded():
    rng = np.random.default_rng(2)
    window = Window(size=100_000)
    for _ in range(300):
        window.update(rng.integers(0, 2, 1_000), rng.random(1_000))
        window.auc()
    # ring 9 bytes a row; base and spare 2 x 48 bytes an entry, room for the delta's
    # entries too (up to 2 sqrt(100,000 x 2,000), 0.29 a row) and a quarter more; the
    # delta runs 2 x 32 bytes an entry
    assert window.n_rows == 100_000
    per_row = window.nbytes / window.n_rows
    assert 9 + 2 * 48 < per_row < 9 + 2 * 48 * 1.25 * 1.29 + 2 * 32 * 1.25 * 0.29 + 1


def test_repr():
    window = Window(size=3, duration=2.5)
    window.update([0, 1], [0.1, 0.2], t=0)
    assert repr(window) == "Window(size=3 and duration=2.5s: 2 rows)"


def test_report_equals_evaluate_where_evaluate_sums_on_both_cores():
    # Past a few hundred thousand rows evaluate sums in pieces on both cores; a sweep
    # of the window's table rounded the last digit of the average precision otherwise.
    rng = np.random.default_rng(3)
    n = 300_000
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.random(n)
    window = Window(size=n, levels=(0.5,))
    window.update(y, s)
    assert window.report() == indist_fast.evaluate(y, s, levels=(0.5,))


def test_time_zone_aware_times_are_read_as_utc_without_a_warning():
    pd = pytest.importorskip("pandas")
    aware = pd.Series(pd.Timestamp("2026-10-01 12:00", tz="Europe/Berlin")
                      + pd.to_timedelta(np.arange(5), unit="min"))
    a, b = Window(duration=3600), Window(duration=3600)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a.update([0, 1, 0, 1, 1], [0.1, 0.9, 0.3, 0.8, 0.2], t=aware)
        a.update([1], [0.5], t=dt.datetime(2026, 10, 1, 11, 30, tzinfo=dt.timezone.utc))
        a.update([0], [0.6], t=pd.Timestamp("2026-10-01 13:40", tz="Europe/Berlin"))
    b.update([0, 1, 0, 1, 1], [0.1, 0.9, 0.3, 0.8, 0.2], t=aware.dt.tz_convert(None))
    b.update([1], [0.5], t=dt.datetime(2026, 10, 1, 11, 30))
    b.update([0], [0.6], t=pd.Timestamp("2026-10-01 11:40"))
    assert a.n_rows == b.n_rows == 2 and a.report() == b.report()
