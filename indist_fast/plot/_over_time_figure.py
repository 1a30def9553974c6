"""Metrics over time (``over_time``'s table): a line per metric with its band, the
periods that drifted from the reference marked."""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np

from ._drawing import _axes, _check_ax, _DECOR, _legend, PALETTE

#: The metrics ``over_time`` can draw (all on the probability scale) and their names.
_METRICS = {"auc": "AUC", "precision": "C(r_b)", "average_precision": "average precision",
            "base_rate": "base rate"}
_DRIFT_COLOR = "#D55E00"


def _check_table(table: Any) -> Any:
    from ..results.report_table import ReportTable
    if not isinstance(table, ReportTable) or "period" not in table.by:
        raise TypeError("table must be the ReportTable of indist_fast.over_time (or of "
                        "evaluate_file(time=...)), got "
                        + (f"a ReportTable by {list(table.by)}" if isinstance(table, ReportTable)
                           else type(table).__name__) + ".")
    if table.by != ("period",) or len(set(table.columns["model"].tolist())) > 1:
        raise ValueError("table: one model by period alone is drawn; select one model's "
                         "rows of one segment (over_time on them).")
    return table


def _check_metrics(metrics: Any) -> tuple[str, ...]:
    names = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    unknown = [m for m in names if m not in _METRICS]
    if not names or unknown:
        raise ValueError(f"metrics: choose among {', '.join(_METRICS)}; got "
                         f"{unknown[0] if unknown else 'none'}.")
    return names


def _band(table: Any, metric: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The metric's interval per period: the bootstrap's when the table has it, else
    for the AUC DeLong's normal interval at the table's confidence (0.95 without one)."""
    cols = table.columns
    if f"{metric}_low" in cols:
        return cols[f"{metric}_low"], cols[f"{metric}_high"]
    if metric == "auc" and "auc_std_error" in cols:
        z = NormalDist().inv_cdf(0.5 + (table.confidence or 0.95) / 2)
        return (np.clip(cols["auc"] - z * cols["auc_std_error"], 0, 1),
                np.clip(cols["auc"] + z * cols["auc_std_error"], 0, 1))
    return None


def _plain_time(value: Any) -> Any:
    """A period's start as matplotlib draws it (a ``datetime``, or seconds)."""
    if isinstance(value, np.datetime64):
        return value.astype("datetime64[s]").astype("O")
    return value


def over_time(table: Any, *, metrics: Any = ("auc", "precision"), ax: Any = None,
              bands: bool = True) -> Any:
    """Metrics per period, from ``indist_fast.over_time``'s table: a line per metric,
    its interval as a band, and the periods the drift tests flagged ringed (AUC and
    ``C(r_b)`` each by its own test), the reference period as a dotted line.

    Parameters
    ----------
    table : ReportTable
        What ``indist_fast.over_time`` (or ``evaluate_file(time=...)``) returned.
    metrics : str or sequence of str, default=("auc", "precision")
        Among ``"auc"``, ``"precision"`` (``C(r_b)``), ``"average_precision"``,
        ``"base_rate"``.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when None.
    bands : bool, default=True
        Draw the intervals: the bootstrap's (``n_boot``), and for the AUC without them
        DeLong's normal interval.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np, indist_fast
    >>> from indist_fast import plot
    >>> rng = np.random.default_rng(0)
    >>> t = np.repeat(np.arange("2024-05-01", "2024-05-06", dtype="datetime64[D]"), 300)
    >>> y = rng.integers(0, 2, len(t))
    >>> s = y * np.where(t < np.datetime64("2024-05-04"), 1.5, 0.3) + rng.normal(size=len(t))
    >>> ax = plot.over_time(indist_fast.over_time(y, s, t))
    >>> [text.get_text() for text in ax.get_legend().get_texts()][:3]
    ['AUC', 'C(r_b)', 'drift flagged']
    >>> plt.close("all")
    """
    ax = _check_ax(ax)
    table = _check_table(table)
    names = _check_metrics(metrics)
    from .._core.validation import check_flag
    bands = check_flag(bands, "bands")
    ax = _axes(ax)
    cols = table.columns
    x = cols["period"]
    if x.dtype.kind == "M":
        x = np.array([_plain_time(v) for v in x])          # matplotlib's dates
    drift = table.drift
    flags = {"auc": "drift_auc", "precision": "drift_precision"}
    flagged_any = False
    for k, metric in enumerate(names):
        color = PALETTE[k % len(PALETTE)]
        ax.plot(x, cols[metric], color=color, marker="o", ms=3, lw=1.4,
                label=_METRICS[metric])
        band = _band(table, metric) if bands else None
        if band is not None:
            ax.fill_between(x, band[0], band[1], color=color, alpha=0.18, lw=0)
        if metric in flags and flags[metric] in cols:
            hit = np.asarray(cols[flags[metric]], dtype=bool)
            if hit.any():
                flagged_any = True
                ax.plot(np.asarray(x)[hit], cols[metric][hit], ls="none", marker="o", ms=10,
                        mfc="none", mec=_DRIFT_COLOR, mew=1.8, gid=_DECOR + "drift_point",
                        label="_nolegend_")
    if flagged_any:
        ax.plot([], [], ls="none", marker="o", ms=10, mfc="none", mec=_DRIFT_COLOR, mew=1.8,
                label="drift flagged", gid=_DECOR + "drift")
    if drift is not None:
        ref = drift.reference
        if isinstance(ref, tuple):          # several periods: their span, shaded
            ax.axvspan(_plain_time(ref[0]), _plain_time(ref[1]), color="k", alpha=0.07,
                       lw=0, label="reference periods", gid=_DECOR + "reference")
        else:
            ax.axvline(_plain_time(ref), color="k", lw=0.8, ls=":", label="reference period",
                       gid=_DECOR + "reference")
    ax.set_xlabel("period")
    ax.set_ylabel("metric")
    if cols["period"].dtype.kind == "M":
        ax.figure.autofmt_xdate()
    _legend(ax, fontsize=8, loc="best")
    return ax
