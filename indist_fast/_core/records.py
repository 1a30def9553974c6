"""What the engines return, named.

``SweepResult`` is the one-sweep summary every evaluation reads; the other records
carry a kernel's extra state (a table, row counts, a piece's final G) so that no caller
indexes a positional tuple. The arithmetic both twins share on these numbers is in
``rates``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray

_R = TypeVar("_R")


_new, _set = object.__new__, object.__setattr__  # (a frozen dataclass's __setattr__ refuses)


def frozen_instance(cls: type[_R], **values: Any) -> _R:
    """A frozen dataclass built without its generated ``__init__``, whose one
    ``object.__setattr__`` per field is most of the Python cost of a service call of
    a thousand rows (rows, operating points, report). Only for classes without
    ``__post_init__``; every field given."""
    return frozen_from(cls, values)         # the call's own fresh dict


def frozen_from(cls: type[_R], values: dict[str, Any]) -> _R:
    """``frozen_instance`` from a dict of every field, in their order, that becomes the
    instance's own (a dict literal: cheaper than keyword arguments per field)."""
    obj = _new(cls)
    _set(obj, "__dict__", values)
    return obj


# The annotations both engine twins use, so that their signatures read the same.
Array = NDArray[Any]
Costs = tuple[float, float, float] | None        # (t_fixed, q_fixed, rate_pi_pos)
Release = Callable[[int, int], None] | None      # release(start, stop): rows read
# One writer's rows for ``summarize_parts``: an iterator of ``(y, s)`` blocks, made on
# the thread that writes them (None for a block its source cannot give as it is).
Part = Callable[[], Iterable["tuple[Array, Array] | None"]]


class Crossing(NamedTuple):
    """The columns of ``crossings`` rows, by name: the first operating point whose B
    reaches a level. ``index`` is its place among the distinct scores, highest first
    (NaN when no point reaches the level), then its ``threshold``, ``tp``, ``fp`` and
    ``b``. Each field is a float for one row and an array for many."""

    index: Any
    threshold: Any
    tp: Any
    fp: Any
    b: Any


#: Columns of a crossing row (the last axis of every ``crossings`` array).
CROSSING_WIDTH = len(Crossing._fields)


def crossing_fields(crossings: np.ndarray) -> Crossing:
    """The columns of crossing rows (their last axis) by name, as views of ``crossings``."""
    return Crossing(*np.moveaxis(np.asarray(crossings), -1, 0))


class ReplicateRow(NamedTuple):
    """The columns of a bootstrap replicate's sweep row, by name: the class totals, AUC
    and AP, then the crossing of one level without its index (a replicate row holds
    ``threshold, tp, fp, b`` for each level in turn)."""

    weight_pos: np.ndarray
    weight_neg: np.ndarray
    auc: np.ndarray
    average_precision: np.ndarray
    threshold: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    b: np.ndarray


#: Columns before the first level's crossing in a replicate row, and per level after.
REPLICATE_HEAD = 4
REPLICATE_POINT = CROSSING_WIDTH - 1


def replicate_fields(rows: np.ndarray, level: int = 0) -> ReplicateRow:
    """The columns of replicate rows (``(n, REPLICATE_HEAD + REPLICATE_POINT * k)``) by
    name, with the crossing of level number ``level``; views of ``rows``."""
    first = REPLICATE_HEAD + REPLICATE_POINT * level
    return ReplicateRow(*(rows[:, i] for i in range(REPLICATE_HEAD)),
                        *(rows[:, first + i] for i in range(REPLICATE_POINT)))


class SweepResult(NamedTuple):
    """Everything one descending sweep over a score table reads.

    See the definitions page of the documentation: AUC, B(r), r_b, C(r_b).

    ``crossings`` has one row per requested level, the fields of ``Crossing`` (read
    them by name with ``crossing_fields``) at the first operating point with
    ``B >= level`` (NaN when none reaches it). B there is ``1/2 + G / (2 Den)`` with ``G = 2 Num - Den`` summed in the form that is
    exactly 0 where B is 1/2 by structure, and "reaches" means this very value is
    ``>= level`` (see ``indist_fast/_core/sweep.pxd``), so it agrees with ``Curves.b``.
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


class Table(NamedTuple):
    """A score table: distinct scores (descending) with the positive and negative
    weight at each (int64 counts without weights, float64 sums with them)."""

    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray


class WindowStep(NamedTuple):
    """A batch of signed rows joined to a window (``window_step``): the doubled change
    of the Mann-Whitney sum U, and the window's delta run with the batch merged in
    (ascending distinct scores; positive weight, negative weight and row count at each,
    negative where more rows left than came; an entry stays until all three are 0);
    ``dpos``, ``dneg``: the changes of the class totals."""

    du2: float
    dpos: float
    dneg: float
    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    rows: np.ndarray


class WindowBase(NamedTuple):
    """Two signed runs merged (``window_merge``): ascending distinct scores held by at
    least one row, the weights and row counts at each, the cumulative weights below each
    (length m + 1, starting at 0), and the doubled U of the rows held."""

    u2: float
    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    rows: np.ndarray
    pos_below: np.ndarray
    neg_below: np.ndarray


class SortedClasses(NamedTuple):
    """Each class's scores, sorted ascending (the runs of out-of-core evaluation)."""

    pos: np.ndarray
    neg: np.ndarray


