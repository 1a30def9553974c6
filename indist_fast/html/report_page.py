"""The evaluation report page: summary, score histograms, ROC, PR, B(r), cost curves,
a threshold slider over exact operating points, several models and a segment table."""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, overload

import numpy as np

from .._core.validation import check_count, check_flag
from ..errors import IndistFastWarning
from ..inference.bootstrap import check_resampling
from ..metrics.curve_points import MAX_BINS, bin_edges, hull_corners, model_names, thin
from ..metrics.evaluation import evaluate
from ..metrics.confusion_counts import point_fields, Points, all_points, rows_and_table
from ..results.report import Report
from ..plot import log_counts
from ..table.score_table import ScoreTable
from .page import check_path, deliver, esc, page, table_box
from ..results.calibration_record import Calibration
from .time_panel import is_over_time, time_section
from ..results.html_tables import cell, report_html_table, report_table_html, table_html

__all__ = ["report_html", "segment_page", "segment_section", "MAX_POINTS", "MAX_SEGMENT_ROWS"]

#: The most operating points a page carries per model (each point is about 300 bytes).
MAX_POINTS = 20_000
_POINT_FIELDS = ("tp", "fp", "tn", "fn", "tpr", "fpr", "tnr", "fnr", "precision", "npv",
                 "accuracy", "balanced_accuracy", "f1")
_COST_GRID = 201
#: The most segment rows a page lists (the first ones; the page says how many of how many).
MAX_SEGMENT_ROWS = 5_000
#: Uniform bins of the calibration panel (scikit-learn's ``calibration_curve`` default).
CALIBRATION_BINS = 10
_CALIBRATION_FIELDS = (("ece", "ECE"), ("mce", "MCE"), ("brier", "Brier"),
                       ("log_loss", "log loss"), ("slope", "slope"),
                       ("intercept", "intercept"))


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a second reading of data whose warnings the report already gave."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        return fn(*args, **kwargs)


def _lists(values: Mapping[str, Any]) -> dict[str, list[Any]]:
    # + 0.0 writes -0.0 as 0.0: the backends may keep either sign for a zero score
    return {k: (np.asarray(v, dtype=np.float64) + 0.0).tolist() for k, v in values.items()}


def _histogram(points: Points, bins: int) -> dict[str, list[Any]]:
    """Positive and negative weight in equal bins over the finite scores, as
    ``numpy.histogram`` bins them (the last bin closed); infinite scores count in the
    end bins. Read off the running sums at the edges (the scores are sorted), not
    binned row by row."""
    scores = points.table.scores
    top = int(np.searchsorted(-scores, -np.inf, side="right"))      # +inf groups
    bottom = int(np.searchsorted(-scores, np.inf, side="left"))     # above -inf
    finite = scores[top:bottom]
    edges = bin_edges(finite if len(finite) else np.zeros(1), bins)
    # groups at or above each inner edge; all of them below the first bin's top edge
    k = np.r_[len(scores), np.searchsorted(-scores, -edges[1:-1], side="right"), 0]
    return _lists({"edges": edges, "pos": points.tp[k[:-1]] - points.tp[k[1:]],
                   "neg": points.fp[k[:-1]] - points.fp[k[1:]]})


def _cost_envelope(fpr: np.ndarray, tpr: np.ndarray, base_rate: float
                   ) -> dict[str, list[Any]]:
    """The lower envelope of the cost lines ``Q(c) = 2 [c pi1 (1 - tpr) + (1 - c) pi0
    fpr]`` of the hull's points (Hernandez-Orallo, Flach and Ferri's cost curves), on
    an even grid of cost proportions ``c``."""
    c = np.linspace(0.0, 1.0, _COST_GRID)[:, None]
    f, t = np.r_[0.0, fpr, 1.0], np.r_[0.0, tpr, 1.0]
    loss = 2.0 * (c * base_rate * (1.0 - t) + (1.0 - c) * (1.0 - base_rate) * f)
    return _lists({"c": c[:, 0], "loss": loss.min(axis=1)})


