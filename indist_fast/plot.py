"""The paper's figures for your scores (matplotlib, an optional dependency).

Every function draws on ``ax`` (a new figure when None) and returns the ``Axes``;
``report_sheet`` and ``nine_panels`` return the ``Figure``. Each takes labels and
scores, or a ``ScoreTable`` in their place (``y_score=None``), which is how the sheet
sorts once for all its panels. Long curves are thinned to at most ``max_points``
points for drawing (keeping the corners of the ROC convex hull); the numbers behind
them stay exact.

``roc``, ``pr`` and ``b_curve`` compare models: pass a mapping of model name to scores
(``roc(y, {"a": score_a, "b": score_b})``), or call them again on the same ``ax`` with
``label=`` and ``color=``. Either way the legend names each model, and the reference
lines (chance diagonal, base rate, the 0.4 - 0.6 band) are drawn once per ``Axes``.

Models take the colours of ``PALETTE`` (Okabe and Ito's colour-blind-safe palette, as
the HTML report does), in order, skipping colours already on the ``Axes``; after its
five colours they come round again dashed. r_b is marked in ``R_B_COLOR``, a colour
no model takes.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np


from ._core.validation import check_count, check_flag
from .errors import IndistFastWarning
from .metrics.curve_points import (MAX_BINS, MAX_COORD, bin_edges, hull_corners, model_names,
                                   thin)
from .table.score_table import ScoreTable

__all__ = ["scores_by_class", "roc", "pr", "b_curve", "c_tpr_fpr_vs_b", "b_split",
           "cost_curves", "signal_curves", "report_sheet", "nine_panels", "reliability",
           "ReliabilityAxes", "gains", "lift"]


#: The models' colours: Okabe and Ito's colour-blind-safe palette without its bluish
#: green (``R_B_COLOR``, r_b's mark), its black (reference lines) and its yellow (too
#: light for a line on white). ``html/report.js`` draws the pages with the same.
PALETTE = ("#0072B2", "#E69F00", "#CC79A7", "#56B4E9", "#D55E00")
#: r_b's marks (lines, points): outside ``PALETTE``, so no model is mistaken for it.
R_B_COLOR = "#009E73"
_DASHES = ("-", "--", ":")
#: Below this share of the weight in the rarer class histograms count on a log axis by
#: default (at 10% the rarer class's bars are already a tenth of the other's height).
LOG_COUNTS_BELOW = 0.1


def log_counts(weight_pos: float, weight_neg: float) -> bool:
    """Whether a score histogram counts on a log axis by default: when the rarer class
    holds less than ``LOG_COUNTS_BELOW`` of the weight (the pages use it too)."""
    return bool(min(weight_pos, weight_neg) < LOG_COUNTS_BELOW * (weight_pos + weight_neg))


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


def _display_scale(values: np.ndarray) -> float:
    """1, or the power of ten dividing ``values`` (finite) into matplotlib's range."""
    top = float(np.max(np.abs(values))) if len(values) else 0.0
    return 1.0 if top <= MAX_COORD else 10.0 ** math.floor(math.log10(top))


def _scaled(label: str, scale: float) -> str:
    return label if scale == 1.0 else f"{label} (x {scale:.0e})"


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*args, **kwargs)


def _table(y_true: Any, y_score: Any, sample_weight: Any) -> ScoreTable:
    """The one sort every panel reads (or the table the caller already has)."""
    if isinstance(y_true, ScoreTable):
        # the table holds the scores and weights: anything passed beside it would be
        # silently ignored
        for value, name in ((y_score, "y_score"), (sample_weight, "sample_weight")):
            if value is not None:
                raise TypeError(f"{name} must be None when y_true is a ScoreTable (the "
                                f"table holds the scores and weights), got "
                                f"{type(value).__name__}.")
        return y_true
    return ScoreTable.from_arrays(y_true, y_score, sample_weight)


def _curve_axes(y_true: Any, y_score: Any, sample_weight: Any, ax: Any,
                max_points: Any) -> tuple[Any, Any, np.ndarray]:
    """The axes, the curves, and the indices of the points worth drawing."""
    ax = _check_ax(ax)
    max_points = _check_points(max_points)
    c = _quiet(_table(y_true, y_score, sample_weight).curves)
    return _axes(ax), c, thin(len(c), max_points)


def _report(y_true: Any, y_score: Any, sample_weight: Any) -> Any:
    return _quiet(_table(y_true, y_score, sample_weight).evaluate, (0.5,))


def _threshold_axis(thresholds: np.ndarray) -> tuple[float, str]:
    """The display scale of the thresholds drawn, and the axis label saying it."""
    scale = _display_scale(thresholds[np.isfinite(thresholds)])
    return scale, _scaled("threshold r", scale)


# --- several models on one Axes ---------------------------------------------------------

# gid prefix of the reference artists (chance line, base rate, band, r_b key): each is
# drawn once per Axes however many models are overlaid, and listed after the models
# in the legend
_DECOR = "indist_fast:"


class _Model(NamedTuple):
    """One curve to draw: its legend name (None: the single unnamed model of a call
    without ``label=``, whose legend shows only the statistic), its score table, and
    its color (None: the first ``PALETTE`` color not yet on the Axes)."""

    name: str | None
    table: ScoreTable
    color: Any


