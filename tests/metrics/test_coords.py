"""coords against pROC's coords (pinned and live), a brute-force oracle of the counts,
weights as copies, direction, and bad input."""
from __future__ import annotations

import numpy as np
import pytest

import indist_fast
from indist_fast.results.coords_table import COORD_NAMES
from proc_pinned_coords import (PINNED, R_CODE, RET, SENSITIVITIES, SPECIFICITIES,
                                extra_fields)
from proc_sets import data_sets, r_code
from rproc import r_numbers

SETS = list(data_sets())
INPUTS = {"sensitivity": SENSITIVITIES, "specificity": SPECIFICITIES}


def _matrix(values, n_cols):
    return np.array(values).reshape(n_cols, -1)


def _check(name, key, values):
    y, a, _ = data_sets()[name]
    if key in ("sensitivity", "specificity", "threshold"):
        x = extra_fields(name)["thresholds"] if key == "threshold" else INPUTS[key]
        res = indist_fast.coords(y, a, x, input=key, ret=RET, cost=2.0, prevalence=0.3)
        expected = _matrix(values, len(RET))
        for i, column in enumerate(RET):
            if column == "threshold" and key != "threshold":
                # pROC's thresholds are midpoints; ours the lowest score labelled
                # positive: both NaN where interpolated, else labelling the same rows
                ours = res[column]
                assert np.array_equal(np.isnan(ours), np.isnan(expected[i]))
                ok = ~np.isnan(ours)
                s = np.sort(np.unique(a))
                lowest = [s[s > t][0] if np.any(s > t) else np.inf for t in expected[i][ok]]
                np.testing.assert_array_equal(ours[ok], lowest)
                continue
            np.testing.assert_allclose(res[column], expected[i], rtol=1e-9, atol=1e-12,
                                       err_msg=f"{name} {key} {column}")
    elif key.startswith("best"):
        method = "youden" if key == "best_youden" else "closest_topleft"
        res = indist_fast.coords(y, a, "best", best_method=method,
                                 ret=("sensitivity", "specificity"), cost=2.0,
                                 prevalence=0.3)
        expected = _matrix(values, 2)
        np.testing.assert_allclose([res["sensitivity"], res["specificity"]], expected,
                                   rtol=1e-12)
        # best_threshold returns the highest threshold among ties: pROC's last row
        best = indist_fast.best_threshold(y, a, method, cost=2.0, prevalence=0.3)
        assert (best.tpr, best.tnr) == pytest.approx((expected[0, -1], expected[1, -1]))
    else:
        res = indist_fast.coords(y, -a, "all",
                                 ret=("sensitivity", "specificity"), direction="lower")
        np.testing.assert_allclose([res["sensitivity"], res["specificity"]],
                                   _matrix(values, 2), rtol=1e-12)


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("key", list(R_CODE))
def test_pinned_proc(backend, name, key):
    _check(name, key, PINNED[name][key])


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("key", list(R_CODE))
def test_live_proc(name, key):
    _check(name, key, r_numbers(r_code(R_CODE[key], name, **extra_fields(name))))


def test_counts_by_brute_force(backend):
    y, a, _ = data_sets()["tied"]
    t = np.r_[np.unique(a), np.inf, -np.inf]
    res = indist_fast.coords(y, a, t, ret="all")
    for k, thr in enumerate(t):
        tp = np.sum((a >= thr) & (y == 1))
        fp = np.sum((a >= thr) & (y == 0))
        assert (res["tp"][k], res["fp"][k]) == (tp, fp)
        assert res["tn"][k] == np.sum(y == 0) - fp
        assert res["accuracy"][k] == pytest.approx((tp + np.sum(y == 0) - fp) / len(y))
    assert list(res) == list(COORD_NAMES) and len(res) == len(t)


