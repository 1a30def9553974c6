"""indist_fast.spark: the numbers of evaluate / evaluate_many / ScoreTable.from_arrays on
the collected rows, computed on Spark's executors.

Two parts. The stages (what runs in the executors and what the driver does with their
rows) on Arrow tables in this process, both backends, fast. Then Spark itself in local
mode (``local[2]``, one session for the module, marked slow: the JVM takes seconds to
start), skipped with the reason where Java or pyspark is missing.
"""

from __future__ import annotations

import os
import shutil
import sys
import warnings
import zlib

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning, ScoreTable
from children import CHILD_CWD, PACKAGE_ROOT
from reports import assert_reports_equal

pa = pytest.importorskip("pyarrow")
# (the stages run without pyspark, which the package imports only where a session is
# used: they belong to the README's suite, where the spark extra is not installed)
spark_module = pytest.importorskip("indist_fast.spark")
from indist_fast.spark import (_Spec, _combine_passes, _partial_tables,  # noqa: E402
                               _range_pass, _reduce_sweeps, _reduce_tables, _report_table,
                               _score_tables)
from indist_fast.table.score_table import DEFAULT_LEVELS  # noqa: E402

# pyspark warns that it does not support pandas 3 when a frame is made from pandas (the
# tests' way to build small frames) or a Python function is mapped.
pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning")


def assert_tables_equal(want, got, rtol=None):
    """Same columns in the same order, same dtypes, same values (NaN equal to NaN)."""
    assert (got.by, got.levels, got.exclude_self) == (want.by, want.levels, want.exclude_self)
    assert list(got.columns) == list(want.columns)
    for name, a in want.columns.items():
        b = got.columns[name]
        if a.dtype == object or name in want.by:
            assert a.tolist() == b.tolist(), name
        elif rtol is None or a.dtype.kind != "f":
            assert a.dtype == b.dtype, name
            np.testing.assert_array_equal(b, a, err_msg=name)
        else:
            np.testing.assert_allclose(b, a, rtol=rtol, atol=rtol, err_msg=name)


def assert_score_tables_equal(want, got, exact=True):
    np.testing.assert_array_equal(got.scores, want.scores)
    assert got.pos.dtype == want.pos.dtype and got.n_rows == want.n_rows
    for a, b in ((got.pos, want.pos), (got.neg, want.neg)):
        if exact:
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12)
    assert got.coding == want.coding


def quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return f(*args, **kwargs)


def frame(n=3000, seed=3, weights="int"):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    columns = {"y": y,
               "m1": np.round(rng.random(n) + 0.3 * y, 2),          # ties
               "m2": rng.normal(size=n) + 0.5 * y,                  # distinct
               "country": rng.choice(["de", "fr", "se"], n),
               "tier": rng.integers(1, 4, n)}
    if weights == "int":
        columns["w"] = rng.integers(0, 4, n).astype(np.float64)     # zero weights too
    elif weights == "float":
        columns["w"] = rng.random(n) * 3
    return pa.table(columns)


# ---- the stages, in this process -------------------------------------------------------

def _spec(label="y", models=("m1", "m2"), weight=None, by=(), pos_label=None,
          levels=DEFAULT_LEVELS, splitters=()):
    return _Spec(label, tuple(models), weight, tuple(by), pos_label, tuple(levels), True,
                 tuple(splitters))


def _shuffled(table, spec, n_parts, n_reducers, reducer):
    """What Spark does around the stages: rows cut into partitions, step 1 on each, the
    entries hashed to reducers by (segment, model, range), the reducer on each."""
    bounds = np.linspace(0, table.num_rows, n_parts + 1).astype(int)
    pieces = [b for lo, hi in zip(bounds[:-1], bounds[1:])
              for b in _partial_tables(spec, iter(table.slice(lo, hi - lo).to_batches()))]
    entries = pa.Table.from_batches(pieces)
    # (Spark sends the pieces of a map task in no promised order)
    entries = entries.take(np.random.default_rng(0).permutation(entries.num_rows))
    keys = list(zip(*(entries.column(c).to_pylist() for c in [*spec.by, "_model", "_range"])))
    target = np.array([zlib.crc32(repr(k).encode()) % n_reducers for k in keys])
    out = [b for r in range(n_reducers)
           for b in reducer(spec, iter(entries.filter(pa.array(target == r)).to_batches()))]
    return pa.Table.from_batches(out)


