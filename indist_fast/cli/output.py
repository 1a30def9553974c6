"""What the commands print and write: the header naming the file and columns, tables
of text (long ones shortened, saying how to see every row), CSV files and figures, each
written whole."""

from __future__ import annotations

import argparse
import json
import math
from typing import IO, Any, Sequence

import numpy as np

from ..results.report import count_text
from .file_rows import score_names

#: Rows a table prints before it is shortened to its first and last half of them.
MAX_ROWS = 20


def header(args: argparse.Namespace) -> str:
    """The file and the columns a result came from."""
    scores = score_names(args)
    return (f"{args.file}: label {args.label!r}, "
            + (f"score {scores[0]!r}" if len(scores) == 1 else f"scores {scores!r}")
            + (f", by {args.by!r}" if getattr(args, "by", None) else "")
            + (f", weight {args.weight!r}" if getattr(args, "weight", None) else ""))


def show(args: argparse.Namespace, result: Any) -> int:
    """Print a result as JSON or as its text, under the file and columns it came from."""
    if args.json:
        print_json(result.to_dict())
    else:
        print(header(args))
        print(result)
    return 0


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2))


def class_line(n_rows: int, weight_pos: float, weight_neg: float) -> str:
    """``rows 60,000   positives 6,000   negatives 54,000``: counts in full, never in
    e-notation (fractional weights to six significant digits)."""
    return (f"rows {n_rows:,}   positives {count_text(weight_pos)}   "
            f"negatives {count_text(weight_neg)}")


def number_text(value: Any) -> str:
    """A cell of a table: four decimals for rates, counts in full, NaN as ``nan``."""
    if value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    if isinstance(value, (float, np.floating)):
        return "nan" if math.isnan(value) else f"{float(value):.4f}"
    return str(value)


def interval_text(low: Any, high: Any) -> str:
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "nan"
    return f"[{low:.4f}, {high:.4f}]"


def text_table(names: Sequence[str], rows: Sequence[Sequence[str]], all_rows: bool,
               noun: str = "rows") -> list[str]:
    """Right-aligned columns; beyond ``MAX_ROWS`` rows (without ``all_rows``) the first
    and last ten, with a line in between saying how many are left out and how to see
    them."""
    n = len(rows)
    hidden = 0 if all_rows or n <= MAX_ROWS else n - MAX_ROWS
    shown: list[Sequence[str] | None] = list(rows)
    if hidden:
        shown = [*rows[:MAX_ROWS // 2], None, *rows[n - MAX_ROWS // 2:]]
    widths = [max([len(name)] + [len(r[k]) for r in rows]) for k, name in enumerate(names)]
    lines = ["  ".join(name.rjust(w) for name, w in zip(names, widths))]
    for row in shown:
        if row is None:
            lines.append(f"... {hidden:,} more {noun}: --all-rows prints every one, "
                         "--csv OUT writes them all to a file")
        else:
            lines.append("  ".join(cell.rjust(w) for cell, w in zip(row, widths)))
    return lines


def write_csv(path: str, columns: dict[str, list[Any]]) -> None:
    """A table's columns as CSV (empty fields for missing values), written whole
    (``write_text_whole``: no half-written table is left)."""
    import csv
    from ..html.whole_file import write_text_whole

    def write(fh: IO[str]) -> None:
        writer = csv.writer(fh)
        writer.writerow(columns)
        writer.writerows(zip(*columns.values()))
    write_text_whole(path, write)


def save_figure(figure: Any, path: str) -> None:
    """A matplotlib figure saved whole (``save_figure_whole``), in the format of the
    extension ``--plot`` checked."""
    from ..html.whole_file import save_figure_whole
    save_figure_whole(figure, path, dpi=70)


def save_and_close(figure: Any, path: str) -> None:
    """Save the figure and release it (pyplot keeps every open figure otherwise)."""
    import matplotlib.pyplot as plt
    try:
        save_figure(figure, path)
    finally:
        plt.close(figure)
