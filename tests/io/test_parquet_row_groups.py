"""Parquet files of 0/1 (or bool) labels and float scores, from ``GROUPS_MIN_ROWS``
rows on, go row group by row group into the engine's radix buckets, each group decoded
on the thread that writes it (``RowGroups`` and ``summarize_parts``). The numbers must
be those of ``evaluate`` on the same arrays; anything the engine declines (a null, a
NaN score, another label, one class) goes the long way, which names the problem."""

from __future__ import annotations

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import indist_fast  # noqa: E402
from reports import assert_reports_equal  # noqa: E402
from indist_fast.scale import files
from indist_fast.io import arrow_files, open_source, parquet_files  # noqa: E402


def write(tmp_path, columns: dict, row_group_size: int = 331) -> str:
    path = tmp_path / "log.parquet"
    pq.write_table(pa.table(columns), path, row_group_size=row_group_size)
    return str(path)


class Spy:
    """Counts the row groups read for the engine and the whole-file reads."""

    def __init__(self, monkeypatch) -> None:
        self.groups: list[int] = []
        self.whole = 0
        blocks, read_all = parquet_files.RowGroups.blocks, parquet_files._parquet_read_all

        def counted_blocks(rg, groups):
            self.groups += list(groups)
            return blocks(rg, groups)

        def counted_read_all(*args):
            self.whole += 1
            return read_all(*args)
        monkeypatch.setattr(parquet_files.RowGroups, "blocks", counted_blocks)
        monkeypatch.setattr(parquet_files, "_parquet_read_all", counted_read_all)
        monkeypatch.setattr(files, "GROUPS_MIN_ROWS", 0)


