"""Every Arrow column type pandas, polars and pyarrow write reads as in memory: the file
gives exactly ``evaluate`` on the same columns as NumPy arrays, in memory and out of
core, on both backends; nulls are named by column and row, or dropped."""

from __future__ import annotations

import warnings
from decimal import Decimal

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning, evaluate_file
from indist_fast.io import read_columns
from reports import assert_reports_equal

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

N = 3000
TINY = 20_000                # memory_limit: every file below goes out of core
rng = np.random.default_rng(5)
Y = rng.random(N) < 0.3
S = np.round(rng.normal(size=N) + Y, 2)                     # ties within and across chunks
W = rng.integers(0, 4, N)
TEXT = np.where(Y, "spam", "ham")


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


def decimals(values, scale):
    return [Decimal(f"{v:.{scale}f}") for v in values]


# (Arrow column, the NumPy array evaluate gets in memory, pos_label)
LABELS = {
    "bool": (pa.array(Y), Y, None),
    "int8": (pa.array(Y.astype(np.int8)), Y.astype(np.int8), None),
    "uint8": (pa.array(Y.astype(np.uint8)), Y.astype(np.uint8), None),
    "int64 -1/1": (pa.array(np.where(Y, 1, -1)), np.where(Y, 1, -1), None),
    "float32": (pa.array(Y.astype(np.float32)), Y.astype(np.float32), None),
    "int32 with pos_label 7": (pa.array(np.where(Y, 7, 3).astype(np.int32)),
                               np.where(Y, 7, 3).astype(np.int32), 7),
    "string": (pa.array(TEXT), TEXT, "spam"),
    "large_string": (pa.array(TEXT, pa.large_string()), TEXT, "spam"),
    "dictionary of strings": (pa.array(TEXT).dictionary_encode(), TEXT, "spam"),
    "dictionary of ints": (pa.array(Y.astype(np.int16)).dictionary_encode(),
                           Y.astype(np.int16), None),
    "binary": (pa.array([t.encode() for t in TEXT], pa.binary()),
               np.array([t.encode() for t in TEXT], dtype=object), b"spam"),
}
SCORES = {
    "float64": (pa.array(S), S),
    "float32": (pa.array(S.astype(np.float32)), S.astype(np.float32)),
    "float16": (pa.array(S.astype(np.float16)), S.astype(np.float16)),
    "int32": (pa.array((S * 100).astype(np.int32)), (S * 100).astype(np.int32)),
    "uint16": (pa.array((S * 100 + 1000).astype(np.uint16)),
               (S * 100 + 1000).astype(np.uint16)),
    "decimal128(9, 2)": (pa.array(decimals(S, 2), pa.decimal128(9, 2)),
                         np.array([float(d) for d in decimals(S, 2)])),
    "decimal256(40, 2)": (pa.array(decimals(S, 2), pa.decimal256(40, 2)),
                          np.array([float(d) for d in decimals(S, 2)])),
    "dictionary of floats": (pa.array(S).dictionary_encode(), S),
    "bool": (pa.array(S > 0.5), S > 0.5),
}
WEIGHTS = {
    "int64": (pa.array(W), W),
    "float32": (pa.array(W.astype(np.float32)), W.astype(np.float32)),
    "uint8": (pa.array(W.astype(np.uint8)), W.astype(np.uint8)),
    "decimal128(5, 1)": (pa.array(decimals(W, 1), pa.decimal128(5, 1)), W.astype(float)),
}


def parquet(tmp_path, label, score, weight=None, name="d.parquet"):
    columns = {"y": label, "s": score}
    if weight is not None:
        columns["w"] = weight
    path = tmp_path / name
    pq.write_table(pa.table(columns), path, row_group_size=700)    # several batches
    return path


def check(path, y, s, w, pos_label, **kw):
    want = quiet(indist_fast.evaluate, y, s, sample_weight=w, pos_label=pos_label)
    for limit in (None, TINY):                   # in memory, and sorted runs on disk
        got = quiet(evaluate_file, path, label="y", score="s",
                    weight=None if w is None else "w", pos_label=pos_label,
                    memory_limit=limit, progress=False, **kw)
        assert_reports_equal(got, want)
        assert got.n_rows == len(s)


@pytest.mark.parametrize("kind", LABELS)
def test_label_types(tmp_path, backend, kind):
    column, y, pos_label = LABELS[kind]
    check(parquet(tmp_path, column, pa.array(S)), y, S, None, pos_label)


@pytest.mark.parametrize("kind", SCORES)
def test_score_types(tmp_path, backend, kind):
    column, s = SCORES[kind]
    check(parquet(tmp_path, pa.array(Y), column), Y, s, None, None)


