"""The paper's figures for your scores (matplotlib, an optional dependency).

Every function draws on ``ax`` (a new figure when None) and returns the ``Axes``;
``report_sheet`` and ``nine_panels`` return the ``Figure``. Each takes labels and
scores, or a ``ScoreTable`` in their place (``y_score=None``), which is how the sheet
sorts once for all its panels. Long curves are thinned to at most ``max_points``
points for drawing; the numbers behind them stay exact.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._core.validation import check_count
from ..errors import IndistFastWarning
from ..table import ScoreTable

__all__ = ["scores_by_class", "roc", "b_curve", "c_tpr_fpr_vs_b", "b_split", "cost_curves",
           "signal_curves", "report_sheet", "nine_panels"]


def _plt() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'indist-fast[plot]'") from None
    return plt


def _check_ax(ax: Any) -> Any:
    """None (draw on a new figure) or a matplotlib ``Axes``, checked before any work:
    anything else would fail at its first drawing call with an error naming no
    argument, after a figure had been opened for nothing."""
    _plt()
    from matplotlib.axes import Axes
    if ax is not None and not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {ax!r} "
                        f"({type(ax).__name__}).")
    return ax


def _axes(ax: Any) -> Any:
    """The checked ``ax``, or a new figure's (opened only once the data are read)."""
    return _plt().subplots(figsize=(5, 4))[1] if ax is None else ax


def _check_points(max_points: Any, name: str = "max_points") -> int:
    # two points draw a line; more than the curve has cost nothing (the curve is kept)
    return check_count(max_points, name, minimum=2)


def _thin(n: int, max_points: int) -> np.ndarray:
    return np.unique(np.linspace(0, n - 1, min(n, max_points)).astype(np.int64))


# matplotlib widens the data range by a margin when it autoscales and overflows
# beyond about 1e307; coordinates larger than this are drawn in units of a power of
# ten (the axis label says which). Only the display is scaled, never the numbers.
_MAX_COORD = 1e300
# Each bin is a patch per class; beyond this a histogram only costs drawing time.
MAX_BINS = 10_000


def _display_scale(values: np.ndarray) -> float:
    """1, or the power of ten dividing ``values`` (finite) into matplotlib's range."""
    top = float(np.max(np.abs(values))) if len(values) else 0.0
    return 1.0 if top <= _MAX_COORD else 10.0 ** math.floor(math.log10(top))


def _scaled(label: str, scale: float) -> str:
    return label if scale == 1.0 else f"{label} (x {scale:.0e})"


def _bin_edges(x: np.ndarray, bins: int) -> np.ndarray:
    """``bins`` equal bins over the range of ``x`` (finite, within ``_MAX_COORD``).

    Unlike ``numpy.histogram_bin_edges`` this never refuses a narrow range: scores a
    few ulps apart share fewer distinct edges instead of raising "too many bins".
    Edges are ``lo (1 - t) + hi t``, which stay within ``[lo, hi]`` and hit both.
    """
    lo, hi = (float(x.min()), float(x.max())) if len(x) else (0.0, 1.0)
    if lo == hi:                      # one distinct score: a bin around it, as numpy
        pad = max(0.5, abs(lo) * 1e-3)
        lo, hi = lo - pad, hi + pad
    t = np.linspace(0.0, 1.0, bins + 1)
    edges: np.ndarray = np.unique(lo * (1.0 - t) + hi * t)
    return edges


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*args, **kwargs)


def _table(y_true: Any, y_score: Any, sample_weight: Any) -> ScoreTable:
    """The one sort every panel reads (or the table the caller already has)."""
    if isinstance(y_true, ScoreTable):
        return y_true
    return ScoreTable.from_arrays(y_true, y_score, sample_weight)


def _curve_axes(y_true: Any, y_score: Any, sample_weight: Any, ax: Any,
                max_points: Any) -> tuple[Any, Any, np.ndarray]:
    """The axes, the curves, and the indices of the points worth drawing."""
    ax = _check_ax(ax)
    max_points = _check_points(max_points)
    c = _quiet(_table(y_true, y_score, sample_weight).curves)
    return _axes(ax), c, _thin(len(c), max_points)


