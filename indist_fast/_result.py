"""The one-sweep summary both engines return."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class SweepResult(NamedTuple):
    """Everything one descending sweep over a score table reads (SPEC §2-§4).

    ``crossings`` has one row per requested level, ``[index, threshold, TP, FP, B]``
    of the first operating point with ``B >= level`` (NaN when none reaches it).
    ``b_last`` is B at the lowest threshold (every row labelled). ``costs`` holds
    the threshold-choice sums (``CostSums``) when the sweep was asked for them.
    """

    n_groups: int
    n_undefined: int
    weight_pos: float
    weight_neg: float
    auc: float
    average_precision: float
    b_last: float
    crossings: np.ndarray
    costs: CostSums | None = None


class CostSums(NamedTuple):
    """Condition-free sums of SPEC §7 from one sweep (uniform cost proportion).

    ``mae_*``, ``brier_*``: sums of w (1 - s) and w (1 - s)^2 over positives, of w s and
    w s^2 over negatives. ``t_tp``, ``t_fp``:
    the operating point at the fixed threshold; ``q_tp``, ``q_fp``: at the fixed
    rate. ``hull``: rows FP, TP, threshold of the upper ROC convex hull from (0, 0).
    """

    mae_pos: float
    mae_neg: float
    brier_pos: float
    brier_neg: float
    min_score: float
    max_score: float
    t_tp: float
    t_fp: float
    q_tp: float
    q_fp: float
    hull: np.ndarray
