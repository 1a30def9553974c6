"""Multiclass ROC AUC: one-vs-rest (Provost and Domingos 2000, Fawcett 2006) and
one-vs-one (Hand and Till 2001), with scikit-learn's averages."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence, TypeVar

import numpy as np

from .._core.engine import engine
from ..errors import IndistFastWarning, warn
from ..table.score_table import with_main_level
from ._inputs import (code_labels, from_table, label_array, score_columns, score_vector,
                      weight_array)
from ._pair_counts import pair_counts

__all__ = ["roc_auc"]

_T = TypeVar("_T")
# Below this many rows a second thread costs more than it saves (the engine's own
# threshold for splitting one pass over two threads).
THREAD_MIN_ROWS = 50_000
_MULTI_CLASS = ("ovr", "ovo")
_AVERAGES = {"ovr": ("micro", "macro", "weighted", None), "ovo": ("macro", "weighted")}


def check_choice(value: Any, name: str, options: Sequence[Any], why: str = "") -> Any:
    """``value`` if it is one of ``options`` (compared by equality, strings only)."""
    if not (value is None or isinstance(value, str)) or value not in options:
        raise ValueError(f"{name} must be one of {list(options)}{why}, got {value!r}.")
    return value


def on_two_threads(jobs: Sequence[Callable[[], _T]], n_rows: int) -> list[_T]:
    """Results of independent jobs in order, two at a time when the rows are many enough
    to repay a thread (the sorts and prefix sums release the GIL)."""
    if len(jobs) < 2 or n_rows < THREAD_MIN_ROWS:
        return [job() for job in jobs]
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="indist_fast_classes") as pool:
        return list(pool.map(lambda job: job(), jobs))


def binary_auc(positive: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> float:
    """AUC of scores ``s`` (contiguous float64) with ``positive`` (uint8 0/1) marking the
    positive rows; NaN when a class has no weight."""
    if w is None:
        n_pos = int(np.count_nonzero(positive))
        wp, wn = float(n_pos), float(len(positive) - n_pos)
    else:
        wp = float(np.dot(positive, w))
        wn = float(w.sum()) - wp
    if not (wp > 0 and wn > 0):
        return float("nan")
    result = engine().summarize(positive, s, w, 1.0, 0.0, with_main_level((0.5,)), True)
    return float(result.auc)


def warn_undefined(classes: np.ndarray, undefined: np.ndarray, what: str) -> None:
    if undefined.any():
        shown = classes[undefined][:5].tolist()
        warn(f"{what} AUC is undefined (NaN) for the class(es) {shown}: y_true holds no "
             f"row of positive weight of {'them' if len(shown) > 1 else 'it'}, or none "
             "of any other class.", IndistFastWarning)


def roc_auc(y_true: Any, y_prob: Any = None, *, multi_class: str = "ovr",
            average: str | None = "macro", labels: Any = None, sample_weight: Any = None,
            label: str | None = None, score: Any = None,
            weight: str | None = None) -> float | np.ndarray:
    """Area under the ROC curve of a multiclass classifier, as scikit-learn's
    ``roc_auc_score(..., multi_class=...)`` defines it, from one sort per class column.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (numbers or strings).
    y_prob : array-like of shape (n_samples, n_classes)
        Scores of each class, columns in the order of ``labels`` (by default the sorted
        distinct labels of ``y_true``); each row must sum to 1 (within
        ``np.allclose``'s tolerance, as scikit-learn checks). With two classes a 1-d
        array holds the scores of the second class (the binary AUC).
    multi_class : {"ovr", "ovo"}, default="ovr"
        ``"ovr"``: each class against all others, in its own column (Provost and
        Domingos 2000; Fawcett 2006). ``"ovo"``: Hand and Till's (2001) M, the mean over
        pairs of classes ``(a, b)`` of ``(A(a|b) + A(b|a)) / 2``, where ``A(a|b)`` is
        the AUC of column ``a`` on the rows of classes ``a`` and ``b``.
    average : {"macro", "weighted", "micro"} or None, default="macro"
        ``"macro"``: the plain mean over classes (ovr) or pairs (ovo). ``"weighted"``:
        ovr weighs each class by its weight in ``y_true`` (a class of no weight counts
        0), ovo each pair by its share of the weight. ``"micro"`` (ovr only): the binary
        AUC of every (row, class) cell, ``y_true`` one-hot against ``y_prob`` flattened.
        None (ovr only): one AUC per class.
    labels : array-like of shape (n_classes,), default=None
        The classes of the columns of ``y_prob``, in that order. scikit-learn requires
        them sorted; here any order works (column ``i`` is ``labels[i]``). Classes
        absent from ``y_true`` are allowed: their ovr AUC is NaN (with a warning), and
        ovo leaves them out, as scikit-learn does.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite weights. With ``multi_class="ovo"`` scikit-learn refuses
        weights; here each pair's AUC and ``"weighted"`` share use them (the weighted
        rows of the two classes).
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table (pandas or polars DataFrame, pyarrow
        Table); ``score`` lists one column per class.

    Returns
    -------
    float or ndarray
        The averaged AUC, or with ``average=None`` the AUC of each class (float64 array
        in column order).

    Examples
    --------
    >>> from indist_fast import multiclass
    >>> y = [0, 1, 2, 2, 1, 0]
    >>> p = [[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4], [.4, .4, .2], [.5, .1, .4]]
    >>> round(multiclass.roc_auc(y, p), 4)
    0.9792
    >>> round(multiclass.roc_auc(y, p, multi_class="ovo"), 4)
    0.9792
    >>> multiclass.roc_auc(y, p, average=None).round(3).tolist()
    [1.0, 1.0, 0.938]
    """
    y_true, y_prob, sample_weight = from_table(y_true, y_prob, sample_weight, label,
                                               score, weight)
    check_choice(multi_class, "multi_class", _MULTI_CLASS)
    check_choice(average, "average", _AVERAGES[multi_class],
                 f" with multi_class={multi_class!r}")
    y = label_array(y_true)
    w = weight_array(sample_weight, len(y))
    coded = code_labels(y, labels)
    if np.ndim(y_prob) == 1:
        return _binary(coded.codes, coded.classes, y_prob, w)
    p = score_columns(y_prob, len(y), coded.n_classes)
    if multi_class == "ovo":
        return _ovo(coded.codes, coded.classes, p, w, str(average))
    return _ovr(coded.codes, coded.classes, p, w, average)


def _binary(codes: np.ndarray, classes: np.ndarray, y_prob: Any,
            w: np.ndarray | None) -> float:
    """scikit-learn's binary case: scores of the second class in a 1-d array."""
    if len(classes) > 2:
        raise ValueError(f"y_prob should be a 2d array of shape (n_samples, n_classes) "
                         f"when there are {len(classes)} classes, got a 1d array.")
    s = score_vector(y_prob, len(codes), "y_prob")
    positive = (codes == 1).view(np.uint8)
    auc = binary_auc(positive, s, w)
    if np.isnan(auc):
        warn_undefined(classes[-1:], np.array([True]), "The binary")
    return auc


