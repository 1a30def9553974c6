"""``evaluate_many(extra=...)``: each extra column equals the array function on the
segment's rows (KS; calibration's ECE, MCE, Brier score, log loss), for every model,
weighted or not, with the totals rows, NaN for a segment of one class."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning, evaluate_many
from indist_fast.results.report_table import EXTRA_COLUMNS

rng = np.random.default_rng(12)
N = 4_000
Y = (rng.random(N) < 0.3).astype(np.int8)
P = np.round(1 / (1 + np.exp(-(rng.normal(size=N) + 1.4 * Y - 1))), 2)     # ties
Q = 1 / (1 + np.exp(-(rng.normal(size=N) + 0.6 * Y - 1)))
G = rng.integers(0, 5, N)
W = rng.integers(0, 4, N).astype(np.float64)
G[Y == 1] = np.where(G[Y == 1] == 4, 3, G[Y == 1])      # segment 4: negatives only


def want(name, y, s, w):
    if name == "ks":
        return indist_fast.ks(y, s, sample_weight=w, method=None).statistic
    return getattr(indist_fast.calibration(y, s, sample_weight=w), name)


@pytest.mark.parametrize("weighted", [False, True])
def test_every_extra_column_is_the_array_function_on_the_segment(backend, weighted):
    w = W if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        t = evaluate_many(Y, {"p": P, "q": Q}, groups=G, sample_weight=w,
                          extra=list(EXTRA_COLUMNS), total=True)
    cols = t.columns
    assert set(EXTRA_COLUMNS) <= set(cols)
    for i in range(len(t)):
        g, model = cols["group"][i], cols["model"][i]
        rows = np.ones(N, bool) if g is None else G == g
        s = P if model == "p" else Q
        for name in EXTRA_COLUMNS:
            got = cols[name][i]
            if cols["one_class"][i]:
                assert np.isnan(got), (g, model, name)
                continue
            expected = want(name, Y[rows], s[rows], None if w is None else w[rows])
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-15), (g, model, name)
    assert cols["one_class"][list(cols["group"]).index(4)]
    assert "ks" in str(t) and "log_loss" in str(t)


def test_extra_is_checked_by_name():
    with pytest.raises(ValueError, match=r"^extra: unknown column 'auc2'; choose from ks"):
        evaluate_many(Y, P, groups=G, extra=["ks", "auc2"])
    with pytest.raises(ValueError, match="^extra names a column twice"):
        evaluate_many(Y, P, groups=G, extra=["ks", "ks"])
    with pytest.raises(TypeError, match="^extra must be a column name"):
        evaluate_many(Y, P, groups=G, extra=3)
    with pytest.raises(ValueError, match="would hide the table's own columns"):
        import pandas as pd
        evaluate_many(pd.DataFrame({"y": Y, "p": P, "ks": G}), label="y", score="p", by="ks")


@pytest.mark.filterwarnings("ignore::indist_fast.IndistFastWarning")      # (segment 4)
def test_calibration_columns_need_probabilities():
    with pytest.raises(ValueError, match=r"^extra \['ece'\] reads scores\['q'\] as "
                                         r"probabilities, which must lie in \[0, 1\]"):
        evaluate_many(Y, {"p": P, "q": Q * 3}, groups=G, extra="ece")
    t = evaluate_many(Y, P * 3, groups=G, extra="ks")        # KS reads any scores
    assert "ece" not in t.columns and np.isfinite(t.columns["ks"][0])
