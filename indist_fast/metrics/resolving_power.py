"""Resolving power: how finely a metric tells similar models apart (Beam, "Resolving power";
definitions page, "Resolving power").

A *sampling model* gives class score distributions, a prevalence and a sample size.
Its *signal curve* runs a metric over a grid of models of increasing quality (AUROC
as the common scale); its *noise* is the spread of the metric over samples of one
model. Mapping the metric's 95% noise interval through the signal curve onto the AUROC
scale gives its resolution ``delta_M`` (smaller is better); resolving power is
``1 / delta_M``, and ``(delta_M - delta_AUROC) / delta_AUROC`` compares it with AUROC.

Sampling models: the populations ``Binormal`` (negatives N(0, 1), positives
N(mu, sigma)) and ``Mixture`` (normal mixtures per class), with population values by
numerical integration, quality moving by a shift of the positive scores; and
``Empirical`` (a score set taken as the population; quality moves by adding an
increment to every positive score).
Population and integration need scipy (the ``stats`` extra).
"""

from __future__ import annotations

import contextlib
import math
import threading
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Union

import numpy as np

from .._core.engine import engine
from .._core.validation import check_count, check_level, check_real, check_seed, prepare_rows
from ..errors import IndistFastWarning
from .._core.validation import check_two_classes
from ..results.report import record_dict, row_where
from ..inference.bootstrap import (MAX_REPLICATES, Interval, Resampler, derived_metrics,
                                  sweep_metrics)
from ..inference.bootstrap import metric_specs
from ..table.score_table import ScoreTable

__all__ = ["Binormal", "Empirical", "signal_curve", "noise", "resolution",
           "resolving_power", "compare", "SignalCurve", "Noise", "Resolution",
           "ResolvingPowerTable", "METRICS"]

#: The bootstrap's metrics that also have a population value under a Binormal model.
METRICS = ("auc", "average_precision", "precision")
TableMetric = Callable[[ScoreTable], float]
MetricSpec = Union[str, TableMetric]


# The binormal model and its population values live with the other population models;
# its argument checks serve this module's samplers too.
from ..population import (MAX_SAMPLE_SIZE, Binormal, Mixture,  # noqa: E402
                         check_prevalence, n_positives)

#: The sampling models with population values (their grid models are shifts).
Population = Union[Binormal, Mixture]
Model = Union[Binormal, Mixture, "Empirical"]


def _check_auc(value: Any, name: str) -> float:
    """An AUROC value, 0 and 1 included (an empirical model can reach both)."""
    return check_real(value, name, low=0.0, high=1.0, must="be an AUROC value in [0, 1]")


# --- the empirical model --------------------------------------------------------------------------

