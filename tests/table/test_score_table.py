"""The public ScoreTable constructor validates its fields; merge keeps float weights of
either class; concat takes tables only."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

import indist_fast
from reports import assert_reports_equal
from indist_fast import Accumulator, IndistFastWarning, ScoreTable

rng = np.random.default_rng(5)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*a, **k)


def rows_of(scores, pos, neg):
    """Weighted rows with exactly the table's content: one positive and one negative
    row per score (weight 0 where a class is absent)."""
    m = len(scores)
    y = np.r_[np.ones(m, bool), np.zeros(m, bool)]
    return y, np.r_[scores, scores], np.r_[pos, neg].astype(float)


def test_lists_build_the_table_of_the_rows(backend):
    y = rng.random(300) < 0.4
    s = np.round(rng.normal(size=300) + y, 1)
    built = ScoreTable.from_arrays(y, s)
    by_hand = ScoreTable(built.scores.tolist(), built.pos.tolist(), built.neg.tolist(),
                         built.n_rows)
    assert by_hand.pos.dtype == by_hand.neg.dtype == np.int64
    assert_reports_equal(quiet(by_hand.evaluate), quiet(indist_fast.evaluate, y, s))


def test_mixed_count_types_become_float_for_both_classes(backend):
    scores, pos, neg = [3.0, 2.0, -np.inf], [2, 0, 1], [0.25, 1.5, 0.75]
    table = ScoreTable(scores, pos, neg, 6)        # the 6 rows of rows_of
    assert table.pos.dtype == table.neg.dtype == np.float64
    y, s, w = rows_of(scores, pos, neg)
    assert_reports_equal(quiet(table.evaluate), quiet(indist_fast.evaluate, y, s,
                                                      sample_weight=w))


S, P, N = [0.9, 0.5, 0.1], [1, 2, 0], [0, 1, 3]


@pytest.mark.parametrize("args, error, message", [
    (([0.1, 0.5, 0.9], P, N, 6), ValueError, r"scores must be distinct and strictly "
                                              r"descending; found 0.1 then 0.5 at index 0"),
    (([0.9, 0.5, 0.5], P, N, 6), ValueError, "scores must be distinct"),
    (([0.9, 0.0, -0.0], P, N, 6), ValueError, "scores must be distinct"),
    (([np.inf, np.inf, 0.1], P, N, 6), ValueError, "scores must be distinct"),
    (([0.9, np.nan, 0.1], P, N, 6), ValueError, r"scores contains NaN \(first at index 1"),
    (([[0.9], [0.5, 0.1]], P, N, 6), ValueError, "scores should be a 1d array"),
    ((np.ones((3, 1)), P, N, 6), ValueError, r"scores should be a 1d array.*\(3, 1\)"),
    ((["a", "b", "c"], P, N, 6), TypeError, "scores must hold real numbers"),
    ((S, [1, -2, 0], N, 6), ValueError, r"pos must be finite and non-negative; found -2 at "
                                        r"index 1"),
    ((S, P, [0, np.inf, 3], 6), ValueError, r"neg must be finite and non-negative; found inf"),
    ((S, P, [0, np.nan, 3], 6), ValueError, "neg must be finite and non-negative; found nan"),
    ((S, [1, 2], N, 6), ValueError, "pos must have one entry per score: 2 entries for 3"),
    ((S, P, [0, 1, 3, 4], 6), ValueError, "neg must have one entry per score"),
    ((S, P, [[0, 1], [3]], 6), ValueError, "neg should be a 1d array"),
    ((S, [1, 1j, 0], N, 6), TypeError, "pos must hold real numbers"),
    ((S, [1, 0, 0], [0, 0, 3], 4), ValueError, "pos and neg are both 0 at index 1"),
    ((S, np.array([1, 2**63, 0], np.uint64), N, 6), ValueError, "pos holds a count beyond"),
    ((S, P, N, -1), ValueError, "n_rows must be >= 0"),
    ((S, P, N, 6.0), TypeError, "n_rows must be an int"),
    ((S, P, N, True), TypeError, "n_rows must be an int"),
    ((S, P, N, None), TypeError, "n_rows must be an int"),
])
def test_constructor_refuses_bad_fields(backend, args, error, message):
    with pytest.raises(error, match=message):
        ScoreTable(*args)


def test_constructor_leaves_the_callers_arrays_alone():
    scores, pos, neg = np.array(S), np.array(P), np.array(N, dtype=float)
    copies = [a.copy() for a in (scores, pos, neg)]
    table = ScoreTable(scores, pos, neg, 6)
    for arr, copy in zip((scores, pos, neg), copies):
        assert arr.flags.writeable
        np.testing.assert_array_equal(arr, copy)
    for arr in (table.scores, table.pos, table.neg):
        assert not arr.flags.writeable
    with pytest.raises(ValueError):
        table.scores[0] = 5.0


def test_pickle_round_trip_keeps_fields_and_coding():
    table = ScoreTable.from_arrays(["n", "p", "p"], [0.1, 0.4, 0.1], pos_label="p")
    back = pickle.loads(pickle.dumps(table))
    assert back.coding == table.coding and back.n_rows == 3
    for a, b in ((back.scores, table.scores), (back.pos, table.pos), (back.neg, table.neg)):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype and not a.flags.writeable


@pytest.mark.parametrize("order", ["counts_first", "weights_first"])
def test_merge_keeps_float_negative_weights(backend, order):
    # Before the fix the merged dtype came from the positive counts only: int64 here,
    # and the negative weights 0.47... were truncated to 0 (AP off by 0.47).
    y = np.array([1, 0, 1, 1, 0, 1])
    s = np.array([0.9, 0.8, 0.7, 0.3, 0.2, 0.1])
    counts = ScoreTable.from_arrays(y, s)
    scores, pos, neg = [0.85, 0.5, 0.05], [0, 1, 0], [0.47, 0.47, 2.6]
    weights = ScoreTable(scores, pos, neg, 6)
    parts = (counts, weights) if order == "counts_first" else (weights, counts)
    merged = parts[0].merge(parts[1])
    assert merged.pos.dtype == merged.neg.dtype == np.float64
    ry, rs, rw = rows_of(scores, pos, neg)
    want = quiet(indist_fast.evaluate, np.r_[y.astype(bool), ry], np.r_[s, rs],
                 sample_weight=np.r_[np.ones(len(y)), rw])
    assert_reports_equal(quiet(merged.evaluate), want)
    assert_reports_equal(quiet(ScoreTable.concat(parts).evaluate), want)


def test_merge_takes_the_dtype_of_all_four_count_arrays(backend):
    # A table whose classes differ in dtype cannot come from the public constructor
    # any more; the library's own path could still hand one over.
    scores, pos, neg = [0.6, 0.4], [1, 0], [0.5, 0.25]
    odd = ScoreTable._trusted(np.array(scores), np.array(pos), np.array(neg), 4)
    plain = ScoreTable.from_arrays([1, 0], [0.5, 0.3])
    merged = plain.merge(odd)
    assert merged.pos.dtype == merged.neg.dtype == np.float64
    ry, rs, rw = rows_of(scores, pos, neg)
    oracle = ScoreTable.from_arrays(np.r_[[True, False], ry], np.r_[[0.5, 0.3], rs],
                                    np.r_[[1.0, 1.0], rw])
    for got, want in ((merged.scores, oracle.scores), (merged.pos, oracle.pos),
                      (merged.neg, oracle.neg)):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("tables, message", [
    ([1, 2], "tables must hold ScoreTable objects only; item 0 is int"),
    ([ScoreTable.empty(), "t"], "item 1 is str"),
    (5, "tables must be an iterable of ScoreTable, got int"),
    (ScoreTable.empty(), "tables must be an iterable of ScoreTable, got ScoreTable"),
])
def test_concat_takes_tables_only(backend, tables, message):
    with pytest.raises(TypeError, match=message):
        ScoreTable.concat(tables)


def test_merge_and_add_table_take_tables_only():
    with pytest.raises(TypeError, match="other must be a ScoreTable, got list"):
        ScoreTable.empty().merge([1])
    with pytest.raises(TypeError, match="table must be a ScoreTable"):
        Accumulator().add_table([1])


def test_accumulator_takes_a_validated_table(backend):
    acc = Accumulator()
    acc.update([0, 1], [0.2, 0.6])
    acc.add_table(ScoreTable([0.6, 0.1], [1, 0], [1.5, 2.0], 4))
    ry, rs, rw = rows_of([0.6, 0.1], [1, 0], [1.5, 2.0])
    want = indist_fast.evaluate(np.r_[[False, True], ry], np.r_[[0.2, 0.6], rs],
                                sample_weight=np.r_[[1.0, 1.0], rw])
    assert_reports_equal(quiet(acc.result), want)


@pytest.mark.parametrize("n", [3, 300_001])     # the key path and the radix buckets
def test_weights_whose_sum_at_a_score_overflows_are_refused_by_name(n):
    """A table holds each score's weights; where they add up past the largest double
    the table would hold inf, which ``ScoreTable`` itself refuses: so is the input."""
    y = np.zeros(n, dtype=np.int8)
    y[1:3] = 1
    s = np.linspace(0.0, 0.1, n)
    s[1:3] = 0.5
    w = np.ones(n)
    w[1:3] = 1e308
    with pytest.raises(ValueError, match=r"sample_weight sums to more than float64 holds at "
                                         r"the score 0\.5 \(positives inf, negatives 0\)"):
        ScoreTable.from_arrays(y, s, sample_weight=w)
