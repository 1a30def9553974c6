"""What a correct result is: brute-force oracles on the canonical rows, range checks,
and the canonical form of any result for comparing the two backends."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

import oracle  # tests/oracle.py: pair enumeration straight from SPEC §1-§4

RTOL, ATOL = 1e-9, 1e-12


class Wrong(Exception):
    """A result that is not the correct one (the message says why)."""


# --- canonical form and comparison -------------------------------------------------------------

def canon(x: Any, depth: int = 0) -> Any:
    """Nested plain values: floats, ints, strings, lists and dicts (for comparisons)."""
    if depth > 8:
        return repr(type(x))
    if x is None or isinstance(x, (bool, str, int)):
        return x
    if isinstance(x, (float, np.floating)):
        return float(x)
    if isinstance(x, (np.integer, np.bool_)):
        return x.item()
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "fiub":
            return [canon(v) for v in x.astype(np.float64).ravel()] + [list(x.shape)]
        return [canon(v, depth + 1) for v in x.ravel()]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: canon(getattr(x, f.name), depth + 1) for f in dataclasses.fields(x)
                if f.compare}
    if isinstance(x, dict) or (hasattr(x, "items") and hasattr(x, "keys")):
        return {str(k): canon(v, depth + 1) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [canon(v, depth + 1) for v in x]
    if type(x).__name__ == "ScoreTable":
        return {"scores": canon(x.scores), "pos": canon(x.pos), "neg": canon(x.neg),
                "n_rows": x.n_rows}
    return type(x).__name__


def close(a: float, b: float, rtol: float = RTOL, atol: float = ATOL) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= atol + rtol * max(abs(a), abs(b))
    return a == b


def diff(a: Any, b: Any, path: str = "") -> str | None:
    """Where two canonical values differ (None when they agree)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return f"{path}: keys {sorted(set(a) ^ set(b))}"
        for k in a:
            d = diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: lengths {len(a)} != {len(b)}"
        for i, (u, v) in enumerate(zip(a, b)):
            d = diff(u, v, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return None if close(float(a), float(b)) else f"{path}: {a!r} != {b!r}"
    return None if a == b else f"{path}: {a!r} != {b!r}"


def expect_close(what: str, got: Any, want: float, rtol: float = RTOL) -> None:
    got_f = float(got)
    if not close(got_f, float(want), rtol):
        raise Wrong(f"{what} = {got_f!r}, expected {float(want)!r}")


def expect_probability(what: str, value: Any, nan_ok: bool = False) -> None:
    v = float(value)
    if math.isnan(v):
        if not nan_ok:
            raise Wrong(f"{what} is NaN where it is defined")
        return
    if not 0.0 <= v <= 1.0:
        raise Wrong(f"{what} = {v!r} lies outside [0, 1]")


def expect_probabilities(what: str, values: Any, nan_ok: bool = True) -> None:
    arr = np.asarray(values, dtype=np.float64)
    bad = ~np.isnan(arr) & ((arr < 0) | (arr > 1))
    if bad.any():
        raise Wrong(f"{what} has {arr[bad][0]!r} outside [0, 1]")
    if not nan_ok and np.isnan(arr).any():
        raise Wrong(f"{what} holds NaN")


# --- the oracle ------------------------------------------------------------------------------

class Oracle:
    """Every quantity of SPEC §1-§4 and §7 by brute force on the canonical rows.

    Scale-invariant quantities use the weights divided by their maximum (so that
    weights near the float range stay computable); B uses the raw weights (its
    self-pair correction counts copies) unless they are so large that the correction
    is below double precision, where it equals the all-pairs form.
    """

    def __init__(self, canon_rows: tuple[np.ndarray, np.ndarray, np.ndarray | None]) -> None:
        y, s, w = canon_rows
        self.n_rows = len(s)
        if w is not None:
            keep = w > 0
            y, s, w = y[keep], s[keep], w[keep]
        self.y, self.s, self.w = y, s, w
        self.ws = None if w is None else w / w.max() if len(w) else w
        self.huge = w is not None and len(w) > 0 and w.max() > 1e100
        self.large = len(s) > 400
        # SPEC §3 counts weights as copies: with fractional weights its self-pair
        # correction can push B below 0, so B is compared with the oracle, not [0, 1].
        self.fractional = w is not None and bool(np.any(w != np.round(w)))
        self._curves: dict[bool, dict[str, np.ndarray]] = {}

    @property
    def weight_pos(self) -> float:
        return float(self.y.sum()) if self.w is None else float(self.w[self.y].sum())

    @property
    def weight_neg(self) -> float:
        return float((~self.y).sum()) if self.w is None else float(self.w[~self.y].sum())

    @property
    def two_classes(self) -> bool:
        return bool(self.y.any() and (~self.y).any())

    def auc(self) -> float:
        if self.large:
            from sklearn.metrics import roc_auc_score
            return float(roc_auc_score(self.y, self.s, sample_weight=self.ws))
        return float(oracle.auc(self.y, self.s, self.ws))

    def average_precision(self) -> float:
        c = self.curves()
        tpr = np.concatenate(([0.0], c["tpr"]))
        return float(np.sum(np.diff(tpr) * c["precision"]))

    def curves(self, exclude_self: bool = True) -> dict[str, np.ndarray]:
        if exclude_self not in self._curves:
            if self.large:
                self._curves[exclude_self] = self._fast_curves()
            else:
                rates = oracle.curves(self.y, self.s, self.ws, exclude_self)
                if self.w is not None and not self.huge:
                    # B with exclude_self depends on the weights' scale (SPEC §3): the raw
                    # weights. Without it B is scale-invariant, and the rescaled weights
                    # keep tiny weights' pair products from underflowing to 0.
                    raw = oracle.curves(self.y, self.s, self.w, exclude_self)
                    for k in (("b", "b_plus", "b_minus") if exclude_self else ()) + ("tp", "fp"):
                        rates[k] = raw[k]
                elif self.huge:
                    raw = oracle.curves(self.y, self.s, self.ws, False)
                    for k in ("b", "b_plus", "b_minus"):
                        rates[k] = raw[k]
                    rates["tp"] = rates["fp"] = None   # not representable: not checked
                self._curves[exclude_self] = rates
        return self._curves[exclude_self]

    def _fast_curves(self) -> dict[str, np.ndarray]:
        """Rates only (no B) for inputs too large for pair enumeration."""
        w = np.ones(len(self.s)) if self.w is None else self.w
        t = np.unique(self.s)[::-1]
        order = np.argsort(-self.s, kind="stable")
        s, y, w = self.s[order], self.y[order], w[order]
        ends = np.searchsorted(-s, -t, side="right")
        tp = np.cumsum(w * y)[ends - 1]
        fp = np.cumsum(w * ~y)[ends - 1]
        wp, wn = tp[-1], fp[-1]
        return {"thresholds": t, "tp": tp, "fp": fp, "tpr": tp / wp, "fpr": fp / wn,
                "precision": tp / (tp + fp), "f1": 2 * tp / (tp + fp + wp), "b": None}

    def acceptable_points(self, level: float, exclude_self: bool = True) -> list[int]:
        """Indices the level's operating point may be (B equal to the level within
        rounding makes the choice ambiguous); empty when it is not reached."""
        b = self.curves(exclude_self)["b"]
        out = []
        for i, v in enumerate(b):
            if not math.isnan(v) and v >= level - 1e-9:
                out.append(i)
                if v >= level + 1e-9:
                    break
        return out

    def error_rate(self, t: float) -> float:
        w = np.ones(len(self.s)) if self.ws is None else self.ws
        lab = self.s >= t
        wrong = w[self.y & ~lab].sum() + w[~self.y & lab].sum()
        return float(wrong / w.sum())

    def _mean(self, values: np.ndarray) -> float:
        w = np.ones(len(self.s)) if self.ws is None else self.ws
        return float(np.sum(w * values) / w.sum())

    def brier(self) -> float:
        return self._mean((self.y - self.s) ** 2)

    def mae(self) -> float:
        return self._mean(np.abs(self.y - self.s))

    def pis(self) -> tuple[float, float]:
        w = np.ones(len(self.s)) if self.ws is None else self.ws
        pi1 = float(w[self.y].sum() / w.sum())
        return pi1, 1.0 - pi1

    def hull(self) -> tuple[np.ndarray, np.ndarray]:
        """ROC convex hull vertices (fpr, tpr), from (0, 0) to (1, 1)."""
        c = self.curves()
        pts = list(zip(np.r_[0.0, c["fpr"]], np.r_[0.0, c["tpr"]]))
        hull: list[tuple[float, float]] = []
        for p in pts:                 # monotone chain, upper hull
            while len(hull) >= 2:
                (x1, y1), (x2, y2) = hull[-2], hull[-1]
                if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) >= 0:
                    hull.pop()
                else:
                    break
            hull.append(p)
        f, t = np.array(hull).T
        return f, t

    def refinement(self) -> float:
        f, t = self.hull()
        pi1, pi0 = self.pis()
        d1, d0 = pi1 * np.diff(t), pi0 * np.diff(f)
        m = d1 + d0
        ok = m > 0
        return float(np.sum(d1[ok] * d0[ok] / m[ok]))

    def delong_variance(self) -> float:
        w = np.ones(len(self.s)) if self.w is None else self.w
        sp, sn, wp_, wn_ = self.s[self.y], self.s[~self.y], w[self.y], w[~self.y]
        wins = (sp[:, None] > sn[None, :]) + 0.5 * (sp[:, None] == sn[None, :])
        wp, wn = wp_.sum(), wn_.sum()
        a = float(wp_ @ wins @ wn_ / (wp * wn))
        v10 = wins @ wn_ / wn
        v01 = wp_ @ wins / wp
        s10 = float(np.sum(wp_ * (v10 - a) ** 2))
        s01 = float(np.sum(wn_ * (v01 - a) ** 2))
        return s10 / (wp - 1) / wp + s01 / (wn - 1) / wn


