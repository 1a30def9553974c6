"""Dataframe inputs and the scikit-learn integration."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

import indist_fast

rng = np.random.default_rng(10)
N = 2000
Y = rng.random(N) < 0.3
S = rng.normal(size=N) + Y
W = rng.random(N)


def frames():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"y": Y, "p": S, "w": W})
    out = {"pandas": df}
    try:
        import pyarrow as pa
        out["pyarrow"] = pa.Table.from_pandas(df)
    except ImportError:
        pass
    try:
        import polars as pl
        out["polars"] = pl.from_pandas(df)
    except ImportError:
        pass
    return out


@pytest.mark.parametrize("kind", ["pandas", "pyarrow", "polars"])
def test_dataframe_inputs_equal_array_inputs(backend, kind):
    table = frames().get(kind)
    if table is None:
        pytest.skip(f"{kind} is not installed")
    want = indist_fast.evaluate(Y, S, sample_weight=W)
    assert indist_fast.evaluate(table, label="y", score="p", weight="w").to_dict() == \
        want.to_dict()
    assert indist_fast.roc_auc(table, label="y", score="p") == indist_fast.roc_auc(Y, S)
    assert indist_fast.average_precision(table, label="y", score="p") == \
        indist_fast.average_precision(Y, S)
    assert indist_fast.precision_at_indistinguishability(table, label="y", score="p") == \
        indist_fast.precision_at_indistinguishability(Y, S)
    c = indist_fast.curves(table, label="y", score="p")
    np.testing.assert_array_equal(c.b, indist_fast.curves(Y, S).b)


def test_dataframe_errors():
    df = frames()["pandas"]
    with pytest.raises(ValueError, match="score: column 'q' is not in the table"):
        indist_fast.evaluate(df, label="y", score="q")
    with pytest.raises(TypeError, match="pass both label= and score="):
        indist_fast.evaluate(df, label="y")
    with pytest.raises(TypeError, match="need a DataFrame"):
        indist_fast.evaluate(Y, label="y", score="p")
    with pytest.raises(TypeError, match="y_score is missing"):
        indist_fast.evaluate(Y)
    with pytest.raises(TypeError, match="pass the table alone"):
        indist_fast.evaluate(df, S, label="y", score="p")


# --- scikit-learn -----------------------------------------------------------------------

sk = pytest.importorskip("sklearn")


def _data(n=600, seed=0):
    g = np.random.default_rng(seed)
    X = g.normal(size=(n, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] + g.normal(size=n) > 1.0).astype(int)
    return X, y


def test_scorers_equal_the_functions():
    from sklearn.linear_model import LogisticRegression
    from indist_fast.sklearn import SCORERS
    X, y = _data()
    model = LogisticRegression().fit(X, y)
    s = model.decision_function(X)
    report = indist_fast.evaluate(y, s, levels=(0.5,))
    assert SCORERS["precision_at_indistinguishability"](model, X, y) == report.precision
    assert SCORERS["roc_auc"](model, X, y) == pytest.approx(report.auc)
    assert SCORERS["lift"](model, X, y) == report.lift


def test_grid_search_runs_with_the_scorers():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, cross_val_score
    from indist_fast.sklearn import SCORERS
    X, y = _data()
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, cv=3,
                          scoring=SCORERS["precision_at_indistinguishability"]).fit(X, y)
    assert search.best_params_["C"] in (0.01, 1.0)
    scores = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=SCORERS["lift"])
    assert np.all(scores > 1)


def test_meta_estimator_threshold_is_r_b_of_out_of_fold_scores():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
    X, y = _data()
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    clf = IndistinguishabilityThresholdClassifier(LogisticRegression(), cv=cv).fit(X, y)
    oof = cross_val_predict(LogisticRegression(), X, y, cv=cv, method="decision_function")
    assert clf.threshold_ == indist_fast.indistinguishability_threshold(y, oof)
    s = clf.estimator_.decision_function(X)
    np.testing.assert_array_equal(clf.predict(X), (s >= clf.threshold_).astype(int))
    proba = IndistinguishabilityThresholdClassifier(
        LogisticRegression(), cv=cv, response_method="predict_proba").fit(X, y)
    oof_p = cross_val_predict(LogisticRegression(), X, y, cv=cv, method="predict_proba")[:, 1]
    assert proba.threshold_ == indist_fast.indistinguishability_threshold(y, oof_p)


def test_meta_estimator_survives_pickling_and_cloning():
    from sklearn.base import clone
    from sklearn.linear_model import LogisticRegression
    from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
    X, y = _data()
    clf = IndistinguishabilityThresholdClassifier(LogisticRegression(C=0.3), level=0.4).fit(X, y)
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict(X), clf.predict(X))
    fresh = clone(clf)
    assert fresh.get_params()["level"] == 0.4 and not hasattr(fresh, "threshold_")
    assert fresh.get_params()["estimator__C"] == 0.3
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        fresh.fit(X, np.arange(len(y)) % 3)


def _checks():
    from sklearn.linear_model import LogisticRegression
    from sklearn.utils.estimator_checks import parametrize_with_checks
    from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
    return parametrize_with_checks(
        [IndistinguishabilityThresholdClassifier(LogisticRegression(), cv=3)])


@_checks()
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the checks' own data trip our warnings
        check(estimator)