class Empirical:
    """A score set taken as the population; better models add ``delta`` to every
    positive score.

    The exact increments are the gaps ``s_neg - s_pos > 0`` of out-of-order pairs:
    adding an increment just above the k-th smallest gap resolves exactly k pairs, so
    AUROC rises by exactly ``k / (n_pos n_neg)``. They are found by selection over the
    two sorted classes (counting pairs below a gap with two pointers), never by
    building the n_pos x n_neg matrix.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Real scores, higher meaning more likely positive. They must be finite (an
        increment cannot move a score from or past infinity), else ValueError. No
        weights: every row is one member of the population.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Empirical
    >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
    >>> k = 2
    >>> d = e.increment(k)
    >>> (e.auc(d) - e.auc()) * e.n_pos * e.n_neg
    2.0
    """

    def __init__(self, y_true: Any, y_score: Any, *, pos_label: Any = None) -> None:
        # The score table's pass checks the rows as every other entry point does (NaN
        # scores, a third label) and its counts give each class's sorted scores.
        table = ScoreTable.from_rows(prepare_rows(y_true, y_score, None, pos_label))
        check_two_classes(table.weight_pos, table.weight_neg)
        ascending = table.scores[::-1]
        self.pos = np.repeat(ascending, table.pos[::-1])
        self.neg = np.repeat(ascending, table.neg[::-1])
        _check_shiftable(float(ascending[0]), float(ascending[-1]))

    @property
    def n_pos(self) -> int:
        return len(self.pos)

    @property
    def n_neg(self) -> int:
        return len(self.neg)

    @property
    def prevalence(self) -> float:
        return self.n_pos / (self.n_pos + self.n_neg)

    def scores(self, delta: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """``(y, score)`` of the model shifted by ``delta``.

        Parameters
        ----------
        delta : float, default=0.0
            Increment added to every positive score.

        Returns
        -------
        y : ndarray of bool
            True for the positives.
        score : ndarray of float64
            The scores, positives shifted.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Empirical
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
        >>> y, score = e.scores(0.5)
        >>> y.tolist(), score.tolist()
        ([True, True, False, False], [0.6, 0.9, 0.3, 0.5])
        """
        delta = self._check_shift(delta, "delta")
        y = np.r_[np.ones(self.n_pos, bool), np.zeros(self.n_neg, bool)]
        return y, np.r_[self.pos + delta, self.neg]

    def _check_shift(self, value: Any, name: str) -> float:
        """An increment as a float that keeps every shifted positive score finite
        (the scores themselves are finite: an infinite sum would be a score no
        increment of a finite model can produce)."""
        must = (f"be finite and keep the positive scores finite (they run from "
                f"{self.pos[0]!r} to {self.pos[-1]!r})")
        delta = check_real(value, name, must=must)
        # Python floats: the sum overflows to inf without NumPy's warning
        if not (math.isfinite(float(self.pos[0]) + delta)
                and math.isfinite(float(self.pos[-1]) + delta)):
            raise ValueError(f"{name} must {must}, got {delta!r}.")
        return delta

    def auc(self, delta: float = 0.0) -> float:
        """AUROC of the shifted model.

        Parameters
        ----------
        delta : float, default=0.0
            Increment added to every positive score.

        Returns
        -------
        float
            The AUROC.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Empirical
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
        >>> e.auc(), e.auc(0.5)
        (0.25, 1.0)
        """
        return float(indist_auc(*self.scores(delta)))

    def count_wins(self, d: float) -> int:
        """Out-of-order pairs that adding ``d`` to the positives puts strictly in order:
        ``s_pos < s_neg < s_pos + d`` (the sum rounded exactly as ``scores`` rounds it).

        Parameters
        ----------
        d : float
            The increment.

        Returns
        -------
        int
            The number of such pairs.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Empirical
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
        >>> e.count_wins(0.25), e.n_out_of_order
        (2, 3)
        """
        d = self._check_shift(d, "d")
        lo = np.searchsorted(self.neg, self.pos, side="right")
        hi = np.searchsorted(self.neg, self.pos + d, side="left")
        return int(np.sum(np.maximum(hi - lo, 0)))

    def count_ties(self, d: float) -> int:
        """Out-of-order pairs that ``d`` leaves exactly tied: ``s_pos + d == s_neg``.

        Parameters
        ----------
        d : float
            The increment.

        Returns
        -------
        int
            The number of such pairs.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Empirical
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
        >>> e.count_ties(0.1), e.count_ties(0.25)    # 0.4 + 0.1 == 0.5
        (1, 0)
        """
        shifted = self.pos + self._check_shift(d, "d")
        tied = (np.searchsorted(self.neg, shifted, side="right")
                - np.searchsorted(self.neg, shifted, side="left"))
        return int(np.sum(tied[shifted > self.pos]))

    @property
    def n_out_of_order(self) -> int:
        """Pairs with the negative strictly above the positive."""
        return int(np.sum(self.n_neg - np.searchsorted(self.neg, self.pos, side="right")))

    def gap(self, k: int) -> float:
        """The smallest increment that puts ``k`` out-of-order pairs strictly in order
        (the k-th smallest positive gap, 1-based).

        Parameters
        ----------
        k : int
            From 1 to ``n_out_of_order``.

        Returns
        -------
        float
            The k-th smallest gap ``s_neg - s_pos > 0``.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Empirical
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
        >>> round(e.gap(1), 12), round(e.gap(2), 12)
        (0.1, 0.2)
        """
        n_out = self.n_out_of_order
        k = check_count(k, "k", minimum=0, maximum=2**63 - 1)
        if not 1 <= k <= n_out:
            raise ValueError(f"k must lie in 1..{n_out} (the out-of-order pairs), got {k}.")
        # Bisection on the integer image of non-negative doubles, which keeps their
        # order: 64 counts of O(n log n), never the n_pos x n_neg gaps.
        lo, hi = 0, self._bound_bits()
        while lo < hi:
            mid = (lo + hi) // 2
            if self.count_wins(float(np.int64(mid).view(np.float64))) >= k:
                hi = mid
            else:
                lo = mid + 1
        return float(np.int64(lo).view(np.float64))

    def increment(self, k: int) -> float:
        """``gap(k)``, nudged up past any exact tie, so that the AUROC rises by exactly
        ``(count_wins(delta) + n_tied / 2) / (n_pos n_neg)`` (``n_tied``: pairs tied
        before the shift). With distinct gaps ``count_wins(delta) == k``.

        Parameters
        ----------
        k : int
            From 1 to ``n_out_of_order``.

        Returns
        -------
        float
            The increment.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Empirical
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
        >>> d = e.increment(2)
        >>> (e.auc(d) - e.auc()) * e.n_pos * e.n_neg
        2.0
        """
        d = self.gap(k)
        # Jump, not step by one ulp: past a tie of a large score, an ulp of a small d
        # moves the sum so rarely that stepping could take 2**50 rounds. Each round
        # puts every pair tied at d in order for good (the rounded sum never falls as
        # d grows) and nothing smaller does, so the rounds are few and finite.
        while True:
            shifted = self.pos + d
            at = np.searchsorted(self.neg, shifted, side="left")
            tied = (shifted > self.pos) & (at < self.n_neg)
            tied[tied] = self.neg[at[tied]] == shifted[tied]
            if not tied.any():
                return d
            d = float(np.max(self._smallest_shift_above(self.pos[tied], shifted[tied], d)))

    def _bound_bits(self) -> int:
        """Integer image of an increment that puts every pair in order."""
        return int(np.float64(2.0 * (self.neg[-1] - self.pos[0]) + 1.0).view(np.int64))

    def _smallest_shift_above(self, p: np.ndarray, target: np.ndarray, d: float
                              ) -> np.ndarray:
        """Per positive score ``p``, the smallest increment ``>= d`` whose rounded
        sum ``p + delta`` lies above ``target`` (bisection on the integer images)."""
        lo = np.full(len(p), np.float64(d).view(np.int64))
        hi = np.full(len(p), self._bound_bits(), dtype=np.int64)
        while np.any(lo < hi):
            mid = lo + (hi - lo) // 2
            above = p + mid.view(np.float64) > target
            hi = np.where(above, mid, hi)
            lo = np.where(above, lo, mid + 1)
        return lo.view(np.float64)

    def increment_for_auc(self, auc: float) -> float:
        """The increment (negative: a worse model) whose shifted model has the AUROC
        nearest ``auc`` on the side of the current model.

        Parameters
        ----------
        auc : float
            Target AUROC in [0, 1].

        Returns
        -------
        float
            The increment (0 for the current AUROC).

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Empirical
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
        >>> e.increment_for_auc(0.25), e.auc(e.increment_for_auc(1.0))
        (0.0, 1.0)
        """
        auc = _check_auc(auc, "auc")
        base = self.auc(0.0)
        if auc == base:
            return 0.0
        if auc < base:
            # Moving positives down by d is moving negatives up by d: the mirror image
            # (classes swapped) gains what this model loses.
            mirror = Empirical.__new__(Empirical)
            mirror.pos, mirror.neg = self.neg, self.pos
            return -mirror.increment_for_auc(1.0 - auc)
        if self.n_out_of_order == 0:
            return 0.0
        pairs = self.n_pos * self.n_neg
        # Tied pairs turn from 1/2 to 1 as soon as delta > 0.
        k = int(math.floor((auc - base) * pairs - 0.5 * self.n_tied))
        k = min(max(k, 1), self.n_out_of_order)
        return self.increment(k)

    @property
    def n_tied(self) -> int:
        """Pairs with equal scores before any shift."""
        lo = np.searchsorted(self.pos, self.neg, side="left")
        hi = np.searchsorted(self.pos, self.neg, side="right")
        return int(np.sum(hi - lo))


def _check_shiftable(lowest: float, highest: float) -> None:
    """Scores a finite increment can move past each other without overflow."""
    span = highest - lowest
    if not math.isfinite(max(abs(lowest), abs(highest)) + 2.0 * span + 1.0):
        raise ValueError(
            "y_score must be finite for an Empirical model, and small enough that scores "
            "shifted past each other stay finite: a model improves by adding a finite "
            "increment to the positive scores, which cannot lift a positive from -inf "
            f"or pass a negative at +inf. The scores run from {lowest!r} to {highest!r}.")


def indist_auc(y: np.ndarray, s: np.ndarray) -> float:
    r = engine().summarize(y.view(np.uint8), s, None, 1.0, 0.0,
                                    np.array([0.5]), True)
    return float(r.auc)


# --- signal, noise, resolution ----------------------------------------------------------------------

def _metric_specs(metrics: Any) -> dict[str, MetricSpec]:
    out = metric_specs(metrics, METRICS)
    if "auc" not in out.values():
        out = {"auc": "auc", **out}          # the reference scale is always measured
    return out


_gathering = threading.local()


@contextlib.contextmanager
def _once_each(stacklevel: int) -> Iterator[None]:
    """Warnings raised while many samples are measured (a callable metric calling
    ``evaluate`` on replicates where B misses a level, say), passed on once per kind:
    the first of each category with the count of the others (a thousand near-copies
    of one warning, each with its replicate's numbers, hide everything else)."""
    if getattr(_gathering, "on", False):     # an outer call gathers them (compare)
        yield
        return
    _gathering.on = True
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
    finally:
        _gathering.on = False
    first: dict[type, tuple[str, int]] = {}
    for w in caught:
        message, count = first.get(w.category, (str(w.message), 0))
        first[w.category] = (message, count + 1)
    for category, (message, count) in first.items():
        more = (f" [{category.__name__} {count:,} times over the samples measured; "
                "the first is shown]" if count > 1 else "")
        warnings.warn(message + more, category, stacklevel=stacklevel + 2)


def _measure(y: np.ndarray, s: np.ndarray, specs: Mapping[str, MetricSpec]) -> list[float]:
    """Every metric on one sample (built-ins from one sweep; callables on a table)."""
    out: list[float] = []
    builtin: dict[str, np.ndarray] | None = None
    table: ScoreTable | None = None
    for spec in specs.values():
        if isinstance(spec, str):
            if builtin is None:
                builtin = {k: v[0] for k, v in sweep_metrics(engine().summarize(
                    y.view(np.uint8), s, None, 1.0, 0.0, np.array([0.5]), True)).items()}
            out.append(float(builtin[spec]))
        else:
            if table is None:
                table = ScoreTable.from_arrays(y, s)
            out.append(_called(spec, table))
    return out


def _called(spec: TableMetric, table: ScoreTable) -> float:
    """A callable metric's value on ``table`` as a float; an error says which metric."""
    name = getattr(spec, "__name__", repr(spec))
    try:
        value = spec(table)
    except Exception as exc:
        exc.add_note(f"(raised by the metric {name!r} that resolving power called with a "
                     "ScoreTable)")
        raise
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"metrics: the callable {name!r} must return a real number, got "
                        f"{type(value).__name__} {value!r:.60}.") from None


