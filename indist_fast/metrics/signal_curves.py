"""Signal curves (Beam, "Resolving power", step 1): each metric over a grid of models of
increasing quality, AUROC as the common scale. A population's grid models shift its
positive scores and read population values (a callable metric is measured on one large
simulated sample per grid model, common random numbers across the grid); an empirical
model's add an increment to its positive scores. ``SignalCurve`` maps a metric's value
back onto the AUROC scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .._core.progress import Bar, progress_bar, wants_progress
from .._core.validation import check_count, check_seed
from ..population import MAX_SAMPLE_SIZE, Mixture, check_prevalence, n_positives
from .score_models import (METRICS, Empirical, MetricSpec, Model, Population, check_model,
                           grid_offset, measure_sample, measured_specs, model_auc,
                           WarningsOnceEach)


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
AUC_RANGE = (0.001, 0.999)
# Each grid point is a model to measure (a numerical integration or a sweep of n rows).
MAX_GRID = 10_000


def default_grid(model: Model) -> np.ndarray:
    """41 AUROC values within 0.1 of the model's."""
    a = model_auc(model)
    lo, hi = max(AUC_RANGE[0], min(a, AUC_RANGE[1]) - 0.1), min(AUC_RANGE[1], a + 0.1)
    return np.linspace(lo, hi, 41)


def _grid_for(model: Any, grid: Any) -> np.ndarray:
    """The AUROC targets of the grid, checked."""
    check_model(model)
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
    return targets


def signal_curve(model: Model, metrics: Any = METRICS, grid: Any = None, *,
                 prevalence: float | None = None, signal_n: int | None = None,
                 seed: Any = 0, progress: bool | None = None) -> SignalCurve:
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
    seed : int, sequence of ints, numpy SeedSequence or None, default=0
        Population models with callable metrics: seed of those draws; the same seed
        gives the same curve. None draws fresh entropy.
    progress : bool or None, default=None
        A progress bar over the grid models (tqdm, on stderr). None: shown when
        stderr is a terminal or in Jupyter (``INDIST_FAST_PROGRESS=0`` turns that
        off); True always; False never.

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
    check_model(model)
    specs = measured_specs(metrics)
    check_signal_n(signal_n)       # before any model is measured
    targets = _grid_for(model, default_grid(model) if grid is None else grid)
    if not isinstance(model, Empirical):
        if isinstance(model, Mixture) and prevalence is None:
            prevalence = model.prevalence
        if prevalence is None:
            raise ValueError("a binormal signal curve needs the prevalence.")
        prevalence = check_prevalence(prevalence)
    seed = check_seed(seed)
    with WarningsOnceEach(), progress_bar(wants_progress(progress), len(targets),
                                          "signal curve", "model") as bar:
        return _signal(model, specs, targets, prevalence, signal_n, seed, bar)


def _signal(model: Model, specs: dict[str, MetricSpec], targets: np.ndarray,
            prevalence: float | None, signal_n: int | None, seed: np.random.SeedSequence,
            bar: Bar) -> SignalCurve:
    """The curve of checked arguments; ``bar`` advances by one per grid model."""
    if isinstance(model, Empirical):
        deltas, measured = [], []
        for a in targets:
            deltas.append(model.increment_for_auc(a))
            measured.append(measure_sample(*model.scores(deltas[-1]), specs))
            bar.update()
        vals = {name: np.array([m[i] for m in measured]) for i, name in enumerate(specs)}
        return SignalCurve(vals["auc"], vals, np.array(deltas))
    assert prevalence is not None
    models = [model.with_auc(a) for a in targets]
    callables = {name: spec for name, spec in specs.items() if not isinstance(spec, str)}
    sample = _signal_sample(model, prevalence, signal_n, seed) if callables else None
    measured = []
    for m in models:
        # built-ins: population values; callables: the common sample, moved to m
        row = {name: m.population(spec, prevalence) for name, spec in specs.items()
               if isinstance(spec, str)}
        if sample is not None:
            y, base = sample
            moved = np.where(y, base + (grid_offset(m) - grid_offset(model)), base)
            row.update(zip(callables, measure_sample(y, moved, callables)))
        measured.append([row[name] for name in specs])
        bar.update()
    vals = {name: np.array([m[i] for m in measured]) for i, name in enumerate(specs)}
    return SignalCurve(vals["auc"], vals, np.array([grid_offset(m) for m in models]))


#: Rows of the sample a callable metric is measured on at each binormal grid model.
SIGNAL_SAMPLE_SIZE = 100_000
# Appended to the seed's spawn key for the signal's draws: independent of the noise
# replicates drawn from the same seed, whose stream stays what it always was.
_SIGNAL_STREAM = 0x5349474E


def check_signal_n(signal_n: Any) -> int:
    if signal_n is None:
        return SIGNAL_SAMPLE_SIZE
    return check_count(signal_n, "signal_n", minimum=2, maximum=MAX_SAMPLE_SIZE)


def _signal_seed(ss: np.random.SeedSequence) -> np.random.SeedSequence:
    """The stream of the signal's draws, derived from ``ss`` without touching it."""
    return np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, _SIGNAL_STREAM),
                                  pool_size=ss.pool_size)


def _signal_sample(model: Population, prevalence: float, signal_n: int | None,
                   seed: np.random.SeedSequence) -> tuple[np.ndarray, np.ndarray]:
    """The one sample of ``model`` a callable is measured on at every population grid
    model, its positives moved to each (common random numbers)."""
    n = check_signal_n(signal_n)
    n_positives(n, prevalence, "signal_n")
    return model.sample(n, prevalence, np.random.default_rng(_signal_seed(seed)))
