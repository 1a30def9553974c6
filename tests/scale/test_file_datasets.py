"""Datasets of files (folders, hive partitions, globs, lists; Parquet, CSV, compressed
CSV, Arrow IPC) and ``evaluate_file`` with several models and segments.

Every result is held to the in-memory oracle: ``evaluate_many`` (or ``evaluate``) on the
same columns read whole by pyarrow or pandas, for every layout and format, in memory and
out of core (a tiny ``memory_limit``), weighted and not, on both backends.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import evaluate, evaluate_file, evaluate_many
from indist_fast.errors import IndistFastWarning
from indist_fast.scale import file_plan
from children import CHILD_CWD, child_env
from procfs import HAS_PROC, held_files_in

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pd = pytest.importorskip("pandas")
feather = pytest.importorskip("pyarrow.feather")

N = 50_000
TINY = "200KB"          # far below the ~2 MB the columns of N rows take


def frame(n=N, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(np.uint8)
    return pd.DataFrame({
        "y": y,
        # informative, and rounded: many ties, within and across segments and files
        "m1": (rng.random(n) + 0.8 * y).astype(np.float32).round(2),
        "m2": (rng.random(n) + 0.5 * y).round(3),
        "w": rng.random(n).round(2),
        "day": rng.integers(1, 31, n).astype(np.int64),
        "country": rng.choice(["se", "de", "fr", "no"], n),
    })


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*args, **kwargs)


def same_table(got, want, weighted=False):
    """Every column equal: numbers exactly (weighted sums to the last bits, since
    their summation order may differ), NaN where NaN; segments and models by value."""
    assert type(got) is type(want) is indist_fast.ReportTable
    assert list(got.columns) == list(want.columns)
    assert got.by == want.by and len(got) == len(want)
    for name, col in want.columns.items():
        mine = got.columns[name]
        if col.dtype.kind == "f" and mine.dtype.kind == "f":
            np.testing.assert_allclose(mine, col, rtol=1e-12 if weighted else 0, atol=0,
                                       equal_nan=True, err_msg=name)
        else:
            assert mine.tolist() == col.tolist(), name


def same_report(got, want, weighted=False):
    assert got.n_rows == want.n_rows
    for name in ("auc", "average_precision", "threshold", "precision", "b", "weight_pos",
                 "weight_neg"):
        np.testing.assert_allclose(getattr(got, name), getattr(want, name),
                                   rtol=1e-12 if weighted else 0, equal_nan=True,
                                   err_msg=name)


def oracle(df, scores, by, weight=None, pos_label=None):
    return quiet(evaluate_many, df, label="y", score=scores, by=by, weight=weight,
                 pos_label=pos_label) if pos_label is not None else \
        quiet(evaluate_many, df, label="y", score=scores, by=by, weight=weight)


# --- layouts and formats --------------------------------------------------------------------------

def hive(tmp_path, df, cols=("day",)):
    folder = tmp_path / "hive"
    df.to_parquet(folder, partition_cols=list(cols))
    return folder


@pytest.mark.parametrize("limit", [None, TINY])
@pytest.mark.parametrize("weight", [None, "w"])
def test_hive_folder_by_partition_key(tmp_path, backend, limit, weight):
    df = frame()
    folder = hive(tmp_path, df)
    whole = pq.read_table(folder).to_pandas()         # pyarrow's reading of the dataset
    for by in (["day"], ["country", "day"], None):
        got = quiet(evaluate_file, folder, label="y", score=["m1", "m2"], by=by,
                    weight=weight, memory_limit=limit, progress=False)
        same_table(got, oracle(whole, ["m1", "m2"], by, weight), weight is not None)
    # one score without by stays a Report, equal to evaluate on the columns
    got = quiet(evaluate_file, folder, label="y", score="m1", weight=weight,
                memory_limit=limit, progress=False)
    want = evaluate(whole.y, whole.m1, sample_weight=None if weight is None else whole.w)
    same_report(got, want, weight is not None)


@pytest.mark.slow
def test_nested_hive_folders_glob_and_list(tmp_path, backend):
    df = frame()
    folder = hive(tmp_path, df, cols=("country", "day"))
    whole = pq.read_table(folder).to_pandas()
    want = oracle(whole, ["m2", "m1"], ["day", "country"])
    files = sorted(str(p) for p in folder.rglob("*.parquet"))
    for path in (folder, str(folder / "**" / "*.parquet"), files, tuple(files)):
        for limit in (None, TINY):
            got = quiet(evaluate_file, path, label="y", score=["m2", "m1"],
                        by=["day", "country"], memory_limit=limit, progress=False)
            same_table(got, want)


def test_plain_folder_nested_without_partitions(tmp_path, backend):
    df = frame()
    parts = np.array_split(np.arange(N), 5)
    for k, idx in enumerate(parts):
        sub = tmp_path / "plain" / f"batch{k % 2}"
        sub.mkdir(parents=True, exist_ok=True)
        df.iloc[idx].to_parquet(sub / f"part-{k}.parquet", index=False)
    (tmp_path / "plain" / "_SUCCESS").write_text("")          # skipped, as by pyarrow
    order = [idx for k in (0, 2, 4, 1, 3) for idx in [parts[k]]]   # batch0, then batch1
    whole = df.iloc[np.concatenate(order)]
    for limit in (None, TINY):
        got = quiet(evaluate_file, tmp_path / "plain", label="y", score=["m1"],
                    by="country", weight="w", memory_limit=limit, progress=False)
        same_table(got, oracle(whole, ["m1"], ["country"], "w"), weighted=True)


CODECS = {".csv": None, ".csv.gz": "gzip", ".csv.bz2": "bz2", ".csv.zst": "zstd"}


@pytest.mark.slow
@pytest.mark.parametrize("ending", list(CODECS))
def test_csv_files_plain_and_compressed(tmp_path, backend, ending):
    df = frame(20_000)
    folder = tmp_path / "csv"
    parts = []
    for day, part in df.groupby("day"):
        sub = folder / f"day={day}"
        sub.mkdir(parents=True)
        text = part.drop(columns="day").to_csv(index=False).encode()
        with pa.output_stream(str(sub / f"p{ending}"), compression=CODECS[ending]) as fh:
            fh.write(text)
        parts.append(pd.read_csv(io.BytesIO(text)).assign(day=day))
    whole = pd.concat(parts)                 # CSV scores: float64, as pandas reads them
    for limit in (None, TINY):
        got = quiet(evaluate_file, folder, label="y", score=["m1", "m2"],
                    by=["day", "country"], memory_limit=limit, progress=False)
        same_table(got, oracle(whole, ["m1", "m2"], ["day", "country"]))
    single = folder / "day=3" / f"p{ending}"
    got = quiet(evaluate_file, single, label="y", score="m2", memory_limit=TINY,
                progress=False)
    same_report(got, evaluate(parts[2].y, parts[2].m2))


@pytest.mark.slow
def test_feather_files(tmp_path, backend):
    df = frame()
    one = tmp_path / "one.feather"
    feather.write_feather(pa.Table.from_pandas(df, preserve_index=False), one,
                          chunksize=7_000)                   # several record batches
    folder = tmp_path / "arrow"
    for day, part in df.groupby("day"):
        (folder / f"day={day}").mkdir(parents=True)
        feather.write_feather(part.drop(columns="day").reset_index(drop=True),
                              folder / f"day={day}" / "p.arrow", compression="zstd")
    whole = pd.concat([feather.read_table(p).to_pandas().assign(day=int(p.parent.name[4:]))
                       for p in sorted(folder.rglob("*.arrow"))])
    for limit in (None, TINY):
        same_table(quiet(evaluate_file, one, label="y", score=["m1", "m2"], by="day",
                         weight="w", memory_limit=limit, progress=False),
                   oracle(df, ["m1", "m2"], ["day"], "w"), weighted=True)
        same_table(quiet(evaluate_file, folder, label="y", score=["m2"], by="day",
                         memory_limit=limit, progress=False),
                   oracle(whole, ["m2"], ["day"]))
    same_report(evaluate_file(one, label="y", score="m1", memory_limit=TINY, progress=False),
                evaluate(df.y, df.m1))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["bool", "string", "dictionary"])
def test_parquet_label_types_across_files(tmp_path, backend, kind):
    df = frame(30_000)
    labels = {"bool": df.y.astype(bool),
              "string": np.where(df.y == 1, "click", "none"),
              "dictionary": pd.Categorical(np.where(df.y == 1, "click", "none"))}[kind]
    df = df.assign(y=labels)
    pos_label = True if kind == "bool" else "click"
    folder = hive(tmp_path, df)
    whole = pq.read_table(folder).to_pandas()
    for limit in (None, TINY):
        got = quiet(evaluate_file, folder, label="y", score=["m1", "m2"], by="country",
                    pos_label=pos_label, memory_limit=limit, progress=False)
        same_table(got, oracle(whole, ["m1", "m2"], ["country"], pos_label=pos_label))


@pytest.mark.slow
def test_npz_and_npy_with_segments(tmp_path, backend):
    df = frame(20_000)
    np.savez(tmp_path / "d.npz", **{c: df[c].to_numpy() for c in ("y", "m1", "m2", "day")})
    records = df[["y", "m1", "m2", "day"]].to_records(index=False)
    np.save(tmp_path / "d.npy", records)
    want = oracle(df, ["m1", "m2"], ["day"])
    for name in ("d.npz", "d.npy"):
        for limit in (None, TINY):
            same_table(quiet(evaluate_file, tmp_path / name, label="y", score=["m1", "m2"],
                             by="day", memory_limit=limit, progress=False), want)


def test_polars_written_hive_dataset(tmp_path, backend):
    pl = pytest.importorskip("polars")
    df = frame(20_000)
    folder = tmp_path / "polars"
    pl.from_pandas(df).write_parquet(folder, partition_by=["day"])
    # polars keeps the key in the files too (pyarrow cannot merge the two types)
    whole = pl.read_parquet(folder, hive_partitioning=True).to_pandas()
    for limit in (None, TINY):
        same_table(quiet(evaluate_file, folder, label="y", score=["m1", "m2"], by="day",
                         memory_limit=limit, progress=False),
                   oracle(whole, ["m1", "m2"], ["day"]))


def test_string_partition_values_and_one_class_segments(tmp_path, backend):
    df = frame(20_000)
    df["site"] = np.where(df.day > 25, "a b/c", "2026-11-" + df.day.astype(str).str.zfill(2))
    df.loc[df.day == 7, "y"] = 1                    # one class in one partition
    folder = hive(tmp_path, df.drop(columns="day"), cols=("site",))
    whole = pq.read_table(folder).to_pandas()
    want = oracle(whole, ["m1", "m2"], ["site"])
    assert want.columns["one_class"].any()
    for limit in (None, TINY):
        with pytest.warns(IndistFastWarning, match="single class"):
            got = evaluate_file(folder, label="y", score=["m1", "m2"], by="site",
                                memory_limit=limit, progress=False)
        same_table(got, want)
        assert "a b/c" in got.columns["site"].tolist()         # URL-decoded


# --- out of core: every path taken, each equal to memory ------------------------------------------

class Calls:
    def __init__(self, monkeypatch):
        self.counts = {"_bucket": 0, "_one_segment": 0, "_out_of_core": 0}
        for name in self.counts:
            original = getattr(file_plan.TablePlan, name)

            def wrapped(*a, _original=original, _name=name, **k):
                self.counts[_name] += 1
                return _original(*a, **k)
            monkeypatch.setattr(file_plan.TablePlan, name, wrapped)


@pytest.mark.slow
@pytest.mark.parametrize("weight", [None, "w"])
def test_out_of_core_takes_buckets_splits_and_lone_segments(tmp_path, backend, monkeypatch,
                                                            weight):
    df = frame()
    # segments of every size: a huge one (beyond the limit alone), many small ones
    df["seg"] = np.where(np.arange(N) % 3 == 0, 0, 1 + np.arange(N) % 97)
    path = tmp_path / "d.parquet"
    df.to_parquet(path, index=False, row_group_size=4_000)
    calls = Calls(monkeypatch)
    got = quiet(evaluate_file, path, label="y", score=["m1", "m2"], by=["seg"],
                weight=weight, memory_limit=TINY, progress=False)
    assert calls.counts["_out_of_core"] == 1
    assert calls.counts["_one_segment"] >= 1          # segment 0: 16,667 rows
    assert calls.counts["_bucket"] > 2                # split after parking
    same_table(got, oracle(df, ["m1", "m2"], ["seg"], weight), weight is not None)


def test_out_of_core_equals_memory_without_segments(tmp_path, backend):
    df = frame()
    path = tmp_path / "d.parquet"
    df.to_parquet(path, index=False)
    for weight in (None, "w"):
        got = quiet(evaluate_file, path, label="y", score=["m1", "m2"], weight=weight,
                    memory_limit=TINY, progress=False)
        same_table(got, oracle(df, ["m1", "m2"], None, weight), weight is not None)


def test_a_one_class_segment_beyond_the_limit(tmp_path, backend):
    df = frame()
    df.loc[df.day <= 10, "y"] = 0
    df["big"] = (df.day <= 10).astype(np.int64)       # ~16,000 rows of negatives only
    path = tmp_path / "d.parquet"
    df.to_parquet(path, index=False)
    for weight in (None, "w"):
        got = quiet(evaluate_file, path, label="y", score=["m1", "m2"], by="big",
                    weight=weight, memory_limit=TINY, progress=False)
        same_table(got, oracle(df, ["m1", "m2"], ["big"], weight), weight is not None)


def test_temporary_files_are_gone(tmp_path, backend):
    folder = hive(tmp_path, frame())
    spill = tmp_path / "spill"
    spill.mkdir()
    fds = len(os.listdir("/proc/self/fd")) if HAS_PROC else None
    quiet(evaluate_file, folder, label="y", score=["m1", "m2"], by="day", memory_limit=TINY,
          tmp_dir=spill, progress=False)
    with pytest.raises(ValueError):                  # an error half way: cleaned up too
        bad = frame(2_000).assign(m2=np.nan)
        bad.to_parquet(folder / "day=99.parquet")
        quiet(evaluate_file, [folder / "day=99.parquet"] + sorted(folder.rglob("*.parquet")),
              label="y", score=["m1", "m2"], memory_limit=TINY, tmp_dir=spill,
              progress=False)
    assert list(spill.iterdir()) == []
    if HAS_PROC:
        assert held_files_in(spill) == []
        assert len(os.listdir("/proc/self/fd")) == fds


# --- errors ---------------------------------------------------------------------------------------

def two_files(tmp_path, second, first=None):
    """Two Parquet files, written from NumPy columns (a NaN stays a float NaN; pandas
    would write a null)."""
    for name, df in (("a", frame(6_000) if first is None else first), ("b", second)):
        pq.write_table(pa.table({c: df[c].to_numpy() for c in df.columns}),
                       tmp_path / f"{name}.parquet")
    return tmp_path


@pytest.mark.parametrize("limit", [None, TINY])
@pytest.mark.parametrize("score", ["m1", ["m1", "m2"]])
def test_third_label_in_the_second_file(tmp_path, backend, limit, score):
    first = frame(6_000).assign(y=lambda d: np.where(d.y == 1, 1, -1))
    second = first.copy()
    second.loc[5, "y"] = 0                   # -1, 0, 1: within the range of the coding
    folder = two_files(tmp_path, second, first)
    with pytest.raises(ValueError, match=r"^label: column 'y' of .*: y_true must be binary; "
                                         r"found a third label 0 at row 5 of .*b\.parquet"):
        quiet(evaluate_file, folder, label="y", score=score, memory_limit=limit,
              progress=False)
    second.loc[5, "y"] = 2                   # beyond it: named by its row all the same
    folder = two_files(tmp_path, second, first)
    with pytest.raises(ValueError, match=r"^label: column 'y' of .*: y_true must be binary; "
                                         r"found a third label 2 at row 5 of .*b\.parquet"):
        quiet(evaluate_file, folder, label="y", score=score, memory_limit=limit,
              progress=False)


@pytest.mark.parametrize("limit", [None, TINY])
def test_nan_in_a_second_model_names_its_column_and_file_row(tmp_path, backend, limit):
    second = frame(6_000, seed=1)
    second.loc[17, "m2"] = np.nan
    folder = two_files(tmp_path, second)
    with pytest.raises(ValueError, match=r"^score: column 'm2' of .*: y_score contains NaN "
                                         r"\(first at row 17 of .*b\.parquet\)"):
        quiet(evaluate_file, folder, label="y", score=["m1", "m2"], by="day",
              memory_limit=limit, progress=False)
    # pandas writes NaN as a null: the readers name it
    second.to_parquet(folder / "b.parquet")
    with pytest.raises(ValueError, match=r"^score: column 'm2' of .*b\.parquet has a "
                                         r"missing \(null\) value at row 17"):
        quiet(evaluate_file, folder, label="y", score=["m1", "m2"], by="day",
              memory_limit=limit, progress=False)


def test_a_label_coding_that_changes_between_files(tmp_path, backend):
    second = frame(6_000, seed=1)
    second["y"] = np.where(second.y == 1, 1, -1)
    folder = two_files(tmp_path, second)
    for limit in (None, TINY):
        with pytest.raises(ValueError, match=r"^label: .*y_true"):
            quiet(evaluate_file, folder, label="y", score=["m1"], by="day",
                  memory_limit=limit, progress=False)


def test_missing_column_in_one_file(tmp_path):
    folder = two_files(tmp_path, frame(6_000).drop(columns="m2"))
    with pytest.raises(ValueError, match=r"^score: column 'm2' is not in .*b\.parquet"):
        evaluate_file(folder, label="y", score=["m1", "m2"], progress=False)


def test_schemas_that_disagree(tmp_path):
    folder = two_files(tmp_path, frame(6_000).assign(y=lambda d: d.y.map({0: "n", 1: "p"})))
    with pytest.raises(ValueError, match=r"^path: the files of .* disagree on column 'y' "
                                         r"\(the label column\): numbers in .*a\.parquet, "
                                         r"text in .*b\.parquet"):
        evaluate_file(folder, label="y", score="m1", pos_label="p", progress=False)
    folder2 = tmp_path / "c"
    folder2.mkdir()
    frame(100).to_parquet(folder2 / "a.parquet")
    frame(100).assign(country=1).to_parquet(folder2 / "b.parquet")
    with pytest.raises(ValueError, match=r"^path: .* disagree on column 'country' \(the by"):
        evaluate_file(folder2, label="y", score="m1", by="country", progress=False)


def test_bad_paths(tmp_path):
    with pytest.raises(ValueError, match=r"^path: the pattern .*\*\.parquet matches no file"):
        evaluate_file(str(tmp_path / "*.parquet"), label="y", score="m1")
    (tmp_path / "empty" / "day=1").mkdir(parents=True)
    with pytest.raises(ValueError, match=r"^path: .*empty is a directory with no data files"):
        evaluate_file(tmp_path / "empty", label="y", score=["m1"])
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    frame(10).to_parquet(mixed / "a.parquet")
    frame(10).to_csv(mixed / "b.csv", index=False)
    with pytest.raises(ValueError, match=r"^path: .*mixed mixes file formats: .*a\.parquet"
                                         r".*b\.csv"):
        evaluate_file(mixed, label="y", score="m1")
    (mixed / "notes.txt").write_text("hello")
    with pytest.raises(ValueError, match=r"^path: cannot read \.txt files \(.*notes\.txt\)"):
        evaluate_file(mixed, label="y", score="m1")
    with pytest.raises(ValueError, match=r"^path: the list of files is empty"):
        evaluate_file([], label="y", score="m1")
    with pytest.raises(FileNotFoundError, match=r"^path: no such file: .*nope\.parquet"):
        evaluate_file([mixed / "a.parquet", tmp_path / "nope.parquet"], label="y",
                      score="m1")
    with pytest.raises(TypeError, match=r"^path must be a file name, folder or glob"):
        evaluate_file(3, label="y", score="m1")


def test_partition_keys_as_label_or_score_and_reserved_names(tmp_path):
    folder = hive(tmp_path, frame(2_000))
    with pytest.raises(ValueError, match=r"^score: column 'day' is a partition key"):
        evaluate_file(folder, label="y", score=["m1", "day"], progress=False)
    with pytest.raises(ValueError, match=r"^by: segment column name\(s\) \['auc'\]"):
        evaluate_file(folder, label="y", score=["m1"], by="auc", progress=False)
    with pytest.raises(ValueError, match=r"^score names a column twice"):
        evaluate_file(folder, label="y", score=["m1", "m1"], progress=False)
    with pytest.raises(TypeError, match=r"^by must be a column name"):
        evaluate_file(folder, label="y", score=["m1"], by=[3], progress=False)
    with pytest.raises(ValueError, match=r"^by: column 'nope' is not in .*day=1"):
        evaluate_file(folder, label="y", score=["m1"], by="nope", progress=False)


def test_nan_in_a_segment_column_names_by(tmp_path):
    df = frame(3_000)
    g = np.where(np.arange(3_000) == 1234, np.nan, 1.0)
    np.savez(tmp_path / "d.npz", y=df.y.to_numpy(), m1=df.m1.to_numpy(), g=g)
    for limit in (None, "50KB"):
        with pytest.raises(ValueError, match=r"^by: column 'g' of .*d\.npz: g has a "
                                             r"missing value \(NaN\) at row 1234"):
            evaluate_file(tmp_path / "d.npz", label="y", score=["m1"], by="g",
                          memory_limit=limit, progress=False)


def test_null_partition_key(tmp_path):
    df = frame(2_000)
    df["site"] = np.where(df.day > 20, None, "x")
    folder = hive(tmp_path, df.drop(columns="day"), cols=("site",))
    with pytest.raises(ValueError, match=r"^by: partition key 'site' of .* is null"):
        evaluate_file(folder, label="y", score=["m1"], by="site", progress=False)


# --- progress over bytes ------------------------------------------------------------------------

@pytest.mark.slow
def test_progress_counts_bytes_of_datasets_and_compressed_csv(tmp_path, fake_tqdm):
    folder = hive(tmp_path, frame())
    total = sum(p.stat().st_size for p in folder.rglob("*.parquet"))
    for limit in (None, TINY):
        quiet(evaluate_file, folder, label="y", score=["m1", "m2"], by="day",
              memory_limit=limit, progress=True)
        bar = fake_tqdm.pop()
        assert (bar.unit, bar.total, bar.n) == ("B", total, total)
    path = tmp_path / "d.csv.gz"
    with gzip.open(path, "wt") as fh:
        frame(20_000).to_csv(fh, index=False)
    quiet(evaluate_file, path, label="y", score="m1", memory_limit=TINY, progress=True)
    bar = fake_tqdm.pop()
    assert (bar.unit, bar.total, bar.n) == ("B", path.stat().st_size, path.stat().st_size)
    # a single file of known length counts rows, as before
    frame().to_parquet(tmp_path / "d.parquet")
    quiet(evaluate_file, tmp_path / "d.parquet", label="y", score="m1", memory_limit=TINY,
          progress=True)
    bar = fake_tqdm.pop()
    assert (bar.unit, bar.total, bar.n) == ("rows", N, N)


@pytest.mark.slow
def test_date_segments_from_csv_and_parquet(tmp_path, backend):
    df = frame(20_000)
    df["when"] = pd.to_datetime("2026-11-01") + pd.to_timedelta(df.day % 7, unit="D")
    df.assign(when=df.when.dt.strftime("%Y-%m-%d")).to_csv(tmp_path / "d.csv", index=False)
    df.to_parquet(tmp_path / "d.parquet", index=False)
    for name in ("d.csv", "d.parquet"):
        read = (pd.read_csv(tmp_path / name, parse_dates=["when"]) if name == "d.csv"
                else df)
        want = oracle(read, ["m1", "m2"], ["when"])
        for limit in (None, TINY):
            got = quiet(evaluate_file, tmp_path / name, label="y", score=["m1", "m2"],
                        by="when", memory_limit=limit, progress=False)
            assert got.columns["when"].dtype.kind == "M"
            np.testing.assert_array_equal(got.columns["when"].astype("datetime64[D]"),
                                          want.columns["when"].astype("datetime64[D]"))
            for col in ("auc", "n_rows", "threshold", "precision"):
                np.testing.assert_array_equal(got.columns[col], want.columns[col])
    with pytest.raises(TypeError, match=r"^score: column 'when' of .* has Arrow type "
                                        r"timestamp"):
        evaluate_file(tmp_path / "d.parquet", label="y", score=["when"], progress=False)
    with pytest.raises(ValueError, match=r"partition keys: 'day'"):
        evaluate_file(hive(tmp_path, df.drop(columns="when")), label="y", score="m1",
                      by="nope", progress=False)


@pytest.mark.slow
@pytest.mark.parametrize("weight", [None, "w"])
def test_partition_segments_one_at_a_time_or_parked(tmp_path, backend, monkeypatch, weight):
    """Segments made of partition keys are swept partition by partition when each
    fits the limit, else parked like any segment: both equal to memory."""
    df = frame()
    folder = hive(tmp_path, df, cols=("country", "day"))
    whole = pq.read_table(folder).to_pandas()
    taken = []
    original = file_plan.TablePlan._by_partitions

    def spy(self, *args):
        taken.append(original(self, *args))
        return taken[-1]
    monkeypatch.setattr(file_plan.TablePlan, "_by_partitions", spy)
    for by in (["day"], ["day", "country"]):
        want = oracle(whole, ["m1", "m2"], by, weight)
        for limit, partitioned in ((None, True), ("300KB", True), ("10KB", False)):
            got = quiet(evaluate_file, folder, label="y", score=["m1", "m2"], by=by,
                        weight=weight, memory_limit=limit, progress=False)
            assert taken.pop() is partitioned
            same_table(got, want, weight is not None)


def test_score_and_by_that_are_not_names(tmp_path):
    frame(100).to_parquet(tmp_path / "d.parquet")
    for score, by, name in ((5, None, "score"), (["m1"], 3, "by"), ({"m1"}, None, "score"),
                            ([], None, "score")):
        with pytest.raises(TypeError, match=rf"^{name} must be a column name or a "
                                            "non-empty list of them"):
            evaluate_file(tmp_path / "d.parquet", label="y", score=score, by=by)


CHILD = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
import indist_fast, pyarrow.parquet, pyarrow.compute, pandas
def hwm():
    with open("/proc/self/status") as fh:
        return next(int(l.split()[1]) * 1024 for l in fh if l.startswith("VmHWM"))
base = hwm()
indist_fast.evaluate_file(sys.argv[1], label="y", score=["m1", "m2"], by="g",
                          memory_limit=sys.argv[2] or None, progress=False)
print(json.dumps(hwm() - base))
"""


@pytest.mark.slow
@pytest.mark.skipif(not HAS_PROC, reason="reads /proc/self/status")
def test_out_of_core_tables_stay_near_the_memory_limit(tmp_path):
    import subprocess
    n = 3_000_000
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, n).astype(np.uint8)
    pq.write_table(pa.table({"y": y, "m1": rng.normal(y, 1.0).astype(np.float32),
                             "m2": rng.normal(y, 1.0).astype(np.float32),
                             "g": rng.integers(0, 500, n)}), tmp_path / "d.parquet",
                   row_group_size=1 << 18)

    def extra(limit):
        out = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "d.parquet"),
                              limit], capture_output=True, text=True, env=child_env(),
                             cwd=CHILD_CWD, check=True)
        return int(out.stdout.split()[-1])
    limit = 40 * 10**6
    bounded, whole = extra(str(limit)), extra("")
    # the rows alone take 3e6 x 25 bytes parked, 3e6 x 17 read: in memory far more
    assert whole > 3 * limit
    assert bounded < 2 * limit + 30 * 10**6, (bounded, whole)