@dataclass(frozen=True, eq=False)
class SignalCurve:
    """Metric values over a grid of models of increasing quality.

    Attributes
    ----------
    auc : ndarray of shape (n_grid,)
        The reference scale (AUROC of each model).
    values : Mapping[str, ndarray]
        Each metric on the grid (``values["auc"]`` equals ``auc``); NaN where a model
        leaves it undefined (population C(r_b) where B never reaches 1/2).
    grid : ndarray
        The models' parameter: mu (binormal) or the increment delta (empirical).

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, noise, signal_curve
    >>> model = Binormal.for_auc(0.8)
    >>> signal = signal_curve(model, prevalence=0.2)
    >>> len(signal.auc), sorted(signal.values)
    (41, ['auc', 'average_precision', 'precision'])
    """

    auc: np.ndarray
    values: Mapping[str, np.ndarray]
    grid: np.ndarray

    def _metric(self, metric: str) -> np.ndarray:
        if metric not in self.values:
            raise ValueError(f"metric {metric!r} is not on the signal curve; it holds "
                             f"{', '.join(map(repr, self.values))}.")
        return self.values[metric]

    def _sign(self, metric: str) -> float:
        """-1 for a metric that falls as models improve (a loss, say): it is mapped as
        its negation, which rises; its resolution is the same."""
        values = self._metric(metric)
        defined = values[~np.isnan(values)]
        return -1.0 if len(defined) and defined[-1] < defined[0] else 1.0

    def _defined(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """The curve where the metric is defined, times ``_sign`` and made
        non-decreasing (a guard against tiny non-monotone noise), with its AUROC
        values."""
        values = self._metric(metric)
        ok = ~np.isnan(values)
        if not ok.any():
            raise ValueError(f"{metric} is undefined on every model of the signal curve "
                             f"(AUROC {self.auc[0]:.4g} to {self.auc[-1]:.4g}).")
        return np.maximum.accumulate(self._sign(metric) * values[ok]), self.auc[ok]

    def is_monotone(self, metric: str) -> bool:
        """Whether the metric never falls as AUROC rises (where it is defined).

        Parameters
        ----------
        metric : str
            A metric of the curve, e.g. ``"precision"``.

        Returns
        -------
        bool
            True when monotone.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Binormal, noise, signal_curve
        >>> model = Binormal.for_auc(0.8)
        >>> signal = signal_curve(model, prevalence=0.2)
        >>> signal.is_monotone("precision")
        True
        """
        values = self._metric(metric)
        return bool(np.all(np.diff(values[~np.isnan(values)]) >= -1e-12))

    def covers(self, metric: str, value: float) -> bool:
        """Whether ``value`` lies within the range the metric's curve reaches.

        Parameters
        ----------
        metric : str
            A metric of the curve, e.g. ``"precision"``.
        value : float
            A metric value.

        Returns
        -------
        bool
            True when the curve reaches ``value``.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Binormal, noise, signal_curve
        >>> model = Binormal.for_auc(0.8)
        >>> signal = signal_curve(model, prevalence=0.2)
        >>> signal.covers("auc", 0.8), signal.covers("auc", 0.99)
        (True, False)
        """
        if math.isnan(value):
            return False
        m, _ = self._defined(metric)
        return bool(m[0] <= self._sign(metric) * value <= m[-1])

    def to_auc(self, metric: str, value: Any, side: str = "low") -> np.ndarray:
        """Map metric values onto the AUROC scale (monotone interpolation).

        Where the curve is flat (a metric that moves in steps, as on a small
        empirical model), a value on the flat stretch is reached over a range of
        AUROC: ``side="low"`` gives the range's lowest AUROC, ``"high"`` its highest.
        A noise interval maps its low end low and its high end high, so a stretch the
        metric cannot tell apart widens the resolution instead of collapsing it.

        Raises ValueError for a value the curve does not reach: interpolation would
        return the grid's edge, and a resolution read from it would be clipped; and for
        a curve that is flat over the whole grid (a metric that ignores the model),
        which maps nothing to one AUROC.

        Parameters
        ----------
        metric : str
            A metric of the curve, e.g. ``"precision"``.
        value : float or array-like
            Metric values within the curve's range.
        side : {"low", "high"}, default="low"
            Which end of a flat stretch a value on it maps to.

        Returns
        -------
        ndarray of float64
            The AUROC values the curve maps them to.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Binormal, noise, signal_curve
        >>> model = Binormal.for_auc(0.8)
        >>> signal = signal_curve(model, prevalence=0.2)
        >>> float(signal.to_auc("auc", 0.8))
        0.8
        """
        if side not in ("low", "high"):
            raise ValueError(f"side must be 'low' or 'high', got {side!r}.")
        m, auc = self._defined(metric)
        sign = self._sign(metric)
        lo_shown, hi_shown = sorted((sign * m[0], sign * m[-1]))
        if m[-1] == m[0]:
            raise ValueError(f"{metric} is {lo_shown:.6g} on every model of the signal curve "
                             f"(AUROC {auc[0]:.4g} to {auc[-1]:.4g}): it does not change "
                             "with the model, so no value of it maps to one AUROC.")
        v = np.asarray(value, dtype=np.float64)
        for x in v.ravel().tolist():
            if not self.covers(metric, x):
                where = "is NaN" if math.isnan(x) else (
                    f"lies {'below' if x < lo_shown else 'above'} every value the signal "
                    f"curve reaches ({lo_shown:.6g} to {hi_shown:.6g} over AUROC "
                    f"{auc[0]:.4g} to {auc[-1]:.4g})")
                raise ValueError(f"{metric}: {x:.6g} {where}; mapped onto the AUROC scale "
                                 "it would be clipped to the grid's edge.")
        if sign < 0:            # a falling metric: its low values are the better models
            v = -v
            side = "high" if side == "low" else "low"
        # a flat stretch at the curve's end continues, for all the grid shows, beyond
        # it (or into models where the metric is undefined): its low end there is
        # unknown
        edge, step = (m[0], m[1]) if side == "low" else (m[-1], m[-2])
        if edge == step and np.any(v == edge):
            where = "starts" if side == "low" else "ends"
            flat = auc[m == edge]
            raise ValueError(f"{metric}: {sign * float(edge):.6g} is where the signal curve "
                             f"{where}, flat (over AUROC {flat[0]:.4g} to {flat[-1]:.4g}): "
                             "models beyond the grid may reach it too, so its AUROC would "
                             "be clipped to the grid's edge.")
        # between the grid points that enclose each value (np.interp needs strictly
        # increasing points): a value on a flat stretch is its first or last point
        xs = np.atleast_1d(v).ravel()
        if side == "low":
            hi = np.maximum(np.searchsorted(m, xs, "left"), 1)
        else:
            hi = np.minimum(np.searchsorted(m, xs, "right"), len(m) - 1)
        lo = hi - 1
        dm = m[hi] - m[lo]
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(dm > 0, (xs - m[lo]) / dm, 0.0)
        # exact ends, not a rounded fraction of the step
        t = np.where(xs == m[lo], 0.0, np.where(xs == m[hi], 1.0, t))
        mapped: np.ndarray = (auc[lo] + t * (auc[hi] - auc[lo])).reshape(v.shape)
        return mapped

    def slope(self, metric: str, at_auc: float) -> float:
        """d metric / d AUROC at ``at_auc`` (differences on the grid, interpolated).

        Parameters
        ----------
        metric : str
            A metric of the curve, e.g. ``"precision"``.
        at_auc : float
            AUROC in [0, 1].

        Returns
        -------
        float
            The slope.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Binormal, noise, signal_curve
        >>> model = Binormal.for_auc(0.8)
        >>> signal = signal_curve(model, prevalence=0.2)
        >>> round(signal.slope("auc", 0.8), 6)
        1.0
        """
        # a grid whose AUROC values repeat (a tiny empirical model moves in steps of
        # 1 / (n_pos n_neg)) has no slope there: NaN, not a division by zero
        with np.errstate(divide="ignore", invalid="ignore"):
            slope = float(np.interp(at_auc, self.auc,
                                    np.gradient(self._metric(metric), self.auc)))
        return slope if math.isfinite(slope) else math.nan


# AUROC range a signal curve may span: every model strictly between chance extremes,
# far enough from 0 and 1 that binormal means and empirical increments stay moderate.
_AUC_RANGE = (0.001, 0.999)
# Each grid point is a model to measure (a numerical integration or a sweep of n rows).
MAX_GRID = 10_000


def _check_model(model: Any) -> None:
    if not isinstance(model, (Binormal, Mixture, Empirical)):
        raise TypeError(f"model must be a Binormal, a Mixture or an Empirical model, got "
                        f"{type(model).__name__}.")


def _model_auc(model: Model) -> float:
    return model.auc(0.0) if isinstance(model, Empirical) else model.auc


def _offset(model: Population) -> float:
    """Where a population model sits on its grid: mu, or the first positive mean."""
    return float(model.mu) if isinstance(model, Binormal) else model.positives[0][1]


def _sampling(model: Model, n: Any, prevalence: Any) -> tuple[int, float]:
    """The replicates' size and prevalence: a population's from the arguments (a
    ``Mixture``'s prevalence defaults to its own), an empirical model's its data's."""
    if isinstance(model, Empirical):
        own = (model.n_pos + model.n_neg, model.prevalence)
        for name, value, mine in (("n", n, own[0]), ("prevalence", prevalence, own[1])):
            if value is not None and value != mine:
                raise ValueError(f"{name}={value!r} does not apply to an Empirical model: "
                                 f"its replicates are bootstrap samples of its own rows "
                                 f"({own[0]:,} rows, prevalence {own[1]:.6g}); leave {name} "
                                 "out.")
        return own
    if isinstance(model, Mixture) and prevalence is None:
        prevalence = model.prevalence
    missing = [name for name, value in (("n", n), ("prevalence", prevalence)) if value is None]
    if missing:
        raise ValueError(f"a {type(model).__name__.lower()} model needs "
                         f"{' and '.join(missing)} (the size and the positive share of "
                         "each replicate sample).")
    prevalence = check_prevalence(prevalence)
    k = n_positives(n, prevalence)
    few = min(k, int(n) - k)
    if few < _FEW:
        warnings.warn(f"each replicate sample holds {few} {'positive' if k == few else 'negative'}"
                      f"{'' if few == 1 else 's'} (n={int(n):,}, prevalence={prevalence:g}): "
                      "its noise intervals, and the resolutions read from them, are "
                      "dominated by which rows are drawn; use a larger n.",
                      IndistFastWarning, stacklevel=3)
    return int(n), prevalence


# Fewer rows of a class than this in each replicate sample: a warning (a metric's
# noise interval from a handful of positives says more about the draw than the metric).
_FEW = 5


def _default_grid(model: Model) -> np.ndarray:
    """41 AUROC values within 0.1 of the model's."""
    a = _model_auc(model)
    lo, hi = max(_AUC_RANGE[0], min(a, _AUC_RANGE[1]) - 0.1), min(_AUC_RANGE[1], a + 0.1)
    return np.linspace(lo, hi, 41)


def _grid_for(model: Any, grid: Any) -> tuple[np.ndarray, list[Any]]:
    """AUROC targets -> models (populations: shifted positives; empirical: increments)."""
    _check_model(model)
    try:
        targets = np.asarray(grid, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"grid must be a 1d sequence of AUROC values, got {grid!r}.") from None
    if targets.ndim != 1 or len(targets) < 2:
        raise ValueError("grid must be a 1d sequence of at least two AUROC values.")
    if len(targets) > MAX_GRID:
        raise ValueError(f"grid holds at most {MAX_GRID:,} AUROC values (each is a model "
                         f"to measure), got {len(targets):,}.")
    if not (np.all(np.diff(targets) > 0) and targets[0] > 0 and targets[-1] < 1):
        raise ValueError("grid must be strictly increasing AUROC values in (0, 1).")
    if isinstance(model, Empirical):
        return targets, [model.increment_for_auc(a) for a in targets]
    return targets, [model.with_auc(a) for a in targets]


def signal_curve(model: Model, metrics: Any = METRICS, grid: Any = None, *,
                 prevalence: float | None = None, signal_n: int | None = None,
                 seed: Any = None) -> SignalCurve:
    """Each metric over a grid of models of increasing quality (Beam's step 1).

    Parameters
    ----------
    model : Binormal, Mixture or Empirical
        The sampling model. A population's grid models move its positive scores
        (``with_auc``); an empirical model's add an increment to them.
    metrics : names or callables
        Built-ins ``auc``, ``average_precision``, ``precision`` (C(r_b)); callables
        take a ``ScoreTable``. On a population model the built-ins are population
        values and a callable is measured on one large simulated sample per grid
        model (see ``signal_n``).
    grid : sequence of float, default=41 AUROC values within 0.1 of the model's
        AUROC targets, strictly increasing in (0, 1).
    prevalence : float
        Population models: prevalence of the population values (required for a
        ``Binormal``; a ``Mixture``'s own by default).
    signal_n : int, default=100,000
        Population models with callable metrics: rows of the simulated sample of each
        grid model, ``round(signal_n * prevalence)`` of them positive. Every grid
        model shifts the same draws by its own offset (common random numbers), so the
        curve moves with the model, not with fresh sampling noise at each point.
    seed : None, int, sequence of ints or numpy SeedSequence
        Population models with callable metrics: seed of those draws.

    Returns
    -------
    SignalCurve
        The metrics on the grid of models.

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, signal_curve
    >>> signal = signal_curve(Binormal.for_auc(0.8), grid=[0.7, 0.8, 0.9], prevalence=0.2)
    >>> signal.auc.round(6).tolist(), signal.values["precision"].shape
    ([0.7, 0.8, 0.9], (3,))

    A callable on the binormal model, by simulation:

    >>> auc = lambda table: table.evaluate(levels=(0.5,)).auc
    >>> signal = signal_curve(Binormal.for_auc(0.8), {"sample_auc": auc}, [0.7, 0.9],
    ...                       prevalence=0.2, signal_n=20_000, seed=0)
    >>> (abs(signal.values["sample_auc"] - signal.auc) < 0.02).tolist()
    [True, True]
    """
    _check_model(model)
    specs = _metric_specs(metrics)
    _check_signal_n(signal_n)       # before any model is measured
    targets, models = _grid_for(model, _default_grid(model) if grid is None else grid)
    if isinstance(model, Empirical):
        with _once_each(stacklevel=2):
            measured = np.array([_measure(*model.scores(d), specs) for d in models])
        vals = {name: measured[:, i] for i, name in enumerate(specs)}
        return SignalCurve(vals["auc"], vals, np.array(models))
    if isinstance(model, Mixture) and prevalence is None:
        prevalence = model.prevalence
    if prevalence is None:
        raise ValueError("a binormal signal curve needs the prevalence.")
    prevalence = check_prevalence(prevalence)
    callables = {name: spec for name, spec in specs.items() if not isinstance(spec, str)}
    with _once_each(stacklevel=2):
        simulated = (_simulated_signal(model, models, callables, prevalence, signal_n, seed)
                     if callables else {})
    vals = {name: simulated[name] if name in simulated else
            np.array([m.population(spec, prevalence) for m in models])
            for name, spec in specs.items()}
    return SignalCurve(vals["auc"], vals, np.array([_offset(m) for m in models]))


#: Rows of the sample a callable metric is measured on at each binormal grid model.
SIGNAL_SAMPLE_SIZE = 100_000
# Appended to the seed's spawn key for the signal's draws: independent of the noise
# replicates drawn from the same seed, whose stream stays what it always was.
_SIGNAL_STREAM = 0x5349474E


def _check_signal_n(signal_n: Any) -> int:
    if signal_n is None:
        return SIGNAL_SAMPLE_SIZE
    return check_count(signal_n, "signal_n", minimum=2, maximum=MAX_SAMPLE_SIZE)


def _signal_seed(seed: Any) -> np.random.SeedSequence:
    """The stream of the signal's draws, derived from ``seed`` without touching it."""
    ss = check_seed(seed)
    return np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, _SIGNAL_STREAM),
                                  pool_size=ss.pool_size)


