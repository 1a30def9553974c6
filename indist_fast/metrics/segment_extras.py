"""The columns ``evaluate_many(extra=...)`` adds: readings of each segment's score table
that the engine's sweeps do not track (the KS statistic; calibration's ECE, MCE, Brier
score and log loss with ``calibration``'s defaults).

The sweeps never build a segment's table; these columns do, from one sort of the rows
by (segment, score) per model (``SegmentedTables``), then read each table as
``ScoreTable.ks`` and ``ScoreTable.calibration`` read it, so a column equals the array
function on the segment's rows.
"""

from __future__ import annotations

import warnings
from typing import Iterable

import numpy as np

from .._core.validation import Rows
from ..errors import IndistFastWarning
from ..table.score_table import ScoreTable
from ..table.segmented import SegmentedTables

__all__ = ["extra_columns"]

_CALIBRATION = ("ece", "mce", "brier", "log_loss")


def _readings(table: ScoreTable, extra: Iterable[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    if any(name in _CALIBRATION for name in extra):
        with warnings.catch_warnings():
            # (its warnings are about the slope and the Hosmer-Lemeshow test, which
            # these columns do not hold: one per segment would bury the table's own)
            warnings.simplefilter("ignore", IndistFastWarning)
            cal = table.calibration()
        out.update({name: float(getattr(cal, name)) for name in _CALIBRATION})
    if "ks" in extra:
        out["ks"] = float(table.ks(method=None).statistic)
    return out


def extra_columns(rows: Rows, codes: np.ndarray, n_segments: int, extra: tuple[str, ...],
                  ) -> dict[str, np.ndarray]:
    """The ``extra`` columns of one model, one value per segment ``0 .. n_segments - 1``:
    NaN for a segment of one class (as its other metrics)."""
    if any(name in _CALIBRATION for name in extra) and len(rows.s):
        lo, hi = float(np.min(rows.s)), float(np.max(rows.s))
        if not (0.0 <= lo and hi <= 1.0):
            asked = [name for name in extra if name in _CALIBRATION]
            raise ValueError(f"extra {asked} reads y_score as probabilities, which must "
                             f"lie in [0, 1]; they run from {lo!r} to {hi!r}. Map margins "
                             "or log-odds through a sigmoid, or ask only for 'ks'.")
    n_rows = np.bincount(codes, minlength=n_segments)
    tables = SegmentedTables.from_rows(rows, codes).tables(n_segments, n_rows)
    columns = {name: np.full(n_segments, np.nan) for name in extra}
    for g, table in enumerate(tables):
        if not (table.weight_pos > 0 and table.weight_neg > 0):
            continue
        for name, value in _readings(table, extra).items():
            if name in columns:
                columns[name][g] = value
    return columns

