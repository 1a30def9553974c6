"""The sampling models of resolving power (Beam, "Resolving power"; definitions page,
"Resolving power") as the signal and the noise use them: ``Empirical`` (a score set taken
as the population, better models adding an increment to every positive score), the
population models ``Binormal`` and ``Mixture`` (from ``indist_fast.population``) behind
the same checks, the size and prevalence of a model's replicate samples, and the
measuring of metrics on one sample (built-ins from one sweep, callables on a
``ScoreTable``) with their warnings gathered once per kind.
"""

from __future__ import annotations

import math
import threading
import warnings
from statistics import NormalDist
from typing import Any, Callable, Mapping, Union

import numpy as np

from .._core.engine import engine
from .._core.validation import check_count, check_real, check_two_classes, prepare_rows
from ..errors import IndistFastWarning, warn
from ..inference.bootstrap import metric_specs, sweep_metrics
from ..population import Binormal, Mixture, check_prevalence, n_positives
from ..table.score_table import ScoreTable

#: The bootstrap's metrics that also have a population value under a Binormal model.
METRICS = ("auc", "average_precision", "precision")
TableMetric = Callable[[ScoreTable], float]
MetricSpec = Union[str, TableMetric]


#: The sampling models with population values (their grid models are shifts).
Population = Union[Binormal, Mixture]
Model = Union[Binormal, Mixture, "Empirical"]


def check_auc(value: Any, name: str) -> float:
    """An AUROC value, 0 and 1 included (an empirical model can reach both)."""
    return check_real(value, name, low=0.0, high=1.0, must="be an AUROC value in [0, 1]")


# --- the empirical model --------------------------------------------------------------------------

class Empirical:
    """A score set taken as the population; better models add ``delta`` to every
    positive score.

    Which model is "slightly better" depends on the scale the increment is added on:
    adding ``delta`` resolves first the out-of-order pairs whose scores are closest,
    and probabilities and their log-odds (one ranking) call different pairs close.
    So by default (``scale="normal"``) the scores are first replaced by the normal
    scores of their ranks, ``Phi^{-1}((r - 1/2) / n)`` with ``r`` the mid-rank (tied
    scores stay tied): the model, its signal curve and its noise are then the same
    for every strictly increasing transform of the scores, and so is the resolution of
    every metric that reads ranks only (AUROC, average precision, C(r_b)). On that
    scale each class's scores are about normal, and adding ``delta`` to the positives
    is the shift of the binormal model. ``scale="scores"`` keeps the scores as given
    (Beam's empirical model): the resolutions then depend on the scale the scores are
    given on, which is a choice, not a property of the ranking.

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
        Real scores, higher meaning more likely positive. With ``scale="scores"``
        they must be finite (an increment cannot move a score from or past infinity),
        else ValueError. No weights: every row is one member of the population.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    scale : {"normal", "scores"}, default="normal"
        The scale the increments are added on: the normal scores of the ranks
        (``pos`` and ``neg`` hold them; infinite scores are then fine), or the scores
        as given. Metrics that read score values rather than ranks (a Brier score
        passed as a callable, say) see the scores of this scale.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.metrics.resolving_power import Empirical
    >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4])
    >>> k = 2
    >>> d = e.increment(k)
    >>> (e.auc(d) - e.auc()) * e.n_pos * e.n_neg
    2.0

    Probabilities and their log-odds are one model on the normal scale:

    >>> p = np.array([0.3, 0.1, 0.5, 0.4])
    >>> bool(np.all(Empirical([0, 1, 0, 1], np.log(p / (1 - p))).pos == e.pos))
    True
    >>> e.pos.round(4).tolist(), Empirical([0, 1, 0, 1], p, scale="scores").pos.tolist()
    ([-1.1503, 0.3186], [0.1, 0.4])
    """

    def __init__(self, y_true: Any, y_score: Any, *, pos_label: Any = None,
                 scale: str = "normal") -> None:
        if scale not in _SCALES:
            raise ValueError(f"scale must be one of {', '.join(map(repr, _SCALES))} (the "
                             "normal scores of the ranks, or the scores as given), got "
                             f"{scale!r}.")
        # The score table's pass checks the rows as every other entry point does (NaN
        # scores, a third label) and its counts give each class's sorted scores.
        table = ScoreTable.from_rows(prepare_rows(y_true, y_score, None, pos_label))
        check_two_classes(table.weight_pos, table.weight_neg)
        pos, neg = table.pos[::-1], table.neg[::-1]
        ascending = (normal_scores(pos + neg) if scale == "normal"
                     else table.scores[::-1])
        self.scale = scale
        self.pos = np.repeat(ascending, pos)
        self.neg = np.repeat(ascending, neg)
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
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4], scale="scores")
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
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4], scale="scores")
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
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4], scale="scores")
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
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4], scale="scores")
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
        >>> e = Empirical([0, 1, 0, 1], [0.3, 0.1, 0.5, 0.4], scale="scores")
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
        auc = check_auc(auc, "auc")
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