def _simulated_signal(model: Population, models: list[Population],
                      callables: Mapping[str, MetricSpec], prevalence: float,
                      signal_n: int | None, seed: Any) -> dict[str, np.ndarray]:
    """Each callable on one sample of every population grid model: one sample of
    ``model``, its positives moved to each grid model (common random numbers)."""
    n = _check_signal_n(signal_n)
    n_positives(n, prevalence, "signal_n")
    y, base = model.sample(n, prevalence, np.random.default_rng(_signal_seed(seed)))
    here = _offset(model)
    measured = np.array([_measure(y, np.where(y, base + (_offset(m) - here), base),
                                  callables) for m in models])
    return {name: measured[:, i] for i, name in enumerate(callables)}


@dataclass(frozen=True, eq=False)
class Noise:
    """Metric values over replicate samples of one model (Beam's step 2).

    Parameters
    ----------
    values : mapping of str to ndarray
        Each metric on every replicate.

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, noise
    >>> spread = noise(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50, seed=0)
    >>> spread.values["auc"].shape
    (50,)
    """

    values: Mapping[str, np.ndarray]

    def _metric(self, metric: str) -> np.ndarray:
        if metric not in self.values:
            raise ValueError(f"metric {metric!r} was not measured; the noise holds "
                             f"{', '.join(map(repr, self.values))}.")
        return self.values[metric]

    def _summary(self, metric: str, confidence: float) -> Interval:
        # The bootstrap's summary of replicates; noise has no estimate of its own.
        return Interval.from_replicates(metric, math.nan, self._metric(metric), confidence)

    def interval(self, metric: str, confidence: float = 0.95) -> tuple[float, float]:
        """The central ``confidence`` interval of the replicates (NaN ones left out).

        Parameters
        ----------
        metric : str
            A metric of the curve, e.g. ``"precision"``.
        confidence : float, default=0.95
            Coverage, strictly between 0 and 1.

        Returns
        -------
        low, high : float
            The ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Binormal, noise
        >>> spread = noise(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50, seed=0)
        >>> low, high = spread.interval("auc")
        >>> bool(low < 0.8 < high)
        True
        """
        summary = self._summary(metric, check_level(confidence, "confidence"))
        if summary.n_undefined == len(summary.replicates):
            raise ValueError(f"{metric} is undefined (NaN) in every replicate: it has no "
                             "noise interval.")
        return summary.low, summary.high

    def std_error(self, metric: str) -> float:
        """Standard deviation of the replicates (ddof=1, NaN ones left out).

        Parameters
        ----------
        metric : str
            A metric of the curve, e.g. ``"precision"``.

        Returns
        -------
        float
            The standard error of the metric.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Binormal, noise
        >>> spread = noise(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50, seed=0)
        >>> round(spread.std_error("auc"), 4)
        0.0257
        """
        return self._summary(metric, 0.95).std_error


