"""The shared input of the multiclass functions, checked once: labels coded as class
indices, the score matrix, the weights."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.engine import engine
from .._core.validation import as_1d, first_missing, weight_column
from ..io.frames import table_columns

# Integer labels spanning at most this many values (or a few per row) are coded by a
# counting pass instead of np.unique's sort.
_DENSE_SPAN = 1 << 20


class Coded(NamedTuple):
    """Labels as class indices: ``codes[i]`` is the index in ``classes`` of row ``i``'s
    label (int64), ``classes`` the labels in column order."""

    codes: np.ndarray
    classes: np.ndarray

    @property
    def n_classes(self) -> int:
        return len(self.classes)


def from_table(y_true: Any, y_prob: Any, sample_weight: Any, label: str | None,
               score: Any, weight: str | None) -> tuple[Any, Any, Any]:
    """Arrays from the named columns of a table passed as ``y_true`` (``score``: one
    column per class, in the order of the classes), or the arrays as given."""
    if label is None and score is None and weight is None:
        if y_prob is None:
            raise TypeError("y_prob is missing: pass the scores, or a table with label= "
                            "and score= column names.")
        return y_true, y_prob, sample_weight
    if label is None or score is None:
        raise TypeError("pass both label= and score= column names with a table.")
    names = [score] if isinstance(score, str) else list(score)
    roles = [("label", label)] + [("score", s) for s in names] + [("weight", weight)]
    columns = table_columns(y_true, roles)
    scores = columns[1:-1]
    prob = scores[0] if isinstance(score, str) else np.column_stack(scores)
    return columns[0], prob, columns[-1]


def label_array(y_true: Any) -> np.ndarray:
    """``y_true`` as a 1-d array of labels, at least one, none missing."""
    y = as_1d(y_true, "y_true")
    if len(y) == 0:
        raise ValueError("y_true is empty: need at least one row.")
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError(f"y_true contains NaN (first at row "
                         f"{int(np.flatnonzero(np.isnan(y))[0])}).")
    if y.dtype.kind == "O":
        row = first_missing(y)
        if row >= 0:
            raise ValueError(f"y_true contains a missing label (None or NaN) at row {row}.")
    if y.dtype.kind not in "biufUSO":
        raise TypeError(f"y_true must hold class labels (numbers or strings), got an "
                        f"array of dtype {y.dtype}.")
    return y


def _unique_codes(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct labels and each row's index among them."""
    if y.dtype.kind in "biu" and len(y):
        lo, hi = int(y.min()), int(y.max())
        if hi - lo <= max(_DENSE_SPAN, 4 * len(y)):
            shifted = y.astype(np.int64) if lo == 0 else y.astype(np.int64) - lo
            present = np.bincount(shifted, minlength=hi - lo + 1) > 0
            classes = (np.flatnonzero(present) + lo).astype(y.dtype)
            if present.all():             # labels lo .. hi: the codes are the shift
                return classes, shifted
            return classes, (np.cumsum(present) - 1)[shifted]
    try:
        classes, codes = np.unique(y, return_inverse=True)
    except TypeError:
        raise TypeError("y_true holds labels of types that do not compare (e.g. numbers "
                        "and strings mixed).") from None
    return classes, codes.astype(np.int64, copy=False).reshape(-1)


def code_labels(y: np.ndarray, labels: Any) -> Coded:
    """Class indices of the labels: ``labels`` (unique, in the order given: the columns'
    order) or, when None, the sorted distinct labels of ``y``."""
    present, codes = _unique_codes(y)
    if labels is None:
        return Coded(codes, present)
    given = as_1d(labels, "labels")
    if len(given) == 0:
        raise ValueError("labels is empty: give one label per column of y_prob.")
    try:
        order = np.argsort(given, kind="stable")
    except TypeError:
        raise TypeError("labels holds values of types that do not compare.") from None
    ordered = given[order]
    dup = np.flatnonzero(ordered[1:] == ordered[:-1])
    if len(dup):
        raise ValueError(f"labels must be unique; {ordered[dup[0]]!r} appears more than once.")
    try:
        at = np.searchsorted(ordered, present)
    except TypeError:
        raise TypeError("y_true and labels hold labels of types that do not compare.") from None
    at_clipped = np.minimum(at, len(ordered) - 1)
    missing = ordered[at_clipped] != present
    if np.any(missing):
        raise ValueError(f"y_true contains labels not in labels: "
                         f"{present[np.asarray(missing)][:5].tolist()}.")
    return Coded(order[at_clipped][codes], given)


