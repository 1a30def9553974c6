"""The reliability diagram of ``Calibration`` records, with the histogram of the
predicted probabilities below."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from .._core.validation import check_flag
from ._drawing import (_axes, _check_ax, _check_label, _DASHES, _DECOR, _has, _legend, PALETTE,
                       _plt)


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
    from ..results.calibration_record import Calibration
    if isinstance(calibration, Calibration):
        return [(_check_label(label), calibration)]
    if label is not None:
        raise TypeError("label must be None when several calibrations are drawn: name them "
                        "with a mapping of name to Calibration.")
    items: list[tuple[str | None, Any]]
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