def _check_label(label: Any, name: str = "label",
                 what: str = "the model's name in the legend") -> str | None:
    if label is not None and not isinstance(label, str):
        raise TypeError(f"{name} must be a str ({what}) or None, got {label!r} "
                        f"({type(label).__name__}).")
    return label


def _check_color(color: Any, name: str = "color") -> Any:
    """None or a color matplotlib understands, refused before any figure opens (an
    unknown color would otherwise fail inside matplotlib, naming no argument)."""
    from matplotlib.colors import is_color_like
    if color is None or is_color_like(color):
        return color
    if isinstance(color, str):
        raise ValueError(f"{name} must be a matplotlib color ('tab:red', 'C1', '#1f77b4', "
                         f"...), got {color!r}.")
    raise TypeError(f"{name} must be a matplotlib color (a name such as 'tab:red', a hex "
                    f"string or an RGB(A) tuple in [0, 1]) or None, got {color!r} "
                    f"({type(color).__name__}).")


def _model_colors(color: Any, names: list[str]) -> list[Any]:
    """One color (or None) per named model, from ``color`` as passed with a mapping."""
    from matplotlib.colors import is_color_like
    if color is None:
        return [None] * len(names)
    if isinstance(color, Mapping):
        unknown = [k for k in color if k not in names]
        if unknown:
            raise ValueError(f"color names no model: {unknown!r}; the models are "
                             f"{names!r}.")
        return [_check_color(color.get(n), f"color[{n!r}]") for n in names]
    if is_color_like(color) or isinstance(color, str):
        if len(names) == 1:
            return [_check_color(color)]
        raise TypeError(f"color must be None, a mapping of model name to color, or a list "
                        f"of {len(names)} colors when {len(names)} models are drawn (one "
                        f"color for all would make them indistinguishable), got {color!r}.")
    if isinstance(color, (list, tuple)):
        if len(color) != len(names):
            raise ValueError(f"color must hold one color per model ({len(names)}), got "
                             f"{len(color)}.")
        return [_check_color(c, f"color[{k}]") for k, c in enumerate(color)]
    raise TypeError(f"color must be None, a mapping of model name to color, or a list of "
                    f"{len(names)} colors, got {color!r} ({type(color).__name__}).")


def _models(y_true: Any, y_score: Any, sample_weight: Any, label: Any,
            color: Any) -> list[_Model]:
    """The models of one call, every one checked and sorted before a figure opens.

    ``y_score`` a mapping of name to scores (labels and weights shared), ``y_true`` a
    mapping of name to ``ScoreTable``, or one model (``label`` names it).
    """
    for models, arg in ((y_score, "y_score"), (y_true, "y_true")):
        if not isinstance(models, Mapping):
            continue
        if label is not None:
            raise TypeError(f"label must be None when {arg} is a mapping: its keys name "
                            f"the models.")
        names = model_names(models, arg)
        colors = _model_colors(color, names)
        tables = []
        for name in names:
            try:
                if arg == "y_score":
                    tables.append(_table(y_true, models[name], sample_weight))
                elif not isinstance(models[name], ScoreTable) or y_score is not None \
                        or sample_weight is not None:
                    raise TypeError(f"must be a ScoreTable (with y_score and "
                                    f"sample_weight None) when y_true is a mapping, got "
                                    f"{type(models[name]).__name__}.")
                else:
                    tables.append(models[name])
            except (TypeError, ValueError) as exc:     # say which model, keep the message
                raise type(exc)(f"{arg}[{name!r}]: {exc}") from None
        return [_Model(n, t, c) for n, t, c in zip(names, tables, colors)]
    label = _check_label(label)
    color = _check_color(color)
    return [_Model(label, _table(y_true, y_score, sample_weight), color)]


def _named(model: _Model, statistic: str) -> str:
    return statistic if model.name is None else f"{model.name} ({statistic})"


def _has(ax: Any, key: str) -> bool:
    return any(a.get_gid() == _DECOR + key for a in ax.get_children())


def _mark_r_b(ax: Any, x: float, y: float, color: Any) -> None:
    """The operating point at r_b: ``R_B_COLOR`` ringed in the model's color; the
    legend gets one key for all of them (a key per model would repeat the models')."""
    ax.plot([x], [y], ls="none", marker="o", ms=7, mew=1.8, mfc=R_B_COLOR, mec=color,
            zorder=3, label="_nolegend_", gid=_DECOR + "r_b_point")
    if not _has(ax, "r_b"):
        ax.plot([], [], ls="none", marker="o", ms=7, mew=1.8, mfc=R_B_COLOR, mec="k",
                label="r_b (B = 1/2)", gid=_DECOR + "r_b")


