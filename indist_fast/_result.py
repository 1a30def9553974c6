"""The one-sweep summary both engines return."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class SweepResult(NamedTuple):
    """Everything one descending sweep over a score table reads (SPEC §2-§4).

    ``crossings`` has one row per requested level, ``[index, threshold, TP, FP, B]``
    of the first operating point with ``B >= level`` (NaN when none reaches it).
    ``b_last`` is B at the lowest threshold (every row labelled).
    """

    n_groups: int
    n_undefined: int
    weight_pos: float
    weight_neg: float
    auc: float
    average_precision: float
    b_last: float
    crossings: np.ndarray
