"""Power and sample size of ROC tests, as pROC's ``power.roc.test`` (Obuchowski and
McClish 1997; Obuchowski, Lieber and Wians 2004).

One curve: the AUC against 0.5, with Obuchowski's approximate variance of an AUC
(``var_theta``) and the null variance ``0.0792 (1 + 1 / kappa)``. Two curves: the
difference of two correlated binormal AUCs (Obuchowski's variance and covariance),
the curves given by their AUCs, their binormal slopes (1: equal spreads) and the
correlation of the two models' scores within each class. The test's equation,
``sqrt(n_cases) abs(delta) = z_alpha sqrt(V0) + z_beta sqrt(VA)``, is solved for
whichever of the sizes, the significance level or the power is missing; with one
curve also for the AUC (by bisection, to machine precision, where pROC's ``uniroot``
stops at about 1e-4).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from .._core.validation import check_real
from ..results.roc_power_record import RocPower
from .obuchowski import cov_params, var_params, var_theta

__all__ = ["power_roc_test"]

_NORMAL = NormalDist()
_ALTERNATIVES = {"two-sided": "two-sided", "two.sided": "two-sided",
                 "one-sided": "one-sided", "one.sided": "one-sided"}


def _optional(value: Any, name: str, **bounds: Any) -> float | None:
    return None if value is None else check_real(value, name, **bounds)


def _bisect(f: Any, lo: float, hi: float) -> float:
    """A root of ``f`` between ``lo`` and ``hi`` (``f(lo) > 0 > f(hi)``), to the last
    bit."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def power_roc_test(*, auc: Any = None, auc2: Any = None, n_cases: Any = None,
                   n_controls: Any = None, kappa: Any = None, sig_level: Any = 0.05,
                   power: Any = None, alternative: str = "two-sided", slope: Any = 1.0,
                   slope2: Any = 1.0, r_cases: Any = 0.0, r_controls: Any = 0.0) -> RocPower:
    """Power or sample size of a test of one ROC curve (AUC against 0.5) or of two
    (``auc`` against ``auc2`` on the same rows), as pROC's ``power.roc.test``.

    Exactly one of the unknowns is None and is solved for: the sizes (``n_cases`` and
    ``n_controls`` both None; ``kappa`` gives their ratio), ``sig_level``, ``power``, or,
    for one curve, ``auc``.

    Parameters
    ----------
    auc : float, optional
        The AUC (of the first curve), in (0.5, 1) for one curve.
    auc2 : float, optional
        The second curve's AUC: given, the test compares two curves.
    n_cases, n_controls : float, optional
        Positives and negatives. One of them with ``kappa`` gives the other.
    kappa : float, optional
        ``n_controls / n_cases`` (> 0); 1 when needed and not given, as in pROC.
    sig_level : float or None, default=0.05
        Significance level, in (0, 1); None to solve for it.
    power : float, optional
        Power, in (0, 1); None to solve for it.
    alternative : {"two-sided", "one-sided"}, default="two-sided"
        pROC's spellings ``"two.sided"`` and ``"one.sided"`` are accepted too.
    slope, slope2 : float, default=1.0
        Binormal slopes ``B`` of the two curves (the ratio of the negatives' to the
        positives' score spread; 1 for equal spreads). Two curves only.
    r_cases, r_controls : float, default=0.0
        Correlation of the two models' scores among the positives and among the
        negatives, in [-1, 1] (0: independent scores). Two curves only.

    Returns
    -------
    RocPower
        Every quantity, the solved one included.

    Raises
    ------
    ValueError
        Not exactly one unknown, a value out of range, or no solution (an AUC no size
        can detect).

    Notes
    -----
    Two curves are passed to Obuchowski's formulas by their binormal parameters:
    ``A = qnorm(auc) sqrt(1 + B^2)`` (the binormal curve of that area and slope) and
    ``B``; pROC takes them as ``power.roc.test(list(A1=, B1=, A2=, B2=, rn=, ra=,
    delta=))``. pROC's ``power.roc.test(roc1, roc2)`` estimates them from data; here,
    estimate the AUCs and pass them.

    Examples
    --------
    >>> import indist_fast
    >>> r = indist_fast.power_roc_test(auc=0.8, n_cases=20, n_controls=30)
    >>> round(r.power, 4)
    0.9745
    >>> r = indist_fast.power_roc_test(auc=0.75, power=0.9, kappa=2.0)
    >>> round(r.n_cases, 2), round(r.n_controls, 2)
    (19.16, 38.33)
    >>> r = indist_fast.power_roc_test(n_cases=30, n_controls=30, power=0.8)
    >>> round(r.auc, 4)
    0.7009
    >>> r = indist_fast.power_roc_test(auc=0.85, auc2=0.75, power=0.8, r_cases=0.5,
    ...                                r_controls=0.5)
    >>> round(r.n_cases, 1)
    99.2
    """
    if not isinstance(alternative, str) or alternative not in _ALTERNATIVES:
        raise ValueError(f"alternative must be 'two-sided' or 'one-sided' (pROC's "
                         f"'two.sided', 'one.sided'), got {alternative!r}.")
    alternative = _ALTERNATIVES[alternative]
    two = auc2 is not None
    auc = _optional(auc, "auc", low=0.0, high=1.0, low_open=True, high_open=True)
    auc2 = _optional(auc2, "auc2", low=0.0, high=1.0, low_open=True, high_open=True)
    n_cases = _optional(n_cases, "n_cases", low=0.0, low_open=True)
    n_controls = _optional(n_controls, "n_controls", low=0.0, low_open=True)
    kappa = _optional(kappa, "kappa", low=0.0, low_open=True)
    sig_level = _optional(sig_level, "sig_level", low=0.0, high=1.0, low_open=True,
                          high_open=True)
    power = _optional(power, "power", low=0.0, high=1.0, low_open=True, high_open=True)
    b1 = check_real(slope, "slope")
    b2 = check_real(slope2, "slope2")
    ra = check_real(r_cases, "r_cases", low=-1.0, high=1.0)
    rn = check_real(r_controls, "r_controls", low=-1.0, high=1.0)
    if not two and (b1 != 1.0 or b2 != 1.0 or ra != 0.0 or rn != 0.0):
        raise ValueError("slope, slope2, r_cases and r_controls describe two curves: pass "
                         "auc2 as well (one curve uses Obuchowski's approximation).")
    if n_cases is not None and n_controls is not None:
        if kappa is not None:
            raise ValueError("kappa is n_controls / n_cases: give two of n_cases, "
                             "n_controls and kappa, not all three.")
        kappa = n_controls / n_cases
    elif n_cases is not None:
        kappa = 1.0 if kappa is None else kappa
        n_controls = kappa * n_cases
    elif n_controls is not None:
        kappa = 1.0 if kappa is None else kappa
        n_cases = n_controls / kappa
    elif kappa is None:
        kappa = 1.0
    unknowns = [name for name, value in (("auc", auc), ("n", n_cases),
                                         ("sig_level", sig_level), ("power", power))
                if value is None and not (name == "auc" and two)]
    if two and auc is None:
        raise ValueError("auc: two curves need both AUCs (auc and auc2); the AUC is "
                         "solved for with one curve only.")
    if len(unknowns) != 1:
        named = ", ".join(unknowns) if unknowns else "none"
        raise ValueError("exactly one of auc, the sizes (n_cases and n_controls), "
                         "sig_level and power must be None, to be solved for; got "
                         f"{len(unknowns)} unknown ({named}).")
    solved = unknowns[0]
    # a two-sided test spends half the level in each tail
    half = 2.0 if alternative == "two-sided" else 1.0
    alpha = None if sig_level is None else sig_level / half
    if two:
        assert auc is not None and auc2 is not None
        if auc == auc2:
            raise ValueError("auc and auc2 are equal: no size detects a difference of 0.")
        a1 = _NORMAL.inv_cdf(auc) * math.sqrt(1.0 + b1 * b1)
        a2 = _NORMAL.inv_cdf(auc2) * math.sqrt(1.0 + b2 * b2)
        var1 = var_params(a1, b1, kappa)
        var2 = var_params(a2, b2, kappa)
        cov = cov_params(a1, b1, a2, b2, rn, ra, kappa)
        v0, va = 2.0 * var1 - 2.0 * cov, var1 + var2 - 2.0 * cov
        delta = auc - auc2
    elif solved != "auc":
        assert auc is not None
        v0, va, delta = 0.0792 * (1.0 + 1.0 / kappa), var_theta(auc, kappa), auc - 0.5
    if solved == "auc":
        assert n_cases is not None and alpha is not None and power is not None
        za, zb = _NORMAL.inv_cdf(1.0 - alpha), _NORMAL.inv_cdf(power)
        null = za * math.sqrt(0.0792 * (1.0 + 1.0 / kappa))

        def gap(x: float) -> float:
            return float((null + zb * math.sqrt(var_theta(x, kappa))) ** 2 / (x - 0.5) ** 2
                         - n_cases)

        hi = 1.0 - 1e-16
        if gap(hi) > 0:
            raise ValueError(f"n_cases={n_cases:g}, n_controls={n_controls:g}: no AUC below "
                             "1 reaches this power at this significance level.")
        auc = _bisect(gap, 0.5, hi)
    elif solved == "n":
        za, zb = _NORMAL.inv_cdf(1.0 - alpha), _NORMAL.inv_cdf(power)   # type: ignore
        n_cases = (za * math.sqrt(v0) + zb * math.sqrt(va)) ** 2 / delta ** 2
        n_controls = kappa * n_cases
    elif solved == "power":
        assert n_cases is not None and alpha is not None
        za = _NORMAL.inv_cdf(1.0 - alpha)
        power = _NORMAL.cdf((math.sqrt(n_cases * delta ** 2) - za * math.sqrt(v0))
                            / math.sqrt(va))
    else:
        assert n_cases is not None and power is not None
        zb = _NORMAL.inv_cdf(power)
        z = (math.sqrt(n_cases * delta ** 2) - zb * math.sqrt(va)) / math.sqrt(v0)
        sig_level = (1.0 - _NORMAL.cdf(z)) * half
    assert n_cases is not None and n_controls is not None and auc is not None
    assert sig_level is not None and power is not None
    return RocPower(n_cases, n_controls, auc, auc2, sig_level, power, kappa, alternative,
                    solved)