class RowCounts(NamedTuple):
    """One row block counted by class and by side of a pivot (``count_rows``).

    ``*_lo`` fields cover rows with score below the pivot. ``bad_label``, ``nan_row``
    and ``bad_weight`` are the first such row or -1. Weight sums are 0 without
    weights; the positive ones are compensated pairs (``weight_pos +
    weight_pos_err`` is their sum to about n u^2).
    """

    pos_lo: int
    pos_hi: int
    neg_lo: int
    neg_hi: int
    weight_pos: float
    weight_neg: float
    bad_label: int
    nan_row: int
    bad_weight: int
    weight_pos_lo: float
    weight_neg_lo: float
    weight_pos_err: float
    weight_pos_lo_err: float


class KeySweep(NamedTuple):
    """A sweep of weighted key pieces and the compensated TP it ended at (the total
    positive weight B's exact comparison needs, see ``sweep.pxd``)."""

    result: SweepResult
    tp_end: float


class Checkpoint(NamedTuple):
    """A sweep's state after the keys at and above a split: TP as a compensated pair,
    FP, G = 2 Num - Den (scaled) and the operating points so far."""

    tp: float
    tp_err: float
    fp: float
    gap: float
    n_groups: int


class PieceSweep(NamedTuple):
    """One key piece swept from the state above it: its additive shares (``result``),
    the final G and Den (scaled), the final compensated TP, and the state at the split
    asked for (None without one)."""

    result: SweepResult
    gap: float
    den: float
    tp_end: float
    checkpoint: Checkpoint | None


class RangeSweep(NamedTuple):
    """One score range swept from the state of the ranges above: its additive shares
    and crossings (``result``) and its final G = 2 Num - Den."""

    result: SweepResult
    gap: float


class DeLongSums(NamedTuple):
    """DeLong's AUC and the summed squared structural components of a score table:
    ``pos = sum_g tp_g (V10_g - auc)^2`` and ``neg = sum_g fp_g (V01_g - auc)^2``."""

    auc: float
    pos: float
    neg: float


class DeLongComponents(NamedTuple):
    """Every row's DeLong structural component under one model (``delong_components``):
    ``V10`` of its score group for a positive, ``V01`` for a negative (rows of weight 0:
    NaN), with the AUC (the positive-weighted mean of ``V10``) and the class
    weights. NaN components and AUC when a class has no weight."""

    component: np.ndarray
    auc: float
    weight_pos: float
    weight_neg: float


class PairedMoments(NamedTuple):
    """Per class, the weighted mean of the difference of two models' components and
    the weighted sum of squared deviations from it (``paired_moments``)."""

    mean_pos: float
    squares_pos: float
    mean_neg: float
    squares_neg: float


class ReplicateCounts(NamedTuple):
    """One bootstrap replicate: weight per group by class, and draws per row."""

    tp: np.ndarray
    fp: np.ndarray
    pos_counts: np.ndarray
    neg_counts: np.ndarray


class CostSettings(NamedTuple):
    """The threshold-choice settings with defaults filled in: the fixed threshold,
    the fixed rate and the rate's weight of positives."""

    t_fixed: float
    q_fixed: float
    rate_pi_pos: float


class SegmentSweeps(NamedTuple):
    """One sweep per segment, as arrays indexed by segment code (``summarize_segments``):
    the fields of ``SweepResult`` for every segment, ``n_rows`` counting its rows (zero
    weights included) and ``crossings`` of shape ``(n_segments, n_levels, 5)``."""

    n_rows: np.ndarray
    n_groups: np.ndarray
    n_undefined: np.ndarray
    weight_pos: np.ndarray
    weight_neg: np.ndarray
    auc: np.ndarray
    average_precision: np.ndarray
    b_last: np.ndarray
    crossings: np.ndarray

    @classmethod
    def from_columns(cls, out: np.ndarray, crossings: np.ndarray) -> "SegmentSweeps":
        """From the kernels' ``(n_segments, 8)`` block (the fields in order) and crossings."""
        return cls(out[:, 0].astype(np.int64), out[:, 1].astype(np.int64),
                   out[:, 2].astype(np.int64), out[:, 3].copy(), out[:, 4].copy(),
                   out[:, 5].copy(), out[:, 6].copy(), out[:, 7].copy(), crossings)

    @classmethod
    def from_sweep(cls, result: SweepResult, n_rows: int) -> "SegmentSweeps":
        """One segment holding every row: ``result`` as a table of one."""
        return cls(np.array([n_rows]), np.array([result.n_groups]),
                   np.array([result.n_undefined]), np.array([result.weight_pos]),
                   np.array([result.weight_neg]), np.array([result.auc]),
                   np.array([result.average_precision]), np.array([result.b_last]),
                   result.crossings[None])

    def take(self, keep: np.ndarray) -> "SegmentSweeps":
        """The segments where the boolean mask ``keep`` is True, renumbered in order."""
        return SegmentSweeps(*(field[keep] for field in self))

    def sweep(self, segment: int) -> SweepResult:
        """Segment ``segment``'s sweep as the ``SweepResult`` of its rows alone."""
        return SweepResult(int(self.n_groups[segment]), int(self.n_undefined[segment]),
                           float(self.weight_pos[segment]), float(self.weight_neg[segment]),
                           float(self.auc[segment]), float(self.average_precision[segment]),
                           float(self.b_last[segment]), self.crossings[segment])


class CostSums(NamedTuple):
    """Condition-free sums of the threshold choice losses from one sweep (uniform cost
    proportion; Hernandez-Orallo, Flach and Ferri, definitions page).

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
