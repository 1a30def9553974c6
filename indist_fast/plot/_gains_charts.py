"""Cumulative gains and lift charts of ``GainsTable`` records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._core.validation import check_flag
from ..metrics.curve_points import model_names
from ..table.score_table import ScoreTable
from ._drawing import (_axes, _check_ax, _check_color, _check_label, _DECOR, _has, _legend,
                       _Model, _model_colors, _styles)


def _gains_records(tables: Any, label: Any, color: Any
                   ) -> list[tuple[_Model, Any]]:
    """Each record of a call with its model (name, color), checked before a figure
    opens: one ``GainsTable`` (``label`` names it) or a mapping of name to one."""
    from ..results.gains_table import GainsTable

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