@pytest.mark.parametrize("by", [(), ("country",), ("country", "tier")])
@pytest.mark.parametrize("weight", [None, "w"])
def test_stages_give_evaluate_many(backend, by, weight):
    table = frame()
    spec = _spec(weight=weight, by=by)
    want = quiet(indist_fast.evaluate_many, table, label="y", score=["m1", "m2"],
                 by=list(by) or None, weight=weight)
    got = _report_table(_shuffled(table, spec, 4, 3, _reduce_sweeps), spec)
    assert_tables_equal(want, got)


def test_stages_give_score_tables(backend, monkeypatch):
    monkeypatch.setattr(spark_module, "_PIECE", 37)       # tables travel in many pieces
    table = frame()
    spec = _spec(weight="w", by=("country",))
    got = _score_tables(_shuffled(table, spec, 5, 2, _reduce_tables), spec)
    assert list(got) == [(c, m) for c in ("de", "fr", "se") for m in ("m1", "m2")]
    for (country, model), t in got.items():
        rows = table.filter(pa.compute.equal(table["country"], country))
        assert_score_tables_equal(
            ScoreTable.from_arrays(rows["y"].to_numpy(), rows[model].to_numpy(),
                                   rows["w"].to_numpy()), t)


@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_stages_by_score_ranges(backend, weights, monkeypatch):
    """One model swept in score ranges: the three passes give evaluate's report, to
    rounding (the ranges' shares of AUC and AP are summed apart), and the joined
    ranges give the table."""
    monkeypatch.setattr(spark_module, "_PIECE", 101)
    table = frame(weights=weights or "int")
    weight = None if weights is None else "w"
    scores = table["m2"].to_numpy()
    cuts = tuple(np.quantile(scores, [0.8, 0.5, 0.2, 0.1]).tolist()) + (-50.0,)
    spec = _spec(models=("m2",), weight=weight, splitters=cuts)
    merged = _shuffled(table, spec, 4, 3, _reduce_tables)

    def run(step, given):
        return pa.Table.from_batches(list(_range_pass(spec, step, given,
                                                      iter(merged.to_batches()))))
    meta = merged.drop_columns(["_table"])
    sweep, n_rows = _combine_passes(meta, run, 3)
    got = quiet(indist_fast.Report.from_sweep, sweep, spec.levels, n_rows, True)
    want = quiet(indist_fast.evaluate, table, label="y", score="m2", weight=weight)
    assert_reports_equal(want, got, rel=1e-12)
    assert got.n_rows == want.n_rows and got.threshold == want.threshold
    (t,) = _score_tables(merged, spec).values()
    assert_score_tables_equal(ScoreTable.from_arrays(
        table["y"].to_numpy(), scores, None if weight is None else table["w"].to_numpy()), t,
        exact=weights != "float")


@pytest.mark.parametrize("by", [(), ("country",)])
def test_stage_names_the_bad_row(by):
    table = frame(n=50)
    s = table["m2"].to_numpy().copy()
    s[17] = np.nan
    bad = table.set_column(2, "m2", pa.array(s))
    m1 = repr(table["m1"][17].as_py())
    with pytest.raises(ValueError, match=rf"score column 'm2' contains NaN .*row 17 of a "
                                         rf"partition: \{{'y': .*'m1': {m1}, 'm2': nan"):
        list(_partial_tables(_spec(by=by), iter(bad.to_batches())))


# ---- Spark, local mode ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark", reason="needs pyspark: pip install 'indist-fast[spark]'")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("needs Java for Spark (Debian: apt-get install openjdk-17-jre-headless)")
    from pyspark.sql import SparkSession
    # The executors' Python is the one running the tests, and imports the package under
    # test (the in-place build, or the installed wheel when the checkout has no
    # kernels: CI's way) rather than the checkout's uncompiled tree.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    # The workers start as `python -m pyspark.daemon` in the JVM's folder, and -m puts
    # that folder first on their path: the JVM starts in the package's folder, as every
    # child of the tests does (tests/children.py), not in the checkout.
    here = os.getcwd()
    os.chdir(CHILD_CWD)
    try:
        session = (SparkSession.builder.master("local[2]").appName("indist_fast tests")
                   .config("spark.ui.enabled", "false")
                   .config("spark.ui.showConsoleProgress", "false")
                   .config("spark.sql.shuffle.partitions", "4")
                   .config("spark.executorEnv.PYTHONPATH",
                           os.pathsep.join([PACKAGE_ROOT, os.environ.get("PYTHONPATH", "")]))
                   .getOrCreate())
    finally:
        os.chdir(here)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def spark_frame(spark, table, n_partitions=3):
    return spark.createDataFrame(table.to_pandas()).repartition(n_partitions)


