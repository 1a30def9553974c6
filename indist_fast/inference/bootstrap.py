"""Sort-once bootstrap: percentile intervals for any metric read from a score table.

A replicate redraws the rows with replacement (within each class when stratified).
Rows are never re-sorted: every row is a *slot* that knows its group in the table
(its distinct score), a replicate is how often each slot was drawn, and adding the
drawn weights to their groups gives the replicate's table, read by one sweep. Each
replicate ``k`` has its own bit generator, derived from the seed and ``k`` alone, so
results are identical for a given seed however the replicates are spread over threads
or engine calls; a progress bar counts the batches the engine sweeps.

Every function here is seeded by default (``seed=0``): the same call gives the same
intervals; ``seed=None`` draws fresh entropy from the OS (reported as ``seed_entropy``).
"""

from __future__ import annotations

import math
import numbers
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Union

import numpy as np

from .._core.engine import engine
from .._core.progress import Bar, progress_bar
from .._core.records import SweepResult, crossing_fields, replicate_fields
from .._core.rates import operating_rates
from .._core.validation import Rows, check_count, check_flag, check_level, check_seed, prepare_rows
from .._core.validation import check_two_classes
from ..results.report import ReadOnlyMapping, record_dict
from ..table.roc_readings import check_partial, curve_of, curve_of_counts, partial_area
from ..table.score_table import ScoreTable

__all__ = ["bootstrap", "BootstrapResult", "Interval", "Resampler", "METRICS",
           "DEFAULT_METRICS"]

#: Metrics the bootstrap reads straight from each replicate's sweep.
METRICS = ("auc", "average_precision", "threshold", "precision", "lift", "tpr", "fpr",
           "f1", "b")
DEFAULT_METRICS = ("auc", "average_precision", "threshold", "precision")

TableMetric = Callable[[ScoreTable], float]
Seed = Union[None, int, np.random.SeedSequence]

#: Most replicates one call draws. The replicate arrays dominate memory: a sweep row
#: of 8 float64 per replicate plus one float64 per metric, so 10**7 replicates hold
#: about 1 GB; beyond that a request is a typo, not a plan (and would run for days).
MAX_REPLICATES = 10**7
# Bit generators are built this many at a time, so memory does not grow with n_boot
# beyond the output (a PCG64 with its SeedSequence costs about a kilobyte).
_GENERATOR_CHUNK = 4096
#: Steps a progress bar makes where the work splits freely (draws, segments).
PROGRESS_STEPS = 32


def child_generator(seed: np.random.SeedSequence, k: int) -> np.random.PCG64:
    """Replicate ``k``'s bit generator: ``PCG64`` of child ``k`` of ``seed``,
    ``SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (k,))``."""
    return np.random.PCG64(np.random.SeedSequence(seed.entropy,
                                                  spawn_key=seed.spawn_key + (k,)))


def sweep_replicates(seed: np.random.SeedSequence, n_boot: int, pos_group: np.ndarray,
                     pos_weight: np.ndarray | None, neg_group: np.ndarray,
                     neg_weight: np.ndarray | None, scores: np.ndarray, stratified: bool,
                     levels: np.ndarray, exclude_self: bool = True,
                     bar: Bar | None = None) -> np.ndarray:
    """One sweep per replicate ``0..n_boot-1`` of the slots, replicate ``k`` drawn by
    ``child_generator(seed, k)``, ``bar`` advanced by each batch of replicates the
    engine sweeps (16 per call on two threads). Generators are built
    ``_GENERATOR_CHUNK`` at a time; neither split changes the result.

    Parameters
    ----------
    seed : numpy.random.SeedSequence
        Parent of the replicates' generators.
    n_boot : int
        Number of replicates (checked by the caller).
    pos_group, neg_group : ndarray of int64
        The group (index into ``scores``) of every positive / negative slot.
    pos_weight, neg_weight : ndarray of float64 or None
        Slot weights (None: every slot weighs 1).
    scores : ndarray of float64
        The distinct scores, descending.
    stratified : bool
        Draw as many positives and negatives as there are slots of each.
    levels : ndarray of float64
        Levels of ``B`` whose crossings each sweep records.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    bar : Bar, optional
        Advanced by the replicates of each call.

    Returns
    -------
    ndarray of float64 of shape (n_boot, n_columns)
        One row per replicate (columns as in the engine's ``replicate_sweeps``).

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.inference.bootstrap import sweep_replicates
    >>> rows = sweep_replicates(np.random.SeedSequence(0), 3, np.array([0, 1]), None,
    ...                        np.array([1, 2]), None, np.array([0.8, 0.6, 0.1]), True,
    ...                        np.array([0.5]))
    >>> rows.shape[0], rows[:, 0].tolist()       # (stratified: 2 positives each)
    (3, [2.0, 2.0, 2.0])
    """
    eng = engine()
    done = None
    if bar is not None and bar.shown:
        lock = threading.Lock()      # (batches end on either thread; tqdm's count is not atomic)

        def done(k: int) -> None:
            with lock:
                bar.update(k)
    chunks = [eng.replicate_sweeps(
        [child_generator(seed, k) for k in range(start, min(n_boot, start + _GENERATOR_CHUNK))],
        pos_group, pos_weight, neg_group, neg_weight, scores, stratified, levels,
        exclude_self, done)
        for start in range(0, n_boot, _GENERATOR_CHUNK)]
    return chunks[0] if len(chunks) == 1 else np.concatenate(chunks)


