"""Integer scores beyond 2**53: float64 cannot hold them all, and neighbours rounded
to one value would tie and change the metrics. Every path refuses them the same way
(object arrays, CSV read by pyarrow or by the standard library, the command line);
integers float64 holds exactly, and float text, still pass."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import indist_fast
from indist_fast.cli import main

BIG = 2**53
MESSAGE = "float64 cannot tell apart"

pytestmark = pytest.mark.filterwarnings("ignore::indist_fast.LevelNotReachedWarning")


def _csv(tmp_path, scores, name="h.csv"):
    path = tmp_path / name
    lines = ["y,m1"] + [f"{y},{s}" for y, s in zip([0, 1, 0, 1], scores)]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("scores", [
    [BIG + 1, BIG, 1, 2],                 # rounds onto 2**53 exactly
    [-(BIG + 1), -BIG, 1, 2],
    [2**62 + 1, 2**62, 1, 2],
    [10**30 + 1, 10**30, 1, 2],           # beyond int64 as well
])
def test_object_integers_that_round_together_are_refused(backend, scores):
    with pytest.raises(ValueError, match=MESSAGE):
        indist_fast.evaluate([0, 1, 0, 1], np.array(scores, dtype=object))


def test_object_integers_float64_holds_pass(backend):
    scores = np.array([BIG, BIG - 1, 1, 2**60], dtype=object)     # exact in float64
    got = indist_fast.evaluate([0, 1, 0, 1], scores).auc
    assert got == roc_auc_score([0, 1, 0, 1], scores.astype(float))


@pytest.mark.parametrize("pyarrow", [True, False])
@pytest.mark.parametrize("scores", [
    [BIG + 1, BIG, 1, 2], [-(BIG + 1), -BIG, 1, 2], [10**30 + 1, 10**30, 1, 2]])
def test_csv_integers_beyond_float64_are_refused(tmp_path, monkeypatch, backend, pyarrow,
                                                  scores):
    if not pyarrow:
        monkeypatch.setitem(sys.modules, "pyarrow.csv", None)
    path = _csv(tmp_path, scores)
    with pytest.raises(ValueError, match=MESSAGE) as info:
        indist_fast.evaluate_file(path, label="y", score="m1")
    assert "'m1'" in str(info.value) and "row 0" in str(info.value)


@pytest.mark.parametrize("pyarrow", [True, False])
def test_csv_exact_integers_and_float_text_pass(tmp_path, monkeypatch, backend, pyarrow):
    if not pyarrow:
        monkeypatch.setitem(sys.modules, "pyarrow.csv", None)
    # 2**53 and 2**60 are exact; 9007199254740993.0 is float text, read as a float
    for scores in ([BIG, 2**60, 1, 2], ["9007199254740993.0", 1e300, 1, 2]):
        got = indist_fast.evaluate_file(_csv(tmp_path, scores), label="y", score="m1").auc
        assert got == roc_auc_score([0, 1, 0, 1], [float(s) for s in scores])


def test_csv_integer_in_a_later_block(tmp_path, backend):
    """The check runs on every block pyarrow parses, not just the first."""
    n = 200_000
    path = tmp_path / "long.csv"
    with open(path, "w") as fh:
        fh.write("y,m1\n")
        fh.writelines(f"{i % 2},{i % 1000}\n" for i in range(n))
        fh.write(f"0,{BIG + 1}\n1,{BIG}\n")
    with pytest.raises(ValueError, match=MESSAGE) as info:
        indist_fast.evaluate_file(path, label="y", score="m1", memory_limit="4MB")
    assert f"row {n}" in str(info.value)


def test_cli_refuses_integers_beyond_float64(tmp_path, capsys):
    path = _csv(tmp_path, [BIG + 1, BIG, 1, 2])
    code = main(["evaluate", str(path), "--label", "y", "--score", "m1", "--json"])
    assert code != 0
    assert MESSAGE in capsys.readouterr().err
    path = _csv(tmp_path, [BIG, BIG - 1, 1, 2], "ok.csv")
    assert main(["evaluate", str(path), "--label", "y", "--score", "m1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["auc"] == 0.5
