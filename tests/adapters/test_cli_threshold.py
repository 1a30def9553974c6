"""``indist-fast threshold``: ``indist_fast.best_threshold`` on the file's columns, for
every criterion and target, as JSON and as a confusion table of plain counts."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import indist_fast
from indist_fast.cli import main
from indist_fast.cli.threshold_command import PARAMETERS, TARGETS, option
from indist_fast.metrics.threshold_criteria import CRITERIA

rng = np.random.default_rng(44)
N = 1500
Y = (rng.random(N) < 0.3).astype(np.int64)
S = np.round(Y * 0.9 + rng.normal(size=N), 3)
# fractional weights whose class totals run into the millions: printed in full
W = np.round(rng.random(N) * 8000.0 + 0.5, 2)

#: Options for each criterion, and the keyword arguments they stand for.
CASES = {
    "accuracy": ([], {}),
    "balanced_accuracy": ([], {}),
    "youden": ([], {}),
    "closest_topleft": ([], {}),
    "f1": ([], {}),
    "mcc": ([], {}),
    "kappa": ([], {}),
    "cost": (["--cost-fn", "5", "--cost-fp", "1"], {"cost_fn": 5.0, "cost_fp": 1.0}),
    "punzi": (["--a", "2", "--background-scale", "0.5"], {"a": 2.0, "background_scale": 0.5}),
    "ams": (["--b-reg", "3"], {"b_reg": 3.0}),
    "recall": (["--target", "recall=0.9"], {"target": 0.9}),
    "precision": (["--target", "precision=0.6"], {"target": 0.6}),
    "fpr": (["--target", "fpr=0.05"], {"target": 0.05}),
    "tnr": (["--target", "tnr=0.9"], {"target": 0.9}),
    "indistinguishability": (["--level", "0.4"], {"level": 0.4}),
}


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    out = tmp_path_factory.mktemp("thr") / "d.npz"
    np.savez(out, y=Y, s=S, w=W, text=np.where(Y == 1, "spam", "ham"))
    return str(out)


def test_every_criterion_is_covered():
    assert set(CASES) == set(CRITERIA)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("criterion", list(CASES))
def test_json_is_best_threshold(path, capsys, criterion, weighted):
    options, params = CASES[criterion]
    named = [] if criterion in TARGETS else ["--criterion", criterion]
    weight = ["--weight", "w"] if weighted else []
    assert main(["threshold", path, "--label", "y", "--score", "s", *named, *options,
                 *weight, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    want = indist_fast.best_threshold(Y, S, criterion, sample_weight=W if weighted else None,
                                      **params)
    assert got == {**json.loads(json.dumps(want.to_dict())), "parameters": params}


def test_a_criterion_and_a_bare_target(path, capsys):
    outs = []
    for argv in (["--target", "recall=0.8"], ["--criterion", "recall", "--target", "0.8"]):
        assert main(["threshold", path, "--label", "y", "--score", "s", *argv, "--json"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["threshold"] == indist_fast.best_threshold(
        Y, S, "recall", target=0.8).threshold


def test_text_label_with_pos_label(path, capsys):
    assert main(["threshold", path, "--label", "text", "--pos-label", "spam", "--score", "s",
                 "--criterion", "youden", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["threshold"] == indist_fast.best_threshold(Y, S, "youden").threshold


def test_text_prints_the_threshold_and_plain_counts(path, capsys):
    assert main(["threshold", path, "--label", "y", "--score", "s", "--weight", "w",
                 "--criterion", "cost", "--cost-fn", "4", "--cost-fp", "1"]) == 0
    out = capsys.readouterr().out
    best = indist_fast.best_threshold(Y, S, "cost", sample_weight=W, cost_fn=4, cost_fp=1)
    assert "e+" not in out
    assert f"threshold {best.threshold!r}\n" in out
    assert "criterion cost (--cost-fn 4, --cost-fp 1): minimise" in out
    positives = W[Y == 1].sum()
    assert positives > 1e6
    shown = f"{positives:,.0f}"
    assert f"positives {shown}" in out
    # the four cells in full, with separators, not in e-notation
    cells = re.findall(r"actual [+-] +([\d,]+) +([\d,]+)", out)
    assert [float(c.replace(",", "")) for row in cells for c in row] == pytest.approx(
        [best.tp, best.fn, best.fp, best.tn], rel=1e-3)


def test_the_options_match_the_library():
    """Every criterion takes exactly the options PARAMETERS lists: any other raises the
    library's TypeError, each listed one is accepted."""
    names = sorted({p for ps in PARAMETERS.values() for p in ps})
    valid = {"c": 0.3, "cost_fn": 1.0, "cost_fp": 2.0, "gain_tp": 1.0, "gain_tn": 1.0,
             "a": 2.0, "background_scale": 1.0, "b_reg": 5.0, "signal_scale": 1.0,
             "level": 0.5}
    for criterion in CRITERIA:
        takes = PARAMETERS.get(criterion, ())
        base = {"target": 0.5} if criterion in TARGETS else {}
        for name in names:
            kwargs = {**base, name: valid[name]}
            if criterion == "cost" and name in ("cost_fn", "cost_fp", "gain_tp", "gain_tn"):
                pair = {"cost_fn": "cost_fp", "cost_fp": "cost_fn", "gain_tp": "gain_tn",
                        "gain_tn": "gain_tp"}[name]
                kwargs[pair] = valid[pair]
            if name in takes:
                indist_fast.best_threshold(Y, S, criterion, **kwargs)
            else:
                with pytest.raises(TypeError, match="unexpected parameter"):
                    indist_fast.best_threshold(Y, S, criterion, **kwargs)


@pytest.mark.parametrize("argv, message", [
    (["--criterion", "youden", "--cost-fn", "2"],
     "--cost-fn do(es) not apply to --criterion youden, which takes no options"),
    (["--criterion", "cost"], "--criterion cost takes exactly one of: --c"),
    (["--criterion", "cost", "--c", "0.2", "--cost-fn", "1"], "got --c, --cost-fn"),
    (["--criterion", "recall"], "--criterion recall needs its target: --target recall=VALUE"),
    (["--criterion", "f1", "--target", "0.5"], "--criterion f1 takes no target"),
    (["--criterion", "fpr", "--target", "recall=0.5"], "disagree"),
    ([], "give --criterion"),
])
def test_option_errors_name_the_options(capsys, argv, message):
    # the file does not exist: the options are checked before it is read
    assert main(["threshold", "missing.npz", "--label", "y", "--score", "s", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("indist-fast threshold: error: ") and message in err


def test_a_target_no_threshold_meets_is_the_librarys_error(tmp_path, capsys):
    np.savez(tmp_path / "top_negative.npz", y=[0, 1, 0, 1], s=[0.9, 0.8, 0.3, 0.2])
    with pytest.raises(ValueError) as want:
        indist_fast.best_threshold([0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2], "precision", target=0.9)
    assert main(["threshold", str(tmp_path / "top_negative.npz"), "--label", "y", "--score",
                 "s", "--target", "precision=0.9"]) == 2
    assert capsys.readouterr().err.strip() == f"indist-fast threshold: error: {want.value}"


@pytest.mark.parametrize("text", ["speed=0.5", "recall=high", "recall"])
def test_bad_targets_are_refused_by_argparse(capsys, text):
    with pytest.raises(SystemExit):
        main(["threshold", "x.npz", "--label", "y", "--score", "s", "--target", text])
    assert "--target" in capsys.readouterr().err


def test_option_names():
    assert option("cost_fn") == "--cost-fn" and option("c") == "--c"
