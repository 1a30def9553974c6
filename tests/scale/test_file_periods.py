"""``evaluate_file(time=, freq=)``: the file's table by period is ``over_time`` on its
columns, in memory (drift included) and out of core (metrics alone), and with segments
``evaluate_many`` by (period, segment)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.results.report_table import REPORT_COLUMNS

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

rng = np.random.default_rng(3)
N = 20_000
FRAME = pd.DataFrame({"y": rng.integers(0, 2, N),
                      "p": np.round(rng.normal(size=N), 2),
                      "ts": pd.Timestamp("2024-01-01") + pd.to_timedelta(
                          rng.integers(0, 20 * 86400, N), unit="s"),
                      "seg": rng.choice(["a", "b"], N)})
FRAME["p"] += FRAME["y"]


@pytest.fixture(scope="module", params=["parquet", "csv"])
def path(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("logs") / f"log.{request.param}"
    if request.param == "parquet":
        FRAME.to_parquet(out, row_group_size=4000)
    else:
        FRAME.to_csv(out, index=False)
    return str(out)


def _equal(got, want, names):
    for name in names:
        a, b = np.asarray(got.columns[name]), np.asarray(want.columns[name])
        if a.dtype.kind == "f":
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=0, err_msg=name)
        else:
            assert a.tolist() == b.tolist(), name


def test_in_memory_is_over_time(path, backend):
    got = indist_fast.evaluate_file(path, label="y", score="p", time="ts", freq="1D",
                                    progress=False)
    want = indist_fast.over_time(FRAME, label="y", score="p", time="ts", freq="1D")
    assert got.by == ("period",) and len(got) == 20
    _equal(got, want, ("period",) + REPORT_COLUMNS + ("auc_std_error", "drift_auc"))
    assert got.drift.tests == want.drift.tests


def test_out_of_core_is_the_same_table_without_drift(path):
    got = indist_fast.evaluate_file(path, label="y", score="p", time="ts", freq="1D",
                                    memory_limit="400KB", progress=False)
    want = indist_fast.over_time(FRAME, label="y", score="p", time="ts", freq="1D")
    assert got.drift is None and "drift_auc" not in got.columns
    _equal(got, want, ("period",) + REPORT_COLUMNS)
    p = want.columns["period"][3]
    assert got.report(period=p).auc == want.report(period=p).auc


def test_with_segments_is_evaluate_many_by_period_and_segment(path):
    got = indist_fast.evaluate_file(path, label="y", score=["p"], time="ts", by="seg",
                                    freq="1W", progress=False)
    period = FRAME["ts"].dt.to_period("W").dt.start_time.to_numpy().astype("datetime64[s]")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        want = indist_fast.evaluate_many(FRAME["y"], {"p": FRAME["p"]},
                                         groups={"period": period, "seg": FRAME["seg"]})
    assert got.by == ("period", "seg")
    _equal(got, want, ("period", "seg") + REPORT_COLUMNS)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"freq": "1M"}, ValueError, "freq"),
    ({"time": 3}, TypeError, "time"),
    ({"time": "ts", "by": "ts"}, ValueError, "by"),
    ({"time": "nope"}, ValueError, "nope"),
    ({"time": "seg"}, TypeError, "time"),
])
def test_bad_time_arguments_are_named(path, kwargs, error, words):
    args = {"time": "ts", **kwargs}
    with pytest.raises(error) as info:
        indist_fast.evaluate_file(path, label="y", score="p", progress=False, **args)
    assert words in str(info.value)


def test_npz_datetimes_and_seconds(tmp_path):
    y, p = FRAME["y"].to_numpy(), FRAME["p"].to_numpy()
    ts = FRAME["ts"].to_numpy().astype("datetime64[s]")
    path = tmp_path / "log.npz"
    np.savez(path, y=y, p=p, ts=ts, secs=ts.astype(np.int64))
    want = indist_fast.over_time(y, p, ts, freq="6h")
    for column in ("ts", "secs"):
        got = indist_fast.evaluate_file(path, label="y", score="p", time=column, freq="6h",
                                        progress=False)
        _equal(got, want, REPORT_COLUMNS)
    got = indist_fast.evaluate_file(path, label="y", score="p", time="secs", freq="6h",
                                    progress=False)
    assert got.columns["period"].tolist() == want.columns["period"].astype(np.int64).tolist()


@pytest.mark.parametrize("limit", [None, "400KB"])
def test_the_model_is_the_score_column_and_a_missing_time_column_is_named_time(path, limit):
    got = indist_fast.evaluate_file(path, label="y", score="p", time="ts", freq="1D",
                                    memory_limit=limit, progress=False)
    assert set(np.asarray(got.columns["model"]).tolist()) == {"p"}
    with pytest.raises(ValueError, match=r"^time: column 'tss'"):
        indist_fast.evaluate_file(path, label="y", score="p", time="tss", freq="1D",
                                  memory_limit=limit, progress=False)


def test_over_time_of_a_table_names_the_model_after_its_score_column():
    got = indist_fast.over_time(FRAME, label="y", score="p", time="ts", freq="1D")
    assert set(np.asarray(got.columns["model"]).tolist()) == {"p"}
