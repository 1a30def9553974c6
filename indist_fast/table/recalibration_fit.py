"""The logistic recalibration line of probabilities (Cox 1958): ``logit P(y = 1) = a +
b logit(p)`` by maximum likelihood, fitted over the distinct scores with their class
weights (a binomial regression of the score table, not of the rows).

``b`` is the calibration slope (1 for calibrated scores; below 1, predictions too
extreme; above 1, too timid) and ``a`` the intercept (0 for calibrated scores at
slope 1).

A table holds up to one entry per row, so the fit is built to read it few times: a
fit on an evenly strided subsample of the entries gives the start, from which Newton's
method converges on all of them in about three passes; each pass takes the gradient
and Hessian from one exponential per entry, and the likelihood is evaluated only when
a step may have overshot. The passes run over blocks of ``BLOCK`` entries, so their
temporaries stay small.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

__all__ = ["RecalibrationFit", "recalibration_fit", "fit_logits"]

#: Newton steps before giving up; the log-likelihood is concave and each step is
#: halved until it climbs, so a fit with a finite maximum converges in a few dozen.
MAX_STEPS = 200
#: Entries per block of a pass (the temporaries of one block stay in cache).
BLOCK = 1 << 16
#: Entries of the subsample whose fit starts a larger table's.
SUBSAMPLE = 1 << 16
#: Half the Newton decrement (per unit of weight) below which the step is taken and
#: the fit stops: float64's resolution of the likelihood.
DECREMENT = 1e-15


class RecalibrationFit(NamedTuple):
    """Slope and intercept, or NaN with the reason in ``undefined`` ("" when fitted)."""

    slope: float
    intercept: float
    undefined: str


class _Moments(NamedTuple):
    """What one pass reads at a point: the curvature's weight ``s0``, mean ``m`` and
    centred spread of ``u``, and the gradient ``(g0, g1)`` (per unit of weight)."""

    s0: float
    m: float
    spread: float
    g0: float
    g1: float


def _undefined(reason: str) -> RecalibrationFit:
    return RecalibrationFit(math.nan, math.nan, reason)


def _blocks(n: int) -> range:
    return range(0, n, BLOCK)


def _moments(x: np.ndarray, pos: np.ndarray, total: np.ndarray, theta: np.ndarray,
             frame: tuple[float, float], buf: np.ndarray, shift: float = 0.0) -> _Moments:
    """Gradient and Hessian of the log-likelihood at ``z = theta[0] + theta[1] u``, ``u
    = (x - c) / s`` for ``frame = (c, s)``, from ``e = 1 + e^-z``: ``total mu = total /
    e`` and ``v = total mu (1 - mu) = total mu - total mu / e`` (``e^-z`` overflows to
    infinity only where ``mu`` is 0). The spread of ``u`` is summed about ``shift``, the
    previous step's mean: its centred form ``sum v (u - shift)^2 - s0 (m - shift)^2``
    then subtracts no two large numbers."""
    c, s = frame
    a, b = float(theta[0]), float(theta[1])
    s0 = s1 = s2 = g0 = g1 = 0.0
    with np.errstate(over="ignore"):
        for i in _blocks(len(x)):
            xc, pc, tc = x[i:i + BLOCK], pos[i:i + BLOCK], total[i:i + BLOCK]
            e, tm, w = buf[0, :len(xc)], buf[1, :len(xc)], buf[2, :len(xc)]
            np.multiply(xc, -b / s, out=e)
            e += b * c / s - a                       # -z
            np.exp(e, out=e)
            e += 1.0
            np.divide(tc, e, out=tm)                 # total * mu
            np.subtract(pc, tm, out=w)               # the residual
            g0 += float(w.sum())
            np.divide(tm, e, out=e)
            np.subtract(tm, e, out=e)                # v
            s0 += float(e.sum())
            np.subtract(xc, c + s * shift, out=tm)   # s (u - shift)
            w *= tm
            g1 += float(w.sum())
            e *= tm
            s1 += float(e.sum())
            e *= tm
            s2 += float(e.sum())
    s1, s2, g1 = s1 / s, s2 / (s * s), g1 / s
    m = s1 / s0 if s0 > 0 else 0.0
    return _Moments(s0, shift + m, s2 - s1 * m, g0, g1 + shift * g0)


def _likelihood(x: np.ndarray, pos: np.ndarray, total: np.ndarray, theta: np.ndarray,
                frame: tuple[float, float], buf: np.ndarray) -> float:
    """The log-likelihood at ``z = theta[0] + theta[1] (x - c) / s`` (per unit of
    weight), from ``log sigma(z) = z - softplus(z)``, ``softplus(z) = max(z, 0) +
    log1p(e^-|z|)``, which neither overflows nor loses the tails."""
    c, s = frame
    a, b = float(theta[0]), float(theta[1])
    ll = 0.0
    for i in _blocks(len(x)):
        xc = x[i:i + BLOCK]
        z, e = buf[0, :len(xc)], buf[1, :len(xc)]
        np.multiply(xc, b / s, out=z)
        z += a - b * c / s
        ll += float(np.sum(pos[i:i + BLOCK] * z))
        np.abs(z, out=e)
        np.negative(e, out=e)
        np.exp(e, out=e)
        np.log1p(e, out=e)
        np.maximum(z, 0.0, out=z)
        z += e
        z *= total[i:i + BLOCK]
        ll -= float(z.sum())
    return ll


def _newton(x: np.ndarray, pos: np.ndarray, total: np.ndarray, theta: np.ndarray,
            frame: tuple[float, float], buf: np.ndarray) -> np.ndarray | None:
    """The maximum from ``theta`` (coefficients of ``u = (x - c) / s``, ``frame = (c,
    s)``), or None when Newton's method does not reach it.

    A step ``d`` to ``theta + d`` is kept without the likelihood when the gradient
    there still climbs along ``d``: the likelihood is concave, so ``L(theta + d) >=
    L(theta) + grad L(theta + d) . d``. Otherwise the step is halved until the
    likelihood climbs."""
    data = (x, pos, total)
    mo = _moments(*data, theta, frame, buf)
    for _ in range(MAX_STEPS):
        if not (mo.s0 > 0 and mo.spread > 0):
            break
        # the weighted least-squares form of the Newton step, with u centred on its
        # v-weighted mean m: no difference of large products
        db = (mo.g1 - mo.m * mo.g0) / mo.spread
        step = np.array([mo.g0 / mo.s0 - mo.m * db, db])
        # half the Newton decrement: what the step would still gain; below float64's
        # resolution of it, take the step and stop
        if 0.5 * (mo.g0 * step[0] + mo.g1 * db) <= DECREMENT:
            return np.asarray(theta + step)
        t = 1.0
        trial = theta + step
        trial_mo = _moments(*data, trial, frame, buf, mo.m)
        if trial_mo.g0 * step[0] + trial_mo.g1 * step[1] < 0:
            ll = _likelihood(*data, theta, frame, buf)
            for _halving in range(60):
                if _likelihood(*data, trial, frame, buf) >= ll:
                    break
                t *= 0.5
                trial = theta + t * step
            else:
                break                    # no step climbs: at the maximum in float64
            if t < 1.0:
                trial_mo = _moments(*data, trial, frame, buf, mo.m)
        theta, mo = trial, trial_mo
        if np.all(np.abs(t * step) <= 1e-13 * (1.0 + np.abs(theta))):
            return theta
    # the last step was tiny or the curvature vanished: report what was reached when the
    # gradient says it is the maximum, else refuse
    return theta if abs(mo.g0) + abs(mo.g1) <= 1e-9 else None


def _start(x: np.ndarray, pos: np.ndarray, total: np.ndarray, frame: tuple[float, float],
           buf: np.ndarray) -> np.ndarray:
    """The better of the calibrated line (``z = x``) and the base rate alone (``b =
    0``), where Newton's steps on a logistic likelihood are well behaved."""
    base = float(pos.sum()) / float(total.sum())
    starts = [np.array(frame), np.array([math.log(base) - math.log1p(-base), 0.0])]
    lls = [_likelihood(x, pos, total, s, frame, buf) for s in starts]
    return starts[int(lls[1] > lls[0])]


