"""URIs and filesystems (``io/stores.py``) without a server: the listing, glob matching
and hive keys of a folder read through pyarrow's ``LocalFileSystem`` (as a store's
would be) against the local readers on the same folder, ``file://`` URIs, fsspec
filesystems (fsspec's in-memory one) and the errors for an unknown scheme or a
``filesystem`` of another kind.
"""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest

from indist_fast import ScoreTable, evaluate_file, score_table_file
from indist_fast.io import open_source
from indist_fast.io.folders import dataset_files
from indist_fast.io.stores import StorePath, locate

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pafs = pytest.importorskip("pyarrow.fs")

COLS = {"label": "y", "score": "s", "weight": None}


def write(path: str, seed: int, n: int = 40) -> None:
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    y = rng.integers(0, 2, n)
    s = (4 * y + rng.integers(0, 5, n)) / 8                            # ties
    if path.endswith(".parquet"):
        pq.write_table(pa.table({"y": y, "s": s}), path)
    else:
        with open(path, "w") as f:
            f.write("y,s\n" + "".join(f"{a},{b}\n" for a, b in zip(y, s)))


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A folder of files at several depths, hive keys, hidden files and folders."""
    root = str(tmp_path_factory.mktemp("tree"))
    names = ["z.csv", "a/x1.csv", "a/x2.csv", "a/b/deep.csv", "day=1/k=a%2Fb/p.parquet",
             "day=1/q.parquet", "day=2/q.parquet", "b1/x3.csv", "_tmp/skip.csv",
             ".hidden/skip.csv", "a/.dot.csv", "a/_part.csv", "c[1]/x.csv"]
    for k, name in enumerate(names):
        write(os.path.join(root, name), k)
    return root


def through_store(path: str) -> StorePath:
    """``path`` as a store's: read through pyarrow's filesystem, not ``os``."""
    located = locate(path, pafs.LocalFileSystem())
    assert isinstance(located, StorePath)
    return located


def local_form(files):
    return [(str(f), keys) for f, keys in files]


@pytest.mark.parametrize("pattern", [
    "", "a", "*/*.csv", "**/*.csv", "**", "a/**", "a/*", "?/x?.csv", "[ab]*/*.csv",
    "[!a]*/*.csv", "day=*/*.parquet", "day=1/**/*.parquet", "*", "a/b", "b*", "c[[]1]/*",
    "*.csv", "**/q.parquet"])
def test_listing_and_globs_match_local(tree, pattern):
    """Files, their order and their hive keys, through the store's listing and glob
    matching, are the local readers' (``os.walk``, ``glob``)."""
    path = os.path.join(tree, pattern) if pattern else tree
    local = dataset_files(path)
    assert local, pattern
    assert local_form(dataset_files(through_store(path))) == local_form(local)


def test_hive_values_decoded(tree):
    files = dict(local_form(dataset_files(through_store(tree))))
    assert files[os.path.join(tree, "day=1", "k=a%2Fb", "p.parquet")] == {"day": "1",
                                                                          "k": "a/b"}


@pytest.mark.parametrize("rel", ["z.csv", "day=1/q.parquet"])
def test_one_file_through_store(backend, tree, rel):
    path = os.path.join(tree, rel)
    got = score_table_file(through_store(path), label="y", score="s", progress=False)
    want = score_table_file(path, label="y", score="s", progress=False)
    for name in ("scores", "pos", "neg"):
        np.testing.assert_array_equal(getattr(got, name), getattr(want, name))


def test_dataset_through_store_by_hive_key(backend, tree):
    kw = dict(label="y", score=["s"], by="day", progress=False)
    path = os.path.join(tree, "day=*", "*.parquet")
    got = evaluate_file(path, filesystem=pafs.LocalFileSystem(), **kw).to_pandas()
    want = evaluate_file(path, **kw).to_pandas()
    assert got.equals(want) and got["day"].tolist() == [1, 2]


def test_file_uri_is_local(tree):
    path = os.path.join(tree, "z.csv")
    assert locate("file://" + path) == path
    assert locate(["file://" + path, path]) == [path, path]
    r = evaluate_file("file://" + path, label="y", score="s", progress=False)
    assert r.auc == evaluate_file(path, label="y", score="s", progress=False).auc
    assert locate("file://localhost" + path) == path


def test_file_uri_with_two_slashes_names_the_host_it_read():
    # file://tmp/logs is the host "tmp" and the path /logs, not the folder tmp/logs
    with pytest.raises(ValueError, match=r"names the host 'tmp'.*file:///tmp/logs/"):
        locate("file://tmp/logs/")


def test_fsspec_memory_filesystem(backend, tree):
    """An fsspec filesystem, given or named by its URI, read through pyarrow's wrapper."""
    fsspec = pytest.importorskip("fsspec")
    mem = fsspec.filesystem("memory")
    folder = "/indist-store-test/logs"
    for day in (1, 2):
        with open(os.path.join(tree, f"day={day}", "q.parquet"), "rb") as src, \
                mem.open(f"{folder}/day={day}/q.parquet", "wb") as dst:
            dst.write(src.read())
    try:
        kw = dict(label="y", score=["s"], by="day", progress=False)
        want = evaluate_file(os.path.join(tree, "day=*", "q.parquet"), **kw).to_pandas()
        assert evaluate_file(folder, filesystem=mem, **kw).to_pandas().equals(want)
        assert evaluate_file("memory://" + folder, **kw).to_pandas().equals(want)
        table = score_table_file(f"memory://{folder}/day=1/q.parquet", label="y", score="s",
                                 progress=False)
        t = pq.read_table(os.path.join(tree, "day=1", "q.parquet"))
        ref = ScoreTable.from_arrays(t["y"].to_numpy(), t["s"].to_numpy())
        np.testing.assert_array_equal(table.pos, ref.pos)
    finally:
        mem.rm("/indist-store-test", recursive=True)


