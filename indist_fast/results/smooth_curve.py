"""The record of ``smooth_roc``: a smoothed ROC curve, its area and its fit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .report import record_dict

__all__ = ["SmoothRoc"]


@dataclass(frozen=True, eq=False)
class SmoothRoc:
    """A smoothed ROC curve (pROC's ``smooth``): points from (0, 0) to (1, 1) in
    increasing false positive rate, the area under it and the smoothing's parameters.

    Attributes
    ----------
    method : str
        ``"binormal"``, ``"density"`` or ``"fitdistr"``.
    fpr, tpr : ndarray of float64
        The curve's points (``1 - specificity``, ``sensitivity``), read-only; pROC's
        ``specificities`` and ``sensitivities`` in reverse order.
    auc : float
        The area under the smoothed curve: ``pnorm(intercept / sqrt(1 + slope^2))``
        for binormal, the trapezoids under the points for density and fitdistr.
    intercept, slope : float
        Binormal: the least-squares line ``qnorm(sp) = intercept + slope * qnorm(se)``
        through the empirical points (pROC's ``model``); NaN otherwise.
    bandwidth : float
        Density: the kernel bandwidth used (after ``adjust``); NaN otherwise.
    direction : str
        ``"higher"`` or ``"lower"``: which scores were read as positive.

    Examples
    --------
    >>> import indist_fast
    >>> y = [0, 0, 1, 0, 1, 0, 1, 1]
    >>> s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    >>> curve = indist_fast.smooth_roc(y, s)
    >>> round(curve.auc, 4), len(curve.fpr), round(curve.slope, 4)
    (0.7268, 514, -0.5)
    """

    method: str
    fpr: np.ndarray = field(repr=False)
    tpr: np.ndarray = field(repr=False)
    auc: float
    intercept: float
    slope: float
    bandwidth: float
    direction: str

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types (arrays as lists, NaN as None).

        Returns
        -------
        dict
            Field name to value.

        Examples
        --------
        >>> import indist_fast
        >>> y = [0, 0, 1, 0, 1, 0, 1, 1]
        >>> s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
        >>> d = indist_fast.smooth_roc(y, s, n=5).to_dict()
        >>> d["fpr"][0], d["tpr"][-1], d["bandwidth"]
        (0.0, 1.0, None)
        """
        return record_dict(self)

    def to_pandas(self) -> Any:
        """The points as a ``pandas.DataFrame`` (needs pandas): columns ``fpr``, ``tpr``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import indist_fast
        >>> y = [0, 0, 1, 0, 1, 0, 1, 1]
        >>> s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
        >>> indist_fast.smooth_roc(y, s, n=5).to_pandas().shape
        (7, 2)
        """
        import pandas as pd
        return pd.DataFrame({"fpr": self.fpr, "tpr": self.tpr})
