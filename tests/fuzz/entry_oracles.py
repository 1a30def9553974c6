"""Brute-force oracles for the entry points added after the first fuzz tables:
paired and unpaired DeLong with Holm's adjustment (``compare``), every criterion of
``best_threshold``, confusion counts at any thresholds and ROC dominance.

Each works from the rows alone (labels as a positive mask, float64 scores, weights),
with loops and plain NumPy, never through the library's tables or sweeps.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from .checks import Wrong, close, expect_close

_Z = NormalDist()


# --- DeLong ------------------------------------------------------------------------------------

def _wins(y: np.ndarray, s: np.ndarray, w: np.ndarray | None
          ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """AUC and the structural components: V10 per positive, V01 per negative, with
    their weights."""
    w = np.ones(len(s)) if w is None else np.asarray(w, float)
    sp, sn, wp, wn = s[y], s[~y], w[y], w[~y]
    wins = (sp[:, None] > sn[None, :]) + 0.5 * (sp[:, None] == sn[None, :])
    auc = float(wp @ wins @ wn / (wp.sum() * wn.sum()))
    return auc, wins @ wn / wn.sum(), wp @ wins / wp.sum(), wp, wn


def delong_moments(y: np.ndarray, sa: np.ndarray, sb: np.ndarray | None,
                   w: np.ndarray | None) -> tuple[float, float, float, float, float]:
    """(auc_a, auc_b, var_a, var_b, cov_ab) by DeLong with frequency weights (SPEC's
    ``(W - 1) W`` normalisation); ``sb`` None gives model A alone."""
    a, v10a, v01a, wp, wn = _wins(y, sa, w)
    if sb is None:
        b, v10b, v01b = a, v10a, v01a
    else:
        b, v10b, v01b, _, _ = _wins(y, sb, w)
    P, N = wp.sum(), wn.sum()

    def cov(u: np.ndarray, mu: float, v: np.ndarray, mv: float, ww: np.ndarray,
            W: float) -> float:
        return float(np.sum(ww * (u - mu) * (v - mv))) / (W - 1) / W
    va = cov(v10a, a, v10a, a, wp, P) + cov(v01a, a, v01a, a, wn, N)
    vb = cov(v10b, b, v10b, b, wp, P) + cov(v01b, b, v01b, b, wn, N)
    cab = cov(v10a, a, v10b, b, wp, P) + cov(v01a, a, v01b, b, wn, N)
    return a, b, va, vb, cab


def normal_p(z: float, alternative: str) -> float:
    if alternative == "greater":
        return 1.0 - _Z.cdf(z)
    if alternative == "less":
        return _Z.cdf(z)
    return min(1.0, 2.0 * (1.0 - _Z.cdf(abs(z))))


def check_delong_difference(d: Any, a: float, b: float, variance: float, alternative: str,
                            confidence: float = 0.95, p_unadjusted: bool = False) -> None:
    """A DeLong ``Difference`` against the oracle's AUCs and variance."""
    expect_close("estimate_a", d.estimate_a, a)
    expect_close("estimate_b", d.estimate_b, b)
    expect_close("estimate", d.estimate, a - b)
    se = math.sqrt(max(variance, 0.0))
    expect_close("std_error", d.std_error, se, rtol=1e-7)
    if d.method != "delong" or d.alternative != alternative:
        raise Wrong(f"method {d.method!r}, alternative {d.alternative!r}")
    if se > 1e-12:
        z = (a - b) / se
        p = normal_p(z, alternative)
        got = d.p_value_unadjusted if p_unadjusted else d.p_value
        if not (close(float(got), p, rtol=1e-6, atol=1e-12)):
            raise Wrong(f"p_value {got!r}, expected {p!r} (z = {z:.6g}, {alternative})")
        if alternative == "two-sided":
            q = _Z.inv_cdf(0.5 + confidence / 2)
            expect_close("low", d.low, (a - b) - q * se, rtol=1e-7)
            expect_close("high", d.high, (a - b) + q * se, rtol=1e-7)
        else:
            q = _Z.inv_cdf(confidence)
            if alternative == "greater":
                expect_close("low", d.low, (a - b) - q * se, rtol=1e-7)
                expect_close("high (the metric's bound)", d.high, 1.0)
            else:
                expect_close("low (the metric's bound)", d.low, -1.0)
                expect_close("high", d.high, (a - b) + q * se, rtol=1e-7)