def percentile_bounds(replicates: np.ndarray, confidence: float
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Each row's percentile interval: the ``(1 -+ confidence) / 2`` quantiles of its
    values that are not NaN (NaN bounds for a row without any).

    One definition for ``Interval`` and the per-segment intervals of
    ``evaluate_many``: rows with as many defined values are read by one vectorised
    ``np.quantile`` (linear method), whose arithmetic per row is that of a 1-D call on
    the row. Its interpolation subtracts neighbours, which turns infinite replicates
    (a threshold at a score of ±inf) into NaN: there the bound is the neighbour it
    lands on, or the infinite one between them (NaN only between -inf and inf).

    Parameters
    ----------
    replicates : ndarray of float64 of shape (n_rows, n_boot)
        Replicates of one metric per row (NaN where undefined).
    confidence : float
        Coverage of the intervals.

    Returns
    -------
    low, high : ndarray of float64 of shape (n_rows,)

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.inference.bootstrap import percentile_bounds
    >>> low, high = percentile_bounds(np.array([[0.7, 0.75, 0.8, np.nan],
    ...                                         [np.nan] * 4]), 0.9)
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.705, nan], [0.795, nan])
    """
    tail = (1.0 - confidence) / 2.0
    ordered = np.sort(replicates, axis=1)             # NaN sorts last
    defined = np.count_nonzero(~np.isnan(replicates), axis=1)
    low, high = np.full(len(replicates), np.nan), np.full(len(replicates), np.nan)
    q = np.array([tail, 1.0 - tail])
    for n in np.unique(defined).tolist():
        if n:
            rows = defined == n
            values = ordered[rows, :n]
            with np.errstate(invalid="ignore"):
                bounds = np.quantile(values, q, axis=1)
            infinite = ~np.isfinite(values).all(axis=1)
            if infinite.any():
                bounds[:, infinite] = _infinite_quantiles(values[infinite], q)
            low[rows], high[rows] = bounds
    return low, high


def _infinite_quantiles(values: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Linear quantiles ``q`` of sorted rows holding ±inf, shape ``(len(q), n_rows)``:
    the neighbour at an exact index, else the sum of the two neighbours (which is the
    infinite one when one is infinite, and NaN between -inf and inf)."""
    n = values.shape[1]
    at = (n - 1) * q                        # np.quantile's virtual index (linear)
    below = np.floor(at).astype(np.intp)
    above = np.minimum(below + 1, n - 1)
    a, b = values[:, below].T, values[:, above].T
    with np.errstate(invalid="ignore"):
        lerp = a + (b - a) * (at - below)[:, None]
        out: np.ndarray = np.where((at == below)[:, None] | (a == b), a,
                                   np.where(np.isfinite(a) & np.isfinite(b), lerp, a + b))
    return out