def rows(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    s[::7] = np.round(s[::7], 1)                   # ties, within groups and across them
    s[5], s[6] = -0.0, 0.0
    return y, s


LABEL_TYPES = [pa.bool_(), pa.uint8(), pa.int8(), pa.int32(), pa.int64(), pa.float32(),
               pa.float64()]


@pytest.mark.filterwarnings("ignore::indist_fast.LevelNotReachedWarning")
@pytest.mark.parametrize("label_type", LABEL_TYPES, ids=str)
@pytest.mark.parametrize("score_type", [pa.float32(), pa.float64()], ids=str)
def test_row_groups_give_the_numbers_of_memory(tmp_path, monkeypatch, backend, label_type,
                                               score_type):
    y, s = rows(3000)
    path = write(tmp_path, {"y": pa.array(y).cast(label_type),
                            "s": pa.array(s).cast(score_type)})
    spy = Spy(monkeypatch)
    got = indist_fast.evaluate_file(path, label="y", score="s")
    assert sorted(spy.groups) == list(range(10)) and spy.whole == 0
    want = indist_fast.evaluate(y, s.astype(score_type.to_pandas_dtype()))
    assert got.to_dict() == want.to_dict()


@pytest.mark.filterwarnings("ignore::indist_fast.LevelNotReachedWarning")
def test_two_threads_and_small_buckets(tmp_path, monkeypatch, threaded):
    """With the engine's thresholds lowered: many buckets, both writers, the sweep in
    two pieces; groups of unequal size go to the writer with fewer rows."""
    y, s = rows(5000, seed=3)
    path = write(tmp_path, {"y": y, "s": s}, row_group_size=700)
    spy = Spy(monkeypatch)
    monkeypatch.setattr(indist_fast._core.fast_radix, "RADIX_BUCKET_ROWS", 16)
    got = indist_fast.evaluate_file(path, label="y", score="s", levels=(0.25, 0.5))
    assert spy.whole == 0 and threaded.helper["radix_fill"] > 0
    # (buckets sized by another sample, swept in other pieces: sums may differ in the
    # last bit)
    assert_reports_equal(got, indist_fast.evaluate(y, s, levels=(0.25, 0.5)))


def test_the_sample_spans_the_file(tmp_path):
    y, s = rows(3000)
    s = np.sort(s)                      # sorted by score: each group is a narrow range
    path = write(tmp_path, {"y": y, "s": s}, row_group_size=300)
    rg = open_source(path, {"label": "y", "score": "s", "weight": None}).row_groups
    assert rg is not None and rg.sizes == (300,) * 10
    sample = rg.sample()
    assert sample is not None and sample.min() == s[0] and sample.max() >= s[2700]


@pytest.mark.parametrize("spoil, match", [
    ("nan", "y_score contains NaN"),
    ("third label", "label"),
    ("null", "row 1234"),
])
def test_declined_files_go_the_long_way(tmp_path, monkeypatch, spoil, match):
    y, s = rows(3000)
    labels, scores = pa.array(y.astype(np.int64)), pa.array(s)
    if spoil == "nan":
        s[1234] = np.nan
        scores = pa.array(s)
    elif spoil == "third label":
        labels = pa.array(np.where(np.arange(3000) == 1234, 2, y.astype(np.int64)))
    else:
        labels = pa.array([None if i == 1234 else int(v) for i, v in enumerate(y)],
                          type=pa.int64())
    path = write(tmp_path, {"y": labels, "s": scores})
    spy = Spy(monkeypatch)
    with pytest.raises(ValueError, match=match):
        indist_fast.evaluate_file(path, label="y", score="s")
    assert spy.groups, "the row groups were not tried first"


@pytest.mark.filterwarnings("ignore::indist_fast.LevelNotReachedWarning")
def test_other_labels_and_one_class_are_as_in_memory(tmp_path, monkeypatch):
    y, s = rows(3000)
    spy = Spy(monkeypatch)
    labels = np.where(y, 1, -1)
    got = indist_fast.evaluate_file(write(tmp_path, {"y": labels, "s": s}), label="y",
                                    score="s")
    assert got.to_dict() == indist_fast.evaluate(labels, s).to_dict()
    with pytest.raises(ValueError, match="holds only positives"):
        indist_fast.evaluate_file(write(tmp_path, {"y": np.ones(3000, np.int64), "s": s}),
                                  label="y", score="s")
    assert spy.groups and spy.whole == 2


def test_when_the_row_groups_are_not_used(tmp_path, monkeypatch):
    y, s = rows(3000)
    spy = Spy(monkeypatch)
    cases = {
        "pos_label": ({"y": y, "s": s}, {"pos_label": True}),
        "weight": ({"y": y, "s": s, "w": np.ones(3000)}, {"weight": "w"}),
        "int scores": ({"y": y, "s": np.round(s * 100).astype(np.int32)}, {}),
        "int16 labels": ({"y": y.astype(np.int16), "s": s}, {}),
    }
    for name, (columns, kwargs) in cases.items():
        path = write(tmp_path, columns)
        got = indist_fast.evaluate_file(path, label="y", score="s", levels=(0.5,), **kwargs)
        want = indist_fast.evaluate(columns["y"], columns["s"], levels=(0.5,),
                                    sample_weight=columns.get("w"),
                                    pos_label=kwargs.get("pos_label"))
        assert got.auc == want.auc, name
    one_group = write(tmp_path, {"y": y, "s": s}, row_group_size=3000)
    indist_fast.evaluate_file(one_group, label="y", score="s", levels=(0.5,))
    small = indist_fast.evaluate_file(write(tmp_path, {"y": y, "s": s}), label="y",
                                      score="s", levels=(0.5,), memory_limit=20_000)
    assert small.auc == indist_fast.evaluate(y, s).auc
    assert spy.groups == []


@pytest.mark.parametrize("arrow_type", [pa.bool_(), pa.uint8(), pa.int16(), pa.float32(),
                                        pa.float16()], ids=str)
def test_plain_columns_become_numpy_at_any_offset(arrow_type):
    rng = np.random.default_rng(2)
    values = rng.random(77) < 0.5 if arrow_type == pa.bool_() else rng.integers(0, 9, 77)
    col = pa.array(values).cast(arrow_type)
    for a, b in [(0, 77), (3, 70), (9, 9), (13, 14), (64, 77)]:
        got = arrow_files.plain_numpy(col.slice(a, b - a))
        assert got.dtype == arrow_files.plain_dtype(arrow_type)
        np.testing.assert_array_equal(got, np.asarray(values[a:b]).astype(got.dtype))
        assert arrow_files.arrow_to_numpy(col.slice(a, b - a)).dtype == arrow_files.numpy_dtype(arrow_type)


def test_a_read_error_stops_both_writers():
    from indist_fast._core import fast, threads
    y, s = rows(20_000)
    taken = []

    def failing():
        yield y[:10], s[:10]
        raise ValueError("path: log.parquet could not be read")

    def long():
        for a in range(10, 20_000, 10):
            taken.append(a)
            yield y[a:a + 10], s[a:a + 10]
    with pytest.raises(ValueError, match="could not be read"):
        fast.summarize_parts([failing, long], [10, 19_990], s, np.array([0.5]), False)
    threads._pool.submit(lambda: None).result()     # the helper thread is done with its part
    assert len(taken) < 1999, "the other writer read its whole part"
