"""scikit-learn integration: scorers and a classifier that predicts at r_b.

Needs scikit-learn (an optional dependency).

- ``SCORERS``: ``scoring=`` values for ``cross_val_score`` and ``GridSearchCV``:
  ``precision_at_indistinguishability`` (C(r_b)), ``roc_auc`` and ``lift``, each
  reading the estimator's ``decision_function`` or positive-class ``predict_proba``.
- ``IndistinguishabilityThresholdClassifier``: fits an estimator, learns the
  indistinguishability threshold r_b from out-of-fold scores, predicts with it (in
  the spirit of scikit-learn's ``TunedThresholdClassifierCV``).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.metrics import make_scorer
from sklearn.model_selection import cross_val_predict
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .errors import IndistFastWarning, warn
from .metrics.evaluation import evaluate, indistinguishability_threshold

__all__ = ["SCORERS", "precision_at_indistinguishability_scorer", "roc_auc_scorer",
           "lift_scorer", "IndistinguishabilityThresholdClassifier"]

_RESPONSE = ("decision_function", "predict_proba")


def _c_rb(y_true: Any, y_score: Any) -> float:
    return evaluate(y_true, y_score, levels=(0.5,)).precision


def _auc(y_true: Any, y_score: Any) -> float:
    return evaluate(y_true, y_score, levels=(0.5,)).auc


def _lift(y_true: Any, y_score: Any) -> float:
    return evaluate(y_true, y_score, levels=(0.5,)).lift


precision_at_indistinguishability_scorer = make_scorer(_c_rb, response_method=_RESPONSE)
roc_auc_scorer = make_scorer(_auc, response_method=_RESPONSE)
lift_scorer = make_scorer(_lift, response_method=_RESPONSE)

SCORERS = {"precision_at_indistinguishability": precision_at_indistinguishability_scorer,
           "roc_auc": roc_auc_scorer, "lift": lift_scorer}


class IndistinguishabilityThresholdClassifier(ClassifierMixin, MetaEstimatorMixin,
                                              BaseEstimator):
    """Predict positive where the score reaches the indistinguishability threshold.

    Parameters
    ----------
    estimator : classifier
        Any binary classifier with ``decision_function`` or ``predict_proba``.
    level : float, default=0.5
        Level of B: 0.5 gives r_b.
    cv : int or cross-validation splitter, default=5
        Out-of-fold scores for learning the threshold.
    response_method : {"auto", "decision_function", "predict_proba"}, default="auto"
        Which score to threshold; "auto" prefers ``decision_function``.

    Attributes
    ----------
    estimator_ : classifier
        ``estimator`` refitted on all the data.
    threshold_ : float
        r at ``level`` of the out-of-fold scores (``inf`` when B never reaches it).
    classes_ : ndarray of shape (2,)
        The class labels; ``classes_[1]`` is the positive class.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 3)); y = (X[:, 0] + rng.normal(size=400) > 1).astype(int)
    >>> clf = IndistinguishabilityThresholdClassifier(LogisticRegression()).fit(X, y)
    >>> clf.predict(X).shape
    (400,)
    """

    def __init__(self, estimator: Any, *, level: float = 0.5, cv: Any = 5,
                 response_method: str = "auto") -> None:
        self.estimator = estimator
        self.level = level
        self.cv = cv
        self.response_method = response_method

    def _method(self, estimator: Any) -> str:
        if self.response_method == "auto":
            for name in _RESPONSE:
                if hasattr(estimator, name):
                    return name
            raise TypeError("estimator has neither decision_function nor predict_proba.")
        if self.response_method not in _RESPONSE:
            raise ValueError(f"response_method must be 'auto' or one of {_RESPONSE}, got "
                             f"{self.response_method!r}.")
        return self.response_method

    @staticmethod
    def _positive_scores(raw: np.ndarray) -> np.ndarray:
        return raw[:, 1] if raw.ndim == 2 else raw

    def fit(self, X: Any, y: Any, sample_weight: Any = None,
            **fit_params: Any) -> "IndistinguishabilityThresholdClassifier":
        """Learn r_b from out-of-fold scores, then refit the estimator on all rows.

        ``sample_weight`` goes to the estimator and weights the rows of the threshold;
        other ``fit_params`` go to the estimator's ``fit``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Binary target.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative row weights, for the estimator and the threshold.
        **fit_params : dict
            Further arguments of the estimator's ``fit``.

        Returns
        -------
        IndistinguishabilityThresholdClassifier
            The fitted classifier (``self``).

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.linear_model import LogisticRegression
        >>> from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] + rng.normal(size=200) > 1).astype(int)
        >>> clf = IndistinguishabilityThresholdClassifier(LogisticRegression(), cv=3).fit(X, y)
        >>> bool(np.isfinite(clf.threshold_)), clf.classes_.tolist()
        (True, [0, 1])
        """
        if sample_weight is not None:
            fit_params = {**fit_params, "sample_weight": sample_weight}
        X, y = validate_data(self, X, y)
        kind = type_of_target(y, input_name="y", raise_unknown=True)
        if kind != "binary":
            raise ValueError("Only binary classification is supported by "
                             f"IndistinguishabilityThresholdClassifier; y is {kind}.")
        self.classes_ = np.unique(y)
        method = self._method(self.estimator)
        scores = self._positive_scores(np.asarray(cross_val_predict(
            clone(self.estimator), X, y, cv=self.cv, method=method, params=fit_params)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", IndistFastWarning)
            threshold = indistinguishability_threshold(y == self.classes_[1], scores,
                                                       sample_weight=sample_weight,
                                                       level=self.level)
        if np.isnan(threshold):
            warn(f"B never reaches {self.level} on the out-of-fold scores: every row is "
                 "predicted negative.", IndistFastWarning)
            threshold = np.inf
        self.threshold_ = float(threshold)
        self.estimator_ = clone(self.estimator).fit(X, y, **fit_params)
        return self

    def _scores(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "estimator_")
        X = validate_data(self, X, reset=False)
        raw = getattr(self.estimator_, self._method(self.estimator_))(X)
        return self._positive_scores(np.asarray(raw))

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where the score reaches ``threshold_``, else ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to classify.

        Returns
        -------
        ndarray of shape (n_samples,)
            A class label per row.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.linear_model import LogisticRegression
        >>> from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] + rng.normal(size=200) > 1).astype(int)
        >>> clf = IndistinguishabilityThresholdClassifier(LogisticRegression(), cv=3).fit(X, y)
        >>> bool(np.all((clf.predict(X) == 1) == (clf.decision_function(X) >= 0)))
        True
        """
        check_is_fitted(self, "estimator_")
        labels: np.ndarray = self.classes_[(self._scores(X) >= self.threshold_).astype(int)]
        return labels

    def decision_function(self, X: Any) -> np.ndarray:
        """The score minus ``threshold_``: positive rows are predicted positive.

        (No ``predict_proba``: the estimator's probabilities would disagree with
        ``predict`` at any threshold other than 1/2.)

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to score.

        Returns
        -------
        ndarray of float64 of shape (n_samples,)
            ``score - threshold_``; at least 0 where ``predict`` gives ``classes_[1]``.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.linear_model import LogisticRegression
        >>> from indist_fast.sklearn import IndistinguishabilityThresholdClassifier
        >>> rng = np.random.default_rng(0)
        >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] + rng.normal(size=200) > 1).astype(int)
        >>> clf = IndistinguishabilityThresholdClassifier(LogisticRegression(), cv=3).fit(X, y)
        >>> clf.decision_function(X[:3]).shape
        (3,)
        """
        return self._scores(X) - self.threshold_

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