# --- checks of result types --------------------------------------------------------------------

def check_operating_point(o: Oracle, point: Any, level: float, exclude_self: bool = True,
                          what: str = "") -> None:
    """A Report or OperatingPoint at ``level`` against the oracle's B curve."""
    if o.large:
        return
    c = o.curves(exclude_self)
    ok = o.acceptable_points(level, exclude_self)
    threshold = float(point.threshold)
    if not ok:
        if not math.isnan(threshold) or point.reached:
            raise Wrong(f"{what}level {level}: reported threshold {threshold!r}, but B never "
                        "reaches the level")
        return
    if math.isnan(threshold):
        raise Wrong(f"{what}level {level}: not reached, expected threshold "
                    f"{c['thresholds'][ok[-1]]!r}")
    hits = [i for i in ok if c["thresholds"][i] == threshold]
    if not hits:
        raise Wrong(f"{what}level {level}: threshold {threshold!r}, expected "
                    f"{c['thresholds'][ok[-1]]!r}")
    i = hits[0]
    expect_close(f"{what}precision at level {level}", point.precision, c["precision"][i])
    expect_close(f"{what}tpr at level {level}", point.tpr, c["tpr"][i])
    expect_close(f"{what}fpr at level {level}", point.fpr, c["fpr"][i])
    expect_close(f"{what}B at level {level}", point.b, c["b"][i], rtol=1e-7)


