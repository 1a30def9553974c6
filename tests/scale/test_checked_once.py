"""Arguments and rows are checked once on a path: the public entry checks the settings
and nested calls take them as checked; the rows of a path are checked by one checker
(the engine's where it names the row and the argument)."""

from __future__ import annotations

import collections
import re

import numpy as np
import pytest

from indist_fast import evaluate_file, evaluate_many
from indist_fast.metrics import segments
from indist_fast.scale import file_plan, files

Y = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 0] * 3)
P = np.linspace(0.05, 0.95, 30)
Q = np.linspace(0.95, 0.05, 30) ** 2
G = np.repeat([1, 2, 3], 10)


def counting(monkeypatch, counts, module, name, key=None):
    """Count the calls of ``module.name`` (by their argument ``key``, if given)."""
    real = getattr(module, name)

    def wrapped(*args, **kwargs):
        counts[name if key is None else (name, key(*args, **kwargs))] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, wrapped)


@pytest.fixture
def settings_checks(monkeypatch):
    counts = collections.Counter()
    for module in (files, segments):
        counting(monkeypatch, counts, module, "check_levels")
        counting(monkeypatch, counts, module, "bootstrap_settings")
        counting(monkeypatch, counts, module, "check_flag", key=lambda value, name: name)
    return counts


def test_evaluate_file_checks_levels_flags_and_bootstrap_once(tmp_path, settings_checks):
    path = tmp_path / "log.npz"
    np.savez(path, y=Y, p=P, q=Q, g=G)
    got = evaluate_file(path, label="y", score=["p", "q"], by="g", levels=(0.4, 0.5),
                        total=True, n_boot=20, seed=3, progress=False)
    assert settings_checks["check_levels"] == 1
    assert settings_checks["bootstrap_settings"] == 1
    assert settings_checks["check_flag", "total"] == 1
    assert settings_checks["check_flag", "exclude_self"] == 1
    want = evaluate_many(Y, {"p": P, "q": Q}, groups={"g": G}, levels=(0.4, 0.5),
                         total=True, n_boot=20, seed=3)
    for name in ("auc", "auc_low", "auc_high", "threshold"):
        np.testing.assert_array_equal(got.columns[name], want.columns[name])


def test_evaluate_many_still_checks_its_settings(settings_checks):
    evaluate_many(Y, {"p": P}, groups=G, n_boot=10, seed=0)
    assert settings_checks["check_levels"] == settings_checks["bootstrap_settings"] == 1
    with pytest.raises(ValueError, match="level"):
        evaluate_many(Y, {"p": P}, groups=G, levels=(1.5,))
    # the seed is checked without n_boot too (where it is unused)
    with pytest.raises(ValueError, match="seed must be"):
        evaluate_many(Y, {"p": P}, groups=G, seed=-1)


def hive(tmp_path, q=Q):
    """A folder of one .npz per segment, the segment a partition key ``g=...``."""
    folder = tmp_path / "logs"
    for g in (1, 2, 3):
        (folder / f"g={g}").mkdir(parents=True)
        rows = G == g
        np.savez(folder / f"g={g}" / "part.npz", y=Y[rows], p=P[rows], q=q[rows])
    return folder


def test_partition_segments_check_rows_in_the_engine_alone(tmp_path, monkeypatch):
    numpy_checks = []
    monkeypatch.setattr(file_plan.TablePlan, "_check_nan",
                        lambda self, s, key: numpy_checks.append(key))
    taken = []
    real = file_plan.TablePlan._by_partitions
    monkeypatch.setattr(file_plan.TablePlan, "_by_partitions",
                        lambda self, *a: taken.append(real(self, *a)) or taken[-1])
    got = evaluate_file(hive(tmp_path), label="y", score=["p", "q"], by="g", progress=False)
    assert taken == [True] and numpy_checks == []
    want = evaluate_many(Y, {"p": P, "q": Q}, groups={"g": G})
    np.testing.assert_array_equal(got.columns["auc"], want.columns["auc"])


def test_partition_segments_name_a_bad_score_by_its_model_and_file_row(tmp_path):
    q = Q.copy()
    q[13] = np.nan                                   # row 3 of the second file
    folder = hive(tmp_path, q)
    with pytest.raises(ValueError) as info:
        evaluate_file(folder, label="y", score=["p", "q"], by="g", progress=False)
    assert re.fullmatch(r"score: column 'q' of .*logs: y_score contains NaN \(first at row 3 "
                        r"of .*g=2.part\.npz\); drop or impute those rows first\.",
                        str(info.value)), str(info.value)


def test_a_table_in_memory_checks_rows_in_the_engine_alone(tmp_path, monkeypatch):
    numpy_checks = []
    monkeypatch.setattr(file_plan.TablePlan, "_check_nan",
                        lambda self, s, key: numpy_checks.append(key))
    path = tmp_path / "log.npz"
    np.savez(path, y=Y, p=P, q=Q, g=G)
    got = evaluate_file(path, label="y", score=["p", "q"], by="g", progress=False)
    assert numpy_checks == []
    want = evaluate_many(Y, {"p": P, "q": Q}, groups={"g": G})
    np.testing.assert_array_equal(got.columns["auc"], want.columns["auc"])


@pytest.mark.parametrize("by", [None, "g"])
def test_a_table_in_memory_names_a_bad_score_by_its_model(tmp_path, by):
    q = Q.copy()
    q[13] = np.nan
    path = tmp_path / "log.npz"
    np.savez(path, y=Y, p=P, q=q, g=G)
    with pytest.raises(ValueError) as info:
        evaluate_file(path, label="y", score=["p", "q"], by=by, progress=False)
    assert re.fullmatch(r"score: column 'q' of .*log\.npz: y_score contains NaN \(first at "
                        r"row 13\); drop or impute those rows first\.", str(info.value)), \
        str(info.value)
