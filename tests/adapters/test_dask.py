"""indist_fast.dask on a LocalCluster of worker processes equals in-memory evaluate."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import indist_fast
from reports import assert_reports_equal
from indist_fast.scale.ranges import split_table, sweep_ranges
from indist_fast.results.report import Report
from indist_fast.table.score_table import ScoreTable, with_main_level

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

rng = np.random.default_rng(8)
N = 60_000
Y = rng.random(N) < 0.3
S = np.round(rng.normal(size=N) + Y, 1)           # heavy ties straddle partitions
W = rng.integers(0, 4, N).astype(float)


@pytest.mark.slow
@pytest.mark.parametrize("weighted", [False, True])
def test_dataframe_on_a_cluster_equals_in_memory(client, weighted):
    frame = pd.DataFrame({"y": Y, "p": S, "w": W})
    ddf = dd.from_pandas(frame, npartitions=7)
    w = "w" if weighted else None
    got = indist_fast.dask.evaluate(ddf, label="y", score="p", weight=w)
    want = indist_fast.evaluate(Y, S, sample_weight=W if weighted else None)
    assert_reports_equal(got, want)
    assert got.n_rows == N


@pytest.mark.slow
def test_arrays_on_a_cluster_equal_in_memory(client):
    y = da.from_array(Y.astype(np.int8), chunks=9_000)
    s = da.from_array(S, chunks=11_000)                 # rechunked to the labels'
    got = indist_fast.dask.evaluate((y, s), n_ranges=5)
    assert_reports_equal(got, indist_fast.evaluate(Y, S))


def test_ranges_locally_on_both_backends(backend):
    table = ScoreTable.from_arrays(Y, S, W)
    for splitters in ([], [0.5], np.quantile(S, [0.99, 0.7, 0.2])[::-1][::-1]):
        pieces = split_table(table, np.sort(np.asarray(splitters))[::-1])
        assert sum(len(p) for p in pieces) == len(table)
        result = sweep_ranges(pieces, with_main_level((0.4, 0.5, 0.6)), True)
        assert_reports_equal(Report.from_sweep(result, (0.4, 0.5, 0.6), table.n_rows, True),
             indist_fast.evaluate(Y, S, sample_weight=W))


def test_dataframe_needs_columns():
    ddf = dd.from_pandas(pd.DataFrame({"y": Y[:10], "p": S[:10]}), npartitions=2)
    with pytest.raises(ValueError, match="score: column 'q' is not in the DataFrame"):
        indist_fast.dask.evaluate(ddf, label="y", score="q")
    with pytest.raises(ValueError, match="needs the label and score column names"):
        indist_fast.dask.evaluate(ddf)


# --- label coding across partitions, collection types -----------

def _frame(labels, npartitions):
    n = len(labels)
    frame = pd.DataFrame({"y": labels, "p": np.round(rng.normal(size=n), 1)})
    return frame, dd.from_pandas(frame, npartitions=npartitions, sort=False)


# Two partitions of 6 rows: the second codes its labels differently from the first.
MIXED = [
    ([0, 1, 0, 1, 1, 0] + [-1, 1, -1, 1, 1, -1], None,
     r"\{-1, 1\} .* earlier chunks coded them \{0, 1\}"),
    (["a", "b", "a", "b", "b", "a"] + ["c"] * 6, "b",
     r"\{'c', 'b'\} .* earlier chunks coded them \{'a', 'b'\}"),
]


@pytest.mark.parametrize("labels, pos_label, message", MIXED)
def test_partitions_of_two_codings_are_refused(backend, labels, pos_label, message):
    _, ddf = _frame(labels, 2)
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(ValueError, match=f"y_true: this chunk codes labels {message}"):
            indist_fast.dask.evaluate(ddf, label="y", score="p", pos_label=pos_label)


def test_arrays_of_two_codings_are_refused(backend):
    y = da.from_array(np.array([0, 1, 1, 0, -1, 1, 1, -1]), chunks=4)
    s = da.from_array(S[:8], chunks=4)
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(ValueError, match=r"y_true: this chunk codes labels \{-1, 1\}"):
            indist_fast.dask.evaluate((y, s))


def test_partitions_of_two_codings_are_refused_on_a_cluster(client):
    _, ddf = _frame(MIXED[0][0] * 3, 6)
    with pytest.raises(ValueError, match=r"y_true: this chunk codes labels"):
        indist_fast.dask.evaluate(ddf, label="y", score="p")


def test_a_partition_of_positives_only_leaves_the_negative_open(backend):
    labels = [1] * 6 + [-1, 1, -1, -1, 1, -1] + [1, -1] * 3
    frame, ddf = _frame(labels, 3)
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
        got = indist_fast.dask.evaluate(ddf, label="y", score="p")
        want = indist_fast.evaluate(frame["y"].to_numpy(), frame["p"].to_numpy())
    assert_reports_equal(got, want)


def test_empty_partitions_hold_no_rows(backend):
    frame = pd.DataFrame({"y": Y[:3000], "p": S[:3000], "w": W[:3000],
                          "i": np.arange(3000)})
    ddf = dd.from_pandas(frame, npartitions=6)
    kept = ddf[ddf["i"] >= 1500]                   # the first partitions become empty
    assert (kept.map_partitions(len).compute(scheduler="synchronous") == 0).any()
    want = frame[frame["i"] >= 1500]
    with dask.config.set(scheduler="synchronous"):
        got = indist_fast.dask.evaluate(kept, label="y", score="p", weight="w")
    assert_reports_equal(got, indist_fast.evaluate(want["y"], want["p"],
                                                   sample_weight=want["w"]))


@pytest.mark.parametrize("collection, error, message", [
    (5, TypeError, "collection must be a dask DataFrame or a tuple .* got int"),
    ([1, 2], TypeError, "collection must be a dask DataFrame .* got list"),
    (pd.DataFrame({"y": [0, 1], "p": [0.1, 0.2]}), TypeError, "got DataFrame"),
    ((1, 2), TypeError, "collection: y_true must be a dask array, got int"),
    ((da.zeros(4),), ValueError, r"collection: pass dask arrays as \(y, score\)"),
    ((da.zeros(4), np.zeros(4)), TypeError, "y_score must be a dask array, got ndarray"),
    ((da.zeros(4), da.zeros(5)), ValueError, r"inconsistent numbers of samples: \[4, 5\]"),
    ((da.zeros(4), da.zeros(4), da.ones(3)), ValueError, r"\[4, 4, 3\] \(y_true, y_score, "
                                                          r"sample_weight\)"),
    ((da.zeros((4, 2)), da.zeros(4)), ValueError, r"y_true should be a 1d array.*\(4, 2\)"),
])
def test_collection_of_the_wrong_kind(collection, error, message):
    columns = {} if isinstance(collection, tuple) else {"label": "y", "score": "p"}
    with pytest.raises(error, match=message):
        indist_fast.dask.evaluate(collection, **columns)


@pytest.mark.parametrize("column", ["label", "score", "weight"])
def test_column_names_with_arrays_are_refused(column):
    arrays = (da.from_array(np.array([0, 1])), da.from_array(np.array([0.2, 0.4])))
    with pytest.raises(TypeError, match="weight= name DataFrame columns"):
        indist_fast.dask.evaluate(arrays, **{column: "w"})


def test_arrays_of_unknown_length():
    y = da.from_array(np.array([0, 1, 1, 0]), chunks=2)
    unknown = y[y >= 0]                             # boolean indexing loses the chunk sizes
    with pytest.raises(ValueError, match="collection: .* unknown chunk sizes"):
        indist_fast.dask.evaluate((unknown, unknown.astype(float)))


@pytest.mark.parametrize("n_ranges", [2, 5, 8])
def test_infinite_scores_do_not_make_ranges_overlap(backend, n_ranges):
    # Interpolated splitters between inf and -inf were NaN; the NaN cut made ranges
    # overlap and counted rows twice.
    y = np.arange(40) % 3 == 0
    s = np.round(rng.normal(size=40), 2)
    s[:20], s[20:30] = np.inf, -np.inf
    ddf = dd.from_pandas(pd.DataFrame({"y": y, "p": s}), npartitions=8)
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
        got = indist_fast.dask.evaluate(ddf, label="y", score="p", n_ranges=n_ranges)
        want = indist_fast.evaluate(y, s)
    assert_reports_equal(got, want)


def test_text_scores_name_y_score(backend):
    ddf = dd.from_pandas(pd.DataFrame({"y": [0, 1, 0, 1], "p": list("abcd")}), npartitions=2)
    with dask.config.set(scheduler="synchronous"):
        with pytest.raises(TypeError, match="y_score must hold real numbers"):
            indist_fast.dask.evaluate(ddf, label="y", score="p")


@pytest.mark.parametrize("name, value, error", [
    ("n_ranges", 0, ValueError), ("n_ranges", -3, ValueError), ("n_ranges", 2.0, TypeError),
    ("n_ranges", "4", TypeError), ("n_ranges", 10**9, ValueError),
    ("n_ranges", True, TypeError),
    ("sample_per_partition", 0, ValueError), ("sample_per_partition", -1, ValueError),
    ("sample_per_partition", 100.0, TypeError), ("sample_per_partition", "9", TypeError),
    ("sample_per_partition", 10**9, ValueError),
    ("exclude_self", "no", TypeError), ("exclude_self", None, TypeError),
])
def test_count_and_flag_arguments_are_checked_first(name, value, error):
    # Checked before any task runs: 10**9 ranges once allocated 7.5 GB of splitters.
    y = da.from_array(Y[:100].astype(np.int8), chunks=50)
    s = da.from_array(S[:100], chunks=50)
    with pytest.raises(error, match=name):
        indist_fast.dask.evaluate((y, s), **{name: value})


@pytest.mark.slow
def test_count_arguments_at_their_bounds(backend):
    y = da.from_array(Y[:2000].astype(np.int8), chunks=500)
    s = da.from_array(S[:2000], chunks=500)
    want = indist_fast.evaluate(Y[:2000], S[:2000])
    for kwargs in ({"n_ranges": 1, "sample_per_partition": 1},
                   {"n_ranges": 10_000, "sample_per_partition": 1_000_000}):
        with dask.config.set(scheduler="synchronous"):
            assert_reports_equal(indist_fast.dask.evaluate((y, s), **kwargs), want)
