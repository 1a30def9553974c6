"""``Drift``: which periods of ``over_time`` differ from a reference period beyond
their combined uncertainty, and by which test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .report import plain_value, record_dict
from .values import value_text

__all__ = ["Drift"]


@dataclass(frozen=True, repr=False)
class Drift:
    """Each period against the reference period, one two-sided test per metric.

    Attributes
    ----------
    reference : object
        The reference period (its start, as in the table's ``period`` column), or the
        first and last periods of a reference of several (a tuple).
    alpha : float
        The level of each test: a period is flagged where ``p_value < alpha``. Each
        period is tested on its own (no correction for the number of periods).
    tests : Mapping[str, str]
        Metric (``"auc"``, ``"precision"``, i.e. ``C(r_b)``) to the test used, or to
        why it was not run.
    period : ndarray
        The periods, in the table's order.
    in_reference : ndarray of bool
        The periods the reference holds (not tested).
    auc_difference, auc_z, auc_p_value : ndarray of float64
        ``auc - auc(reference)``, its z statistic and p-value (NaN for the reference's
        periods and where a period's DeLong variance is undefined: one class, or a
        single row of a class).
    auc_drift : ndarray of bool
        ``auc_p_value < alpha``.
    precision_difference, precision_z, precision_p_value : ndarray of float64
        The same for ``C(r_b)``, with bootstrap standard errors (NaN without
        ``n_boot``).
    precision_drift : ndarray of bool
        ``precision_p_value < alpha``.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(0)
    >>> t = np.repeat([0, 86400, 2 * 86400], 400)
    >>> y = rng.integers(0, 2, 1200)
    >>> s = y * np.where(t < 2 * 86400, 2.0, 0.2) + rng.normal(size=1200)
    >>> d = indist_fast.over_time(y, s, t, freq="1D").drift
    >>> d.auc_drift.tolist(), d.tests["auc"]
    ([False, False, True], 'DeLong, two independent samples (z test, two-sided)')
    """

    reference: Any
    alpha: float
    tests: Mapping[str, str]
    period: np.ndarray
    in_reference: np.ndarray
    auc_difference: np.ndarray
    auc_z: np.ndarray
    auc_p_value: np.ndarray
    auc_drift: np.ndarray
    precision_difference: np.ndarray
    precision_z: np.ndarray
    precision_p_value: np.ndarray
    precision_drift: np.ndarray

    def flagged(self) -> list[Any]:
        """The periods flagged by either test, in order.

        Returns
        -------
        list

        Examples
        --------
        >>> import numpy as np, indist_fast
        >>> t = indist_fast.over_time([0, 1, 0, 1], [.1, .9, .2, .8], [0, 0, 86400, 86400]).drift
        >>> t.flagged()
        []
        """
        either = self.auc_drift | self.precision_drift
        return [plain_value(v) for v in self.period[either]]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types, a list per array.

        Returns
        -------
        dict

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.over_time([0, 1, 0, 1], [.1, .9, .2, .8], [0, 0, 86400, 86400]).drift
        >>> d.to_dict()["auc_drift"], d.to_dict()["reference"]
        ([False, False], 0.0)
        """
        return record_dict(self, tests=dict(self.tests))

    def to_pandas(self) -> Any:
        """The per-period arrays as a ``pandas.DataFrame`` (needs pandas).

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import indist_fast
        >>> d = indist_fast.over_time([0, 1, 0, 1], [.1, .9, .2, .8], [0, 0, 86400, 86400]).drift
        >>> list(d.to_pandas().columns)[:3]
        ['period', 'in_reference', 'auc_difference']
        """
        import pandas as pd
        names = ("period", "in_reference", "auc_difference", "auc_z", "auc_p_value", "auc_drift",
                 "precision_difference", "precision_z", "precision_p_value",
                 "precision_drift")
        return pd.DataFrame({name: getattr(self, name) for name in names})

    def __repr__(self) -> str:
        ref = (" to ".join(map(value_text, self.reference)) if isinstance(self.reference, tuple)
               else value_text(self.reference))
        return (f"Drift(reference={ref}, alpha={self.alpha:g}, "
                f"flagged={[value_text(v) for v in self.period[self.auc_drift | self.precision_drift]]})")

    __str__ = __repr__