def check_report(o: Oracle, r: Any, levels: tuple[float, ...] = (0.4, 0.5, 0.6),
                 exclude_self: bool = True) -> None:
    for name in ("auc", "average_precision", "base_rate", "precision", "tpr", "fpr", "f1") + (
            () if o.fractional else ("b",)):
        expect_probability(name, getattr(r, name), nan_ok=name not in
                           ("auc", "average_precision", "base_rate"))
    expect_close("auc", r.auc, o.auc())
    if not o.large:
        expect_close("average_precision", r.average_precision, o.average_precision())
        expect_close("n_thresholds", r.n_thresholds, len(np.unique(o.s)))
    if r.n_rows != o.n_rows:
        raise Wrong(f"n_rows = {r.n_rows}, expected {o.n_rows}")
    if not o.huge:
        expect_close("weight_pos", r.weight_pos, o.weight_pos)
        expect_close("weight_neg", r.weight_neg, o.weight_neg)
    check_operating_point(o, r, 0.5, exclude_self)
    for level in levels:
        if level not in r.at:
            raise Wrong(f"level {level} missing from report.at")
        check_operating_point(o, r.at[level], level, exclude_self, "at: ")


def check_curves(o: Oracle, c: Any, exclude_self: bool = True) -> None:
    want = o.curves(exclude_self)
    if not np.array_equal(np.asarray(c.thresholds), want["thresholds"]):
        raise Wrong(f"thresholds {np.asarray(c.thresholds)[:6]} != {want['thresholds'][:6]}")
    for name in ("tpr", "fpr", "precision", "f1", "b", "b_plus", "b_minus", "tp", "fp"):
        if want.get(name) is None:
            continue
        got = np.asarray(getattr(c, name), dtype=np.float64)
        if name in ("tpr", "fpr", "precision", "f1") or (
                name in ("b", "b_plus", "b_minus") and not o.fractional):
            expect_probabilities(name, got)
        d = diff(canon(got), canon(np.asarray(want[name], dtype=np.float64)))
        if d:
            raise Wrong(f"curves.{name}{d}")


def check_table(o: Oracle, t: Any) -> None:
    want = o.curves() if o.two_classes else None
    scores = np.unique(o.s)[::-1]
    if not np.array_equal(np.asarray(t.scores), scores):
        raise Wrong(f"table scores {np.asarray(t.scores)[:6]} != {scores[:6]}")
    w = np.ones(len(o.s)) if o.w is None else o.w
    if not o.huge:
        pos = np.array([w[(o.s == v) & o.y].sum() for v in scores])
        neg = np.array([w[(o.s == v) & ~o.y].sum() for v in scores])
        for name, arr in (("pos", pos), ("neg", neg)):
            d = diff(canon(np.asarray(getattr(t, name), np.float64)), canon(arr))
            if d:
                raise Wrong(f"table.{name}{d}")
    if t.n_rows != o.n_rows:
        raise Wrong(f"n_rows = {t.n_rows}, expected {o.n_rows}")
    del want