def noise(model: Model, metrics: Any = METRICS, *, n: int | None = None,
          prevalence: float | None = None, n_rep: int = 1000, seed: Any = None) -> Noise:
    """Each metric over ``n_rep`` samples of the model (Beam's step 2).

    Populations: fresh samples of ``n`` rows at ``prevalence``. Empirical: stratified
    bootstrap replicates through the sort-once kernels (``n`` and ``prevalence`` are
    the data's own; passing others is an error).

    Parameters
    ----------
    model : Binormal, Mixture or Empirical
        The sampling model.
    metrics : names or callables
        Built-ins ``auc``, ``average_precision``, ``precision`` (C(r_b)); callables
        take a ``ScoreTable``. AUROC is always measured.
    n, prevalence : int, float
        Populations: sample size and prevalence of each replicate (required; a
        ``Mixture``'s prevalence defaults to its own).
    n_rep : int, default=1000
        Replicate samples.
    seed : None, int, sequence of ints or numpy SeedSequence
        Seed of the replicates; the same seed gives the same noise. A ``Generator`` is
        refused (as by ``bootstrap``): its state would be consumed, so the call could
        not be repeated.

    Returns
    -------
    Noise
        The metrics on every replicate.

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, noise
    >>> spread = noise(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50, seed=0)
    >>> sorted(spread.values)
    ['auc', 'average_precision', 'precision']
    """
    _check_model(model)
    specs = _metric_specs(metrics)
    n, prevalence = _sampling(model, n, prevalence)
    n_rep = check_count(n_rep, "n_rep", minimum=2, maximum=MAX_REPLICATES)
    seed = check_seed(seed)
    with _once_each(stacklevel=2):
        return _noise(model, specs, n, prevalence, n_rep, seed)


