"""Edges a newcomer hit: integer scores float64 cannot hold, empty chunks, a merge with
itself, reading results as mappings."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import indist_fast
from indist_fast import Accumulator, IndistFastWarning

Y8 = [0, 1, 0, 1, 1, 0, 0, 1]


@pytest.mark.parametrize("scores", [
    np.array([2**64 - 1, 2**64 - 2, 1, 2**63, 2**63 + 1, 0, 5, 2**64 - 3], dtype=np.uint64),
    np.array([2**62 + 1, 2**62, 0, 1, 2, 3, 4, 5], dtype=np.int64),
    np.array([-(2**62) - 1, -(2**62), 0, 1, 2, 3, 4, 5], dtype=np.int64),
    np.array([2**62 + 1, 2**62, 0, 1, 2, 3, 4, 5], dtype=object),
])
def test_integers_float64_cannot_tell_apart_are_refused(backend, scores):
    # ranked exactly (sklearn on the integers) the AUC differs from the float64 ties'
    exact = roc_auc_score(Y8, scores.astype(np.int64) if scores.dtype == object else scores)
    assert exact != roc_auc_score(Y8, scores.astype(np.float64))
    with pytest.raises(ValueError, match="y_score holds .* float64 cannot tell apart"):
        indist_fast.roc_auc(Y8, scores)


@pytest.mark.parametrize("scores", [
    np.array([2**62, 2**61, 0, 1, 2, 3, 4, 5], dtype=np.int64),      # exact in float64
    np.array([2**53, -(2**53), 7, 1, 2, 3, 4, 5], dtype=np.int64),
    np.arange(8, dtype=np.uint64) * np.uint64(2**60),
])
def test_large_integers_float64_holds_exactly_are_accepted(backend, scores):
    assert indist_fast.roc_auc(Y8, scores) == pytest.approx(roc_auc_score(Y8, scores),
                                                             abs=1e-15)


def test_long_double_scores_that_stay_distinct_are_accepted(backend):
    s = np.arange(8, dtype=np.longdouble) + np.longdouble(1e-30)
    assert indist_fast.roc_auc(Y8, s) == indist_fast.roc_auc(Y8, np.arange(8.0))


def test_accumulator_skips_empty_chunks(backend):
    acc = Accumulator()
    acc.update([], [])
    acc.update(np.array([], dtype=bool), np.array([]), sample_weight=[])
    acc.update([0, 1, 1], [0.1, 0.9, 0.4])
    acc.update([], [])
    assert acc.n_rows == 3
    assert acc.result(levels=(0.5,)).auc == indist_fast.roc_auc([0, 1, 1], [0.1, 0.9, 0.4])


def test_accumulator_refuses_to_merge_itself():
    acc = Accumulator()
    acc.update([0, 1], [0.2, 0.8])
    with pytest.raises(ValueError, match="other is this accumulator"):
        acc.merge(acc)
    assert acc.n_rows == 2


def test_empty_accumulator_says_it_has_no_rows():
    with pytest.raises(ValueError, match="no rows yet"):
        Accumulator().result()


def test_bootstrap_result_reads_as_a_mapping_of_intervals():
    r = indist_fast.bootstrap([0, 1, 0, 1, 1, 0], [.1, .8, .3, .7, .4, .5], n_boot=20, seed=0)
    assert list(r) == list(r.intervals) and len(r) == len(r.intervals)
    assert "auc" in r and "nonsense" not in r
    assert [r[m] for m in r] == list(r.intervals.values())


def test_report_at_names_the_levels_it_has():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        report = indist_fast.evaluate([0, 1, 0, 1, 1, 0], [.1, .8, .3, .7, .4, .5])
    assert report.at[0.5].threshold == report.threshold
    with pytest.raises(KeyError, match=r"0\.45.*levels 0\.4, 0\.5, 0\.6"):
        report.at[0.45]
    again = pickle.loads(pickle.dumps(report))
    assert again.at[0.4] == report.at[0.4] and list(again.at) == list(report.at)


@pytest.mark.parametrize("labels", [
    "pandas_boolean_na", [True, False, None, True], ["a", "b", float("nan"), "a"]])
def test_missing_labels_are_named_with_their_row(backend, labels):
    if labels == "pandas_boolean_na":
        pd = pytest.importorskip("pandas")
        labels = pd.array([True, False, pd.NA, True], dtype="boolean")
        pos = None
    else:
        labels = np.array(labels, dtype=object)
        pos = "a" if "a" in list(labels) else True
    with pytest.raises(ValueError, match=r"y_true has a missing label .* at row 2"):
        indist_fast.evaluate(labels, [.1, .2, .3, .4], pos_label=pos)