def test_all_points_in_procs_order():
    y, a, _ = data_sets()["tiny"]
    res = indist_fast.coords(y, a)
    assert len(res) == len(np.unique(a)) + 1
    assert res["sensitivity"][0] == 1.0 and res["specificity"][-1] == 1.0
    assert res["threshold"][0] == a.min() and res["threshold"][-1] == np.inf
    assert np.all(np.diff(res["sensitivity"]) <= 0)


def test_weights_count_as_copies(backend):
    y, a, _ = data_sets()["tied"]
    w = np.arange(len(y)) % 3
    for x, inp in (([0.2, 0.5, 0.9], "sensitivity"), ([0.0, 0.3, 1.1], "threshold")):
        weighted = indist_fast.coords(y, a, x, input=inp, ret="all", sample_weight=w)
        copies = indist_fast.coords(np.repeat(y, w), np.repeat(a, w), x, input=inp,
                                    ret="all")
        for name in COORD_NAMES:
            np.testing.assert_allclose(weighted[name], copies[name], rtol=1e-12)


def test_direction_lower_reports_thresholds_as_given():
    y, a, _ = data_sets()["tiny"]
    low = indist_fast.coords(y, -a, [-0.5, -0.35], ret=("threshold", "tp", "fp"),
                             direction="lower")
    high = indist_fast.coords(y, a, [0.5, 0.35], ret=("threshold", "tp", "fp"))
    assert low["threshold"].tolist() == [-0.5, -0.35]
    assert low["tp"].tolist() == high["tp"].tolist() and low.direction == "lower"
    with pytest.warns(indist_fast.DirectionWarning):
        auto = indist_fast.coords(y, -a, "all", direction="auto")
    assert auto["threshold"][-1] == -np.inf


def test_aliases_and_record():
    y, a, _ = data_sets()["tiny"]
    res = indist_fast.coords(y, a, 0.5, ret=["1-npv", "npe", "closest.topleft", "t"])
    assert list(res) == ["one_minus_npv", "closest_topleft", "threshold"]
    assert res["1-npv"] is res["one_minus_npv"]
    assert res.to_dict()["columns"]["threshold"] == [0.5]
    assert "one_minus_npv" in str(res)
    with pytest.raises(ValueError):
        res["threshold"][0] = 1.0


@pytest.mark.parametrize("kwargs, error, match", [
    ({"x": "local maximas"}, ValueError, "x"),
    ({"x": [0.5, np.nan]}, ValueError, "NaN"),
    ({"x": 1.5, "input": "sensitivity"}, ValueError, "range"),
    ({"x": 0.5, "input": "accuracy"}, ValueError, "monotone"),
    ({"x": 0.5, "input": "sens"}, ValueError, "input"),
    ({"ret": ("all", "tp")}, ValueError, "all"),
    ({"ret": ("sens",)}, ValueError, "ret"),
    ({"ret": ()}, ValueError, "ret"),
    ({"ret": 3}, TypeError, "ret"),
    ({"best_method": "closest"}, ValueError, "best_method"),
    ({"cost": 0}, ValueError, "cost"),
    ({"prevalence": 1.0}, ValueError, "prevalence"),
    ({"direction": "down"}, ValueError, "direction"),
    ({"x": "0.5"}, ValueError, "x"),
])
def test_bad_arguments(kwargs, error, match):
    y, a, _ = data_sets()["tiny"]
    with pytest.raises(error, match=match):
        indist_fast.coords(y, a, **kwargs)


def test_inputs_unchanged_and_frames():
    pd = pytest.importorskip("pandas")
    y, a, _ = data_sets()["tiny"]
    x = np.array([0.2, 0.5])
    copies = [v.copy() for v in (y, a, x)]
    indist_fast.coords(y, a, x, input="specificity", direction="lower")
    assert all(np.array_equal(u, v) for u, v in zip((y, a, x), copies))
    df = pd.DataFrame({"t": y, "p": a})
    framed = indist_fast.coords(df, x=x, label="t", score="p")
    assert framed["sensitivity"].tolist() == indist_fast.coords(y, a, x)["sensitivity"].tolist()
