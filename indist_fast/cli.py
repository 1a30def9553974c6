"""Command line: ``indist-fast demo`` and ``indist-fast evaluate FILE``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
import warnings
from typing import Any, Iterator, Sequence

from . import __version__
from .datasets import NINE_LAYOUT, nine_datasets
from .errors import IndistFastWarning
from ._core.validation import check_seed
from .io import (LabelText, one_line, naming_columns, open_source, read_columns,
                typed_pos_label)
from .metrics.evaluation import evaluate


def _demo(args: argparse.Namespace) -> int:
    sets = nine_datasets(seed=args.seed)
    print("The nine example data sets of the indistinguishability paper (Sumpter's Figs 2-6):")
    print("1000 positives N(10, 2); 1000 difficult negatives N(m, 2); easy negatives N(2, 2).\n")
    header = (f"{'set':>3} {'m':>3} {'easy':>6} {'rows':>7} {'base rate':>9} {'AUC':>7} "
              f"{'r_b':>8} {'C(r_b)':>7} {'lift':>6}")
    print(header)
    print("-" * len(header))
    reports = {}
    for name, (y, s) in sets.items():
        r = reports[name] = evaluate(y, s, levels=(0.5,))
        mean, n_easy = NINE_LAYOUT[name]
        print(f"{name:>3} {mean:>3g} {n_easy:>6} {r.n_rows:>7,} {r.base_rate:>9.4f} "
              f"{r.auc:>7.4f} {r.threshold:>8.3f} {r.precision:>7.4f} {r.lift:>6.2f}")
    for column in ("adg", "beh", "cfi"):
        first, last = reports[column[0]], reports[column[-1]]
        print(f"\nColumn {column}: adding easy negatives (100 -> 10000) moves AUC from "
              f"{first.auc:.3f} to {last.auc:.3f}, C(r_b) from {first.precision:.3f} to "
              f"{last.precision:.3f}.", end="")
    if args.plot:
        from .plot import nine_panels
        _save_figure(nine_panels(sets), args.plot)
        print(f"\nfigure: {args.plot}")
    if args.html:
        from .html import roc_demo
        roc_demo(args.html)
        print(f"\npage: {args.html} (the interactive ROC demo)")
    print("\nAUC rewards easy negatives that no threshold would ever confuse with positives; "
          "the precision at the indistinguishability threshold, C(r_b), barely moves, "
          "because it only looks at the rows that compete with the positives.")
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    from .scale.files import evaluate_file
    table_form = len(args.score) > 1 or bool(args.by) or args.csv is not None or args.total
    if table_form and args.plot:
        raise ValueError("--plot takes one --score and no --by, --total or --csv; draw the "
                         "models one at a time, or use indist_fast.plot in "
                         "Python (roc, pr and b_curve overlay several models).")
    if args.csv is not None:          # refused before the data are read, not after
        folder = os.path.dirname(os.path.abspath(args.csv))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise ValueError(f"--csv: cannot write to {args.csv} (no such folder, or not "
                             "writable).")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IndistFastWarning)
        if args.bootstrap is None or table_form:
            # (a table's intervals: evaluate_file refuses them beyond --memory-limit)
            result = evaluate_file(args.file, label=args.label,
                                   score=args.score if table_form else args.score[0],
                                   by=args.by or None, weight=args.weight,
                                   pos_label=args.pos_label, levels=tuple(args.levels),
                                   memory_limit=args.memory_limit,
                                   progress=False if args.no_progress else None,
                                   tmp_dir=args.tmp_dir, drop_nulls=args.drop_nulls,
                                   total=args.total, n_boot=args.bootstrap, seed=args.seed)
        else:        # the bootstrap resamples rows: they are read into memory
            _check_bootstrap_fits(args)
            with _columns(args) as (y, s, w, pos_label):
                result = evaluate(y, s, sample_weight=w, pos_label=pos_label,
                                  levels=tuple(args.levels), n_boot=args.bootstrap,
                                  seed=args.seed)
    for warning in caught:
        print(f"warning: {warning.message}", file=sys.stderr)
    if args.html:
        _html_report(args, result)
        print(f"page: {args.html}", file=sys.stderr)
    if args.csv is not None:
        _write_csv(args.csv, result.to_dict())
        print(f"table: {args.csv}", file=sys.stderr)
        if not args.json:
            return 0
    _show(args, result)
    if args.plot:
        from .plot import report_sheet
        with _columns(args) as (y, s, w, pos_label):
            sheet = report_sheet(y, s, sample_weight=w, title=f"{args.score[0]} ({args.file})")
        _save_figure(sheet, args.plot)
        print(f"figure: {args.plot}", file=sys.stderr)
    return 0


def _html_report(args: argparse.Namespace, result: Any) -> None:
    """The interactive report page of the file's scores (read into memory), with the
    segment table when ``result`` is one."""
    from .html import report_html
    from .results.report_table import ReportTable
    scores: dict[str, Any] = {}
    y = w = pos_label = None
    for name in args.score:
        with _columns(argparse.Namespace(**{**vars(args), "score": [name]})) as cols:
            if y is not None and len(cols[0]) != len(y):
                raise ValueError("--html: the --score columns keep different rows after "
                                 "--drop-nulls; draw them one at a time.")
            y, scores[name], w, pos_label = cols
    with warnings.catch_warnings():      # the report above has given them
        warnings.simplefilter("ignore", IndistFastWarning)
        report_html(y, scores if len(scores) > 1 else scores[args.score[0]],
                    sample_weight=w, pos_label=pos_label, n_boot=args.bootstrap,
                    seed=args.seed, title=f"{', '.join(args.score)} ({args.file})",
                    segments=result if isinstance(result, ReportTable) else None,
                    path=args.html)


def _write_csv(path: str, columns: dict[str, list[Any]]) -> None:
    """A table's columns as CSV (empty fields for missing values), written whole
    (``write_whole``: no half-written table is left)."""
    import csv
    from .html.page import write_whole

    def write(tmp: str) -> None:
        with open(tmp, "w", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(columns)
            writer.writerows(zip(*columns.values()))
    write_whole(path, write)


def _save_figure(figure: Any, path: str) -> None:
    """A matplotlib figure saved whole (``write_whole``; the temporary file keeps the
    extension, which ``--plot`` checked, so the format is the one the name says)."""
    from .html.page import write_whole
    write_whole(path, lambda tmp: figure.savefig(tmp, dpi=70))


def _cols(args: argparse.Namespace) -> dict[str, str | None]:
    score = args.score[0] if isinstance(args.score, list) else args.score
    return {"label": args.label, "score": score, "weight": getattr(args, "weight", None)}


@contextlib.contextmanager
def _columns(args: argparse.Namespace) -> Iterator[tuple[Any, Any, Any, Any]]:
    """The file's columns in memory and ``--pos-label`` as a value of the label
    column's type; errors about them in the block name their column and file, as
    ``evaluate_file``'s do."""
    cols = _cols(args)
    y, s, w = read_columns(args.file, label=args.label, score=str(cols["score"]),
                           weight=cols["weight"], drop_nulls=args.drop_nulls)
    with naming_columns(args.file, cols):
        yield y, s, w, typed_pos_label(args.pos_label, y)