def _noise(model: Model, specs: dict[str, MetricSpec], n: int, prevalence: float,
           n_rep: int, seed: np.random.SeedSequence) -> Noise:
    if not isinstance(model, Empirical):
        rng = np.random.default_rng(seed)
        measured = np.array([_measure(*model.sample(n, prevalence, rng), specs)
                             for _ in range(n_rep)])
        return Noise({name: measured[:, i] for i, name in enumerate(specs)})
    y, s = model.scores(0.0)
    rows = prepare_rows(y, s)
    table = ScoreTable.from_rows(rows)
    resampler = Resampler.from_rows(rows, table, stratified=True, seed=seed)
    builtin = derived_metrics(resampler.sweeps(n_rep, np.array([0.5])))
    values = {}
    for name, spec in specs.items():
        values[name] = (builtin[spec] if isinstance(spec, str) else
                        np.array([_called(spec, resampler.replicate_table(k))
                                  for k in range(n_rep)]))
    return Noise(values)


@dataclass(frozen=True)
class Resolution:
    """A metric's resolution on the AUROC scale (Beam's steps 3-4).

    Attributes
    ----------
    metric : str
    interval : (float, float)
        The metric's noise interval.
    auc_interval : (float, float)
        That interval mapped through the signal curve onto the AUROC scale; an end the
        curve does not reach is NaN (never the grid's edge).
    delta : float
        Its width: the resolution ``delta_M`` (smaller resolves finer); NaN when an
        end could not be mapped.
    resolving_power : float
        ``1 / delta``.
    relative : float
        ``(delta_M - delta_AUROC) / delta_AUROC``: negative when the metric resolves
        finer than AUROC.
    linear_delta : float
        The linear approximation: ``se_M / slope`` scaled like ``delta`` (times the
        interval's width in standard errors), slope = d metric / d AUROC.
    note : str
        Why ``delta`` is NaN, when it is; empty otherwise.

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, noise, signal_curve
    >>> model = Binormal.for_auc(0.8)
    >>> signal = signal_curve(model, prevalence=0.2)
    >>> spread = noise(model, n=500, prevalence=0.2, n_rep=50, seed=0)
    >>> from indist_fast.metrics.resolving_power import resolution
    >>> r = resolution(signal, spread, "auc", at_auc=0.8)
    >>> r.metric, r.relative, round(r.delta, 4)
    ('auc', 0.0, 0.0866)
    """

    metric: str
    interval: tuple[float, float]
    auc_interval: tuple[float, float]
    delta: float
    resolving_power: float
    relative: float
    linear_delta: float
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: the intervals as lists, NaN as None.

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Binormal, compare
        >>> table = compare(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50, seed=0)
        >>> d = table["auc"].to_dict()
        >>> d["metric"], len(d["interval"])
        ('auc', 2)
        """
        return record_dict(self)


def _mapped_width(signal: SignalCurve, noise_: Noise, metric: str, confidence: float
                  ) -> tuple[tuple[float, float], tuple[float, float], float, list[str]]:
    """``(interval, auc_interval, delta, problems)``: each end the curve cannot map is
    NaN, with the reason in ``problems``."""
    try:
        interval = noise_.interval(metric, confidence)
    except ValueError as exc:
        return (math.nan, math.nan), (math.nan, math.nan), math.nan, [str(exc)]
    ends, problems = [], []
    if metric == "auc" and metric in signal.values and np.array_equal(
            signal.values["auc"], signal.auc, equal_nan=True):
        # the reference scale maps onto itself: no curve (and no grid edge) needed
        return interval, interval, interval[1] - interval[0], []
    for value, side in zip(interval, ("low", "high")):
        try:
            ends.append(float(signal.to_auc(metric, value, side)))
        except ValueError as exc:
            ends.append(math.nan)
            problems.append(str(exc))
    lo, hi = min(ends), max(ends)       # (a falling metric maps its ends the other way)
    if math.isnan(ends[0]) or math.isnan(ends[1]):
        lo, hi = ends
    return interval, (lo, hi), hi - lo, problems


def _resolve(signal: SignalCurve, noise_: Noise, metric: str, at_auc: float,
             confidence: float, strict: bool) -> Resolution:
    """One metric's resolution; an interval the curve does not cover raises when
    ``strict``, else gives NaN with a note."""
    interval, auc_interval, delta, problems = _mapped_width(signal, noise_, metric,
                                                            confidence)
    _, _, ref, ref_problems = _mapped_width(signal, noise_, "auc", confidence)
    if strict and (problems or ref_problems):
        raise ValueError((problems + ref_problems)[0])
    from statistics import NormalDist
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    slope = signal.slope(metric, at_auc)
    # a flat or unknown slope maps nothing: NaN, as delta is then
    linear = (2 * z * noise_.std_error(metric) / abs(slope) if slope and math.isfinite(slope)
              else math.nan)
    note = " ".join(dict.fromkeys(problems)) or (
        f"{metric}: AUROC's own noise interval is not covered, so relative is NaN."
        if ref_problems else "")
    return Resolution(metric, interval, auc_interval, delta,
                      1 / delta if delta > 0 else (math.nan if math.isnan(delta) else math.inf),
                      (delta - ref) / ref if ref > 0 else math.nan, linear, note)


def resolution(signal: SignalCurve, noise_: Noise, metric: str, *, at_auc: float,
               confidence: float = 0.95) -> Resolution:
    """Map ``metric``'s noise interval through the signal curve (Beam's step 3).

    Parameters
    ----------
    signal : SignalCurve
        From ``signal_curve``.
    noise_ : Noise
        From ``noise``, with ``metric`` and AUROC measured.
    metric : str
        The metric's name on both.
    at_auc : float
        AUROC in [0, 1] where the linear approximation reads the curve's slope.
    confidence : float, default=0.95
        Coverage of the noise interval, strictly between 0 and 1.

    Returns
    -------
    Resolution
        The mapped interval, its width ``delta`` and the derived figures.

    Raises
    ------
    TypeError
        When ``signal`` or ``noise_`` is not what ``signal_curve`` or ``noise`` returns.
    ValueError
        When the signal curve does not reach an end of the metric's (or AUROC's) noise
        interval: a resolution read at the grid's edge would be clipped, not measured.
        Widen the grid (``compare`` does so itself).

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, noise, signal_curve
    >>> model = Binormal.for_auc(0.8)
    >>> signal = signal_curve(model, prevalence=0.2)
    >>> spread = noise(model, n=500, prevalence=0.2, n_rep=50, seed=0)
    >>> from indist_fast.metrics.resolving_power import resolution
    >>> r = resolution(signal, spread, "precision", at_auc=0.8)
    >>> r.metric, r.resolving_power == 1 / r.delta
    ('precision', True)
    """
    if not isinstance(signal, SignalCurve):
        raise TypeError(f"signal must be a SignalCurve (from signal_curve), got "
                        f"{type(signal).__name__}.")
    if not isinstance(noise_, Noise):
        raise TypeError(f"noise must be a Noise (from resolving_power.noise), got "
                        f"{type(noise_).__name__}.")
    confidence = check_level(confidence, "confidence")
    at_auc = _check_auc(at_auc, "at_auc")
    return _resolve(signal, noise_, metric, at_auc, confidence, strict=True)


def resolving_power(signal: SignalCurve, noise_: Noise, metric: str, *, at_auc: float,
                    confidence: float = 0.95) -> float:
    """``1 / delta_M``.

    Parameters
    ----------
    signal : SignalCurve
        From ``signal_curve``.
    noise_ : Noise
        From ``noise``, with ``metric`` and AUROC measured.
    metric : str
        The metric's name on both.
    at_auc : float
        AUROC in [0, 1] where the linear approximation reads the curve's slope.
    confidence : float, default=0.95
        Coverage of the noise interval, strictly between 0 and 1.

    Returns
    -------
    float
        The resolving power ``1 / delta_M`` of ``resolution``.

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, noise, signal_curve
    >>> model = Binormal.for_auc(0.8)
    >>> signal = signal_curve(model, prevalence=0.2)
    >>> spread = noise(model, n=500, prevalence=0.2, n_rep=50, seed=0)
    >>> from indist_fast.metrics.resolving_power import resolving_power
    >>> round(resolving_power(signal, spread, "auc", at_auc=0.8), 2)
    11.55
    """
    return resolution(signal, noise_, metric, at_auc=at_auc,
                      confidence=confidence).resolving_power


@dataclass(frozen=True)
class ResolvingPowerTable:
    """``compare``'s result: one ``Resolution`` per metric, AUROC first.

    Attributes
    ----------
    rows : tuple of Resolution
        One per metric, AUROC first; index by metric name: ``table["precision"]``.
    model : str
        Description of the sampling model.
    auc : float
        The model's AUROC.
    n : int
        Rows of each replicate sample.
    prevalence : float
        Share of positives of each sample.
    n_rep : int
        Replicate samples of the noise.

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, compare
    >>> table = compare(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50, seed=0)
    >>> table.n, table.n_rep, table["auc"].relative
    (500, 50, 0.0)
    """

    rows: tuple[Resolution, ...]
    model: str
    auc: float
    n: int
    prevalence: float
    n_rep: int

    def __getitem__(self, metric: str) -> Resolution:
        return row_where(self.rows, "metric", metric)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types: the settings and one dict per row.

        Returns
        -------
        dict
            ``model``, ``auc``, ``n``, ``prevalence``, ``n_rep`` and ``rows``.

        Examples
        --------
        >>> from indist_fast.metrics.resolving_power import Binormal, compare
        >>> table = compare(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50, seed=0)
        >>> [row["metric"] for row in table.to_dict()["rows"]]
        ['auc', 'average_precision', 'precision']
        """
        return record_dict(self, rows=[r.to_dict() for r in self.rows])

    def __str__(self) -> str:
        lines = [f"resolving power: {self.model}, AUROC {self.auc:.4f}, n {self.n:,}, "
                 f"prevalence {self.prevalence:.4g}, {self.n_rep} replicates",
                 f"{'metric':>18} {'interval':>21} {'AUROC interval':>21} {'delta':>8} "
                 f"{'power':>8} {'vs AUROC':>9} {'linear':>8}"]
        notes = []
        for r in self.rows:
            lines.append(f"{r.metric:>18} [{r.interval[0]:8.4f}, {r.interval[1]:8.4f}] "
                         f"[{r.auc_interval[0]:8.4f}, {r.auc_interval[1]:8.4f}] "
                         f"{_cell(r.delta, '8.4f')} {_cell(r.resolving_power, '8.1f')} "
                         f"{_cell(r.relative, '+9.1%')} {_cell(r.linear_delta, '8.4f')}")
            if r.note:
                notes.append(f"note: {r.note}")
        lines.append("delta: the metric's 95% noise interval mapped onto the AUROC scale "
                     "(smaller resolves finer); vs AUROC: (delta - delta_AUROC) / delta_AUROC.")
        return "\n".join(lines + notes)


