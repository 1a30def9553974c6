"""Shared drawing: the palette, the checks of ``ax``/labels/colours, the models of one
``Axes`` and their legend, the tables the figures read."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from .._core.validation import check_count
from ..errors import IndistFastWarning
from ..metrics.curve_points import (hull_corners, MAX_COORD, model_names, thin)
from ..table.score_table import ScoreTable


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
