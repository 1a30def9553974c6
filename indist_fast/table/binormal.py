"""The binormal fit of an empirical ROC curve, as pROC's ``smooth(method="binormal")``.

Every operating point of the table (the "nothing positive" one included) gives
``(qnorm(specificity), qnorm(sensitivity))``; the points with both finite are fitted by
ordinary least squares, ``qnorm(sp) = intercept + slope * qnorm(se)`` (pROC's
``lm(sp ~ se)``). The fitted curve is ``sp = pnorm(intercept + slope * qnorm(se))`` and
its area ``pnorm(intercept / sqrt(1 + slope^2))``. For two normal classes of equal
spread ``d'`` apart, intercept is ``d'`` and slope is -1. Needs scipy (qnorm).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .score_table import ScoreTable

__all__ = ["BinormalFit", "binormal_fit", "normal_functions"]


class BinormalFit(NamedTuple):
    """The least-squares line through the probit-transformed ROC points.

    Attributes
    ----------
    intercept, slope : float
        ``qnorm(sp) = intercept + slope * qnorm(se)``.
    n_points : int
        The points fitted.

    Examples
    --------
    >>> from indist_fast.table.binormal import BinormalFit
    >>> round(BinormalFit(1.0, -1.0, 5).auc, 4)     # two unit normals 1 apart
    0.7602
    """

    intercept: float
    slope: float
    n_points: int

    @property
    def auc(self) -> float:
        """``pnorm(intercept / sqrt(1 + slope^2))``, the area under the fitted curve."""
        return 0.5 * math.erfc(-self.intercept / math.sqrt(1.0 + self.slope ** 2)
                               / math.sqrt(2.0))


def normal_functions() -> tuple[Any, Any]:
    """scipy's vectorised ``pnorm`` and ``qnorm`` (``ndtr``, ``ndtri``).

    Returns
    -------
    ndtr, ndtri : callable
        The normal distribution function and its inverse, on arrays.

    Examples
    --------
    >>> from indist_fast.table.binormal import normal_functions
    >>> pnorm, qnorm = normal_functions()
    >>> float(pnorm(qnorm(0.975)))
    0.975
    """
    try:
        from scipy.special import ndtr, ndtri
    except ImportError:                   # pragma: no cover - scipy is in the test set
        raise ImportError("the binormal fit needs scipy: pip install "
                          "'indist_fast[stats]' (or scipy)") from None
    return ndtr, ndtri


def binormal_fit(table: ScoreTable, name: str = "y_score") -> BinormalFit:
    """pROC's binormal fit of the table's ROC points (see the module docstring).

    Parameters
    ----------
    table : ScoreTable
        A table holding both classes.
    name : str, default="y_score"
        The argument named when the curve cannot be fitted.

    Returns
    -------
    BinormalFit

    Raises
    ------
    ValueError
        Fewer than two points with sensitivity and specificity strictly inside (0, 1),
        or all of them at one sensitivity (pROC: "ROC curve not smoothable").

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.table.binormal import binormal_fit
    >>> t = ScoreTable.from_arrays([0, 0, 1, 0, 1, 0, 1, 1],
    ...                            [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    >>> fit = binormal_fit(t)
    >>> round(fit.intercept, 4), round(fit.slope, 4), fit.n_points, round(fit.auc, 4)
    (0.6745, -0.5, 3, 0.7268)
    """
    _, ndtri = normal_functions()
    pos = np.concatenate(([0.0], np.cumsum(table.pos, dtype=np.float64)))
    neg = np.concatenate(([0.0], np.cumsum(table.neg, dtype=np.float64)))
    wp, wn = pos[-1], neg[-1]
    if table.pos.dtype.kind == "f":
        # the negatives below each point summed from the bottom: never below 0
        tn = np.concatenate((np.cumsum(table.neg[::-1])[::-1], [0.0]))
    else:
        tn = wn - neg
    with np.errstate(divide="ignore", invalid="ignore"):
        x = ndtri(pos / wp)               # qnorm(sensitivity)
        y = ndtri(tn / wn)                # qnorm(specificity)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if len(x) <= 1 or np.all(x == x[0]):
        raise ValueError(f"{name}: the ROC curve cannot be smoothed: a binormal fit needs "
                         "two operating points with sensitivity and specificity strictly "
                         f"between 0 and 1 at different sensitivities, got {len(x)}.")
    mx, my = x.mean(), y.mean()
    dx = x - mx
    slope = float(np.dot(dx, y - my) / np.dot(dx, dx))
    return BinormalFit(float(my - slope * mx), slope, int(len(x)))
