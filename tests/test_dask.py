"""indist_fast.dask on a LocalCluster of worker processes equals in-memory evaluate."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import indist_fast
from reports import assert_reports_equal
from indist_fast.ranges import split_table, sweep_ranges
from indist_fast.report import Report
from indist_fast.table import ScoreTable, with_main_level

dd = pytest.importorskip("dask.dataframe")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

rng = np.random.default_rng(8)
N = 60_000
Y = rng.random(N) < 0.3
S = np.round(rng.normal(size=N) + Y, 1)           # heavy ties straddle partitions
W = rng.integers(0, 4, N).astype(float)


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        c = distributed.Client(cluster)
    yield c
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c.close()
        cluster.close()


@pytest.mark.parametrize("weighted", [False, True])
def test_dataframe_on_a_cluster_equals_in_memory(client, weighted):
    frame = pd.DataFrame({"y": Y, "p": S, "w": W})
    ddf = dd.from_pandas(frame, npartitions=7)
    w = "w" if weighted else None
    got = indist_fast.dask.evaluate(ddf, label="y", score="p", weight=w)
    want = indist_fast.evaluate(Y, S, sample_weight=W if weighted else None)
    assert_reports_equal(got, want)
    assert got.n_rows == N


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
