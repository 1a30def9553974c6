"""Readings of an empirical ROC curve the way R's pROC takes them: the sensitivity at a
given specificity and back, and the partial area over a specificity or sensitivity
range, with McClish's correction.

The curve is the polyline through every operating point of a score table, from
specificity 1, sensitivity 0 to specificity 0, sensitivity 1, in the table's order
(descending scores); tied scores of both classes give one straight segment. Every reading takes these arrays, so
a bootstrap replicate's curve (its draw counts per group summed) is read by the same
code as the full data's. Values between operating points are read on the polyline
(linear interpolation), as pROC's ``coords(input=...)`` and ``auc(partial.auc=...)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.validation import check_real
from .score_table import ScoreTable

__all__ = ["FOCUSES", "curve_of", "curve_of_counts", "sensitivity_at", "specificity_at",
           "partial_area", "check_partial"]

#: The axes a partial area can be taken over (pROC's ``partial.auc.focus``).
FOCUSES = ("specificity", "sensitivity")


def curve_of_counts(tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(specificity, sensitivity)`` after each group of positive weights ``tp`` and
    negative weights ``fp`` (in descending score order), starting at (1, 0): the
    specificity falls, the sensitivity rises. Both are ratios of counts to the class
    weight, as pROC's (``tn / n_controls``), so a given specificity such as 0.9 is met
    exactly where pROC meets it. Groups of zero weight (a replicate that drew none of
    their rows) repeat a point, which no reading minds.

    Parameters
    ----------
    tp, fp : ndarray
        Positive and negative weight of each group, in descending score order.

    Returns
    -------
    specificity, sensitivity : ndarray of float64
        One more point than groups (the first before any group).

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.table.roc_readings import curve_of_counts
    >>> [v.round(4).tolist() for v in curve_of_counts(np.array([1, 0, 1]), np.array([0, 2, 1]))]
    [[1.0, 1.0, 0.3333, 0.0], [0.0, 0.5, 0.5, 1.0]]
    """
    tp_sum = np.concatenate(([0.0], np.cumsum(tp, dtype=np.float64)))
    fp_sum = np.concatenate(([0.0], np.cumsum(fp, dtype=np.float64)))
    with np.errstate(divide="ignore", invalid="ignore"):
        return (fp_sum[-1] - fp_sum) / fp_sum[-1], tp_sum / tp_sum[-1]


def curve_of(table: ScoreTable) -> tuple[np.ndarray, np.ndarray]:
    """The polyline ``(specificity, sensitivity)`` of a table (both classes must have
    weight).

    Parameters
    ----------
    table : ScoreTable
        The sorted scores with their class weights.

    Returns
    -------
    specificity, sensitivity : ndarray of float64
        ``curve_of_counts(table.pos, table.neg)``.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.table.roc_readings import curve_of
    >>> t = ScoreTable.from_rows(prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]))
    >>> [v.tolist() for v in curve_of(t)]
    [[1.0, 1.0, 1.0, 0.5, 0.0], [0.0, 0.5, 1.0, 1.0, 1.0]]
    """
    return curve_of_counts(table.pos, table.neg)


def _on_segment(x: np.ndarray, y: np.ndarray, at: np.ndarray, before: np.ndarray
                ) -> np.ndarray:
    """``y`` on the segment from point ``before`` to ``before + 1`` at ``x = at``."""
    after = np.minimum(before + 1, len(x) - 1)
    dx = x[after] - x[before]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(dx != 0, (at - x[before]) / dx, 0.0)
    out: np.ndarray = y[before] + t * (y[after] - y[before])
    return out


def sensitivity_at(spec: np.ndarray, sens: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The sensitivity at each specificity ``at`` (pROC's ``coords(input=
    "specificity")``): where operating points sit at ``at``, the highest of their
    sensitivities; elsewhere the segment crossing ``at``.

    Parameters
    ----------
    spec, sens : ndarray
        A curve, as ``curve_of`` gives it.
    at : ndarray
        Specificities in [0, 1].

    Returns
    -------
    ndarray of float64
        The sensitivity at each.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.table.roc_readings import curve_of, sensitivity_at
    >>> import numpy as np
    >>> t = ScoreTable.from_rows(prepare_rows([0, 1, 1, 0, 1, 0], [.1, .8, .6, .3, .2, .4]))
    >>> sensitivity_at(*curve_of(t), np.array([0.5, 0.9])).round(4).tolist()
    [0.6667, 0.6667]
    """
    # (the negation of the falling specificity rises, exactly)
    last = np.maximum(np.searchsorted(-spec, -at, side="right") - 1, 0)
    return np.where(spec[last] == at, sens[last], _on_segment(spec, sens, at, last))


def specificity_at(spec: np.ndarray, sens: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The specificity at each sensitivity ``at`` (pROC's ``coords(input=
    "sensitivity")``): where operating points sit at ``at``, the highest of their
    specificities; elsewhere the segment crossing ``at``.

    Parameters
    ----------
    spec, sens : ndarray
        A curve, as ``curve_of`` gives it.
    at : ndarray
        Sensitivities in [0, 1].

    Returns
    -------
    ndarray of float64
        The specificity at each.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.table.roc_readings import curve_of, specificity_at
    >>> import numpy as np
    >>> t = ScoreTable.from_rows(prepare_rows([0, 1, 1, 0, 1, 0], [.1, .8, .6, .3, .2, .4]))
    >>> specificity_at(*curve_of(t), np.array([0.5, 0.9])).round(4).tolist()
    [1.0, 0.3333]
    """
    first = np.minimum(np.searchsorted(sens, at, side="left"), len(sens) - 1)
    before = np.maximum(first - 1, 0)
    return np.where(sens[first] == at, spec[first], _on_segment(sens, spec, at, before))


