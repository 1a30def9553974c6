"""``indist-fast evaluate --calibration / --gains``: readings of each score's table
over all rows of the file (``score_table_file``), printed under the evaluation."""

from __future__ import annotations

import argparse
from typing import Any

from .arguments import progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--calibration", action="store_true",
                        help="also each score's calibration over all rows (10 uniform bins; "
                             "the scores must be probabilities in [0, 1]): the bins, ECE, "
                             "Brier score and its parts, log loss, calibration slope and "
                             "intercept, Hosmer-Lemeshow test")
    parser.add_argument("--gains", action="store_true",
                        help="also each score's gains table over all rows (deciles of the "
                             "score, ties kept together): positives, capture, lift, KS. "
                             "With --json, either gives {\"evaluate\": ..., \"calibration\": "
                             "{score: ...}, \"gains\": {score: ...}}")


def wanted(args: argparse.Namespace) -> bool:
    return bool(args.calibration or args.gains)


def readings(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """``{"calibration": {score: Calibration}, "gains": {score: GainsTable}}`` for the
    readings asked for, each score's table read from the file once."""
    from ..scale.file_tables import score_table_file
    out: dict[str, dict[str, Any]] = {}
    for score in args.score:
        table = score_table_file(args.file, label=args.label, score=score,
                                 weight=args.weight, pos_label=args.pos_label,
                                 progress=progress(args), drop_nulls=args.drop_nulls)
        if args.calibration:
            try:
                out.setdefault("calibration", {})[score] = table.calibration()
            except ValueError as exc:       # scores that are not probabilities
                raise ValueError(f"--calibration: score column {score!r}: {exc}") from None
        if args.gains:
            out.setdefault("gains", {})[score] = table.gains()
    return out


def text(found: dict[str, dict[str, Any]]) -> str:
    """Each reading under a line naming it and its score."""
    parts = []
    for kind, by_score in found.items():
        for score, record in by_score.items():
            parts.append(f"\n{kind} of {score!r} (all rows):\n{record}")
    return "\n".join(parts)


def as_dicts(found: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {kind: {score: record.to_dict() for score, record in by_score.items()}
            for kind, by_score in found.items()}
