"""The sign of ``B(r) - level`` in a population of normal mixtures, without cancellation.

With ``v`` and ``u`` the class survival functions and ``f_N`` the negative density,
``B(r) - level = g(r) / (pi1 v + pi0 u)`` where

    g = pi1 v ((1 - 2 level) - (1 - v)) / 2
        + pi0 sum_j w_j sf_j(r) E_j[(1 - level) - (1 - v(T)) | T >= r]

(``T`` drawn from negative component ``j``). Between classes far apart, ``B`` is the
level to within 1e-20 and less, far below an ulp of ``B``: computed as a ratio and then
compared, ``B - level`` is rounding noise and a root finder lands anywhere in a long
stretch (``Binormal(20)`` at prevalence 1/2 gave 11.7 for the exact 10). Here ``1 - v``
is summed from the lower tails, every tail is a logarithm (``log_ndtr``), and each
expectation is a quadrature over the truncated normal, whose density has no
underflow at any distance. The terms keep their signs, so ``g``'s sign is right
wherever a term differs from the others by more than rounding of its logarithm.
Needs scipy (as the population integrals do).
"""

from __future__ import annotations

import math
from typing import Sequence

__all__ = ["level_gap"]

Component = tuple[float, float, float]      # (weight, mean, standard deviation)

_LOG_ROOT_2PI = 0.5 * math.log(2.0 * math.pi)
# The truncated normal beyond its cut: x = (z - z0) * scale runs over [0, _REACH], its
# density below exp(-_REACH) of its peak past the end (for any z0 >= 0)
_REACH = 60.0


def _logsumexp(logs: Sequence[float]) -> float:
    top = max(logs, default=-math.inf)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(x - top) for x in logs))


def _log_tail(parts: Sequence[Component], r: float, upper: bool) -> float:
    """log of the mixture's mass above ``r`` (``upper``) or below it."""
    from scipy.special import log_ndtr
    sign = -1.0 if upper else 1.0
    return _logsumexp([math.log(w) + float(log_ndtr(sign * (r - m) / s)) for w, m, s in parts])


def _below(parts: Sequence[Component], t: float) -> float:
    """``1 - v(t)``: the mass below ``t``, summed from the lower tails (no ``1 - x``)."""
    return sum(w * 0.5 * math.erfc(-(t - m) / (s * math.sqrt(2.0))) for w, m, s in parts)


def _tail_mean_below(pos: Sequence[Component], m: float, s: float, r: float,
                     upper: bool) -> float:
    """``E[1 - v(T) | T >= r]`` (``upper``) or ``E[1 - v(T) | T <= r]`` for
    ``T ~ N(m, s)``, where the cut is at or beyond the mean (a tail, not the bulk)."""
    from scipy import integrate
    from scipy.special import erfcx
    side = 1.0 if upper else -1.0
    zc = side * (r - m) / s                         # >= 0: the cut in the tail's own terms
    scale = max(zc, 1.0)
    # log(phi(zc) / sf(zc)), from erfcx: no zc**2 / 2 subtracted from itself
    log_peak = -_LOG_ROOT_2PI - math.log(0.5 * float(erfcx(zc / math.sqrt(2.0))))

    def integrand(x: float) -> float:
        d = x / scale
        return (math.exp(log_peak - d * (2.0 * zc + d) / 2.0) / scale
                * _below(pos, r + side * s * d))
    marks = ((side * (mi - m) / s - zc) * scale for _, mi, _ in pos)
    pts = sorted({x for x in marks if 0.0 < x < _REACH}) or None
    value, _ = integrate.quad(integrand, 0.0, _REACH, epsabs=0.0, epsrel=1e-12, limit=200,
                              points=pts)
    return min(1.0, float(value))


def level_gap(pos: Sequence[Component], neg: Sequence[Component], prevalence: float,
              level: float, r: float) -> float:
    """``(P - N) / (P + N)`` for ``g = P - N`` above: in [-1, 1], of the sign of
    ``B(r) - level`` and zero where it is, at any finite ``r`` (class weights summing
    to 1 in each class)."""
    from scipy.special import log_ndtr
    positive: list[float] = []
    negative: list[float] = []

    def add(sign: float, log_size: float) -> None:
        if sign > 0:
            positive.append(log_size)
        elif sign < 0:
            negative.append(log_size)

    log_v, log_below = _log_tail(pos, r, True), _log_tail(pos, r, False)
    c = 1.0 - 2.0 * level               # exact for levels in [1/4, 1]
    base = math.log(prevalence) + log_v - math.log(2.0)
    if c == 0.0:
        add(-1.0, base + log_below)
    else:
        d = c - math.exp(log_below)
        if d != 0.0:
            add(d, base + math.log(abs(d)))
    log_pi0 = math.log1p(-prevalence)
    for w, m, s in neg:
        z0 = (r - m) / s
        if z0 > 0.0:
            # the component's upper tail: its part of int_r^inf f_N (v - level)
            e = (1.0 - level) - _tail_mean_below(pos, m, s, r, True)
            if e != 0.0:
                add(e, log_pi0 + math.log(w) + float(log_ndtr(-z0)) + math.log(abs(e)))
            continue
        # the whole component (closed form: P(positive >= T) - level, exactly 0 for a
        # component the positives share at level 1/2) less its lower tail below r
        whole = sum(wi * 0.5 * math.erfc(-(mi - m) / (math.hypot(si, s) * math.sqrt(2.0)))
                    for wi, mi, si in pos) - level
        if whole != 0.0:
            add(whole, log_pi0 + math.log(w) + math.log(abs(whole)))
        e = (1.0 - level) - _tail_mean_below(pos, m, s, r, False)
        if e != 0.0:
            add(-e, log_pi0 + math.log(w) + float(log_ndtr(z0)) + math.log(abs(e)))
    lp, ln = _logsumexp(positive), _logsumexp(negative)
    if lp == ln:                        # both empty, or equal
        return 0.0
    return math.tanh((lp - ln) / 2.0)
