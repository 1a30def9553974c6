"""``evaluate --plot``: the report sheet of one model, or the ROC, precision-recall and
B(r) panels with every model overlaid, one row of panels per segment."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..table.score_table import ScoreTable
from .file_rows import FileRows

#: Rows of panels (segments) one figure holds; more would make a figure nobody reads.
MAX_SEGMENTS = 8


def segment_text(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items()) if values else "all rows"


def evaluate_figure(args: argparse.Namespace, rows: FileRows) -> Any:
    """The figure of ``evaluate --plot``: with one score and no ``--by`` the six-panel
    report sheet; otherwise a row of ROC, precision-recall and B(r) panels (models
    overlaid) per segment, the rows over all of them first with ``--total``, at most
    ``MAX_SEGMENTS`` rows (the first in the table's order, said on stderr and in the
    title). The labels are read with ``--pos-label``."""
    from ..plot import report_sheet
    names = list(rows.scores)
    title = f"{', '.join(names)} ({args.file})"
    if len(names) == 1 and not args.by:
        return report_sheet(rows.positive, rows.scores[names[0]], sample_weight=rows.weight,
                            title=title)
    panels = rows.segments()
    if args.by and args.total:
        panels.insert(0, ({}, rows))
    if len(panels) > MAX_SEGMENTS:
        print(f"--plot: {len(panels)} segments; the figure draws the first {MAX_SEGMENTS} "
              "(in the table's order). To draw others, evaluate a part of the file (a "
              "file or folder of it, or a --by column with fewer values).", file=sys.stderr)
        title += f"; the first {MAX_SEGMENTS} of {len(panels)} segments"
        panels = panels[:MAX_SEGMENTS]
    return _segment_panels(panels, names, title)


def over_time_figure(args: argparse.Namespace, table: Any) -> Any:
    """The figure of ``evaluate --time --plot``: the metrics per period with their bands
    and drift marks (``plot.over_time``), from the table already computed."""
    import matplotlib.pyplot as plt
    from ..plot import over_time
    fig, ax = plt.subplots(figsize=(10, 5))
    over_time(table, ax=ax)
    ax.set_title(f"{', '.join(args.score)} over time ({args.file})")
    fig.tight_layout()
    return fig


def _segment_panels(panels: list[tuple[dict[str, Any], FileRows]], names: list[str],
                    title: str) -> Any:
    import matplotlib.pyplot as plt
    from ..plot import b_curve, pr, roc
    from ..results.report import count_text
    height = 0.7 + 3.5 * len(panels)
    fig, axes = plt.subplots(len(panels), 3, figsize=(14, height), squeeze=False)
    for (values, seg), (ax_roc, ax_pr, ax_b) in zip(panels, axes):
        pos, neg = seg.class_weights()
        what = (f"{segment_text(values)}: {seg.n_rows:,} rows, "
                f"{count_text(pos)} positive")
        ax_roc.set_title(what, fontsize=10, loc="left", fontweight="bold")
        if not (pos > 0 and neg > 0):
            for ax in (ax_roc, ax_pr, ax_b):
                ax.text(0.5, 0.5, "one class: no curve", ha="center", va="center",
                        transform=ax.transAxes)
                ax.set_xticks([])
                ax.set_yticks([])
            continue
        # one sort per model and segment, read by the three panels
        tables = {name: ScoreTable.from_arrays(seg.positive, seg.scores[name], seg.weight)
                  for name in names}
        roc(tables, ax=ax_roc)
        pr(tables, ax=ax_pr)
        b_curve(tables, ax=ax_b)
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.45 / height))     # the title's own strip
    return fig
