"""Brute-force oracles: every quantity by enumerating pairs, straight from SPEC §1-§4.

O(n^2) per operating point; for small inputs only.
"""

from __future__ import annotations

import numpy as np


def expand(y, s, w):
    """Rows repeated by their integer weights (SPEC §1: weights are copies)."""
    reps = np.asarray(w).astype(np.int64)
    return np.repeat(y, reps), np.repeat(s, reps)


def _wins(sp, sl):
    """[s_p > s_l] + 1/2 [s_p = s_l] for every pair (rows of sp against columns)."""
    return (sp[:, None] > sl[None, :]) + 0.5 * (sp[:, None] == sl[None, :])


def curves(y, s, w=None, exclude_self=True):
    """Every Curves field by pair enumeration over weighted rows."""
    y = np.asarray(y, bool)
    s = np.asarray(s, np.float64)
    w = np.ones(len(s)) if w is None else np.asarray(w, np.float64)
    keep = w > 0
    y, s, w = y[keep], s[keep], w[keep]
    wp, wn = w[y].sum(), w[~y].sum()
    thresholds = np.unique(s)[::-1]
    out = {k: [] for k in ("tp", "fp", "tpr", "fpr", "precision", "f1",
                           "b", "b_plus", "b_minus")}
    pos_s, pos_w = s[y], w[y]
    for t in thresholds:
        lab = s >= t
        tp, fp = w[lab & y].sum(), w[lab & ~y].sum()
        pair = pos_w[:, None] * w[lab][None, :] * _wins(pos_s, s[lab])
        lab_pos = y[lab]
        self_pairs = 0.5 * tp if exclude_self else 0.0     # each positive copy vs itself
        den = wp * (tp + fp) - (tp if exclude_self else 0.0)
        num_plus = pair[:, lab_pos].sum() - self_pairs
        num_minus = pair[:, ~lab_pos].sum()
        for key, val in (("tp", tp), ("fp", fp), ("tpr", tp / wp), ("fpr", fp / wn),
                         ("precision", tp / (tp + fp)),
                         ("f1", 2 * tp / (2 * tp + fp + (wp - tp)))):
            out[key].append(val)
        ok = den > 0
        out["b"].append((num_plus + num_minus) / den if ok else np.nan)
        out["b_plus"].append(num_plus / den if ok else np.nan)
        out["b_minus"].append(num_minus / den if ok else np.nan)
    res = {k: np.array(v) for k, v in out.items()}
    res["thresholds"] = thresholds
    return res


def curves_by_copies(y, s, w, exclude_self=True):
    """B by enumerating copies, skipping the pair of a copy with itself (integer w)."""
    yc, sc = expand(np.asarray(y, bool), np.asarray(s, np.float64), w)
    thresholds = np.unique(sc)[::-1]
    idx = np.arange(len(sc))
    b = []
    for t in thresholds:
        lab = np.flatnonzero(sc >= t)
        pos = np.flatnonzero(yc)
        wins = _wins(sc[pos], sc[lab])
        valid = np.ones_like(wins, dtype=bool)
        if exclude_self:
            valid &= idx[pos][:, None] != idx[lab][None, :]
        b.append(wins[valid].sum() / valid.sum() if valid.sum() else np.nan)
    return thresholds, np.array(b)


def auc(y, s, w=None):
    y = np.asarray(y, bool)
    s = np.asarray(s, np.float64)
    w = np.ones(len(s)) if w is None else np.asarray(w, np.float64)
    pair = w[y][:, None] * w[~y][None, :] * _wins(s[y], s[~y])
    return pair.sum() / (w[y].sum() * w[~y].sum())


def average_precision(y, s, w=None):
    c = curves(y, s, w)
    tpr = np.concatenate(([0.0], c["tpr"]))
    return float(np.sum(np.diff(tpr) * c["precision"]))


def level_point(y, s, w=None, level=0.5, exclude_self=True):
    """(threshold, index) of the highest threshold with B >= level, or (nan, -1)."""
    c = curves(y, s, w, exclude_self)
    hits = np.flatnonzero(c["b"] >= level)
    if len(hits) == 0:
        return np.nan, -1, c
    return c["thresholds"][hits[0]], hits[0], c