@dataclass(frozen=True)
class Interval:
    """Bootstrap summary of one metric.

    Attributes
    ----------
    metric : str
        Name of the metric.
    estimate : float
        The metric on the full data.
    std_error : float
        Standard deviation of the replicates (ddof=1), NaN replicates left out.
    low, high : float
        Percentile interval: the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``
        quantiles of the replicates.
    confidence : float
        Nominal coverage of ``[low, high]``.
    replicates : ndarray of shape (n_boot,)
        The metric on every replicate (NaN where undefined, e.g. a level not reached).
    n_undefined : int
        Replicates where the metric is NaN.

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> iv = indist_fast.bootstrap(y, s, n_boot=50, seed=0)["auc"]
    >>> iv.metric, iv.replicates.shape, iv.low <= iv.high
    ('auc', (50,), True)
    """

    metric: str
    estimate: float
    std_error: float
    low: float
    high: float
    confidence: float
    replicates: np.ndarray = field(repr=False, compare=False)  # not in repr(); no ==
    n_undefined: int

    @classmethod
    def from_replicates(cls, metric: str, estimate: float, replicates: np.ndarray,
                        confidence: float) -> "Interval":
        """Summarise a metric's replicates.

        Parameters
        ----------
        metric : str
            Name of the metric.
        estimate : float
            The metric on the full data.
        replicates : array-like of float
            The metric on every replicate (NaN where undefined).
        confidence : float
            Coverage of the percentile interval.

        Returns
        -------
        Interval
            The interval (frozen; ``replicates`` read-only).

        Examples
        --------
        >>> import numpy as np
        >>> from indist_fast.inference.bootstrap import Interval
        >>> iv = Interval.from_replicates("auc", 0.8, np.array([0.7, 0.75, 0.8, np.nan]), 0.9)
        >>> round(iv.low, 4), round(iv.high, 4), iv.n_undefined
        (0.705, 0.795, 1)
        """
        # A copy made read-only: the caller's array keeps its flags.
        replicates = np.array(replicates, dtype=np.float64)
        replicates.setflags(write=False)
        ok = replicates[~np.isnan(replicates)]
        low, high = percentile_bounds(replicates[None, :], confidence)
        with np.errstate(invalid="ignore"):      # ±inf replicates: no spread (NaN)
            std = float(np.std(ok, ddof=1)) if len(ok) > 1 else math.nan
        return cls(metric, float(estimate), std, float(low[0]), float(high[0]), confidence,
                   replicates, int(len(replicates) - len(ok)))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, without the replicates.

        Returns
        -------
        dict
            Every field but ``replicates``; NaN becomes None.

        Examples
        --------
        >>> import indist_fast
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
        >>> d = indist_fast.bootstrap(y, s, n_boot=50, seed=0)["auc"].to_dict()
        >>> d["metric"], d["confidence"], "replicates" in d
        ('auc', 0.95, False)
        """
        return record_dict(self, skip=("replicates",))


@dataclass(frozen=True)
class BootstrapResult:
    """Percentile intervals of several metrics from one set of replicates.

    Index by metric name: ``result["auc"].low``.

    Attributes
    ----------
    intervals : Mapping[str, Interval]
        One entry per metric, in the order asked for.
    n_boot : int
        Number of replicates.
    stratified : bool
        Whether replicates kept the class counts.
    confidence : float
        Nominal coverage of the intervals.
    level : float
        Level of B whose operating point the threshold metrics describe.
    seed_entropy : int
        Entropy of the ``SeedSequence`` the replicates came from: pass it as ``seed``
        to reproduce them.

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
    >>> result = indist_fast.bootstrap(y, s, n_boot=50, seed=0)
    >>> list(result), result.n_boot
    (['auc', 'average_precision', 'threshold', 'precision'], 50)
    """

    intervals: Mapping[str, Interval]
    n_boot: int
    stratified: bool
    confidence: float
    level: float
    seed_entropy: int

    def __getitem__(self, metric: str) -> Interval:
        return self.intervals[metric]

    # A mapping of metric -> Interval for reading (``for m in result``, ``"auc" in
    # result``); the replicates stay out of iteration.
    def __iter__(self) -> Iterator[str]:
        return iter(self.intervals)

    def __len__(self) -> int:
        return len(self.intervals)

    def __contains__(self, metric: object) -> bool:
        return metric in self.intervals

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, without the replicates.

        Returns
        -------
        dict
            Every field; ``intervals`` maps each metric to its interval's dict.

        Examples
        --------
        >>> import indist_fast
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.2, 0.4]
        >>> d = indist_fast.bootstrap(y, s, n_boot=50, seed=0).to_dict()
        >>> d["n_boot"], sorted(d["intervals"]["auc"])[:3]
        (50, ['confidence', 'estimate', 'high'])
        """
        return record_dict(self, intervals={k: v.to_dict()
                                            for k, v in self.intervals.items()})

    def __repr__(self) -> str:
        # short: the intervals' estimates, never their replicates
        shown = ", ".join(f"{m}={iv.estimate:.4g} [{iv.low:.4g}, {iv.high:.4g}]"
                          for m, iv in self.intervals.items())
        return (f"BootstrapResult({shown}; n_boot={self.n_boot}, "
                f"confidence={self.confidence:g}, seed_entropy={self.seed_entropy})")

    def _repr_html_(self) -> str:
        from ..results.html_tables import intervals_table
        return intervals_table(self.intervals, caption=(
            f"bootstrap: {self.n_boot:,} {'stratified ' if self.stratified else ''}"
            f"replicates, {self.confidence:.0%} percentile intervals"))

    def __str__(self) -> str:
        pct = f"{self.confidence:.0%}"
        lines = [f"bootstrap: {self.n_boot} {'stratified ' if self.stratified else ''}"
                 f"replicates, {pct} percentile intervals",
                 f"{'metric':>18} {'estimate':>10} {'std err':>9} {'low':>9} {'high':>9}"]
        for iv in self.intervals.values():
            note = f"  ({iv.n_undefined} undefined)" if iv.n_undefined else ""
            lines.append(f"{iv.metric:>18} {iv.estimate:>10.4f} {iv.std_error:>9.4f} "
                         f"{iv.low:>9.4f} {iv.high:>9.4f}{note}")
        return "\n".join(lines)


