"""Segment values of every kind ``evaluate_many`` accepts: dates and timestamps written
as ISO 8601 text (JSON, CSV, HTML), pyarrow arrays (dictionary-encoded and chunked
too), columns mixing value types refused by name, NaT a missing value like NaN, and
every accepted table exported by ``to_arrow``."""

from __future__ import annotations

import csv
import datetime
import json
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.cli import main
from indist_fast.html import report_html

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([.1, .9, .3, .4, .2, .5, .8, .6])
HALVES = ["a"] * 4 + ["b"] * 4


def _many(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return indist_fast.evaluate_many(*args, **kwargs)


def _by_string(groups):
    """The table with the same segments given as plain strings: the oracle for every
    other spelling of them (the rows of a segment are the same, so are its metrics)."""
    return _many(Y, S, groups=np.array(groups, dtype=object).astype(str))


# --- dates and timestamps as ISO text ------------------------------------------------------------

D1, D2 = datetime.date(2024, 1, 1), datetime.date(2024, 1, 2)
T1, T2 = datetime.datetime(2024, 1, 1, 10), datetime.datetime(2024, 1, 2, 11, 30, 0, 500000)
DATE_GROUPS = {
    "date_objects": ([D1] * 4 + [D2] * 4, ["2024-01-01", "2024-01-02"]),
    "datetime64_D": (np.array(["2024-01-01"] * 4 + ["2024-01-02"] * 4, dtype="datetime64[D]"),
                     ["2024-01-01", "2024-01-02"]),
    "datetime64_ns": (np.array([T1] * 4 + [T2] * 4, dtype="datetime64[ns]"),
                      ["2024-01-01T10:00:00", "2024-01-02T11:30:00.500000000"]),
    "datetime_objects": ([T1] * 4 + [T2] * 4,
                         ["2024-01-01T10:00:00", "2024-01-02T11:30:00.500000"]),
    "pandas_tz": (pd.Series(pd.to_datetime([T1] * 4 + [T2] * 4)).dt.tz_localize("UTC"),
                  ["2024-01-01T10:00:00+00:00", "2024-01-02T11:30:00.500000+00:00"]),
}


@pytest.mark.parametrize("kind", list(DATE_GROUPS))
def test_dates_are_iso_text_in_dicts_and_html(backend, kind):
    groups, want = DATE_GROUPS[kind]
    table = _many(Y, S, groups=groups)
    got = table.to_dict()["group"]
    assert got == want
    json.dumps(table.to_dict())                      # plain JSON types throughout
    oracle = _by_string(HALVES).to_dict()
    assert table.to_dict()["auc"] == oracle["auc"]
    html = table._repr_html_() + report_html(Y, S, groups=groups)
    for text in want:
        assert f'data-value="{text}"' in html
    assert all(text in str(table) for text in want)


def test_totals_rows_keep_dates_as_text(backend):
    groups = np.array(["2024-01-01"] * 4 + ["2024-01-02"] * 4, dtype="datetime64[ns]")
    table = _many(Y, S, groups=groups, total=True)
    assert table.to_dict()["group"] == ["2024-01-01T00:00:00", "2024-01-02T00:00:00", None]


@pytest.fixture
def dated_csv(tmp_path):
    path = tmp_path / "d.csv"
    days = ["2024-01-01"] * 4 + ["2024-01-02"] * 4
    stamps = ["2024-01-01 10:00:00"] * 4 + ["2024-01-02 11:30:00"] * 4
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["y", "m1", "day", "at"])
        writer.writerows(zip(Y, S, days, stamps))
    return path


@pytest.mark.parametrize("column, want", [
    ("day", ["2024-01-01", "2024-01-02"]),
    ("at", ["2024-01-01T10:00:00", "2024-01-02T11:30:00"])])
def test_cli_writes_dates_as_iso_text(dated_csv, tmp_path, capsys, column, want):
    argv = ["evaluate", str(dated_csv), "--label", "y", "--score", "m1", "--by", column]
    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[column] == want
    assert out["auc"] == _by_string(HALVES).to_dict()["auc"]
    table_csv, page = tmp_path / "t.csv", tmp_path / "t.html"
    assert main(argv + ["--csv", str(table_csv), "--html", str(page)]) == 0
    with open(table_csv, newline="") as fh:
        assert [row[column] for row in csv.DictReader(fh)] == want
    html = page.read_text()
    assert all(f'data-value="{text}"' in html for text in want)


# --- pyarrow arrays -------------------------------------------------------------------------------

ARROW_GROUPS = {
    "array": lambda: pa.array(HALVES),
    "dictionary": lambda: pa.array(HALVES).dictionary_encode(),
    "chunked": lambda: pa.chunked_array([HALVES[:3], HALVES[3:]]),
    "chunked_dictionary": lambda: pa.chunked_array(
        [pa.array(HALVES[:3]).dictionary_encode(), pa.array(HALVES[3:]).dictionary_encode()]),
    "large_string": lambda: pa.array(HALVES, type=pa.large_string()),
}


@pytest.mark.parametrize("kind", list(ARROW_GROUPS))
def test_pyarrow_groups_are_the_numpy_groups(backend, kind):
    want = _by_string(HALVES).to_dict()
    assert _many(Y, S, groups=ARROW_GROUPS[kind]()).to_dict() == want
    both = _many(Y, S, groups=[ARROW_GROUPS[kind](), np.array(HALVES)]).to_dict()
    assert both["group0"] == both["group1"] == ["a", "b"] and both["auc"] == want["auc"]
    html = report_html(Y, S, groups=ARROW_GROUPS[kind]())
    assert 'data-value="a"' in html and 'data-value="b"' in html