def holm(p: list[float]) -> list[float]:
    order = sorted(range(len(p)), key=lambda i: p[i])
    out = [0.0] * len(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


def check_bootstrap_difference(d: Any, n_boot: int, alternative: str) -> None:
    """The percentile difference: its p-value from its own replicates (SPEC of
    ``compare``: ``(1 + #{d <= 0}) / (1 + B)`` for "greater"...), its interval inside
    the replicates' range."""
    reps = np.asarray(d.replicates, float)
    if len(reps) != n_boot:
        raise Wrong(f"{len(reps)} replicates, expected {n_boot}")
    ok = reps[~np.isnan(reps)]
    if d.n_undefined != n_boot - len(ok):
        raise Wrong(f"n_undefined {d.n_undefined}, {n_boot - len(ok)} NaN replicates")
    if not len(ok):
        return
    B = len(ok)
    greater = (1 + np.sum(ok <= 0)) / (1 + B)
    less = (1 + np.sum(ok >= 0)) / (1 + B)
    want = {"greater": greater, "less": less,
            "two-sided": min(1.0, 2 * min(greater, less))}[alternative]
    if not close(float(d.p_value), float(want), rtol=1e-9):
        raise Wrong(f"{d.metric}: p_value {d.p_value!r}, from the replicates {want!r}")
    if not (d.low <= d.high):
        raise Wrong(f"{d.metric}: low {d.low} > high {d.high}")
    if alternative != "less" and not ok.min() - 1e-12 <= d.low <= ok.max() + 1e-12:
        raise Wrong(f"{d.metric}: low {d.low} outside the replicates' range")
    if alternative != "greater" and not ok.min() - 1e-12 <= d.high <= ok.max() + 1e-12:
        raise Wrong(f"{d.metric}: high {d.high} outside the replicates' range")
    expect_close(f"{d.metric} estimate", d.estimate, d.estimate_a - d.estimate_b)


# --- confusion counts --------------------------------------------------------------------------

def counts_at(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, t: float
              ) -> tuple[float, float, float, float]:
    w = np.ones(len(s)) if w is None else w
    above = s >= t
    return (float(w[above & y].sum()), float(w[above & ~y].sum()),
            float(w[~above & ~y].sum()), float(w[~above & y].sum()))


def check_confusion(c: Any, y: np.ndarray, s: np.ndarray, w: np.ndarray | None,
                    thresholds: Any) -> None:
    t = np.asarray(thresholds, float)
    for name in ("tp", "fp", "tn", "fn", "tpr", "fpr", "precision"):
        if np.shape(getattr(c, name)) != t.shape:
            raise Wrong(f"{name} has shape {np.shape(getattr(c, name))}, thresholds {t.shape}")
    for idx in np.ndindex(t.shape):
        tp, fp, tn, fn = counts_at(y, s, w, float(t[idx]))
        for name, want in (("tp", tp), ("fp", fp), ("tn", tn), ("fn", fn)):
            expect_close(f"{name} at {t[idx]}", np.asarray(getattr(c, name))[idx], want)
        P, N = tp + fn, fp + tn
        expect_close(f"tpr at {t[idx]}", np.asarray(c.tpr)[idx], tp / P)
        expect_close(f"fpr at {t[idx]}", np.asarray(c.fpr)[idx], fp / N)
        prec = tp / (tp + fp) if tp + fp > 0 else math.nan
        expect_close(f"precision at {t[idx]}", np.asarray(c.precision)[idx], prec)


# --- best_threshold ----------------------------------------------------------------------------

def candidates(y: np.ndarray, s: np.ndarray, w: np.ndarray | None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds (inf, then the distinct scores descending; no inf candidate when the
    top score is inf) and tp, fp, tn, fn at each, one brute-force count each."""
    ts = np.unique(s)[::-1]
    if not (len(ts) and ts[0] == np.inf):
        ts = np.r_[np.inf, ts]
    cells = np.array([counts_at(y, s, w, float(t)) for t in ts]).reshape(len(ts), 4)
    return ts, cells[:, 0], cells[:, 1], cells[:, 2], cells[:, 3]


def criterion_values(name: str, params: dict[str, Any], tp: np.ndarray, fp: np.ndarray,
                     tn: np.ndarray, fn: np.ndarray) -> tuple[np.ndarray, str]:
    P, N = tp[0] + fn[0], fp[0] + tn[0]
    W = P + N
    with np.errstate(divide="ignore", invalid="ignore"):
        if name == "accuracy":
            return (tp + tn) / W, "max"
        if name == "balanced_accuracy":
            return (tp / P + tn / N) / 2, "max"
        if name == "youden":
            return tp / P - fp / N, "max"
        if name == "f1":
            return 2 * tp / (2 * tp + fp + fn), "max"
        if name in ("mcc", "kappa"):
            # in shares of W, written out from the 2x2 table
            a, b, c, d = tp / W, fp / W, tn / W, fn / W
            if name == "kappa":
                return 2 * (a * c - b * d) / ((a + b) * (b + c) + (a + d) * (d + c)), "max"
            spread = np.sqrt((a + b) * (c + d) * (a + d) * (b + c))
            return np.where(spread > 0, (a * c - b * d) / np.where(spread > 0, spread, 1),
                            0.0), "max"
        if name == "cost":
            if "c" in params:
                c = params["c"]
                return 2 * (c * fn + (1 - c) * fp) / W, "min"
            if "cost_fn" in params:
                return (params["cost_fn"] * fn + params["cost_fp"] * fp) / W, "min"
            return (params["gain_tp"] * tp + params["gain_tn"] * tn) / W, "max"
        if name == "punzi":
            a, k = params.get("a", 3.0), params.get("background_scale", 1.0)
            return tp / P / (a / 2 + np.sqrt(k * fp)), "max"
        if name == "ams":
            breg = params.get("b_reg", 10.0)
            sig = params.get("signal_scale", 1.0) * tp
            bg = params.get("background_scale", 1.0) * fp + breg
            vals = np.sqrt(np.maximum(2 * ((sig + bg) * np.log1p(sig / bg) - sig), 0.0))
            return np.where(bg > 0, vals, np.nan), "max"
    raise AssertionError(name)


def target_rate(name: str, tp: np.ndarray, fp: np.ndarray, tn: np.ndarray,
                fn: np.ndarray) -> np.ndarray:
    P, N = tp[0] + fn[0], fp[0] + tn[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        return {"recall": tp / P, "precision": tp / (tp + fp), "fpr": fp / N,
                "tnr": tn / N}[name]


def best_threshold_oracle(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, name: str,
                          params: dict[str, Any]) -> tuple[list[float], float] | None:
    """(acceptable thresholds, value); None when no point qualifies (an error is then
    expected). Plateaus: any threshold whose value is within 1e-9 of the optimum, the
    highest of them first (the library takes the highest within 1e-12)."""
    ts, tp, fp, tn, fn = candidates(y, s, w)
    if name in ("recall", "precision", "fpr", "tnr"):
        rate = target_rate(name, tp, fp, tn, fn)
        target = params["target"]
        with np.errstate(invalid="ignore"):
            meets = (rate <= target) if name == "fpr" else (rate >= target)
        meets &= ~np.isnan(rate)
        hits = np.flatnonzero(meets)
        if not len(hits):
            return None
        k = hits[0] if name == "recall" else hits[-1]
        return [float(ts[k])], float(rate[k])
    values, goal = criterion_values(name, params, tp, fp, tn, fn)
    ok = ~np.isnan(values)
    if not ok.any():
        return None
    best = np.nanmax(values) if goal == "max" else np.nanmin(values)
    scale = max(1.0, float(np.nanmax(np.abs(values[np.isfinite(values)]), initial=0.0)))
    near = np.flatnonzero(ok & (np.abs(values - best) <= 1e-9 * scale))
    return [float(ts[k]) for k in near], float(best)


def check_best(b: Any, y: np.ndarray, s: np.ndarray, w: np.ndarray | None, name: str,
               params: dict[str, Any]) -> None:
    want = best_threshold_oracle(y, s, w, name, params)
    if want is None:
        raise Wrong(f"{name}: a threshold {b.threshold!r} where no point qualifies")
    thresholds, value = want
    t = float(b.threshold)
    if t not in thresholds:
        raise Wrong(f"{name} {params}: threshold {t!r}, expected one of {thresholds[:4]}")
    expect_close(f"{name} value", b.value, value, rtol=1e-8)
    tp, fp, tn, fn = counts_at(y, s, w, t)
    for field_name, v in (("tp", tp), ("fp", fp), ("tn", tn), ("fn", fn)):
        expect_close(f"{name}: {field_name}", getattr(b, field_name), v)


# --- ROC dominance ----------------------------------------------------------------------------

def roc_vertices(y: np.ndarray, s: np.ndarray, w: np.ndarray | None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The empirical ROC polyline's vertices: (0, 0), every distinct score, (1, 1)."""
    ts, tp, fp, tn, fn = candidates(y, s, w)
    P, N = tp[0] + fn[0], fp[0] + tn[0]
    f = np.r_[0.0, fp / N, 1.0]
    t = np.r_[0.0, tp / P, 1.0]
    return f, t


def _at(f: np.ndarray, t: np.ndarray, x: float) -> tuple[float, float]:
    """(lowest, highest) tpr of the polyline at fpr ``x``."""
    vals = [float(tt) for ff, tt in zip(f, t) if ff == x]
    for i in range(len(f) - 1):
        if f[i] < x < f[i + 1]:
            vals.append(float(t[i] + (t[i + 1] - t[i]) * (x - f[i]) / (f[i + 1] - f[i])))
    return min(vals), max(vals)


def dominance_gaps(y: np.ndarray, sa: np.ndarray, sb: np.ndarray, w: np.ndarray | None
                   ) -> tuple[float, float]:
    """(how far A's curve rises above B's, and B's above A's), at most over the union
    of the vertices' fprs, from both sides (the lowest and highest tpr there)."""
    fa, ta = roc_vertices(y, sa, w)
    fb, tb = roc_vertices(y, sb, w)
    gap_a = gap_b = 0.0
    for x in np.union1d(fa, fb):
        lo_a, hi_a = _at(fa, ta, float(x))
        lo_b, hi_b = _at(fb, tb, float(x))
        gap_a = max(gap_a, hi_a - hi_b, lo_a - lo_b)
        gap_b = max(gap_b, hi_b - hi_a, lo_b - lo_a)
    return gap_a, gap_b


def check_dominance(d: Any, y: np.ndarray, sa: np.ndarray, sb: np.ndarray,
                    w: np.ndarray | None, atol: float = 1e-12) -> None:
    gap_a, gap_b = dominance_gaps(y, sa, sb, w)
    expect_close("max_gap_a", d.max_gap_a, gap_a, rtol=1e-9)
    expect_close("max_gap_b", d.max_gap_b, gap_b, rtol=1e-9)
    if d.a_dominates != (gap_b <= atol) or d.b_dominates != (gap_a <= atol):
        raise Wrong(f"a_dominates {d.a_dominates}, b_dominates {d.b_dominates}; gaps "
                    f"{gap_a!r} (A above), {gap_b!r} (B above)")
    for ranges, gap, who in ((d.a_higher, gap_a, "A"), (d.b_higher, gap_b, "B")):
        if bool(ranges) != (gap > atol):
            raise Wrong(f"{who} higher at {ranges} but its largest gap is {gap!r}")
        for lo, hi in ranges:
            if not 0.0 <= lo <= hi <= 1.0:
                raise Wrong(f"{who}: range ({lo}, {hi})")


# --- the binormal population ------------------------------------------------------------------

def _binormal_parts(r: float, mu: float, sigma: float) -> tuple[float, float, float, float]:
    """v(r), 1 - v(r), u(r) and J(r) = int_r^inf phi(t) Phi((t - mu) / sigma) dt, each
    computed directly (never as a difference of numbers near 1)."""
    from scipy import integrate
    from scipy.special import ndtr
    v, one_minus_v, u = (float(ndtr((mu - r) / sigma)), float(ndtr((r - mu) / sigma)),
                         float(ndtr(-r)))

    def f(t: float) -> float:
        return math.exp(-0.5 * t * t) / math.sqrt(2 * math.pi) * float(ndtr((t - mu) / sigma))
    j, a = 0.0, r
    for b in (r + 2, r + 5, r + 10, r + 40):      # the normal density is gone past r + 40
        j += integrate.quad(f, a, b, epsabs=0, epsrel=1e-13, limit=200)[0]
        a = b
    return v, one_minus_v, u, j


def binormal_b(r: float, mu: float, sigma: float, p: float) -> float:
    """``B(r) = [p v^2 / 2 + (1 - p) int_r^inf phi v] / (p v + (1 - p) u)`` with the
    integral as ``u - J``."""
    v, _, u, j = _binormal_parts(r, mu, sigma)
    return (p * v * v / 2 + (1 - p) * (u - j)) / (p * v + (1 - p) * u)


def binormal_r_b(mu: float, sigma: float, p: float) -> float:
    """r where B = 1/2, from ``(B - 1/2) (p v + (1 - p) u) = -p v (1 - v) / 2 + (1 - p)
    (u / 2 - J)``: small terms each accurate, so the root holds at any separation."""
    from scipy import optimize

    def g(r: float) -> float:
        v, one_minus_v, u, j = _binormal_parts(r, mu, sigma)
        return -p * v * one_minus_v / 2 + (1 - p) * (u / 2 - j)
    return float(optimize.brentq(g, -10.0 - abs(mu), abs(mu) + 10.0 * max(1.0, sigma),
                                 xtol=1e-13, rtol=1e-15, maxiter=300))
