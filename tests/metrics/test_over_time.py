"""``over_time``: every period's row is ``evaluate_many`` by period (pandas' floor of the
time), windows are ``evaluate`` on exactly their rows, and the drift tests hold their
level and find a planted change."""

from __future__ import annotations

import datetime
import warnings

import numpy as np
import pandas as pd
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.results.report_table import REPORT_COLUMNS
from reports import assert_reports_equal

DAY = 86400


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return func(*args, **kwargs)


def _log(seed, n=3000, days=5, ties=False, weights=False):
    rng = np.random.default_rng(seed)
    t = np.datetime64("2024-02-26T00:00") + rng.integers(0, days * 1440, n).astype(
        "timedelta64[m]")
    y = rng.integers(0, 2, n)
    s = y + rng.normal(size=n)
    if ties:
        s = np.round(s, 1)
    w = rng.integers(0, 4, n).astype(float) if weights else None
    return y, s, t, w


def _assert_columns_equal(got, want, names):
    for name in names:
        a, b = np.asarray(got.columns[name]), np.asarray(want.columns[name])
        if a.dtype.kind == "f":
            np.testing.assert_array_equal(a, b, err_msg=name)
        else:
            assert a.tolist() == b.tolist(), name


@pytest.mark.parametrize("freq, pandas_freq", [("1D", "1D"), ("6h", "6h"), ("90min", "90min")])
@pytest.mark.parametrize("ties, weights", [(False, False), (True, False), (True, True)])
def test_equals_evaluate_many_by_floored_time(backend, freq, pandas_freq, ties, weights):
    y, s, t, w = _log(1, ties=ties, weights=weights)
    got = _quiet(indist_fast.over_time, y, s, t, freq=freq, sample_weight=w)
    period = pd.Series(t).dt.floor(pandas_freq).to_numpy()
    want = _quiet(indist_fast.evaluate_many, y, s, groups={"period": period},
                  sample_weight=w)
    assert got.by == ("period",)
    assert got.columns["period"].tolist() == want.columns["period"].astype(
        "datetime64[s]").tolist()
    _assert_columns_equal(got, want, REPORT_COLUMNS + ("one_class",))
    p = want.columns["period"][2]
    assert_reports_equal(got.report(period=p), indist_fast.evaluate(
        y[period == p], s[period == p], sample_weight=None if w is None else w[period == p]))


def test_bootstrap_intervals_are_evaluate_many_s(backend):
    y, s, t, _ = _log(2, n=1500, days=3)
    got = indist_fast.over_time(y, s, t, n_boot=50, seed=4)
    period = t.astype("datetime64[D]")
    want = indist_fast.evaluate_many(y, s, groups={"period": period}, n_boot=50, seed=4)
    _assert_columns_equal(got, want, ("auc_low", "auc_high", "precision_low",
                                      "precision_high"))


def test_numbers_of_seconds_and_weeks_from_monday():
    # 2024-02-26 was a Monday: weeks start there, as pandas' "W" periods
    start = np.datetime64("2024-02-26T00:00:00", "s").astype(np.int64)
    t = start + np.array([0, 1, 7 * DAY - 1, 7 * DAY, 7 * DAY + 5, 13 * DAY])
    y, s = [0, 1, 0, 1, 0, 1], [.1, .9, .3, .2, .4, .8]
    got = indist_fast.over_time(y, s, t, freq="1W")
    assert got.columns["period"].tolist() == [float(start), float(start + 7 * DAY)]
    assert got.columns["n_rows"].tolist() == [3, 3]
    as_dates = indist_fast.over_time(y, s, t.astype("datetime64[s]"), freq="1W")
    assert [str(p) for p in as_dates.columns["period"]] == ["2024-02-26T00:00:00",
                                                              "2024-03-04T00:00:00"]
    weekly = pd.Series(t.astype("datetime64[s]")).dt.to_period("W").dt.start_time
    assert weekly.drop_duplicates().tolist() == list(pd.to_datetime(
        as_dates.columns["period"]))


