"""Parquet files of plain columns that fit the memory limit are decoded whole, row
groups on two threads straight into one array per column (``_parquet_read_all``). The
result must be the chunked reader's, row for row; a null hands the file back to the
chunked reader (which names the row, or drops it)."""

from __future__ import annotations

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import indist_fast  # noqa: E402
from indist_fast.io import open_source, parquet_files  # noqa: E402


def write(tmp_path, columns: dict, row_group_size: int = 97):
    path = tmp_path / "log.parquet"
    pq.write_table(pa.table(columns), path, row_group_size=row_group_size)
    return str(path)


def chunked_columns(path, cols):
    src = open_source(path, cols)
    parts = list(src.chunks(50))
    return tuple(None if parts[0][i] is None else np.concatenate([p[i] for p in parts])
                 for i in range(len(cols)))


@pytest.mark.parametrize("label_type", [pa.bool_(), pa.uint8(), pa.int64(), pa.float32()])
@pytest.mark.parametrize("score_type", [pa.float32(), pa.float64(), pa.int16()])
def test_read_all_equals_the_chunks(tmp_path, label_type, score_type):
    rng = np.random.default_rng(0)
    n = 1000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) * 100
    w = rng.random(n)
    path = write(tmp_path, {"y": pa.array(y).cast(label_type),
                            "s": pa.array(s).cast(score_type, safe=False),
                            "w": pa.array(w)})
    cols = {"label": "y", "score": "s", "weight": "w"}
    src = open_source(path, cols)
    assert src.read_all is not None
    whole = src.read_all()
    for got, want in zip(whole, chunked_columns(path, cols)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    no_weight = dict(cols, weight=None)
    y_all, s_all, w_all = open_source(path, no_weight).read_all()
    assert w_all is None and len(y_all) == len(s_all) == n


@pytest.mark.filterwarnings("ignore::indist_fast.LevelNotReachedWarning")
def test_evaluate_file_takes_the_whole_read_and_matches_memory(tmp_path, monkeypatch):
    rng = np.random.default_rng(1)
    n = 5000
    y = rng.random(n) < 0.2
    s = (rng.normal(size=n) + y).astype(np.float32)
    path = write(tmp_path, {"y": y, "s": s}, row_group_size=333)
    calls = []
    real = parquet_files._parquet_read_all

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(parquet_files, "_parquet_read_all", counted)
    from_file = indist_fast.evaluate_file(path, label="y", score="s")
    assert calls, "the whole-file read was not used"
    in_memory = indist_fast.evaluate(y, s)
    assert from_file.auc == in_memory.auc
    assert from_file.to_dict() == in_memory.to_dict()
    # Past the memory limit the chunks are read (out of core), with the same numbers.
    small = indist_fast.evaluate_file(path, label="y", score="s", memory_limit=20_000)
    assert len(calls) == 1
    assert small.to_dict() == in_memory.to_dict()


@pytest.mark.filterwarnings("ignore::indist_fast.LevelNotReachedWarning")
def test_a_null_hands_back_to_the_chunks(tmp_path):
    y = pa.array([True, False, None, True, False, True] * 50)
    s = pa.array(np.linspace(0, 1, 300))
    path = write(tmp_path, {"y": y, "s": s}, row_group_size=40)
    src = open_source(path, {"label": "y", "score": "s", "weight": None})
    assert src.read_all() is None
    with pytest.raises(ValueError, match="row 2"):
        indist_fast.evaluate_file(path, label="y", score="s")
    dropped = indist_fast.evaluate_file(path, label="y", score="s", drop_nulls=True)
    keep = np.array([v is not None for v in y.to_pylist()])
    expected = indist_fast.evaluate(np.array(y.to_pylist())[keep].astype(bool),
                                    s.to_numpy()[keep])
    assert dropped.auc == expected.auc


def test_bad_rows_are_named_in_the_file(tmp_path):
    s = np.linspace(0, 1, 300)
    s[217] = np.nan
    path = write(tmp_path, {"y": np.arange(300) % 2 == 0, "s": s}, row_group_size=64)
    with pytest.raises(ValueError, match="217"):
        indist_fast.evaluate_file(path, label="y", score="s")


def test_text_and_dictionary_columns_keep_the_chunks(tmp_path):
    path = write(tmp_path, {"y": pa.array(["a", "b"] * 50).dictionary_encode(),
                            "s": np.linspace(0, 1, 100)})
    assert open_source(path, {"label": "y", "score": "s", "weight": None}
                               ).read_all is None