def exact_b(y, s, w=None, exclude_self=True):
    """(thresholds, B per operating point) in exact rational arithmetic (SPEC §3's
    group sums over the weights as the exact binary fractions they are); B is a
    Fraction, or None where Den <= 0. Any float computation is checked against it."""
    from fractions import Fraction

    y = np.asarray(y, bool)
    s = np.asarray(s, np.float64)
    w = np.ones(len(s)) if w is None else np.asarray(w, np.float64)
    keep = w > 0
    y, s, w = y[keep], s[keep], w[keep]
    thresholds = np.unique(s)[::-1]
    tp_g = {t: Fraction(0) for t in thresholds.tolist()}
    fp_g = dict(tp_g)
    for yi, si, wi in zip(y.tolist(), s.tolist(), w.tolist()):
        (tp_g if yi else fp_g)[si] += Fraction(wi)
    wp = sum(tp_g.values(), Fraction(0))
    self_pairs = 1 if exclude_self else 0
    above = tp = fp = num = Fraction(0)
    out = []
    for t in thresholds.tolist():
        a, b = tp_g[t], fp_g[t]
        num += (a + b) * (above + a / 2) - self_pairs * a / 2
        tp, fp = tp + a, fp + b
        above = tp
        den = wp * (tp + fp) - self_pairs * tp
        out.append(num / den if den > 0 else None)
    return thresholds, out


def exact_auc(y, s, w=None):
    """AUC of SPEC §2 in exact rational arithmetic."""
    from fractions import Fraction

    y = np.asarray(y, bool)
    s = np.asarray(s, np.float64)
    w = np.ones(len(s)) if w is None else np.asarray(w, np.float64)
    pos = [(si, Fraction(wi)) for si, wi, yi in zip(s.tolist(), w.tolist(), y.tolist()) if yi]
    neg = [(si, Fraction(wi)) for si, wi, yi in zip(s.tolist(), w.tolist(), y.tolist())
           if not yi]
    wins = sum((wp * wn * (1 if sp > sn else Fraction(1, 2) if sp == sn else 0)
                for sp, wp in pos for sn, wn in neg), Fraction(0))
    return wins / (sum(w for _, w in pos) * sum(w for _, w in neg))


def ks(y, s, w=None):
    """KS by a plain loop over thresholds: (max |tpr - fpr|, the highest threshold
    reaching it), rates from the rows at ``s >= t`` (weights as copies)."""
    y = np.asarray(y, bool)
    s = np.asarray(s, np.float64)
    w = np.ones(len(s)) if w is None else np.asarray(w, np.float64)
    keep = w > 0
    y, s, w = y[keep], s[keep], w[keep]
    wp, wn = w[y].sum(), w[~y].sum()
    best, where = -1.0, None
    for t in np.unique(s)[::-1]:
        lab = s >= t
        gap = abs(w[lab & y].sum() / wp - w[lab & ~y].sum() / wn)
        if gap > best + 1e-12:
            best, where = gap, t
    return best, where


def top_k_by_orders(y, s, k):
    """Positives among the first ``k`` rows sorted by score, averaged over every order
    of the rows (so over every order of the tied ones): the expected count, exactly."""
    from fractions import Fraction
    from itertools import permutations
    y, s = list(map(bool, y)), list(map(float, s))
    total, count = Fraction(0), 0
    for order in permutations(range(len(y))):
        ranked = sorted(order, key=lambda i: -s[i])      # stable: ties keep the order
        total += sum(y[i] for i in ranked[:k])
        count += 1
    return total / count


def gains_bins(y, s, w, n_bins):
    """The gains table's bins by a loop over distinct scores with exact fractions:
    each bin's (highest score, lowest score, weight, positive weight); bin j ends at
    the first distinct score where the running weight reaches j / n_bins of it all."""
    from fractions import Fraction
    y = np.asarray(y, bool)
    s = np.asarray(s, np.float64)
    w = np.ones(len(s)) if w is None else np.asarray(w, np.float64)
    keep = w > 0
    y, s, w = y[keep], s[keep], w[keep]
    total = sum(Fraction(x) for x in w)
    distinct = sorted(set(s.tolist()), reverse=True)
    bins, running, j, start = [], Fraction(0), 1, None
    for t in distinct:
        start = t if start is None else start
        running += sum(Fraction(x) for x in w[s == t])
        if running >= Fraction(j, n_bins) * total:
            members = (s <= start) & (s >= t)
            bins.append((start, t, float(w[members].sum()), float(w[members & y].sum())))
            while j <= n_bins and running >= Fraction(j, n_bins) * total:
                j += 1
            start = None
    return bins