@pytest.mark.parametrize("groups, shown", [
    (lambda: pa.array(["a", None] + HALVES[2:]), "None"),
    (lambda: pa.array(["a", None] + HALVES[2:]).dictionary_encode(), "None"),
    (lambda: pa.array([1, None, 1, 1, 2, 2, 2, 2]), "NaN")])
def test_pyarrow_nulls_are_missing_values(groups, shown):
    with pytest.raises(ValueError, match=rf"groups has a missing value \({shown}\) at row 1"):
        indist_fast.evaluate_many(Y, S, groups=groups())


@pytest.mark.parametrize("column", [
    lambda: pa.array(["a", None] + HALVES[2:]).dictionary_encode(),
    lambda: pa.chunked_array([pa.array(["a", None, "a"]).dictionary_encode(),
                              pa.array(HALVES[3:]).dictionary_encode()])])
def test_nulls_of_a_dictionary_column_of_a_table_are_missing(backend, column):
    table = pa.table({"y": Y, "p": S, "g": column()})
    with pytest.raises(ValueError, match=r"^g has a missing value \(None\) at row 1"):
        indist_fast.evaluate_many(table, label="y", score="p", by="g")


# --- value types mixed in one column --------------------------------------------------------------

@pytest.mark.parametrize("groups, types", [
    (np.array([1, 1, 1, 1, "a", "a", "a", "a"], dtype=object), "int and str"),
    (pd.Series([1, 1, 1, 1, "1", "1", "1", "1"]), "int and str"),
    (np.array([True] * 4 + [2] * 4, dtype=object), "bool and int"),
    (np.array([D1] * 4 + ["x"] * 4, dtype=object), "date and str"),
    (np.array([D1] * 4 + [T1] * 4, dtype=object), "date and datetime"),
])
def test_mixed_value_types_are_refused_by_name(groups, types):
    with pytest.raises(TypeError, match=rf"^groups mixes values of types {types}"):
        indist_fast.evaluate_many(Y, S, groups=groups)
    with pytest.raises(TypeError, match=rf"^region mixes values of types {types}"):
        indist_fast.evaluate_many(Y, S, groups={"ab": HALVES, "region": groups})


ACCEPTED = {
    "str": HALVES, "int": [1] * 4 + [2] * 4, "float": [1.5] * 4 + [2.5] * 4,
    "bool": [True] * 4 + [False] * 4, "bytes": [b"a"] * 4 + [b"b"] * 4,
    "int_and_float": np.array([1] * 4 + [2.5] * 4, dtype=object),
    "numpy_and_python_ints": np.array([np.int64(1)] * 4 + [2] * 4, dtype=object),
    "date": [D1] * 4 + [D2] * 4,
    "datetime64": np.array([T1] * 4 + [T2] * 4, dtype="datetime64[us]"),
    "pandas_tz": DATE_GROUPS["pandas_tz"][0],
    "categorical": pd.Series(pd.Categorical(HALVES)),
    "arrow_dictionary": ARROW_GROUPS["dictionary"](),
}


@pytest.mark.parametrize("kind", list(ACCEPTED))
@pytest.mark.parametrize("total", [False, True])
def test_every_accepted_table_exports_to_arrow(backend, kind, total):
    table = _many(Y, S, groups=ACCEPTED[kind], total=total)
    arrow = table.to_arrow()
    assert arrow.num_rows == len(table) == 2 + total
    assert arrow.column("auc").to_pylist() == table.columns["auc"].tolist()
    assert arrow.column("group").null_count == total
    json.dumps(table.to_dict())


# --- NaT is missing -------------------------------------------------------------------------------

@pytest.mark.parametrize("groups", [
    lambda: np.array(["2024-01-01", "NaT"] + ["2024-01-02"] * 6, dtype="datetime64[D]"),
    lambda: np.array(["2024-01-01", "NaT"] + ["2024-01-02"] * 6, dtype="datetime64[ns]"),
    lambda: pd.Series(pd.to_datetime(["2024-01-01", None] + ["2024-01-02"] * 6)),
    lambda: pd.Series(pd.to_datetime(["2024-01-01", None] + ["2024-01-02"] * 6)
                      ).dt.tz_localize("UTC"),
    lambda: np.array([D1, pd.NaT] + [D2] * 6, dtype=object),
    lambda: np.array([np.datetime64("2024-01-01"), np.datetime64("NaT")]
                     + [np.datetime64("2024-01-02")] * 6, dtype=object),
    lambda: pa.array([D1, None] + [D2] * 6),
])
def test_nat_is_a_missing_value(backend, groups):
    with pytest.raises(ValueError, match=r"groups has a missing value \((NaT|None|nan)\) at row 1"):
        indist_fast.evaluate_many(Y, S, groups=groups())
    with pytest.raises(ValueError, match=r"^when has a missing value .* at row 1"):
        indist_fast.evaluate_many(Y, S, groups={"ab": HALVES, "when": groups()})


def test_numpy_nat_is_named_nat():
    groups = np.array(["2024-01-01", "NaT"] + ["2024-01-02"] * 6, dtype="datetime64[ns]")
    with pytest.raises(ValueError, match=r"groups has a missing value \(NaT\) at row 1; drop"):
        indist_fast.evaluate_many(Y, S, groups=groups)