def _styles(ax: Any, models: list[_Model]) -> list[tuple[Any, str]]:
    """(color, line style) per model: its own color, or the first ``PALETTE`` color
    no line on ``ax`` (nor another model of the call) has yet; once all five are
    taken, the palette again dashed, then dotted."""
    from matplotlib.colors import to_rgba
    lines = [ln for ln in ax.get_lines() if not str(ln.get_gid() or "").startswith(_DECOR)]
    taken = {to_rgba(ln.get_color()) for ln in lines}
    taken |= {to_rgba(m.color) for m in models if m.color is not None}
    free = [c for c in PALETTE if to_rgba(c) not in taken]
    out, k = [], len(lines)
    for m in models:
        if m.color is not None:
            out.append((m.color, "-"))
        elif free:
            out.append((free.pop(0), "-"))
        else:
            out.append((PALETTE[k % len(PALETTE)],
                        _DASHES[(k // len(PALETTE)) % len(_DASHES)]))
        k += 1
    return out


def _legend(ax: Any, **kwargs: Any) -> None:
    """The legend: models in drawing order, then the reference artists."""
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(handles)),
                   key=lambda k: str(handles[k].get_gid() or "").startswith(_DECOR))
    ax.legend([handles[k] for k in order], [labels[k] for k in order], **kwargs)


class _Drawn(NamedTuple):
    model: _Model
    curves: Any
    points: np.ndarray          # indices of the curve's points to draw
    report: Any


def _drawn(models: list[_Model], max_points: int, hull: bool = False) -> list[_Drawn]:
    """Each model's exact curves, the points to draw, and its report (read before the
    figure opens, so a bad model leaves no empty figure behind)."""
    out = []
    for m in models:
        c = _quiet(m.table.curves)
        keep = _quiet(hull_corners, m.table, c.thresholds) if hull else None
        out.append(_Drawn(m, c, thin(len(c), max_points, keep), _report(m.table, None, None)))
    return out


def _obstacles(ax: Any) -> np.ndarray:
    """The display boxes (x0, y0, x1, y1 rows) of the Axes' bars and lines; a vertical
    line (r_b) counts as a few pixels wide."""
    bars = np.array([(p.get_x(), p.get_y(), p.get_x() + p.get_width(),
                      p.get_y() + p.get_height()) for p in ax.patches if p.get_height() > 0]
                    ).reshape(-1, 4)
    # all corners through one transform (a patch's own window extent is slow)
    corners = ax.transData.transform(bars.reshape(-1, 2)).reshape(-1, 4)
    lines = [ln.get_window_extent().padded(3).extents for ln in ax.get_lines()
             if len(ln.get_xdata())]
    return np.vstack([corners, np.reshape(lines, (-1, 4))])


def _covered(box: Any, obstacles: np.ndarray) -> float:
    """The area of ``obstacles`` (display boxes) under ``box``."""
    w = np.minimum(box.x1, obstacles[:, 2]) - np.maximum(box.x0, obstacles[:, 0])
    h = np.minimum(box.y1, obstacles[:, 3]) - np.maximum(box.y0, obstacles[:, 1])
    return float(np.sum(np.clip(w, 0, None) * np.clip(h, 0, None)))


def _legend_clear(ax: Any, **kwargs: Any) -> None:
    """The legend of a histogram in the upper corner where it covers the least of the
    bars and lines drawn; when every corner would cover some, the count axis first
    grows until a band the legend's height above the tallest bar is free.
    (``loc="best"`` counts the bars a place covers, not their area, and settles on
    covering some when no place is free.)"""
    renderer = ax.figure.canvas.get_renderer()
    ax.get_xlim(), ax.get_ylim()      # settle the autoscaled limits the pixels below use
    leg = ax.legend(**kwargs)
    locs = ("upper right", "upper left", "upper center")

    def cover(loc: str, obstacles: np.ndarray) -> float:
        leg.set_loc(loc)
        return _covered(leg.get_window_extent(renderer), obstacles)

    obstacles = _obstacles(ax)
    heights = [p.get_y() + p.get_height() for p in ax.patches if p.get_height() > 0]
    if heights and min(cover(loc, obstacles) for loc in locs) > 0:
        # (in an Axes hardly taller than the legend, the bars keep a fifth of it)
        room = min(0.8, (leg.get_window_extent(renderer).height + 8) / ax.bbox.height)
        low, high = ax.get_ylim()
        tall = max(heights)
        if ax.get_yscale() == "log":
            top = 10 ** (math.log10(low) + (math.log10(tall) - math.log10(low)) / (1 - room))
        else:
            top = low + (tall - low) / (1 - room)
        ax.set_ylim(low, max(high, top))
        obstacles = _obstacles(ax)
    leg.set_loc(min(locs, key=lambda loc: cover(loc, obstacles)))


def scores_by_class(y_true: Any, y_score: Any = None, *, ax: Any = None, bins: int = 60,
                    sample_weight: Any = None, log: bool | None = None) -> Any:
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
    log : bool, default=None
        Counts on a log axis. None: log when the rarer class holds less than 10% of
        the weight, whose bars would otherwise be too short to see beside the
        other's; True or False chooses.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.scores_by_class(y, s, bins=10, log=True)
    >>> ax.get_xlabel(), ax.get_yscale()
    ('score', 'log')
    >>> plt.close(ax.figure)
    """
    ax = _check_ax(ax)
    bins = check_count(bins, "bins", maximum=MAX_BINS)
    if log is not None:
        log = check_flag(log, "log")
    table = _table(y_true, y_score, sample_weight)
    ax = _histogram(table, ax, bins, log)
    _legend_clear(ax, fontsize=8)
    return ax


def _histogram(table: ScoreTable, ax: Any, bins: int, log: bool | None) -> Any:
    """``scores_by_class`` but for the legend (checked arguments)."""
    if log is None:
        log = log_counts(table.weight_pos, table.weight_neg)
    report = _report(table, None, None)
    finite = np.isfinite(table.scores)
    scale = _display_scale(table.scores[finite])
    x = table.scores[finite] / scale
    edges = bin_edges(x, bins)
    ax = _axes(ax)
    # the table's weights per distinct score are the histogram's weights
    for counts, name, color in ((table.neg, "negatives", "tab:blue"),
                                (table.pos, "positives", "tab:red")):
        ax.hist(x, bins=edges, weights=counts[finite], alpha=0.55, color=color, label=name,
                log=log)
    if report.reached:
        ax.axvline(report.threshold / scale, color=R_B_COLOR, lw=1.8, ls="--",
                   label=f"r_b = {report.threshold:.3g} (C = {report.precision:.3f})")
    ax.set_xlabel(_scaled("score", scale))
    ax.set_ylabel(("weight" if table.pos.dtype.kind == "f" else "rows")
                  + (" (log scale)" if log else ""))
    return ax


def roc(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
        max_points: int = 2000, label: str | None = None, color: Any = None) -> Any:
    """ROC curves with their AUC and the operating point at r_b, one per model.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), ScoreTable, or mapping of str to ScoreTable
        Binary labels: bool, {0, 1}, {-1, 1}; or a ``ScoreTable`` (then
        ``y_score=None``); or a mapping of model name to ``ScoreTable``.
    y_score : array-like of shape (n_samples,), mapping of str to array-like, or None
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not. A
        mapping of model name to scores draws one curve per model.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None. Curves already there stay (overlay).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    max_points : int, default=2000
        At most this many points of each curve are drawn (at least 2), the corners
        of its convex hull first; the numbers behind them stay exact.
    label : str, optional
        The model's name in the legend (one model; a mapping's keys name its models).
    color : matplotlib color, mapping of str to color, or list of colors, optional
        The curve's color; with several models a mapping of name to color or one
        color per model. None takes the first ``PALETTE`` color not yet on ``ax``,
        so that repeated calls on one ``ax`` differ.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.roc(y, s)
    >>> ax.get_lines()[0].get_label()
    'AUC = 0.8889'
    >>> ax = plot.roc(y, {"a": s, "b": [0.3, 0.2, 0.6, 0.7, 0.1, 0.5]})
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['a (AUC = 0.8889)', 'b (AUC = 1.0000)', 'r_b (B = 1/2)', 'chance']
    >>> plt.close("all")
    """
    ax = _check_ax(ax)                  # before the sort, as every panel does
    max_points = _check_points(max_points)
    drawn = _drawn(_models(y_true, y_score, sample_weight, label, color), max_points,
                   hull=True)
    ax = _axes(ax)
    for (m, c, i, report), (color, ls) in zip(drawn, _styles(ax, [d.model for d in drawn])):
        line, = ax.plot(np.r_[0, c.fpr[i]], np.r_[0, c.tpr[i]], color=color, ls=ls,
                        label=_named(m, f"AUC = {report.auc:.4f}"))
        if report.reached:
            _mark_r_b(ax, report.fpr, report.tpr, line.get_color())
    if not _has(ax, "chance"):
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--", label="chance",
                gid=_DECOR + "chance")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    _legend(ax, fontsize=8, loc="lower right")
    return ax


def pr(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
       max_points: int = 2000, label: str | None = None, color: Any = None) -> Any:
    """Precision-recall curves with their average precision and the operating point
    at r_b, one per model.

    The curve is the step function average precision integrates (definitions page): precision
    ``C_j`` over the recall step ``(tpr_{j-1}, tpr_j]``, so the area under the line
    drawn is the average precision (before thinning). The dotted line is the base
    rate, the precision of a random ranking.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), ScoreTable, or mapping of str to ScoreTable
        Binary labels: bool, {0, 1}, {-1, 1}; or a ``ScoreTable`` (then
        ``y_score=None``); or a mapping of model name to ``ScoreTable``.
    y_score : array-like of shape (n_samples,), mapping of str to array-like, or None
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not. A
        mapping of model name to scores draws one curve per model.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None. Curves already there stay (overlay).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    max_points : int, default=2000
        At most this many points of each curve are drawn (at least 2), the corners
        of its ROC convex hull first; the numbers behind them stay exact.
    label : str, optional
        The model's name in the legend (one model; a mapping's keys name its models).
    color : matplotlib color, mapping of str to color, or list of colors, optional
        The curve's color; with several models a mapping of name to color or one
        color per model. None takes the first ``PALETTE`` color not yet on ``ax``,
        so that repeated calls on one ``ax`` differ.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.pr(y, s, label="model a")
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['model a (AP = 0.9167)', 'r_b (B = 1/2)', 'base rate 0.5']
    >>> plt.close(ax.figure)
    """
    ax = _check_ax(ax)
    max_points = _check_points(max_points)
    drawn = _drawn(_models(y_true, y_score, sample_weight, label, color), max_points,
                   hull=True)
    ax = _axes(ax)
    for (m, c, i, report), (color, ls) in zip(drawn, _styles(ax, [d.model for d in drawn])):
        # steps-pre: the value at point j holds over (recall_{j-1}, recall_j], as the
        # average precision sums it; recall 0 carries the first point's precision
        line, = ax.plot(np.r_[0, c.tpr[i]], np.r_[c.precision[i[0]], c.precision[i]],
                        drawstyle="steps-pre", color=color, ls=ls,
                        label=_named(m, f"AP = {report.average_precision:.4f}"))
        if report.reached:
            _mark_r_b(ax, report.tpr, report.precision, line.get_color())
    for base_rate in dict.fromkeys(d.report.base_rate for d in drawn):
        if not _has(ax, f"base_rate={base_rate!r}"):
            ax.axhline(base_rate, color="grey", lw=0.8, ls=":",
                       label=f"base rate {base_rate:.3g}", gid=_DECOR + f"base_rate={base_rate!r}")
    ax.set_xlabel("recall (true positive rate)")
    ax.set_ylabel("precision C")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    _legend(ax, fontsize=8, loc="best")
    return ax


def b_curve(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
            max_points: int = 2000, label: str | None = None, color: Any = None) -> Any:
    """B(r) against the threshold, with the 1/2 line and the 0.4-0.6 band, one curve
    per model.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), ScoreTable, or mapping of str to ScoreTable
        Binary labels: bool, {0, 1}, {-1, 1}; or a ``ScoreTable`` (then
        ``y_score=None``); or a mapping of model name to ``ScoreTable``.
    y_score : array-like of shape (n_samples,), mapping of str to array-like, or None
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not. A
        mapping of model name to scores draws one curve per model (their thresholds
        share one axis: compare models whose scores are on one scale).
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None. Curves already there stay (overlay).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    max_points : int, default=2000
        At most this many points of each curve are drawn (at least 2); the numbers
        behind them stay exact.
    label : str, optional
        The model's name in the legend (one model; a mapping's keys name its models).
    color : matplotlib color, mapping of str to color, or list of colors, optional
        The curve's color; with several models a mapping of name to color or one
        color per model. None takes the first ``PALETTE`` color not yet on ``ax``,
        so that repeated calls on one ``ax`` differ.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.b_curve(y, s)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('threshold r', 'B')
    >>> ax = plot.b_curve(y, s, label="model a", color="tab:green")
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['model a (C(r_b) = 0.750)', '0.4 - 0.6']
    >>> plt.close("all")
    """
    ax = _check_ax(ax)
    max_points = _check_points(max_points)
    drawn = _drawn(_models(y_true, y_score, sample_weight, label, color), max_points)
    # one threshold axis for every model of the call
    scale, xlabel = _threshold_axis(
        np.concatenate([d.curves.thresholds[d.points] for d in drawn]))
    ax = _axes(ax)
    if not _has(ax, "band"):
        ax.axhspan(0.4, 0.6, color="gold", alpha=0.25, label="0.4 - 0.6", gid=_DECOR + "band")
        ax.axhline(0.5, color="k", lw=0.8, gid=_DECOR + "half")
    for (m, c, i, report), (color, ls) in zip(drawn, _styles(ax, [d.model for d in drawn])):
        stat = f"C(r_b) = {report.precision:.3f}" if report.reached else "r_b not reached"
        ax.plot(c.thresholds[i] / scale, c.b[i], color=color, ls=ls,
                label="B(r)" if m.name is None else _named(m, stat))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("B")
    _legend(ax, fontsize=8)
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
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.c_tpr_fpr_vs_b(y, s)
    >>> ax.get_xlabel()
    'B'
    >>> plt.close(ax.figure)
    """
    ax, c, i = _curve_axes(y_true, y_score, sample_weight, ax, max_points)
    for values, name, color in zip((c.precision, c.tpr, c.fpr),
                                   ("C (precision)", "tpr", "fpr"), PALETTE):
        ax.plot(c.b[i], values[i], label=name, color=color)
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
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.b_split(y, s)
    >>> ax.get_xlabel()
    'threshold r'
    >>> plt.close(ax.figure)
    """
    ax, c, i = _curve_axes(y_true, y_score, sample_weight, ax, max_points)
    scale, label = _threshold_axis(c.thresholds[i])
    r = c.thresholds[i] / scale
    ax.plot(r, c.b_plus[i], label="B+", color=PALETTE[0])
    ax.plot(r, c.b_minus[i], label="B-", color=PALETTE[1])
    ax.plot(r, c.f1[i], ls="--", label="F1", color=PALETTE[2])
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
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> ax = plot.cost_curves(y, s)
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('cost proportion c', 'loss Q(c)')
    >>> plt.close(ax.figure)
    """
    from .metrics import threshold_choice as tc
    ax = _check_ax(ax)
    max_lines = check_count(max_lines, "max_lines")
    cc = tc.cost_curves(y_true, y_score, sample_weight=sample_weight)
    ax = _axes(ax)
    grid = np.linspace(0, 1, 201)
    for j in thin(len(cc.intercept), max_lines):
        ax.plot([0, 1], [cc.intercept[j], cc.intercept[j] + cc.slope[j]], color="lightgrey",
                lw=0.6)
    ax.plot(cc.envelope_c, cc.envelope_loss, color="k", lw=1.8, label="lower envelope")
    top = float(np.max(cc.envelope_loss, initial=0.0))
    if cc.brier is not None:                  # scores are probabilities
        brier = cc.brier(grid)
        ax.plot(grid, brier, color=PALETTE[1], label="Brier curve")
        top = max(top, float(np.max(brier)))
    ax.set_xlabel("cost proportion c")
    ax.set_ylabel("loss Q(c)")
    # the curves drawn, with room above them; the cost lines run beyond (up to 2) and
    # are cut at the top
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.15 * top if top > 0 else 1.0)
    ax.legend(fontsize=8, loc="upper right")
    return ax


