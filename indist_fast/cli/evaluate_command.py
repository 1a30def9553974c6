"""``indist-fast evaluate FILE``: the report of one score, or the table of several
scores and segments, with its intervals, figure, page and CSV."""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from typing import Any, Callable

import numpy as np

from ..errors import IndistFastWarning
from ..io import open_source
from ..metrics.evaluation import evaluate
from ..results.report import count_text
from ..results.report_table import ReportTable
from . import output
from .arguments import (add_by, add_columns, add_quiet, add_table_output, check_csv_path,
                        html_path, plot_path, progress, seed_type)
from .file_rows import FileRows, read_rows
from . import table_readings

#: The table's metrics with their bootstrap interval columns (``<name>_low``, ``_high``).
_TABLE_METRICS = ("auc", "average_precision", "threshold", "precision", "lift")


def add_parser(sub: Any) -> None:
    ev = sub.add_parser("evaluate", help="evaluate label and score columns of a file")
    add_columns(ev, several=True)
    add_by(ev, "one row per segment and model")
    ev.add_argument("--time", default=None, metavar="COLUMN",
                    help="time column (datetimes, or seconds): one row per period of "
                         "--freq, with drift flags against the first period (one score, "
                         "no --by, rows within --memory-limit)")
    ev.add_argument("--freq", default=None,
                    help="length of a period with --time: 1D, 6h, 15min, 30s, 1W or "
                         "seconds (1D)")
    ev.add_argument("--levels", type=float, nargs="+", default=[0.4, 0.5, 0.6],
                    help="levels of B to report (0.4 0.5 0.6)")
    ev.add_argument("--bootstrap", type=int, default=None, metavar="N",
                    help="add 95%% bootstrap intervals from N stratified replicates; this "
                         "reads every row into memory, whatever --memory-limit (refused when "
                         "the file's rows alone clearly exceed it)")
    ev.add_argument("--seed", type=seed_type, default=0, help="seed of the bootstrap (0)")
    ev.add_argument("--memory-limit", default=None,
                    help="working memory, like 1GB (default: half the RAM); larger data are "
                         "sorted into runs on disk")
    ev.add_argument("--tmp-dir", default=None, metavar="DIR",
                    help="folder for the sorted runs of data beyond the memory limit "
                         "(default: the system's temporary folder)")
    add_quiet(ev)
    ev.add_argument("--plot", type=plot_path, default=None, metavar="PNG",
                    help="also draw a figure to this file (reads the rows into memory): the "
                         "report sheet of one score; with several scores or --by, ROC, "
                         "precision-recall and B(r) with the models overlaid, a row per "
                         "segment (at most 8); with --time, the metrics per period with "
                         "their drift marks")
    ev.add_argument("--html", type=html_path, default=None, metavar="PATH",
                    help="also write an interactive report page (one HTML file)")
    ev.add_argument("--total", action="store_true",
                    help="a table with each model over all rows too")
    table_readings.add_arguments(ev)
    add_table_output(ev, "report or table (one row per segment and model)")
    ev.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..scale.files import evaluate_file
    table_form = (len(args.score) > 1 or bool(args.by) or args.csv is not None or args.total
                  or args.time is not None)
    freq: Any = None
    if args.time is not None:
        freq = _freq_value("1D" if args.freq is None else args.freq)
    elif args.freq is not None:
        raise ValueError(f"--freq {args.freq} is the length of a period of --time, which "
                         "is not given: add --time COLUMN, or leave --freq out.")
    check_csv_path(args.csv)             # refused before the data are read, not after
    with contextlib.ExitStack() as stack:
        cache: list[FileRows] = []

        def rows() -> FileRows:
            """Every used column in memory, read once for all that need them."""
            if not cache:
                cache.append(stack.enter_context(read_rows(args, args.score, args.by)))
            return cache[0]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", IndistFastWarning)
            if args.bootstrap is None or table_form:
                # (a table's intervals: evaluate_file refuses them beyond --memory-limit)
                result = evaluate_file(args.file, label=args.label,
                                       score=args.score if table_form else args.score[0],
                                       by=args.by or None, weight=args.weight,
                                       pos_label=args.pos_label, levels=tuple(args.levels),
                                       memory_limit=args.memory_limit,
                                       progress=progress(args), tmp_dir=args.tmp_dir,
                                       drop_nulls=args.drop_nulls, total=args.total,
                                       n_boot=args.bootstrap, seed=args.seed,
                                       **({} if args.time is None
                                          else {"time": args.time, "freq": freq}))
            else:        # the bootstrap resamples rows: they are read into memory
                _check_bootstrap_fits(args)
                r = rows()
                result = evaluate(r.label, r.scores[args.score[0]], sample_weight=r.weight,
                                  pos_label=r.pos_label, levels=tuple(args.levels),
                                  n_boot=args.bootstrap, seed=args.seed)
            extra = table_readings.readings(args) if table_readings.wanted(args) else {}
        for warning in caught:
            print(f"warning: {warning.message}", file=sys.stderr)
        if args.html:
            _html_report(args, result, rows)
            print(f"page: {args.html}", file=sys.stderr)
        if args.csv is not None:
            output.write_csv(args.csv, result.to_dict())
            print(f"table: {args.csv}", file=sys.stderr)
        drift = getattr(result, "drift", None)
        if args.json:
            output.print_json({"evaluate": result.to_dict(),
                               **table_readings.as_dicts(extra)} if extra
                              else {"evaluate": result.to_dict(), "drift": drift.to_dict()}
                              if drift is not None else result.to_dict())
        elif args.csv is None:
            print(output.header(args))
            print(table_text(result, args.all_rows) if isinstance(result, ReportTable)
                  else _report_text(result))
        if extra and not args.json:        # (also beside --csv, which holds the table)
            print(table_readings.text(extra).lstrip("\n"))
        if args.plot:
            from .figures import evaluate_figure, over_time_figure
            figure = (over_time_figure(args, result) if args.time is not None
                      else evaluate_figure(args, rows()))
            output.save_and_close(figure, args.plot)
            print(f"figure: {args.plot}", file=sys.stderr)
    return 0