def _check_bootstrap_fits(args: argparse.Namespace) -> None:
    """Refuse a bootstrap whose rows alone clearly exceed ``--memory-limit``: it holds
    every row in memory, whatever the limit (only where the row count is known
    before reading, i.e. not for CSV)."""
    from .scale.files import parse_memory
    limit = parse_memory(args.memory_limit)
    src = open_source(args.file, _cols(args), drop_nulls=args.drop_nulls)
    if src.n_rows is not None and src.n_rows * src.bytes_per_row > limit:
        raise ValueError(f"--bootstrap reads every row into memory: the {src.n_rows:,} rows "
                         f"of {args.file} need at least {src.n_rows * src.bytes_per_row:,} "
                         f"bytes, beyond --memory-limit ({limit:,} bytes). Raise "
                         "--memory-limit, or evaluate without --bootstrap (out of core).")


def _losses(args: argparse.Namespace) -> int:
    from .metrics.threshold_choice import compare_methods
    dist = None if args.beta is None else tuple(args.beta)
    with _columns(args) as (y, s, w, pos_label):
        table = compare_methods(y, s, t=args.t, q=args.q, condition=args.condition,
                                cost_distribution=dist, sample_weight=w, pos_label=pos_label)
    return _show(args, table)


def _show(args: argparse.Namespace, result: Any) -> int:
    """Print a result as JSON or as its table, under the file and columns it came from."""
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        scores = args.score if isinstance(args.score, list) else [args.score]
        print(f"{args.file}: label {args.label!r}, "
              + (f"score {scores[0]!r}" if len(scores) == 1 else f"scores {scores!r}")
              + (f", by {args.by!r}" if getattr(args, "by", None) else "")
              + (f", weight {args.weight!r}" if getattr(args, "weight", None) else ""))
        print(result)
    return 0


def _resolving_power(args: argparse.Namespace) -> int:
    from .metrics.resolving_power import Empirical, compare_metrics
    with _columns(args) as (y, s, _, pos_label):
        table = compare_metrics(Empirical(y, s, pos_label=pos_label), n_rep=args.n_rep,
                        seed=args.seed)
    return _show(args, table)


