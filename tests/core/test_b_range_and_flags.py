"""B outside [0, 1] with fractional weights, ScoreTable's n_rows,
yes/no and count arguments, duplicate file columns, the CLI's seed, and the bootstrap
settings of ``evaluate`` checked before the rows are sorted.

Expected B values come from exact rational arithmetic (``oracle.exact_b``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import oracle
import indist_fast
from indist_fast import Accumulator, IndistFastWarning, ScoreTable, evaluate_file
from indist_fast.metrics import evaluation as metrics
from indist_fast._core.rates import B_ROUNDING, clamp_b
from indist_fast._core.validation import prepare_rows
from indist_fast.cli import main
from indist_fast.io import read_columns
from indist_fast.scale.ranges import split_table, sweep_ranges
from indist_fast.results.report import Report
from indist_fast.inference.bootstrap import Resampler
from indist_fast.table.score_table import with_main_level


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*args, **kwargs)


# --- B keeps SPEC §3's value outside [0, 1]; only rounding is clamped -----------------

# One positive of weight 0.09 above the negatives: the self-pair correction makes Den
# small, and B exceeds 1 at every defined operating point (exactly 1.18958...).
Y_OUT = np.array([1, 0, 0, 0, 0])
S_OUT = np.array([3.0, 1.0, 2.0, 0.0, 2.0])
W_OUT = np.array([0.09, 1.64, 1.44, 0.87, 1.87])
# Fuzz case curves/w_frac: B at the top operating point is below 0 (-0.0210...).
Y_FRAC = np.array([0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0])
S_FRAC = np.array([0.6, 0.0, 0.9, 0.0, 0.8, 0.1, 0.6, 0.7, 0.2, 0.6, 0.0, 0.1])
W_FRAC = np.linspace(0.3, 2.9, 12)


def _exact(y, s, w):
    return np.array([math.nan if b is None else float(b) for b in oracle.exact_b(y, s, w)[1]])


def test_exact_b_of_the_cases_leaves_the_unit_interval():
    # The cases test what they claim: SPEC's B is outside [0, 1], by far more than rounding.
    assert np.nanmin(_exact(Y_OUT, S_OUT, W_OUT)) > 1 + 1e-3
    assert np.nanmin(_exact(Y_FRAC, S_FRAC, W_FRAC)) < -1e-3


@pytest.mark.parametrize("y, s, w", [(Y_OUT, S_OUT, W_OUT), (Y_FRAC, S_FRAC, W_FRAC)])
def test_curves_report_b_outside_the_unit_interval(backend, y, s, w):
    want = _exact(y, s, w)
    for c in (quiet(indist_fast.curves, y, s, sample_weight=w),
              quiet(ScoreTable.from_arrays(y, s, w).curves)):
        np.testing.assert_allclose(c.b, want, rtol=1e-12, equal_nan=True)
        np.testing.assert_allclose(c.b_plus + c.b_minus, want, rtol=1e-12, equal_nan=True)
        # The probabilities beside it stay clamped.
        for name in ("tpr", "fpr", "precision", "f1"):
            values = getattr(c, name)
            assert np.all((values >= 0) & (values <= 1)), name


def test_every_sweep_path_reports_b_above_one(backend):
    # B first reaches 0.5 at threshold 2 with B = 1.1896 > 1: every path reports it.
    want = _exact(Y_OUT, S_OUT, W_OUT)[1]
    table = ScoreTable.from_arrays(Y_OUT, S_OUT, W_OUT)
    acc = Accumulator()
    acc.update(Y_OUT[:2], S_OUT[:2], W_OUT[:2])
    acc.update(Y_OUT[2:], S_OUT[2:], W_OUT[2:])
    pieces = split_table(table, np.array([2.0, 1.0]))
    ranged = quiet(Report.from_sweep, sweep_ranges(pieces, with_main_level((0.5,)), True),
                   (0.5,), table.n_rows, True)
    reports = {"evaluate": quiet(indist_fast.evaluate, Y_OUT, S_OUT, sample_weight=W_OUT,
                                 levels=(0.5,)),
               "table": quiet(table.evaluate, (0.5,)),
               "accumulator": quiet(acc.result, (0.5,)),
               "ranges": ranged}
    for path, report in reports.items():
        assert report.threshold == 2.0, path
        assert report.b == pytest.approx(want, rel=1e-12), path
        assert report.b > 1, path
        assert 0 <= report.precision <= 1, path


def test_bootstrap_replicates_keep_b_outside_the_unit_interval(backend):
    rows = prepare_rows(Y_OUT, S_OUT, W_OUT)
    table = ScoreTable.from_rows(rows)
    resampler = Resampler.from_rows(rows, table, seed=3)
    out = resampler.sweeps(6, np.array([0.5]), True)
    for k in range(6):
        rep = resampler.replicate_table(k)
        y = np.r_[np.ones(len(rep)), np.zeros(len(rep))].astype(bool)
        s = np.r_[rep.scores, rep.scores]
        w = np.r_[rep.pos, rep.neg].astype(float)
        exact = _exact(y, s, w)
        reached = np.flatnonzero(exact >= 0.5)
        if len(reached):
            assert out[k, 7] == pytest.approx(exact[reached[0]], rel=1e-12)
        else:
            assert np.isnan(out[k, 7])
    assert np.nanmax(out[:, 7]) > 1        # some replicate draws the lone positive


def test_clamp_b_absorbs_rounding_only():
    tiny = 4 * np.finfo(float).eps
    assert clamp_b(1 + tiny) == 1.0 and clamp_b(-tiny) == 0.0
    assert clamp_b(1 + B_ROUNDING) == 1.0 and clamp_b(-B_ROUNDING) == 0.0
    assert clamp_b(1 + 2 * B_ROUNDING) == 1 + 2 * B_ROUNDING
    assert clamp_b(-0.021) == -0.021 and clamp_b(1.19) == 1.19
    assert math.isnan(clamp_b(math.nan)) and clamp_b(0.25) == 0.25
    arr = clamp_b(np.array([-tiny, -0.5, 0.5, 1 + tiny, 2.0, np.nan]))
    np.testing.assert_array_equal(arr, [0.0, -0.5, 0.5, 1.0, 2.0, np.nan])


# --- ScoreTable: n_rows must cover the table -------------------------------------------

@pytest.mark.parametrize("pos, neg, n_rows, message", [
    ([1, 2], [3, 0], 5, r"n_rows must be at least the number of rows the counts describe "
                        r"\(pos and neg sum to 6\); got 5"),
    ([1, 2], [3, 0], 1, r"n_rows must be at least the number of scores \(2\)"),
    ([0.5, 2.0], [3.0, 0.0], 1, r"n_rows must be at least the number of scores \(2\)"),
])
def test_n_rows_too_small_is_refused(pos, neg, n_rows, message):
    with pytest.raises(ValueError, match=message):
        ScoreTable([0.9, 0.1], pos, neg, n_rows)


@pytest.mark.parametrize("pos, neg, n_rows", [
    ([1, 2], [3, 0], 6), ([1, 2], [3, 0], 9),   # zero-weight rows may add to n_rows
    ([0.5, 2.0], [3.0, 0.0], 2),                # weights are not rows: one per score
])
def test_n_rows_covering_the_table_is_accepted(backend, pos, neg, n_rows):
    table = ScoreTable([0.9, 0.1], pos, neg, n_rows)
    assert table.n_rows == n_rows == quiet(table.evaluate).n_rows


def test_mixed_count_types_give_the_weighted_auc(backend):
    # Fuzz case ScoreTable/mixed_dtypes: integer positives with fractional negatives
    # are weights (both float64), and the AUC is scikit-learn's over those weights.
    from sklearn.metrics import roc_auc_score
    table = ScoreTable(np.array([0.9, 0.5]), np.array([1, 0]), np.array([0.5, 1.0]), 2)
    want = roc_auc_score([1, 0, 0], [0.9, 0.9, 0.5], sample_weight=[1.0, 0.5, 1.0])
    assert quiet(table.evaluate).auc == pytest.approx(want)


# --- yes/no arguments -------------------------------------------------------------------

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.9, 0.2, 0.8, 0.3, 0.7, 0.6, 0.4])
BAD_FLAGS = ["False", None, 0.0, 1, [True]]


def _flag_calls(value):
    table = ScoreTable.from_arrays(Y, S)
    acc = Accumulator()
    acc.update(Y, S)
    return {
        "evaluate": lambda: indist_fast.evaluate(Y, S, exclude_self=value),
        "evaluate_boot": lambda: indist_fast.evaluate(Y, S, exclude_self=value, n_boot=5),
        "curves": lambda: indist_fast.curves(Y, S, exclude_self=value),
        "threshold": lambda: indist_fast.indistinguishability_threshold(
            Y, S, exclude_self=value),
        "precision": lambda: indist_fast.precision_at_indistinguishability(
            Y, S, exclude_self=value),
        "table.evaluate": lambda: table.evaluate(exclude_self=value),
        "table.curves": lambda: table.curves(exclude_self=value),
        "accumulator": lambda: acc.result(exclude_self=value),
    }


@pytest.mark.parametrize("value", BAD_FLAGS, ids=repr)
@pytest.mark.parametrize("entry", list(_flag_calls(True)))
def test_exclude_self_must_be_a_bool(backend, entry, value):
    with pytest.raises(TypeError, match="exclude_self must be True or False"):
        _flag_calls(value)[entry]()


@pytest.mark.parametrize("value", [True, False, np.True_])
def test_exclude_self_bools_are_accepted(backend, value):
    calls = _flag_calls(value)
    want = quiet(indist_fast.evaluate, Y, S, exclude_self=bool(value))
    assert quiet(calls["table.evaluate"]).b == want.b
    assert quiet(calls["accumulator"]).threshold == want.threshold


@pytest.fixture
def npz(tmp_path):
    path = tmp_path / "rows.npz"
    np.savez(path, y=Y, s=S)
    return path


@pytest.mark.parametrize("name, value", [("exclude_self", "no"), ("exclude_self", None),
                                         ("progress", "yes"), ("progress", 0),
                                         ("drop_nulls", "True"), ("drop_nulls", None)])
def test_evaluate_file_flags(npz, name, value):
    with pytest.raises(TypeError, match=f"{name} must be True or False"):
        evaluate_file(npz, label="y", score="s", **{name: value})


def test_evaluate_file_progress_none_or_bool(npz):
    want = indist_fast.evaluate(Y, S)
    for progress in (None, False, np.False_):
        assert evaluate_file(npz, label="y", score="s", progress=progress).auc == want.auc


# --- duplicate columns in a file --------------------------------------------------------

@pytest.fixture
def duplicated(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("y,s,s\n1,0.9,0.1\n0,0.3,0.8\n")
    return path


def test_duplicate_csv_column_is_refused(duplicated):
    message = r"path: .*dup\.csv has 2 columns named 's' \(the score column\)"
    with pytest.raises(ValueError, match=message):
        evaluate_file(duplicated, label="y", score="s")
    with pytest.raises(ValueError, match=message):
        read_columns(duplicated, label="y", score="s")


def test_duplicate_csv_column_out_of_core_and_cli(duplicated, capsys):
    with pytest.raises(ValueError, match="has 2 columns named 's'"):
        evaluate_file(duplicated, label="y", score="s", memory_limit=1)
    assert main(["evaluate", str(duplicated), "--label", "y", "--score", "s"]) == 2
    assert "has 2 columns named 's'" in capsys.readouterr().err
    assert main(["losses", str(duplicated), "--label", "y", "--score", "s"]) == 2
    assert "has 2 columns named 's'" in capsys.readouterr().err


def test_unused_duplicate_column_is_fine(tmp_path):
    path = tmp_path / "dup_unused.csv"
    path.write_text("y,s,x,x\n1,0.9,1,2\n0,0.3,3,4\n")
    assert quiet(evaluate_file, path, label="y", score="s").auc == 1.0


# --- the CLI's seed ---------------------------------------------------------------------

@pytest.mark.parametrize("command", [["demo"], ["evaluate", "FILE", "--label", "y",
                                                "--score", "s", "--bootstrap", "5"]])
@pytest.mark.parametrize("seed", ["-1", "x", "1.5"])
def test_cli_bad_seed_names_the_option(npz, capsys, command, seed):
    argv = [str(npz) if a == "FILE" else a for a in command] + ["--seed", seed]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert f"--seed must be a non-negative integer, got '{seed}'" in capsys.readouterr().err


# --- evaluate checks the bootstrap settings before sorting ------------------------------

@pytest.mark.parametrize("kwargs, error, name", [
    ({"n_boot": 0}, ValueError, "n_boot"), ({"n_boot": 2.5}, TypeError, "n_boot"),
    ({"n_boot": 10**12}, ValueError, "n_boot"), ({"n_boot": "9"}, TypeError, "n_boot"),
    ({"n_boot": 5, "seed": -1}, ValueError, "seed"),
    ({"n_boot": 5, "seed": "abc"}, TypeError, "seed"),
    ({"n_boot": 5, "confidence": 1.5}, ValueError, "confidence"),
])
def test_bootstrap_settings_are_checked_before_the_rows(backend, monkeypatch, kwargs,
                                                         error, name):
    def no_rows(*args, **kw):
        raise AssertionError("the rows were prepared before the settings were checked")
    monkeypatch.setattr(metrics, "prepare_frame_or_rows", no_rows)
    with pytest.raises(error, match=name):
        indist_fast.evaluate(Y, S, **kwargs)


def test_bootstrap_seed_still_repeats(backend):
    a = indist_fast.evaluate(Y, S, n_boot=20, seed=7)
    b = indist_fast.evaluate(Y, S, n_boot=20, seed=7)
    np.testing.assert_array_equal(a.intervals["auc"].replicates, b.intervals["auc"].replicates)
    assert a.intervals["auc"].low == b.intervals["auc"].low
