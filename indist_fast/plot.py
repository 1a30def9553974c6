"""The paper's figures for your scores (matplotlib, an optional dependency).

Every function draws on ``ax`` (a new figure when None) and returns the ``Axes``;
``report_sheet`` and ``nine_panels`` return the ``Figure``. Each takes labels and
scores, or a ``ScoreTable`` in their place (``y_score=None``), which is how the sheet
sorts once for all its panels. Long curves are thinned to at most ``max_points``
points for drawing; the numbers behind them stay exact.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .errors import IndistFastWarning
from .table import ScoreTable

__all__ = ["scores_by_class", "roc", "b_curve", "c_tpr_fpr_vs_b", "b_split", "cost_curves",
           "signal_curves", "report_sheet", "nine_panels"]


def _plt() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'indist-fast[plot]'") from None
    return plt


def _ax(ax: Any) -> Any:
    return _plt().subplots(figsize=(5, 4))[1] if ax is None else ax


def _thin(n: int, max_points: int) -> np.ndarray:
    return np.unique(np.linspace(0, n - 1, min(n, max_points)).astype(np.int64))


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
                max_points: int) -> tuple[Any, Any, np.ndarray]:
    """The axes, the curves, and the indices of the points worth drawing."""
    c = _quiet(_table(y_true, y_score, sample_weight).curves)
    return _ax(ax), c, _thin(len(c), max_points)


def _report(y_true: Any, y_score: Any, sample_weight: Any) -> Any:
    return _quiet(_table(y_true, y_score, sample_weight).evaluate, (0.5,))


def scores_by_class(y_true: Any, y_score: Any = None, *, ax: Any = None, bins: int = 60,
                    sample_weight: Any = None) -> Any:
    """Score histograms of positives and negatives with the r_b line."""
    ax = _ax(ax)
    table = _table(y_true, y_score, sample_weight)
    s = table.scores
    finite = np.isfinite(s)
    edges = np.histogram_bin_edges(s[finite], bins=bins)
    # the table's weights per distinct score are the histogram's weights
    for counts, name, color in ((table.neg, "negatives", "tab:blue"),
                                (table.pos, "positives", "tab:red")):
        ax.hist(s[finite], bins=edges, weights=counts[finite], alpha=0.55, color=color,
                label=name)
    report = _report(table, None, None)
    if report.reached:
        ax.axvline(report.threshold, color="k", lw=1.5,
                   label=f"r_b = {report.threshold:.3g} (C = {report.precision:.3f})")
    ax.set_xlabel("score")
    ax.set_ylabel("weight" if table.pos.dtype.kind == "f" else "rows")
    ax.legend(fontsize=8)
    return ax


def roc(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
        max_points: int = 2000) -> Any:
    """The ROC curve with its AUC and the operating point at r_b."""
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
    """B(r) against the threshold, with the 1/2 line and the 0.4-0.6 band."""
    ax, c, i = _curve_axes(y_true, y_score, sample_weight, ax, max_points)
    ax.axhspan(0.4, 0.6, color="gold", alpha=0.25, label="0.4 - 0.6")
    ax.axhline(0.5, color="k", lw=0.8)
    ax.plot(c.thresholds[i], c.b[i], color="tab:green", label="B(r)")
    ax.set_xlabel("threshold r")
    ax.set_ylabel("B")
    ax.legend(fontsize=8)
    return ax


def c_tpr_fpr_vs_b(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
                   max_points: int = 2000) -> Any:
    """Precision C, tpr and fpr against B (read C(r_b) at B = 1/2)."""
    ax, c, i = _curve_axes(y_true, y_score, sample_weight, ax, max_points)
    for values, name in ((c.precision, "C (precision)"), (c.tpr, "tpr"), (c.fpr, "fpr")):
        ax.plot(c.b[i], values[i], label=name)
    ax.axvline(0.5, color="k", lw=0.8)
    ax.set_xlabel("B")
    ax.legend(fontsize=8)
    return ax


def b_split(y_true: Any, y_score: Any = None, *, ax: Any = None, sample_weight: Any = None,
            max_points: int = 2000) -> Any:
    """B+ (labelled copy positive) and B- against the threshold, with F1."""
    ax, c, i = _curve_axes(y_true, y_score, sample_weight, ax, max_points)
    ax.plot(c.thresholds[i], c.b_plus[i], label="B+")
    ax.plot(c.thresholds[i], c.b_minus[i], label="B-")
    ax.plot(c.thresholds[i], c.f1[i], ls="--", label="F1")
    ax.set_xlabel("threshold r")
    ax.legend(fontsize=8)
    return ax


def cost_curves(y_true: Any, y_score: Any, *, ax: Any = None, sample_weight: Any = None,
                max_lines: int = 60) -> Any:
    """Cost lines of the operating points, their lower envelope, and the Brier curve
    when the scores are probabilities."""
    from . import threshold_choice as tc
    ax = _ax(ax)
    cc = tc.cost_curves(y_true, y_score, sample_weight=sample_weight)
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
    """Resolving power: each metric of a ``SignalCurve`` against AUROC."""
    ax = _ax(ax)
    for name, values in signal.values.items():
        ax.plot(signal.auc, values, marker=".", label=name)
    ax.set_xlabel("AUROC of the model")
    ax.set_ylabel("metric")
    ax.legend(fontsize=8)
    return ax


def report_sheet(y_true: Any, y_score: Any, *, sample_weight: Any = None,
                 title: str | None = None) -> Any:
    """Six panels for one model: scores, ROC, B(r), C/tpr/fpr vs B, B split, costs."""
    plt = _plt()
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5))
    table = _table(y_true, y_score, sample_weight)      # one sort for five panels
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


def nine_panels(sets: dict[str, tuple[Any, Any]]) -> Any:
    """The paper's nine examples: score distributions with r_b, AUC and C(r_b)."""
    plt = _plt()
    fig, axes = plt.subplots(3, 3, figsize=(12, 10), sharex=True)
    for ax, (name, (y, s)) in zip(axes.ravel(), sets.items()):
        table = ScoreTable.from_arrays(y, s)
        scores_by_class(table, ax=ax, bins=50)
        r = _report(table, None, None)
        ax.set_title(f"({name}) AUC {r.auc:.3f}, C(r_b) {r.precision:.3f}", fontsize=10)
        ax.set_xlabel("")
        ax.set_ylabel("")
    fig.supxlabel("score (logistic-regression log-odds)")
    fig.tight_layout()
    return fig