def _entropy(seed: np.random.SeedSequence) -> int:
    """The seed's entropy, reported so that a run can be repeated: one int."""
    entropy = seed.entropy
    if isinstance(entropy, (int, np.integer)):
        return int(entropy)
    raise ValueError("seed must be None, a non-negative integer or a SeedSequence made "
                     f"from one (its entropy is reported as seed_entropy), got entropy "
                     f"{entropy!r}.")


def derived_metrics(sweeps: np.ndarray, column: int = 0) -> dict[str, np.ndarray]:
    """Every built-in metric from rows of sweep output (see ``replicate_sweeps``)."""
    row = replicate_fields(sweeps, column)
    return {"auc": row.auc, "average_precision": row.average_precision,
            "threshold": row.threshold, "b": row.b,
            **operating_rates(row.tp, row.fp, row.weight_pos, row.weight_neg)._asdict()}


def sweep_metrics(result: SweepResult) -> dict[str, np.ndarray]:
    """``derived_metrics`` of one sweep (its first level), read like a replicate's row."""
    point = crossing_fields(result.crossings[0])
    row = [result.weight_pos, result.weight_neg, result.auc, result.average_precision,
           point.threshold, point.tp, point.fp, point.b]
    return derived_metrics(np.array([row], dtype=np.float64))


