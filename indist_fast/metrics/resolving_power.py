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
increment to every positive score, by default on the normal scores of the ranks, so
that the answer does not depend on the scale the scores are given on).
Population and integration need scipy (the ``stats`` extra).

This module holds ``resolution``, ``resolving_power`` and ``compare_metrics`` (every
metric's resolution against AUROC for one model), and is where every name of its
``__all__`` is imported from. The rest lives beside it: the models and the measuring of
metrics on their samples (``score_models``), the signal curves (``signal_curves``), and
the noise and ``Resolution`` (``noise_resolution``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.progress import wants_progress
from .._core.validation import check_level, check_seed
from ..errors import IndistFastWarning, warn
from ..population import Binormal, Mixture
from ..results.report import record_dict, row_where
from .noise_resolution import Noise, Resolution, noise, resolve_metric
from .score_models import (METRICS, Empirical, MetricSpec, Model, check_auc, check_model,
                           measured_specs, model_auc, replicate_sampling,
                           WarningsOnceEach)
from .signal_curves import AUC_RANGE, SignalCurve, check_signal_n, default_grid, signal_curve

__all__ = ["Binormal", "Empirical", "signal_curve", "noise", "resolution",
           "resolving_power", "compare_metrics", "SignalCurve", "Noise", "Resolution",
           "ResolvingPowerTable", "METRICS"]


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
        Widen the grid (``compare_metrics`` does so itself).

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
    at_auc = check_auc(at_auc, "at_auc")
    return resolve_metric(signal, noise_, metric, at_auc, confidence, strict=True)


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
    """``compare_metrics``'s result: one ``Resolution`` per metric, AUROC first.

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
    >>> from indist_fast.metrics.resolving_power import Binormal, compare_metrics
    >>> table = compare_metrics(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50,
    ...                         seed=0)
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
        >>> from indist_fast.metrics.resolving_power import Binormal, compare_metrics
        >>> table = compare_metrics(Binormal.for_auc(0.8), n=500, prevalence=0.2, n_rep=50,
        ...                         seed=0)
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
                     signal_n: int | None, seed: Any, progress: bool) -> SignalCurve:
    """The signal curve on the default grid, widened (same spacing) until it reaches
    every end of every metric's noise interval, or until the grid spans
    ``AUC_RANGE``: a resolution is never read at the grid's edge."""
    targets = default_grid(model)
    step = targets[1] - targets[0]
    while True:
        signal = signal_curve(model, specs, targets, prevalence=prevalence,
                              signal_n=signal_n, seed=seed, progress=progress)
        below = above = False
        for name in specs:
            try:
                ends = spread.interval(name, confidence)
                m, _ = signal._defined(name)
            except ValueError:          # nothing to cover: reported by resolve_metric
                continue
            sign = signal._sign(name)
            low, high = sorted((sign * ends[0], sign * ends[1]))
            below |= low < m[0]
            above |= high > m[-1]
        span = targets[-1] - targets[0]
        lo = max(AUC_RANGE[0], targets[0] - span) if below else targets[0]
        hi = min(AUC_RANGE[1], targets[-1] + span) if above else targets[-1]
        if lo == targets[0] and hi == targets[-1]:
            return signal
        targets = np.linspace(lo, hi, int(math.ceil((hi - lo) / step)) + 1)


def compare_metrics(model: Model, metrics: Any = METRICS, *, n: int | None = None,
            prevalence: float | None = None, n_rep: int = 1000, seed: Any = 0,
            grid: Any = None, confidence: float = 0.95,
            signal_n: int | None = None, progress: bool | None = None
            ) -> ResolvingPowerTable:
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
    seed : int, sequence of ints, numpy SeedSequence or None, default=0
        Seed of the replicates (as in ``noise``) and of a simulated signal curve (an
        independent stream of the same seed): two calls with the default agree. None
        draws fresh entropy.
    grid : sequence of float, optional
        AUROC grid of the signal curve. By default 41 values within 0.1 of the
        model's AUROC, widened at the same spacing until the curve reaches every
        metric's noise interval (up to AUROC 0.001 to 0.999).
    confidence : float, default=0.95
        Coverage of the noise intervals.
    signal_n : int, default=100,000
        Binormal with callable metrics: rows of the simulated sample per grid model.
    progress : bool or None, default=None
        Progress bars over the replicates and over the signal curve's models (tqdm,
        on stderr). None: shown when stderr is a terminal or in Jupyter
        (``INDIST_FAST_PROGRESS=0`` turns that off); True always; False never.

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
    >>> from indist_fast.metrics.resolving_power import Binormal, compare_metrics
    >>> t = compare_metrics(Binormal.for_auc(0.8), n=2000, prevalence=0.2, n_rep=200,
    ...                     seed=0)
    >>> [r.metric for r in t.rows]
    ['auc', 'average_precision', 'precision']
    """
    check_model(model)
    specs = measured_specs(metrics)
    confidence = check_level(confidence, "confidence")
    check_signal_n(signal_n)       # before the replicates are drawn
    n, prevalence = replicate_sampling(model, n, prevalence)
    at = model_auc(model)
    seed = check_seed(seed)         # one draw of fresh entropy for noise and signal alike
    progress = wants_progress(progress)
    with WarningsOnceEach():      # the callables' warnings, at the caller's line
        spread = noise(model, specs, n=n, prevalence=prevalence, n_rep=n_rep, seed=seed,
                       progress=progress)
        signal = (_covering_signal(model, specs, prevalence, spread, confidence, signal_n,
                                   seed, progress) if grid is None else
                  signal_curve(model, specs, grid, prevalence=prevalence, signal_n=signal_n,
                               seed=seed, progress=progress))
    rows = tuple(resolve_metric(signal, spread, name, at, confidence, strict=False)
                 for name in specs)
    unresolved = [r for r in rows if math.isnan(r.delta)]
    if unresolved:
        warn(
            "compare_metrics: delta is NaN (not clipped to the grid's edge) for "
            + "; ".join(f"{r.metric}: {r.note or 'no reason recorded'}" for r in unresolved),
            IndistFastWarning)
    label = (f"binormal(mu={model.mu:.4g}, sigma={model.sigma:g})"
             if isinstance(model, Binormal) else
             f"mixture({len(model.positives)} positive and {len(model.negatives)} negative "
             "components)" if isinstance(model, Mixture) else "empirical")
    return ResolvingPowerTable(rows, label, at, int(n), float(prevalence), int(n_rep))