def _report(y_true: Any, y_score: Any, sample_weight: Any) -> Any:
    return _quiet(_table(y_true, y_score, sample_weight).evaluate, (0.5,))


def _threshold_axis(thresholds: np.ndarray) -> tuple[np.ndarray, str]:
    """Thresholds as drawn, and the axis label (scaled when the scores are huge)."""
    scale = _display_scale(thresholds[np.isfinite(thresholds)])
    return thresholds / scale, _scaled("threshold r", scale)


def scores_by_class(y_true: Any, y_score: Any = None, *, ax: Any = None, bins: int = 60,
                    sample_weight: Any = None) -> Any:
    """Score histograms of positives and negatives with the r_b line.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or ScoreTable
        Binary labels: bool, {0, 1}, {-1, 1}; or a ``ScoreTable`` (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    bins : int, default=60
        Equal-width bins over the finite scores (1 to 10,000). Infinite scores are
        left out of the histogram; scores beyond 1e300 in size are drawn in units of
        a power of ten.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.scores_by_class(y, s, bins=10)
    >>> ax.get_xlabel()
    'score'
    >>> plt.close(ax.figure)
    """
    ax = _check_ax(ax)
    bins = check_count(bins, "bins", maximum=MAX_BINS)
    table = _table(y_true, y_score, sample_weight)
    report = _report(table, None, None)
    finite = np.isfinite(table.scores)
    scale = _display_scale(table.scores[finite])
    x = table.scores[finite] / scale
    edges = _bin_edges(x, bins)
    ax = _axes(ax)
    # the table's weights per distinct score are the histogram's weights
    for counts, name, color in ((table.neg, "negatives", "tab:blue"),
                                (table.pos, "positives", "tab:red")):
        ax.hist(x, bins=edges, weights=counts[finite], alpha=0.55, color=color, label=name)
    if report.reached:
        ax.axvline(report.threshold / scale, color="k", lw=1.5,
                   label=f"r_b = {report.threshold:.3g} (C = {report.precision:.3f})")
    ax.set_xlabel(_scaled("score", scale))
    ax.set_ylabel("weight" if table.pos.dtype.kind == "f" else "rows")
    ax.legend(fontsize=8)
    return ax


def roc(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
        max_points: int = 2000) -> Any:
    """The ROC curve with its AUC and the operating point at r_b.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or ScoreTable
        Binary labels: bool, {0, 1}, {-1, 1}; or a ``ScoreTable`` (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    max_points : int, default=2000
        At most this many points of the curve are drawn (at least 2); the numbers
        behind them stay exact.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.roc(y, s)
    >>> ax.get_lines()[0].get_label()
    'AUC = 0.8889'
    >>> plt.close(ax.figure)
    """
    _check_ax(ax)                  # before the sort, as every panel does
    table = _table(y_true, y_score, sample_weight)
    ax, c, i = _curve_axes(table, None, None, ax, max_points)
    report = _report(table, None, None)
    ax.plot(np.r_[0, c.fpr[i]], np.r_[0, c.tpr[i]], color="tab:purple",
            label=f"AUC = {report.auc:.4f}")
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--")
    if report.reached:
        ax.plot(report.fpr, report.tpr, "ko", label="r_b")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    ax.legend(fontsize=8, loc="lower right")
    return ax


def b_curve(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
            max_points: int = 2000) -> Any:
    """B(r) against the threshold, with the 1/2 line and the 0.4-0.6 band.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or ScoreTable
        Binary labels: bool, {0, 1}, {-1, 1}; or a ``ScoreTable`` (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    max_points : int, default=2000
        At most this many points of the curve are drawn (at least 2); the numbers
        behind them stay exact.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.b_curve(y, s)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('threshold r', 'B')
    >>> plt.close(ax.figure)
    """
    ax, c, i = _curve_axes(y_true, y_score, sample_weight, ax, max_points)
    r, label = _threshold_axis(c.thresholds[i])
    ax.axhspan(0.4, 0.6, color="gold", alpha=0.25, label="0.4 - 0.6")
    ax.axhline(0.5, color="k", lw=0.8)
    ax.plot(r, c.b[i], color="tab:green", label="B(r)")
    ax.set_xlabel(label)
    ax.set_ylabel("B")
    ax.legend(fontsize=8)
    return ax