def signal_curves(signal: Any, *, ax: Any = None) -> Any:
    """Resolving power: each metric of a ``SignalCurve`` against AUROC.

    Parameters
    ----------
    signal : SignalCurve
        From ``indist_fast.metrics.resolving_power.signal_curve``.
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
    >>> from indist_fast import plot
    >>> from indist_fast.metrics.resolving_power import Binormal, signal_curve
    >>> curve = signal_curve(Binormal.for_auc(0.8), prevalence=0.2)
    >>> ax = plot.signal_curves(curve)
    >>> ax.get_xlabel()
    'AUROC of the model'
    >>> plt.close(ax.figure)
    """
    from .metrics.resolving_power import SignalCurve
    if not isinstance(signal, SignalCurve):
        raise TypeError(f"signal must be a SignalCurve (from resolving_power.signal_curve), "
                        f"got {signal!r} ({type(signal).__name__}).")
    ax = _axes(_check_ax(ax))
    for k, (name, values) in enumerate(signal.values.items()):
        ax.plot(signal.auc, values, marker=".", label=name, color=PALETTE[k % len(PALETTE)],
                ls=_DASHES[(k // len(PALETTE)) % len(_DASHES)])
    ax.set_xlabel("AUROC of the model")
    ax.set_ylabel("metric")
    ax.legend(fontsize=8)
    return ax


def report_sheet(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                 title: str | None = None, log: bool | None = None) -> Any:
    """Seven panels for one model: scores, ROC, precision-recall, B(r) above; C/tpr/fpr
    vs B, B split and costs below. Every axis spans its data (the cost panel's losses
    with a margin), not a fixed 0 to 1.

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
        The sheet's title; by default the name of ``y_score`` when it has one (a
        pandas or polars Series: the score column), else none.
    log : bool, optional
        Count axis of the score histogram on a log scale; by default when the rarer
        class holds less than 10% of the weight (its bars would be hard to see).

    Returns
    -------
    matplotlib Figure
        The figure with its seven panels.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> fig = plot.report_sheet(y, s, title="demo")
    >>> len(fig.axes), fig.get_suptitle()
    (7, 'demo')
    >>> plt.close(fig)
    """
    plt = _plt()
    title = _check_label(title, "title", "the sheet's title")
    if title is None and isinstance(getattr(y_score, "name", None), str):
        title = y_score.name                   # a Series knows its score column
    if log is not None:
        log = check_flag(log, "log")
    table = _table(y_true, y_score, sample_weight)      # one sort for the six curve panels
    fig = plt.figure(figsize=(17, 8))
    # four panels above and three wider ones below, on a grid of twelve columns
    grid = fig.add_gridspec(2, 12)
    top = [fig.add_subplot(grid[0, 3 * k:3 * k + 3]) for k in range(4)]
    below = [fig.add_subplot(grid[1, 4 * k:4 * k + 4]) for k in range(3)]
    scores_by_class(table, ax=top[0], log=log)
    roc(table, ax=top[1])
    pr(table, ax=top[2])
    b_curve(table, ax=top[3])
    c_tpr_fpr_vs_b(table, ax=below[0])
    b_split(table, ax=below[1])
    cost_curves(y_true, y_score, ax=below[2], sample_weight=sample_weight)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    _legend_clear(top[0], fontsize=8)      # again: the layout resized the panel
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

    One legend above the panels serves them all, so none covers a histogram; a panel
    whose rarer class holds under 10% of the rows counts on a log axis (its title
    says so).

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
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> fig = plot.nine_panels({"demo": (y, s)})
    >>> len(fig.axes)
    9
    >>> plt.close(fig)
    """
    plt = _plt()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    tables = _panel_tables(sets)
    fig, axes = plt.subplots(3, 3, figsize=(12, 10), sharex=True)
    for ax, (name, table) in zip(axes.ravel(), tables):
        _histogram(table, ax, 50, None)      # one legend for all, above the panels
        r = _report(table, None, None)
        ax.set_title(f"({name}) AUC {r.auc:.3f}, C(r_b) {r.precision:.3f}"
                     + (" (log counts)" if ax.get_yscale() == "log" else ""), fontsize=10)
        ax.set_xlabel("")
        ax.set_ylabel("")
    for ax in axes.ravel()[len(tables):]:
        ax.set_visible(False)
    handles = [Patch(color="tab:blue", alpha=0.55, label="negatives"),
               Patch(color="tab:red", alpha=0.55, label="positives"),
               Line2D([], [], color=R_B_COLOR, lw=1.8, ls="--",
                      label="r_b, the indistinguishability threshold (B = 1/2)")]
    fig.legend(handles=handles, loc="upper center", ncol=3, fontsize=9, frameon=False)
    fig.supxlabel("score (logistic-regression log-odds)")
    fig.tight_layout(rect=(0, 0, 1, 0.965))     # the legend's strip stays free
    return fig


class ReliabilityAxes(NamedTuple):
    """The two panels of ``reliability``: the curve, and the histogram below it (None
    when drawn without one).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import indist_fast
    >>> from indist_fast import plot
    >>> cal = indist_fast.calibration([0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.7],
    ...                               n_bins=3)
    >>> curve, histogram = plot.reliability(cal, hist=False)
    >>> histogram is None, curve.get_xlabel()
    (True, 'mean predicted probability')
    >>> plt.close("all")
    """

    curve: Any
    histogram: Any


def _calibrations(calibration: Any, label: Any) -> list[tuple[str | None, Any]]:
    """``(name, Calibration)`` per model, checked before a figure opens."""
    from .results.calibration_record import Calibration
    if isinstance(calibration, Calibration):
        return [(_check_label(label), calibration)]
    if label is not None:
        raise TypeError("label must be None when several calibrations are drawn: name them "
                        "with a mapping of name to Calibration.")
    if isinstance(calibration, Mapping):
        items = [(str(k), v) for k, v in calibration.items()]
    elif isinstance(calibration, (list, tuple)):
        items = [(f"model {k + 1}", v) for k, v in enumerate(calibration)]
    else:
        items = [("", calibration)]
    if not items or any(not isinstance(v, Calibration) for _, v in items):
        raise TypeError("calibration must be a Calibration (indist_fast.calibration), or a "
                        "non-empty mapping of name to Calibration or list of them; got "
                        f"{type(calibration).__name__}"
                        + ("" if not items or isinstance(calibration, Calibration) else
                           " holding " + ", ".join(sorted({type(v).__name__
                                                          for _, v in items}))) + ".")
    return items


def reliability(calibration: Any, *, ax: Any = None, hist_ax: Any = None,
                hist: bool = True, label: str | None = None) -> ReliabilityAxes:
    """The reliability diagram of one or several models: the share of positives
    against the mean predicted probability in each non-empty bin (markers joined),
    the diagonal of perfect calibration, and below it a histogram of the predicted
    probabilities (each bin's share of the weight) on its own axes, sharing x.

    Parameters
    ----------
    calibration : Calibration, mapping of str to Calibration, or list of Calibration
        What ``indist_fast.calibration`` (or ``ScoreTable.calibration``) returned; a
        mapping's keys name its models in the legend.
    ax : matplotlib Axes, optional
        Where to draw the curve; a new figure (curve above, histogram below) when None.
        Curves already there stay (overlay).
    hist_ax : matplotlib Axes, optional
        Where to draw the histogram; with ``ax`` given and ``hist_ax`` None, an axes
        is added below ``ax``.
    hist : bool, default=True
        Draw the histogram.
    label : str, optional
        The model's name in the legend (one Calibration).

    Returns
    -------
    ReliabilityAxes
        ``curve`` and ``histogram`` (None without one), matplotlib Axes.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import indist_fast
    >>> from indist_fast import plot
    >>> y, p = [0, 0, 1, 0, 1, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0]
    >>> axes = plot.reliability(indist_fast.calibration(y, p, n_bins=3), label="model")
    >>> [t.get_text() for t in axes.curve.get_legend().get_texts()]
    ['model (ECE = 0.094)', 'perfectly calibrated']
    >>> plt.close("all")
    """
    ax = _check_ax(ax)
    hist_ax = _check_ax(hist_ax)
    hist = check_flag(hist, "hist")
    models = _calibrations(calibration, label)
    plt = _plt()
    new = ax is None
    if new:
        if hist:
            fig, (ax, hist_ax) = plt.subplots(
                2, 1, figsize=(5, 5.5), sharex=True, gridspec_kw={"height_ratios": (3, 1)})
        else:
            ax = _axes(None)
    elif hist and hist_ax is None:
        from mpl_toolkits.axes_grid1 import make_axes_locatable
        hist_ax = make_axes_locatable(ax).append_axes("bottom", size="33%", pad=0.1,
                                                      sharex=ax)
    drawn = len([ln for ln in ax.get_lines()
                 if not str(ln.get_gid() or "").startswith(_DECOR)])
    for k, (name, cal) in enumerate(models, start=drawn):
        color, ls = PALETTE[k % len(PALETTE)], _DASHES[(k // len(PALETTE)) % len(_DASHES)]
        statistic = f"ECE = {cal.ece:.3f}"
        ax.plot(cal.prob_pred, cal.prob_true, color=color, ls=ls, marker="o", ms=4,
                label=f"{name} ({statistic})" if name else statistic)
        if hist:
            share = np.zeros(cal.n_bins)
            share[cal.bin] = cal.weight / cal.weight.sum()
            hist_ax.stairs(share, cal.edges, color=color, ls=ls, lw=1.4)
    if not _has(ax, "diagonal"):
        ax.plot([0, 1], [0, 1], color="k", lw=0.8, ls="--", label="perfectly calibrated",
                gid=_DECOR + "diagonal")
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel("share of positives")
    _legend(ax, fontsize=8, loc="upper left")
    if hist:
        hist_ax.set_ylabel("share of weight")
        hist_ax.set_xlabel("mean predicted probability")
        ax.tick_params(labelbottom=False)
        ax.set_xlabel("")
    else:
        ax.set_xlabel("mean predicted probability")
    if new:
        ax.figure.tight_layout()
    return ReliabilityAxes(ax, hist_ax if hist else None)



# --- gains and lift charts (from GainsTable records) ---------------------------------------

def _gains_records(tables: Any, label: Any, color: Any
                   ) -> list[tuple[_Model, Any]]:
    """Each record of a call with its model (name, color), checked before a figure
    opens: one ``GainsTable`` (``label`` names it) or a mapping of name to one."""
    from .results.gains_table import GainsTable

    def checked(record: Any, where: str) -> Any:
        if not isinstance(record, GainsTable):
            raise TypeError(f"{where} must be a GainsTable (from indist_fast.gains or "
                            f"ScoreTable.gains), got {type(record).__name__}.")
        return record
    if isinstance(tables, Mapping):
        if label is not None:
            raise TypeError("label must be None when tables is a mapping: its keys name "
                            "the models.")
        keys = model_names(tables, "tables")
        names: list[str | None] = list(keys)
        colors = _model_colors(color, keys)
        records = [checked(tables[n], f"tables[{n!r}]") for n in keys]
    else:
        names, colors = [_check_label(label)], [_check_color(color)]
        records = [checked(tables, "tables")]
    # (the line styles read a model's name and color only: no score table is drawn)
    return [(_Model(n, ScoreTable.empty(), c), r) for n, c, r in zip(names, colors, records)]


def gains(tables: Any, *, ax: Any = None, label: str | None = None,
          color: Any = None) -> Any:
    """Cumulative gains chart: the share of positives captured against the share of
    rows targeted, highest scores first, with the random diagonal and the perfect
    model.

    Each bin of the gains table is a point (``cumulative_share``,
    ``cumulative_capture``), joined from (0, 0). A random ranking captures positives
    in proportion (the diagonal); a perfect one captures them all in the first
    ``base_rate`` of the rows.

    Parameters
    ----------
    tables : GainsTable or mapping of str to GainsTable
        From ``indist_fast.gains`` (or ``ScoreTable.gains``); a mapping draws one curve
        per model, named by its keys.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None. Curves already there stay (overlay).
    label : str, optional
        The model's name in the legend (one record).
    color : matplotlib color, mapping of str to color, or list of colors, optional
        The curve's color; with several models a mapping of name to color or one
        color per model. None takes the first ``PALETTE`` color not yet on ``ax``.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import indist_fast
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.7, 0.3]
    >>> ax = plot.gains({"a": indist_fast.gains(y, s, n_bins=4),
    ...                  "b": indist_fast.gains(y, s[::-1], n_bins=4)})
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['a', 'b', 'perfect model', 'random']
    >>> plt.close("all")
    """
    ax = _check_ax(ax)
    drawn = _gains_records(tables, label, color)
    ax = _axes(ax)
    for ((m, g), (c, ls)) in zip(drawn, _styles(ax, [m for m, _ in drawn])):
        ax.plot(np.r_[0.0, g["cumulative_share"]], np.r_[0.0, g["cumulative_capture"]],
                color=c, ls=ls, marker="o", ms=3, label=m.name or "model")
        key = f"perfect:{g.base_rate:.12g}"
        if not _has(ax, key):
            ax.plot([0.0, g.base_rate, 1.0], [0.0, 1.0, 1.0], color="0.35", lw=0.9,
                    ls=":", gid=_DECOR + key,
                    label="_nolegend_" if _has_perfect(ax) else "perfect model")
    if not _has(ax, "random"):
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--", label="random",
                gid=_DECOR + "random")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("share of rows targeted (highest scores first)")
    ax.set_ylabel("share of positives captured")
    _legend(ax, fontsize=8, loc="lower right")
    return ax


def _has_perfect(ax: Any) -> bool:
    return any(str(a.get_gid() or "").startswith(_DECOR + "perfect:")
               and not str(a.get_label()).startswith("_") for a in ax.get_lines())


def lift(tables: Any, *, ax: Any = None, cumulative: bool = True, label: str | None = None,
         color: Any = None) -> Any:
    """Lift chart: how many times the base rate the targeted rows' positive rate is,
    against the share of rows targeted, highest scores first.

    Parameters
    ----------
    tables : GainsTable or mapping of str to GainsTable
        From ``indist_fast.gains`` (or ``ScoreTable.gains``); a mapping draws one curve
        per model, named by its keys.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None. Curves already there stay (overlay).
    cumulative : bool, default=True
        The cumulative lift of all rows down to each bin (``cumulative_lift``), at the
        bin's ``cumulative_share``; False: each bin's own lift (``lift``), as a step
        over the bin's span of rows.
    label : str, optional
        The model's name in the legend (one record).
    color : matplotlib color, mapping of str to color, or list of colors, optional
        As in ``gains``.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import indist_fast
    >>> from indist_fast import plot
    >>> y, s = [0, 0, 1, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.7, 0.3]
    >>> ax = plot.lift(indist_fast.gains(y, s, n_bins=4), label="model")
    >>> ax.get_lines()[0].get_ydata().tolist()
    [2.0, 1.5, 1.3333333333333333, 1.0]
    >>> plt.close("all")
    """
    ax = _check_ax(ax)
    cumulative = check_flag(cumulative, "cumulative")
    drawn = _gains_records(tables, label, color)
    ax = _axes(ax)
    top = 1.0
    for ((m, g), (c, ls)) in zip(drawn, _styles(ax, [m for m, _ in drawn])):
        name = m.name or "model"
        if cumulative:
            y = g["cumulative_lift"]
            ax.plot(g["cumulative_share"], y, color=c, ls=ls, marker="o", ms=3, label=name)
        else:
            y = g["lift"]
            edges = np.r_[0.0, g["cumulative_share"]]
            ax.stairs(y, edges, color=c, ls=ls, lw=1.5, label=name)
        top = max(top, float(np.nanmax(y)))
    if not _has(ax, "random"):
        ax.axhline(1.0, color="grey", lw=0.8, ls="--", label="random (lift 1)",
                   gid=_DECOR + "random")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, max(ax.get_ylim()[1], 1.08 * top))
    ax.set_xlabel("share of rows targeted (highest scores first)")
    ax.set_ylabel("cumulative lift" if cumulative else "lift of the bin")
    _legend(ax, fontsize=8, loc="upper right")
    return ax
