"""The logistic recalibration line of probabilities (Cox 1958): ``logit P(y = 1) = a +
b logit(p)`` by maximum likelihood, fitted over the distinct scores with their class
weights (a binomial regression of the score table, not of the rows).

``b`` is the calibration slope (1 for calibrated scores; below 1, predictions too
extreme; above 1, too timid) and ``a`` the intercept (0 for calibrated scores at
slope 1).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

__all__ = ["RecalibrationFit", "recalibration_fit"]

#: Newton steps before giving up; the log-likelihood is concave and each step is
#: halved until it climbs, so a fit with a finite maximum converges in a few dozen.
MAX_STEPS = 200


class RecalibrationFit(NamedTuple):
    """Slope and intercept, or NaN with the reason in ``undefined`` ("" when fitted)."""

    slope: float
    intercept: float
    undefined: str


def _undefined(reason: str) -> RecalibrationFit:
    return RecalibrationFit(math.nan, math.nan, reason)


def _likelihood(z: np.ndarray, pos: np.ndarray, total: np.ndarray
                ) -> tuple[float, np.ndarray]:
    """The log-likelihood at linear predictors ``z`` and the fitted probabilities, from
    one exponential: ``log sigma(z) = z - softplus(z)``, ``softplus(z) = max(z, 0) +
    log1p(e^-|z|)``, which neither overflows nor loses the tails."""
    e = np.exp(-np.abs(z))
    softplus = np.maximum(z, 0.0) + np.log1p(e)
    r = 1.0 / (1.0 + e)
    mu = np.where(z >= 0.0, r, e * r)
    # sums of products, not np.dot: a BLAS call's threads cost more than they save here
    return float((pos * z).sum() - (total * softplus).sum()), mu


def recalibration_fit(p: np.ndarray, q: np.ndarray, pos: np.ndarray, neg: np.ndarray
                      ) -> RecalibrationFit:
    """Maximum-likelihood ``(b, a)`` of ``logit P(y = 1) = a + b x``, ``x = log p -
    log q``, for distinct scores with positive weight ``pos`` and negative ``neg``.

    ``p`` and ``q = 1 - p`` come clipped to ``[eps, 1 - eps]`` (as ``log_loss`` clips
    them), so a probability of exactly 0 or 1 enters at ``x = -+36.04`` (float64).
    The maximum is finite only when both classes overlap in ``x``: with one class,
    one distinct ``x``, or every positive at or above every negative (or below it)
    the likelihood climbs without end as ``|b|`` grows, and the fit is undefined
    (NaN, the reason in ``undefined``). Otherwise the log-likelihood is strictly
    concave and Newton's method with step halving reaches its maximum.

    Parameters
    ----------
    p, q : ndarray of shape (m,)
        Clipped probabilities and their complements, per distinct score.
    pos, neg : ndarray of shape (m,)
        Class weights at each score (any common scale).

    Returns
    -------
    RecalibrationFit

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.table.recalibration_fit import recalibration_fit
    >>> p = np.array([0.2, 0.5, 0.8])
    >>> fit = recalibration_fit(p, 1 - p, np.array([1.0, 2.0, 4.0]), np.array([4.0, 2.0, 1.0]))
    >>> round(fit.slope, 6), round(fit.intercept, 6), fit.undefined
    (1.0, 0.0, '')
    """
    x = np.log(p) - np.log(q)
    has_pos, has_neg = pos > 0, neg > 0
    if not has_pos.any() or not has_neg.any():
        return _undefined(f"y_true holds only {'negatives' if not has_pos.any() else 'positives'} "
                          "(rows of weight 0 excluded), so no line separates their rates")
    if x.min() == x.max():
        return _undefined("every probability is the same (after clipping to [eps, "
                          "1 - eps]), so the slope is not identified")
    lo_pos, hi_pos = x[has_pos].min(), x[has_pos].max()
    lo_neg, hi_neg = x[has_neg].min(), x[has_neg].max()
    if lo_pos >= hi_neg or hi_pos <= lo_neg:
        return _undefined("the probabilities separate the classes (every positive at or "
                          f"{'above' if lo_pos >= hi_neg else 'below'} every negative), so "
                          "the maximum-likelihood slope is infinite")
    # shares of the total weight: the likelihood per unit of weight, whose float64
    # resolution the stopping rule reads
    weight = float(pos.sum() + neg.sum())
    pos = pos / weight
    total = pos + neg / weight
    # centred and scaled x: the Hessian stays well conditioned whatever the scores' spread
    centre = float(np.sum(total * x))
    scale = float(np.sqrt(np.sum(total * (x - centre) ** 2)))
    u = (x - centre) / scale
    # start from the better of the calibrated line (z = x) and the base rate alone
    # (b = 0), where Newton's steps on a logistic likelihood are well behaved
    base = float(pos.sum())
    starts = [np.array([centre, scale]), np.array([math.log(base) - math.log1p(-base), 0.0])]
    fits = [_likelihood(s[0] + s[1] * u, pos, total) for s in starts]
    k = int(fits[1][0] > fits[0][0])
    theta, (ll, mu) = starts[k], fits[k]
    for _ in range(MAX_STEPS):
        resid = pos - total * mu
        v = total * mu * (1.0 - mu)
        # the weighted least-squares form of the Newton step, with u centred on its
        # v-weighted mean m: no difference of large products (a flat region where most
        # v underflow would make the determinant's two terms cancel)
        s0 = float(v.sum())
        m = float((v * u).sum()) / s0 if s0 > 0 else 0.0
        spread = float((v * (u - m) ** 2).sum())
        if not (s0 > 0 and spread > 0):
            break
        g0 = float(resid.sum())
        db = float((resid * (u - m)).sum()) / spread
        step = np.array([g0 / s0 - m * db, db])
        # half the Newton decrement: what the step would still gain (the likelihood is
        # per unit of weight); below float64's resolution of it, take the step and stop
        if 0.5 * (g0 * step[0] + float((resid * u).sum()) * db) <= 1e-15:
            theta = theta + step
            b = float(theta[1] / scale)
            return RecalibrationFit(b, float(theta[0] - b * centre), "")
        t = 1.0
        for _halving in range(60):
            trial = theta + t * step
            trial_ll, trial_mu = _likelihood(trial[0] + trial[1] * u, pos, total)
            if trial_ll >= ll:
                break
            t *= 0.5
        else:
            break                        # no step climbs: at the maximum in float64
        theta, ll, mu = trial, trial_ll, trial_mu
        if np.all(np.abs(t * step) <= 1e-13 * (1.0 + np.abs(theta))):
            b = float(theta[1] / scale)
            return RecalibrationFit(b, float(theta[0] - b * centre), "")
    # the last step was tiny or the curvature vanished: report what was reached when the
    # gradient says it is the maximum, else refuse
    resid = pos - total * mu
    if abs(float(resid.sum())) + abs(float((resid * u).sum())) <= 1e-9:
        b = float(theta[1] / scale)
        return RecalibrationFit(b, float(theta[0] - b * centre), "")
    return _undefined("Newton's method did not converge")