def c_tpr_fpr_vs_b(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
                   max_points: int = 2000) -> Any:
    """Precision C, tpr and fpr against B (read C(r_b) at B = 1/2).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or ScoreTable
        Binary labels: bool, {0, 1}, {-1, 1}; or a ``ScoreTable`` (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    max_points : int, default=2000
        At most this many points of the curve are drawn (at least 2); the numbers
        behind them stay exact.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.c_tpr_fpr_vs_b(y, s)
    >>> ax.get_xlabel()
    'B'
    >>> plt.close(ax.figure)
    """
    ax, c, i = _curve_axes(y_true, y_score, sample_weight, ax, max_points)
    for values, name in ((c.precision, "C (precision)"), (c.tpr, "tpr"), (c.fpr, "fpr")):
        ax.plot(c.b[i], values[i], label=name)
    ax.axvline(0.5, color="k", lw=0.8)
    ax.set_xlabel("B")
    ax.legend(fontsize=8)
    return ax


def b_split(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
            max_points: int = 2000) -> Any:
    """B+ (labelled copy positive) and B- against the threshold, with F1.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or ScoreTable
        Binary labels: bool, {0, 1}, {-1, 1}; or a ``ScoreTable`` (then ``y_score=None``).
    y_score : array-like of shape (n_samples,) or None
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    max_points : int, default=2000
        At most this many points of the curve are drawn (at least 2); the numbers
        behind them stay exact.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.b_split(y, s)
    >>> ax.get_xlabel()
    'threshold r'
    >>> plt.close(ax.figure)
    """
    ax, c, i = _curve_axes(y_true, y_score, sample_weight, ax, max_points)
    r, label = _threshold_axis(c.thresholds[i])
    ax.plot(r, c.b_plus[i], label="B+")
    ax.plot(r, c.b_minus[i], label="B-")
    ax.plot(r, c.f1[i], ls="--", label="F1")
    ax.set_xlabel(label)
    ax.legend(fontsize=8)
    return ax