def _model_data(name: str, table: ScoreTable, report: Report, exclude_self: bool,
                max_points: int, bins: int) -> dict[str, Any]:
    # Only the points drawn are computed (a 1e7-row table has 1e7 of them): operating
    # point j of the table (threshold scores[j]) is confusion's point k = j + 1.
    thresholds = table.scores
    hull = _quiet(hull_corners, table, thresholds)
    crossings = [float(p.threshold) for p in report.at.values() if p.reached]
    if report.reached:
        crossings.append(report.threshold)
    at_levels = np.searchsorted(-thresholds, -np.asarray(crossings, dtype=np.float64))
    keep = np.union1d(hull, at_levels).astype(np.int64)
    idx = thin(len(thresholds), max_points, keep)
    points_of = _quiet(all_points, table, exclude_self)
    fields = point_fields(points_of, idx + 1)      # exactly as ``confusion`` reads them
    corners = point_fields(points_of, hull + 1, with_b=False)
    points = _lists({"threshold": thresholds[idx],
                     **{f: fields[f] for f in _POINT_FIELDS}, "b": fields["b"]})
    rb = int(np.searchsorted(idx, at_levels[-1])) if report.reached else -1
    return {"name": name, "n_points": len(thresholds), "points": points, "rb_index": rb,
            "base_rate": report.base_rate, "auc": report.auc,
            "threshold": report.threshold + 0.0, "precision": report.precision,
            "hull": _lists({"fpr": np.r_[0.0, corners["fpr"]],
                            "tpr": np.r_[0.0, corners["tpr"]]}),
            "hist": _histogram(points_of, bins),
            "cost": _cost_envelope(corners["fpr"], corners["tpr"], report.base_rate)}


def _calibration(table: ScoreTable) -> tuple[Calibration | None, str]:
    """The calibration of a model whose scores all lie in [0, 1] (``CALIBRATION_BINS``
    uniform bins), or None and why not: other scores are not probabilities."""
    s = table.scores
    if not (len(s) and s[-1] >= 0.0 and s[0] <= 1.0):
        return None, (f"the scores run from {float(s[-1]):.4g} to {float(s[0]):.4g}, "
                      "and a probability lies in [0, 1]")
    try:
        return _quiet(table.calibration, CALIBRATION_BINS), ""
    except ImportError:         # the Hosmer-Lemeshow p-value needs scipy; the page does not
        return None, "the calibration numbers need scipy (pip install scipy)"


def _calibration_data(cal: Calibration | None) -> dict[str, list[Any]] | None:
    if cal is None:
        return None
    return _lists({"prob_pred": cal.prob_pred, "prob_true": cal.prob_true,
                   "weight": cal.weight})


def _calibration_section(models: list[tuple[str, Calibration | None, str]],
                         named: bool) -> str:
    """The calibration panel's heading, numbers and notes: a row per model whose scores
    are probabilities, a note naming the others and why they have none."""
    rows = [([f"<th>{esc(name)}</th>"] if named else [])
            + [cell(f, getattr(cal, f)) for f, _ in _CALIBRATION_FIELDS]
            for name, cal, _ in models if cal is not None]
    others = [f"{name + ': ' if named else ''}{why}"
              for name, cal, why in models if cal is None]
    note = ("" if not others else
            '<p class="small" id="calibration_note">No calibration where the scores are '
            f"not probabilities: {esc('; '.join(others))}.</p>\n")
    if not rows:
        return "<h2>Calibration</h2>\n" + note
    header = (["model"] if named else []) + [h for _, h in _CALIBRATION_FIELDS]
    return (
        "<h2>Calibration</h2>\n<div class=\"row\">\n"
        '<div class="panel" id="panel-calibration"></div>\n'
        + table_box(table_html(header, rows, table_id="calibration")) + "\n</div>\n"
        + note + f'<p class="small">The scores read as probabilities, in '
        f"{CALIBRATION_BINS} equal-width bins (empty bins left out): the share of positives "
        "against the mean predicted probability; on the diagonal they agree. ECE: the "
        "bins' weighted mean gap, MCE: the largest; slope and intercept of the logistic "
        "recalibration line (1 and 0 when calibrated; NaN when the scores separate the "
        "classes). See indist_fast.calibration.</p>")


def _models(y_score: Any) -> dict[str, Any]:
    if isinstance(y_score, Mapping):
        return {name: y_score[name] for name in model_names(y_score, "y_score")}
    return {"model": y_score}


