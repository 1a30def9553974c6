"""multiclass.roc_auc: scikit-learn's multiclass roc_auc_score for every multi_class x
average it accepts, a brute-force pair-counting oracle (ties, weights), labels, edge
cases and errors by name, on both backends."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from indist_fast import IndistFastWarning, multiclass
from indist_fast.multiclass import _roc_auc

COMBOS = [("ovr", "micro"), ("ovr", "macro"), ("ovr", "weighted"), ("ovr", None),
          ("ovo", "macro"), ("ovo", "weighted")]


def probabilities(rng, n, k, decimals=None, all_classes=True):
    """Labels and rows of class probabilities (rounded scores: many ties)."""
    y = rng.integers(0, k, n)
    if all_classes:
        y[:k] = np.arange(k)
    p = rng.random((n, k)) + 0.5 * np.eye(k)[y]
    if decimals is not None:
        p = np.round(p, decimals)
    return y, p / p.sum(axis=1, keepdims=True)


def pair_auc(s_pos, s_neg, w_pos, w_neg):
    """Weighted AUC of positives against negatives by counting every pair."""
    gt = (s_pos[:, None] > s_neg[None, :]) + 0.5 * (s_pos[:, None] == s_neg[None, :])
    return float(w_pos @ gt @ w_neg / (w_pos.sum() * w_neg.sum()))


def oracle(y, p, multi_class, average, w=None):
    """The definitions, pair by pair (classes 0 .. k-1, all present)."""
    k = p.shape[1]
    w = np.ones(len(y)) if w is None else w
    if multi_class == "ovr":
        if average == "micro":
            pos = (y[:, None] == np.arange(k)).ravel()
            s, ww = p.ravel(), np.repeat(w, k)
            return pair_auc(s[pos], s[~pos], ww[pos], ww[~pos])
        aucs = np.array([pair_auc(p[y == c, c], p[y != c, c], w[y == c], w[y != c])
                         for c in range(k)])
        support = np.array([w[y == c].sum() for c in range(k)])
        return {None: aucs, "macro": aucs.mean(),
                "weighted": np.average(aucs, weights=support)}[average]
    pairs, prevalence = [], []
    for a in range(k):
        for b in range(a + 1, k):
            ia, ib = y == a, y == b
            pairs.append((pair_auc(p[ia, a], p[ib, a], w[ia], w[ib])
                          + pair_auc(p[ib, b], p[ia, b], w[ib], w[ia])) / 2)
            prevalence.append(w[ia | ib].sum() / w.sum())
    return float(np.average(pairs, weights=prevalence if average == "weighted" else None))


@pytest.mark.parametrize("multi_class, average", COMBOS)
@pytest.mark.parametrize("decimals", [None, 1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("given_labels", [False, True])
def test_equals_scikit_learn(backend, multi_class, average, decimals, weighted,
                             given_labels):
    rng = np.random.default_rng(7)
    for k in (3, 4, 6):
        y, p = probabilities(rng, 150, k, decimals)
        w = rng.random(len(y)) * 3 if weighted else None
        labels = np.arange(k) if given_labels else None
        ours = multiclass.roc_auc(y, p, multi_class=multi_class, average=average,
                                  labels=labels, sample_weight=w)
        if multi_class == "ovo" and weighted:
            with pytest.raises(ValueError, match="sample_weight"):     # sklearn refuses
                roc_auc_score(y, p, multi_class="ovo", sample_weight=w)
            assert ours == pytest.approx(oracle(y, p, "ovo", average, w), abs=1e-12)
            continue
        theirs = roc_auc_score(y, p, multi_class=multi_class, average=average,
                               labels=labels, sample_weight=w)
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


@pytest.mark.parametrize("multi_class, average", COMBOS)
def test_brute_force_pairs_with_ties_and_weights(backend, multi_class, average):
    rng = np.random.default_rng(3)
    for trial in range(20):
        k = int(rng.integers(3, 6))
        y, p = probabilities(rng, int(rng.integers(k, 40)), k, decimals=int(trial % 3))
        w = rng.integers(0, 4, len(y)).astype(float) if trial % 2 else None
        if w is not None:
            w[:k] = 1.0                  # every class keeps some weight
        ours = multiclass.roc_auc(y, p, multi_class=multi_class, average=average,
                                  sample_weight=w)
        np.testing.assert_allclose(ours, oracle(y, p, multi_class, average, w), rtol=0,
                                   atol=1e-12)


def test_all_tied_and_ties_across_classes(backend):
    y = np.array([0, 1, 2, 0, 1, 2])
    p = np.full((6, 3), 1 / 3)
    for mc in ("ovr", "ovo"):
        assert multiclass.roc_auc(y, p, multi_class=mc) == pytest.approx(0.5, abs=1e-15)
    # the same score in one column for rows of two classes: half a pair each
    p = np.array([[.5, .25, .25], [.5, .25, .25], [.2, .4, .4], [.1, .6, .3],
                  [.3, .3, .4], [.25, .25, .5]])
    y = np.array([0, 1, 0, 1, 2, 2])
    for mc, av in COMBOS:
        np.testing.assert_allclose(multiclass.roc_auc(y, p, multi_class=mc, average=av),
                                   roc_auc_score(y, p, multi_class=mc, average=av),
                                   atol=1e-12)


def test_string_labels_and_their_order(backend):
    rng = np.random.default_rng(5)
    y, p = probabilities(rng, 120, 3, decimals=2)
    names = np.array(["cat", "dog", "eel"])[y]
    for mc, av in COMBOS:
        expected = roc_auc_score(y, p, multi_class=mc, average=av)
        np.testing.assert_allclose(multiclass.roc_auc(names, p, multi_class=mc, average=av),
                                   expected, atol=1e-12)
        # labels in another order name the columns in that order (sklearn wants them
        # sorted): permuting both leaves every number in place
        order = [2, 0, 1]
        got = multiclass.roc_auc(names, p[:, order], multi_class=mc, average=av,
                                 labels=["eel", "cat", "dog"])
        want = expected if av is not None else np.asarray(expected)[order]
        np.testing.assert_allclose(got, want, atol=1e-12)


def test_a_class_absent_from_y_true(backend):
    rng = np.random.default_rng(11)
    y, p = probabilities(rng, 90, 4)
    y[y == 3] = 0                               # class 3 has a column but no row
    for mc, av in COMBOS:
        if mc == "ovr" and av in ("macro", None):
            with pytest.warns(IndistFastWarning, match=r"\[3\]"):
                ours = multiclass.roc_auc(y, p, multi_class=mc, average=av, labels=[0, 1, 2, 3])
            with pytest.warns(Warning, match="Only one class"):
                theirs = roc_auc_score(y, p, multi_class=mc, average=av, labels=[0, 1, 2, 3])
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ours = multiclass.roc_auc(y, p, multi_class=mc, average=av, labels=[0, 1, 2, 3])
                theirs = roc_auc_score(y, p, multi_class=mc, average=av, labels=[0, 1, 2, 3])
        np.testing.assert_allclose(ours, theirs, atol=1e-12)        # NaN where sklearn's


def test_a_class_of_zero_weight(backend):
    rng = np.random.default_rng(2)
    y, p = probabilities(rng, 80, 3)
    w = np.where(y == 2, 0.0, 1.5)
    with pytest.warns(IndistFastWarning, match=r"\[2\]"):
        assert np.isnan(multiclass.roc_auc(y, p, sample_weight=w))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = roc_auc_score(y, p, multi_class="ovr", average="weighted", sample_weight=w)
        ours = multiclass.roc_auc(y, p, average="weighted", sample_weight=w)
    assert ours == pytest.approx(theirs, abs=1e-12)
    with pytest.warns(IndistFastWarning):
        assert np.isnan(multiclass.roc_auc(y, p, multi_class="ovo", sample_weight=w))
    for mc, av in COMBOS:                   # every weight 0: NaN (weighted ovr: 0), warned
        with pytest.warns(IndistFastWarning):
            got = multiclass.roc_auc(y, p, multi_class=mc, average=av, sample_weight=0 * w)
        assert np.all(np.isnan(got)) or (mc, av, got) == ("ovr", "weighted", 0.0)


def test_two_classes(backend):
    rng = np.random.default_rng(4)
    y, p = probabilities(rng, 100, 2, decimals=2)
    expected = roc_auc_score(y, p[:, 1])
    assert multiclass.roc_auc(y, p[:, 1]) == pytest.approx(expected, abs=1e-12)
    # two columns (scikit-learn refuses them for a binary y_true): each class's AUC
    for mc in ("ovr", "ovo"):
        assert multiclass.roc_auc(y, p, multi_class=mc) == pytest.approx(expected, abs=1e-12)
    np.testing.assert_allclose(multiclass.roc_auc(y, p, average=None), [expected] * 2,
                               atol=1e-12)


def test_two_threads_match_scikit_learn(backend):
    rng = np.random.default_rng(9)
    y, p = probabilities(rng, _roc_auc.THREAD_MIN_ROWS + 5_000, 4, decimals=3)
    for mc, av in (("ovr", "macro"), ("ovo", "macro"), ("ovo", "weighted")):
        assert multiclass.roc_auc(y, p, multi_class=mc, average=av) == pytest.approx(
            roc_auc_score(y, p, multi_class=mc, average=av), abs=1e-12)


def test_inputs_not_modified(backend):
    rng = np.random.default_rng(1)
    y, p = probabilities(rng, 60, 3)
    w = rng.random(60)
    for arr in (y, p, w):
        arr.setflags(write=False)
    copies = [a.copy() for a in (y, p, w)]
    for mc, av in COMBOS:
        multiclass.roc_auc(y, p, multi_class=mc, average=av,
                           sample_weight=None if mc == "ovo" else w)
        multiclass.roc_auc(y, np.asfortranarray(p), multi_class=mc, average=av)
    for a, c in zip((y, p, w), copies):
        np.testing.assert_array_equal(a, c)


def test_table_columns():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(8)
    y, p = probabilities(rng, 50, 3)
    df = pd.DataFrame({"y": y, "a": p[:, 0], "b": p[:, 1], "c": p[:, 2], "w": 1.0 + y})
    assert multiclass.roc_auc(df, label="y", score=["a", "b", "c"], weight="w") == \
        pytest.approx(multiclass.roc_auc(y, p, sample_weight=1.0 + y), abs=1e-15)


@pytest.mark.parametrize("kwargs, match", [
    (dict(multi_class="raise"), "multi_class"),
    (dict(average="samples"), "average"),
    (dict(multi_class="ovo", average=None), "average"),
    (dict(multi_class="ovo", average="micro"), "average"),
    (dict(labels=[0, 1, 1]), "labels must be unique"),
    (dict(labels=[0, 1, 5]), "y_true contains labels not in labels"),
    (dict(labels=[0, 1, 2, 3]), "y_prob has 3 columns"),
    (dict(sample_weight=[1.0] * 5), "sample_weight"),
    (dict(sample_weight=[1.0, -1.0] + [1.0] * 4), "sample_weight"),
])
def test_errors_name_the_argument(kwargs, match):
    y = [0, 1, 2, 0, 1, 2]
    p = np.full((6, 3), 1 / 3)
    with pytest.raises(ValueError, match=match):
        multiclass.roc_auc(y, p, **kwargs)


def test_errors_of_the_scores():
    y = [0, 1, 2, 0]
    good = np.full((4, 3), 1 / 3)
    with pytest.raises(ValueError, match="y_prob should be a 2d array"):
        multiclass.roc_auc(y, good[:, 0])
    with pytest.raises(ValueError, match="y_prob should be a 2d"):
        multiclass.roc_auc(y, good[None])
    nan = good.copy()
    nan[2, 1] = np.nan
    with pytest.raises(ValueError, match="y_prob contains NaN at row 2"):
        multiclass.roc_auc(y, nan)
    with pytest.raises(ValueError, match="sum to 1.*row 1"):
        multiclass.roc_auc(y, good + np.array([[0], [0.1], [0], [0]]))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        multiclass.roc_auc(y, good[:3])
    with pytest.raises(TypeError, match="y_prob must hold real numbers"):
        multiclass.roc_auc(y, good.astype(str))
    with pytest.raises(ValueError, match="y_true is empty"):
        multiclass.roc_auc([], np.empty((0, 3)))
    with pytest.raises(ValueError, match="y_true contains NaN"):
        multiclass.roc_auc([0.0, 1.0, np.nan, 2.0], good)
    with pytest.raises(ValueError, match="y_true should be a 1d array"):
        multiclass.roc_auc(good, good)
    with pytest.raises(TypeError, match="y_prob is missing"):
        multiclass.roc_auc(y)