def _cell(value: float, spec: str) -> str:
    width = int(spec.lstrip("+").split(".")[0])
    return f"{'n/a':>{width}}" if math.isnan(value) else format(value, spec)


def _covering_signal(model: Model, specs: dict[str, MetricSpec],
                     prevalence: float | None, spread: Noise, confidence: float,
                     signal_n: int | None, seed: Any) -> SignalCurve:
    """The signal curve on the default grid, widened (same spacing) until it reaches
    every end of every metric's noise interval, or until the grid spans
    ``_AUC_RANGE``: a resolution is never read at the grid's edge."""
    targets = _default_grid(model)
    step = targets[1] - targets[0]
    while True:
        signal = signal_curve(model, specs, targets, prevalence=prevalence,
                              signal_n=signal_n, seed=seed)
        below = above = False
        for name in specs:
            try:
                ends = spread.interval(name, confidence)
                m, _ = signal._defined(name)
            except ValueError:          # nothing to cover: reported by _resolve
                continue
            sign = signal._sign(name)
            low, high = sorted((sign * ends[0], sign * ends[1]))
            below |= low < m[0]
            above |= high > m[-1]
        span = targets[-1] - targets[0]
        lo = max(_AUC_RANGE[0], targets[0] - span) if below else targets[0]
        hi = min(_AUC_RANGE[1], targets[-1] + span) if above else targets[-1]
        if lo == targets[0] and hi == targets[-1]:
            return signal
        targets = np.linspace(lo, hi, int(math.ceil((hi - lo) / step)) + 1)