def collected(df):
    return df.toArrow()


@pytest.mark.slow
def test_executors_use_the_compiled_kernels(spark):
    def probe(batches):
        import indist_fast as package
        for _ in batches:
            pass
        yield pa.RecordBatch.from_pydict({"backend": [package.backend()],
                                          "path": [package.__file__]})
    got = spark.range(4, numPartitions=2).mapInArrow(probe, "backend string, path string")
    rows = got.toArrow().to_pylist()
    assert {r["backend"] for r in rows} == {"cython"}
    assert {r["path"] for r in rows} == {os.path.abspath(indist_fast.__file__)}


@pytest.mark.slow
def test_one_score(spark):
    df = spark_frame(spark, frame(weights=None))
    rows = collected(df)
    for model in ("m1", "m2"):
        got = quiet(spark_module.evaluate, df, label="y", score=model)
        want = quiet(indist_fast.evaluate, rows, label="y", score=model)
        assert_reports_equal(want, got, rel=1e-12)
        assert got.threshold == want.threshold and got.n_rows == want.n_rows


@pytest.mark.slow
@pytest.mark.parametrize("by", [None, "country", ["country", "tier"]])
def test_several_scores_and_segments(spark, by):
    df = spark_frame(spark, frame())
    rows = collected(df)
    for weight in (None, "w"):
        want = quiet(indist_fast.evaluate_many, rows, label="y", score=["m1", "m2"], by=by,
                     weight=weight)
        got = quiet(spark_module.evaluate, df, label="y", score=["m1", "m2"], by=by,
                    weight=weight)
        assert_tables_equal(want, got)                 # integer weights: bit for bit
        segment = {} if by is None else {"country": "se", "tier": 2}
        segment = {k: v for k, v in segment.items() if k in ([by] if isinstance(by, str)
                                                               else by or [])}
        assert_reports_equal(quiet(want.report, model="m2", **segment),
                             quiet(got.report, model="m2", **segment), rel=0)


@pytest.mark.slow
def test_float_weights_and_totals(spark):
    df = spark_frame(spark, frame(weights="float"))
    rows = collected(df)
    want = quiet(indist_fast.evaluate_many, rows, label="y", score=["m1", "m2"], by="country",
                 weight="w", total=True)
    got = quiet(spark_module.evaluate, df, label="y", score=["m1", "m2"], by="country",
                weight="w", total=True)
    assert_tables_equal(want, got, rtol=1e-12)
    assert got.columns["country"].tolist()[-2:] == [None, None]
    r = quiet(spark_module.evaluate, df, label="y", score="m2", weight="w")
    assert_reports_equal(quiet(indist_fast.evaluate, rows, label="y", score="m2", weight="w"), r)


@pytest.mark.slow
def test_string_labels_with_pos_label(spark):
    table = frame(weights=None)
    labels = np.where(table["y"].to_numpy() == 1, "fraud", "ok")
    table = table.set_column(0, "y", pa.array(labels))
    df = spark_frame(spark, table)
    rows = collected(df)
    got = quiet(spark_module.evaluate, df, label="y", score="m1", pos_label="fraud")
    assert_reports_equal(quiet(indist_fast.evaluate, rows, label="y", score="m1",
                               pos_label="fraud"),
                         got)
    t = spark_module.evaluate(df, label="y", score=["m1", "m2"], by="tier", pos_label="fraud")
    assert_tables_equal(indist_fast.evaluate_many(rows, label="y", score=["m1", "m2"],
                                                  by="tier", pos_label="fraud"), t)
    with pytest.raises(ValueError, match="label column 'y'.*pos_label|pos_label.*label "
                                         "column 'y'|y_true|label column"):
        spark_module.evaluate(df, label="y", score="m1")


@pytest.mark.slow
def test_score_tables(spark):
    table = frame()
    df = spark_frame(spark, table)
    rows = collected(df)
    t = spark_module.score_table(df, label="y", score="m2", weight="w")
    assert_score_tables_equal(ScoreTable.from_arrays(rows["y"].to_numpy(), rows["m2"].to_numpy(),
                                                     rows["w"].to_numpy()), t)
    per = spark_module.score_table(df, label="y", score=["m1", "m2"], by="tier")
    assert list(per) == [(k, m) for k in (1, 2, 3) for m in ("m1", "m2")]
    tier = rows["tier"].to_numpy()
    for (k, m), got in per.items():
        keep = tier == k
        assert_score_tables_equal(ScoreTable.from_arrays(rows["y"].to_numpy()[keep],
                                                         rows[m].to_numpy()[keep]), got)


