"""Which way scores rank: ``direction`` as pROC's ``roc(direction=...)``.

``"higher"`` (pROC's ``"<"``, controls below cases): positive where ``score >=
threshold``, the library's convention everywhere. ``"lower"`` (pROC's ``">"``):
positive where ``score <= threshold``; the rows are then read with negated scores, so
every sort, table and sweep stays as it is. ``"auto"`` picks by the class medians as
pROC does (``median(controls) <= median(cases)``: higher) and warns when it picks
lower.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..errors import DirectionWarning, warn
from .validation import Rows

__all__ = ["DIRECTIONS", "check_direction", "orient_rows", "weighted_median"]

#: Accepted spellings, each to ``"higher"``, ``"lower"`` or ``"auto"``.
DIRECTIONS = {"higher": "higher", "lower": "lower", "auto": "auto", "<": "higher",
              ">": "lower"}


def check_direction(direction: Any) -> str:
    """``direction`` as ``"higher"``, ``"lower"`` or ``"auto"`` (pROC's ``"<"`` and
    ``">"`` accepted)."""
    if not isinstance(direction, str) or direction not in DIRECTIONS:
        raise ValueError("direction must be 'higher' (positive where score >= threshold; "
                         "pROC's '<'), 'lower' (score <= threshold; pROC's '>') or "
                         f"'auto' (by the class medians, as pROC), got {direction!r}.")
    return DIRECTIONS[direction]


def weighted_median(values: np.ndarray, weights: np.ndarray | None) -> float:
    """The median (the mean of the two middle values for an even count, as R's
    ``median``); with weights, the mean of the lower and upper weighted medians, which
    is the same number for weights of 1."""
    if weights is None:
        return float(np.median(values))
    keep = weights > 0
    order = np.argsort(values[keep], kind="stable")
    v, w = values[keep][order], weights[keep][order]
    cum = np.cumsum(w)
    half = cum[-1] / 2.0
    lower = v[np.searchsorted(cum, half, side="left")]
    upper = v[min(np.searchsorted(cum, half, side="right"), len(v) - 1)]
    return float((lower + upper) / 2.0)


def orient_rows(rows: Rows, direction: str) -> tuple[Rows, bool]:
    """The rows as the library ranks them (higher scores positive) and whether their
    scores were negated. ``direction`` is a checked one; ``"auto"`` warns when it
    reverses."""
    if direction == "higher":
        return rows, False
    if direction == "auto":
        is_pos = rows.y == rows.pos_value
        w = rows.w
        pos = rows.s[is_pos].astype(np.float64)
        neg = rows.s[~is_pos].astype(np.float64)
        wp = None if w is None else w[is_pos]
        wn = None if w is None else w[~is_pos]
        if (len(pos) == 0 or len(neg) == 0 or (wp is not None and not (wp > 0).any())
                or (wn is not None and not (wn > 0).any())):
            return rows, False          # one class: the caller's check says so
        if weighted_median(neg, wn) <= weighted_median(pos, wp):
            return rows, False
        warn("direction='auto': the negatives' median score is above the positives', so "
             "lower scores are read as positive (score <= threshold), as pROC's "
             "direction '>'; pass direction='lower' to say so.", DirectionWarning)
    return dataclasses.replace(rows, s=np.negative(rows.s)), True