def class_aucs(codes: np.ndarray, columns: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """One-vs-rest AUC of each class in its own column (``columns[c]``; NaN for a class
    of no weight or with no other class)."""
    def one(c: int) -> Callable[[], float]:
        return lambda: binary_auc((codes == c).view(np.uint8), columns[c], w)
    return np.array(on_two_threads([one(c) for c in range(len(columns))], len(codes)),
                    dtype=np.float64)


def class_weights(codes: np.ndarray, w: np.ndarray | None, n_classes: int) -> np.ndarray:
    return np.bincount(codes, weights=w, minlength=n_classes).astype(np.float64)


def _ovr(codes: np.ndarray, classes: np.ndarray, p: np.ndarray, w: np.ndarray | None,
         average: str | None) -> float | np.ndarray:
    n_classes = len(classes)
    if average == "micro":
        # every (row, class) cell a row of one binary problem, the row's weight on each
        positive = (codes == np.arange(n_classes)[:, None]).view(np.uint8).reshape(-1)
        auc = binary_auc(positive, p.reshape(-1), None if w is None else np.tile(w, n_classes))
        if np.isnan(auc):
            warn_undefined(np.array(["micro"]), np.array([True]), "The micro-averaged")
        return auc
    aucs = class_aucs(codes, p, w)
    warn_undefined(classes, np.isnan(aucs), "One-vs-rest")
    if average is None:
        return aucs
    if average == "macro":
        return float(np.mean(aucs))
    support = class_weights(codes, w, n_classes)
    if np.isclose(support.sum(), 0.0):
        return 0.0
    aucs[support == 0] = 0.0          # (scikit-learn's rule: a class of no weight counts 0)
    return float(np.average(aucs, weights=support))


def pair_count_matrix(codes: np.ndarray, p: np.ndarray, w: np.ndarray | None,
                      present: np.ndarray) -> np.ndarray:
    """``U[a, b]``: weighted pairs (row of class a, row of class b) ordered correctly by
    column ``p[a]``, ties counted half; one sort of each present class's column."""
    n_classes = len(p)

    def one(c: int) -> Callable[[], np.ndarray]:
        return lambda: pair_counts(codes, p[c], c, n_classes, w)
    rows = on_two_threads([one(c) for c in present], len(codes))
    u = np.full((n_classes, n_classes), np.nan)
    u[present] = rows
    return u


def _ovo(codes: np.ndarray, classes: np.ndarray, p: np.ndarray, w: np.ndarray | None,
         average: str) -> float:
    n_classes = len(classes)
    present = np.flatnonzero(np.bincount(codes, minlength=n_classes))
    if len(present) < 2:
        warn_undefined(classes[present], np.ones(len(present), dtype=bool), "One-vs-one")
        return float("nan")
    u = pair_count_matrix(codes, p, w, present)
    weights = class_weights(codes, w, n_classes)
    a, b = np.triu_indices(len(present), 1)
    a, b = present[a], present[b]
    with np.errstate(invalid="ignore", divide="ignore"):   # (NaN where a class weighs 0)
        pairs = (u[a, b] + u[b, a]) / (2.0 * weights[a] * weights[b])
        share = (weights[a] + weights[b]) / weights.sum()
    undefined = (weights == 0) & (np.bincount(codes, minlength=n_classes) > 0)
    warn_undefined(classes, undefined, "One-vs-one")
    if average == "macro":
        return float(np.mean(pairs))
    return float(np.average(pairs, weights=share))
