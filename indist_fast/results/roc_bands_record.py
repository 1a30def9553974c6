"""Bootstrap intervals of the ROC curve at given points (``ci_bands``), as records:
one ``Band`` per reading, gathered in ``RocBands``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .report import record_dict

__all__ = ["Band", "RocBands"]


@dataclass(frozen=True)
class Band:
    """One rate read at given points of the ROC curve, with bootstrap intervals.

    Attributes
    ----------
    measure : str
        The rate read: ``"sensitivity"`` or ``"specificity"``.
    given : str
        What the points hold: ``"specificity"``, ``"sensitivity"`` or ``"threshold"``.
    at : ndarray
        The points, in the order given.
    estimate : ndarray
        ``measure`` at each point on the full data.
    low, median, high : ndarray
        The ``(1 - confidence) / 2``, 0.5 and ``(1 + confidence) / 2`` quantiles of the
        replicates at each point (pROC's three columns).
    replicates : ndarray of shape (n_boot, len(at))
        ``measure`` on every replicate (NaN where a replicate lacks a class).

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 1, 1, 0, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2, 0.4, 0.5]
    >>> band = indist_fast.ci_bands(y, s, specificities=[0.5], n_boot=50).sensitivity
    >>> band.measure, band.given, band.estimate.tolist()
    ('sensitivity', 'specificity', [1.0])
    """

    measure: str
    given: str
    at: np.ndarray
    estimate: np.ndarray
    low: np.ndarray
    median: np.ndarray
    high: np.ndarray
    replicates: np.ndarray = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, without the replicates.

        Returns
        -------
        dict

        Examples
        --------
        >>> import indist_fast
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2]
        >>> list(indist_fast.ci_bands(y, s, specificities=[0.5], n_boot=20).sensitivity.to_dict())
        ['measure', 'given', 'at', 'estimate', 'low', 'median', 'high']
        """
        return record_dict(self, skip=("replicates",))


@dataclass(frozen=True)
class RocBands:
    """Bootstrap intervals of the ROC curve: pROC's ``ci.se``, ``ci.sp`` and
    ``ci.thresholds``, every point read from the same replicates.

    Attributes
    ----------
    sensitivity : Band or None
        Sensitivity at the given specificities (``ci.se``).
    specificity : Band or None
        Specificity at the given sensitivities (``ci.sp``).
    threshold_sensitivity, threshold_specificity : Band or None
        Sensitivity and specificity at the given thresholds (``ci.thresholds``).
    n_boot : int
        Replicates drawn.
    confidence : float
        Nominal coverage of ``[low, high]``.
    stratified : bool
        Whether the replicates kept each class's count.
    seed_entropy : int
        Entropy of the replicates' ``SeedSequence`` (pass it as ``seed`` to repeat them).

    Examples
    --------
    >>> import indist_fast
    >>> y, s = [0, 1, 1, 0, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2, 0.4, 0.5]
    >>> b = indist_fast.ci_bands(y, s, specificities=[0.5, 0.75], thresholds=[0.45],
    ...                          n_boot=100)
    >>> b.specificity is None, b.threshold_sensitivity.estimate.tolist()
    (True, [0.75])
    """

    sensitivity: Band | None
    specificity: Band | None
    threshold_sensitivity: Band | None
    threshold_specificity: Band | None
    n_boot: int
    confidence: float
    stratified: bool
    seed_entropy: int

    def bands(self) -> list[Band]:
        """The bands computed, in field order.

        Returns
        -------
        list of Band

        Examples
        --------
        >>> import indist_fast
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2]
        >>> [b.measure for b in indist_fast.ci_bands(y, s, thresholds=[0.5], n_boot=20).bands()]
        ['sensitivity', 'specificity']
        """
        return [b for b in (self.sensitivity, self.specificity, self.threshold_sensitivity,
                            self.threshold_specificity) if b is not None]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, without the replicates.

        Returns
        -------
        dict
            Every field; each band as its own dict (None when not computed).

        Examples
        --------
        >>> import indist_fast
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2]
        >>> indist_fast.ci_bands(y, s, n_boot=20).to_dict()["n_boot"]
        20
        """
        names = ("sensitivity", "specificity", "threshold_sensitivity",
                 "threshold_specificity")
        nested: dict[str, Any] = {n: None if getattr(self, n) is None
                                  else getattr(self, n).to_dict() for n in names}
        return record_dict(self, **nested)

    def to_pandas(self) -> Any:
        """One row per point of every band (needs pandas).

        Returns
        -------
        pandas.DataFrame
            Columns ``measure``, ``given``, ``at``, ``estimate``, ``low``, ``median``,
            ``high``.

        Examples
        --------
        >>> import indist_fast
        >>> y, s = [0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.6, 0.3, 0.7, 0.2]
        >>> indist_fast.ci_bands(y, s, specificities=[0.5], n_boot=20).to_pandas().shape
        (1, 7)
        """
        import pandas as pd
        frames = [pd.DataFrame({"measure": b.measure, "given": b.given, "at": b.at,
                                "estimate": b.estimate, "low": b.low, "median": b.median,
                                "high": b.high}) for b in self.bands()]
        return pd.concat(frames, ignore_index=True)

    def __str__(self) -> str:
        lines = [f"ROC bands: {self.n_boot} {'stratified ' if self.stratified else ''}"
                 f"bootstrap replicates, {self.confidence:.0%} percentile intervals",
                 f"{'measure':>12} {'at':>18} {'estimate':>9} {'low':>8} {'median':>8} "
                 f"{'high':>8}"]
        for b in self.bands():
            for i in range(len(b.at)):
                lines.append(f"{b.measure:>12} {b.given + ' ' + format(b.at[i], '.4g'):>18} "
                             f"{b.estimate[i]:>9.4f} {b.low[i]:>8.4f} {b.median[i]:>8.4f} "
                             f"{b.high[i]:>8.4f}")
        return "\n".join(lines)
