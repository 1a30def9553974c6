"""``evaluate_file``, ``score_table_file`` and the CLI on URIs of an object store: a local
S3-compatible server (moto's, on 127.0.0.1) holding copies of datasets written to
disk (hive-partitioned Parquet, ``.csv.gz`` under hive folders, a Feather file).

Each result read from the store is held to the same call on the disk copy, and that
to an oracle computed from the columns in memory (scikit-learn's AUC, the table of
``ScoreTable.from_arrays``); the store's objects are the same before and after (nothing
written there, out of core included). Errors (a missing key or bucket, an unreachable
endpoint, a local-only format) name ``path`` and come within seconds.
"""

from __future__ import annotations

import gzip
import json
import os
import time

import numpy as np
import pytest

import moto_s3
from indist_fast import ScoreTable, evaluate_file, score_table_file

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")
pafs = pytest.importorskip("pyarrow.fs")
feather = pytest.importorskip("pyarrow.feather")

BUCKET = "indist-logs"
N = 6_000


def frame(n=N, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame({
        "y": y,
        "p": np.round(0.4 * y + 0.6 * rng.random(n), 3),      # ties
        "q": rng.random(n).astype(np.float32),
        "w": rng.choice([0.0, 0.5, 1.0, 2.0], n),               # zero weights
        "day": rng.integers(1, 4, n),
        "region": rng.choice(["north", "south"], n),
    })


def write_tree(root: str, df) -> None:
    """The datasets on disk, as the store gets them."""
    import pyarrow.dataset as ds
    table = pa.Table.from_pandas(df, preserve_index=False)
    ds.write_dataset(table, os.path.join(root, "logs"), format="parquet",
                     partitioning=["day"], partitioning_flavor="hive",
                     max_rows_per_file=1500, max_rows_per_group=500)
    with open(os.path.join(root, "logs", "_SUCCESS"), "w"):
        pass                                              # skipped, as on disk
    for region, part in df.groupby("region"):
        folder = os.path.join(root, "csv", f"region={region}")
        os.makedirs(folder)
        rows = part.drop(columns="region")
        for k, chunk in enumerate((rows.iloc[:len(rows) // 2], rows.iloc[len(rows) // 2:])):
            with gzip.open(os.path.join(folder, f"part-{k}.csv.gz"), "wt") as f:
                chunk.to_csv(f, index=False)
    feather.write_feather(df.drop(columns="region"), os.path.join(root, "one.feather"),
                          chunksize=1000)
    np.savez(os.path.join(root, "one.npz"), y=df["y"], p=df["p"])
    bad = df.drop(columns="region").iloc[:50].copy()
    bad.loc[bad.index[7], "p"] = np.nan
    for day in (1, 2):
        os.makedirs(os.path.join(root, "bad", f"day={day}"))
        (bad if day == 2 else df.iloc[:50]).drop(columns="day").to_parquet(
            os.path.join(root, "bad", f"day={day}", "part-0.parquet"), index=False)


@pytest.fixture(scope="session")
def endpoint():
    url = moto_s3.server()
    yield url
    moto_s3.stop()


@pytest.fixture(scope="module")
def data(endpoint, tmp_path_factory):
    """``(local root, df)``: the datasets on disk, copied into the bucket."""
    root = str(tmp_path_factory.mktemp("store"))
    df = frame()
    write_tree(root, df)
    moto_s3.make_bucket(endpoint, BUCKET)
    pafs.copy_files(root, BUCKET,
                    destination_filesystem=moto_s3.filesystem(endpoint, patient=True))
    return root, df


@pytest.fixture
def s3(monkeypatch, endpoint, data):
    """The standard environment pointing at the server; the store's listing, to
    compare after the test."""
    moto_s3.s3_environment(monkeypatch, endpoint)
    before = moto_s3.listing(endpoint, BUCKET)
    yield data
    assert moto_s3.listing(endpoint, BUCKET) == before       # nothing written


def uri(rel: str) -> str:
    return f"s3://{BUCKET}/{rel}"


def same_table(a, b) -> None:
    pd.testing.assert_frame_equal(a.to_pandas(), b.to_pandas())


@pytest.mark.parametrize("weight", [None, "w"])
def test_hive_folder_equals_disk(backend, s3, weight):
    root, df = s3
    kw = dict(label="y", score=["p", "q"], by="day", weight=weight, progress=False)
    remote = evaluate_file(uri("logs/"), **kw)
    local = evaluate_file(os.path.join(root, "logs"), **kw)
    same_table(remote, local)
    from sklearn.metrics import roc_auc_score
    got = remote.to_pandas().set_index(["day", "model"])["auc"]
    for (day, model), auc in got.items():
        part = df[df["day"] == day]
        want = roc_auc_score(part["y"], part[model],
                             sample_weight=None if weight is None else part[weight])
        assert auc == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_endpoint_from_s3_variable(s3, monkeypatch, endpoint):
    """``AWS_ENDPOINT_URL_S3`` (the S3-only variable) is honoured as well."""
    monkeypatch.delenv("AWS_ENDPOINT_URL")
    monkeypatch.setenv("AWS_ENDPOINT_URL_S3", endpoint)
    root, _ = s3
    r = evaluate_file(uri("logs"), label="y", score="p", progress=False)
    assert r.auc == evaluate_file(os.path.join(root, "logs"), label="y", score="p",
                                  progress=False).auc


@pytest.mark.parametrize("rel", ["one.feather", "csv/region=north/part-1.csv.gz",
                                 "logs/day=2/part-0.parquet"])
def test_single_file_table(backend, s3, rel):
    root, _ = s3
    remote = score_table_file(uri(rel), label="y", score="p", weight="w", progress=False)
    local = pd.read_parquet(os.path.join(root, rel)) if rel.endswith(".parquet") else (
        pd.read_feather(os.path.join(root, rel)) if rel.endswith(".feather")
        else pd.read_csv(os.path.join(root, rel)))
    want = ScoreTable.from_arrays(local["y"].to_numpy(), local["p"].to_numpy(),
                                  sample_weight=local["w"].to_numpy())
    np.testing.assert_array_equal(remote.scores, want.scores)
    np.testing.assert_allclose(remote.pos, want.pos, rtol=1e-12)
    np.testing.assert_allclose(remote.neg, want.neg, rtol=1e-12)


@pytest.mark.parametrize("pattern", ["logs/day=*/*.parquet", "logs/day=[13]/*.parquet",
                                     "csv/**/*.csv.gz", "csv/region=s*", "logs/**"])
def test_globs_equal_disk(s3, pattern):
    root, _ = s3
    by = ["day"] if pattern.startswith("logs/day=") else []
    kw = dict(label="y", score=["p"], by=by or None, progress=False)
    same_table(evaluate_file(uri(pattern), **kw),
               evaluate_file(os.path.join(root, pattern), **kw))


def test_csv_gz_hive_out_of_core(backend, s3, tmp_path):
    """Beyond ``memory_limit`` the spill goes to a local ``tmp_dir``, never the store."""
    root, _ = s3
    kw = dict(label="y", score=["p", "q"], by="region", weight="w", progress=False)
    small = evaluate_file(uri("csv/"), memory_limit="40KB", tmp_dir=str(tmp_path), **kw)
    same_table(small, evaluate_file(os.path.join(root, "csv"), **kw))
    assert os.listdir(tmp_path) == []          # the spill file is unnamed, then gone


def test_filesystem_argument(s3, monkeypatch, endpoint):
    """No endpoint in the environment: ``filesystem=`` carries it (a path in it, or a
    URI whose scheme is dropped)."""
    monkeypatch.delenv("AWS_ENDPOINT_URL")
    root, _ = s3
    fs = moto_s3.filesystem(endpoint, patient=True)
    kw = dict(label="y", score=["p"], by="day", progress=False)
    local = evaluate_file(os.path.join(root, "logs"), **kw)
    same_table(evaluate_file(f"{BUCKET}/logs/", filesystem=fs, **kw), local)
    same_table(evaluate_file(uri("logs/"), filesystem=fs, **kw), local)
    listed = [f"{BUCKET}/logs/day=1/part-0.parquet", f"{BUCKET}/logs/day=3/part-0.parquet"]
    same_table(evaluate_file(listed, filesystem=fs, **kw),
               evaluate_file([os.path.join(root, p.split("/", 1)[1]) for p in listed], **kw))


def test_endpoint_in_uri_query(s3, monkeypatch, endpoint):
    """pyarrow's URI options (``?endpoint_override=...``): the ? starts the query, not
    a wildcard, also after a glob pattern."""
    monkeypatch.delenv("AWS_ENDPOINT_URL")
    root, _ = s3
    query = f"?endpoint_override={endpoint.split('://')[1]}&scheme=http&region=us-east-1"
    kw = dict(label="y", score=["p"], by="day", progress=False)
    local = evaluate_file(os.path.join(root, "logs"), **kw)
    same_table(evaluate_file(uri("logs/") + query, **kw), local)
    same_table(evaluate_file(uri("logs/day=*/*.parquet") + query, **kw), local)


def test_cli_reads_uri(s3):
    from indist_fast.cli import main
    import contextlib
    import io
    root, _ = s3
    outs = []
    for path in (uri("logs/"), os.path.join(root, "logs")):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["evaluate", path, "--label", "y", "--score", "p", "--by", "day",
                         "--json", "--no-progress"])
        assert code in (0, None)
        outs.append(json.loads(out.getvalue()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("rel, error, names", [
    ("logs/day=9/part-0.parquet", FileNotFoundError, ("no such file",)),
    ("nothing-here/", FileNotFoundError, ("no such file",)),
    ("logs/*.csv", ValueError, ("matches no file",)),
    ("one.npz", ValueError, ("local disk",)),
])
def test_store_errors_name_path(s3, rel, error, names):
    with pytest.raises(error) as info:
        evaluate_file(uri(rel), label="y", score="p", progress=False)
    message = str(info.value)
    assert message.startswith("path:") and uri(rel) in message
    for name in names:
        assert name in message


def test_bad_row_named_by_uri(s3):
    """A NaN score in the second file: the error names the URI of the file and its row."""
    with pytest.raises(ValueError) as info:
        evaluate_file(uri("bad/"), label="y", score=["p"], by="day", progress=False)
    message = str(info.value)
    assert uri("bad/day=2/part-0.parquet") in message and "row 7" in message
    assert message.startswith("score: column 'p'")


def test_missing_bucket(s3):
    with pytest.raises((FileNotFoundError, ValueError), match="path: .*s3://no-such-bucket"):
        evaluate_file("s3://no-such-bucket/logs/", label="y", score="p", progress=False)


def test_unreachable_endpoint_fails_fast(s3, monkeypatch):
    """Nothing listens at the endpoint: an error naming ``path`` within seconds."""
    fs = moto_s3.filesystem("http://127.0.0.1:9", connect_timeout=0.5, request_timeout=0.5)
    start = time.monotonic()
    with pytest.raises(ValueError, match=f"path: cannot read {BUCKET}/logs/"):
        evaluate_file(f"{BUCKET}/logs/", filesystem=fs, label="y", score="p", progress=False)
    assert time.monotonic() - start < 10
