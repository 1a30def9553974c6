"""Noise and resolution (Beam, "Resolving power", steps 2-4): each metric over replicate
samples of one model (``noise``: fresh samples of a population, stratified bootstrap
replicates of an empirical model), and a metric's noise interval mapped through the
signal curve onto the AUROC scale (``Resolution``): its width is the resolution
``delta_M``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .._core.progress import Bar, progress_bar, wants_progress
from .._core.validation import check_count, check_level, check_seed, prepare_rows
from ..inference.bootstrap import MAX_REPLICATES, Interval, Resampler, derived_metrics
from ..results.report import record_dict
from ..table.score_table import ScoreTable
from .score_models import (METRICS, Empirical, MetricSpec, Model, call_metric, check_model,
                           measure_sample, measured_specs, replicate_sampling,
                           WarningsOnceEach)
from .signal_curves import SignalCurve


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
          prevalence: float | None = None, n_rep: int = 1000, seed: Any = 0,
          progress: bool | None = None) -> Noise:
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
    seed : int, sequence of ints, numpy SeedSequence or None, default=0
        Seed of the replicates; the same seed gives the same noise, so two calls with
        the default agree. None draws fresh entropy. A ``Generator`` is refused (as by
        ``bootstrap``): its state would be consumed, so the call could not be repeated.
    progress : bool or None, default=None
        A progress bar over the replicates (tqdm, on stderr). None: shown when stderr
        is a terminal or in Jupyter (``INDIST_FAST_PROGRESS=0`` turns that off); True
        always; False never.

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
    check_model(model)
    specs = measured_specs(metrics)
    n, prevalence = replicate_sampling(model, n, prevalence)
    n_rep = check_count(n_rep, "n_rep", minimum=2, maximum=MAX_REPLICATES)
    seed = check_seed(seed)
    # an empirical model's replicates are swept for the built-ins, then their tables
    # read by the callables: a unit for each
    callables = any(not isinstance(spec, str) for spec in specs.values())
    total = n_rep * (2 if isinstance(model, Empirical) and callables else 1)
    with WarningsOnceEach(), progress_bar(wants_progress(progress), total, "noise",
                                          "replicate") as bar:
        return _noise(model, specs, n, prevalence, n_rep, seed, bar)


def _noise(model: Model, specs: dict[str, MetricSpec], n: int, prevalence: float,
           n_rep: int, seed: np.random.SeedSequence, bar: Bar) -> Noise:
    """The noise of checked arguments; ``bar`` advances by one per replicate measured
    (an empirical model's: swept, then read by the callables)."""
    if not isinstance(model, Empirical):
        rng = np.random.default_rng(seed)
        measured = []
        for _ in range(n_rep):
            measured.append(measure_sample(*model.sample(n, prevalence, rng), specs))
            bar.update()
        return Noise({name: np.array([m[i] for m in measured])
                      for i, name in enumerate(specs)})
    y, s = model.scores(0.0)
    rows = prepare_rows(y, s)
    table = ScoreTable.from_rows(rows)
    resampler = Resampler.from_rows(rows, table, stratified=True, seed=seed)
    builtin = derived_metrics(resampler.sweeps(n_rep, np.array([0.5]), bar=bar))
    callables = {name: spec for name, spec in specs.items() if not isinstance(spec, str)}
    called: dict[str, np.ndarray] = {name: np.empty(n_rep) for name in callables}
    for k in range(n_rep if callables else 0):
        replicate = resampler.replicate_table(k)        # one table for every callable
        for name, spec in callables.items():
            called[name][k] = call_metric(spec, replicate)
        bar.update()
    return Noise({name: builtin[spec] if isinstance(spec, str) else called[name]
                  for name, spec in specs.items()})


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
        >>> from indist_fast.metrics.resolving_power import Binormal, compare_metrics
        >>> table = compare_metrics(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50,
        ...                         seed=0)
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


def resolve_metric(signal: SignalCurve, noise_: Noise, metric: str, at_auc: float,
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