def _paper(args: argparse.Namespace) -> int:
    from .paper import write_all
    try:
        rows = write_all(args.outdir, quick=args.quick, n_rep=args.n_rep, seed=args.seed)
    except ValueError as exc:           # a file in the way, a folder that cannot be written
        print(f"indist-fast paper: {exc}", file=sys.stderr)
        return 2
    for row in rows:
        print(f"{row.file:<40} {row.figure:<20} {row.caption}")
    print(f"{len(rows)} files and manifest.csv in {args.outdir}")
    return 0


def _seed(text: str) -> int:
    """``--seed`` as an int ``check_seed`` accepts, refused by argparse (naming the
    option) before any file is read."""
    try:
        seed = int(text)
        check_seed(seed, "--seed")
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(
            f"--seed must be a non-negative integer, got {text!r}") from None
    return seed


def _pos_label(text: str) -> LabelText:
    """``--pos-label`` as text: read as a boolean, a number or a string once the label
    column's type is known (``typed_pos_label``), so that ``--pos-label False``
    picks the False rows of a boolean column and ``--pos-label 1`` a text label "1"."""
    return LabelText(text)


def _plot(text: str) -> str:
    """``--plot`` checked before any data is read: a writable folder and a file type
    matplotlib can write (refused by argparse, naming the option)."""
    folder = os.path.dirname(os.path.abspath(text))
    ext = os.path.splitext(text)[1].lower().lstrip(".")
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise argparse.ArgumentTypeError(
            "--plot needs matplotlib: pip install 'indist-fast[plot]'") from None
    types = FigureCanvasBase.get_supported_filetypes()
    if ext not in types:
        raise argparse.ArgumentTypeError(
            f"--plot must be a file name ending in one of {', '.join(sorted(types))} (the "
            f"types matplotlib writes), got {text!r}")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"--plot {text!r} is a folder, not a file name")
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"--plot: no such folder: {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"--plot: folder {folder} is not writable")
    return text


