"""``indist-fast evaluate`` with several ``--score`` and ``--by``: the table of
``evaluate_many`` on the same columns, printed, as JSON and as CSV."""

from __future__ import annotations

import csv
import json
import math
import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast.cli import main

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

rng = np.random.default_rng(12)
N = 3000
FRAME = pd.DataFrame({"y": rng.random(N) < 0.3,
                      "m1": np.round(rng.normal(size=N), 2),
                      "m2": np.round(rng.normal(size=N), 1),
                      "country": rng.choice(["de", "se", "fr"], N),
                      "day": rng.integers(1, 4, N)})
FRAME.loc[FRAME.country == "fr", "y"] = False        # a segment of one class


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    folder = tmp_path_factory.mktemp("logs")
    FRAME.to_parquet(folder, partition_cols=["day"])
    return folder


def expected():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return indist_fast.evaluate_many(FRAME, label="y", score=["m1", "m2"],
                                         by=["country", "day"])


def same(got, want):
    if isinstance(want, float) and math.isnan(want):
        return got is None or (isinstance(got, float) and math.isnan(got))
    if isinstance(want, float):
        return got == pytest.approx(want, rel=1e-12, abs=1e-12)
    return got == want


def test_json_is_evaluate_many(dataset, capsys):
    assert main(["evaluate", str(dataset), "--label", "y", "--score", "m1", "--score", "m2",
                 "--by", "country", "--by", "day", "--json", "--no-progress"]) == 0
    captured = capsys.readouterr()
    got, want = json.loads(captured.out), expected().to_dict()
    assert list(got) == list(want)
    for name in want:
        assert all(same(g, w) for g, w in zip(got[name], want[name])), name
    assert "single class" in captured.err              # the one-class warning is shown


def test_printed_table_names_scores_and_segments(dataset, capsys):
    assert main(["evaluate", str(dataset), "--label", "y", "--score", "m1", "--score", "m2",
                 "--by", "day", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "scores ['m1', 'm2'], by ['day']" in out
    assert "model" in out and "auc" in out and "6 rows" in out


def test_csv_is_the_table(dataset, tmp_path, capsys):
    out = tmp_path / "table.csv"
    assert main(["evaluate", str(dataset), "--label", "y", "--score", "m1", "--score", "m2",
                 "--by", "country", "--by", "day", "--csv", str(out), "--no-progress"]) == 0
    assert capsys.readouterr().out == ""                 # the table went to the file
    with open(out, newline="") as fh:
        rows = list(csv.reader(fh))
    want = expected().to_dict()
    assert rows[0] == list(want)
    assert len(rows) == 1 + len(want["model"])
    for k, name in enumerate(want):
        for row, w in zip(rows[1:], want[name]):
            text = row[k]
            if w is None:
                assert text == ""
            elif isinstance(w, bool):
                assert text == str(w)
            elif isinstance(w, (int, float)):
                assert float(text) == pytest.approx(w, rel=1e-12, abs=1e-12)
            else:
                assert text == str(w)
    assert not list(tmp_path.glob(".indist-fast-*"))    # no temporary file left


def test_one_score_with_csv_is_a_one_row_table(dataset, tmp_path):
    out = tmp_path / "one.csv"
    assert main(["evaluate", str(dataset), "--label", "y", "--score", "m1", "--csv", str(out),
                 "--no-progress"]) == 0
    with open(out, newline="") as fh:
        rows = list(csv.reader(fh))
    assert len(rows) == 2 and rows[0][0] == "model" and rows[1][0] == "m1"
    want = indist_fast.roc_auc(FRAME.y, FRAME.m1)
    assert float(rows[1][rows[0].index("auc")]) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("extra, message", [
    (["--csv", "/no/such/folder/t.csv"], "--csv: cannot write"),
])
def test_table_form_refusals(dataset, capsys, extra, message):
    assert main(["evaluate", str(dataset), "--label", "y", "--score", "m1", "--by", "day",
                 "--no-progress", *extra]) == 2
    assert message in capsys.readouterr().err


def test_totals_and_intervals_in_the_table(dataset, capsys):
    assert main(["evaluate", str(dataset), "--label", "y", "--score", "m1", "--by", "day",
                 "--total", "--bootstrap", "20", "--seed", "3", "--json", "--no-progress"]) == 0
    got = json.loads(capsys.readouterr().out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        want = indist_fast.evaluate_many(FRAME, label="y", score=["m1"], by="day", total=True,
                                         n_boot=20, seed=3).to_dict()
    assert got["day"] == [1, 2, 3, None] and "auc_low" in got
    for name in ("auc", "auc_low", "auc_high", "precision_high"):
        assert all(same(g, w) for g, w in zip(got[name], want[name])), name


def test_totals_beyond_the_memory_limit_are_refused(dataset, capsys):
    assert main(["evaluate", str(dataset), "--label", "y", "--score", "m1", "--by", "country",
                 "--total", "--memory-limit", "20KB", "--no-progress"]) == 2
    assert "total=/n_boot: they need every row in memory" in capsys.readouterr().err


def test_a_missing_by_column_is_named(dataset, capsys):
    assert main(["evaluate", str(dataset), "--label", "y", "--score", "m1", "--by", "nope",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "by" in err and "nope" in err
