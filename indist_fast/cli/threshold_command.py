"""``indist-fast threshold FILE --criterion f1``: the exact best threshold for a
criterion, or the threshold that meets a target rate (``indist_fast.best_threshold``),
with its confusion table."""

from __future__ import annotations

import argparse
from typing import Any

from ..metrics.threshold_criteria import CRITERIA, best_threshold
from . import output
from .arguments import add_columns, add_quiet
from .file_rows import read_rows

#: Criteria met by a rate: ``--target recall=0.9``.
TARGETS = ("recall", "precision", "fpr", "tnr")
#: The parameters each criterion takes, each an option of the same name
#: (``cost_fn`` is ``--cost-fn``); ``target`` is ``--target``.
PARAMETERS: dict[str, tuple[str, ...]] = {
    "cost": ("c", "cost_fn", "cost_fp", "gain_tp", "gain_tn"),
    "punzi": ("a", "background_scale"),
    "ams": ("b_reg", "signal_scale", "background_scale"),
    "indistinguishability": ("level",),
}
_COST_GROUPS = ({"c"}, {"cost_fn", "cost_fp"}, {"gain_tp", "gain_tn"})
#: What ``cost`` minimises (or maximises) with each group of its options.
_COST_TEXT = {"c": "minimise the loss Q(c) of Hernandez-Orallo et al.",
              "cost_fn": "minimise the mean cost (cost_fn fn + cost_fp fp) / W",
              "gain_tp": "maximise the mean gain (gain_tp tp + gain_tn tn) / W"}
_HELP = {
    "c": "cost: the cost proportion c in [0, 1] (minimise the loss Q(c))",
    "cost_fn": "cost: the cost of a false negative (with --cost-fp)",
    "cost_fp": "cost: the cost of a false positive (with --cost-fn)",
    "gain_tp": "cost: the gain of a true positive (with --gain-tn)",
    "gain_tn": "cost: the gain of a true negative (with --gain-tp)",
    "a": "punzi: a (3)",
    "background_scale": "punzi, ams: the background scale (1)",
    "b_reg": "ams: the regularisation b_reg (10)",
    "signal_scale": "ams: the signal scale (1)",
    "level": "indistinguishability: the level of B (0.5)",
}


def option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _target(text: str) -> tuple[str | None, float]:
    """``recall=0.9`` (a rate and its target), or ``0.9`` beside ``--criterion recall``."""
    name, _, value = text.rpartition("=")
    if name and name not in TARGETS:
        raise argparse.ArgumentTypeError(
            f"--target: {name!r} is no target rate; give one of {', '.join(TARGETS)}, as "
            f"in recall=0.9")
    try:
        return name or None, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--target must be RATE=VALUE (recall=0.9, precision=0.8, fpr=0.01, "
            f"tnr=0.99), got {text!r}") from None


def add_parser(sub: Any) -> None:
    th = sub.add_parser("threshold", help="the best threshold for a criterion (f1, youden, "
                                          "cost, ...) or a target rate, with its confusion "
                                          "table")
    add_columns(th)
    th.add_argument("--criterion", choices=list(CRITERIA), default=None,
                    help="what the threshold optimises: "
                         + "; ".join(f"{k}: {v}" for k, v in CRITERIA.items()))
    th.add_argument("--target", type=_target, default=None, metavar="RATE=VALUE",
                    help="the threshold that meets a rate: recall=0.9 (the highest threshold "
                         "with recall >= 0.9), precision=0.8, fpr=0.01 (fpr <= 0.01), "
                         "tnr=0.99 (the lowest threshold meeting the target)")
    for name, text in _HELP.items():
        th.add_argument(option(name), dest=name, type=float, default=None, help=text)
    add_quiet(th)
    th.add_argument("--json", action="store_true", help="print the result as JSON")
    th.set_defaults(run=run)


def criterion_and_parameters(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The criterion and the parameters ``best_threshold`` takes, checked against each
    other in the options' own names."""
    criterion = args.criterion
    params: dict[str, Any] = {name: getattr(args, name) for name in _HELP
                              if getattr(args, name) is not None}
    if args.target is not None:
        rate, value = args.target
        if rate is not None and criterion is not None and rate != criterion:
            raise ValueError(f"--target {rate}=... and --criterion {criterion} disagree: "
                             "give one of them.")
        criterion = criterion or rate
        if criterion not in TARGETS:
            raise ValueError(f"--target applies to the rates {', '.join(TARGETS)}; give "
                             "it as RATE=VALUE, e.g. --target recall=0.9"
                             + (f" (--criterion {criterion} takes no target)."
                                if criterion else "."))
        params["target"] = value
    elif criterion in TARGETS:
        raise ValueError(f"--criterion {criterion} needs its target: --target "
                         f"{criterion}=VALUE, e.g. --target {criterion}=0.9.")
    if criterion is None:
        raise ValueError("give --criterion (one of " + ", ".join(CRITERIA)
                         + ") or --target RATE=VALUE.")
    takes = PARAMETERS.get(criterion, ())
    foreign = [option(p) for p in params if p != "target" and p not in takes]
    if foreign:
        raise ValueError(f"{', '.join(foreign)} do(es) not apply to --criterion {criterion}, "
                         f"which takes {', '.join(map(option, takes)) or 'no options'}.")
    if criterion == "cost" and set(params) not in _COST_GROUPS:
        raise ValueError("--criterion cost takes exactly one of: --c (the cost "
                         "proportion), --cost-fn and --cost-fp, or --gain-tp and --gain-tn; "
                         f"got {', '.join(map(option, params)) or 'none'}.")
    return criterion, params


def run(args: argparse.Namespace) -> int:
    criterion, params = criterion_and_parameters(args)   # before the file is read
    with read_rows(args) as rows:
        best = best_threshold(rows.label, rows.scores[args.score], criterion,
                              sample_weight=rows.weight, pos_label=rows.pos_label, **params)
        pos, neg = rows.class_weights()
    if args.json:
        output.print_json({**best.to_dict(), "parameters": params})
        return 0
    settings = ", ".join(f"--target {criterion}={v:g}" if k == "target" else f"{option(k)} {v:g}"
                         for k, v in params.items())
    print(output.header(args))
    print(output.class_line(rows.n_rows, pos, neg))
    what = (next(_COST_TEXT[k] for k in params if k in _COST_TEXT) if criterion == "cost"
            else CRITERIA[criterion])
    print(f"criterion {criterion}" + (f" ({settings})" if settings else "") + f": {what}")
    print(f"threshold {best.threshold!r}")
    print(best)
    return 0
