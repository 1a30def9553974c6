"""Rows named after ``drop_nulls=True`` dropped some: an error (a NaN score, a third label,
a bad weight) names the row in the file, as without nulls, not its place among the rows
kept; in every format, in memory and out of core, alone and in a dataset of files."""

from __future__ import annotations

import re
import sys
import warnings

import numpy as np
import pytest

from indist_fast import IndistFastWarning, evaluate_file

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")

N = 3000
LIMITS = (None, 20_000)            # 20 kB: the files are read in chunks, out of core
NULL_ROWS = (3, 10, 11, 12, 700, 2_999)


def columns(bad: str, at: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(at)
    y = (rng.random(N) < 0.4).astype(np.float64)
    s = rng.random(N)
    w = rng.integers(1, 4, N).astype(np.float64)
    if bad == "score":
        s[at] = np.nan
    elif bad == "label":
        y[at] = 7.0
    else:
        w[at] = -1.0
    return {"y": y, "s": s, "w": w}


def with_nulls(cols: dict[str, np.ndarray]) -> pa.Table:
    """Nulls spread over the label and weight columns (never on the bad row)."""
    mask = np.zeros(N, dtype=bool)
    mask[list(NULL_ROWS)] = True
    return pa.table({"y": pa.array(cols["y"], mask=mask & (np.arange(N) % 2 == 0)),
                     "s": pa.array(cols["s"]),
                     "w": pa.array(cols["w"], mask=mask & (np.arange(N) % 2 == 1))})


def write(table: pa.Table, tmp_path, kind: str):
    if kind == "parquet":
        path = tmp_path / "log.parquet"
        pq.write_table(table, path, row_group_size=450)
    elif kind == "arrow":
        path = tmp_path / "log.arrow"
        feather.write_feather(table, path, chunksize=450)
    else:
        path = tmp_path / "log.csv"
        lines = ["y,s,w"] + [",".join("" if v is None else repr(v) for v in row.values())
                             for row in table.to_pylist()]
        path.write_text("\n".join(lines) + "\n")
    return path


MESSAGES = {"score": r"y_score contains NaN \(first at row {at}\)",
            "label": r"third label 7\.0 at row {at} ",
            "weight": r"sample_weight must be finite and non-negative; found -1\.0 at row {at}\."}


def run(path, limit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return evaluate_file(path, label="y", score="s", weight="w", drop_nulls=True,
                             memory_limit=limit, progress=False)


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("kind", ["parquet", "arrow", "csv"])
@pytest.mark.parametrize("bad, at", [("score", 500), ("label", 13), ("weight", 2_998),
                                     ("score", 1_000)])
def test_an_error_names_the_file_row(tmp_path, backend, kind, limit, bad, at):
    path = write(with_nulls(columns(bad, at)), tmp_path, kind)
    if kind == "csv" and bad == "score":
        # CSV has no NaN apart from its null markers ("nan" is one): the row is dropped.
        assert run(path, limit).n_rows == N - len(NULL_ROWS) - 1
        return
    with pytest.raises(ValueError, match=MESSAGES[bad].format(at=at)):
        run(path, limit)


@pytest.mark.parametrize("limit", LIMITS)
def test_an_error_names_the_file_row_with_the_standard_library_reader(
        tmp_path, backend, monkeypatch, limit):
    monkeypatch.setitem(sys.modules, "pyarrow.csv", None)
    path = write(with_nulls(columns("label", 1_500)), tmp_path, "csv")
    with pytest.raises(ValueError, match=MESSAGES["label"].format(at=1_500)):
        run(path, limit)


@pytest.mark.parametrize("limit", LIMITS)
def test_an_error_names_the_row_of_its_file_in_a_dataset(tmp_path, backend, limit):
    table = with_nulls(columns("score", 1_000))       # b.parquet's row 500, after a null
    (tmp_path / "logs").mkdir()
    pq.write_table(table.slice(0, 500), tmp_path / "logs" / "a.parquet", row_group_size=450)
    pq.write_table(table.slice(500), tmp_path / "logs" / "b.parquet", row_group_size=450)
    with pytest.raises(ValueError, match=r"first at row 500 of .*b\.parquet\)"):
        run(tmp_path / "logs", limit)


def test_rows_are_named_as_kept_rows_when_the_file_cannot_be_read_again(tmp_path, backend):
    # The file row comes from reading the file again; gone, the message says what it has.
    path = write(with_nulls(columns("score", 500)), tmp_path, "parquet")
    from indist_fast.scale import file_stream
    real = file_stream.name_rows

    def vanish_then_name(exc, start, src):
        path.unlink()
        real(exc, start, src)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(file_stream, "name_rows", vanish_then_name)
        with pytest.raises(ValueError) as info:
            run(path, 20_000)
    kept = 500 - sum(r < 500 for r in NULL_ROWS)
    assert re.search(rf"first at row {kept} of the rows without a null\)", str(info.value))