class Resampler:
    """Bootstrap replicates of one data set, as draw counts over its score table.

    Parameters
    ----------
    table : ScoreTable
        The table of the rows (one sort, done before).
    pos_group, neg_group : ndarray of int64
        The group (index into ``table.scores``) of every positive / negative slot.
    pos_weight, neg_weight : ndarray of float64 or None
        Slot weights (None: every slot weighs 1).
    stratified : bool, default=True
        Draw as many positives and negatives as the data hold.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the replicates; replicate ``k`` uses child ``k`` of it. None draws
        fresh entropy from the OS.

    Examples
    --------
    >>> from indist_fast._core.validation import prepare_rows
    >>> from indist_fast.inference.bootstrap import Resampler
    >>> from indist_fast.table.score_table import ScoreTable
    >>> rows = prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
    >>> resampler = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=0)
    >>> resampler.replicate_table(0).n_rows
    4
    """

    def __init__(self, table: ScoreTable, pos_group: np.ndarray, pos_weight: np.ndarray | None,
                 neg_group: np.ndarray, neg_weight: np.ndarray | None, *,
                 stratified: bool = True, seed: Seed = 0) -> None:
        self.table = table
        self.pos_group, self.neg_group = pos_group, neg_group
        self.pos_weight, self.neg_weight = pos_weight, neg_weight
        self.stratified = check_flag(stratified, "stratified")
        self.seed = check_seed(seed)

    @classmethod
    def from_rows(cls, rows: Rows, table: ScoreTable, *, stratified: bool = True,
                  seed: Seed = 0) -> "Resampler":
        """Slots of validated rows whose table is ``table``.

        Parameters
        ----------
        rows : Rows
            The output of ``indist_fast._core.validation.prepare_rows``.
        table : ScoreTable
            The table of those rows.
        stratified : bool, default=True
            Draw as many positives and negatives as the data hold.
        seed : int, sequence of int, numpy SeedSequence or None, default=0
            Seed of the replicates. None draws fresh entropy from the OS.

        Returns
        -------
        Resampler
            One slot per row (without weights, one per row of each group and class).

        Examples
        --------
        >>> from indist_fast import ScoreTable
        >>> from indist_fast._core.validation import prepare_rows
        >>> from indist_fast.inference.bootstrap import Resampler
        >>> rows = prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> r = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=0)
        >>> r.pos_group.tolist(), r.neg_group.tolist()
        ([0, 1], [2, 3])
        """
        m = len(table)
        if rows.w is None:
            # Rows of one group and class are alike: slots can follow the table.
            groups = np.arange(m, dtype=np.int64)
            return cls(table, np.repeat(groups, table.pos), None,
                       np.repeat(groups, table.neg), None, stratified=stratified, seed=seed)
        keep = rows.w > 0
        # The table's scores are strictly descending: its negation is sorted.
        group = np.searchsorted(-table.scores, -rows.s[keep].astype(np.float64))
        is_pos = rows.y[keep] == rows.pos_value
        w = rows.w[keep]
        return cls(table, group[is_pos].astype(np.int64), w[is_pos],
                   group[~is_pos].astype(np.int64), w[~is_pos], stratified=stratified,
                   seed=seed)

    def bit_generator(self, k: int) -> np.random.PCG64:
        """A fresh generator for replicate ``k`` (child ``k`` of the seed).

        Parameters
        ----------
        k : int
            Index of the replicate, ``>= 0``.

        Returns
        -------
        numpy.random.PCG64
            The same state every time for the same seed and ``k``.

        Examples
        --------
        >>> from indist_fast._core.validation import prepare_rows
        >>> from indist_fast.inference.bootstrap import Resampler
        >>> from indist_fast.table.score_table import ScoreTable
        >>> rows = prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> resampler = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=0)
        >>> import numpy as np
        >>> a = np.random.Generator(resampler.bit_generator(3)).random()
        >>> a == np.random.Generator(resampler.bit_generator(3)).random()
        True
        """
        return self._bit_generator(check_count(k, "k", minimum=0, maximum=2**63 - 1))

    def _bit_generator(self, k: int) -> np.random.PCG64:
        # Unchecked: the replicate loops pass their own range indices.
        return child_generator(self.seed, k)

    def sweeps(self, n_boot: int, levels: np.ndarray, exclude_self: bool = True, *,
               bar: Bar | None = None) -> np.ndarray:
        """One sweep per replicate ``0..n_boot-1`` (columns as in ``replicate_sweeps``),
        in a few dozen engine calls (``sweep_replicates``).

        Parameters
        ----------
        n_boot : int
            Number of replicates, at least 1.
        levels : ndarray of float64
            Levels of ``B`` whose crossings each sweep records.
        exclude_self : bool, default=True
            Drop the pairs of a positive copy with itself from ``B``.
        bar : Bar, optional
            A progress bar (``indist_fast._core.progress``) advanced by the replicates
            as they are swept.

        Returns
        -------
        ndarray of float64 of shape (n_boot, n_columns)
            One row per replicate.

        Examples
        --------
        >>> from indist_fast._core.validation import prepare_rows
        >>> from indist_fast.inference.bootstrap import Resampler
        >>> from indist_fast.table.score_table import ScoreTable
        >>> rows = prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> resampler = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=0)
        >>> import numpy as np
        >>> resampler.sweeps(5, np.array([0.5])).shape[0]
        5
        """
        n_boot = check_count(n_boot, "n_boot", minimum=1, maximum=MAX_REPLICATES)
        return sweep_replicates(self.seed, n_boot, self.pos_group, self.pos_weight,
                                self.neg_group, self.neg_weight, self.table.scores,
                                self.stratified, levels, exclude_self, bar)

    def counts(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """How often replicate ``k`` drew each positive and each negative slot.

        Parameters
        ----------
        k : int
            Index of the replicate, ``>= 0``.

        Returns
        -------
        pos_counts, neg_counts : ndarray
            Draws of each positive and each negative slot.

        Examples
        --------
        >>> from indist_fast._core.validation import prepare_rows
        >>> from indist_fast.inference.bootstrap import Resampler
        >>> from indist_fast.table.score_table import ScoreTable
        >>> rows = prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> resampler = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=0)
        >>> pos_counts, neg_counts = resampler.counts(0)
        >>> int(pos_counts.sum()), int(neg_counts.sum())  # stratified: class counts kept
        (2, 2)
        """
        _, _, pos_counts, neg_counts = self._replicate(k)
        return pos_counts, neg_counts

    def _replicate(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return engine().replicate_counts(
            self._bit_generator(k), self.pos_group, self.pos_weight, self.neg_group,
            self.neg_weight, len(self.table), self.stratified)

    def replicate_table(self, k: int) -> ScoreTable:
        """The score table of replicate ``k``.

        Parameters
        ----------
        k : int
            Index of the replicate, ``>= 0``.

        Returns
        -------
        ScoreTable
            The drawn rows' table (scores no replicate drew are left out).

        Examples
        --------
        >>> from indist_fast._core.validation import prepare_rows
        >>> from indist_fast.inference.bootstrap import Resampler
        >>> from indist_fast.table.score_table import ScoreTable
        >>> rows = prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> resampler = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=0)
        >>> table = resampler.replicate_table(0)
        >>> table.weight_pos, table.weight_neg
        (2.0, 2.0)
        """
        tp, fp, pos_counts, neg_counts = self._replicate(k)
        present = tp + fp > 0
        if self.pos_weight is None:
            tp, fp = tp.astype(np.int64), fp.astype(np.int64)
        return ScoreTable(self.table.scores[present], tp[present], fp[present],
                          int(pos_counts.sum() + neg_counts.sum()))

    def replicate_rows(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Replicate ``k`` as explicit rows ``(y, score, weight)``: every drawn slot
        repeated as often as it was drawn.

        Parameters
        ----------
        k : int
            Index of the replicate, ``>= 0``.

        Returns
        -------
        y : ndarray of bool
            True for the positive rows.
        score : ndarray of float64
            Their scores.
        weight : ndarray of float64 or None
            Their weights; None when the data had none.

        Examples
        --------
        >>> from indist_fast._core.validation import prepare_rows
        >>> from indist_fast.inference.bootstrap import Resampler
        >>> from indist_fast.table.score_table import ScoreTable
        >>> rows = prepare_rows([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])
        >>> resampler = Resampler.from_rows(rows, ScoreTable.from_rows(rows), seed=0)
        >>> y, score, weight = resampler.replicate_rows(0)
        >>> len(y), int(y.sum()), weight is None
        (4, 2, True)
        """
        pos_counts, neg_counts = self.counts(k)
        scores = self.table.scores
        s = np.concatenate((np.repeat(scores[self.pos_group], pos_counts),
                            np.repeat(scores[self.neg_group], neg_counts)))
        y = np.concatenate((np.ones(pos_counts.sum(), bool), np.zeros(neg_counts.sum(), bool)))
        if self.pos_weight is None:
            return y, s, None
        assert self.neg_weight is not None
        w = np.concatenate((np.repeat(self.pos_weight, pos_counts),
                            np.repeat(self.neg_weight, neg_counts)))
        return y, s, w


def replicate_curves(resampler: Resampler, n_boot: int, bar: Bar | None = None
                     ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Replicate ``k``'s ROC polyline ``(specificity, sensitivity)`` (``roc_readings``)
    for ``k = 0 .. n_boot - 1``: the draws of ``resampler.counts(k)`` summed per
    distinct score, so the rows are never sorted again."""
    eng = engine()
    r = resampler
    for k in range(n_boot):
        tp, fp, _, _ = eng.replicate_counts(child_generator(r.seed, k), r.pos_group,
                                            r.pos_weight, r.neg_group, r.neg_weight,
                                            len(r.table), r.stratified)
        yield curve_of_counts(tp, fp)
        if bar is not None:
            bar.update()


def metric_specs(metrics: Any, builtin: tuple[str, ...] = METRICS
                  ) -> dict[str, str | TableMetric]:
    """Names to built-in names (one of ``builtin``) or callables on a ScoreTable: the
    one reading of a ``metrics`` argument (the bootstrap's and resolving power's)."""
    if isinstance(metrics, str) or callable(metrics):
        metrics = (metrics,)
    if not isinstance(metrics, Iterable):
        raise TypeError(f"metrics must be a metric name, a callable, or a sequence or "
                        f"mapping of them, got {metrics!r}.")
    items: Iterable[tuple[str, Any]]
    if isinstance(metrics, Mapping):
        items = metrics.items()
    else:
        items = [(m if isinstance(m, str) else getattr(m, "__name__", repr(m)), m)
                 for m in metrics]
    specs: dict[str, str | TableMetric] = {}
    for name, spec in items:
        if isinstance(spec, str) and spec not in builtin:
            raise ValueError(f"metrics: unknown metric {spec!r}; built-in metrics are "
                             f"{', '.join(builtin)}, or pass a callable on a ScoreTable.")
        if not (isinstance(spec, str) or callable(spec)):
            raise TypeError(f"metrics: {name!r} must be a metric name or a callable, "
                            f"got {type(spec).__name__}.")
        specs[str(name)] = spec
    return specs


def check_progress(progress: Any) -> bool | None:
    """A ``progress`` argument: None (a bar when someone is watching) or a bool."""
    return None if progress is None else check_flag(progress, "progress")


def check_bootstrap_settings(n_boot: Any, confidence: Any) -> tuple[int, float]:
    # Two replicates at least: one gives no spread, so no interval.
    return (check_count(n_boot, "n_boot", minimum=2, maximum=MAX_REPLICATES),
            check_level(confidence, "confidence"))


class Resampling(NamedTuple):
    """The checked resampling arguments of a call whose ``n_boot`` may be None."""

    n_boot: int | None
    seed: np.random.SeedSequence | None     # None without n_boot (nothing drawn)
    confidence: float
    progress: bool | None


def check_resampling(n_boot: Any, seed: Any, confidence: Any,
                     progress: Any = None) -> Resampling:
    """A public function's bootstrap arguments where ``n_boot=None`` means no bootstrap.

    Each one is checked on every call, used or not: ``confidence=7`` is refused
    without ``n_boot`` too, so adding ``n_boot`` later cannot turn a working call into
    an error. Without ``n_boot`` the seed is only checked (no entropy is drawn for
    ``seed=None``)."""
    progress = check_progress(progress)
    if n_boot is None:
        confidence = check_level(confidence, "confidence")
        # the default seed (a non-negative int) is valid as it is: skip the
        # SeedSequence, a tenth of a small evaluate's time
        if seed is not None and not (type(seed) is int and seed >= 0):
            check_seed(seed)
        return Resampling(None, None, confidence, progress)
    n_boot, confidence = check_bootstrap_settings(n_boot, confidence)
    return Resampling(n_boot, check_seed(seed), confidence, progress)


def _call_metric(name: str, spec: TableMetric, table: ScoreTable) -> float:
    """A callable metric's value on one table. Its failures surface as errors about
    ``metrics`` (the argument that brought the code in), the original chained."""
    try:
        value = spec(table)
    except Exception as exc:
        raise ValueError(f"metrics: the callable {name!r} raised {type(exc).__name__}: "
                         f"{exc}") from exc
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"metrics: the callable {name!r} must return a real number, got "
                        f"{value!r} ({type(value).__name__}).")
    return float(value)


def bootstrap_table(rows: Rows, table: ScoreTable, *, metrics: Any = DEFAULT_METRICS,
                    n_boot: int = 1000, stratified: bool = True, confidence: float = 0.95,
                    seed: Seed = 0, level: float = 0.5,
                    exclude_self: bool = True, progress: bool | None = None,
                    partial: Any = None, focus: str = "specificity", correct: bool = False
                    ) -> BootstrapResult:
    """``bootstrap`` on rows already validated and tabled (no second sort)."""
    n_boot, confidence = check_bootstrap_settings(n_boot, confidence)
    progress = check_progress(progress)
    level = check_level(level)
    specs = metric_specs(metrics, METRICS + ("pauc",))
    if not specs:
        raise ValueError("metrics: ask for at least one metric.")
    correct = check_flag(correct, "correct")
    pauc_names = [name for name, spec in specs.items() if spec == "pauc"]
    if pauc_names:
        if partial is None:
            raise ValueError("metrics names 'pauc': give its range as partial=(low, high) "
                             "(specificities, or sensitivities with focus='sensitivity').")
        low, high, focus = check_partial(partial, focus)
    elif partial is not None:
        raise ValueError("partial applies to the metric 'pauc': add it to metrics.")
    exclude_self = check_flag(exclude_self, "exclude_self")
    seed = check_seed(seed)
    entropy = _entropy(seed)        # before the replicates: a bad seed fails at once
    check_two_classes(table.weight_pos, table.weight_neg)
    resampler = Resampler.from_rows(rows, table, stratified=stratified, seed=seed)
    levels = np.array([level])
    estimates = sweep_metrics(engine().sweep_table(table.scores, table.pos, table.neg,
                                                    levels, exclude_self))
    any_builtin = any(isinstance(spec, str) and spec != "pauc" for spec in specs.values())
    callables = {name: spec for name, spec in specs.items() if not isinstance(spec, str)}
    if pauc_names:
        estimates["pauc"] = np.array([partial_area(*curve_of(table), low, high, focus,
                                                   correct)])
    # (on the full table first: a callable that fails, fails before the replicates)
    estimates.update({name: np.array([_call_metric(name, func, table)])
                      for name, func in callables.items()})
    # one unit per replicate swept, and one per replicate table the callables read
    with progress_bar(progress, n_boot * (any_builtin + bool(callables) + bool(pauc_names)),
                      "bootstrap", "replicate") as bar:
        builtin = (derived_metrics(resampler.sweeps(n_boot, levels, exclude_self, bar=bar))
                   if any_builtin else {})
        if pauc_names:
            builtin["pauc"] = np.empty(n_boot)
            with np.errstate(divide="ignore", invalid="ignore"):
                for k, curve in enumerate(replicate_curves(resampler, n_boot, bar)):
                    builtin["pauc"][k] = partial_area(*curve, low, high, focus, correct)
        called = {name: np.empty(n_boot) for name in callables}
        for k in range(n_boot if callables else 0):
            replicate = resampler.replicate_table(k)        # one table for every callable
            for name, func in callables.items():
                called[name][k] = _call_metric(name, func, replicate)
            bar.update()
    intervals = {}
    for name, spec in specs.items():
        estimate, reps = ((estimates[spec][0], builtin[spec]) if isinstance(spec, str)
                          else (estimates[name][0], called[name]))
        intervals[name] = Interval.from_replicates(name, estimate, reps, confidence)
    return BootstrapResult(ReadOnlyMapping._of(intervals), n_boot, resampler.stratified,
                           confidence, level, entropy)


def bootstrap(y_true: Any, y_score: Any, *, metrics: Any = DEFAULT_METRICS,
              n_boot: int = 1000, stratified: bool = True, confidence: float = 0.95,
              seed: Seed = 0, sample_weight: Any = None, pos_label: Any = None,
              level: float = 0.5, exclude_self: bool = True,
              progress: bool | None = None, partial: Any = None,
              focus: str = "specificity", correct: bool = False) -> BootstrapResult:
    """Percentile bootstrap intervals, one sort for all replicates.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights: weight 3 acts as three copies of the row.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    metrics : sequence of str or callable, or mapping of name to either
        Built-in names: ``auc``, ``average_precision``, ``threshold`` (r at
        ``level``), ``precision`` (C there), ``lift``, ``tpr``, ``fpr``, ``f1``, ``b``,
        and ``pauc`` (the partial AUC over ``partial``, pROC's ``ci.auc`` of a
        partial AUC).
        A callable takes a replicate's ``ScoreTable`` and returns a float (slower: one
        Python call per replicate). Default: auc, average_precision, threshold,
        precision.
    n_boot : int, default=1000
        Number of replicates.
    stratified : bool, default=True
        Resample positives and negatives separately, keeping their counts.
    confidence : float, default=0.95
        Coverage of the percentile intervals.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Same seed, same replicates (whatever the number of threads): two calls with
        the default give the same intervals. None draws fresh entropy from the OS
        (reported as ``seed_entropy``, to repeat the run).
    level : float, default=0.5
        Level of B for the threshold metrics.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    progress : bool or None, default=None
        A progress bar over the replicates (tqdm, on stderr). None: shown when stderr
        is a terminal or in Jupyter (``INDIST_FAST_PROGRESS=0`` turns that off); True
        always; False never.
    partial : pair of float, default=None
        The range ``(low, high)`` of ``focus`` of the metric ``pauc``: it takes its
        range here, one range per call (as ``roc_auc(partial=...)``); needed when
        ``metrics`` names ``pauc``.
    focus : {"specificity", "sensitivity"}, default="specificity"
        The axis of ``partial`` (pROC's ``partial.auc.focus``).
    correct : bool, default=False
        McClish's correction of ``pauc``; replicates below the diagonal are NaN
        (pROC's NA), counted in ``n_undefined``.

    Returns
    -------
    BootstrapResult
        ``result["precision"].low`` and so on.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.3
    >>> s = rng.normal(size=2000) + y
    >>> r = indist_fast.bootstrap(y, s, n_boot=200, seed=1)
    >>> r["auc"].low < r["auc"].estimate < r["auc"].high
    True
    >>> p = indist_fast.bootstrap(y, s, metrics=("pauc",), partial=(0.8, 1.0), n_boot=200)
    >>> round(p["pauc"].estimate, 4), p["pauc"].low < p["pauc"].high
    (0.0682, True)
    """
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    return bootstrap_table(rows, ScoreTable.from_rows(rows), metrics=metrics, n_boot=n_boot,
                           stratified=stratified, confidence=confidence, seed=seed,
                           level=level, exclude_self=exclude_self, progress=progress,
                           partial=partial, focus=focus, correct=correct)