def _frame(x: np.ndarray, total: np.ndarray, buf: np.ndarray) -> tuple[float, float]:
    """``(c, s)``: the weighted mean and standard deviation of ``x``, which centre and
    scale it so that the Hessian stays well conditioned whatever the scores' spread
    (``s`` 0 when ``x`` is constant under the weight)."""
    weight = float(total.sum())
    centre = _sum_product(total, x, buf[0]) / weight
    spread = 0.0
    for i in _blocks(len(x)):
        w = buf[0, :len(x[i:i + BLOCK])]
        np.subtract(x[i:i + BLOCK], centre, out=w)
        w *= w
        w *= total[i:i + BLOCK]
        spread += float(w.sum())
    return centre, math.sqrt(spread / weight)


def fit_logits(x: np.ndarray, pos: np.ndarray, neg: np.ndarray, total: np.ndarray,
               ascending: bool = False) -> RecalibrationFit:
    """``recalibration_fit`` from the logits ``x`` and the class weights as shares of
    their total (``total`` the positive and negative shares added, summing to 1).

    Parameters
    ----------
    x : ndarray of shape (m,)
        ``log p - log q`` of the clipped probabilities.
    pos, total : ndarray of shape (m,)
        Positive and total weight at each score, as shares of the total.
    neg : ndarray of shape (m,)
        Negative weight at each score, on any scale (only where it is positive is read).
    ascending : bool, default=False
        Whether ``x`` is non-decreasing (the logits of ascending scores), which finds
        the classes' extremes without a pass over ``x``.

    Returns
    -------
    RecalibrationFit

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.table.recalibration_fit import fit_logits
    >>> pos, neg = np.array([1.0, 2.0, 4.0]) / 14, np.array([4.0, 2.0, 1.0]) / 14
    >>> fit = fit_logits(np.log([0.25, 1.0, 4.0]), pos, neg, pos + neg)
    >>> round(fit.slope, 6), round(fit.intercept, 6), fit.undefined
    (1.0, 0.0, '')
    """
    has_pos, has_neg = pos > 0, neg > 0
    if not has_pos.any() or not has_neg.any():
        return _undefined(f"y_true holds only {'negatives' if not has_pos.any() else 'positives'} "
                          "(rows of weight 0 excluded), so no line separates their rates")
    if ascending:
        # the extremes at the first and last entry of each class: no pass over x
        lowest, highest = x[0], x[-1]
        first, last = np.argmax(has_pos), len(x) - 1 - np.argmax(has_pos[::-1])
        lo_pos, hi_pos = x[first], x[last]
        first, last = np.argmax(has_neg), len(x) - 1 - np.argmax(has_neg[::-1])
        lo_neg, hi_neg = x[first], x[last]
    else:
        lowest, highest = x.min(), x.max()
        lo_pos = np.min(x, where=has_pos, initial=np.inf)
        hi_pos = np.max(x, where=has_pos, initial=-np.inf)
        lo_neg = np.min(x, where=has_neg, initial=np.inf)
        hi_neg = np.max(x, where=has_neg, initial=-np.inf)
    del has_pos, has_neg
    if lowest == highest:
        return _undefined("every probability is the same (after clipping to [eps, "
                          "1 - eps]), so the slope is not identified")
    if lo_pos >= hi_neg or hi_pos <= lo_neg:
        return _undefined("the probabilities separate the classes (every positive at or "
                          f"{'above' if lo_pos >= hi_neg else 'below'} every negative), so "
                          "the maximum-likelihood slope is infinite")
    buf = np.empty((3, min(BLOCK, len(x))))
    theta = frame = None
    if len(x) > 4 * SUBSAMPLE:
        # an evenly strided subsample's maximum is within its sampling error of the
        # whole table's, from where Newton's steps converge quadratically; its mean and
        # spread of x serve to condition the whole fit
        k = len(x) // SUBSAMPLE
        sub_total = total[::k].copy()
        weight = float(sub_total.sum())
        if pos[::k].any() and neg[::k].any():          # both classes in the subsample
            sub = x[::k].copy(), pos[::k] / weight, sub_total / weight
            frame = _frame(sub[0], sub[2], buf)
            if frame[1] > 0:
                theta = _newton(*sub, _start(*sub, frame, buf), frame, buf)
    if theta is None or frame is None or not np.all(np.isfinite(theta)):
        frame = _frame(x, total, buf)
        theta = _start(x, pos, total, frame, buf)
    theta = _newton(x, pos, total, theta, frame, buf)
    if theta is None:
        return _undefined("Newton's method did not converge")
    centre, scale = frame
    b = float(theta[1] / scale)
    return RecalibrationFit(b, float(theta[0] - b * centre), "")


def _sum_product(a: np.ndarray, b: np.ndarray, scratch: np.ndarray) -> float:
    """``sum(a * b)``, block by block."""
    out = 0.0
    for i in _blocks(len(a)):
        w = scratch[:len(a[i:i + BLOCK])]
        np.multiply(a[i:i + BLOCK], b[i:i + BLOCK], out=w)
        out += float(w.sum())
    return out


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
    x = np.log(p)
    x -= np.log(q)
    # shares of the total weight: the likelihood per unit of weight, whose float64
    # resolution the stopping rule reads
    weight = float(pos.sum() + neg.sum())
    pos, neg = pos / weight, neg / weight
    return fit_logits(x, pos, neg, pos + neg)