def _area_to(x: np.ndarray, y: np.ndarray, cumulative: np.ndarray, at: float) -> float:
    """Area under the polyline ``(x, y)`` (``x`` non-decreasing) from ``x[0]`` to
    ``at``: whole trapezoids, then the part of the segment crossing ``at``."""
    k = int(np.searchsorted(x, at, side="right")) - 1          # last point with x <= at
    if k >= len(x) - 1:
        return float(cumulative[-1])
    cut = float(_on_segment(x, y, np.array([at]), np.array([k]))[0])
    return float(cumulative[k] + (at - x[k]) * (y[k] + cut) / 2.0)


def partial_area(spec: np.ndarray, sens: np.ndarray, low: float, high: float,
                 focus: str = "specificity", correct: bool = False) -> float:
    """The area under the ROC curve over specificity (or sensitivity) in ``[low,
    high]``, pROC's ``auc(partial.auc=c(high, low), partial.auc.focus=focus)``.

    ``focus="specificity"``: the integral of the sensitivity over the specificity in
    the range (at most ``high - low``); ``"sensitivity"``: the integral of the
    specificity over the sensitivity. ``correct``: McClish's ``(1 + (A - m) / (M -
    m)) / 2`` with ``m`` the chance diagonal's area over the range, ``((1 - low) + (1 -
    high)) (high - low) / 2``, and ``M = high - low``; NaN below the diagonal (``A <
    m``), where pROC returns NA.

    Parameters
    ----------
    spec, sens : ndarray
        A curve, as ``curve_of`` gives it.
    low, high : float
        The range, ``0 <= low < high <= 1`` (checked by the caller: ``check_partial``).
    focus : {"specificity", "sensitivity"}, default="specificity"
        The axis of the range.
    correct : bool, default=False
        McClish's correction.

    Returns
    -------
    float
        The (corrected) partial area; NaN when corrected below the diagonal.

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.table.roc_readings import curve_of, partial_area
    >>> t = ScoreTable.from_rows(prepare_rows([0, 1, 1, 0, 1, 0], [.1, .8, .6, .3, .2, .4]))
    >>> spec, sens = curve_of(t)
    >>> round(partial_area(spec, sens, 0.5, 1.0), 4)
    0.3333
    >>> round(partial_area(spec, sens, 0.5, 1.0, "sensitivity", correct=True), 4)
    0.7037
    """
    x, y = (spec[::-1], sens[::-1]) if focus == "specificity" else (sens, spec)
    cumulative = np.concatenate(([0.0], np.cumsum(np.diff(x) * (y[1:] + y[:-1]) / 2.0)))
    area = _area_to(x, y, cumulative, high) - _area_to(x, y, cumulative, low)
    if not correct:
        return area
    chance = ((1.0 - low) + (1.0 - high)) * (high - low) / 2.0
    perfect = high - low
    if area < chance:
        return float("nan")
    return (1.0 + (area - chance) / (perfect - chance)) / 2.0


def check_partial(partial: Any, focus: Any, name: str = "partial"
                  ) -> tuple[float, float, str]:
    """``partial`` as ``(low, high)`` in [0, 1] with ``low < high`` (either order
    given, as pROC sorts its pair), and ``focus`` one of ``FOCUSES``.

    Parameters
    ----------
    partial : pair of float
        The range, in either order.
    focus : str
        ``"specificity"`` or ``"sensitivity"``.
    name : str, default="partial"
        The argument's name in error messages.

    Returns
    -------
    low, high : float
    focus : str

    Raises
    ------
    TypeError
        ``partial`` is not a pair.
    ValueError
        A value outside [0, 1] or NaN, an empty range, or an unknown ``focus``.

    Examples
    --------
    >>> from indist_fast.table.roc_readings import check_partial
    >>> check_partial([1, 0.8], "specificity")
    (0.8, 1.0, 'specificity')
    """
    if not (isinstance(focus, str) and focus in FOCUSES):
        raise ValueError(f"focus must be 'specificity' or 'sensitivity', got {focus!r}.")
    if not isinstance(partial, (tuple, list, np.ndarray)) or len(partial) != 2:
        raise TypeError(f"{name} must be a pair (low, high) of {focus} values in [0, 1], "
                        f"got {partial!r}.")
    a, b = (check_real(v, name, low=0.0, high=1.0) for v in partial)
    low, high = min(a, b), max(a, b)
    if low == high:
        raise ValueError(f"{name} must span a range: low < high, got {partial!r}.")
    return low, high, focus
