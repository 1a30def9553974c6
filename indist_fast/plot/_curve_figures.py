"""One panel each: scores by class, ROC, precision-recall, B(r), C/tpr/fpr against
B, the B split, cost curves and signal curves."""

from __future__ import annotations

from typing import Any

import numpy as np

from collections.abc import Mapping

from .._core.validation import check_count, check_flag, check_seed
from ..inference.bootstrap import check_bootstrap_settings
from ..inference.roc_bands import ci_bands
from ..metrics.curve_points import (bin_edges, MAX_BINS, thin)
from ..table.score_table import ScoreTable
from ._drawing import (_axes, _check_ax, _check_points, _curve_axes, _DASHES, _DECOR,
                       _display_scale, _drawn, _has, _legend, _legend_clear, log_counts,
                       _mark_r_b, _models, _named, PALETTE, R_B_COLOR, _report, _scaled,
                       _styles, _table, _threshold_axis)


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
        max_points: int = 2000, label: str | None = None, color: Any = None,
        band: bool = False, n_boot: int = 2000, confidence: float = 0.95,
        seed: Any = 0) -> Any:
    """ROC curves with their AUC and the operating point at r_b, one per model; with
    ``band=True``, each shaded with a bootstrap band of its sensitivity (pROC's
    ``plot(ci.se(...), type="shape")``).

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
    band : bool, default=False
        Shade each curve's ``confidence`` band: the percentile interval of the
        sensitivity at 101 specificities (0, 0.01, ..., 1) over ``n_boot``
        replicates (``ci_bands``; stratified). Needs labels and scores (it resamples
        rows), not score tables.
    n_boot, confidence, seed
        The band's replicates, coverage and seed (as ``ci_bands``); read only with
        ``band=True``.

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
    >>> ax = plot.roc(y, s, band=True, n_boot=50)
    >>> len(ax.collections) > 0
    True
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
    band = check_flag(band, "band")
    if band:
        n_boot, confidence = check_bootstrap_settings(n_boot, confidence)
        check_seed(seed)
        if y_score is None or isinstance(y_true, (ScoreTable, Mapping)):
            raise TypeError("band=True needs labels and scores (the band resamples "
                            "rows), not score tables.")
    drawn = _drawn(_models(y_true, y_score, sample_weight, label, color), max_points,
                   hull=True)
    ax = _axes(ax)
    scores = list(y_score.values()) if isinstance(y_score, Mapping) else [y_score]
    for k, ((m, c, i, report), (color, ls)) in enumerate(
            zip(drawn, _styles(ax, [d.model for d in drawn]))):
        line, = ax.plot(np.r_[0, c.fpr[i]], np.r_[0, c.tpr[i]], color=color, ls=ls,
                        label=_named(m, f"AUC = {report.auc:.4f}"))
        if band:
            _shade_band(ax, y_true, scores[k], sample_weight, n_boot, confidence, seed,
                        line.get_color(), _named(m, f"{confidence:.0%} band"))
        if report.reached:
            _mark_r_b(ax, report.fpr, report.tpr, line.get_color())
    if not _has(ax, "chance"):
        ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--", label="chance",
                gid=_DECOR + "chance")
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    _legend(ax, fontsize=8, loc="lower right")
    return ax


def _shade_band(ax: Any, y_true: Any, y_score: Any, sample_weight: Any, n_boot: int,
                confidence: float, seed: Any, color: Any, label: str) -> None:
    """One model's sensitivity band over 101 specificities, in its curve's colour."""
    grid = np.linspace(0.0, 1.0, 101)
    se = ci_bands(y_true, y_score, specificities=grid, n_boot=n_boot, confidence=confidence,
                  seed=seed, sample_weight=sample_weight, progress=False).sensitivity
    assert se is not None
    ax.fill_between(1.0 - grid, se.low, se.high, color=color, alpha=0.2, lw=0, label=label)


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
    from ..metrics import threshold_choice as tc
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
    from ..metrics.resolving_power import SignalCurve
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
