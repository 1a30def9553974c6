"""The null distribution of the two-sample Kolmogorov-Smirnov statistic (two-sided):
its exact tail by counting lattice paths, and Smirnov's limit through SciPy. The
method is chosen as ``scipy.stats.ks_2samp`` chooses it, so the p-values agree.

The exact tail follows the classical path count (Gnedenko and Korolyuk 1951, Hodges
1958): ranking ``m`` positives and ``n`` negatives together is a monotone lattice path
from ``(0, 0)`` to ``(m, n)``, each of the ``C(m + n, m)`` paths equally likely under
the hypothesis, and ``D >= d`` exactly when the path leaves the band
``|x / m - y / n| < d``. The share of paths that leave it is propagated as a
probability rather than counted (Viehmann 2021), so that it neither overflows nor
loses its small values to cancellation.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import IndistFastWarning, warn

__all__ = ["KS_METHODS", "MAX_EXACT_N", "MAX_EXACT_CELLS", "ks_pvalue", "exact_sf",
           "exact_cells"]

#: The values of ``method``: as ``scipy.stats.ks_2samp``'s, and None for no p-value.
KS_METHODS = ("auto", "exact", "asymp", None)
#: ``method="auto"`` counts exactly while neither class holds more rows (SciPy's bound).
MAX_EXACT_N = 10_000
#: The most lattice cells an exact p-value visits (about a second); beyond, the limit
#: distribution with a warning (SciPy would count on, for minutes).
MAX_EXACT_CELLS = 400_000_000
# The exact count needs the least common multiple of the class sizes below this bound
# (SciPy's), beyond which it falls back to the limit distribution with a warning.
_MAX_LCM_FACTOR = np.iinfo(np.int32).max


def exact_sf(m: int, n: int, h: int) -> float:
    """P(D >= h / lcm(m, n)) for classes of ``m`` and ``n`` rows under the hypothesis.

    A path point ``(x, y)`` (``x`` positives and ``y`` negatives ranked so far) lies
    inside the band when ``|n x - m y| < h g`` with ``g = gcd(m, n)``. ``q(x, y)``, the
    share of paths to ``(x, y)`` that left the band on the way, is 1 outside it and
    ``(x q(x - 1, y) + y q(x, y - 1)) / (x + y)`` inside: a path to ``(x, y)`` arrives
    from its left neighbour with probability ``x / (x + y)``. The cells of one
    anti-diagonal ``x + y = s`` depend only on the previous one, so each diagonal is
    one vector step over the band's cells.

    Parameters
    ----------
    m, n : int
        Rows in each class (>= 1).
    h : int
        The statistic times ``lcm(m, n)``, a whole number.

    Returns
    -------
    float
        The probability, in [0, 1].

    Examples
    --------
    >>> from indist_fast.table.ks_distribution import exact_sf
    >>> round(exact_sf(3, 3, 3), 12)    # D = 1: all positives above the negatives, or below
    0.1
    """
    if h <= 0:
        return 1.0
    if m == n:
        return _equal_sizes_sf(n, h)
    return _band_sf(m, n, h)


def exact_cells(m: int, n: int, h: int) -> int:
    """About how many lattice cells ``exact_sf`` visits: the diagonals times the band's
    width on each (classes of equal size take a sum of ``n / h`` terms instead).

    Parameters
    ----------
    m, n : int
        Rows in each class (>= 1).
    h : int
        The statistic times ``lcm(m, n)``.

    Returns
    -------
    int
        The work, compared with ``MAX_EXACT_CELLS``.

    Examples
    --------
    >>> from indist_fast.table.ks_distribution import exact_cells
    >>> exact_cells(4, 2, 2)
    12
    """
    if m == n or h <= 0:
        return n
    g = math.gcd(m, n)
    return (m + n) * min(m, n, 2 * h // (m // g + n // g) + 1)


def _equal_sizes_sf(n: int, h: int) -> float:
    """``exact_sf`` for two classes of ``n`` rows, by reflection (Gnedenko and
    Korolyuk): ``2 sum_k (-1)^(k+1) C(2n, n - k h) / C(2n, n)`` over ``k h <= n``. The
    ratios are running products of ``(n - j) / (n + j + 1)``, and the alternating sum
    runs from its smallest term up."""
    j = np.arange(n, dtype=np.float64)
    ratios = np.cumprod((n - j) / (n + j + 1.0))      # C(2n, n - i - 1) / C(2n, n)
    k = np.arange(1, n // h + 1)
    terms = ratios[k * h - 1] * np.where(k % 2 == 1, 1.0, -1.0)
    total = 0.0
    for term in terms[::-1]:
        total += term
    return float(min(max(2.0 * total, 0.0), 1.0))


def _band_sf(m: int, n: int, h: int) -> float:
    """``exact_sf`` by propagating the share of paths that left the band."""
    g = math.gcd(m, n)
    a, b = n // g, m // g            # inside: |a x - b y| < h, with y = s - x
    lo_prev, q_prev = 0, np.zeros(1)         # diagonal 0: the origin, inside
    for s in range(1, m + n + 1):
        # x on diagonal s: within the grid, and inside the band:
        # |(a + b) x - b s| < h  <=>  (b s - h) / (a + b) < x < (b s + h) / (a + b)
        lo = max(s - n, 0, (b * s - h) // (a + b) + 1)
        hi = min(s, m, -(-(b * s + h) // (a + b)) - 1)
        if hi < lo:
            return 1.0                           # no path stays inside
        x = np.arange(lo, hi + 1)
        left = _read(q_prev, lo_prev, x - 1)     # from (x - 1, y)
        below = _read(q_prev, lo_prev, x)        # from (x, y - 1)
        q_prev = (x * left + (s - x) * below) / s
        lo_prev = lo
    # (m, n) lies inside the band (it is on the diagonal x / m = y / n).
    return float(min(max(q_prev[m - lo_prev], 0.0), 1.0))


def _read(q: np.ndarray, lo: int, x: np.ndarray) -> np.ndarray:
    """``q`` at positions ``x`` of the previous diagonal, 1 outside its band (those
    points left it); positions off the grid get a zero coefficient anyway."""
    out = np.ones(len(x))
    i = x - lo
    ok = (i >= 0) & (i < len(q))
    out[ok] = q[i[ok]]
    return out


def _kstwo() -> Any:
    try:
        from scipy.stats import kstwo
    except ImportError:
        raise ImportError("the asymptotic KS p-value needs scipy: pip install "
                          "'indist-fast[stats]' (or pass method='exact', or method=None "
                          "for the statistic alone)") from None
    return kstwo


def ks_pvalue(d: float, m: int, n: int, method: str) -> tuple[float, str]:
    """The two-sided p-value of statistic ``d`` for classes of ``m`` and ``n`` rows,
    and the method used, as ``scipy.stats.ks_2samp(method=method)`` computes them:
    ``"auto"`` counts exactly up to ``MAX_EXACT_N`` rows per class, the limit beyond;
    ``"exact"`` falls back to the limit (warning) when ``lcm(m, n)`` is too large.

    Parameters
    ----------
    d : float
        The statistic, in [0, 1].
    m, n : int
        Rows in each class (>= 1).
    method : {"auto", "exact", "asymp"}
        As ``scipy.stats.ks_2samp``'s.

    Returns
    -------
    tuple of (float, str)
        The p-value and the method used (``"exact"`` or ``"asymp"``).

    Examples
    --------
    >>> from indist_fast.table.ks_distribution import ks_pvalue
    >>> p, method = ks_pvalue(1.0, 3, 3, "auto")
    >>> round(p, 12), method
    (0.1, 'exact')
    """
    if method == "auto":
        method = "exact" if max(m, n) <= MAX_EXACT_N else "asymp"
    g = math.gcd(m, n)
    if method == "exact" and (m // g) >= _MAX_LCM_FACTOR / (n // g):
        warn(f"the exact KS p-value is out of reach for classes of {m:,} and {n:,} rows "
             "(their least common multiple is too large); using the asymptotic one "
             "(method='asymp').", IndistFastWarning)
        method = "asymp"
    if method == "exact":
        lcm = (m // g) * n
        h = int(np.round(d * lcm))
        if exact_cells(m, n, h) <= MAX_EXACT_CELLS:
            return exact_sf(m, n, h), "exact"
        warn(f"the exact KS p-value for classes of {m:,} and {n:,} rows would take "
             f"about {exact_cells(m, n, h):,} steps; using the asymptotic one "
             "(method='asymp'), as method='auto' does past 10,000 rows per class.",
             IndistFastWarning)
        method = "asymp"
    # Smirnov's limit at the effective size m n / (m + n), rounded as SciPy does.
    big, small = max(float(m), float(n)), min(float(m), float(n))
    effective = float(np.round(big * small / (big + small)))
    return float(np.clip(_kstwo().sf(d, effective), 0.0, 1.0)), "asymp"
