"""multiclass.evaluate: each class's row is indist_fast.evaluate of that class against
the rest; multi-label micro and macro rows against scikit-learn's averages."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import indist_fast
from indist_fast import IndistFastWarning, multiclass

pytestmark = pytest.mark.filterwarnings("ignore::indist_fast.LevelNotReachedWarning",
                                        "ignore::indist_fast.UndefinedBWarning")
FIELDS = ("auc", "average_precision", "threshold", "precision", "lift", "tpr", "fpr", "b",
          "weight_pos", "weight_neg")


def same(a, b):
    return (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, abs=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_each_class_is_one_against_the_rest(backend, weighted):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 300)
    p = np.round(rng.random((300, 4)) + 0.4 * np.eye(4)[y], 2)
    w = rng.integers(0, 3, 300).astype(float) if weighted else None
    names = np.array(["a", "b", "c", "d"])[y]
    t = multiclass.evaluate(names, p, sample_weight=w, levels=(0.4, 0.5))
    assert t.by == ("class",) and t.columns["class"].tolist() == ["a", "b", "c", "d"]
    for c, name in enumerate("abcd"):
        r = indist_fast.evaluate((y == c).astype(int), p[:, c], sample_weight=w,
                                 levels=(0.4, 0.5))
        row = t.columns["class"].tolist().index(name)
        for field in FIELDS:
            assert same(t.columns[field][row], getattr(r, field)), field
        assert same(t.columns["precision_at_0.4"][row], r.at[0.4].precision)
        assert t.report(**{"class": name}).auc == r.auc
        assert t.columns["auc"][row] == pytest.approx(
            roc_auc_score(y == c, p[:, c], sample_weight=w), abs=1e-12)


def test_labels_order_and_an_absent_class(backend):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 100)
    p = rng.random((100, 4))
    with pytest.warns(IndistFastWarning, match="single class"):
        t = multiclass.evaluate(y, p, labels=[3, 2, 1, 0])
    assert t.columns["class"].tolist() == [3, 2, 1, 0]
    assert t.columns["one_class"].tolist() == [True, False, False, False]
    assert np.isnan(t.columns["auc"][0])
    assert t.columns["auc"][1] == pytest.approx(roc_auc_score(y == 2, p[:, 1]), abs=1e-12)


def test_multi_label_micro_and_macro(backend):
    rng = np.random.default_rng(2)
    y = (rng.random((200, 5)) < 0.3).astype(int)
    s = np.round(rng.random((200, 5)) + 0.3 * y, 2)
    w = rng.random(200)
    t = multiclass.evaluate(y, s, sample_weight=w, labels=list("vwxyz"))
    assert t.columns["class"].tolist() == list("vwxyz") + ["micro", "macro"]
    col = {name: t.columns[name] for name in ("auc", "average_precision")}
    micro, macro = len(t) - 2, len(t) - 1
    for avg, row in (("micro", micro), ("macro", macro)):
        assert col["auc"][row] == pytest.approx(
            roc_auc_score(y, s, average=avg, sample_weight=w), abs=1e-12)
        assert col["average_precision"][row] == pytest.approx(
            average_precision_score(y, s, average=avg, sample_weight=w), abs=1e-12)
    assert t.columns["n_rows"][micro] == 1000
    for field in multiclass.MACRO_FIELDS:
        assert same(t.columns[field][macro], np.mean(t.columns[field][:5]))
    assert np.isnan(t.columns["threshold"][macro]) and t.columns["n_thresholds"][macro] == 0
    assert t.report(**{"class": "micro"}).auc == col["auc"][micro]
    with pytest.raises(ValueError, match="averages other rows"):
        t.report(**{"class": "macro"})
    assert t.to_dict()["class"][-1] == "macro"


def test_inputs_not_modified(backend):
    rng = np.random.default_rng(3)
    y, p, w = rng.integers(0, 3, 50), rng.random((50, 3)), rng.random(50)
    ym = (rng.random((50, 3)) < 0.5)
    for a in (y, p, w, ym):
        a.setflags(write=False)
    copies = [a.copy() for a in (y, p, w, ym)]
    multiclass.evaluate(y, p, sample_weight=w)
    multiclass.evaluate(ym, p, sample_weight=w)
    for a, c in zip((y, p, w, ym), copies):
        np.testing.assert_array_equal(a, c)


def test_errors_name_the_argument():
    p = np.random.default_rng(0).random((4, 3))
    with pytest.raises(ValueError, match="indicator matrix.*row 1, column 2"):
        multiclass.evaluate([[0, 1, 0], [1, 0, 2], [0, 0, 1], [1, 1, 1]], p)
    with pytest.raises(ValueError, match="labels must name the 3 columns"):
        multiclass.evaluate(np.eye(4, 3, dtype=int), p, labels=["a", "b"])
    with pytest.raises(ValueError, match="y_prob has 3 columns but there are 2"):
        multiclass.evaluate([0, 1, 1, 0], p)
    with pytest.raises(ValueError, match="y_prob contains NaN at row 0"):
        multiclass.evaluate([0, 1, 2, 0], np.where(np.eye(4, 3) > 0, np.nan, p))
    with pytest.raises(ValueError, match="levels"):
        multiclass.evaluate([0, 1, 2, 0], p, levels=(1.5,))
