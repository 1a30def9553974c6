"""The sufficient statistic: distinct scores with their positive and negative weight."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from .._core.engine import engine
from .._core.curves import curve_columns
from .._core.rates import operating_rates
from .._core.validation import (LabelCoding, Rows, as_1d, check_flag, check_levels,
                          combine_codings, prepare_rows)
from .._core.validation import check_group_sums, check_two_classes
from ..errors import warn_undefined_b
from .precision_recall import PrecisionRecallCurve, precision_recall_of
from .calibration_bins import calibration_of, check_binning
from .separation import check_ks_method, ks_of
from .top_k import check_k, top_k_of
from .gains import check_n_bins, gains_of
from ..results.report import Curves, Report
from ..results.calibration_record import Calibration
from ..results.ks_result import KSResult
from ..results.top_k_result import TopK
from ..results.gains_table import GainsTable

__all__ = ["ScoreTable", "DEFAULT_LEVELS"]

DEFAULT_LEVELS = (0.4, 0.5, 0.6)


@functools.lru_cache(maxsize=64)
def with_main_level(levels: tuple[float, ...]) -> np.ndarray:
    """The levels a sweep computes: the requested ones, then 0.5 if missing. Read-only
    and cached: calls with the same levels (most calls: the defaults) share one array."""
    out = np.array(levels + (() if 0.5 in levels else (0.5,)), dtype=np.float64)
    out.flags.writeable = False
    return out


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
    coding : LabelCoding or None
        The raw labels the rows were coded with (None for a table built from bare
        counts); ``merge`` refuses tables of two different codings.

    The constructor checks its arguments (ValueError/TypeError naming ``scores``,
    ``pos``, ``neg`` or ``n_rows``): scores distinct, strictly descending and not NaN
    (±inf allowed), one finite non-negative ``pos`` and ``neg`` per score, not both
    zero, and an int ``n_rows`` no smaller than the number of scores (nor, for integer
    counts, than the rows they add up to). Integer counts are stored as int64, anything
    else as float64 for both classes; the caller's arrays are copied, never frozen.

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
    coding: LabelCoding | None = None

    def __post_init__(self) -> None:
        # The public constructor takes anything array-like and checks it all: a table
        # that is unsorted, repeats a score or holds NaN gives wrong metrics silently.
        # Tables the library builds itself skip this through ``_trusted``.
        scores = _field(self.scores, "scores", np.float64)
        if np.isnan(scores).any():
            raise ValueError(f"scores contains NaN (first at index "
                             f"{int(np.flatnonzero(np.isnan(scores))[0])}).")
        unsorted = np.flatnonzero(scores[1:] >= scores[:-1])
        if len(unsorted):
            i = int(unsorted[0])
            raise ValueError(f"scores must be distinct and strictly descending; found "
                             f"{scores[i].item()!r} then {scores[i + 1].item()!r} at index {i}.")
        pos, neg = _field(self.pos, "pos"), _field(self.neg, "neg")
        for name, arr in (("pos", pos), ("neg", neg)):
            if len(arr) != len(scores):
                raise ValueError(f"{name} must have one entry per score: {len(arr)} "
                                 f"entries for {len(scores)} scores.")
            bad = np.flatnonzero(~(np.isfinite(arr) & (arr >= 0)))
            if len(bad):
                raise ValueError(f"{name} must be finite and non-negative; found "
                                 f"{arr[bad[0]].item()!r} at index {int(bad[0])}.")
        empty = np.flatnonzero((pos == 0) & (neg == 0))
        if len(empty):
            raise ValueError(f"pos and neg are both 0 at index {int(empty[0])}: a score "
                             "of no weight is no operating point, leave it out.")
        # One count dtype for both classes (int64 only when both are integers), as the
        # kernels take them.
        dtype = np.result_type(pos, neg)
        pos, neg = pos.astype(dtype, copy=False), neg.astype(dtype, copy=False)
        if isinstance(self.n_rows, (bool, np.bool_)) or not isinstance(
                self.n_rows, (int, np.integer)):
            raise TypeError(f"n_rows must be an int, got {self.n_rows!r}.")
        if self.n_rows < 0:
            raise ValueError(f"n_rows must be >= 0, got {self.n_rows}.")
        _check_rows_cover(int(self.n_rows), pos, neg)
        if self.coding is not None and not isinstance(self.coding, LabelCoding):
            raise TypeError(f"coding must be a LabelCoding or None, got "
                            f"{type(self.coding).__name__}.")
        self._set(scores, pos, neg, int(self.n_rows), self.coding)

    def _set(self, scores: np.ndarray, pos: np.ndarray, neg: np.ndarray, n_rows: int,
             coding: LabelCoding | None) -> None:
        for name, value in (("scores", scores), ("pos", pos), ("neg", neg),
                            ("n_rows", n_rows), ("coding", coding)):
            object.__setattr__(self, name, value)
        for arr in (scores, pos, neg):
            arr.setflags(write=False)

    @classmethod
    def _trusted(cls, scores: np.ndarray, pos: np.ndarray, neg: np.ndarray, n_rows: int,
                 coding: LabelCoding | None = None) -> "ScoreTable":
        """A table from arrays the library made and owns (kernel output, merges, slices
        of a table): contiguous float64 scores strictly descending, pos and neg of one
        dtype (int64 or float64), no checks."""
        table = object.__new__(cls)
        table._set(scores, pos, neg, n_rows, coding)
        return table

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuild without re-validating; the arrays become read-only again.
        return (ScoreTable._trusted, (self.scores, self.pos, self.neg, self.n_rows,
                                      self.coding))

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
            Non-negative finite frequency weights: weight 3 acts as three copies of the row.
        pos_label : scalar, default=None
            The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

        Returns
        -------
        ScoreTable
            The distinct scores, descending, with their positive and negative weight.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.1, 0.8, 0.8, 0.3])
        >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist(), t.n_rows
        ([0.8, 0.3, 0.1], [2, 0, 0], [0, 1, 1], 4)
        """
        return cls.from_rows(prepare_rows(y_true, y_score, sample_weight, pos_label))

    @classmethod
    def from_rows(cls, rows: Rows) -> "ScoreTable":
        """The table of rows already validated by ``prepare_rows``.

        Parameters
        ----------
        rows : Rows
            The output of ``indist_fast._core.validation.prepare_rows``.

        Returns
        -------
        ScoreTable
            The table of the rows.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> from indist_fast._core.validation import prepare_rows
        >>> rows = prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> ScoreTable.from_rows(rows).scores.tolist()
        [0.8, 0.6, 0.3, 0.1]
        """
        scores, pos, neg = engine().build_table(
            rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value)
        if rows.w is not None:
            check_group_sums(scores, pos, neg)
        return cls._trusted(scores, pos, neg, rows.n_rows, rows.coding)

    @classmethod
    def empty(cls) -> "ScoreTable":
        """The table of no rows: the identity of ``merge``.

        Returns
        -------
        ScoreTable
            A table of no scores and no rows.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 1], [0.2, 0.7])
        >>> len(ScoreTable.empty()), t.merge(ScoreTable.empty()).scores.tolist()
        (0, [0.7, 0.2])
        """
        return cls._trusted(np.empty(0), np.empty(0, np.int64), np.empty(0, np.int64), 0)

    def merge(self, other: "ScoreTable") -> "ScoreTable":
        """The table of both row sets (exact; counts stay int64 when all four count
        arrays are int64). Raises ValueError when the two were built from different
        label codings (``{0, 1}`` and ``{-1, 1}``, or two negative labels).

        Parameters
        ----------
        other : ScoreTable
            The table of the other rows.

        Returns
        -------
        ScoreTable
            A new table; neither input changes.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> both = t.merge(ScoreTable.from_arrays([1, 0], [0.6, 0.2]))
        >>> both.scores.tolist(), both.pos.tolist(), both.neg.tolist()
        ([0.8, 0.6, 0.3, 0.2, 0.1], [1, 2, 0, 0, 0], [0, 0, 1, 1, 1])
        """
        if not isinstance(other, ScoreTable):
            raise TypeError(f"other must be a ScoreTable, got {type(other).__name__}.")
        coding = combine_codings(self.coding, other.coding)
        # Every count array decides: float weights in any of them make all float.
        dtype = np.result_type(self.pos.dtype, self.neg.dtype, other.pos.dtype,
                               other.neg.dtype)
        a = [self.scores, self.pos.astype(dtype, copy=False), self.neg.astype(dtype, copy=False)]
        b = [other.scores, other.pos.astype(dtype, copy=False), other.neg.astype(dtype, copy=False)]
        scores, pos, neg = engine().merge_tables(*a, *b)
        return ScoreTable._trusted(scores, pos, neg, self.n_rows + other.n_rows, coding)

    @classmethod
    def concat(cls, tables: Iterable["ScoreTable"]) -> "ScoreTable":
        """Merge many tables (pairwise, so the cost stays O(total log k)).

        Parameters
        ----------
        tables : iterable of ScoreTable
            The tables to merge (none gives the empty table).

        Returns
        -------
        ScoreTable
            The table of all their rows.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> a = ScoreTable.from_arrays([0, 1], [0.2, 0.7])
        >>> t = ScoreTable.concat([a, ScoreTable.from_arrays([1], [0.2])])
        >>> t.scores.tolist(), t.pos.tolist(), t.n_rows
        ([0.7, 0.2], [1, 1], 3)
        """
        if isinstance(tables, ScoreTable) or not isinstance(tables, Iterable):
            raise TypeError(f"tables must be an iterable of ScoreTable, got "
                            f"{type(tables).__name__}.")
        pending = list(tables)
        for i, table in enumerate(pending):
            if not isinstance(table, ScoreTable):
                raise TypeError(f"tables must hold ScoreTable objects only; item {i} is "
                                f"{type(table).__name__}.")
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
        """The report of ``indist_fast.evaluate`` for the rows of this table.

        Parameters
        ----------
        levels : sequence of float, default=(0.4, 0.5, 0.6)
            Levels of ``B`` whose operating points are reported in ``Report.at``.
        exclude_self : bool, default=True
            Drop the pairs of a positive copy with itself from ``B``.

        Returns
        -------
        Report
            The same report as ``evaluate`` on the rows.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> r = t.evaluate(levels=(0.5,))
        >>> r.auc, r.n_rows, r.threshold
        (1.0, 4, 0.6)
        """
        return self._report(check_levels(levels), check_flag(exclude_self, "exclude_self"))

    def _report(self, levels: tuple[float, ...], exclude_self: bool) -> Report:
        """``evaluate`` of checked arguments."""
        result = engine().sweep_table(self.scores, self.pos, self.neg,
                                      with_main_level(levels), exclude_self)
        return Report.from_sweep(result, levels, self.n_rows, exclude_self)

    def curves(self, *, exclude_self: bool = True) -> Curves:
        """Every operating point of the table (see ``indist_fast.curves``).

        ``b`` is computed exactly as the sweeps compute it (``1/2 + G / (2 Den)``, see
        ``indist_fast._core.reference._columns``), so ``evaluate`` reaches a level at the
        first point where this column is ``>= level``. Probabilities are clamped to
        [0, 1] once, here; B only absorbs rounding (see ``indist_fast.evaluate``).

        Parameters
        ----------
        exclude_self : bool, default=True
            Drop the pairs of a positive copy with itself from ``B``.

        Returns
        -------
        Curves
            One entry per distinct score, highest threshold first.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> c = t.curves()
        >>> c.tpr.tolist(), c.fpr.tolist()
        ([0.5, 1.0, 1.0, 1.0], [0.0, 0.0, 0.5, 1.0])
        """
        exclude_self = check_flag(exclude_self, "exclude_self")
        with np.errstate(over="ignore"):      # an infinite total is refused just below
            wp, wn = self.weight_pos, self.weight_neg
        check_two_classes(wp, wn)
        cols = curve_columns(self.scores, self.pos, self.neg, exclude_self)
        warn_undefined_b(int(np.count_nonzero(~cols.defined)), wp, exclude_self)
        # TP ends at the in-order total: the rates are over that same total.
        rates = operating_rates(cols.tp, cols.fp, cols.tp[-1], cols.fp[-1])
        return Curves(
            thresholds=self.scores.copy(), tp=cols.tp, fp=cols.fp, tpr=rates.tpr,
            fpr=rates.fpr, precision=rates.precision, f1=rates.f1,
            b=cols.b, b_plus=cols.b_plus, b_minus=cols.b_minus)

    def precision_recall_curve(self) -> PrecisionRecallCurve:
        """The precision-recall curve of the table and its areas (see
        ``indist_fast.precision_recall_curve``): average precision, trapezoid,
        interpolated and AUPRG, for a table built from chunks, files or partitions.

        Returns
        -------
        PrecisionRecallCurve
            One point per distinct score, highest threshold first.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> round(t.precision_recall_curve().auprg, 4)
        0.7917
        """
        return precision_recall_of(self.scores, self.pos, self.neg)

    def ks(self, *, method: str | None = "auto") -> KSResult:
        """The Kolmogorov-Smirnov statistic and test of the table's rows (see
        ``indist_fast.ks``), for a table built from chunks, files or partitions.

        Parameters
        ----------
        method : {"auto", "exact", "asymp"} or None, default="auto"
            How the two-sided p-value is computed, as ``scipy.stats.ks_2samp``'s
            ``method``; None for the statistic alone.

        Returns
        -------
        KSResult
            The statistic, the highest threshold reaching it, the rates there and the
            p-value.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> ks = t.ks()
        >>> round(ks.statistic, 4), ks.threshold, round(ks.pvalue, 4)
        (0.6667, 0.8, 0.6)
        """
        return ks_of(self, check_ks_method(method))

    def top_k(self, k: int | float) -> TopK:
        """Precision, recall and lift among the ``k`` highest-scored rows (see
        ``indist_fast.top_k``).

        Parameters
        ----------
        k : int or float
            Rows (an int >= 1; with weights, weight) or a share of them (a float in
            (0, 1]).

        Returns
        -------
        TopK
            The rows taken, the threshold at the cut and the rates.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> t.top_k(2).precision, t.top_k(0.5).recall
        (1.0, 0.6666666666666666)
        """
        return top_k_of(self, check_k(k))

    def gains(self, n_bins: int = 10) -> GainsTable:
        """The gains table of the rows: bins by score, highest first (see
        ``indist_fast.gains``).

        Parameters
        ----------
        n_bins : int, default=10
            Bins asked for (deciles by default); ties can leave fewer.

        Returns
        -------
        GainsTable
            One row per bin.

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> t.gains(n_bins=2)["cumulative_capture"].tolist()
        [0.6666666666666666, 1.0]
        """
        return gains_of(self, check_n_bins(n_bins))

    def calibration(self, n_bins: int = 10, strategy: str = "uniform") -> "Calibration":
        """The calibration of the table's scores read as probabilities (see
        ``indist_fast.calibration``): reliability bins, ECE, Brier score and its
        decomposition, log loss, slope and intercept, Hosmer-Lemeshow.

        The table keeps its scores as float64, so the clipping of log loss (and the
        interpolation of quantile edges) follows float64 even for rows that were
        float32; ``indist_fast.calibration`` on the rows follows their dtype.

        Parameters
        ----------
        n_bins : int, default=10
            Number of bins (at least 1).
        strategy : {"uniform", "quantile"}, default="uniform"
            Equal-width bins over [0, 1], or bins of equal weight.

        Returns
        -------
        Calibration

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> t = ScoreTable.from_arrays([0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.7])
        >>> t.calibration(n_bins=3).prob_true.round(4).tolist()
        [0.3333, 1.0, 0.5]
        """
        n_bins, strategy = check_binning(n_bins, strategy)
        return calibration_of(self.scores, self.pos, self.neg, self.n_rows, n_bins, strategy)


