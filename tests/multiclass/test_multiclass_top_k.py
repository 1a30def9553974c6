"""multiclass.top_k_accuracy: scikit-learn's top_k_accuracy_score, its tie rule and its
binary case, errors by name."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import top_k_accuracy_score

from indist_fast import IndistFastWarning, multiclass


def ranked_oracle(y, p, k):
    """scikit-learn's rule by sorting each row: stable ascending order, reversed."""
    order = np.argsort(p, axis=1, kind="mergesort")[:, ::-1]
    return np.array([y[i] in order[i, :k] for i in range(len(y))])


@pytest.mark.parametrize("decimals", [None, 1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("normalize", [True, False])
def test_equals_scikit_learn(decimals, weighted, normalize):
    rng = np.random.default_rng(1)
    for _ in range(40):
        n, k_classes = int(rng.integers(3, 60)), int(rng.integers(3, 7))
        y = rng.integers(0, k_classes, n)
        y[:k_classes] = np.arange(k_classes)
        p = rng.random((n, k_classes))
        if decimals is not None:
            p = np.round(p, decimals)
        w = rng.random(n) if weighted else None
        for k in range(1, k_classes):
            ours = multiclass.top_k_accuracy(y, p, k=k, sample_weight=w, normalize=normalize)
            theirs = top_k_accuracy_score(y, p, k=k, sample_weight=w, normalize=normalize)
            assert ours == pytest.approx(theirs, abs=1e-12)
            hits = ranked_oracle(y, p, k)
            assert ours == pytest.approx(np.average(hits, weights=w) if normalize else
                                         float(hits @ (np.ones(n) if w is None else w)),
                                         abs=1e-12)


def test_ties_go_to_the_higher_column():
    y = [0, 2, 1]
    p = np.full((3, 3), 1 / 3)
    # every score tied: the order is column 2, 1, 0
    assert multiclass.top_k_accuracy(y, p, k=1) == pytest.approx(1 / 3)
    assert multiclass.top_k_accuracy(y, p, k=2) == pytest.approx(2 / 3)
    assert multiclass.top_k_accuracy(y, p, k=1) == top_k_accuracy_score(y, p, k=1)


def test_binary_case():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 50)
    for s in (rng.random(50), rng.normal(size=50), np.round(rng.random(50), 1)):
        assert multiclass.top_k_accuracy(y, s, k=1) == top_k_accuracy_score(y, s, k=1)
        with pytest.warns(IndistFastWarning, match="k"):
            assert multiclass.top_k_accuracy(y, s, k=2) == 1.0
    names = np.array(["no", "yes"])[y]
    s = rng.random(50)
    assert multiclass.top_k_accuracy(names, s, k=1) == top_k_accuracy_score(names, s, k=1)
    # labels naming three classes make it multiclass even when y_true holds two
    p = rng.random((50, 3))
    assert multiclass.top_k_accuracy(y, p, k=2, labels=[0, 1, 2]) == \
        top_k_accuracy_score(y, p, k=2, labels=[0, 1, 2])


def test_string_labels_and_their_order():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 4, 40)
    p = rng.random((40, 4))
    names = np.array(["a", "b", "c", "d"])[y]
    assert multiclass.top_k_accuracy(names, p, k=2) == top_k_accuracy_score(y, p, k=2)
    order = [3, 1, 0, 2]
    assert multiclass.top_k_accuracy(names, p[:, order], k=2,
                                      labels=["d", "b", "a", "c"]) == \
        pytest.approx(multiclass.top_k_accuracy(names, p, k=2))


def test_inputs_not_modified():
    rng = np.random.default_rng(4)
    y, p, w = rng.integers(0, 3, 30), rng.random((30, 3)), rng.random(30)
    for a in (y, p, w):
        a.setflags(write=False)
    copies = [a.copy() for a in (y, p, w)]
    multiclass.top_k_accuracy(y, p, k=2, sample_weight=w)
    for a, c in zip((y, p, w), copies):
        np.testing.assert_array_equal(a, c)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(k=0), ValueError, "k must be"),
    (dict(k=1.0), TypeError, "k must be an integer"),
    (dict(k=True), TypeError, "k must be an integer"),
    (dict(normalize="yes"), TypeError, "normalize"),
    (dict(labels=[0, 1]), ValueError, "y_true contains labels not in labels"),
    (dict(labels=[0, 1, 2, 3]), ValueError, "labels names 4 class"),
    (dict(sample_weight=[0.0] * 6), ValueError, "sample_weight sums to 0"),
    (dict(sample_weight=[1.0] * 2), ValueError, "sample_weight"),
])
def test_errors_name_the_argument(kwargs, error, match):
    y = [0, 1, 2, 0, 1, 2]
    p = np.random.default_rng(0).random((6, 3))
    with pytest.raises(error, match=match):
        multiclass.top_k_accuracy(y, p, **kwargs)


def test_errors_of_the_scores():
    y = [0, 1, 2, 0]
    with pytest.raises(ValueError, match="y_score should be a 2d"):
        multiclass.top_k_accuracy(y, [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="y_score contains NaN at row 1"):
        multiclass.top_k_accuracy(y, [[.1, .2, .3], [np.nan, .1, .1], [.1, .2, .3],
                                      [.1, .2, .3]])
    with pytest.raises(ValueError, match="y_score has 3 columns"):
        multiclass.top_k_accuracy([0, 1, 1, 0], np.ones((4, 3)))
    with pytest.raises(ValueError, match="y_score holds 3"):
        multiclass.top_k_accuracy([0, 1, 2, 3], np.ones((4, 3)))
