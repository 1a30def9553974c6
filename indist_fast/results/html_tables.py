"""HTML tables of results: the cells of the report page and the notebooks'
``_repr_html_``. Each number is one cell carrying ``data-metric`` (the library's field
name) and ``data-value`` (the full value); the text shows it rounded.

It imports nothing of the library but ``values`` (text of segment values): the
result classes call it lazily, and the pages (``indist_fast.html``) build on it."""

from __future__ import annotations

import html
import math
from typing import Any, Iterable, Sequence

import numpy as np

from .values import value_text

__all__ = ["esc", "number_text", "cell", "table_html", "report_html_table", "intervals_table",
           "report_table_html", "differences_table"]


def esc(value: Any) -> str:
    """Text safe in HTML content and in quoted attributes."""
    return html.escape(str(value), quote=True)


def number_text(value: Any, digits: int = 4) -> str:
    """``value`` as the pages show it: integers with separators, floats to ``digits``
    decimals (scientific when very large or small), NaN as n/a."""
    if value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isnan(v):
            return "n/a"
        if math.isinf(v):
            return "\u221e" if v > 0 else "\u2212\u221e"
        if v.is_integer() and abs(v) < 1e15:
            return f"{int(v):,}"
        if v != 0 and (abs(v) >= 1e6 or abs(v) < 1e-4):
            return f"{v:.3e}"
        return f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return str(value)


def _value_attr(value: Any) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value) + 0.0       # -0.0 as 0.0: the backends may keep either sign
        # as JavaScript's String(x) writes it, so a page and a notebook read alike
        return "NaN" if math.isnan(v) else ("Infinity" if v == math.inf else
                                            "-Infinity" if v == -math.inf else repr(v))
    return str(value)


def cell(metric: str, value: Any, tag: str = "td") -> str:
    """One table cell showing ``value`` and carrying its field name and full value."""
    return (f'<{tag} data-metric="{esc(metric)}" data-value="{esc(_value_attr(value))}">'
            f"{esc(number_text(value))}</{tag}>")


def table_html(header: Sequence[str], rows: Iterable[Sequence[str]], cls: str = "metrics",
               table_id: str | None = None, caption: str | None = None) -> str:
    """A table from header texts and rows of ready cells."""
    ident = f' id="{esc(table_id)}"' if table_id else ""
    parts = [f'<table class="{cls}"{ident}>']
    if caption:
        parts.append(f"<caption>{esc(caption)}</caption>")
    parts.append("<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header)
                 + "</tr></thead><tbody>")
    parts += ["<tr>" + "".join(r) + "</tr>" for r in rows]
    parts.append("</tbody></table>")
    return "".join(parts)


_SUMMARY = (("n_rows", "rows"), ("weight_pos", "positives"), ("weight_neg", "negatives"),
            ("base_rate", "base rate"), ("auc", "AUC"), ("average_precision", "AP"),
            ("threshold", "r_b"), ("b", "B(r_b)"), ("precision", "C(r_b)"),
            ("lift", "lift"), ("tpr", "tpr"), ("fpr", "fpr"), ("f1", "F1"))


def report_html_table(reports: Sequence[tuple[str | None, Any]], table_id: str | None = None
                      ) -> str:
    """One row per ``(model name, Report)``: the summary fields, each followed by its
    bootstrap interval (cells ``<metric>_low`` and ``<metric>_high``) when a report
    has them."""
    ivs = {m for _, r in reports if r.intervals for m in r.intervals}
    named = any(n is not None for n, _ in reports)
    header = (["model"] if named else []) + [h for _, h in _SUMMARY]
    for m in [f for f, _ in _SUMMARY if f in ivs]:
        at = header.index(dict(_SUMMARY)[m]) + 1
        header.insert(at, "interval")
    rows = []
    for name, r in reports:
        row = [f'<th data-model="{esc(name)}">{esc(name)}</th>'] if named else []
        for field, _ in _SUMMARY:
            row.append(cell(field, getattr(r, field)))
            if field in ivs:
                iv = (r.intervals or {}).get(field)
                low, high = (iv.low, iv.high) if iv else (math.nan, math.nan)
                row.append(f'<td class="interval">{cell(f"{field}_low", low, "span")} '
                           f'\u2013 {cell(f"{field}_high", high, "span")}</td>')
        rows.append(row)
    return table_html(header, rows, table_id=table_id)