_BODY = """<h1>{title}</h1>
<p class="lead">{subtitle}</p>
<h2>Summary</h2>
{summary}
<p class="small">r_b is the indistinguishability threshold (the highest threshold where B, the
chance that a positive outscores a row of the labelled set, is at least 1/2; Sumpter),
C(r_b) the precision there, lift = C(r_b) / base rate.{boot_note}</p>
<h2>At a threshold</h2>
<div class="controls">
<label>model <select id="model">{options}</select></label>
<label>threshold (operating point) <input type="range" id="threshold" name="threshold"></label>
<label>or type a threshold <input type="number" id="threshold_value" name="threshold_value"
step="any"></label>
<span>predict positive where score &ge; <b data-metric="threshold"></b></span>
</div>
<p class="small" id="threshold_note" role="status"></p>
<p class="small" id="thinning"></p>
<div class="row" id="current">
<div class="table-box"><table class="cm" id="confusion">
<tr><th></th><th>predicted positive</th><th>predicted negative</th></tr>
<tr><th>actual positive</th><td class="good">tp <span data-metric="tp"></span></td>
<td class="bad">fn <span data-metric="fn"></span></td></tr>
<tr><th>actual negative</th><td class="bad">fp <span data-metric="fp"></span></td>
<td class="good">tn <span data-metric="tn"></span></td></tr>
</table></div>
<div class="table-box"><table class="metrics" id="rates">
<tr><th>tpr</th><td data-metric="tpr"></td><th>tnr</th><td data-metric="tnr"></td></tr>
<tr><th>fpr</th><td data-metric="fpr"></td><th>fnr</th><td data-metric="fnr"></td></tr>
<tr><th>precision</th><td data-metric="precision"></td><th>npv</th><td data-metric="npv"></td></tr>
<tr><th>accuracy</th><td data-metric="accuracy"></td><th>balanced accuracy</th><td data-metric="balanced_accuracy"></td></tr>
<tr><th>F1</th><td data-metric="f1"></td><th>B</th><td data-metric="b"></td></tr>
</table></div>
</div>
<h2>Curves</h2>
<div class="legend" id="legend"></div>
<div class="controls"><label><span><input type="checkbox" id="logcount"{log_checked}> log
counts in the histogram</span></label></div>
<div class="panels">
<div class="panel" id="panel-hist"></div>
<div class="panel" id="panel-roc"></div>
<div class="panel" id="panel-pr"></div>
<div class="panel" id="panel-b"></div>
<div class="panel" id="panel-cost"></div>
</div>
<p class="small">Black dot and line: the slider's operating point (of the model chosen above).
Dashed grey on the ROC: its convex hull; on B(r): B = 1/2 and the 0.4 to 0.6 band. Green
(a colour no model takes): r_b, its dots ringed in their model's colour. Cost curves: the loss
2[c pi1 (1 - tpr) + (1 - c) pi0 fpr] of the best hull point for each cost proportion c, and
the slider point's own line.</p>
{calibration}
{over_time}
{segments}"""


@overload
def report_html(y_true: Any, y_score: Any = ..., *, sample_weight: Any = ...,
                pos_label: Any = ..., groups: Any = ..., segments: Any = ...,
                n_boot: int | None = ..., seed: Any = ..., confidence: float = ...,
                exclude_self: bool = ..., title: str | None = ..., max_points: int = ...,
                bins: int = ..., log: bool | None = ..., progress: bool | None = ...,
                path: None = ...) -> str: ...


@overload
def report_html(y_true: Any, y_score: Any = ..., *, sample_weight: Any = ...,
                pos_label: Any = ..., groups: Any = ..., segments: Any = ...,
                n_boot: int | None = ..., seed: Any = ..., confidence: float = ...,
                exclude_self: bool = ..., title: str | None = ..., max_points: int = ...,
                bins: int = ..., log: bool | None = ..., progress: bool | None = ...,
                path: str | os.PathLike[str]) -> Path: ...


