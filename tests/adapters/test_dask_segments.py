"""indist_fast.dask.evaluate with several scores or by=: evaluate_many's ReportTable on
the computed frame, the same columns, rows and values bit for bit."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.results.report_table import ReportTable
from reports import assert_reports_equal

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")


def assert_tables_equal(want, got, rtol=None):
    """Same columns in the same order, same dtypes, same values (NaN equal to NaN)."""
    assert isinstance(got, ReportTable)
    assert (got.by, got.levels, got.exclude_self) == (want.by, want.levels, want.exclude_self)
    assert list(got.columns) == list(want.columns)
    for name, a in want.columns.items():
        b = got.columns[name]
        assert a.dtype == b.dtype, name
        if a.dtype == object:
            assert a.tolist() == b.tolist(), name
        elif rtol is None or a.dtype.kind != "f":
            np.testing.assert_array_equal(b, a, err_msg=name)
        else:
            np.testing.assert_allclose(b, a, rtol=rtol, atol=rtol, err_msg=name)


def _quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return f(*args, **kwargs)


def both(frame, npartitions, **kwargs):
    """(evaluate_many on the frame, dask.evaluate on its partitions), synchronously."""
    ddf = dd.from_pandas(frame, npartitions=npartitions, sort=False)
    want = _quiet(indist_fast.evaluate_many, frame, **kwargs)
    with dask.config.set(scheduler="synchronous"):
        got = _quiet(indist_fast.dask.evaluate, ddf, **kwargs)
    return want, got


rng = np.random.default_rng(12)
N = 4_000


def _frame(n=N, seed=12):
    r = np.random.default_rng(seed)
    y = r.random(n) < 0.3
    return pd.DataFrame({
        "y": y,
        "m1": np.round(r.normal(size=n) + y, 1),            # ties within and across parts
        "m2": np.round(r.normal(size=n) + 0.5 * y, 2).astype(np.float32),
        "w": r.integers(0, 4, n).astype(float),
        "day": r.integers(-3, 5, n),
        "country": r.choice(["se", "de", "fr", "at"], n),
    })


FRAME = _frame()


@pytest.mark.slow
def test_on_a_cluster_equals_evaluate_many(client):
    ddf = dd.from_pandas(FRAME, npartitions=6)
    kwargs = dict(label="y", score=["m1", "m2"], by=["country", "day"], weight="w")
    got = _quiet(indist_fast.dask.evaluate, ddf, **kwargs)
    want = _quiet(indist_fast.evaluate_many, FRAME, **kwargs)
    # Worker processes may import another build than this process (CI runs the suite
    # from an unpacked sdist, whose source tree the workers import: the NumPy twin), so
    # sums may differ in the last bit here; in one process the tables are bit-identical.
    assert_tables_equal(want, got, rtol=1e-12)
    assert len(got) == 2 * FRAME.groupby(["country", "day"]).ngroups
    # The table's reports are the ones of the in-memory table, row by row.
    for i in (0, 7, len(got) - 1):
        segment = {name: got.columns[name][i] for name in got.by}
        model = got.columns["model"][i]
        assert_reports_equal(_quiet(got.report, model=model, **segment),
                             _quiet(want.report, model=model, **segment))


@pytest.mark.parametrize("by", ["country", "day", ["day", "country"], ["country", "day"]])
@pytest.mark.parametrize("weight", [None, "w"])
def test_one_or_several_by_columns(backend, by, weight):
    assert_tables_equal(*both(FRAME, 5, label="y", score=["m1", "m2"], by=by, weight=weight))


@pytest.mark.parametrize("score, by", [("m1", "country"), (["m2"], None),
                                       (["m2", "m1"], None), (["m1", "m2"], "day")])
def test_one_or_several_scores(backend, score, by):
    want, got = both(FRAME, 4, label="y", score=score, by=by)
    assert_tables_equal(want, got)
    assert got.columns["model"].tolist()[:len(score) if isinstance(score, list) else 1] == \
        ([score] if isinstance(score, str) else score)


def test_a_str_score_without_by_is_still_a_report():
    ddf = dd.from_pandas(FRAME, npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        got = indist_fast.dask.evaluate(ddf, label="y", score="m1")
    assert not isinstance(got, ReportTable)
    # (summed over score ranges: equal to rounding, as before this change)
    assert_reports_equal(got, indist_fast.evaluate(FRAME["y"], FRAME["m1"]))


def test_categorical_segments_sort_as_evaluate_many_sorts_them(backend):
    frame = FRAME.copy()
    # Categories in an order of their own, one of them unused: evaluate_many orders the
    # values, and a category no row holds is no segment.
    frame["country"] = pd.Categorical(frame["country"],
                                      categories=["se", "zz", "at", "fr", "de"])
    frame["num"] = pd.Categorical(frame["day"] + 10, categories=[14, 10, 11, 12, 13, 7,
                                                                 8, 9, 99])
    want, got = both(frame, 7, label="y", score=["m1"], by=["country", "num"], weight="w")
    assert_tables_equal(want, got)
    assert "zz" not in got.columns["country"].tolist()


def test_date_bool_and_float_segments(backend):
    frame = FRAME.assign(date=pd.Timestamp("2026-11-01") + pd.to_timedelta(FRAME["day"] + 3,
                                                                           unit="D"),
                         flag=FRAME["w"] > 1, level=FRAME["day"] / 2)
    for by in ("date", "flag", "level", ["date", "flag"]):
        assert_tables_equal(*both(frame, 4, label="y", score=["m1"], by=by))


def test_string_dtypes(backend):
    frame = FRAME.copy()
    frame["country"] = frame["country"].astype("string[pyarrow]")
    assert_tables_equal(*both(frame, 4, label="y", score=["m1", "m2"], by="country"))


def test_a_segment_in_one_partition_and_a_segment_of_one_class(backend):
    frame = _frame(600, seed=3)
    frame.loc[:9, "country"] = "only-first"                # a segment of partition 0 alone
    frame.loc[590:, "country"] = "positives"               # all in the last partition
    frame.loc[590:, "y"] = True
    want, got = both(frame, 3, label="y", score=["m1", "m2"], by="country")
    assert_tables_equal(want, got)
    i = got.columns["country"].tolist().index("positives")
    assert got.columns["one_class"][i] and np.isnan(got.columns["auc"][i])
    assert got.columns["n_rows"][got.columns["country"].tolist().index("only-first")] == 10
    ddf = dd.from_pandas(frame, npartitions=3, sort=False)
    with dask.config.set(scheduler="synchronous"):
        with pytest.warns(IndistFastWarning, match=r"^2 of 12 \(segment, model\) rows hold "
                                                   r"a single class"):
            indist_fast.dask.evaluate(ddf, label="y", score=["m1", "m2"], by="country")


def test_rows_of_weight_zero(backend):
    frame = _frame(900, seed=4)
    frame.loc[frame["country"] == "fr", "w"] = 0.0         # a segment of no weight
    frame.loc[:299, "w"] = 0.0                              # a partition of no weight
    want, got = both(frame, 3, label="y", score=["m1", "m2"], by="country", weight="w")
    assert_tables_equal(want, got)
    fr = got.columns["country"] == "fr"
    assert got.columns["one_class"][fr].all() and (got.columns["n_rows"][fr] > 0).all()


def test_ties_across_partitions(backend):
    frame = _frame(2_000, seed=5).sort_values("m1", kind="stable")   # runs of equal scores
    frame["m1"] = np.round(frame["m1"])                             # straddle the cuts
    want, got = both(frame, 9, label="y", score=["m1", "m2"], by="day", weight="w",
                     levels=(0.5, 0.55, 0.7), exclude_self=False)
    assert_tables_equal(want, got)


def test_dyadic_weights_are_exact_and_others_close(backend):
    frame = _frame(1_500, seed=6)
    frame["w"] = rng.integers(0, 9, len(frame)) / 4            # sums exact in float64
    assert_tables_equal(*both(frame, 5, label="y", score=["m1", "m2"], by="country",
                              weight="w"))
    # Other weights add in another order than in memory: equal to rounding.
    frame["w"] = rng.random(len(frame))
    want, got = both(frame, 5, label="y", score=["m1", "m2"], by="country", weight="w")
    assert_tables_equal(want, got, rtol=1e-12)


def test_pos_label_and_string_labels(backend):
    frame = FRAME.copy()
    frame["y"] = np.where(frame["y"], "churn", "stay")
    assert_tables_equal(*both(frame, 4, label="y", score=["m1", "m2"], by="country",
                              pos_label="churn"))


def test_empty_partitions_keep_the_segment_dtype(backend):
    frame = FRAME.copy()
    frame["country"] = pd.Categorical(frame["country"])
    frame["i"] = np.arange(len(frame))
    ddf = dd.from_pandas(frame, npartitions=6)
    kept = ddf[ddf["i"] >= 2_500]                   # the first partitions become empty
    want = _quiet(indist_fast.evaluate_many, frame[frame["i"] >= 2_500], label="y",
                  score=["m1"], by=["day", "country"])
    with dask.config.set(scheduler="synchronous"):
        got = _quiet(indist_fast.dask.evaluate, kept, label="y", score=["m1"],
                     by=["day", "country"])
    assert_tables_equal(want, got)


@pytest.mark.parametrize("n_ranges", [1, 3, 10_000])
def test_any_number_of_runs_gives_the_table(n_ranges):
    want, _ = both(FRAME, 2, label="y", score=["m1", "m2"], by=["country", "day"])
    ddf = dd.from_pandas(FRAME, npartitions=5)
    with dask.config.set(scheduler="synchronous"):
        got = _quiet(indist_fast.dask.evaluate, ddf, label="y", score=["m1", "m2"],
                     by=["country", "day"], n_ranges=n_ranges)
    assert_tables_equal(want, got)


@pytest.mark.slow
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 200), n_groups=st.integers(1, 12),
       npartitions=st.integers(1, 6), weighted=st.booleans(), exclude_self=st.booleans(),
       kind=st.sampled_from(["int", "str", "category", "two"]))
def test_random_frames_equal_evaluate_many(backend, seed, n, n_groups, npartitions, weighted,
                                           exclude_self, kind):
    r = np.random.default_rng(seed)
    y = r.random(n) < r.random()
    g = r.integers(0, n_groups, n) ** 2                     # gaps between the values
    frame = pd.DataFrame({"y": y, "a": np.round(r.normal(size=n), 1),
                          "b": np.round(r.normal(size=n) + y, 1),
                          "w": r.integers(0, 3, n).astype(float)})
    by = ["g"]
    if kind == "int":
        frame["g"] = g
    elif kind == "str":
        frame["g"] = np.array([f"s{v}" for v in g], dtype=object)
    elif kind == "category":
        frame["g"] = pd.Categorical([f"s{v}" for v in g])
    else:
        frame["g"], frame["h"] = g, r.choice(["x", "y"], n)
        by = ["h", "g"]
    want, got = both(frame, npartitions, label="y", score=["a", "b"], by=by,
                     weight="w" if weighted else None, exclude_self=exclude_self)
    assert_tables_equal(want, got)


# --- errors name the argument ----------------------------------------------------------

def _run(frame, npartitions=2, **kwargs):
    ddf = dd.from_pandas(frame, npartitions=npartitions, sort=False)
    with dask.config.set(scheduler="synchronous"):
        return indist_fast.dask.evaluate(ddf, **kwargs)


SMALL = pd.DataFrame({"y": [0, 1, 1, 0, 1, 0], "p": [.1, .9, .8, .3, .6, .2],
                      "q": [.5, .4, .9, .1, .8, .3], "g": ["a", "a", "b", "b", "c", "c"]})


@pytest.mark.parametrize("column, row", [
    (["a", None, "b", "b", "c", "c"], (0, 1)),
    ([1.0, 2.0, 2.0, 3.0, np.nan, 3.0], (1, 1)),
    (pd.array([1, 2, 2, 3, None, 3], dtype="Int64"), (1, 1)),
])
def test_missing_segment_values_name_the_column(column, row):
    # (dask may store the column in another dtype: None becomes <NA>, <NA> NaN)
    frame = SMALL.assign(country=column)
    with pytest.raises(ValueError, match=f"partition {row[0]}: country has a missing value "
                                         f"\\(.+\\) at row {row[1]};"):
        _run(frame, label="y", score=["p"], by="country")
    with pytest.raises(ValueError, match="country has a missing value"):
        indist_fast.evaluate_many(frame, label="y", score=["p"], by="country")


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(score=["p"], by="nope"), ValueError, "by: column 'nope' is not in the DataFrame"),
    (dict(score=["p", "nope"]), ValueError, "score: column 'nope' is not in the DataFrame"),
    (dict(score=[]), TypeError, "score must be a column name or a non-empty list"),
    (dict(score=["p", "p"]), ValueError, "score names a column twice"),
    (dict(score=["p"], by=[]), TypeError, "by must be a column name or a non-empty list"),
    (dict(score=["p"], by=[3]), TypeError, "by must be a column name"),
    (dict(score=["p"], by="auc"), ValueError, r"by: segment column name\(s\) \['auc'\]"),
    (dict(score=["p"], by="g", weight="nope"), ValueError, "weight: column 'nope'"),
])
def test_bad_columns_are_named(kwargs, error, message):
    frame = SMALL.assign(auc=1)
    with pytest.raises(error, match=message):
        _run(frame, label="y", **kwargs)


def test_row_errors_name_the_argument_and_partition(backend):
    frame = SMALL.copy()
    frame.loc[4, "q"] = np.nan
    with pytest.raises(ValueError, match=r"partition 1: y_score contains NaN \(first at "
                                         r"row 1\)"):
        _run(frame, label="y", score=["p", "q"], by="g")
    frame = SMALL.assign(y=[0, 1, 2, 0, 1, 0])
    with pytest.raises(ValueError, match=r"partition 0: y_true must be binary; found a third "
                                         r"label 2 at row 2 "):
        _run(frame, label="y", score=["p"], by="g")
    frame = SMALL.assign(w=[1.0, 1.0, 1.0, -1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="partition 1: sample_weight must be finite and "
                                         "non-negative"):
        _run(frame, label="y", score=["p"], by="g", weight="w")


def test_segment_values_of_mixed_types_are_refused_as_in_memory(backend):
    # Ints in one partition, strings in the other: refused on the client, as
    # evaluate_many refuses the whole column (no table column holds both).
    frame = pd.concat([SMALL, SMALL]).reset_index(drop=True)
    frame["g"] = [1, 2, 1, 2, 1, 2, "a", "b", "a", "b", "a", "b"]
    message = r"^g mixes values of types int and str \(e.g. 1 and 'a'\)"
    with pytest.raises(TypeError, match=message):
        indist_fast.evaluate_many(frame, label="y", score=["p", "q"], by="g")
    with dask.config.set({"dataframe.convert-string": False, "scheduler": "synchronous"}):
        ddf = dd.from_pandas(frame, npartitions=2, sort=False)
        with pytest.raises(TypeError, match=message):
            indist_fast.dask.evaluate(ddf, label="y", score=["p", "q"], by="g")


def test_partitions_of_two_label_codings_are_refused(backend):
    frame = pd.DataFrame({"y": [0, 1, 0, 1, 1, 0] + [-1, 1, -1, 1, 1, -1],
                          "p": np.linspace(0, 1, 12), "g": [1, 2] * 6})
    with pytest.raises(ValueError, match=r"y_true: this chunk codes labels \{-1, 1\} .* "
                                         r"earlier chunks coded them \{0, 1\}"):
        _run(frame, label="y", score=["p"], by="g")


def test_no_rows_at_all():
    ddf = dd.from_pandas(SMALL, npartitions=2)
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(ValueError, match=" and .* are empty: need at least one row"):
            indist_fast.dask.evaluate(ddf[ddf["p"] > 5], label="y", score=["p"], by="g")
    with pytest.raises(ValueError, match=" and .* are empty: need at least one row"):
        indist_fast.evaluate_many(SMALL[SMALL["p"] > 5], label="y", score=["p"], by="g")


def test_arrays_take_no_by():
    y = da.from_array(np.array([0, 1, 1, 0]), chunks=2)
    s = da.from_array(np.array([.1, .8, .6, .3]), chunks=2)
    with pytest.raises(TypeError, match="DataFrame columns, as does by="):
        indist_fast.dask.evaluate((y, s), by="g")


@pytest.mark.parametrize("score, by", [(["m1", "m2"], ["country", "day"]), ("m1", None),
                                       (["m2"], "day")])
def test_totals_over_all_rows(backend, score, by):
    want, got = both(FRAME, 4, label="y", score=score, by=by, weight="w", total=True)
    assert_tables_equal(want, got)
    models = [score] if isinstance(score, str) else score
    assert got.columns["model"][-len(models):].tolist() == models
    for name in got.by:
        assert got.columns[name][-len(models):].tolist() == [None] * len(models)


def test_total_is_a_flag():
    ddf = dd.from_pandas(SMALL, npartitions=2)
    with pytest.raises(TypeError, match="total"):
        indist_fast.dask.evaluate(ddf, label="y", score=["p"], total="yes")
