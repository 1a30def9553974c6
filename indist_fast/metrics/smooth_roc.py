"""Smoothed ROC curves, as pROC's ``smooth(roc, method=...)``: the binormal fit of the
empirical points, or the curve between two kernel density estimates of the classes'
scores. Both follow pROC step by step (its grid of ``n`` points, its sort, its two
corner points), so the curves and their areas agree with pROC's to rounding.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.direction import check_direction, orient_rows
from .._core.validation import check_count, check_real, check_two_classes
from ..io.frames import prepare_frame_or_rows
from ..results.smooth_curve import SmoothRoc
from ..table.binormal import binormal_fit, normal_functions
from ..table.score_table import ScoreTable
from .score_density import bw_nrd0, r_density

__all__ = ["smooth_roc", "SMOOTH_METHODS", "DISTRIBUTIONS"]

#: The methods of ``smooth_roc``.
SMOOTH_METHODS = ("binormal", "density", "fitdistr")
#: The distributions ``method="fitdistr"`` fits by maximum likelihood (MASS's
#: ``fitdistr``, whose estimates are closed-form for these).
DISTRIBUTIONS = ("normal", "lognormal", "exponential")
# pROC's density limits: the class densities run from `cut` bandwidths below the
# lowest score to `cut` above the highest (R's default for density()).
_CUT = 3.0


def _read_only(x: np.ndarray) -> np.ndarray:
    x = np.ascontiguousarray(x, dtype=np.float64)
    x.setflags(write=False)
    return x


def _binormal_points(table: ScoreTable, n: int) -> tuple[np.ndarray, np.ndarray, Any]:
    fit = binormal_fit(table)
    ndtr, ndtri = normal_functions()
    # R's seq(0, 1, 1 / (n - 1)): multiples of the step, clipped at 1
    q = ndtri(np.minimum(np.arange(n) * (1.0 / (n - 1)), 1.0))
    with np.errstate(invalid="ignore"):
        se, sp = ndtr(q), ndtr(fit.intercept + fit.slope * q)
    return se, sp, fit


def _density_points(rows: Any, n: int, bw: Any, adjust: float
                    ) -> tuple[np.ndarray, np.ndarray, float]:
    s = rows.s.astype(np.float64)
    w = np.ones(len(s)) if rows.w is None else rows.w
    keep = w > 0
    s, w, is_pos = s[keep], w[keep], (rows.y == rows.pos_value)[keep]
    if not np.isfinite(s).all():
        raise ValueError("y_score: density smoothing needs finite scores (a kernel "
                         "density has no mass at ±inf).")
    if isinstance(bw, str):
        if rows.w is not None:
            raise ValueError("bw: the rule 'nrd0' is defined for unweighted rows; with "
                             "sample_weight pass the bandwidth as a number.")
        if len(s) < 2:
            raise ValueError("y_score: a bandwidth by 'nrd0' needs at least two rows.")
        bandwidth = bw_nrd0(np.concatenate((s[~is_pos], s[is_pos])))
    else:
        bandwidth = bw
    bandwidth *= adjust
    start, stop = float(s.min()) - _CUT * bandwidth, float(s.max()) + _CUT * bandwidth
    controls, cases = (r_density(s[m], w[m] / w[m].sum(), bandwidth, start, stop, n)
                       for m in (~is_pos, is_pos))
    try:
        se, sp = _swept(controls, cases)
    except ValueError as exc:
        raise ValueError(f"bw: {exc} Use a larger bandwidth.") from None
    return se, sp, bandwidth


def _fitted_density(x: np.ndarray, w: np.ndarray, distribution: str,
                    grid: np.ndarray) -> np.ndarray:
    """The maximum-likelihood fit of ``distribution`` to ``x`` (weights as copies), its
    density at ``grid`` (MASS's ``fitdistr`` estimates, R's ``dnorm``, ``dlnorm``,
    ``dexp``)."""
    w = w / w.sum()
    if distribution == "exponential":
        if (x < 0).any():
            raise ValueError("y_score: an exponential fit needs non-negative scores.")
        rate = 1.0 / float(np.dot(w, x))
        with np.errstate(over="ignore"):
            out: np.ndarray = np.where(grid >= 0, rate * np.exp(-rate * grid), 0.0)
        return out
    if distribution == "lognormal":
        if (x <= 0).any():
            raise ValueError("y_score: a lognormal fit needs positive scores.")
        x = np.log(x)
    mean = float(np.dot(w, x))
    sd = math.sqrt(float(np.dot(w, (x - mean) ** 2)))
    if not sd > 0:
        raise ValueError(f"y_score: a {distribution} fit needs scores that vary within "
                         "each class.")
    if distribution == "normal":
        return np.exp(-0.5 * ((grid - mean) / sd) ** 2) / (sd * math.sqrt(2.0 * math.pi))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (np.log(grid) - mean) / sd
        out = np.where(grid > 0, np.exp(-0.5 * z * z) / (grid * sd * math.sqrt(2.0 * math.pi)),
                       0.0)
    return out


def _fitdistr_points(rows: Any, n: int, distributions: tuple[str, str]
                     ) -> tuple[np.ndarray, np.ndarray]:
    s = rows.s.astype(np.float64)
    w = np.ones(len(s)) if rows.w is None else rows.w
    keep = w > 0
    s, w, is_pos = s[keep], w[keep], (rows.y == rows.pos_value)[keep]
    if not np.isfinite(s).all():
        raise ValueError("y_score: fitting distributions needs finite scores.")
    grid = np.linspace(s.min(), s.max(), n)
    controls = _fitted_density(s[~is_pos], w[~is_pos], distributions[0], grid)
    cases = _fitted_density(s[is_pos], w[is_pos], distributions[1], grid)
    return _swept(controls, cases)


def _swept(controls: np.ndarray, cases: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sensitivity and specificity at each point of the grid of two class densities:
    the cases at or above it, the controls below (pROC's ``roc.utils.perfs.dens``)."""
    if not (controls.sum() > 0 and cases.sum() > 0):
        raise ValueError("the class densities vanish on the grid of scores.")
    tail = np.cumsum(cases[::-1])[::-1]
    head = np.concatenate(([0.0], np.cumsum(controls)[:-1]))
    return tail / cases.sum(), head / controls.sum()


