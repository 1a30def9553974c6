"""Result types: the evaluation report, one operating point, and the curves."""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, fields
from typing import Any, Iterable, Iterator, Mapping, TypeVar

import numpy as np

from .._core.records import SweepResult, frozen_from
from .._core.rates import point_rates
from .._core.validation import check_two_classes
from ..errors import LevelNotReachedWarning, warn, warn_undefined_b
from .values import date_text

__all__ = ["OperatingPoint", "Report", "Curves"]


def plain_value(value: Any) -> Any:
    """A JSON-ready copy: NumPy scalars to Python, NaN to None, dates and timestamps
    to ISO 8601 text (``date_text``), bytes to text (undecodable bytes escaped)."""
    if isinstance(value, (datetime.date, np.datetime64)):
        return date_text(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    if isinstance(value, (np.floating, float)):
        value = float(value)
        return None if math.isnan(value) else value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def record_dict(record: Any, *, skip: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    """A result record (a dataclass) as plain JSON types: the one ``to_dict``.

    Every field in order, through ``plain_value`` (tuples and arrays as lists of plain
    values), except those in ``skip`` or ``extra``; then ``extra``'s entries, already
    plain (nested records, mappings keyed for JSON), in the order given.
    """
    out = {}
    for f in fields(record):
        if f.name in skip or f.name in extra:
            continue
        value = getattr(record, f.name)
        out[f.name] = ([plain_value(v) for v in value] if isinstance(value, (tuple, np.ndarray))
                       else plain_value(value))
    out.update(extra)
    return out


_Row = TypeVar("_Row")


def count_text(weight: Any, digits: int = 6) -> str:
    """A count or class weight for people, never in e-notation from 0.001 up: whole
    numbers in full with separators (``4,749,950``, not ``4.74995e+06``), fractional
    weights to ``digits`` significant digits (``1,940,290.4`` -> ``1,940,290`` at six).
    Weights below 0.001 keep e-notation, where fixed digits would be mostly zeros."""
    x = float(weight)
    if x.is_integer() and abs(x) < 2**53:
        return f"{int(x):,}"
    if not math.isfinite(x) or abs(x) < 1e-3:
        return f"{x:.{digits}g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    text = f"{x:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text      # as %g trims


def row_where(rows: Iterable[_Row], field: str, key: Any) -> _Row:
    """The row of a result table whose ``field`` is ``key``: the one lookup behind its
    ``table[key]``; KeyError naming the key when no row has it."""
    for row in rows:
        if getattr(row, field) == key:
            return row
    raise KeyError(key)


@dataclass(frozen=True)
class OperatingPoint:
    """The operating point where ``B`` first reaches ``level`` (definitions page, "r_b").

    Attributes
    ----------
    level : float
        The level of ``B`` asked for (0.5 is the indistinguishability threshold).
    reached : bool
        False when no operating point has ``B >= level``; every other field is NaN then.
    threshold : float
        The highest distinct score ``t_j`` with ``B_j >= level``; predict positive
        where ``score >= threshold``. ``B_j`` is compared as the very value reported
        in ``b`` and in ``Curves.b``: ``1/2 + G_j / (2 Den_j)`` with ``G_j = 2 Num_j -
        Den_j`` summed so that it is exactly 0 where B is 1/2 by structure (see
        ``indist_fast.evaluate``).
    b : float
        ``B`` at that operating point.
    precision, lift, tpr, fpr, f1 : float
        Precision ``C`` there, ``C / base_rate``, true and false positive rates, F1.
    tp, fp : float
        Positive and negative weight at or above the threshold.

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.evaluate([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> point = r.at[0.5]
    >>> point.reached, point.threshold, point.precision
    (True, 0.35, 0.75)
    """

    level: float
    reached: bool
    threshold: float
    b: float
    precision: float
    lift: float
    tpr: float
    fpr: float
    f1: float
    tp: float
    fp: float

    @classmethod
    def from_crossing(cls, level: float, row: np.ndarray, weight_pos: float,
                      weight_neg: float) -> "OperatingPoint":
        """Build from one row of a sweep's ``crossings``.

        Parameters
        ----------
        level : float
            The level of ``B`` the row is for.
        row : ndarray of shape (5,)
            ``(index, threshold, tp, fp, b)``; a NaN index means not reached.
        weight_pos, weight_neg : float
            Total positive and negative weight.

        Returns
        -------
        OperatingPoint
            With precision, lift, rates and F1 derived from ``tp`` and ``fp``.

        Examples
        --------
        >>> import numpy as np
        >>> from indist_fast.results.report import OperatingPoint
        >>> row = np.array([3.0, 0.35, 3.0, 1.0, 0.55])
        >>> p = OperatingPoint.from_crossing(0.5, row, 3.0, 3.0)
        >>> p.reached, p.precision, p.lift, p.tpr
        (True, 0.75, 1.5, 1.0)
        """
        return cls._from_values(level, row.tolist(), weight_pos, weight_neg)

    @classmethod
    def _from_values(cls, level: float, row: list[float], weight_pos: float,
                     weight_neg: float) -> "OperatingPoint":
        """``from_crossing`` of a row already made Python floats (a report converts
        all its rows in one call)."""
        # Crossing's fields, unpacked in their order: a report on a service call builds
        # several points, and a NamedTuple each would cost a microsecond apiece
        index, threshold, tp, fp, b = row
        if index != index:              # NaN: no operating point reaches the level
            nan = math.nan
            return cls(level, False, nan, nan, nan, nan, nan, nan, nan, nan, nan)
        precision, lift, tpr, fpr, f1 = point_rates(tp, fp, weight_pos, weight_neg)
        return frozen_from(cls, {"level": level, "reached": True, "threshold": threshold,
                                 "b": b, "precision": precision, "lift": lift, "tpr": tpr,
                                 "fpr": fpr, "f1": f1, "tp": tp, "fp": fp})

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (NaN becomes None).

        Returns
        -------
        dict
            Field name to value, NumPy scalars as Python numbers.

        Examples
        --------
        >>> import indist_fast
        >>> r = indist_fast.evaluate([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> d = r.at[0.5].to_dict()
        >>> d["threshold"], d["reached"]
        (0.35, True)
        """
        return record_dict(self)


_K = TypeVar("_K")
_V = TypeVar("_V")


class ReadOnlyMapping(Mapping[_K, _V]):
    """A mapping of a result (``Report.at``, ``BootstrapResult.intervals``,
    ``Comparison.metrics``...) that cannot be changed, and that pickles, copies and
    hashes (when its values do) as the frozen records holding it do, where
    ``types.MappingProxyType`` does not."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[_K, _V]) -> None:
        self._items = dict(items)

    @classmethod
    def _of(cls, items: dict[_K, _V]) -> Any:
        """Wrap a dict nobody else holds, without copying it."""
        obj = object.__new__(cls)
        obj._items = items
        return obj

    def __getitem__(self, key: _K) -> _V:
        return self._items[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._items!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._items,))


class OperatingPoints(ReadOnlyMapping[float, "OperatingPoint"]):
    """``Report.at``: the operating point of each requested level, read-only.

    A level that was not requested raises a ``KeyError`` that lists the levels there
    are (pass ``levels=`` to ``evaluate`` for others).
    """

    __slots__ = ()

    def __getitem__(self, level: float) -> "OperatingPoint":
        try:
            return self._items[level]
        except (KeyError, TypeError):
            shown = ", ".join(f"{lv:g}" for lv in sorted(self._items))
            raise KeyError(f"no operating point at level {level!r}; this report has "
                           f"levels {shown} (pass levels= to evaluate for others)") from None


@dataclass(frozen=True)
class Report:
    """Summary of a binary classifier's scores (definitions page: AUC, B(r), r_b, C(r_b)).

    Attributes
    ----------
    n_rows : int
        Rows evaluated (zero-weight rows included).
    weight_pos, weight_neg : float
        Total positive / negative weight (counts without weights).
    base_rate : float
        ``weight_pos / (weight_pos + weight_neg)``: the precision of a random ranking.
    auc : float
        Area under the ROC curve, ties counted one half.
    average_precision : float
        Step-sum average precision (scikit-learn's ``average_precision_score``).
    n_thresholds : int
        Number of operating points (distinct scores with non-zero weight).
    threshold, b, precision, lift, tpr, fpr, f1, reached
        The operating point at level 0.5: ``threshold`` is r_b and ``precision`` is
        C(r_b), the precision at the indistinguishability threshold.
    at : Mapping[float, OperatingPoint]
        The operating point for every requested level.
    exclude_self : bool
        Whether self-pairs were removed from ``B`` (definitions page, "B(r)").
    intervals : Mapping[str, Interval] or None
        Bootstrap percentile intervals of auc, average_precision, threshold,
        precision and lift when ``evaluate`` was given ``n_boot``; None otherwise.

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.evaluate([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> r.n_rows, round(r.auc, 4), r.threshold
    (6, 0.8889, 0.35)
    >>> sorted(r.at)
    [0.4, 0.5, 0.6]
    """

    n_rows: int
    weight_pos: float
    weight_neg: float
    base_rate: float
    auc: float
    average_precision: float
    n_thresholds: int
    threshold: float
    b: float
    precision: float
    lift: float
    tpr: float
    fpr: float
    f1: float
    reached: bool
    at: Mapping[float, OperatingPoint]
    exclude_self: bool = True
    intervals: Mapping[str, Any] | None = None

    @classmethod
    def from_sweep(cls, result: SweepResult, levels: tuple[float, ...], n_rows: int,
                   exclude_self: bool, warn_main: bool = True) -> "Report":
        """Build from a backend sweep result computed for ``levels + (0.5,)``.

        Warns for every level in ``levels`` no operating point reaches, and for 0.5
        (the top-level fields) unless ``warn_main`` is False.

        Parameters
        ----------
        result : SweepResult
            The engine's sweep, with one crossing per level and then 0.5.
        levels : tuple of float
            The levels reported in ``Report.at``.
        n_rows : int
            Rows evaluated.
        exclude_self : bool
            Whether the sweep dropped the self-pairs from ``B``.
        warn_main : bool, default=True
            Warn when level 0.5 is not reached, even if it is not in ``levels``.

        Returns
        -------
        Report
            The report of the sweep.

        Examples
        --------
        >>> import numpy as np
        >>> from indist_fast._core.engine import engine
        >>> from indist_fast.results.report import Report
        >>> y = np.array([0, 0, 1, 1, 0, 1], dtype=np.uint8)
        >>> s = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> result = engine().summarize(y, s, None, 1.0, 0.0, np.array([0.5]), True)
        >>> r = Report.from_sweep(result, (0.5,), 6, True)
        >>> r.threshold, r.precision
        (0.35, 0.75)
        """
        wp, wn = float(result.weight_pos), float(result.weight_neg)
        check_two_classes(wp, wn)
        rows = result.crossings.tolist()          # Python floats, in one call
        point = OperatingPoint._from_values
        points = {level: point(level, row, wp, wn) for level, row in zip(levels, rows)}
        main = points[0.5] if 0.5 in points else point(0.5, rows[len(levels)], wp, wn)
        if result.n_undefined:
            warn_undefined_b(result.n_undefined, wp, exclude_self)
        missed = [lv for lv, p in points.items() if not p.reached]
        if warn_main and not main.reached and 0.5 not in points:
            missed.append(0.5)
        if missed:
            b_last = f"{result.b_last:.4g}"
            if any(float(b_last) >= m for m in missed):   # (just below a level: in full)
                b_last = repr(float(result.b_last))
            warn(
                f"No operating point reaches B >= {', '.join(f'{m:g}' for m in missed)} "
                f"(B is {b_last} at the lowest threshold, with every row labelled): the threshold there "
                "is NaN and reached is False. The scores rank positives too weakly "
                "against the labelled set for that level.",
                LevelNotReachedWarning)
        m = main.__dict__
        return frozen_from(cls, {
            "n_rows": int(n_rows), "weight_pos": wp, "weight_neg": wn,
            "base_rate": wp / (wp + wn), "auc": float(result.auc),
            "average_precision": float(result.average_precision),
            "n_thresholds": int(result.n_groups), "threshold": m["threshold"], "b": m["b"],
            "precision": m["precision"], "lift": m["lift"], "tpr": m["tpr"],
            "fpr": m["fpr"], "f1": m["f1"], "reached": m["reached"],
            "at": OperatingPoints._of(points), "exclude_self": bool(exclude_self),
            "intervals": None})

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: NaN becomes None, ``at`` is keyed by the level as text.

        Returns
        -------
        dict
            Every field; ``at`` maps ``"0.5"`` etc. to the point's dict, ``intervals`` is
            None or maps each metric to its interval's dict.

        Examples
        --------
        >>> import json
        >>> import indist_fast
        >>> r = indist_fast.evaluate([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> d = r.to_dict()
        >>> d["at"]["0.5"]["threshold"], d["intervals"]
        (0.35, None)
        >>> json.loads(json.dumps(d)) == d
        True
        """
        return record_dict(
            self, at={f"{level:g}": point.to_dict() for level, point in self.at.items()},
            intervals=(None if self.intervals is None else
                       {k: v.to_dict() for k, v in self.intervals.items()}))

    def __str__(self) -> str:
        lines = [
            f"rows {self.n_rows:,}   positives {count_text(self.weight_pos)}   "
            f"negatives {count_text(self.weight_neg)}   base rate {self.base_rate:.4f}",
            f"AUC {self.auc:.4f}   average precision {self.average_precision:.4f}   "
            f"operating points {self.n_thresholds:,}",
            "",
            f"{'level':>6} {'threshold r':>12} {'B':>7} {'precision C':>12} {'lift':>7} "
            f"{'tpr':>7} {'fpr':>7} {'F1':>7}",
        ]
        for level, p in sorted(self.at.items()):
            mark = "*" if level == 0.5 else " "
            if not p.reached:
                lines.append(f"{level:>5g}{mark} {'not reached':>12}")
                continue
            lines.append(f"{level:>5g}{mark} {p.threshold:>12.5g} {p.b:>7.4f} "
                         f"{p.precision:>12.4f} {p.lift:>7.3f} {p.tpr:>7.4f} "
                         f"{p.fpr:>7.4f} {p.f1:>7.4f}")
        lines.append("* level 0.5: r_b, the indistinguishability threshold; "
                     "precision there is C(r_b).")
        if self.intervals:
            first = next(iter(self.intervals.values()))
            lines += ["", f"{first.confidence:.0%} bootstrap intervals "
                          f"({len(first.replicates)} replicates)",
                      f"{'metric':>18} {'estimate':>10} {'std err':>9} {'low':>9} {'high':>9}"]
            for iv in self.intervals.values():
                lines.append(f"{iv.metric:>18} {iv.estimate:>10.4f} {iv.std_error:>9.4f} "
                             f"{iv.low:>9.4f} {iv.high:>9.4f}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from .html_tables import intervals_table, levels_table, report_html_table
        parts = [report_html_table([(None, self)]), levels_table(self)]
        if self.intervals:
            first = next(iter(self.intervals.values()))
            parts.append(intervals_table(self.intervals, caption=(
                f"{first.confidence:.0%} bootstrap intervals "
                f"({len(first.replicates):,} replicates)")))
        return "".join(parts)


@dataclass(frozen=True, eq=False)
class Curves:
    """Every operating point of a score table, highest threshold first (definitions page).

    Attributes
    ----------
    thresholds : ndarray of shape (m,)
        Distinct scores, descending; point ``j`` predicts positive where
        ``score >= thresholds[j]``.
    tp, fp : ndarray of shape (m,)
        Positive / negative weight at or above the threshold.
    tpr, fpr, precision, f1 : ndarray of shape (m,)
        Rates, precision ``C`` and F1 at each point.
    b, b_plus, b_minus : ndarray of shape (m,)
        ``B`` and its split by the class of the labelled copy (``b = b_plus +
        b_minus``); NaN where the denominator is not positive.

    Examples
    --------
    >>> import indist_fast
    >>> c = indist_fast.curves([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
    >>> len(c), c.precision.tolist()
    (4, [1.0, 1.0, 0.6666666666666666, 0.5])
    >>> bool((abs(c.b - (c.b_plus + c.b_minus)) < 1e-12).all())
    True
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray
    precision: np.ndarray
    f1: np.ndarray
    b: np.ndarray
    b_plus: np.ndarray
    b_minus: np.ndarray

    def __post_init__(self) -> None:
        for f in fields(self):
            getattr(self, f.name).setflags(write=False)

    def __len__(self) -> int:
        return len(self.thresholds)

    def to_dict(self) -> dict[str, list[Any]]:
        """Plain lists (NaN becomes None).

        Returns
        -------
        dict of str to list
            Each field as a list of Python numbers.

        Examples
        --------
        >>> import indist_fast
        >>> indist_fast.curves([0, 1, 1, 0], [0.1, 0.8, 0.8, 0.3]).to_dict()["thresholds"]
        [0.8, 0.3, 0.1]
        """
        return record_dict(self)