@pytest.mark.parametrize("kind", WEIGHTS)
def test_weight_types(tmp_path, backend, kind):
    column, w = WEIGHTS[kind]
    check(parquet(tmp_path, pa.array(TEXT), pa.array(S), column), TEXT, S, w, "spam")


def test_decimals_are_the_nearest_double(tmp_path):
    # Arrow's direct decimal -> double cast is off by an ulp for some of these;
    # evaluate on the Decimal objects uses float(Decimal), which is exact.
    r = np.random.default_rng(1)
    values = [Decimal(int(r.integers(-10**17, 10**17))) / Decimal(10) ** int(r.integers(0, 19))
              for _ in range(5000)]
    column = pa.array(values, pa.decimal128(38, 18))
    path = parquet(tmp_path, pa.array(np.arange(5000) % 2 == 0), column)
    _, s, _ = read_columns(path, label="y", score="s")
    want = np.array([float(v) for v in column.to_pylist()])
    assert s.dtype == np.float64
    np.testing.assert_array_equal(s, want)


def test_pandas_written_types(tmp_path, backend):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({
        "cat": pd.Categorical(TEXT), "text": pd.Series(TEXT, dtype="string"),
        "flag": pd.Series(Y, dtype="boolean"), "int": pd.Series(Y.astype(int), dtype="Int64"),
        "s": S, "w": W})
    frame.to_parquet(tmp_path / "pd.parquet", row_group_size=700)
    for label, pos_label, y in (("cat", "spam", TEXT), ("text", "spam", TEXT),
                                ("flag", None, Y), ("int", None, Y.astype(int))):
        want = quiet(indist_fast.evaluate, y, S, sample_weight=W, pos_label=pos_label)
        for limit in (None, TINY):
            got = quiet(evaluate_file, tmp_path / "pd.parquet", label=label, score="s",
                        weight="w", pos_label=pos_label, memory_limit=limit, progress=False)
            assert_reports_equal(got, want)


def test_polars_written_types(tmp_path, backend):
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({
        "cat": pl.Series(TEXT).cast(pl.Categorical), "enum": pl.Series(TEXT).cast(
            pl.Enum(["ham", "spam"])), "text": TEXT, "flag": Y,
        "s": S, "s32": S.astype(np.float32), "dec": pl.Series(decimals(S, 2)),
        "w": W})
    frame.write_parquet(tmp_path / "pl.parquet", row_group_size=700)
    cases = [("cat", "s", "spam", TEXT, S), ("enum", "s", "spam", TEXT, S),
             ("text", "s32", "spam", TEXT, S.astype(np.float32)),
             ("flag", "dec", None, Y, np.array([float(d) for d in decimals(S, 2)]))]
    for label, score, pos_label, y, s in cases:
        want = quiet(indist_fast.evaluate, y, s, pos_label=pos_label)
        for limit in (None, TINY):
            got = quiet(evaluate_file, tmp_path / "pl.parquet", label=label, score=score,
                        pos_label=pos_label, memory_limit=limit, progress=False)
            assert_reports_equal(got, want)


def test_csv_types_across_blocks(tmp_path, backend):
    # 120k rows (over 1 MB: several blocks at a small limit). The first block's
    # scores are all integers and its labels read as booleans; later scores are not.
    n = 120_000
    r = np.random.default_rng(8)
    y = r.random(n) < 0.3
    s = np.where(np.arange(n) < 90_000, r.integers(0, 5, n), np.round(r.normal(size=n), 3))
    path = tmp_path / "d.csv"
    with open(path, "w") as fh:
        fh.write("label,score,note\n")
        fh.writelines(f"{'true' if a else 'false'},{b!r},x\n"
                      for a, b in zip(y.tolist(), s.tolist()))
    want = quiet(indist_fast.evaluate, y, s)
    for limit in (None, TINY):
        got = quiet(evaluate_file, path, label="label", score="score", memory_limit=limit,
                    progress=False)
        assert_reports_equal(got, want)


def test_csv_text_labels(tmp_path, backend):
    path = tmp_path / "d.csv"
    path.write_text("y,s\n" + "".join(f"{a},{b!r}\n" for a, b in zip(TEXT, S.tolist())))
    check(path, TEXT, S, None, "spam")
    with pytest.raises(ValueError) as from_file:
        evaluate_file(path, label="y", score="s", progress=False)
    with pytest.raises(ValueError) as in_memory:      # text columns come as Python strings
        indist_fast.evaluate(TEXT.astype(object), S)
    # "pass pos_label", under the column it is about
    assert str(from_file.value) == f"label: column 'y' of {path}: {in_memory.value}"


# --- nulls ----------------------------------------------------------------------------------------

def with_null(values, rows, type=None):
    return pa.array([None if i in rows else v for i, v in enumerate(values.tolist())], type)


