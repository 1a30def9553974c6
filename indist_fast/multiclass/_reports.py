"""One one-vs-rest report per class (or per label of a multi-label indicator matrix),
as one ``ReportTable`` with a ``class`` column."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from .._core.engine import engine
from .._core.records import SegmentSweeps, SweepResult
from .._core.validation import as_1d, check_flag, check_levels
from ..errors import warn_one_class
from ..results.report_table import ReportTable
from ..table.score_table import DEFAULT_LEVELS, with_main_level
from ._inputs import code_labels, from_table, label_array, score_columns, weight_array
from ._roc_auc import on_two_threads

__all__ = ["evaluate", "MACRO_FIELDS"]

#: The fields the ``macro`` row of a multi-label table averages over the labels (with
#: the operating point fields of every other level, ``<field>_at_<level>``); its other
#: numbers are NaN, its ``n_thresholds`` 0.
MACRO_FIELDS = ("weight_pos", "weight_neg", "base_rate", "auc", "average_precision", "b",
                "precision", "lift", "tpr", "fpr", "f1")
_MODEL = "score"          # as evaluate_many names one array of scores


def evaluate(y_true: Any, y_prob: Any = None, *, labels: Any = None,
             sample_weight: Any = None, levels: Iterable[float] = DEFAULT_LEVELS,
             exclude_self: bool = True, label: str | None = None, score: Any = None,
             weight: str | None = None) -> ReportTable:
    """One-vs-rest ``indist_fast.evaluate`` of every class: AUC, average precision,
    ``r_b`` and ``C(r_b)``, ... of each class's column against its rows.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True class labels (numbers or strings), or a multi-label indicator matrix of
        0/1 (or bool): one column per label, a row may hold several.
    y_prob : array-like of shape (n_samples, n_classes)
        Scores of each class (or label), columns in the order of ``labels``; rows need
        not sum to 1 (any scores, higher meaning more likely that class); NaN refused.
    labels : array-like of shape (n_classes,), default=None
        Names of the columns, in order: by default the sorted distinct labels of
        ``y_true`` (multi-label: ``0 .. n_labels - 1``). Classes absent from ``y_true``
        get a row of NaN metrics with ``one_class=True``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points each row holds (see
        ``indist_fast.evaluate``).
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table; ``score`` lists one column per class.

    Returns
    -------
    ReportTable
        One row per class, ``by=("class",)``, in column order: the ``Report`` of the
        binary problem "this class against the rest" on this class's column
        (``table.report(**{"class": c})``). A multi-label matrix adds two rows:
        ``"micro"``, the report of every (row, label) cell as one binary problem
        (scikit-learn's micro average), and ``"macro"``, the plain mean over the labels
        of the fields in ``MACRO_FIELDS`` (NaN when a label's is; its other numbers
        are NaN and it has no ``report()``).

    Examples
    --------
    >>> from indist_fast import multiclass
    >>> y = ["cat", "dog", "eel", "eel", "dog", "cat"]
    >>> p = [[.6, .3, .1], [.2, .5, .3], [.1, .2, .7], [.3, .3, .4], [.4, .4, .2], [.5, .1, .4]]
    >>> t = multiclass.evaluate(y, p)
    >>> t.columns["class"].tolist(), t.columns["auc"].round(3).tolist()
    (['cat', 'dog', 'eel'], [1.0, 1.0, 0.938])
    >>> t.report(**{"class": "cat"}).auc
    1.0
    """
    y_true, y_prob, sample_weight = from_table(y_true, y_prob, sample_weight, label,
                                               score, weight)
    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
    indicator = np.ndim(y_true) == 2
    y = _indicator(y_true) if indicator else label_array(y_true)
    if len(y) == 0:
        raise ValueError("y_true is empty: need at least one row.")
    w = weight_array(sample_weight, len(y))
    if indicator:
        classes = (np.arange(y.shape[1]) if labels is None
                   else _label_names(labels, y.shape[1]))
        positives = np.ascontiguousarray(y.T)
    else:
        coded = code_labels(y, labels)
        classes = coded.classes
        positives = coded.codes == np.arange(len(classes))[:, None]
    columns = score_columns(y_prob, len(y), len(classes), sums_to_one=False)
    all_levels = with_main_level(lv)

    def sweep(positive: np.ndarray, s: np.ndarray, weights: np.ndarray | None
              ) -> SweepResult:
        return engine().summarize(positive.view(np.uint8), s, weights, 1.0, 0.0,
                                  all_levels, exclude_self)

    def job(c: int) -> Any:
        return lambda: sweep(positives[c], columns[c], w)
    sweeps = on_two_threads([job(c) for c in range(len(classes))], len(y))
    names = list(classes.tolist())
    if indicator:
        sweeps.append(sweep(positives.reshape(-1), columns.reshape(-1),
                            None if w is None else np.tile(w, len(classes))))
        names.append("micro")
    n_rows = [len(y)] * len(names)
    n_rows[-1] = len(y) * len(classes) if indicator else n_rows[-1]
    values = np.empty(len(names), dtype=object)
    values[:] = names
    table = ReportTable._from_sweeps(
        ("class",), {"class": values if indicator else np.asarray(classes)}, [_MODEL],
        [_joined(sweeps, n_rows)], lv, exclude_self)
    warn_one_class(int(np.count_nonzero(table.columns["one_class"])), len(table))
    return _with_macro(table, len(classes)) if indicator else table


def _indicator(y_true: Any) -> np.ndarray:
    """A multi-label indicator matrix as bool, refusing anything but 0/1 values."""
    y = np.asarray(y_true)
    if y.dtype.kind not in "biuf":
        raise TypeError(f"y_true of 2 dimensions must be a 0/1 indicator matrix, got an "
                        f"array of dtype {y.dtype}.")
    bad = ~((y == 0) | (y == 1))
    if bad.any():
        row, col = (int(i[0]) for i in np.nonzero(bad))
        raise ValueError(f"y_true of 2 dimensions must be a 0/1 indicator matrix (one "
                         f"column per label); found {y[row, col]!r} at row {row}, "
                         f"column {col}.")
    out: np.ndarray = y.astype(bool)
    return out


def _label_names(labels: Any, n_labels: int) -> np.ndarray:
    names = as_1d(labels, "labels")
    if len(names) != n_labels:
        raise ValueError(f"labels must name the {n_labels} columns of y_true, got "
                         f"{len(names)} names.")
    if len(set(names.tolist())) != len(names):
        raise ValueError("labels must be unique.")
    return names


def _joined(sweeps: list[SweepResult], n_rows: list[int]) -> SegmentSweeps:
    """The sweeps as the segments of one ``SegmentSweeps``."""
    parts = [SegmentSweeps.from_sweep(s, n) for s, n in zip(sweeps, n_rows)]
    return SegmentSweeps(*(np.concatenate(field) for field in zip(*parts)))


def _with_macro(table: ReportTable, n_labels: int) -> ReportTable:
    """``table`` with a ``macro`` row: the mean over the first ``n_labels`` rows of the
    ``MACRO_FIELDS`` columns (at every level)."""
    averaged = {f"{name}_at_{level:g}" for name in MACRO_FIELDS for level in table.levels}
    averaged |= set(MACRO_FIELDS)
    columns = {}
    for name, col in table.columns.items():
        if name == "class":
            extra = np.array(["macro"], dtype=object)
        elif name in averaged:
            extra = np.array([np.mean(col[:n_labels].astype(np.float64))])
        elif name == "model":
            extra = np.array([_MODEL], dtype=object)
        elif name == "n_rows":
            extra = np.array([col[0]])
        elif col.dtype.kind == "b":
            extra = np.array([name.startswith("reached") and bool(col[:n_labels].all())])
        elif col.dtype.kind == "f":
            extra = np.array([np.nan])
        else:
            extra = np.zeros(1, dtype=col.dtype)
        columns[name] = np.concatenate((col, extra.astype(col.dtype)))
    return ReportTable(table.by, columns, table.levels, table.exclude_self)._with_sources(
        table._sources)