def test_time_zones_tables_and_datetime_objects():
    y, s, t, _ = _log(3, n=400, days=2)
    utc = pd.Series(t).dt.tz_localize("UTC")
    want = indist_fast.over_time(y, s, t, freq="1h")
    for times in (utc.dt.tz_convert("Asia/Kolkata"), list(utc.dt.tz_convert("US/Pacific")),
                  [datetime.datetime.fromisoformat(str(v)) for v in t]):
        got = indist_fast.over_time(y, s, times, freq="1h")
        _assert_columns_equal(got, want, ("period", "auc", "n_rows"))
    frame = pd.DataFrame({"label": y, "p": s, "ts": utc.dt.tz_convert("Europe/Oslo")})
    got = indist_fast.over_time(frame, label="label", score="p", time="ts", freq="1h")
    _assert_columns_equal(got, want, ("period", "auc", "n_rows"))
    pa = pytest.importorskip("pyarrow")
    got = indist_fast.over_time(pa.Table.from_pandas(frame), label="label", score="p",
                                time="ts", freq="1h")
    _assert_columns_equal(got, want, ("period", "auc", "n_rows"))


@pytest.mark.parametrize("weights", [False, True])
def test_rolling_window_is_evaluate_on_its_rows(backend, weights):
    y, s, t, w = _log(5, n=2000, days=9, ties=True, weights=weights)
    keep = t.astype("datetime64[D]") != np.datetime64("2024-02-29")     # an empty day
    y, s, t = y[keep], s[keep], t[keep]
    w = None if w is None else w[keep]
    got = _quiet(indist_fast.over_time, y, s, t, freq="1D", window="3D", sample_weight=w)
    days = t.astype("datetime64[D]")
    assert np.datetime64("2024-02-29") not in got.columns["period"].astype("datetime64[D]")
    for i, start in enumerate(got.columns["period"].astype("datetime64[D]")):
        inside = (days <= start) & (days > start - 3)
        want = indist_fast.evaluate(y[inside], s[inside],
                                    sample_weight=None if w is None else w[inside])
        assert got.columns["n_rows"][i] == inside.sum()
        assert_reports_equal(got.report(period=got.columns["period"][i]), want)


@pytest.mark.parametrize("weights", [False, True])
def test_auc_standard_error_is_delong_s(backend, weights):
    y, s, t, w = _log(6, n=1000, days=3, ties=True, weights=weights)
    s = s.astype(np.float32) if not weights else s        # (float32 scores unweighted)
    got = indist_fast.over_time(y, s, t, sample_weight=w)
    for i, day in enumerate(got.columns["period"].astype("datetime64[D]")):
        inside = t.astype("datetime64[D]") == day
        want = indist_fast.delong(y[inside], s[inside],
                                  sample_weight=None if w is None else w[inside])
        assert got.columns["auc_std_error"][i] == pytest.approx(want.std_error, rel=1e-12)


def _stream(seed, change, n=1200, days=4):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, days * DAY, n)
    y = rng.integers(0, 2, n)
    sep = np.where(t >= (days - 1) * DAY, 1.0 - change, 1.0)
    return y, y * sep + rng.normal(size=n), t


def test_planted_change_is_flagged_and_named():
    y, s, t = _stream(0, change=0.7)
    got = indist_fast.over_time(y, s, t, n_boot=200, seed=1)
    d = got.drift
    # (the unchanged days' flags are the false-positive tests' subject)
    assert d.auc_drift[-1] and d.auc_p_value[-1] < 1e-6
    assert d.precision_drift[-1] and d.precision_p_value[-1] < 0.01
    assert d.flagged()[-1] == 3 * DAY
    assert got.columns["drift_auc"].tolist() == d.auc_drift.tolist()
    assert "DeLong" in d.tests["auc"] and "bootstrap" in d.tests["precision"]
    assert np.isnan(d.auc_p_value[0]) and d.reference == 0.0
    # against the changed day as the reference, the earlier days are the ones flagged
    later = indist_fast.over_time(y, s, t, reference=3 * DAY + 5)
    assert later.drift.auc_drift.tolist() == [True, True, True, False]
    without = indist_fast.over_time(y, s, t)
    assert "not tested" in without.drift.tests["precision"]
    assert not without.columns["drift_precision"].any()


def _false_positive_rate(draws, n_boot):
    flags = np.zeros((draws, 2))
    for k in range(draws):
        y, s, t = _stream(100 + k, change=0.0, n=800, days=2)
        d = indist_fast.over_time(y, s, t, n_boot=n_boot, seed=k).drift
        flags[k] = d.auc_drift[1], d.precision_drift[1]
    return flags.mean(axis=0)


def test_false_positive_rate_near_alpha():
    auc_rate, precision_rate = _false_positive_rate(60, 100)
    # 60 draws at 5%: 3 expected; more than 9 has probability below 0.2%
    assert auc_rate <= 9 / 60 and precision_rate <= 9 / 60


