"""The report page's "Over time" panel, for a table by period (``over_time``): the
metrics per period with their bands, the drifted periods ringed, and the report of the
period clicked (``time_panel.js`` draws it)."""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np

from ..results.html_tables import esc
from ..results.values import value_text
from .page import table_box

__all__ = ["is_over_time", "time_section"]

# The numbers of a period's report the panel shows: (data-metric, heading).
_FIELDS = (("n_rows", "rows"), ("base_rate", "base rate"), ("auc", "AUC"),
           ("auc_interval", "AUC interval"), ("average_precision", "average precision"),
           ("threshold", "r_b"), ("precision", "C(r_b)"),
           ("precision_interval", "C(r_b) interval"), ("lift", "lift"),
           ("auc_p_value", "AUC drift p-value"), ("precision_p_value", "C(r_b) drift p-value"))


def is_over_time(table: Any) -> bool:
    """Whether a ``ReportTable`` is by period alone, as ``over_time`` gives it."""
    return tuple(table.by) == ("period",) and len(set(table.columns["model"].tolist())) == 1


def _plain(values: Any) -> list[Any]:
    return [None if v is None or (isinstance(v, float) and np.isnan(v)) else v
            for v in np.asarray(values, dtype=np.float64).tolist()]


def _band(table: Any, metric: str) -> tuple[list[Any], list[Any]] | None:
    cols = table.columns
    if f"{metric}_low" in cols:
        return _plain(cols[f"{metric}_low"]), _plain(cols[f"{metric}_high"])
    if metric == "auc" and "auc_std_error" in cols:
        z = NormalDist().inv_cdf(0.5 + (table.confidence or 0.95) / 2)
        return (_plain(np.clip(cols["auc"] - z * cols["auc_std_error"], 0, 1)),
                _plain(np.clip(cols["auc"] + z * cols["auc_std_error"], 0, 1)))
    return None


def time_section(table: Any) -> tuple[str, dict[str, Any]]:
    """The panel's markup and the data ``time_panel.js`` reads (``IF_DATA.over_time``)."""
    cols = table.columns
    labels = [value_text(v) for v in cols["period"]]
    drift = table.drift
    data: dict[str, Any] = {
        "periods": labels,
        **{name: _plain(cols[name]) for name in ("n_rows", "base_rate", "auc",
                                                 "average_precision", "threshold",
                                                 "precision", "lift")},
        "auc_band": _band(table, "auc"), "precision_band": _band(table, "precision"),
        "drift_auc": [bool(v) for v in cols.get("drift_auc", np.zeros(len(labels), bool))],
        "drift_precision": [bool(v) for v in cols.get("drift_precision",
                                                      np.zeros(len(labels), bool))],
        "auc_p_value": _plain(drift.auc_p_value) if drift is not None else None,
        "precision_p_value": _plain(drift.precision_p_value) if drift is not None else None,
        "reference": ([] if drift is None
                      else np.flatnonzero(drift.in_reference).tolist()),
    }
    if drift is None:
        note = ("No drift tests: they need every row in memory (over_time, or "
                "evaluate_file(time=) within its memory limit, one score, no other segment).")
    else:
        ref = (" to ".join(map(value_text, drift.reference))
               if isinstance(drift.reference, tuple) else value_text(drift.reference))
        note = (f"Ringed: periods that differ from the reference ({ref}, shaded) at level "
                f"{drift.alpha:g}. AUC: {drift.tests['auc']}. C(r_b): "
                f"{drift.tests['precision']}.")
    bands = ("bootstrap percentile intervals" if "auc_low" in cols
             else "DeLong's normal interval of the AUC")
    options = "".join(f'<option value="{k}">{esc(t)}</option>' for k, t in enumerate(labels))
    rows = "".join(f'<tr><th>{esc(head)}</th><td data-metric="{name}"></td></tr>'
                   for name, head in _FIELDS)
    html = (
        '<h2>Over time</h2>\n'
        f'<p class="small">AUC (blue) and C(r_b) (orange) per period, bands: {bands}. '
        'Click a period on '
        'the chart (or choose it) to see its report.</p>\n'
        '<div class="controls"><label>period <select id="period">'
        f'{options}</select></label></div>\n'
        '<div class="row"><div class="panel" id="panel-time"></div>\n'
        + table_box(f'<table class="metrics" id="period_report">{rows}</table>')
        + '</div>\n'
        f'<p class="small" id="drift_note">{esc(note)}</p>\n')
    return html, data
