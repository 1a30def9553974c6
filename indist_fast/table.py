"""The sufficient statistic: distinct scores with their positive and negative weight."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from . import _backend
from ._reference import curve_columns
from ._result import clamp_probability
from ._validation import Rows, check_levels, prepare_rows
from .report import Curves, Report, check_two_classes, warn_undefined_b

__all__ = ["ScoreTable", "DEFAULT_LEVELS"]

DEFAULT_LEVELS = (0.4, 0.5, 0.6)


def with_main_level(levels: tuple[float, ...]) -> np.ndarray:
    """The levels a sweep computes: the requested ones, then 0.5 if missing."""
    return np.array(levels + (() if 0.5 in levels else (0.5,)), dtype=np.float64)


@dataclass(frozen=True, eq=False, repr=False)
class ScoreTable:
    """Distinct scores in descending order with the positive and negative weight at each.

    Every metric of the library is a function of this table, and tables of disjoint
    row sets merge exactly, so chunks, files and partitions can be summarised apart.

    Attributes
    ----------
    scores : ndarray of float64, shape (m,)
        Distinct scores, strictly descending. Rows of weight 0 are absent.
    pos, neg : ndarray of shape (m,)
        Positive / negative weight at each score: int64 counts when built without
        weights (exact past 2**31 rows), float64 otherwise.
    n_rows : int
        Rows the table was built from, zero-weight rows included.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.1, 0.8, 0.8, 0.3])
    >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
    ([0.8, 0.3, 0.1], [2, 0, 0], [0, 1, 1])
    >>> round(t.evaluate().auc, 3)
    1.0
    """

    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    n_rows: int

    def __post_init__(self) -> None:
        m = len(self.scores)
        if not (self.scores.ndim == self.pos.ndim == self.neg.ndim == 1
                and len(self.pos) == len(self.neg) == m):
            raise ValueError("scores, pos and neg must be 1d arrays of one length; got "
                             f"shapes {self.scores.shape}, {self.pos.shape}, {self.neg.shape}.")
        for arr in (self.scores, self.pos, self.neg):
            arr.setflags(write=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuild through __init__ so unpickled arrays are read-only again.
        return (type(self), (self.scores, self.pos, self.neg, self.n_rows))

    @classmethod
    def from_arrays(cls, y_true: Any, y_score: Any, sample_weight: Any = None,
                    pos_label: Any = None) -> "ScoreTable":
        """Build the table of a set of rows with one sort.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
        y_score : array-like of shape (n_samples,)
            Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative finite frequency weights.
        pos_label : scalar, default=None
            The label of the positive class; required for non-numeric labels.

        Returns
        -------
        ScoreTable
        """
        return cls.from_rows(prepare_rows(y_true, y_score, sample_weight, pos_label))

    @classmethod
    def from_rows(cls, rows: Rows) -> "ScoreTable":
        """The table of rows already validated by ``prepare_rows``."""
        scores, pos, neg = _backend.engine().build_table(
            rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value)
        return cls(scores, pos, neg, rows.n_rows)

    @classmethod
    def empty(cls) -> "ScoreTable":
        """The table of no rows: the identity of ``merge``."""
        return cls(np.empty(0), np.empty(0, np.int64), np.empty(0, np.int64), 0)

    def merge(self, other: "ScoreTable") -> "ScoreTable":
        """The table of both row sets (exact; counts stay int64 when both are)."""
        if not isinstance(other, ScoreTable):
            raise TypeError(f"other must be a ScoreTable, got {type(other).__name__}.")
        dtype = np.result_type(self.pos.dtype, other.pos.dtype)
        a = [self.scores, self.pos.astype(dtype, copy=False), self.neg.astype(dtype, copy=False)]
        b = [other.scores, other.pos.astype(dtype, copy=False), other.neg.astype(dtype, copy=False)]
        scores, pos, neg = _backend.engine().merge_tables(*a, *b)
        return ScoreTable(scores, pos, neg, self.n_rows + other.n_rows)

    @classmethod
    def concat(cls, tables: Iterable["ScoreTable"]) -> "ScoreTable":
        """Merge many tables (pairwise, so the cost stays O(total log k))."""
        pending = list(tables)
        if not pending:
            return cls.empty()
        while len(pending) > 1:
            pending = [pending[i].merge(pending[i + 1]) if i + 1 < len(pending)
                       else pending[i] for i in range(0, len(pending), 2)]
        return pending[0]

    @property
    def weight_pos(self) -> float:
        """Total positive weight."""
        return float(self.pos.sum())

    @property
    def weight_neg(self) -> float:
        """Total negative weight."""
        return float(self.neg.sum())

    def __len__(self) -> int:
        return len(self.scores)

    def __repr__(self) -> str:
        return (f"ScoreTable({len(self)} distinct scores, {self.n_rows} rows, positive "
                f"weight {self.weight_pos:g}, negative weight {self.weight_neg:g})")

    def evaluate(self, levels: Iterable[float] = DEFAULT_LEVELS, *,
                 exclude_self: bool = True) -> Report:
        """The report of ``indist_fast.evaluate`` for the rows of this table."""
        lv = check_levels(levels)
        result = _backend.engine().sweep_table(self.scores, self.pos, self.neg,
                                               with_main_level(lv), exclude_self)
        return Report.from_sweep(result, lv, self.n_rows, exclude_self)

    def curves(self, *, exclude_self: bool = True) -> Curves:
        """Every operating point of the table (see ``indist_fast.curves``).

        ``b`` is computed exactly as the sweeps compute it (``1/2 + G / (2 Den)``, see
        ``indist_fast._reference._columns``), so ``evaluate`` reaches a level at the
        first point where this column is ``>= level``. Probabilities are clamped to
        [0, 1] once, here.
        """
        with np.errstate(over="ignore"):      # an infinite total is refused just below
            wp, wn = self.weight_pos, self.weight_neg
        check_two_classes(wp, wn)
        cols = curve_columns(self.scores, self.pos, self.neg, exclude_self)
        warn_undefined_b(int(np.count_nonzero(~cols.defined)), wp, exclude_self)
        # TP ends at the in-order total: the rates are over that same total.
        wp, wn = float(cols.tp[-1]), float(cols.fp[-1])
        return Curves(
            thresholds=self.scores.copy(), tp=cols.tp, fp=cols.fp,
            tpr=clamp_probability(cols.tp / wp), fpr=clamp_probability(cols.fp / wn),
            precision=clamp_probability(cols.tp / (cols.tp + cols.fp)),
            f1=clamp_probability(2.0 * cols.tp / (cols.tp + cols.fp + wp)),
            b=cols.b, b_plus=cols.b_plus, b_minus=cols.b_minus)
