"""``indist-fast compare FILE --score A --score B``: models scored on the same rows,
each metric's difference with an interval and a p-value (``indist_fast.compare``), over
all rows or per segment."""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from dataclasses import dataclass
from typing import Any


from .._core.progress import progress_bar
from ..errors import IndistFastWarning
from ..inference.bootstrap import METRICS
from ..io import describe_path
from ..inference.compare import ALTERNATIVES, METHODS, compare
from ..inference.comparison_records import Comparison, Comparisons, Difference
from ..results.report import count_text, plain_value
from . import output
from .arguments import (Distinct, add_by, add_columns, add_quiet, add_table_output,
                        check_csv_path, count_type, progress, seed_type)
from .file_rows import FileRows, read_rows

#: What each ``--method`` compares unless ``--metric`` says: DeLong covers the AUC
#: alone; the bootstrap compares the AUC, average precision and C(r_b).
DEFAULT_METRICS = {"delong": ("auc",),
                   "bootstrap": ("auc", "average_precision", "precision")}
#: The metrics' names in a printed table (``precision`` is C at r_b).
_SHOWN = {"precision": "C(r_b)", "threshold": "r_b"}


def add_parser(sub: Any) -> None:
    co = sub.add_parser("compare", help="compare models scored on the same rows: each "
                                        "metric's difference, its interval and p-value")
    add_columns(co, several=True)
    add_by(co, "one comparison per segment")
    co.add_argument("--method", choices=METHODS, default="delong",
                    help="delong: DeLong's test of the AUC (the default); bootstrap: a "
                         "paired bootstrap of the AUC, average precision and C(r_b)")
    co.add_argument("--metric", action=Distinct, default=[],
                    choices=[m for m in METRICS if m != "b"],
                    help="a metric to compare (repeat for several): auc, average_precision, "
                         "precision (C(r_b)), threshold (r_b), lift, tpr, fpr, f1; the "
                         "metrics other than the AUC are bootstrapped whatever --method")
    co.add_argument("--n-boot", type=count_type("--n-boot", 2), default=None, metavar="N",
                    help="bootstrap replicates (2000), with --method bootstrap or a metric "
                         "other than auc")
    co.add_argument("--seed", type=seed_type, default=0,
                    help="seed of the replicates (0: the same replicates on every run)")
    co.add_argument("--alternative", choices=ALTERNATIVES, default="two-sided")
    co.add_argument("--confidence", type=float, default=0.95,
                    help="coverage of the intervals (0.95)")
    co.add_argument("--level", type=float, default=0.5,
                    help="level of B of r_b and C(r_b) (0.5)")
    co.add_argument("--correction", choices=("holm",), default=None,
                    help="adjust each metric's p-values over the pairs of three models or "
                         "more (Holm)")
    add_quiet(co)
    add_table_output(co, "comparison (CSV: one row per segment, pair and metric)")
    co.set_defaults(run=run)


@dataclass(frozen=True)
class SegmentComparison:
    """One segment's comparison (``skipped`` says why there is none)."""

    values: dict[str, Any]
    n_rows: int
    weight_pos: float
    weight_neg: float
    result: Comparison | Comparisons | None
    skipped: str | None

    def pairs(self) -> list[Comparison]:
        if isinstance(self.result, Comparisons):
            return list(self.result.pairs.values())
        return [] if self.result is None else [self.result]


def run(args: argparse.Namespace) -> int:
    check_csv_path(args.csv)
    if len(args.score) < 2:
        raise ValueError("compare needs two --score columns or more (the models to "
                         "compare), got one.")
    if args.correction is not None and len(args.score) == 2:
        raise ValueError("--correction adjusts the p-values of three models or more; two "
                         "models make one comparison per metric.")
    metrics = tuple(args.metric) or DEFAULT_METRICS[args.method]
    if args.n_boot is not None and args.method != "bootstrap" and set(metrics) == {"auc"}:
        raise ValueError(f"--n-boot {args.n_boot} is given but nothing is bootstrapped: the "
                         "AUC is compared by DeLong's test. Add --method bootstrap, or "
                         "--metric for each metric to bootstrap.")
    with read_rows(args, args.score, args.by) as rows:
        compared = comparisons(args, rows, metrics, args.seed)
    if args.csv is not None:
        output.write_csv(args.csv, csv_columns(args.by, compared))
        print(f"table: {args.csv}", file=sys.stderr)
    if args.json:
        only = compared[0].result
        output.print_json(_json(args.by, compared) if args.by or only is None
                          else only.to_dict())
    elif args.csv is None:
        print(output.header(args))
        print(text(args, compared))
    return 0


def comparisons(args: argparse.Namespace, rows: FileRows, metrics: tuple[str, ...],
                seed: int | None) -> list[SegmentComparison]:
    """``compare`` on every segment's rows (all rows without ``--by``), each with the
    same seed; segments of one class are skipped, saying so."""
    out = []
    segments = rows.segments()
    shown: set[str] = set()
    with progress_bar(progress(args) if args.by else False, len(segments), "compare",
                      unit="segments") as bar:
        for values, seg in segments:
            pos, neg = seg.class_weights()
            result, skipped = None, None
            if args.by and not (pos > 0 and neg > 0):
                skipped = "one class: nothing to compare"
            else:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", IndistFastWarning)
                    result = _compare(args, seg, metrics, seed)
                for w in caught:                 # once each, not once per segment
                    if str(w.message) not in shown:
                        shown.add(str(w.message))
                        print(f"warning: {w.message}", file=sys.stderr)
            out.append(SegmentComparison(values, seg.n_rows, pos, neg, result, skipped))
            bar.update(1)
    return out