def _check_distributions(distribution: Any) -> tuple[str, str]:
    pair = (distribution, distribution) if isinstance(distribution, str) else distribution
    try:
        controls, cases = pair
    except (TypeError, ValueError):
        raise ValueError(f"distribution must be one of {', '.join(DISTRIBUTIONS)} or a pair "
                         f"of them (negatives, positives), got {distribution!r}.") from None
    for d in (controls, cases):
        if not isinstance(d, str) or d not in DISTRIBUTIONS:
            raise ValueError(f"distribution must be one of {', '.join(DISTRIBUTIONS)} or a "
                             f"pair of them (negatives, positives), got {distribution!r}.")
    return controls, cases


def smooth_roc(y_true: Any, y_score: Any = None, *, method: str = "binormal",
               n: int = 512, bw: Any = "nrd0", adjust: Any = 1.0,
               distribution: Any = "normal", sample_weight: Any = None, pos_label: Any = None,
               direction: str = "higher", label: str | None = None,
               score: str | None = None, weight: str | None = None) -> SmoothRoc:
    """A smoothed ROC curve and its area, as pROC's ``smooth(roc(...), method=...)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), or a DataFrame
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``;
        or a table whose columns ``label=``, ``score=`` (and ``weight=``) name.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive (see ``direction``).
    method : {"binormal", "density", "fitdistr"}, default="binormal"
        ``"binormal"``: fit ``qnorm(sp) = intercept + slope * qnorm(se)`` by least
        squares through the empirical operating points whose sensitivity and
        specificity lie strictly inside (0, 1) (pROC's ``lm(sp ~ se)``), then read the
        curve at ``n`` sensitivities evenly spaced in [0, 1]; its area is
        ``pnorm(intercept / sqrt(1 + slope^2))``. ``"density"``: Gaussian kernel
        density estimates of the negatives' and the positives' scores on ``n`` common
        points (R's ``density``), the curve swept across those points, its area by
        trapezoids. ``"fitdistr"``: each class's scores fitted by maximum likelihood
        to ``distribution`` (MASS's ``fitdistr``), the densities read at ``n`` points
        evenly spaced from the lowest score to the highest, then as density.
    n : int, default=512
        Points of the smoothed curve (two corners are added: ``n + 2`` in all).
    bw : "nrd0" or float, default="nrd0"
        Density only: the kernel bandwidth, or R's rule ``"nrd0"`` on all scores
        (unweighted rows only).
    adjust : float, default=1.0
        Density only: the bandwidth is multiplied by it.
    distribution : str or (str, str), default="normal"
        Fitdistr only: ``"normal"``, ``"lognormal"`` (positive scores) or
        ``"exponential"`` (non-negative scores), for both classes or as a pair
        (negatives, positives): pROC's ``density.controls`` and ``density.cases``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the
        row (density: pass ``bw`` as a number).
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    direction : {"higher", "lower", "auto"}, default="higher"
        Positive where the score is higher (pROC's ``"<"``) or lower (``">"``);
        ``"auto"`` picks by the class medians as pROC, warning when it picks lower.
    label, score, weight : str, optional
        Column names when ``y_true`` is a table.

    Returns
    -------
    SmoothRoc
        ``fpr``, ``tpr``, ``auc`` and the fit's parameters.

    Raises
    ------
    ValueError
        Binormal: fewer than two operating points strictly inside the unit square
        (pROC: "not smoothable"). Density: infinite scores.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.4
    >>> s = rng.normal(size=2000) + y
    >>> b = indist_fast.smooth_roc(y, s)
    >>> round(b.auc, 2), round(b.intercept, 1), round(b.slope, 1)
    (0.76, 1.0, -0.9)
    >>> d = indist_fast.smooth_roc(y, s, method="density")
    >>> round(d.auc, 2), float(d.fpr[0]), float(d.tpr[-1])
    (0.76, 0.0, 1.0)
    """
    if not isinstance(method, str) or method not in SMOOTH_METHODS:
        raise ValueError(f"method must be one of {', '.join(SMOOTH_METHODS)}, got "
                         f"{method!r}.")
    n = check_count(n, "n", minimum=2, maximum=10**7)
    if not (isinstance(bw, str) and bw == "nrd0"):
        if isinstance(bw, str):
            raise ValueError(f"bw must be 'nrd0' or a positive number, got {bw!r}.")
        bw = check_real(bw, "bw", low=0.0, low_open=True)
    adjust = check_real(adjust, "adjust", low=0.0, low_open=True)
    distributions = _check_distributions(distribution)
    direction = check_direction(direction)
    rows = prepare_frame_or_rows(y_true, y_score, sample_weight, pos_label, label, score,
                                 weight)
    rows, reversed_ = orient_rows(rows, direction)
    table = ScoreTable.from_rows(rows)
    check_two_classes(table.weight_pos, table.weight_neg)
    intercept = slope = bandwidth = math.nan
    if method == "binormal":
        se, sp, fit = _binormal_points(table, n)
        intercept, slope = fit.intercept, fit.slope
    elif method == "density":
        se, sp, bandwidth = _density_points(rows, n, bw, adjust)
    else:
        se, sp = _fitdistr_points(rows, n, distributions)
    if np.any(np.diff(sp) < 0):                   # pROC's sort: specificity rising
        se, sp = se[::-1], sp[::-1]
    se = np.concatenate(([1.0], se, [0.0]))
    sp = np.concatenate(([0.0], sp, [1.0]))
    if method == "binormal":
        auc = fit.auc
    else:
        auc = float(np.sum((sp[1:] - sp[:-1]) * (se[1:] + se[:-1]) / 2.0))
    return SmoothRoc(method, _read_only((1.0 - sp)[::-1]), _read_only(se[::-1]), auc,
                     intercept, slope, bandwidth, "lower" if reversed_ else "higher")
