"""Top-k accuracy: the share of rows whose true class is among the k highest scores."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.validation import check_count, check_flag
from ..errors import IndistFastWarning, warn
from ._inputs import (code_labels, from_table, label_array, score_columns, score_vector,
                      weight_array)

__all__ = ["top_k_accuracy"]


def top_k_accuracy(y_true: Any, y_score: Any = None, *, k: int = 2, labels: Any = None,
                   sample_weight: Any = None, normalize: bool = True,
                   label: str | None = None, score: Any = None,
                   weight: str | None = None) -> float:
    """Top-k accuracy, as scikit-learn's ``top_k_accuracy_score`` computes it.

    A row is a hit when its true class is among the ``k`` classes of highest score.
    Tied scores are ranked as scikit-learn ranks them: the class of the higher column
    index first. O(n_samples x n_classes), no sort.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes) or (n_samples,)
        Scores of each class, columns in the order of ``labels`` (by default the sorted
        distinct labels of ``y_true``). With two classes, a 1-d array of the second
        class's scores: then k=1 predicts the second class where its score exceeds 0.5
        (0 when some score lies outside [0, 1]), and k >= 2 hits every row.
    k : int, default=2
        Number of top classes a hit may be among (>= 1).
    labels : array-like of shape (n_classes,), default=None
        The classes of the columns of ``y_score``, in that order (scikit-learn requires
        them sorted; here any order works).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite weights.
    normalize : bool, default=True
        True: the weighted share of hits; False: their weighted count.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table; ``score`` lists one column per class.

    Returns
    -------
    float

    Examples
    --------
    >>> from indist_fast import multiclass
    >>> y = [0, 1, 2, 2]
    >>> p = [[.5, .2, .2], [.3, .4, .2], [.2, .4, .3], [.7, .2, .1]]
    >>> multiclass.top_k_accuracy(y, p, k=2)
    0.75
    >>> multiclass.top_k_accuracy(y, p, k=1, normalize=False)
    2.0
    """
    y_true, y_score, sample_weight = from_table(y_true, y_score, sample_weight, label,
                                                score, weight)
    k = check_count(k, "k")
    normalize = check_flag(normalize, "normalize")
    y = label_array(y_true)
    w = weight_array(sample_weight, len(y))
    coded = code_labels(y, labels)
    n_classes = coded.n_classes
    scores = np.asarray(y_score)
    # scikit-learn's binary case: y_true of at most two classes, and labels (if given)
    # naming at most two; the scores are then the second class's, in one column
    n_present = int(np.count_nonzero(np.bincount(coded.codes, minlength=n_classes)))
    binary = n_present <= 2 and (labels is None or n_classes <= 2)
    if binary:
        if scores.ndim == 2 and scores.shape[1] != 1:
            raise ValueError(f"y_true holds {n_present} class(es) (a binary problem) while "
                             f"y_score has {scores.shape[1]} columns: pass labels= listing "
                             "every class of its columns, or the second class's scores "
                             "as a 1d array.")
        scores = scores.reshape(-1) if scores.ndim == 2 else scores
    elif scores.ndim != 2:
        raise ValueError(f"y_score should be a 2d array of shape (n_samples, n_classes) "
                         f"when there are {n_classes} classes, got an array of shape "
                         f"{scores.shape} instead.")
    score_classes = 2 if scores.ndim == 1 else scores.shape[1]
    if n_classes != score_classes:
        given = "labels names" if labels is not None else "y_true holds"
        raise ValueError(f"{given} {n_classes} class(es) but y_score holds {score_classes} "
                         "(a 1d array holds two): pass labels= listing every class of "
                         "its columns.")
    if scores.ndim == 1:
        hits = _binary_hits(coded.codes, scores, k)
    else:
        columns = score_columns(scores, len(y), n_classes, name="y_score", sums_to_one=False)
        hits = _hits(coded.codes, columns, k)
    if k >= n_classes:
        warn(f"k ({k}) is at least the number of classes ({n_classes}): every row is a "
             "hit, so the score is 1 and says nothing.", IndistFastWarning)
    if not normalize:
        return float(np.count_nonzero(hits) if w is None else np.dot(hits, w))
    if w is None:
        return float(np.count_nonzero(hits) / len(hits))
    total = float(w.sum())
    if not total > 0:
        raise ValueError("sample_weight sums to 0: the share of hits is undefined "
                         "(pass normalize=False for the weighted count).")
    return float(np.dot(hits, w) / total)


def _binary_hits(codes: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    s = score_vector(scores, len(codes), "y_score")
    if k >= 2:
        return np.ones(len(s), dtype=bool)
    threshold = 0.5 if s.min() >= 0 and s.max() <= 1 else 0.0
    hits: np.ndarray = np.equal(s > threshold, codes == 1)
    return hits


def _hits(codes: np.ndarray, columns: np.ndarray, k: int) -> np.ndarray:
    """Rows whose true class ranks among the top ``k``: fewer than ``k`` classes score
    above it or tie with it at a higher column index (scikit-learn's stable argsort,
    reversed)."""
    n_classes, n = columns.shape
    own: np.ndarray = columns[codes, np.arange(n)]
    ahead = np.zeros(n, dtype=np.int64)
    for c in range(n_classes):
        col = columns[c]
        ahead += (col > own) | ((col == own) & (c > codes))
    hits: np.ndarray = np.less(ahead, k)
    return hits
