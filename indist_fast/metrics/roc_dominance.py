"""ROC dominance (``dominates``): whether one model's exact empirical ROC curve is on or
above another's at every false positive rate, and where each is higher. The curves are
the polylines through every operating point (ties as straight segments), compared
exactly at the union of their breakpoints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.validation import check_real, check_two_classes, with_scores
from ..results.report import record_dict
from ..table.score_table import ScoreTable
from .confusion_counts import four_digits, rows_and_table


def roc_polyline(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """The exact ROC polyline from (0, 0): fpr and tpr after each operating point, tied
    scores giving one straight segment (both classes must have weight)."""
    tp = np.r_[0.0, np.cumsum(table.pos.astype(np.float64))]
    fp = np.r_[0.0, np.cumsum(table.neg.astype(np.float64))]
    return np.clip(fp / fp[-1], 0.0, 1.0), np.clip(tp / tp[-1], 0.0, 1.0)


def _upper_lower(fpr: np.ndarray, tpr: np.ndarray, x: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The curve's highest and lowest tpr at each ``x`` (they differ on its vertical
    segments): the highest is the value just right of ``x``, the lowest just left."""
    last = np.searchsorted(fpr, x, side="right") - 1         # last point with fpr <= x
    first = np.searchsorted(fpr, x, side="left")             # first point with fpr >= x
    nxt = np.minimum(last + 1, len(fpr) - 1)
    prv = np.maximum(first - 1, 0)

    def between(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        dx = fpr[j] - fpr[i]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(dx > 0, (x - fpr[i]) / dx, 0.0)
        value: np.ndarray = tpr[i] + t * (tpr[j] - tpr[i])
        return value

    upper = np.where(fpr[last] == x, tpr[last], between(last, nxt))
    lower = np.where(fpr[first] == x, tpr[first], between(prv, first))
    return upper, lower


@dataclass(frozen=True)
class Dominance:
    """Whether one ROC curve is on or above another at every false positive rate.

    Attributes
    ----------
    a_dominates, b_dominates : bool
        A's curve is nowhere below B's (resp. B's nowhere below A's), within ``atol``
        in tpr. Both are True when the curves coincide.
    a_higher, b_higher : tuple of (float, float)
        The fpr intervals ``(low, high)`` where A's (resp. B's) curve is strictly
        higher by more than ``atol``, merged and in increasing order.
    max_gap_a, max_gap_b : float
        The largest amount (in tpr) by which A's curve rises above B's, and B's above
        A's (0 when never).
    atol : float
        The tolerance in tpr below which two curves count as equal.

    Examples
    --------
    >>> import indist_fast
    >>> d = indist_fast.dominates([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], [0.1, 0.8, 0.2, 0.9])
    >>> d.a_dominates, d.b_dominates, d.a_higher
    (True, False, ((0.0, 0.5),))
    """

    a_dominates: bool
    b_dominates: bool
    a_higher: tuple[tuple[float, float], ...]
    b_higher: tuple[tuple[float, float], ...]
    max_gap_a: float
    max_gap_b: float
    atol: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types.

        Returns
        -------
        dict
            Field name to value; the ranges as lists of ``[low, high]``.

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.dominates([0, 1], [0.1, 0.9], [0.9, 0.1]).to_dict()
        >>> d["a_dominates"], d["a_higher"]
        (True, [[0.0, 1.0]])
        """
        return record_dict(self, a_higher=[list(r) for r in self.a_higher],
                           b_higher=[list(r) for r in self.b_higher])

    def __str__(self) -> str:
        if self.a_dominates and self.b_dominates:
            return "A and B have the same ROC curve (within atol)."
        if self.a_dominates or self.b_dominates:
            first, second = ("A", "B") if self.a_dominates else ("B", "A")
            lines = [f"{first} dominates {second}: {first}'s ROC curve is nowhere below "
                     f"{second}'s."]
        else:
            lines = ["Neither dominates: the ROC curves cross."]
        for name, ranges, gap in (("A", self.a_higher, self.max_gap_a),
                                  ("B", self.b_higher, self.max_gap_b)):
            if ranges:
                spans = ", ".join(f"[{four_digits(lo)}, {four_digits(hi)}]" for lo, hi in ranges)
                lines.append(f"{name} higher at fpr {spans}, by up to {four_digits(gap)} in tpr")
        return "\n".join(lines)


def _ranges(x: np.ndarray, start: np.ndarray, end: np.ndarray, atol: float
            ) -> tuple[tuple[float, float], ...]:
    """Where a difference, linear from ``start[i]`` at ``x[i]`` to ``end[i]`` at
    ``x[i+1]``, exceeds ``atol``: merged fpr intervals. ``atol`` decides which pieces
    count; a range ends where the difference crosses 0."""
    i = np.flatnonzero((start > atol) | (end > atol))
    if not len(i):
        return ()
    d0, d1, x0, dx = start[i], end[i], x[i], x[i + 1] - x[i]
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(d0 > atol, x0, x0 + dx * np.clip(-d0 / (d1 - d0), 0.0, 1.0))
        hi = np.where(d1 > atol, x[i + 1], x0 + dx * np.clip(d0 / (d0 - d1), 0.0, 1.0))
    first = np.flatnonzero(np.r_[True, lo[1:] > hi[:-1]])   # pieces that start a range
    ends = np.maximum.reduceat(hi, first)
    return tuple(zip(lo[first].tolist(), ends.tolist()))


def dominates(y_true: Any, score_a: Any, score_b: Any, *, sample_weight: Any = None,
              pos_label: Any = None, atol: float = 1e-12) -> Dominance:
    """Whether model A's ROC curve is on or above model B's at every fpr.

    Each ROC curve is the exact empirical one: the polyline from (0, 0) through every
    operating point to (1, 1), with tied scores giving one straight segment (a random
    split of the tie), i.e. linearly interpolated between operating points. Where a
    curve rises vertically it covers every tpr of the segment, so "A on or above B"
    compares the regions under the curves: A dominates B when B's region lies inside
    A's. Both curves are piecewise linear on the union of their breakpoints, so
    comparing them at every breakpoint (from both sides) decides it exactly.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    score_a, score_b : array-like of shape (n_samples,)
        The two models' scores for the same rows, higher meaning more likely positive;
        ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    atol : float, default=1e-12
        Differences in tpr up to this count as equal (rounding of the rates), >= 0.

    Returns
    -------
    Dominance
        ``a_dominates``, ``b_dominates`` and the fpr ranges where each is higher.

    Examples
    --------
    >>> import indist_fast
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> d = indist_fast.dominates(y, [0.1, 0.5, 0.3, 0.4, 0.8, 0.9],
    ...                           [0.2, 0.1, 0.95, 0.6, 0.5, 0.4])
    >>> d.a_dominates, d.b_dominates
    (True, False)
    >>> crossing = indist_fast.dominates(y, [0.1, 0.2, 0.6, 0.5, 0.8, 0.3],
    ...                                  [0.1, 0.7, 0.3, 0.9, 0.8, 0.25])
    >>> crossing.a_dominates, crossing.b_dominates
    (False, False)
    >>> crossing.a_higher, crossing.b_higher
    (((0.3333333333333333, 0.6666666666666666),), ((0.0, 0.3333333333333333),))
    """
    atol = check_real(atol, "atol", low=0.0)
    rows_a, table_a = rows_and_table(y_true, score_a, sample_weight, pos_label, "score_a")
    try:
        rows_b = with_scores(rows_a, score_b)
        table_b = ScoreTable.from_rows(rows_b)
    except (ValueError, TypeError) as exc:
        raise type(exc)(str(exc).replace("y_score", "score_b")) from None
    with np.errstate(over="ignore"):
        check_two_classes(table_a.weight_pos, table_a.weight_neg)
    fa, ta = roc_polyline(table_a)
    fb, tb = roc_polyline(table_b)
    x = np.union1d(fa, fb)
    up_a, low_a = _upper_lower(fa, ta, x)
    up_b, low_b = _upper_lower(fb, tb, x)
    # On (x[i], x[i+1]) the difference runs linearly from its value just right of x[i]
    # (upper) to its value just left of x[i+1] (lower).
    start, end = up_a[:-1] - up_b[:-1], low_a[1:] - low_b[1:]
    diffs = np.r_[up_a - up_b, low_a - low_b]
    max_a, max_b = float(diffs.max()), float(-diffs.min())
    max_a, max_b = (max_a if max_a > 0 else 0.0), (max_b if max_b > 0 else 0.0)
    return Dominance(bool(max_b <= atol), bool(max_a <= atol),
                     _ranges(x, start, end, atol), _ranges(x, -start, -end, atol),
                     max_a, max_b, atol)