def _html(text: str) -> str:
    """``--html`` checked before any data is read (refused by argparse, naming it)."""
    from .html.page import check_path
    try:
        return str(check_path(text, "--html"))
    except (ValueError, TypeError, FileNotFoundError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="indist-fast",
        description="Evaluate binary classifiers: AUC, curves and C(r_b), the precision "
                    "at the indistinguishability threshold.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="evaluate the nine example data sets of the paper")
    demo.add_argument("--seed", type=_seed, default=0, help="seed of the example data (0)")
    demo.add_argument("--plot", type=_plot, default=None, metavar="PNG",
                      help="also draw the nine panels of the paper to this file")
    demo.set_defaults(run=_demo)
    demo.add_argument("--html", type=_html, default=None, metavar="PATH",
                      help="also write the interactive ROC demo page (one HTML file)")
    ev = sub.add_parser("evaluate", help="evaluate label and score columns of a file")
    _add_columns(ev, several=True)
    ev.add_argument("--by", action=_Distinct, default=[], metavar="COLUMN",
                    help="segment column (repeat for combinations): one row per segment "
                         "and model")
    ev.add_argument("--levels", type=float, nargs="+", default=[0.4, 0.5, 0.6],
                    help="levels of B to report (0.4 0.5 0.6)")
    ev.add_argument("--bootstrap", type=int, default=None, metavar="N",
                    help="add 95%% bootstrap intervals from N stratified replicates; this "
                         "reads every row into memory, whatever --memory-limit (refused when "
                         "the file's rows alone clearly exceed it)")
    ev.add_argument("--seed", type=_seed, default=None, help="seed of the bootstrap")
    ev.add_argument("--memory-limit", default=None,
                    help="working memory, like 1GB (default: half the RAM); larger data are "
                         "sorted into runs on disk")
    ev.add_argument("--tmp-dir", default=None, metavar="DIR",
                    help="folder for the sorted runs of data beyond the memory limit "
                         "(default: the system's temporary folder)")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")
    ev.add_argument("--plot", type=_plot, default=None, metavar="PNG",
                    help="also draw a report sheet to this file (reads the rows into memory)")
    ev.add_argument("--html", type=_html, default=None, metavar="PATH",
                    help="also write an interactive report page (one HTML file)")
    ev.add_argument("--json", action="store_true", help="print the report or table as JSON")
    ev.add_argument("--total", action="store_true",
                    help="a table with each model over all rows too")
    ev.add_argument("--csv", default=None, metavar="OUT",
                    help="write the table (one row per segment and model) to this CSV file")
    ev.set_defaults(run=_evaluate)
    lo = sub.add_parser("losses", help="expected loss of every threshold choice method")
    _add_columns(lo)
    lo.add_argument("--t", type=float, default=0.5, help="threshold of score-fixed (0.5)")
    lo.add_argument("--q", type=float, default=None,
                    help="rate of rate-fixed (default: the base rate)")
    lo.add_argument("--condition", choices=("cost", "skew"), default="cost")
    lo.add_argument("--beta", type=float, nargs=2, metavar=("A", "B"), default=None,
                    help="cost proportion ~ Beta(A, B) instead of uniform")
    lo.add_argument("--json", action="store_true", help="print the table as JSON")
    lo.set_defaults(run=_losses)
    rp = sub.add_parser("resolving-power",
                        help="how finely AUROC, AUPRC and C(r_b) resolve models like yours")
    _add_columns(rp, weight=False)
    rp.add_argument("--n-rep", type=int, default=1000, help="bootstrap replicates (1000)")
    rp.add_argument("--seed", type=_seed, default=0, help="seed of the replicates (0)")
    rp.add_argument("--json", action="store_true", help="print the table as JSON")
    rp.set_defaults(run=_resolving_power)
    pa = sub.add_parser("paper", help="regenerate the source papers' figures and tables "
                                      "(PNG, CSV) with a manifest.csv")
    pa.add_argument("outdir", metavar="OUTDIR", help="folder to write into (created if missing)")
    pa.add_argument("--quick", action="store_true",
                    help="small simulations (seconds, noisier Beam intervals)")
    pa.add_argument("--n-rep", type=int, default=None, metavar="N",
                    help="replicate samples per simulated condition (default 500, 100 at "
                         "N = 100,000; 20 with --quick; the paper draws 10,000)")
    pa.add_argument("--seed", type=_seed, default=0, help="seed of the simulations (0)")
    pa.set_defaults(run=_paper)
    return parser


class _Once(argparse.Action):
    """A column option given once: argparse would silently keep the last of several."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        earlier = getattr(namespace, self.dest, None)
        if earlier is not None:
            parser.error(f"{option_string} given twice ({earlier!r}, then {values!r}): one "
                         "column per run; evaluate several models in Python with "
                         "indist_fast.evaluate_many.")
        setattr(namespace, self.dest, values)


class _Distinct(argparse.Action):
    """A column option that may repeat (several models or segment columns), each
    column once."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        earlier = list(getattr(namespace, self.dest, None) or [])
        if values in earlier:
            parser.error(f"{option_string} {values!r} given twice.")
        setattr(namespace, self.dest, earlier + [values])


def _add_columns(p: argparse.ArgumentParser, weight: bool = True, several: bool = False
                 ) -> None:
    """The file and column arguments every file command takes (``--weight`` where the
    command can use weights: resolving power resamples unweighted rows; ``--score``
    repeated where the command evaluates several models)."""
    p.add_argument("file", metavar="PATH", help="a file (.parquet, .csv, .csv.gz, .feather, .npy, .npz), a "
                                "folder of them (hive partitions become columns) or a glob")
    p.add_argument("--label", required=True, action=_Once, help="label column")
    if several:
        p.add_argument("--score", required=True, action=_Distinct,
                       help="score column (repeat for several models)")
    else:
        p.add_argument("--score", required=True, action=_Once, help="score column")
    if weight:
        p.add_argument("--weight", default=None, action=_Once, help="sample-weight column")
    p.add_argument("--pos-label", type=_pos_label, default=None,
                   help="label of the positive class (needed for text labels)")
    p.add_argument("--drop-nulls", action="store_true",
                   help="skip rows with a missing value in a used column (default: an error)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``indist-fast`` command."""
    args = build_parser().parse_args(argv)
    interrupted = []

    def on_interrupt(signum: int, frame: Any) -> None:
        interrupted.append(signum)
        raise KeyboardInterrupt
    main_thread = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, on_interrupt) if main_thread else None
    try:
        try:
            code = int(args.run(args))
        finally:
            if main_thread and before is not None:  # (None: a handler set outside Python)
                signal.signal(signal.SIGINT, before)
        if interrupted:     # raised where Python ignores it (a library's cleanup callback)
            raise KeyboardInterrupt
        return code
    except KeyboardInterrupt:
        # Ctrl-C: a line, not a traceback; every output is written whole or not at all
        # (``write_whole``), so nothing half-written is left.
        print(f"indist-fast {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of the input. Point stdout at
        # devnull so the interpreter's own flush at exit does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (ValueError, TypeError, OSError, ImportError) as exc:
        # One line, whatever the message holds (pyarrow's span several): the error
        # is about the input, so a traceback would only hide it.
        print(f"indist-fast {args.command}: error: {one_line(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