def score_columns(y_prob: Any, n_rows: int, n_classes: int, *, name: str = "y_prob",
                  sums_to_one: bool = True) -> np.ndarray:
    """The scores as a new float64 array of shape (n_classes, n_rows): one contiguous
    row per class (every class's column is read many times, each a sort's input). NaN
    and infinity refused; with ``sums_to_one`` each row of ``y_prob`` must sum to 1 as
    scikit-learn checks it (``np.allclose(1, y_prob.sum(axis=1))``)."""
    p = np.asarray(y_prob)
    if p.ndim != 2:
        raise ValueError(f"{name} should be a 2d array of shape (n_samples, n_classes), "
                         f"got an array of shape {p.shape} instead.")
    if p.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got an array of dtype {p.dtype}.")
    if p.shape[0] != n_rows:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"[{n_rows}, {p.shape[0]}] (y_true, {name}).")
    if p.shape[1] != n_classes:
        raise ValueError(f"{name} has {p.shape[1]} columns but there are {n_classes} "
                         f"classes: one column per label (pass labels= when y_true does "
                         f"not hold every class).")
    if p.flags.f_contiguous or n_classes == 1:
        columns = np.array(p.T, dtype=np.float64, order="C")
        sums = np.sum(columns, axis=0)
    else:
        columns, sums = engine().transpose_sums(np.ascontiguousarray(p, dtype=np.float64))
    bad = ~np.isfinite(sums)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        what = "NaN" if np.isnan(columns[:, row]).any() else "an infinite value"
        raise ValueError(f"{name} contains {what} at row {row}.")
    # np.allclose(1, sums) without its temporaries: |1 - s| <= 1e-8 + 1e-5 |s|
    off = np.abs(sums - 1.0) > 1e-8 + 1e-5 * np.abs(sums)
    if sums_to_one and off.any():
        row = int(np.flatnonzero(off)[0])
        raise ValueError(f"{name} must hold probabilities that sum to 1 over the classes "
                         f"in each row; row {row} sums to {float(sums[row])!r}. Pass the "
                         "model's predict_proba(X) (or a softmax of its decision_function); "
                         "multiclass.evaluate also reads scores that do not sum to 1.")
    return columns


def score_vector(y_score: Any, n_rows: int, name: str) -> np.ndarray:
    """One score per row (the second class's, in the binary case) as contiguous
    float64, NaN refused."""
    s = np.asarray(y_score)
    if s.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got an array of dtype {s.dtype}.")
    if len(s) != n_rows:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"[{n_rows}, {len(s)}] (y_true, {name}).")
    s = np.ascontiguousarray(s, dtype=np.float64)
    if np.isnan(s).any():
        raise ValueError(f"{name} contains NaN at row {int(np.flatnonzero(np.isnan(s))[0])}.")
    return s


def weight_array(sample_weight: Any, n_rows: int) -> np.ndarray | None:
    """Finite non-negative float64 weights, one per row, or None."""
    w = weight_column(sample_weight)
    if w is None:
        return None
    if len(w) != n_rows:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"[{n_rows}, {len(w)}] (y_true, sample_weight).")
    bad = ~(np.isfinite(w) & (w >= 0))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"sample_weight must be finite and non-negative; found "
                         f"{w[row]!r} at row {row}.")
    return w