def compare(model: Model, metrics: Any = METRICS, *, n: int | None = None,
            prevalence: float | None = None, n_rep: int = 1000, seed: Any = None,
            grid: Any = None, confidence: float = 0.95,
            signal_n: int | None = None) -> ResolvingPowerTable:
    """Resolution of each metric against AUROC for one sampling model.

    Parameters
    ----------
    model : Binormal, Mixture or Empirical
        The sampling model.
    metrics : names or callables
        Built-ins ``auc``, ``average_precision``, ``precision`` (C(r_b)); callables
        take a ``ScoreTable`` (on a population model their signal curve is simulated,
        see ``signal_curve``). AUROC is always measured.
    n, prevalence : int, float
        Populations: sample size and prevalence of each replicate sample (required;
        a ``Mixture``'s prevalence defaults to its own). Empirical: the data's own.
    n_rep : int, default=1000
        Replicate samples for the noise.
    seed : None, int, sequence of ints or numpy SeedSequence
        Seed of the replicates (as in ``noise``) and of a simulated signal curve (an
        independent stream of the same seed).
    grid : sequence of float, optional
        AUROC grid of the signal curve. By default 41 values within 0.1 of the
        model's AUROC, widened at the same spacing until the curve reaches every
        metric's noise interval (up to AUROC 0.001 to 0.999).
    confidence : float, default=0.95
        Coverage of the noise intervals.
    signal_n : int, default=100,000
        Binormal with callable metrics: rows of the simulated sample per grid model.

    Returns
    -------
    ResolvingPowerTable

    Warns
    -----
    IndistFastWarning
        When the signal curve cannot reach an end of some metric's noise interval
        (e.g. C(r_b) below its smallest population value, which is undefined for
        worse models): that metric's ``delta`` is NaN, with the reason in its ``note``,
        never a delta clipped to the grid's edge.

    Examples
    --------
    >>> from indist_fast.metrics.resolving_power import Binormal, compare
    >>> t = compare(Binormal.for_auc(0.8), n=2000, prevalence=0.2, n_rep=200, seed=0)
    >>> [r.metric for r in t.rows]
    ['auc', 'average_precision', 'precision']
    """
    _check_model(model)
    specs = _metric_specs(metrics)
    confidence = check_level(confidence, "confidence")
    _check_signal_n(signal_n)       # before the replicates are drawn
    n, prevalence = _sampling(model, n, prevalence)
    at = _model_auc(model)
    seed = check_seed(seed)         # one draw of fresh entropy for noise and signal alike
    with _once_each(stacklevel=2):      # the callables' warnings, at the caller's line
        spread = noise(model, specs, n=n, prevalence=prevalence, n_rep=n_rep, seed=seed)
        signal = (_covering_signal(model, specs, prevalence, spread, confidence, signal_n,
                                   seed) if grid is None else
                  signal_curve(model, specs, grid, prevalence=prevalence, signal_n=signal_n,
                               seed=seed))
    rows = tuple(_resolve(signal, spread, name, at, confidence, strict=False)
                 for name in specs)
    unresolved = [r for r in rows if math.isnan(r.delta)]
    if unresolved:
        warnings.warn(
            "compare: delta is NaN (not clipped to the grid's edge) for "
            + "; ".join(f"{r.metric}: {r.note or 'no reason recorded'}" for r in unresolved),
            IndistFastWarning, stacklevel=2)
    label = (f"binormal(mu={model.mu:.4g}, sigma={model.sigma:g})"
             if isinstance(model, Binormal) else
             f"mixture({len(model.positives)} positive and {len(model.negatives)} negative "
             "components)" if isinstance(model, Mixture) else "empirical")
    return ResolvingPowerTable(rows, label, at, int(n), float(prevalence), int(n_rep))