def cost_curves(y_true: Any, y_score: Any, *, ax: Any = None, sample_weight: Any = None,
                max_lines: int = 60) -> Any:
    """Cost lines of the operating points, their lower envelope, and the Brier curve
    when the scores are probabilities.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1} or {-1, 1}.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; probabilities in [0, 1] also
        get the Brier curve.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    max_lines : int, default=60
        At most this many cost lines are drawn (at least 1).

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.cost_curves(y, s)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('cost proportion c', 'loss Q(c)')
    >>> plt.close(ax.figure)
    """
    from .. import threshold_choice as tc
    ax = _check_ax(ax)
    max_lines = check_count(max_lines, "max_lines")
    cc = tc.cost_curves(y_true, y_score, sample_weight=sample_weight)
    ax = _axes(ax)
    grid = np.linspace(0, 1, 201)
    for j in _thin(len(cc.intercept), max_lines):
        ax.plot([0, 1], [cc.intercept[j], cc.intercept[j] + cc.slope[j]], color="lightgrey",
                lw=0.6)
    ax.plot(cc.envelope_c, cc.envelope_loss, color="k", lw=1.8, label="lower envelope")
    if cc.brier is not None:                  # scores are probabilities
        ax.plot(grid, cc.brier(grid), color="tab:orange", label="Brier curve")
    ax.set_xlabel("cost proportion c")
    ax.set_ylabel("loss Q(c)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    return ax


def signal_curves(signal: Any, *, ax: Any = None) -> Any:
    """Resolving power: each metric of a ``SignalCurve`` against AUROC.

    Parameters
    ----------
    signal : SignalCurve
        From ``indist_fast.resolving_power.signal_curve``.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> from indist_fast.resolving_power import Binormal, signal_curve
    >>> curve = signal_curve(Binormal.for_auc(0.8), prevalence=0.2)
    >>> ax = plot.signal_curves(curve)
    >>> ax.get_xlabel()
    'AUROC of the model'
    >>> plt.close(ax.figure)
    """
    from ..resolving_power import SignalCurve
    if not isinstance(signal, SignalCurve):
        raise TypeError(f"signal must be a SignalCurve (from resolving_power.signal_curve), "
                        f"got {signal!r} ({type(signal).__name__}).")
    ax = _axes(_check_ax(ax))
    for name, values in signal.values.items():
        ax.plot(signal.auc, values, marker=".", label=name)
    ax.set_xlabel("AUROC of the model")
    ax.set_ylabel("metric")
    ax.legend(fontsize=8)
    return ax


def report_sheet(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                 title: str | None = None) -> Any:
    """Six panels for one model: scores, ROC, B(r), C/tpr/fpr vs B, B split, costs.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}. Rows, not a ``ScoreTable``: the cost
        panel reads the rows' scores as probabilities.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    title : str, optional
        The sheet's title.

    Returns
    -------
    matplotlib Figure
        The figure with its six panels.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> fig = plot.report_sheet(y, s, title="demo")
    >>> len(fig.axes)
    6
    >>> plt.close(fig)
    """
    plt = _plt()
    table = _table(y_true, y_score, sample_weight)      # one sort for the five curve panels
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5))
    scores_by_class(table, ax=axes[0, 0])
    roc(table, ax=axes[0, 1])
    b_curve(table, ax=axes[0, 2])
    c_tpr_fpr_vs_b(table, ax=axes[1, 0])
    b_split(table, ax=axes[1, 1])
    cost_curves(y_true, y_score, ax=axes[1, 2], sample_weight=sample_weight)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def _panel_tables(sets: Any) -> list[tuple[Any, ScoreTable]]:
    """``(name, table)`` per set, every set checked before a figure is opened."""
    if not isinstance(sets, Mapping):
        raise TypeError(f"sets must be a mapping of name to (y_true, y_score), as "
                        f"nine_datasets returns, got {type(sets).__name__}.")
    if not 1 <= len(sets) <= 9:
        raise ValueError(f"sets must hold 1 to 9 (y_true, y_score) pairs, one per panel; "
                         f"got {len(sets)}.")
    out = []
    for name, pair in sets.items():
        try:
            y, s = pair
        except (TypeError, ValueError):
            raise TypeError(f"sets[{name!r}] must be a (y_true, y_score) pair, got "
                            f"{type(pair).__name__}.") from None
        try:
            out.append((name, ScoreTable.from_arrays(y, s)))
        except (TypeError, ValueError) as exc:     # say which set, keep the row message
            raise (TypeError if isinstance(exc, TypeError) else ValueError)(
                f"sets[{name!r}]: {exc}") from None
    return out


def nine_panels(sets: Mapping[str, tuple[Any, Any]]) -> Any:
    """The paper's nine examples: score distributions with r_b, AUC and C(r_b).

    Parameters
    ----------
    sets : mapping of str to (y_true, y_score)
        One to nine labelled score sets, one panel each (``nine_datasets()`` gives the
        paper's nine).

    Returns
    -------
    matplotlib Figure
        The figure, one panel per set.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast.integrations import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> fig = plot.nine_panels({"demo": (y, s)})
    >>> len(fig.axes)
    9
    >>> plt.close(fig)
    """
    plt = _plt()
    tables = _panel_tables(sets)
    fig, axes = plt.subplots(3, 3, figsize=(12, 10), sharex=True)
    for ax, (name, table) in zip(axes.ravel(), tables):
        scores_by_class(table, ax=ax, bins=50)
        r = _report(table, None, None)
        ax.set_title(f"({name}) AUC {r.auc:.3f}, C(r_b) {r.precision:.3f}", fontsize=10)
        ax.set_xlabel("")
        ax.set_ylabel("")
    for ax in axes.ravel()[len(tables):]:
        ax.set_visible(False)
    fig.supxlabel("score (logistic-regression log-odds)")
    fig.tight_layout()
    return fig