_SCALES = ("normal", "scores")


def normal_scores(counts: np.ndarray) -> np.ndarray:
    """The normal score ``Phi^{-1}((r - 1/2) / n)`` of each group of tied rows, groups
    in ascending order of score with ``counts`` rows each; ``r`` is the group's
    mid-rank, so ``(r - 1/2) / n = (rows below + count / 2) / n`` lies in (0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.metrics.score_models import normal_scores
    >>> normal_scores(np.array([1, 2, 1])).round(4).tolist()
    [-1.1503, 0.0, 1.1503]
    """
    counts = np.asarray(counts, dtype=np.float64)
    n = float(np.sum(counts))
    below = np.cumsum(counts) - counts
    inv_cdf = NormalDist().inv_cdf             # the standard library's, one per group
    return np.fromiter(map(inv_cdf, ((below + counts / 2.0) / n).tolist()),
                       dtype=np.float64, count=len(counts))


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


def check_model(model: Any) -> None:
    if not isinstance(model, (Binormal, Mixture, Empirical)):
        raise TypeError(f"model must be a Binormal, a Mixture or an Empirical model, got "
                        f"{type(model).__name__}.")


def model_auc(model: Model) -> float:
    return model.auc(0.0) if isinstance(model, Empirical) else model.auc


def grid_offset(model: Population) -> float:
    """Where a population model sits on its grid: mu, or the first positive mean."""
    return float(model.mu) if isinstance(model, Binormal) else model.positives[0][1]


def replicate_sampling(model: Model, n: Any, prevalence: Any) -> tuple[int, float]:
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
        warn(f"each replicate sample holds {few} {'positive' if k == few else 'negative'}"
             f"{'' if few == 1 else 's'} (n={int(n):,}, prevalence={prevalence:g}): "
             "its noise intervals, and the resolutions read from them, are "
             "dominated by which rows are drawn; use a larger n.",
             IndistFastWarning)
    return int(n), prevalence


# Fewer rows of a class than this in each replicate sample: a warning (a metric's
# noise interval from a handful of positives says more about the draw than the metric).
_FEW = 5


# --- measuring metrics on a sample --------------------------------------------------------------

def measured_specs(metrics: Any) -> dict[str, MetricSpec]:
    out = metric_specs(metrics, METRICS)
    if "auc" not in out.values():
        out = {"auc": "auc", **out}          # the reference scale is always measured
    return out


_gathering = threading.local()


class WarningsOnceEach:
    """Warnings raised while many samples are measured (a callable metric calling
    ``evaluate`` on replicates where B misses a level, say), passed on once per kind:
    the first of each category with the count of the others (a thousand near-copies
    of one warning, each with its replicate's numbers, hide everything else).

    A class, not a generator: its ``__exit__`` runs in the public function's frame, so
    ``errors.warn`` finds the caller's line with no ``contextlib`` frame between."""

    def __enter__(self) -> None:
        # An outer call gathers them (compare_metrics gathers noise's and signal's).
        self._outer = getattr(_gathering, "on", False)
        if not self._outer:
            _gathering.on = True
            self._catcher = warnings.catch_warnings(record=True)
            self._caught = self._catcher.__enter__()
            warnings.simplefilter("always")

    def __exit__(self, *exc: Any) -> None:
        if self._outer:
            return
        _gathering.on = False
        self._catcher.__exit__(*exc)
        if exc[0] is not None:               # the error, not the warnings, goes up
            return
        first: dict[type, tuple[str, int]] = {}
        for w in self._caught:
            message, count = first.get(w.category, (str(w.message), 0))
            first[w.category] = (message, count + 1)
        for category, (message, count) in first.items():
            more = (f" [{category.__name__} {count:,} times over the samples measured; "
                    "the first is shown]" if count > 1 else "")
            warn(message + more, category)


def measure_sample(y: np.ndarray, s: np.ndarray, specs: Mapping[str, MetricSpec]) -> list[float]:
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
            out.append(call_metric(spec, table))
    return out


def call_metric(spec: TableMetric, table: ScoreTable) -> float:
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
