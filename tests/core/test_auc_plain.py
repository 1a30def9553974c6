"""``roc_auc`` of a plain service call: the kernel that counts the sorted classes
(``auc_plain``) against the pair-enumerating oracle, scikit-learn and the sweep, on
inputs that reach each part of its four-way merge (fewer than four positives, ties
across the parts' splits, infinities, signed zeros) and on inputs it must decline."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import indist_fast
from indist_fast import IndistFastWarning
from indist_fast._core.engine import engine
from indist_fast._core.validation import PLAIN_ROWS
import oracle

sklearn_metrics = pytest.importorskip("sklearn.metrics")

LABELS = [np.bool_, np.uint8, np.int8, np.int32, np.int64, np.float32, np.float64]


def cases(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(2, 120))
        y = rng.random(n) < rng.uniform(0.02, 0.98)
        y[rng.integers(n)] = True
        y[rng.integers(n)] = False
        if y.all() or not y.any():
            continue
        # few distinct values: ties within and across classes, and at the parts' splits
        s = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        for value in (np.inf, -np.inf, -0.0, 0.0):
            if rng.random() < 0.15:
                s[rng.integers(n)] = value
        yield y.astype(rng.choice(LABELS)), s.astype(rng.choice([np.float64, np.float32]))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_equals_the_oracle_scikit_learn_and_the_sweep(backend, seed):
    for y, s in cases(seed, 150):
        got = engine().auc_plain(y, s, PLAIN_ROWS)
        assert got is not None
        assert got == pytest.approx(oracle.auc(y.astype(bool), s), abs=1e-12)
        if np.isfinite(s).all():      # (scikit-learn refuses infinite scores)
            assert got == pytest.approx(sklearn_metrics.roc_auc_score(y.astype(bool), s),
                                        abs=1e-12)
        # the same double as the sweep's AUC (evaluate's)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", IndistFastWarning)
            assert got == indist_fast.evaluate(y.astype(bool), s, levels=()).auc
        assert indist_fast.roc_auc(y, s) == got


@pytest.mark.parametrize("n_pos", [1, 2, 3, 4, 5, 7, 8])
def test_few_positives_and_all_tied_classes(backend, n_pos):
    rng = np.random.default_rng(n_pos)
    for tie in (False, True):
        n = n_pos + 9
        y = np.r_[np.ones(n_pos, bool), np.zeros(9, bool)]
        s = np.full(n, 0.5) if tie else rng.normal(size=n)
        order = rng.permutation(n)
        got = engine().auc_plain(y[order], s[order], PLAIN_ROWS)
        assert got == (0.5 if tie else pytest.approx(oracle.auc(y, s), abs=1e-15))


def test_every_negative_above_or_below_every_positive(backend):
    y = np.r_[np.ones(50, bool), np.zeros(50, bool)]
    s = np.r_[np.arange(50.0), np.arange(50.0) + 100]
    assert engine().auc_plain(y, s, PLAIN_ROWS) == 0.0
    assert engine().auc_plain(y, -s, PLAIN_ROWS) == 1.0


@pytest.mark.parametrize("y, s", [
    (np.array([0, 1, 2, 1]), np.arange(4.0)),                       # a third label
    (np.array([-1, 1, -1, 1]), np.arange(4.0)),                     # {-1, 1}: coded first
    (np.array([0, 1, 0, 1]), np.array([0.1, np.nan, 0.2, 0.3])),    # NaN score
    (np.ones(4, np.int64), np.arange(4.0)),                         # one class
    (np.array([0, 1, 0, 1]), np.arange(4, dtype=np.int64)),          # integer scores
    (np.array([0, 1, 0, 1], np.int16), np.arange(4.0)),              # label dtype
    (np.array([0, 1, 0, 1]), np.arange(8.0)[::2]),                   # strided scores
    (np.array([0, 1, 0, 1]), np.arange(4.0).astype(">f8")),          # byte-swapped
    (np.array([[0, 1], [0, 1]]), np.arange(4.0).reshape(2, 2)),      # 2-d
    ([0, 1, 0, 1], np.arange(4.0)),                                  # a list
    (np.array([0, 1, 0]), np.arange(4.0)),                           # lengths differ
    (np.array([], np.int64), np.array([])),                          # no rows
])
def test_declines_what_is_not_plain(backend, y, s):
    assert engine().auc_plain(y, s, PLAIN_ROWS) is None


def test_declines_more_rows_than_asked(backend):
    y, s = np.array([0, 1, 0, 1]), np.arange(4.0)
    assert engine().auc_plain(y, s, 3) is None
    assert engine().auc_plain(y, s, 4) == 0.75


def test_roc_auc_of_declined_rows_takes_the_long_way(backend):
    with pytest.raises(ValueError, match="third label 2 at row 2"):
        indist_fast.roc_auc(np.array([0, 1, 2, 1]), np.arange(4.0))
    with pytest.raises(ValueError, match=r"NaN \(first at row 1\)"):
        indist_fast.roc_auc(np.array([0, 1, 0, 1]), np.array([0.1, np.nan, 0.2, 0.3]))
    assert indist_fast.roc_auc(np.array([-1, 1, -1, 1]), np.arange(4.0)) == 0.75
    assert indist_fast.roc_auc(np.array([0, 1, 0, 1]), np.arange(8.0)[::2]) == 0.75


def test_inputs_are_not_modified(backend):
    rng = np.random.default_rng(5)
    y, s = rng.random(1000) < 0.3, rng.normal(size=1000)
    y.flags.writeable = s.flags.writeable = False
    keep_y, keep_s = y.copy(), s.copy()
    indist_fast.roc_auc(y, s)
    assert (y == keep_y).all() and (s == keep_s).all()


@pytest.mark.slow
def test_ties_across_the_splits_of_the_merge(backend):
    # Few rows of three scores: every way a positive and a negative of one score can
    # fall on either side of a split of the merge (the last positive of a part, the
    # first negative of the next).
    rng = np.random.default_rng(11)
    for _ in range(3000):
        n = int(rng.integers(2, 17))
        y = rng.random(n) < rng.uniform(0.1, 0.9)
        y[0], y[-1] = True, False
        s = rng.integers(0, 3, n).astype(np.float64)
        assert engine().auc_plain(y, s, PLAIN_ROWS) == pytest.approx(oracle.auc(y, s),
                                                                     abs=1e-15)
