"""Figures of several panels: the report sheet of one model, the nine panels of the
paper's data sets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any



from .._core.validation import check_flag
from ..table.score_table import ScoreTable
from ._drawing import (_check_label, _legend_clear, _plt, R_B_COLOR, _report, _table)
from ._curve_figures import (b_curve, b_split, c_tpr_fpr_vs_b, cost_curves, _histogram, pr,
                             roc, scores_by_class)


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