def report_html(y_true: Any, y_score: Any = None, *, sample_weight: Any = None,
                pos_label: Any = None, groups: Any = None, segments: Any = None,
                n_boot: int | None = None,
                seed: Any = 0, confidence: float = 0.95, exclude_self: bool = True,
                title: str | None = None, max_points: int = 2000, bins: int = 60,
                log: bool | None = None, progress: bool | None = None,
                path: Any = None) -> str | Path:
    """The interactive evaluation report as one self-contained HTML page.

    Shows the summary (AUC, average precision, r_b, C(r_b), lift, with bootstrap
    intervals when ``n_boot`` is given), score histograms by class (with a log-count
    switch), the ROC curve with its convex hull, the precision-recall curve, B(r) with
    the 1/2 line and the 0.4 - 0.6 band, cost curves, and a threshold slider
    (``id="threshold"``) over exact operating points showing the confusion counts and
    rates there (the values of ``indist_fast.confusion`` at that threshold). Several
    models are overlaid when ``y_score`` maps names to scores; ``groups`` adds a
    sortable table of the segments (``indist_fast.evaluate_many``).

    Curves are thinned for drawing to at most ``max_points`` operating points per
    model, keeping every corner of the ROC convex hull and the operating points of
    levels 0.4, 0.5 (r_b) and 0.6 exact; the slider moves over that same set of exact
    points (the page says how many of how many).

    Beside the slider a number box (``id="threshold_value"``) takes a typed threshold
    ``t`` and moves the slider to the operating point with the lowest threshold at or
    above ``t`` (``t`` itself when it is one), so the rows predicted positive are
    those scoring at or above ``t``: exactly ``indist_fast.confusion(y_true, y_score,
    t)``'s when every operating point is on the page, else the nearest drawn point's
    (the page says which). A ``t`` above every score selects the highest threshold
    (the page says so); one below every score, the lowest (every row positive). Text
    that is not a number moves nothing.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,), or a mapping of str to such arrays
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not. A
        mapping overlays several models (its keys name them).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    groups : array-like, or a sequence of array-likes, default=None
        Segment columns for the segment table (as in ``evaluate_many``).
    segments : ReportTable, default=None
        A segment table already computed (``evaluate_many``, ``evaluate_file`` with
        ``by``), shown instead; not together with ``groups``. A table by period alone
        (``indist_fast.over_time``, ``evaluate_file(time=...)``) adds the "Over time"
        panel: AUC and C(r_b) per period with their bands, the periods the drift tests
        flagged ringed, and the report of the period clicked.
    n_boot : int, default=None
        Bootstrap replicates for the summary's intervals (see ``indist_fast.evaluate``).
    seed : int, sequence of int, SeedSequence or None, default=0
        Seed of the bootstrap replicates: the same page on every call; None draws fresh
        entropy from the operating system.
    confidence : float, default=0.95
        Nominal coverage of the intervals.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    title : str, default=None
        The page's heading.
    max_points : int, default=2000
        Operating points per model drawn and offered to the slider (2 to 20,000).
    bins : int, default=60
        Histogram bins.
    log : bool, default=None
        Whether the histogram's count axis starts on a log scale (the page's checkbox
        switches it). None: log when the rarer class holds less than 10% of the
        weight, whose bars would be too short to see on a linear axis.
    progress : bool, default=None
        A bar over the bootstrap replicates (with ``n_boot``): by default on a terminal
        or in Jupyter only; False silences it.
    path : str or os.PathLike, default=None
        Write the page there (a file name in an existing folder); None only returns it.

    Returns
    -------
    str or pathlib.Path
        The page's HTML; with ``path``, the page is written there and ``path`` comes
        back as a ``pathlib.Path``.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.html import report_html
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> text = report_html(y, rng.normal(size=500) + y)
    >>> 'id="threshold"' in text and 'data-metric="auc"' in text
    True
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = report_html(y, rng.normal(size=500) + y,
    ...                           path=os.path.join(folder, "report.html"))
    ...     written.name, written.stat().st_size > 10_000
    ('report.html', True)
    """
    path = check_path(path)
    if log is not None:
        log = check_flag(log, "log")
    max_points = check_count(max_points, "max_points", minimum=2, maximum=MAX_POINTS)
    bins = check_count(bins, "bins", minimum=1, maximum=MAX_BINS)
    exclude_self = check_flag(exclude_self, "exclude_self")
    n_boot, seed, confidence, progress = check_resampling(n_boot, seed, confidence, progress)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str or None, got {type(title).__name__}.")
    if segments is not None:
        from ..results.report_table import ReportTable
        if not isinstance(segments, ReportTable):
            raise TypeError(f"segments must be a ReportTable or None, got "
                            f"{type(segments).__name__}.")
        if groups is not None:
            raise TypeError("segments and groups are two sources of one segment table: "
                            "pass one of them.")
    models = _models(y_score)
    data = []
    reports: list[tuple[str | None, Report]] = []
    calibrated: list[tuple[str, Calibration | None, str]] = []
    for name, scores in models.items():
        label = "y_score" if not isinstance(y_score, Mapping) else f"y_score[{name!r}]"
        rows, table = rows_and_table(y_true, scores, sample_weight, pos_label, label)
        if n_boot is None:
            report = table.evaluate(exclude_self=exclude_self)
        else:       # the bootstrap resamples rows: it reads them again
            report = evaluate(y_true, scores, sample_weight=sample_weight,
                              pos_label=pos_label, exclude_self=exclude_self,
                              n_boot=n_boot, seed=seed, confidence=confidence,
                              progress=progress)
        reports.append((name if isinstance(y_score, Mapping) else None, report))
        data.append(_model_data(name, table, report, exclude_self, max_points, bins))
        calibrated.append((name, *_calibration(table)))
        data[-1]["calibration"] = _calibration_data(calibrated[-1][1])
    if groups is not None:
        from ..metrics.segments import evaluate_many
        segments = _quiet(evaluate_many, y_true, models if isinstance(y_score, Mapping)
                          else y_score, groups=groups, sample_weight=sample_weight,
                          pos_label=pos_label, exclude_self=exclude_self)
    time_html, time_data = "", None
    if segments is not None and is_over_time(segments):
        time_html, time_data = time_section(segments)
    n_rows = reports[0][1].n_rows
    boot = reports[0][1].intervals
    boot_note = "" if not boot else (
        f" Intervals: {confidence:.0%} percentile bootstrap, "
        f"{len(next(iter(boot.values())).replicates):,} stratified replicates.")
    body = _BODY.format(
        title=esc(title or "Evaluation report"),
        subtitle=esc(f"{n_rows:,} rows, {len(models)} model{'s' if len(models) > 1 else ''}"
                     f"; made by indist_fast"),
        summary=table_box(report_html_table(reports, table_id="summary")), boot_note=boot_note,
        options="".join(f'<option value="{k}">{esc(n)}</option>'
                        for k, n in enumerate(models)),
        log_checked=" checked" if log or (log is None and log_counts(
            reports[0][1].weight_pos, reports[0][1].weight_neg)) else "",
        calibration=_calibration_section(calibrated, isinstance(y_score, Mapping)),
        over_time=time_html,
        segments="" if segments is None else segment_section(segments))
    text = page(title or "indist_fast: evaluation report", body,
                {"models": data, "max_points": max_points,
                 **({} if time_data is None else {"over_time": time_data})},
                ("report.js", "sort.js") + (() if time_data is None else ("time_panel.js",)))
    return deliver(text, path)