def _check_rows_cover(n_rows: int, pos: np.ndarray, neg: np.ndarray) -> None:
    """Refuse an ``n_rows`` too small for the table: every score holds at least one row,
    and integer counts are rows (weights need not be, so only the first bound holds)."""
    if n_rows < len(pos):
        raise ValueError(f"n_rows must be at least the number of scores ({len(pos):,}): "
                         f"each score holds at least one row; got {n_rows:,}.")
    if pos.dtype.kind == "i":
        # int64 sums are exact while the total stays well inside int64; past that the
        # counts are summed as Python ints (never in practice).
        if float(pos.sum(dtype=np.float64)) + float(neg.sum(dtype=np.float64)) < 2.0**62:
            total = int(pos.sum()) + int(neg.sum())
        else:
            total = sum(map(int, pos)) + sum(map(int, neg))
        if n_rows < total:
            raise ValueError(f"n_rows must be at least the number of rows the counts "
                             f"describe (pos and neg sum to {total:,}); got {n_rows:,}.")


def _field(value: Any, name: str, dtype: Any = None) -> np.ndarray:
    """One array field of a table as a read-only-safe, contiguous 1d array: float64
    (scores, real weights) or int64 (integer counts); the caller's array is copied
    unless it is already read-only in that form."""
    arr = as_1d(value, name)
    kind = arr.dtype.kind
    if dtype is None:
        dtype = np.int64 if kind in "iub" else np.float64
        if kind == "u" and len(arr) and arr.max() > np.iinfo(np.int64).max:
            raise ValueError(f"{name} holds a count beyond the int64 range.")
    if kind not in "iubfO":
        raise TypeError(f"{name} must hold real numbers, got an array of dtype {arr.dtype}.")
    if kind == "O":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must hold real numbers, got an array of dtype "
                            f"{arr.dtype}.") from None
    if arr.dtype == dtype and arr.flags.c_contiguous and not arr.flags.writeable \
            and arr.dtype.isnative:
        return arr
    return np.array(arr, dtype=dtype)       # a copy: the caller's array stays writable
