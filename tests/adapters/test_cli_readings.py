"""``indist-fast evaluate --calibration --gains``: the readings of each score's table,
as the library gives them on the file's rows, as text and JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest

import indist_fast
from indist_fast.cli import main

rng = np.random.default_rng(31)
N = 3_000
Y = (rng.random(N) < 0.25).astype(np.int8)
P = np.round(1 / (1 + np.exp(-(rng.normal(size=N) + 1.5 * Y - 1))), 3)
Q = np.round(1 / (1 + np.exp(-(rng.normal(size=N) + 0.5 * Y - 1))), 3)


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.npz"
    np.savez(path, y=Y, p=P, q=Q)
    return str(path)


def test_text_holds_each_scores_readings(log, capsys):
    assert main(["evaluate", log, "--label", "y", "--score", "p", "--score", "q",
                 "--calibration",
                 "--gains", "--quiet"]) == 0
    out = capsys.readouterr().out
    for name, s in (("p", P), ("q", Q)):
        assert f"calibration of {name!r} (all rows):\n{indist_fast.calibration(Y, s)}" in out
        assert f"gains of {name!r} (all rows):\n{indist_fast.gains(Y, s)}" in out


def test_json_holds_them_beside_the_evaluation(log, capsys):
    assert main(["evaluate", log, "--label", "y", "--score", "p", "--gains", "--json",
                 "--quiet"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert set(got) == {"evaluate", "gains"}
    assert got["gains"]["p"] == json.loads(json.dumps(indist_fast.gains(Y, P).to_dict()))
    assert got["evaluate"]["auc"] == indist_fast.evaluate(Y, P).auc


def test_scores_that_are_not_probabilities_are_named(tmp_path, capsys):
    path = tmp_path / "raw.npz"
    np.savez(path, y=Y, m=P * 10 - 5)
    assert main(["evaluate", str(path), "--label", "y", "--score", "m", "--calibration",
                 "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--calibration: score column 'm'" in err and "probabilit" in err
    assert "Traceback" not in err


def test_readings_are_printed_beside_a_csv_table(log, tmp_path, capsys):
    out_csv = tmp_path / "t.csv"
    assert main(["evaluate", log, "--label", "y", "--score", "p", "--gains", "--csv",
                 str(out_csv), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out_csv.exists() and f"gains of 'p' (all rows):\n{indist_fast.gains(Y, P)}" in out