def segment_section(table: Any) -> str:
    """The sortable segment table of a ``ReportTable`` (click a heading to sort)."""
    return ("<h2>Segments</h2>\n<p class=\"small\">Click a column heading to sort.</p>\n"
            + table_box(report_table_html(table, max_rows=MAX_SEGMENT_ROWS, sortable=True,
                                          table_id="segments")))


@overload
def segment_page(table: Any, path: None = ..., *, title: str | None = ...) -> str: ...


@overload
def segment_page(table: Any, path: str | os.PathLike[str], *,
                 title: str | None = ...) -> Path: ...


def segment_page(table: Any, path: Any = None, *, title: str | None = None) -> str | Path:
    """A ``ReportTable`` as a self-contained HTML page with sortable columns.

    Parameters
    ----------
    table : ReportTable
        The table (``evaluate_many``, ``evaluate_file`` with ``by``).
    path : str or os.PathLike, default=None
        Write the page there (a file name in an existing folder); None only returns it.
    title : str, default=None
        The page's heading.

    Returns
    -------
    str or pathlib.Path
        The page's HTML (no network needed; opens from ``file://``); with ``path``,
        the page is written there and ``path`` comes back as a ``pathlib.Path``.

    Examples
    --------
    >>> import indist_fast
    >>> from indist_fast.html import segment_page
    >>> t = indist_fast.evaluate_many([0, 1, 1, 0], [.1, .9, .8, .3], groups=[1, 1, 2, 2])
    >>> 'data-metric="auc"' in segment_page(t)
    True
    """
    from ..results.report_table import ReportTable
    if not isinstance(table, ReportTable):
        raise TypeError(f"table must be a ReportTable, got {type(table).__name__}.")
    path = check_path(path)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str or None, got {type(title).__name__}.")
    heading = title or "Segment report"
    text = page(heading, f"<h1>{esc(heading)}</h1>\n{segment_section(table)}", {},
                ("sort.js",))
    return deliver(text, path)