def _compare(args: argparse.Namespace, seg: FileRows, metrics: tuple[str, ...],
             seed: int | None) -> Comparison | Comparisons:
    names = list(seg.scores)
    options: dict[str, Any] = {
        "sample_weight": seg.weight, "pos_label": seg.pos_label, "metrics": metrics,
        "method": args.method, "alternative": args.alternative, "seed": seed,
        "confidence": args.confidence, "level": args.level}
    if args.method == "bootstrap" or set(metrics) != {"auc"}:
        options["n_boot"] = 2000 if args.n_boot is None else args.n_boot
    # compare names a model's scores by its argument: say the column and file instead
    arguments = ({"score_a": names[0], "score_b": names[1]} if len(names) == 2 else
                 {f"score_a[{name!r}]": name for name in names})
    try:
        if len(names) == 2:
            return compare(seg.label, seg.scores[names[0]], seg.scores[names[1]],
                           names=(names[0], names[1]), **options)
        return compare(seg.label, seg.scores, correction=args.correction, **options)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        for argument, column in arguments.items():
            if message.startswith(argument) and exc.args == (message,):
                exc.args = (f"score: column {column!r} of {describe_path(args.file)}"
                            f"{message[len(argument):]}",)
                break
        raise


def _json(by: list[str], compared: list[SegmentComparison]) -> dict[str, Any]:
    return {"by": list(by), "segments": [
        {**{k: plain_value(v) for k, v in s.values.items()}, "n_rows": s.n_rows,
         "weight_pos": s.weight_pos, "weight_neg": s.weight_neg,
         "comparison": None if s.result is None else s.result.to_dict(),
         "skipped": s.skipped} for s in compared]}


_DIFFERENCE_FIELDS = ("metric", "estimate_a", "estimate_b", "estimate", "std_error", "low",
                      "high", "p_value", "p_value_unadjusted", "p_is_bound", "method",
                      "alternative", "confidence", "n_undefined")


def csv_columns(by: list[str], compared: list[SegmentComparison]) -> dict[str, list[Any]]:
    """One row per segment, pair of models and metric (a segment skipped: one row
    saying why)."""
    names = [*by, "n_rows", "weight_pos", "weight_neg", "model_a", "model_b",
             *_DIFFERENCE_FIELDS, "n_boot", "seed_entropy", "skipped"]
    columns: dict[str, list[Any]] = {name: [] for name in names}

    def add(s: SegmentComparison, c: Comparison | None, d: dict[str, Any]) -> None:
        row = {**s.values, "n_rows": s.n_rows, "weight_pos": s.weight_pos,
               "weight_neg": s.weight_neg, "skipped": s.skipped, **d}
        if c is not None:
            row.update(model_a=c.model_a, model_b=c.model_b, n_boot=c.n_boot,
                       seed_entropy=c.seed_entropy)
        for name in names:
            columns[name].append(plain_value(row.get(name)))
    for s in compared:
        if s.result is None:
            add(s, None, {})
        for c in s.pairs():
            for d in c.differences.values():
                add(s, c, {k: v for k, v in d.to_dict().items() if k in _DIFFERENCE_FIELDS})
    return columns


def p_text(d: Difference) -> str:
    """The p-value; ``< ...`` where it is a bound (no replicate beyond 0, or below the
    smallest double)."""
    p = d.p_value
    if math.isnan(p):
        return "nan"
    if d.p_is_bound and p == 0.0:
        return "< 1e-300"
    shown = f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"
    return f"< {shown}" if d.p_is_bound else shown


def text(args: argparse.Namespace, compared: list[SegmentComparison]) -> str:
    """One comparison as ``indist_fast`` prints it; segments as a table of every
    segment, pair and metric."""
    if not args.by:
        s = compared[0]
        lines = [output.class_line(s.n_rows, s.weight_pos, s.weight_neg), str(s.result)]
        return "\n".join(lines)
    weighted = args.weight is not None
    head = [*args.by, "n_rows", "positives", *(["negatives"] if weighted else []),
            "models", "metric", "a", "b", "a - b", f"{args.confidence:.0%} CI", "p",
            "method"]
    rows = []
    for s in compared:
        lead = [*(output.number_text(v) for v in s.values.values()), f"{s.n_rows:,}",
                count_text(s.weight_pos), *([count_text(s.weight_neg)] if weighted else [])]
        if s.result is None:
            rows.append([*lead, "", s.skipped or "", *[""] * 6])
        for c in s.pairs():
            for d in c.differences.values():
                rows.append([*lead, f"{c.model_a} - {c.model_b}", _SHOWN.get(d.metric, d.metric),
                             f"{d.estimate_a:.4f}", f"{d.estimate_b:.4f}", f"{d.estimate:+.4f}",
                             f"[{d.low:+.4f}, {d.high:+.4f}]", p_text(d), d.method])
    lines = output.text_table(head, rows, args.all_rows)
    done = [s.result for s in compared if s.result is not None]
    first = next((c for s in compared for c in s.pairs()), None)
    if first is not None and first.n_boot:
        lines.append(f"{len(done):,} segments compared; {first.n_boot:,} bootstrap "
                     f"replicates each (seed {first.seed_entropy})")
    if args.correction and done:
        lines.append("p-values Holm-adjusted over the pairs, per metric and segment")
    return "\n".join(lines)
