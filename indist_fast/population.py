"""Population (distributional) models of class scores: normal mixtures per class.

A population gives each class a score density; the metrics are then exact numbers,
not estimates: ``v(r)`` (true positive rate) and ``u(r)`` (false positive rate) are
sums of normal survival functions, AUROC is a weighted sum of binormal AUROCs, and
Sumpter's B(r) ("Precision at the indistinguishability threshold", eq. 15 with its
negative-class term corrected to integrate ``f_N v``) needs one integral, done by
adaptive quadrature (1e-12 relative tolerance).

``Mixture`` takes weighted normal components per class; the weights also set the
prevalence. ``Binormal`` (negatives N(0, 1), positives N(mu, sigma)) is the case with
one component per class and no prevalence of its own: its methods take the
prevalence as an argument, as in Beam's "Resolving power" binormal study. The
integrals need scipy (the ``stats`` extra).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from ._core.normal_tails import level_gap
from ._core.validation import check_count, check_level, check_real, make_rng

__all__ = ["Mixture", "Binormal"]

#: The population metrics ``population`` knows (``precision`` is C(r_b)).
METRICS = ("auc", "average_precision", "precision")

_TAIL = 12.0     # standard deviations beyond which a normal density is below 1e-31

# A binormal sample holds 9 bytes a row (score and label), and noise draws one per
# replicate: 10**8 rows is about a gigabyte, beyond what a simulation should ask for.
MAX_SAMPLE_SIZE = 10**8

Component = tuple[float, float, float]      # (weight, mean, standard deviation)


def _stats() -> tuple[Any, Any, Any]:
    try:
        from scipy import integrate, optimize, stats
    except ImportError:
        raise ImportError("population integrals need scipy: pip install "
                          "'indist-fast[stats]'") from None
    return integrate, optimize, stats


def _norm_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def _norm_sf(x: float) -> float:
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def _norm_pdf(x: float) -> float:
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def _check_sigma(value: Any) -> float:
    return check_real(value, "sigma", low=0.0, low_open=True, must="be positive and finite")


def _check_r(value: Any) -> float:
    """A population threshold: any real number but NaN (+-inf label nothing / all)."""
    return check_real(value, "r", finite=False, must="be a threshold (a real number or +-inf)")


def check_prevalence(prevalence: Any) -> float:
    """The positive class share of a population: strictly between 0 and 1, where both
    classes exist (at 0 or 1 precision and B are undefined, not 0 or 1)."""
    return check_level(prevalence, "prevalence")


def n_positives(n: int, prevalence: float, name: str = "n") -> int:
    n = check_count(n, name, minimum=2, maximum=MAX_SAMPLE_SIZE)
    prevalence = check_prevalence(prevalence)
    k = int(round(n * prevalence))
    if not 1 <= k <= n - 1:
        raise ValueError(f"{name}={n} at prevalence={prevalence} leaves a class empty.")
    return k


def _check_rng(rng: Any) -> np.random.Generator:
    # A Generator is used as is and advances, so repeated calls draw fresh samples;
    # a seed (or None, fresh entropy) starts a new one, numpy's own convention.
    return make_rng(rng, "rng")


def _thresholds(r: Any) -> tuple[np.ndarray, bool]:
    """``r`` as a float array (NaN refused) and whether it was a scalar."""
    if isinstance(r, (bool, np.bool_)):
        raise TypeError(f"r must be a real number or an array of them, got {r!r}.")
    try:
        arr = np.asarray(r)
    except Exception:
        raise TypeError(f"r must be a real number or an array of them, got {r!r}.") from None
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"r must be a real number or an array of them, got {r!r} "
                        f"(dtype {arr.dtype}).")
    arr = arr.astype(np.float64)
    if np.isnan(arr).any():
        raise ValueError("r must be thresholds (real numbers or +-inf), got NaN.")
    return arr, arr.ndim == 0


def _components(value: Any, name: str) -> tuple[Component, ...]:
    """``(weight, mean, sd)`` triples: weight > 0 and sd > 0, all finite."""
    if (isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray))
            or len(value) == 0 or (isinstance(value, np.ndarray) and value.ndim != 2)):
        raise TypeError(f"{name} must be a non-empty sequence of (weight, mean, sd) "
                        f"triples, got {value!r}.")
    out = []
    for i, item in enumerate(value):
        if (isinstance(item, (str, bytes)) or not isinstance(item, (Sequence, np.ndarray))
                or len(item) != 3):
            raise TypeError(f"{name}[{i}] must be a (weight, mean, sd) triple, got {item!r}.")
        w = check_real(item[0], f"{name}[{i}] weight", low=0.0, low_open=True,
                       must="be positive and finite")
        m = check_real(item[1], f"{name}[{i}] mean")
        s = check_real(item[2], f"{name}[{i}] sd", low=0.0, low_open=True,
                       must="be positive and finite")
        out.append((w, m, s))
    total = sum(c[0] for c in out)
    if not math.isfinite(total):
        raise ValueError(f"{name} weights must have a finite sum, got {total!r}.")
    return tuple(out)


def _mixture_auc(pos: tuple[Component, ...], neg: tuple[Component, ...],
                 shift: float) -> float:
    """AUROC of normalised components, the positives moved by ``shift``."""
    return float(sum(a * b * _norm_cdf((mi + shift - mj) / math.hypot(si, sj))
                     for a, mi, si in pos for b, mj, sj in neg))


class _NormalMixtures:
    """The shared population formulas over normalised class components.

    Subclasses provide ``_pos`` and ``_neg`` (``(weight, mean, sd)`` with weights
    summing to 1 in each class) and ``_own_prevalence`` (None: the prevalence is an
    argument of every method that needs it).
    """

    _pos: tuple[Component, ...]
    _neg: tuple[Component, ...]
    _own_prevalence: float | None

    # --- arguments ------------------------------------------------------------------------
    def _prev(self, prevalence: Any) -> float:
        if prevalence is None:
            if self._own_prevalence is None:
                raise TypeError(f"prevalence is required: a {type(self).__name__} model has "
                                "no class balance of its own.")
            return self._own_prevalence
        return check_prevalence(prevalence)

    # --- class survival functions -----------------------------------------------------------
    @staticmethod
    def _sf(parts: tuple[Component, ...], r: float) -> float:
        return sum(w * _norm_sf((r - m) / s) for w, m, s in parts)

    @staticmethod
    def _pdf(parts: tuple[Component, ...], r: float) -> float:
        return sum(w * _norm_pdf((r - m) / s) / s for w, m, s in parts)

    @staticmethod
    def _sf_array(parts: tuple[Component, ...], r: np.ndarray) -> np.ndarray:
        from scipy.special import ndtr
        out = np.zeros(r.shape)
        for w, m, s in parts:
            out += w * ndtr(-(r - m) / s)
        return out

    def _v(self, r: float) -> float:
        return self._sf(self._pos, r)

    def _u(self, r: float) -> float:
        return self._sf(self._neg, r)

    def tpr(self, r: Any) -> Any:
        """True positive rate ``v(r)``: the positive mass at or above ``r``.

        Parameters
        ----------
        r : float or array-like of float
            Thresholds (``+-inf`` allowed, NaN refused).

        Returns
        -------
        float or ndarray
            ``v`` at each threshold (a float for a scalar ``r``).

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> Binormal(1.0).tpr([1.0, float("inf")]).tolist()
        [0.5, 0.0]
        """
        arr, scalar = _thresholds(r)
        out = self._sf_array(self._pos, arr)
        return float(out) if scalar else out

    def fpr(self, r: Any) -> Any:
        """False positive rate ``u(r)``: the negative mass at or above ``r``.

        Parameters
        ----------
        r : float or array-like of float
            Thresholds (``+-inf`` allowed, NaN refused).

        Returns
        -------
        float or ndarray
            ``u`` at each threshold (a float for a scalar ``r``).

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> Binormal(1.0).fpr(0.0)
        0.5
        """
        arr, scalar = _thresholds(r)
        out = self._sf_array(self._neg, arr)
        return float(out) if scalar else out

    # --- threshold-free ----------------------------------------------------------------------
    @property
    def auc(self) -> float:
        """AUROC: ``sum_ij a_i b_j Phi((mu_i - mu_j) / sqrt(s_i^2 + s_j^2))`` over
        positive components ``i`` and negative components ``j``."""
        return _mixture_auc(self._pos, self._neg, 0.0)

    def _span(self, parts: tuple[Component, ...]) -> tuple[float, float]:
        return (min(m - _TAIL * s for _, m, s in parts),
                max(m + _TAIL * s for _, m, s in parts))

    @staticmethod
    def _points(parts: tuple[Component, ...], lo: float, hi: float) -> list[float] | None:
        # quad's adaptive grid can step over a narrow component of a wide mixture:
        # its means are break points (one component needs none)
        if len(parts) == 1:
            return None
        pts = sorted({m for _, m, _ in parts if lo < m < hi})
        return pts or None

    # --- at a threshold ----------------------------------------------------------------------
    def _at(self, r: Any, prevalence: Any, one: Any) -> Any:
        """``one(r, prevalence)`` at every threshold of ``r`` (a float for a scalar)."""
        if np.ndim(r) == 0 and not isinstance(r, np.ndarray):
            # one number: the scalar check every threshold argument shares
            return one(_check_r(r), self._prev(prevalence))
        arr, scalar = _thresholds(r)
        prevalence = self._prev(prevalence)
        if scalar:
            return one(float(arr), prevalence)
        out = np.empty(arr.shape)
        flat = out.reshape(-1)
        for i, x in enumerate(arr.reshape(-1).tolist()):
            flat[i] = one(x, prevalence)
        return out

    def precision(self, r: Any, prevalence: float | None = None) -> Any:
        """Population precision ``C(r) = pi1 v / (pi1 v + pi0 u)``.

        Parameters
        ----------
        r : float or array-like of float
            Thresholds: predict positive where ``score >= r`` (``+-inf`` allowed,
            NaN refused).
        prevalence : float, optional
            Share of positives, strictly between 0 and 1 (a ``Mixture`` defaults to
            its own; a ``Binormal`` needs it).

        Returns
        -------
        float or ndarray
            The precision at each threshold (NaN where nothing is labelled: above
            every score, ``C`` is 0/0).

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> round(Binormal(1.0).precision(0.0, prevalence=0.2), 4)
        0.2961
        >>> Binormal(1.0).precision([float("-inf"), 0.0], prevalence=0.2).round(4).tolist()
        [0.2, 0.2961]
        """
        return self._at(r, prevalence, self._precision)

    def _precision(self, r: float, prevalence: float) -> float:
        v, u = self._v(r), self._u(r)
        den = prevalence * v + (1 - prevalence) * u
        return prevalence * v / den if den > 0 else math.nan

    def _parts_b(self, r: float, prevalence: float) -> tuple[float, float, float]:
        """Numerators of B+ and B- and their common denominator at ``r``."""
        integrate, _, _ = _stats()
        v, u = self._v(r), self._u(r)
        den = prevalence * v + (1 - prevalence) * u
        if den <= 0:
            return 0.0, 0.0, den
        # the negative densities are below 1e-31 outside their span: integrating there
        # keeps quad's adaptive grid on the mass (an infinite range can miss it)
        lo, hi = self._span(self._neg)
        lo = max(r, lo)
        tail = 0.0
        if lo < hi:
            neg = self._neg
            tail, _ = integrate.quad(lambda t: self._pdf(neg, t) * self._v(t), lo, hi,
                                     epsabs=1e-14, epsrel=1e-12, limit=200,
                                     points=self._points(neg, lo, hi))
        return prevalence * v * v / 2, (1 - prevalence) * tail, den

    @staticmethod
    def _ratio(part: float, den: float) -> float:
        # Nothing labelled (above every score, where both rates underflow): B and its
        # parts are 0/0 there, but their limit as r grows is 0 (B <= v + u / pi0 ...
        # both vanish), the value a threshold above all scores has.
        return part / den if den > 0 else 0.0

    def b(self, r: Any, prevalence: float | None = None) -> Any:
        """Population ``B(r) = [pi1 v^2/2 + pi0 int_r^inf f_N v] / (pi1 v + pi0 u)``:
        the chance a random positive outscores a random labelled member.

        Parameters
        ----------
        r : float or array-like of float
            Thresholds: predict positive where ``score >= r`` (``+-inf`` allowed,
            NaN refused).
        prevalence : float, optional
            Share of positives, strictly between 0 and 1 (a ``Mixture`` defaults to
            its own; a ``Binormal`` needs it).

        Returns
        -------
        float or ndarray
            ``B`` at each threshold: ``pi1/2 + pi0 AUROC`` at ``-inf``, falling to 0
            as ``r`` grows (0 where nothing is labelled, its limit).

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> round(Binormal(1.0).b(0.0, prevalence=0.2), 4)
        0.5314
        >>> Binormal(1.0).b([0.0, float("inf")], prevalence=0.2).round(4).tolist()
        [0.5314, 0.0]
        """
        return self._at(r, prevalence, self._b)

    def _b(self, r: float, prevalence: float) -> float:
        plus, minus, den = self._parts_b(r, prevalence)
        return self._ratio(plus + minus, den)

    def b_plus(self, r: Any, prevalence: float | None = None) -> Any:
        """Population ``B+(r) = v C / 2`` (the labelled copy is a positive).

        Parameters
        ----------
        r : float or array-like of float
            Thresholds: predict positive where ``score >= r`` (not NaN).
        prevalence : float, optional
            Share of positives (a ``Binormal`` needs it).

        Returns
        -------
        float or ndarray
            The positive part of ``B`` at each threshold.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> round(Binormal(1.0).b_plus(0.0, prevalence=0.2), 4)
        0.1246
        """
        def one(x: float, p: float) -> float:
            v, u = self._v(x), self._u(x)
            return self._ratio(p * v * v / 2, p * v + (1 - p) * u)
        return self._at(r, prevalence, one)

    def b_minus(self, r: Any, prevalence: float | None = None) -> Any:
        """Population ``B-(r) = B(r) - B+(r)`` (the labelled copy is a negative).

        Parameters
        ----------
        r : float or array-like of float
            Thresholds: predict positive where ``score >= r`` (not NaN).
        prevalence : float, optional
            Share of positives (a ``Binormal`` needs it).

        Returns
        -------
        float or ndarray
            The negative part of ``B`` at each threshold.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> m = Binormal(1.0)
        >>> round(m.b_minus(0.0, 0.2) + m.b_plus(0.0, 0.2) - m.b(0.0, 0.2), 12)
        0.0
        """
        def one(x: float, p: float) -> float:
            _, minus, den = self._parts_b(x, p)
            return self._ratio(minus, den)
        return self._at(r, prevalence, one)

    # --- the indistinguishability threshold ----------------------------------------------------
    def indistinguishability_threshold(self, prevalence: float | None = None,
                                       level: float = 0.5) -> float:
        """The highest threshold r with ``B(r) >= level``, as for a sample.

        B falls from ``B(-inf) = pi1/2 + pi0 AUROC`` to 0 as r grows. Between classes
        far apart B differs from the level by far less than an ulp over a long
        stretch; the crossing is still found to about 1e-11, from the sign of
        ``B - level`` summed from the class tails in log space (``Binormal(20)`` at
        prevalence 1/2: 10). A large sample's r_b lies higher there, at its lowest
        positive score, until the sample reaches the tails. ``-inf`` when B reaches the
        level only as everything is labelled (``B(-inf) = level``, e.g. identical classes at 1/2);
        NaN, with a ``LevelNotReachedWarning``, when it never does (``B(-inf) < level``).

        Parameters
        ----------
        prevalence : float, optional
            Share of positives (a ``Binormal`` needs it).
        level : float, default=0.5
            Level of ``B`` in (0, 1); 0.5 is the indistinguishability threshold r_b.

        Returns
        -------
        float
            The threshold, ``-inf`` or NaN.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> m = Binormal(1.0)
        >>> r_b = m.indistinguishability_threshold(0.2)
        >>> round(r_b, 4), round(m.b(r_b, 0.2), 6)
        (0.1496, 0.5)
        >>> Binormal(0.0).indistinguishability_threshold(0.5)      # identical classes
        -inf
        """
        level = check_level(level)              # whatever the prevalence
        prevalence = self._prev(prevalence)
        return self._warn_unreached(self._threshold(prevalence, level), prevalence, level)

    def _warn_unreached(self, value: float, prevalence: float, level: float) -> float:
        """``value``, with the warning ``evaluate`` gives when B never reaches the level."""
        if math.isnan(value):
            from .errors import LevelNotReachedWarning, warn
            warn(f"B never reaches {level:g} in this population (B(-inf) = pi1/2 + "
                 f"pi0 AUROC = {prevalence / 2 + (1 - prevalence) * self.auc:.4g}): "
                 "the threshold and the precision there are NaN.",
                 LevelNotReachedWarning)
        return value

    def _threshold(self, prevalence: float, level: float) -> float:
        _, optimize, _ = _stats()
        b_all = prevalence / 2 + (1 - prevalence) * self.auc
        # B(-inf) is the closed form above; within rounding of the level, B reaches it
        # only in the limit (every finite threshold leaves some mass out)
        if b_all < level - 1e-12:
            return math.nan
        if b_all <= level + 1e-12:
            return -math.inf
        lo, hi = self._span(self._pos + self._neg)

        def f(r: float) -> float:
            # B - level by its sign, from the tails: B itself rounds to the level
            # over long stretches between classes far apart
            return level_gap(self._pos, self._neg, prevalence, level, r)
        if f(lo) < 0:                           # below every span B is B(-inf)
            return -math.inf
        if f(hi) >= 0:                          # (no rows above the span to add)
            return hi
        r = float(optimize.brentq(f, lo, hi, xtol=1e-12))
        return self._highest_reached(f, lo, r, 1e-9 * (1.0 + abs(r)))

    @staticmethod
    def _highest_reached(f: Callable[[float], float], lo: float, top: float,
                         step: float) -> float:
        """The highest threshold ``<= top`` with ``f >= 0`` (``f(lo) >= 0``): ``top``
        itself, or bisection between ``top`` and the first point at or below it,
        ``step``, ``2 step``, ... down, that reaches the level."""
        if f(top) >= 0:
            return top
        below, above = max(lo, top - step), top
        while below > lo and f(below) < 0:
            below, above, step = max(lo, below - 2 * step), below, 2 * step
        while above - below > 1e-12 * (1.0 + abs(below)):
            mid = below + (above - below) / 2
            if mid in (below, above):
                break
            below, above = (mid, above) if f(mid) >= 0 else (below, mid)
        return below

    def precision_at_indistinguishability(self, prevalence: float | None = None,
                                          level: float = 0.5) -> float:
        """Population C(r_b): the precision at the highest threshold where
        ``B(r) >= level``.

        Parameters
        ----------
        prevalence : float, optional
            Share of positives (a ``Binormal`` needs it).
        level : float, default=0.5
            Level of ``B`` in (0, 1).

        Returns
        -------
        float
            The precision there: the prevalence when the level is reached only with
            everything labelled; NaN when B never reaches ``level``.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> round(Binormal(1.0).precision_at_indistinguishability(0.2), 4)
        0.3129
        """
        level = check_level(level)              # whatever the prevalence
        prevalence = self._prev(prevalence)
        return self._warn_unreached(self._precision_at(prevalence, level), prevalence, level)

    def _precision_at(self, prevalence: float, level: float) -> float:
        r = self._threshold(prevalence, level)
        return math.nan if math.isnan(r) else self._precision(r, prevalence)

    def average_precision(self, prevalence: float | None = None) -> float:
        """Population AUPRC: precision integrated over recall, ``int C(r) f_P(r) dr``.

        Parameters
        ----------
        prevalence : float, optional
            Share of positives (a ``Binormal`` needs it).

        Returns
        -------
        float
            The population average precision.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> round(Binormal(1.0).average_precision(0.2), 4)
        0.4621
        """
        return self._average_precision(self._prev(prevalence))

    def _average_precision(self, prevalence: float) -> float:
        integrate, _, _ = _stats()
        pos = self._pos

        def integrand(r: float) -> float:    # C(r) times the positive density
            return self._precision(r, prevalence) * self._pdf(pos, r)

        lo, hi = self._span(pos)
        val, _ = integrate.quad(integrand, lo, hi, epsabs=1e-12, epsrel=1e-10, limit=400,
                                points=self._points(pos, lo, hi))
        return float(val)

    def population(self, metric: str, prevalence: float | None = None) -> float:
        """A built-in metric's population value.

        Parameters
        ----------
        metric : {"auc", "average_precision", "precision"}
            The metric (``precision`` is C(r_b)).
        prevalence : float, optional
            Share of positives (a ``Binormal`` needs it).

        Returns
        -------
        float
            The metric's population value.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> m = Binormal(1.0)
        >>> m.population("precision", 0.2) == m.precision_at_indistinguishability(0.2)
        True
        """
        if not isinstance(metric, str) or metric not in METRICS:
            raise ValueError(f"no population value for metric {metric!r}; built-in metrics "
                             f"are {', '.join(METRICS)}.")
        # checked for AUROC too, which ignores it: a bad prevalence is a bad call
        prevalence = self._prev(prevalence)
        if metric == "auc":
            return self.auc
        if metric == "average_precision":
            return self._average_precision(prevalence)
        return self._precision_at(prevalence, 0.5)

    # --- curves ---------------------------------------------------------------------------------
    def _grid(self, n: Any) -> np.ndarray:
        n = check_count(n, "n", minimum=2, maximum=10**7)
        # 8 standard deviations: both rates are within 1e-15 of 0 and 1 at the ends
        lo = min(m - 8 * s for _, m, s in self._pos + self._neg)
        hi = max(m + 8 * s for _, m, s in self._pos + self._neg)
        return np.linspace(hi, lo, n)

    def roc_curve(self, n: int = 201) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ROC curve at ``n`` thresholds, highest first (scikit-learn's order).

        Parameters
        ----------
        n : int, default=201
            Thresholds, evenly spaced over every component's mean +- 8 sd.

        Returns
        -------
        fpr, tpr, thresholds : ndarray of shape (n,)

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> fpr, tpr, t = Binormal(1.0).roc_curve(n=5)
        >>> bool(fpr[0] < 1e-12 and tpr[-1] > 1 - 1e-12)
        True
        """
        t = self._grid(n)
        return self._sf_array(self._neg, t), self._sf_array(self._pos, t), t

    def pr_curve(self, prevalence: float | None = None, n: int = 201
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The precision-recall curve at ``n`` thresholds, highest first.

        Thresholds where nothing is labelled (both rates underflow to 0) are left out.

        Parameters
        ----------
        prevalence : float, optional
            Share of positives (a ``Binormal`` needs it).
        n : int, default=201
            Thresholds, evenly spaced over every component's mean +- 8 sd.

        Returns
        -------
        precision, recall, thresholds : ndarray

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> precision, recall, t = Binormal(1.0).pr_curve(0.3, n=5)
        >>> round(float(precision[-1]), 6)
        0.3
        """
        p = self._prev(prevalence)
        t = self._grid(n)
        v, u = self._sf_array(self._pos, t), self._sf_array(self._neg, t)
        den = p * v + (1 - p) * u
        keep = den > 0
        return p * v[keep] / den[keep], v[keep], t[keep]


@dataclass(frozen=True)
class Mixture(_NormalMixtures):
    """Normal mixtures per class: ``positives`` and ``negatives`` as
    ``(weight, mean, sd)`` components.

    Within a class the weights are the components' shares; across classes they set
    the prevalence, ``sum(positive weights) / sum(all weights)`` (pass counts, and the
    population has the data set's balance). Every method that takes a prevalence uses
    this one unless given another.

    Parameters
    ----------
    positives, negatives : sequence of (weight, mean, sd)
        Weights and standard deviations positive, all finite.

    Examples
    --------
    >>> from indist_fast.population import Mixture
    >>> m = Mixture(positives=[(1000, 10, 2)], negatives=[(1000, 5, 2), (100, 2, 2)])
    >>> round(m.prevalence, 4), round(m.auc, 4)
    (0.4762, 0.9647)
    """

    # the constructor takes any sequences of triples; the fields then hold tuples
    positives: Sequence[Sequence[float]]
    negatives: Sequence[Sequence[float]]
    _pos: tuple[Component, ...] = field(init=False, repr=False, compare=False)
    _neg: tuple[Component, ...] = field(init=False, repr=False, compare=False)
    _own_prevalence: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pos = _components(self.positives, "positives")
        neg = _components(self.negatives, "negatives")
        wp, wn = sum(c[0] for c in pos), sum(c[0] for c in neg)
        # the frozen fields hold the checked floats, so equal mixtures compare and
        # hash equal however they were spelled
        object.__setattr__(self, "positives", pos)
        object.__setattr__(self, "negatives", neg)
        object.__setattr__(self, "_pos", tuple((w / wp, m, s) for w, m, s in pos))
        object.__setattr__(self, "_neg", tuple((w / wn, m, s) for w, m, s in neg))
        prevalence = wp / (wp + wn)
        if not 0.0 < prevalence < 1.0:
            raise ValueError(f"positives and negatives weights must both be a share of "
                             f"their total; their prevalence is {prevalence!r}.")
        object.__setattr__(self, "_own_prevalence", prevalence)

    @property
    def prevalence(self) -> float:
        """Share of positives: positive weight over all weight."""
        return self._own_prevalence

    def shifted(self, delta: float) -> "Mixture":
        """The same mixture with every positive component moved by ``delta``.

        Parameters
        ----------
        delta : float
            Added to every positive mean (finite); positive moves make a better model.

        Returns
        -------
        Mixture
            Same weights, spreads and prevalence.

        Examples
        --------
        >>> from indist_fast.population import Mixture
        >>> Mixture([(1, 1.0, 1.0)], [(1, 0.0, 1.0)]).shifted(0.5).positives
        ((1.0, 1.5, 1.0),)
        """
        delta = check_real(delta, "delta")
        return Mixture([(w, m + delta, s) for w, m, s in self.positives], self.negatives)

    def with_auc(self, auc: float) -> "Mixture":
        """The mixture shifted (``shifted``) to the given AUROC: the grid of models of
        a signal curve (Beam's "Resolving power"), as ``Binormal.with_auc`` moves mu.

        Parameters
        ----------
        auc : float
            The AUROC, strictly between 0 and 1.

        Returns
        -------
        Mixture
            This mixture, its positives moved by the one shift with that AUROC (AUROC
            rises strictly with the shift).

        Examples
        --------
        >>> from indist_fast.population import Mixture
        >>> m = Mixture([(1, 1.0, 1.0), (1, 3.0, 0.5)], [(3, 0.0, 1.0)])
        >>> round(m.with_auc(0.9).auc, 12)
        0.9
        """
        _, optimize, _ = _stats()
        auc = check_real(auc, "auc", low=0.0, high=1.0, low_open=True, high_open=True)

        def gap(d: float) -> float:
            return _mixture_auc(self._pos, self._neg, d) - auc
        # every component's spread fits in the bracket; it doubles until the AUROC
        # is passed (AUROC tends to 0 and 1 at the ends)
        width = max(abs(m) + _TAIL * s for _, m, s in self._pos + self._neg)
        for _ in range(64):
            if gap(-width) < 0 < gap(width):
                break
            width *= 2
        else:
            raise ValueError(f"auc={auc!r} is beyond what a finite shift of the positives "
                             "reaches in double precision.")
        if gap(0.0) == 0.0:
            return self
        return self.shifted(float(optimize.brentq(gap, -width, width, xtol=1e-14,
                                                  rtol=4 * np.finfo(float).eps)))

    def sample(self, n: int, prevalence: float | None = None, rng: Any = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """``n`` rows with ``round(n * prevalence)`` positives: ``(y, score)``.

        Within a class the rows are split over the components by a multinomial draw.

        Parameters
        ----------
        n : int
            Rows, at least 2.
        prevalence : float, optional
            Share of positives; the mixture's own by default.
        rng : numpy.random.Generator, int or None, default=None
            The source of randomness: a ``Generator`` advances, so repeated calls draw
            fresh samples; a seed starts ``numpy.random.default_rng(rng)`` (the same
            seed repeats the sample); None draws fresh entropy.

        Returns
        -------
        y : ndarray of bool of shape (n,)
            True for the positives (the first rows).
        score : ndarray of float64 of shape (n,)

        Examples
        --------
        >>> import numpy as np
        >>> from indist_fast.population import Mixture
        >>> m = Mixture([(1, 1.0, 1.0)], [(3, 0.0, 1.0), (1, -2.0, 0.5)])
        >>> y, s = m.sample(8, rng=np.random.default_rng(0))
        >>> int(y.sum()), s.shape
        (2, (8,))
        """
        n_pos = n_positives(n, self._prev(prevalence))
        rng = _check_rng(rng)
        y = np.zeros(n, dtype=bool)
        y[:n_pos] = True
        score = np.concatenate((_draw(self._pos, n_pos, rng), _draw(self._neg, n - n_pos, rng)))
        return y, score


def _draw(parts: tuple[Component, ...], k: int, rng: np.random.Generator) -> np.ndarray:
    counts = rng.multinomial(k, [w for w, _, _ in parts])
    return np.concatenate([rng.normal(m, s, c) for (_, m, s), c in zip(parts, counts)])


@dataclass(frozen=True)
class Binormal(_NormalMixtures):
    """Negatives N(0, 1), positives N(mu, sigma); the prevalence is an argument.

    The one-component case of ``Mixture`` (``as_mixture`` gives it), the model of
    Beam's "Resolving power" binormal study.

    Parameters
    ----------
    mu : float
        Mean of the positive scores (finite).
    sigma : float, default=1.0
        Standard deviation of the positive scores (positive, finite).

    Examples
    --------
    >>> from indist_fast.population import Binormal
    >>> m = Binormal.for_auc(0.8)
    >>> round(m.auc, 12)
    0.8
    """

    mu: float
    sigma: float = 1.0

    def __post_init__(self) -> None:
        check_real(self.mu, "mu")
        _check_sigma(self.sigma)

    @property
    def _pos(self) -> tuple[Component, ...]:         # type: ignore[override]
        return ((1.0, float(self.mu), float(self.sigma)),)

    @property
    def _neg(self) -> tuple[Component, ...]:         # type: ignore[override]
        return ((1.0, 0.0, 1.0),)

    @property
    def _own_prevalence(self) -> None:               # type: ignore[override]
        return None

    @property
    def auc(self) -> float:
        """``Phi(mu / sqrt(1 + sigma^2))``."""
        return _norm_cdf(self.mu / math.sqrt(1.0 + self.sigma ** 2))

    def as_mixture(self, prevalence: float) -> Mixture:
        """The same population as a ``Mixture`` with the given prevalence.

        Parameters
        ----------
        prevalence : float
            Share of positives, strictly between 0 and 1.

        Returns
        -------
        Mixture

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> Binormal(1.0).as_mixture(0.25).prevalence
        0.25
        """
        p = check_prevalence(prevalence)
        return Mixture([(p, self.mu, self.sigma)], [(1 - p, 0.0, 1.0)])

    @classmethod
    def for_auc(cls, auc: float, sigma: float = 1.0) -> "Binormal":
        """The binormal model with the given AUROC and positive spread.

        Parameters
        ----------
        auc : float
            The AUROC, strictly between 0 and 1.
        sigma : float, default=1.0
            Standard deviation of the positive scores.

        Returns
        -------
        Binormal
            The model with ``mu = Phi^-1(auc) sqrt(1 + sigma^2)``.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> m = Binormal.for_auc(0.75, sigma=2.0)
        >>> round(m.auc, 12), m.sigma
        (0.75, 2.0)
        """
        auc = check_real(auc, "auc", low=0.0, high=1.0, low_open=True, high_open=True)
        # sigma enters mu's formula: checked first, or an infinite sigma would be
        # reported as an infinite mu the caller never passed
        sigma = _check_sigma(sigma)
        from statistics import NormalDist
        return cls(NormalDist().inv_cdf(auc) * math.sqrt(1.0 + sigma ** 2), sigma)

    def with_auc(self, auc: float) -> "Binormal":
        """The same spread, shifted to another AUROC (the signal curve's grid).

        Parameters
        ----------
        auc : float
            The AUROC, strictly between 0 and 1.

        Returns
        -------
        Binormal
            The model with that AUROC and this ``sigma``.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> m = Binormal(1.0)
        >>> round(m.with_auc(0.9).auc, 12), m.with_auc(0.9).sigma
        (0.9, 1.0)
        """
        return Binormal.for_auc(auc, self.sigma)

    def sample(self, n: int, prevalence: float, rng: Any = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """``n`` rows with ``round(n * prevalence)`` positives: ``(y, score)``.

        Parameters
        ----------
        n : int
            Rows, at least 2.
        prevalence : float
            Share of positives in the population, strictly between 0 and 1.
        rng : numpy.random.Generator, int or None, default=None
            The source of randomness: a ``Generator`` advances, so repeated calls draw
            fresh samples; a seed starts ``numpy.random.default_rng(rng)`` (the same
            seed repeats the sample); None draws fresh entropy.

        Returns
        -------
        y : ndarray of bool of shape (n,)
            True for the positives (the first rows).
        score : ndarray of float64 of shape (n,)
            The scores.

        Examples
        --------
        >>> from indist_fast.population import Binormal
        >>> m = Binormal(1.0)
        >>> import numpy as np
        >>> y, score = m.sample(10, 0.3, np.random.default_rng(0))
        >>> int(y.sum()), score.shape
        (3, (10,))
        """
        n_pos = n_positives(n, prevalence)
        rng = _check_rng(rng)
        y = np.zeros(n, dtype=bool)
        y[:n_pos] = True
        s = np.empty(n)
        s[:n_pos] = rng.normal(self.mu, self.sigma, n_pos)
        s[n_pos:] = rng.normal(0.0, 1.0, n - n_pos)
        return y, s