@pytest.mark.parametrize("role", ["label", "score", "weight"])
def test_a_null_names_the_column_and_its_row(tmp_path, backend, role):
    first = 2345                                     # in the fourth row group
    nulls = {first, first + 7, 2900}
    columns = {"label": pa.array(Y), "score": pa.array(S), "weight": pa.array(W)}
    columns[role] = with_null({"label": Y, "score": S, "weight": W}[role], nulls)
    path = parquet(tmp_path, columns["label"], columns["score"], columns["weight"])
    name = {"label": "y", "score": "s", "weight": "w"}[role]
    for limit in (None, TINY):
        with pytest.raises(ValueError, match=rf"^{role}: column '{name}' of .*d\.parquet has "
                                             rf"a missing \(null\) value at row {first} .*"
                                             "drop_nulls=True"):
            evaluate_file(path, label="y", score="s", weight="w", memory_limit=limit,
                          progress=False)
    keep = np.ones(N, bool)
    keep[list(nulls)] = False
    want = quiet(indist_fast.evaluate, Y[keep], S[keep], sample_weight=W[keep])
    for limit in (None, TINY):
        got = quiet(evaluate_file, path, label="y", score="s", weight="w", memory_limit=limit,
                    progress=False, drop_nulls=True)
        assert_reports_equal(got, want)
        assert got.n_rows == keep.sum()


def test_nulls_in_several_columns_and_categoricals(tmp_path, backend):
    label = pa.array([None if i in (5, 2200) else t for i, t in enumerate(TEXT)])
    label = label.dictionary_encode()
    score = with_null(S, {17, 2200})
    path = parquet(tmp_path, label, score)
    with pytest.raises(ValueError, match="^label: column 'y' .* at row 5 "):
        evaluate_file(path, label="y", score="s", pos_label="spam", progress=False)
    keep = np.ones(N, bool)
    keep[[5, 17, 2200]] = False
    want = quiet(indist_fast.evaluate, TEXT[keep], S[keep], pos_label="spam")
    got = quiet(evaluate_file, path, label="y", score="s", pos_label="spam", drop_nulls=True,
                memory_limit=TINY, progress=False)
    assert_reports_equal(got, want)


def test_csv_nulls_are_counted_across_blocks(tmp_path, backend):
    n = 120_000                                       # several blocks at a small limit
    r = np.random.default_rng(9)
    y = (r.random(n) < 0.4).astype(int)
    s = np.round(r.normal(size=n) + y, 4)
    text = [f"{a},{b!r}\n" for a, b in zip(y.tolist(), s.tolist())]
    text[100_001] = f"{y[100_001]},\n"                # empty field
    text[110_000] = f"{y[110_000]},NA\n"               # a null marker
    path = tmp_path / "d.csv"
    path.write_text("y,s\n" + "".join(text))
    for limit in (None, TINY):
        with pytest.raises(ValueError, match=r"^score: column 's' of .* at row 100001 "):
            evaluate_file(path, label="y", score="s", memory_limit=limit, progress=False)
        keep = np.ones(n, bool)
        keep[[100_001, 110_000]] = False
        got = quiet(evaluate_file, path, label="y", score="s", memory_limit=limit,
                    progress=False, drop_nulls=True)
        assert_reports_equal(got, quiet(indist_fast.evaluate, y[keep], s[keep]))


def test_only_nulls_is_no_rows(tmp_path):
    path = parquet(tmp_path, pa.array(Y), pa.array([None] * N, pa.float64()))
    with pytest.raises(ValueError, match=r"^path: .* holds no rows without a null"):
        evaluate_file(path, label="y", score="s", drop_nulls=True, progress=False)
    with pytest.raises(ValueError, match=r"^score: column 's' .* at row 0 "):
        read_columns(path, label="y", score="s")


# --- types a role cannot take ---------------------------------------------------------------------

@pytest.mark.parametrize("role, column", [
    ("score", pa.array(TEXT)),
    ("score", pa.array(np.arange(N).astype("datetime64[s]"))),
    ("weight", pa.array(TEXT).dictionary_encode()),
    ("label", pa.array([[1]] * N)),
    ("label", pa.array(np.arange(N).astype("datetime64[D]"))),
])
def test_a_column_of_the_wrong_type_is_a_type_error(tmp_path, role, column):
    columns = {"label": pa.array(Y), "score": pa.array(S), "weight": pa.array(W)}
    columns[role] = column
    path = parquet(tmp_path, columns["label"], columns["score"], columns["weight"])
    name = {"label": "y", "score": "s", "weight": "w"}[role]
    with pytest.raises(TypeError, match=rf"^{role}: column '{name}' of .* has Arrow type"):
        evaluate_file(path, label="y", score="s", weight="w", progress=False)