@pytest.mark.slow
def test_false_positive_rate_near_alpha_many_draws():
    auc_rate, precision_rate = _false_positive_rate(400, 200)
    assert 0.025 <= auc_rate <= 0.08 and 0.025 <= precision_rate <= 0.08


def test_one_class_period_is_nan_and_not_flagged():
    y = [0, 1, 0, 1, 1, 1]
    got = _quiet(indist_fast.over_time, y, [.1, .9, .2, .8, .5, .6], [0, 0, 0, 0, DAY, DAY])
    assert got.columns["one_class"].tolist() == [False, True]
    assert np.isnan(got.drift.auc_z[1]) and not got.drift.auc_drift[1]


@pytest.mark.parametrize("kwargs, error, words", [
    ({"freq": "1M"}, ValueError, "freq"),
    ({"freq": "0D"}, ValueError, "freq"),
    ({"freq": -3}, ValueError, "freq"),
    ({"freq": True}, TypeError, "freq"),
    ({"window": "36h"}, ValueError, "window"),
    ({"alpha": 1.5}, ValueError, "alpha"),
    ({"reference": 99 * DAY}, ValueError, "reference"),
    ({"reference": np.datetime64("2024-01-01")}, TypeError, "reference"),
    ({"n_boot": 1}, ValueError, "n_boot"),
    ({"freq": 0.5, "t": np.array([0, 1, 2, 3], dtype="datetime64[s]")}, ValueError, "freq"),
    ({"t": [0, 1, 2]}, ValueError, "t has 3 rows"),
    ({"t": [0, 1, np.nan, 2]}, ValueError, "t has a non-finite time"),
    ({"t": np.array(["2024-01-01", "NaT", "2024-01-01", "2024-01-01"],
                    dtype="datetime64[D]")}, ValueError, "NaT"),
    ({"t": ["a", "b", "c", "d"]}, TypeError, "pandas.to_datetime"),
    ({"t": None}, TypeError, "t (the time"),
])
def test_bad_input_is_named(kwargs, error, words):
    args = {"t": [0, 1, DAY, DAY + 1], **kwargs}
    t = args.pop("t")
    with pytest.raises(error, match=None) as info:
        indist_fast.over_time([0, 1, 0, 1], [.1, .9, .2, .8], t, **args)
    assert words in str(info.value)


def test_inputs_not_modified():
    y, s, t, w = _log(7, n=300, days=2, weights=True)
    copies = [a.copy() for a in (y, s, t, w)]
    indist_fast.over_time(y, s, t, sample_weight=w, window="2D", n_boot=20)
    for a, b in zip((y, s, t, w), copies):
        np.testing.assert_array_equal(a, b)


def test_drift_record_plain_types():
    y, s, t = _stream(2, change=0.0, n=400, days=2)
    d = indist_fast.over_time(y, s, t).drift
    plain = d.to_dict()
    assert plain["tests"]["auc"].startswith("DeLong") and plain["period"] == [0.0, DAY * 1.0]
    assert plain["auc_z"][0] is None
    assert list(d.to_pandas()["auc_drift"]) == d.auc_drift.tolist()
    assert "reference=0" in repr(d)


def test_reference_of_several_periods_is_their_pooled_rows(backend):
    y, s, t = _stream(8, change=0.6, n=2000, days=5)
    got = indist_fast.over_time(y, s, t, reference=(0, 2 * DAY), n_boot=60, seed=2)
    d = got.drift
    assert d.reference == (0.0, float(DAY))
    pooled = t < 2 * DAY
    want = indist_fast.delong(y[pooled], s[pooled])
    np.testing.assert_allclose(d.auc_difference[2:], got.columns["auc"][2:] - want.auc,
                               rtol=1e-12)
    z = d.auc_difference[2:] / np.sqrt(got.columns["auc_std_error"][2:] ** 2 + want.variance)
    np.testing.assert_allclose(d.auc_z[2:], z, rtol=1e-12)
    assert np.isnan(d.auc_z[:2]).all() and np.isnan(d.precision_z[:2]).all()
    report = indist_fast.evaluate(y[pooled], s[pooled])
    np.testing.assert_allclose(d.precision_difference[2:],
                               got.columns["precision"][2:] - report.precision, rtol=1e-12)
    assert d.auc_drift[-1] and "to" in repr(d)
    with pytest.raises(ValueError, match="reference"):
        indist_fast.over_time(y, s, t, reference=(9 * DAY, 10 * DAY))
    with pytest.raises(ValueError, match="reference"):
        indist_fast.over_time(y, s, t, reference=(0, DAY, 2 * DAY))
