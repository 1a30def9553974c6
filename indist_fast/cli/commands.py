"""The smaller subcommands: ``demo``, ``losses``, ``resolving-power`` and ``paper``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..datasets import NINE_LAYOUT, nine_datasets
from ..metrics.evaluation import evaluate
from . import output
from .arguments import add_columns, add_quiet, html_path, plot_path, seed_type
from .file_rows import read_rows


def add_demo_parser(sub: Any) -> None:
    demo = sub.add_parser("demo", help="evaluate the nine example data sets of the paper")
    demo.add_argument("--seed", type=seed_type, default=0, help="seed of the example data (0)")
    demo.add_argument("--plot", type=plot_path, default=None, metavar="PNG",
                      help="also draw the nine panels of the paper to this file")
    demo.add_argument("--html", type=html_path, default=None, metavar="PATH",
                      help="also write the interactive ROC demo page (one HTML file)")
    add_quiet(demo)
    demo.set_defaults(run=run_demo)


def add_parsers(sub: Any) -> None:
    """``losses``, ``resolving-power`` and ``paper``."""
    lo = sub.add_parser("losses", help="expected loss of every threshold choice method")
    add_columns(lo)
    lo.add_argument("--t", type=float, default=0.5, help="threshold of score-fixed (0.5)")
    lo.add_argument("--q", type=float, default=None,
                    help="rate of rate-fixed (default: the base rate)")
    lo.add_argument("--condition", choices=("cost", "skew"), default="cost")
    lo.add_argument("--beta", type=float, nargs=2, metavar=("A", "B"), default=None,
                    help="cost proportion ~ Beta(A, B) instead of uniform")
    lo.add_argument("--json", action="store_true", help="print the table as JSON")
    add_quiet(lo)
    lo.set_defaults(run=run_losses)
    rp = sub.add_parser("resolving-power",
                        help="how finely AUROC, AUPRC and C(r_b) resolve models like yours")
    add_columns(rp, weight=False)
    rp.add_argument("--n-rep", type=int, default=1000, help="bootstrap replicates (1000)")
    rp.add_argument("--seed", type=seed_type, default=0, help="seed of the replicates (0)")
    rp.add_argument("--scale", choices=("normal", "scores"), default="normal",
                    help="where the simulated improvements are added: the normal scores "
                         "of the ranks (normal, the default: the same result for any "
                         "increasing transform of the scores) or the scores as given "
                         "(Beam's form)")
    rp.add_argument("--json", action="store_true", help="print the table as JSON")
    add_quiet(rp)
    rp.set_defaults(run=run_resolving_power)
    pa = sub.add_parser("paper", help="regenerate the source papers' figures and tables "
                                      "(PNG, CSV) with a manifest.csv")
    pa.add_argument("outdir", metavar="OUTDIR", help="folder to write into (created if missing)")
    pa.add_argument("--quick", action="store_true",
                    help="small simulations (seconds, noisier Beam intervals)")
    pa.add_argument("--n-rep", type=int, default=None, metavar="N",
                    help="replicate samples per simulated condition (default 500, 100 at "
                         "N = 100,000; 20 with --quick; the paper draws 10,000)")
    pa.add_argument("--seed", type=seed_type, default=0, help="seed of the simulations (0)")
    add_quiet(pa)
    pa.set_defaults(run=run_paper)


def run_demo(args: argparse.Namespace) -> int:
    sets = nine_datasets(seed=args.seed)
    print("The nine example data sets of the indistinguishability paper (Sumpter's Figs 2-6):")
    print("1000 positives N(10, 2); 1000 difficult negatives N(m, 2); easy negatives N(2, 2).\n")
    head = (f"{'set':>3} {'m':>3} {'easy':>6} {'rows':>7} {'base rate':>9} {'AUC':>7} "
            f"{'r_b':>8} {'C(r_b)':>7} {'lift':>6}")
    print(head)
    print("-" * len(head))
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
        from ..plot import nine_panels
        output.save_and_close(nine_panels(sets), args.plot)
        print(f"\nfigure: {args.plot}")
    if args.html:
        from ..html import roc_demo
        roc_demo(args.html)
        print(f"\npage: {args.html} (the interactive ROC demo)")
    print("\nAUC rewards easy negatives that no threshold would ever confuse with positives; "
          "the precision at the indistinguishability threshold, C(r_b), barely moves, "
          "because it only looks at the rows that compete with the positives.")
    return 0


def run_losses(args: argparse.Namespace) -> int:
    from ..metrics.threshold_choice import compare_methods
    dist = None if args.beta is None else tuple(args.beta)
    with read_rows(args) as rows:
        table = compare_methods(rows.label, rows.scores[args.score], t=args.t, q=args.q,
                                condition=args.condition, cost_distribution=dist,
                                sample_weight=rows.weight, pos_label=rows.pos_label)
    return output.show(args, table)


def run_resolving_power(args: argparse.Namespace) -> int:
    from ..metrics.resolving_power import Empirical, compare_metrics
    with read_rows(args) as rows:
        table = compare_metrics(Empirical(rows.label, rows.scores[args.score],
                                          pos_label=rows.pos_label, scale=args.scale),
                                n_rep=args.n_rep, seed=args.seed)
    return output.show(args, table)


def run_paper(args: argparse.Namespace) -> int:
    from ..paper import write_all
    try:
        rows = write_all(args.outdir, quick=args.quick, n_rep=args.n_rep, seed=args.seed)
    except ValueError as exc:           # a file in the way, a folder that cannot be written
        print(f"indist-fast paper: {exc}", file=sys.stderr)
        return 2
    for row in rows:
        print(f"{row.file:<40} {row.figure:<20} {row.caption}")
    print(f"{len(rows)} files and manifest.csv in {args.outdir}")
    return 0