@pytest.mark.slow
def test_a_million_distinct_scores_in_a_segment(spark):
    rng = np.random.default_rng(5)
    n = 1_000_000
    y = rng.integers(0, 2, n)
    table = pa.table({"y": y, "s": rng.normal(size=n) + y, "g": np.zeros(n, np.int64)})
    df = spark.createDataFrame(table.to_pandas()).repartition(4)
    rows = collected(df)
    assert len(np.unique(rows["s"].to_numpy())) > 999_000
    got = quiet(spark_module.evaluate, df, label="y", score=["s"], by="g")
    # (evaluate_many sweeps rows, the executors tables: AP's sum rounds apart at this size)
    assert_tables_equal(quiet(indist_fast.evaluate_many, rows, label="y", score=["s"], by="g"),
                        got, rtol=1e-12)
    r = quiet(spark_module.evaluate, df, label="y", score="s")
    want = quiet(indist_fast.evaluate, rows, label="y", score="s")
    assert_reports_equal(want, r, rel=1e-12)
    assert r.threshold == want.threshold


@pytest.mark.slow
@pytest.mark.parametrize("column, value, message", [
    ("m2", np.nan, r"score column 'm2' contains NaN"),
    ("y", 2, r"label column 'y' must be binary; found a third label 2"),
    ("w", -1.0, r"weight column 'w' must be finite and non-negative; found -1.0"),
    ("country", None, r"country has a missing value \(None\)"),
])
def test_bad_rows_named(spark, column, value, message):
    table = frame(n=400)
    values = table[column].to_pylist()
    values[123] = value
    bad = table.set_column(table.column_names.index(column), column,
                           pa.array(values, table[column].type))
    df = spark_frame(spark, bad, 2)
    with pytest.raises(ValueError, match=message) as info:
        spark_module.evaluate(df, label="y", score=["m1", "m2"], by="country", weight="w")
    # the row, by its values (its number in a Spark partition means little)
    assert "of Spark partition" in str(info.value)
    assert f"'m1': {table['m1'][123].as_py()!r}" in str(info.value)


@pytest.mark.slow
def test_partitions_of_two_label_codings_refused(spark):
    a = pa.table({"y": [0, 1, 0, 1], "s": [.1, .9, .2, .8]})
    b = pa.table({"y": [-1, 1, -1, 1], "s": [.3, .7, .4, .6]})
    df = spark.createDataFrame(a.to_pandas()).union(spark.createDataFrame(b.to_pandas()))
    with pytest.raises(ValueError, match="label column 'y'.*codes labels"):
        spark_module.evaluate(df, label="y", score=["s"])


@pytest.mark.slow
def test_bad_arguments(spark):
    df = spark_frame(spark, frame(n=20), 1)
    with pytest.raises(TypeError, match="df must be a pyspark.sql.DataFrame"):
        spark_module.evaluate(frame(n=20), label="y", score="m1")
    with pytest.raises(ValueError, match="nope"):
        spark_module.evaluate(df, label="y", score="nope")
    with pytest.raises(ValueError, match="_model"):
        spark_module.evaluate(df.withColumnRenamed("country", "_model"), label="y",
                              score="m1", by="_model")
    with pytest.raises(ValueError, match="n_partitions"):
        spark_module.evaluate(df, label="y", score="m1", n_partitions=0)
    with pytest.raises(ValueError, match="no rows"):
        spark_module.evaluate(df.filter("y > 5"), label="y", score=["m1"])
    with pytest.raises(ValueError, match="no rows"):
        spark_module.score_table(df.filter("y > 5"), label="y", score="m1")


@pytest.mark.slow
def test_one_class_segment_warns_as_evaluate_many(spark):
    table = pa.table({"y": [0, 1, 0, 1, 1, 1], "s": [.1, .9, .2, .8, .5, .6],
                      "g": ["a", "a", "a", "a", "b", "b"]})
    df = spark.createDataFrame(table.to_pandas())
    with pytest.warns(IndistFastWarning, match="1 of 2 .*single class"):
        got = spark_module.evaluate(df, label="y", score=["s"], by="g")
    assert got.columns["one_class"].tolist() == [False, True]
