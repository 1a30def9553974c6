"""``score_table_file`` and ``indist_fast.dask.score_table``: the table of rows in files
or on a cluster equals the in-memory ``ScoreTable.from_arrays`` of the same rows."""

from __future__ import annotations

import numpy as np
import pytest

from indist_fast import ScoreTable, score_table_file
from indist_fast.scale import file_tables

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

rng = np.random.default_rng(21)
N = 30_000
Y = (rng.random(N) < 0.3).astype(np.int8)
S = np.round(1 / (1 + np.exp(-(rng.normal(size=N) + 1.5 * Y - 1))), 3)
W = rng.integers(0, 4, N).astype(np.float64)        # zero weights too


def assert_same_table(got, want):
    assert got.n_rows == want.n_rows
    np.testing.assert_array_equal(got.scores, want.scores)
    np.testing.assert_array_equal(got.pos, want.pos)     # integer sums: exact
    np.testing.assert_array_equal(got.neg, want.neg)
    assert got.pos.dtype == want.pos.dtype
    # and so every reading of the table: the same numbers from disk or a cluster
    for reading in (lambda t: t.calibration(), lambda t: t.calibration(strategy="quantile"),
                    lambda t: t.ks(), lambda t: t.gains(), lambda t: t.top_k(0.05)):
        assert _plain(reading(got).to_dict()) == _plain(reading(want).to_dict())


def _plain(value):
    """A record's dict with arrays as lists (NaN compared as equal to itself)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in (value.tolist() if isinstance(value, np.ndarray) else value)]
    if isinstance(value, float) and value != value:
        return "nan"
    return value


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The rows as a hive-partitioned Parquet folder of several files."""
    root = tmp_path_factory.mktemp("tables")
    day = np.arange(N) % 3
    for d in range(3):
        keep = day == d
        (root / f"day={d}").mkdir()
        pq.write_table(pa.table({"y": Y[keep], "s": S[keep], "w": W[keep]}),
                       root / f"day={d}" / "part.parquet", row_group_size=4_000)
    order = np.concatenate([np.flatnonzero(day == d) for d in range(3)])
    return root, order


@pytest.mark.parametrize("weighted", [False, True])
def test_a_folder_gives_the_in_memory_table(folder, weighted, monkeypatch):
    root, order = folder
    monkeypatch.setattr(file_tables, "_CHUNK_ROWS", 3_000)      # many chunks
    got = score_table_file(root, label="y", score="s", weight="w" if weighted else None,
                           progress=False)
    want = ScoreTable.from_arrays(Y[order], S[order], W[order] if weighted else None)
    assert_same_table(got, want)
    assert got.evaluate().auc == want.evaluate().auc


def test_text_labels_need_pos_label_and_errors_name_the_file_row(tmp_path, monkeypatch):
    monkeypatch.setattr(file_tables, "_CHUNK_ROWS", 1_000)
    labels = np.where(Y[:5_000] == 1, "fraud", "ok")
    pq.write_table(pa.table({"y": labels, "s": S[:5_000]}), tmp_path / "t.parquet")
    got = score_table_file(tmp_path / "t.parquet", label="y", score="s", pos_label="fraud",
                           progress=False)
    assert_same_table(got, ScoreTable.from_arrays(Y[:5_000], S[:5_000]))
    s = S[:5_000].copy()
    s[3_210] = np.nan
    pq.write_table(pa.table({"y": Y[:5_000], "s": s}), tmp_path / "nan.parquet")
    with pytest.raises(ValueError, match=r"^score: column 's' of .*nan.parquet: y_score "
                                         r"contains NaN \(first at row 3210\)"):
        score_table_file(tmp_path / "nan.parquet", label="y", score="s", progress=False)
    with pytest.raises(ValueError, match="^score: column 'q' is not in"):
        score_table_file(tmp_path / "t.parquet", label="y", score="q", pos_label="fraud")
    with pytest.raises(TypeError, match="progress"):
        score_table_file(tmp_path / "t.parquet", label="y", score="s", progress="yes")


def test_no_rows_and_one_coding(tmp_path, monkeypatch):
    monkeypatch.setattr(file_tables, "_CHUNK_ROWS", 1_000)
    pq.write_table(pa.table({"y": np.array([], np.int8), "s": np.array([])}),
                   tmp_path / "empty.parquet")
    with pytest.raises(ValueError, match="^path: .* holds no rows"):
        score_table_file(tmp_path / "empty.parquet", label="y", score="s", progress=False)
    y = np.concatenate([Y[:2_000], np.where(Y[2_000:4_000] == 1, 1, -1)])  # {0,1} then {-1,1}
    pq.write_table(pa.table({"y": y, "s": S[:4_000]}), tmp_path / "mixed.parquet")
    with pytest.raises(ValueError, match="y_true"):
        score_table_file(tmp_path / "mixed.parquet", label="y", score="s", progress=False)


def test_dask_gives_the_in_memory_table():
    dd = pytest.importorskip("dask.dataframe")
    da = pytest.importorskip("dask.array")
    pd = pytest.importorskip("pandas")
    import indist_fast.dask
    frame = pd.DataFrame({"y": Y, "s": S, "w": W})
    got = indist_fast.dask.score_table(dd.from_pandas(frame, npartitions=19), label="y",
                                       score="s", weight="w")
    assert_same_table(got, ScoreTable.from_arrays(Y, S, W))
    got = indist_fast.dask.score_table((da.from_array(Y, chunks=1_700),
                                        da.from_array(S, chunks=1_900)))
    assert_same_table(got, ScoreTable.from_arrays(Y, S))
    with pytest.raises(TypeError, match="^score: one column name"):
        indist_fast.dask.score_table(dd.from_pandas(frame, npartitions=2), label="y",
                                     score=["s"])
    with pytest.raises(TypeError, match="label=, score= and weight= name DataFrame"):
        indist_fast.dask.score_table((da.from_array(Y), da.from_array(S)), label="y")
    with pytest.raises(ValueError, match="collection holds no rows"):
        indist_fast.dask.score_table(dd.from_pandas(frame.iloc[:0], npartitions=1),
                                     label="y", score="s")