def test_path_like_with_filesystem(tree):
    """A ``pathlib.Path`` (or bytes) with ``filesystem=`` is a path in that filesystem."""
    import pathlib
    path = pathlib.Path(tree) / "z.csv"
    for given in (path, os.fsencode(path), [path]):
        located = locate(given, pafs.LocalFileSystem())
        one = located[0] if isinstance(located, list) else located
        assert isinstance(one, StorePath) and one.inner == str(path)


def test_store_path_pickles(tree):
    p = through_store(os.path.join(tree, "z.csv"))
    q = pickle.loads(pickle.dumps(p))
    assert (q, q.inner, type(q)) == (p, p.inner, StorePath)


@pytest.mark.parametrize("path, words", [
    ("zz://bucket/x.parquet", ("path:", "zz://bucket/x.parquet", "unknown scheme")),
    ("s3://bucket*/x.parquet", ("path:", "wildcard", "bucket")),
])
def test_uri_errors(path, words):
    with pytest.raises(ValueError) as info:
        open_source(path, COLS)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("path, package", [("abfs://c/x.parquet", "adlfs"),
                                           ("oci://b/x.parquet", "ocifs")])
def test_missing_package_named(path, package):
    """A scheme pyarrow does not read and whose fsspec package is missing: the error
    names the package."""
    pytest.importorskip("fsspec")
    try:
        __import__(package)
    except ImportError:
        pass
    else:
        pytest.skip(f"{package} is installed")
    with pytest.raises(ValueError, match=f"path: cannot read {path}.*pip install "
                                         f"{package}"):
        open_source(path, COLS)


@pytest.mark.parametrize("fs", ["s3", 5, object()])
def test_filesystem_of_another_kind(tree, fs):
    with pytest.raises(TypeError, match="filesystem must be a pyarrow.fs.FileSystem"):
        evaluate_file(os.path.join(tree, "z.csv"), label="y", score="s", filesystem=fs)


def test_local_only_formats_refused(tmp_path):
    path = str(tmp_path / "d.npz")
    np.savez(path, y=[0, 1], s=[0.2, 0.7])
    with pytest.raises(ValueError, match="path: .*d.npz.*local disk"):
        open_source(path, COLS, filesystem=pafs.LocalFileSystem())


def test_missing_through_store(tmp_path):
    path = str(tmp_path / "nope.parquet")
    with pytest.raises(FileNotFoundError, match=f"path: no such file or folder: {path}"):
        open_source(path, COLS, filesystem=pafs.LocalFileSystem())


def test_inputs_not_modified(tree):
    paths = [os.path.join(tree, "z.csv"), "file://" + os.path.join(tree, "b1", "x3.csv")]
    before = list(paths)
    evaluate_file(paths, label="y", score="s", progress=False)
    assert paths == before


@pytest.mark.parametrize("pattern", ["*", "?", "a*", "*.csv", "[ab]*", "[!ab]*", "[]]x",
                                     "[!]]*", "[a-c]?", "x[", "[^a]*", "*[*]*", "a\\b"])
def test_name_patterns_as_fnmatch(pattern):
    """One name's wildcards match what ``fnmatch`` matches (but a leading dot, which
    only a dot in the pattern matches, as in ``glob``)."""
    import fnmatch
    import re
    from indist_fast.io.stores import _translate
    names = ["a", "b", "ab", "x.csv", "c", "]x", "]", "x[", "^b", "a*b", "*", "a\\b", "d7",
             ".hidden", "a/b"]
    regex = re.compile(_translate(pattern))
    for name in names:
        want = fnmatch.fnmatchcase(name, pattern) and "/" not in name and not (
            name.startswith(".") and not pattern.startswith("."))
        assert bool(regex.fullmatch(name)) == want, (pattern, name)


@pytest.mark.parametrize("span", [1, 10**9])
def test_parquet_spans_of_row_groups(backend, tmp_path, monkeypatch, span):
    """A store's Parquet file read a row group per span, or all in one: the same table
    as the file read from disk."""
    from indist_fast.io import parquet_files
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 3000)
    s = np.round(rng.random(3000) + 0.3 * y, 2)
    path = str(tmp_path / "groups.parquet")
    pq.write_table(pa.table({"y": y, "s": s, "other": s * 2}), path, row_group_size=128)
    monkeypatch.setattr(parquet_files, "_STORE_SPAN_MIN", span)
    monkeypatch.setattr(parquet_files, "_STORE_SPAN_MAX", span)
    spans = []
    real = pq.ParquetFile.iter_batches

    def counted(self, *args, **kw):
        spans.append(kw.get("row_groups"))
        return real(self, *args, **kw)

    monkeypatch.setattr(pq.ParquetFile, "iter_batches", counted)
    src = open_source(through_store(path), COLS)
    got = [np.concatenate(c) for c in list(zip(*src.chunks(1000)))[:2]]
    np.testing.assert_array_equal(got[0], y)
    np.testing.assert_array_equal(got[1], s)
    assert len(spans) == (24 if span == 1 else 1)
    got_table = score_table_file(through_store(path), label="y", score="s", progress=False)
    want = ScoreTable.from_arrays(y, s)
    np.testing.assert_array_equal(got_table.pos, want.pos)
    np.testing.assert_array_equal(got_table.neg, want.neg)