def _report_text(report: Any) -> str:
    """The report's own text, saying which printed metrics its intervals leave out."""
    text = str(report)
    if report.intervals:
        text += ("\n(intervals at level 0.5, the row marked *; none for B, tpr, fpr and F1, "
                 "nor at the other levels)")
    return text


def table_text(table: ReportTable, all_rows: bool) -> str:
    """The table as text: segments, model, rows and class weights in full, the level
    0.5 metrics, and each bootstrap interval beside its metric."""
    cols = table.columns
    weighted = not np.array_equal(cols["weight_pos"] + cols["weight_neg"],
                                  cols["n_rows"].astype(np.float64))
    n = len(table)
    shown: list[tuple[str, list[str]]] = []
    for name in table.by:                   # (None on the totals rows)
        shown.append((name, ["(all)" if v is None else output.number_text(v)
                             for v in cols[name].tolist()]))
    shown.append(("model", [str(v) for v in cols["model"].tolist()]))
    shown.append(("n_rows", [output.number_text(v) for v in cols["n_rows"]]))
    shown.append(("positives", [count_text(v) for v in cols["weight_pos"]]))
    if weighted:
        shown.append(("negatives", [count_text(v) for v in cols["weight_neg"]]))
    ci = "" if table.confidence is None else f"{table.confidence:.0%} CI"
    for name in _TABLE_METRICS:
        shown.append((name, [output.number_text(v) for v in cols[name]]))
        if f"{name}_low" in cols:
            shown.append((ci, [output.interval_text(lo, hi) for lo, hi
                               in zip(cols[f"{name}_low"], cols[f"{name}_high"])]))
    shown.append(("reached", [output.number_text(v) for v in cols["reached"]]))
    if "drift_auc" in cols:
        shown.append(("drift", [",".join(name for name, flag in (("AUC", a), ("C", c)) if flag)
                                for a, c in zip(cols["drift_auc"].tolist(),
                                                cols["drift_precision"].tolist())]))
    rows = [[cells[i] for _, cells in shown] for i in range(n)]
    lines = output.text_table([name for name, _ in shown], rows, all_rows)
    flagged = int(np.count_nonzero(cols["one_class"]))
    lines.append(f"{len(table):,} rows" + (f"; {flagged:,} of one class (metrics NaN)"
                                           if flagged else ""))
    if table.n_boot:
        missing = [m for m in _TABLE_METRICS if f"{m}_low" not in cols]
        lines.append(f"intervals: {table.n_boot:,} bootstrap replicates per row (seed "
                     f"{table.seed_entropy}), at level 0.5"
                     + (f"; none for {', '.join(missing)}" if missing else ""))
    if table.drift is not None:
        d = table.drift
        tested = d.tests["precision"]
        lines.append(f"drift: against the period {output.number_text(d.reference)} at "
                     f"level {d.alpha:g}; AUC by {d.tests['auc']}; C(r_b) "
                     + ("not tested (needs --bootstrap)" if tested.startswith("not")
                        else f"by {tested}"))
    return "\n".join(lines)


def _freq_value(text: str) -> Any:
    """``--freq`` as ``over_time`` takes it: a number of seconds, or the text."""
    try:
        return float(text)
    except ValueError:
        return text


def _html_report(args: argparse.Namespace, result: Any, rows: Callable[[], FileRows]) -> None:
    """The interactive report page of the file's scores (read into memory), with the
    segment table when ``result`` is one."""
    from ..html import report_html
    r = rows()
    with warnings.catch_warnings():      # the report above has given them
        warnings.simplefilter("ignore", IndistFastWarning)
        report_html(r.label, r.scores,          # a mapping: the page names each model
                    sample_weight=r.weight, pos_label=r.pos_label, n_boot=args.bootstrap,
                    seed=args.seed, title=f"{', '.join(args.score)} ({args.file})",
                    segments=result if isinstance(result, ReportTable) else None,
                    path=args.html)


def _check_bootstrap_fits(args: argparse.Namespace) -> None:
    """Refuse a bootstrap whose rows alone clearly exceed ``--memory-limit``: it holds
    every row in memory, whatever the limit (only where the row count is known
    before reading, i.e. not for CSV)."""
    from ..scale.files import parse_memory
    limit = parse_memory(args.memory_limit)
    cols = {"label": args.label, "score": args.score[0], "weight": args.weight}
    src = open_source(args.file, cols, drop_nulls=args.drop_nulls)
    if src.n_rows is not None and src.n_rows * src.bytes_per_row > limit:
        raise ValueError(f"--bootstrap reads every row into memory: the {src.n_rows:,} rows "
                         f"of {args.file} need at least {src.n_rows * src.bytes_per_row:,} "
                         f"bytes, beyond --memory-limit ({limit:,} bytes). Raise "
                         "--memory-limit, or evaluate without --bootstrap (out of core).")