def levels_table(report: Any) -> str:
    """The operating point of every level of ``B`` in a report."""
    fields = ("threshold", "b", "precision", "lift", "tpr", "fpr", "f1")
    rows = []
    for level, p in sorted(report.at.items()):
        rows.append([cell("level", level, "th")] + [cell(f, getattr(p, f)) for f in fields])
    return table_html(["level", "threshold r", "B", "precision C", "lift", "tpr", "fpr", "F1"],
                      rows)


def intervals_table(intervals: Any, caption: str | None = None) -> str:
    """Estimate, standard error and interval of each metric (replicates left out)."""
    rows = [[f"<th>{esc(iv.metric)}</th>", cell("estimate", iv.estimate),
             cell("std_error", iv.std_error), cell("low", iv.low), cell("high", iv.high),
             cell("n_undefined", iv.n_undefined)] for iv in intervals.values()]
    return table_html(["metric", "estimate", "std error", "low", "high", "undefined"], rows,
                      caption=caption)


def _p_cell(p: float, bound: bool) -> str:
    """A p-value cell; an upper bound shows as ``< p`` (``< 1e-300`` for an underflow)
    and says so in ``data-bound``."""
    if not bound:
        return cell("p_value", p)
    shown = "1e-300" if p == 0.0 else number_text(p)
    return (f'<td data-metric="p_value" data-value="{esc(_value_attr(p))}" '
            f'data-bound="true">&lt; {esc(shown)}</td>')


def differences_table(differences: Any, caption: str | None = None) -> str:
    """One row per metric of a comparison: both estimates, the difference, its
    interval and p-value."""
    rows = [[f"<th>{esc(d.metric)}</th>", cell("estimate_a", d.estimate_a),
             cell("estimate_b", d.estimate_b), cell("estimate", d.estimate),
             cell("low", d.low), cell("high", d.high), _p_cell(d.p_value, d.p_is_bound),
             f"<td>{esc(d.method)}</td>"] for d in differences.values()]
    return table_html(["metric", "a", "b", "a - b", "low", "high", "p-value", "method"],
                      rows, caption=caption)


_TABLE_SHOWN = ("n_rows", "auc", "auc_low", "auc_high", "average_precision", "threshold",
                "precision", "lift", "reached")


def report_table_html(table: Any, max_rows: int | None = 20, sortable: bool = False,
                      table_id: str | None = None) -> str:
    """A ``ReportTable``'s segment columns, model and main metrics; at most
    ``max_rows`` rows (the first and last halves), all when None."""
    names = list(table.by) + ["model"] + [n for n in _TABLE_SHOWN if n in table.columns]
    n = len(table)
    rows_idx: list[int] = list(range(n))
    caption = None
    if max_rows is not None and n > max_rows:
        if sortable:      # a gap row would be sorted with the others: the first rows
            rows_idx = rows_idx[:max_rows]
            caption = f"the first {max_rows:,} of {n:,} rows"
        else:
            half = max(1, max_rows // 2)
            rows_idx = rows_idx[:half] + [-1] + rows_idx[-half:]
    rows = []
    for i in rows_idx:
        if i < 0:
            rows.append([f'<td colspan="{len(names)}">\u2026 {n - 2 * half:,} more rows '
                         "\u2026</td>"])
            continue
        row = []
        for name in names:
            v = table.columns[name][i]
            if name in table.by or name == "model":
                text = "(all)" if v is None else value_text(v)
                row.append(f'<th data-metric="{esc(name)}" data-value="{esc(text)}">'
                           f"{esc(text)}</th>")
            else:
                row.append(cell(name, v.item() if hasattr(v, "item") else v))
        rows.append(row)
    return table_html(names, rows, cls="segments" if sortable else "metrics",
                      table_id=table_id, caption=caption)
