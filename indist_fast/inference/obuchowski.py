"""Obuchowski's variance and covariance of binormal AUCs (Obuchowski and McClish,
"Sample size determination for diagnostic accuracy studies involving binormal ROC
curve indices", Statistics in Medicine 1997), with pROC's expressions.

``A`` and ``B`` are the binormal parameters; ``kappa`` is the ratio of negatives to
positives; ``fpr_range`` restricts the area to a band of false positive rates
(partial AUC). Each function returns the variance (or covariance) times the number of
positives, as pROC's ``var.params.obuchowski`` does: divide by ``n_cases``.
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["var_params", "cov_params", "var_theta"]

_NORMAL = NormalDist()


def _f_g(a: float, b: float, fpr_range: tuple[float, float] | None) -> tuple[float, float]:
    """The derivatives of the (partial) area by ``A`` and by ``B`` (pROC's ``f`` and
    ``g``)."""
    e2 = 1.0 + b * b
    e1 = math.exp(-a * a / (2.0 * e2))
    if fpr_range is None:
        return (e1 * (2.0 * math.pi * e2) ** -0.5,
                -e1 * a * b * (2.0 * math.pi * e2 ** 3) ** -0.5)
    c1, c2 = ((_NORMAL.inv_cdf(fpr) + a * b / e2) * math.sqrt(e2) for fpr in fpr_range)
    e3 = _NORMAL.cdf(c1) - _NORMAL.cdf(c2)
    e4 = math.exp(-c1 * c1 / 2.0) - math.exp(-c2 * c2 / 2.0)
    f = e1 * (2.0 * math.pi * e2) ** -0.5 * e3
    g = e1 / (2.0 * math.pi * e2) * -e4 - a * b * e1 * (2.0 * math.pi * e2 ** 3) ** -0.5 * e3
    return f, g


def var_params(a: float, b: float, kappa: float,
               fpr_range: tuple[float, float] | None = None) -> float:
    """``n_cases`` times Obuchowski's variance of a binormal (partial) AUC.

    Parameters
    ----------
    a, b : float
        The binormal parameters (pROC passes the intercept and slope of its fit).
    kappa : float
        Negatives per positive, > 0.
    fpr_range : (float, float), optional
        The band of false positive rates of a partial AUC, larger first (pROC's
        ``FPR1``, ``FPR2``); None for the whole area.

    Returns
    -------
    float
        The variance times the number of positives.

    Examples
    --------
    >>> from indist_fast.inference.obuchowski import var_params
    >>> round(var_params(1.0, 1.0, 1.0), 6)
    0.132732
    """
    f, g = _f_g(a, b, fpr_range)
    return f * f * (1.0 + b * b / kappa + a * a / 2.0) + g * g * b * b * (1.0 + kappa) / (2.0 * kappa)


def cov_params(a1: float, b1: float, a2: float, b2: float, r_controls: float,
               r_cases: float, kappa: float,
               fpr_range: tuple[float, float] | None = None,
               fpr_range2: tuple[float, float] | None = None) -> float:
    """``n_cases`` times Obuchowski's covariance of two binormal AUCs of the same rows,
    whose scores correlate by ``r_controls`` among negatives and ``r_cases`` among
    positives.

    Parameters
    ----------
    a1, b1, a2, b2 : float
        The two curves' binormal parameters.
    r_controls, r_cases : float
        Correlation of the two models' scores among negatives and among positives.
    kappa : float
        Negatives per positive, > 0.
    fpr_range, fpr_range2 : (float, float), optional
        Each curve's band of false positive rates (see ``var_params``).

    Returns
    -------
    float
        The covariance times the number of positives.

    Examples
    --------
    >>> from indist_fast.inference.obuchowski import cov_params, var_params
    >>> round(cov_params(1.0, 1.0, 1.2, 0.9, 0.3, 0.4, 2.0), 6)
    0.02484
    """
    f1, g1 = _f_g(a1, b1, fpr_range)
    f2, g2 = _f_g(a2, b2, fpr_range2)
    rn, ra = r_controls, r_cases
    return (f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2.0)
            + g1 * g2 * (b1 * b2 * (rn * rn + kappa * ra * ra) / (2.0 * kappa))
            + f1 * g2 * (ra * ra * a1 * b2 / 2.0) + f2 * g1 * (ra * ra * a2 * b1 / 2.0))


def var_theta(theta: float, kappa: float) -> float:
    """``n_cases`` times the variance of an AUC ``theta`` under Obuchowski's
    approximation for one curve (pROC's ``var.theta.obuchowski``, with its constant
    1.414 for the square root of 2).

    Parameters
    ----------
    theta : float
        The AUC, in (0, 1).
    kappa : float
        Negatives per positive, > 0.

    Returns
    -------
    float
        The variance times the number of positives.

    Examples
    --------
    >>> from indist_fast.inference.obuchowski import var_theta
    >>> round(var_theta(0.5, 1.0), 4)     # the null variance: 0.0792 (1 + 1 / kappa)
    0.1584
    """
    a = _NORMAL.inv_cdf(theta) * 1.414
    return 0.0099 * math.exp(-a * a / 2.0) * ((5.0 * a * a + 8.0) + (a * a + 8.0) / kappa)
