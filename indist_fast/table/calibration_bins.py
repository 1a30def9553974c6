"""Calibration read from a score table: the bins of the reliability diagram (as
scikit-learn's ``calibration_curve`` makes them), ECE and MCE, the Brier score with
Murphy's decomposition made exact, log loss as scikit-learn clips it, the
Hosmer-Lemeshow test, and the logistic recalibration line (``recalibration_fit``).

Every sum runs over the distinct scores with their class weights: no row is read
again, so a table merged from chunks, files or partitions gives the same numbers.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, NoReturn

import numpy as np

from .._core.validation import check_count, check_weight_total
from ..errors import IndistFastWarning, warn
from ..results.calibration_record import Calibration
from .recalibration_fit import RecalibrationFit, fit_logits

__all__ = ["STRATEGIES", "check_binning", "calibration_of", "calibration_edges",
           "check_probabilities", "refuse_probabilities"]

STRATEGIES = ("uniform", "quantile")
#: Bins are cheap (a few arrays of this length), but a typo such as 10**12 must fail.
MAX_BINS = 10**7


def check_binning(n_bins: Any, strategy: Any) -> tuple[int, str]:
    """``n_bins`` an int >= 1 and ``strategy`` one of ``STRATEGIES``, by name."""
    n_bins = check_count(n_bins, "n_bins", minimum=1, maximum=MAX_BINS)
    if not isinstance(strategy, str):
        raise TypeError(f"strategy must be 'uniform' or 'quantile', got {strategy!r} "
                        f"({type(strategy).__name__}).")
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be 'uniform' or 'quantile', got {strategy!r}.")
    return n_bins, strategy


def check_probabilities(lowest: float, highest: float, where: str) -> None:
    """Refuse scores outside [0, 1] where they are read as probabilities; ``where``
    names the argument."""
    if not (lowest >= 0.0 and highest <= 1.0):
        refuse_probabilities(where, f"the scores run from {lowest!r} to {highest!r}")


def refuse_probabilities(where: str, found: str) -> NoReturn:
    """The error for scores read as probabilities that are not: ``found`` says what."""
    raise ValueError(
        f"{where} must hold probabilities in [0, 1]; {found}. A score is not a "
        "probability: pass the model's predict_proba(X)[:, 1], map margins or log-odds "
        "through a sigmoid, or calibrate the model first "
        "(sklearn.calibration.CalibratedClassifierCV).")


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """NumPy's interpolation between order statistics (``numpy.percentile``'s
    ``_lerp``): ``b - a`` in the scores' own dtype, the rest in float64, and from the
    upper end when ``t >= 1/2``, so a quantile never passes its neighbours."""
    diff = b - a
    out = a + diff * t
    upper = t >= 0.5
    out[upper] = (b - diff * (1.0 - t))[upper]
    return np.asarray(out, dtype=np.float64)


def calibration_edges(ascending: np.ndarray, weight: np.ndarray | None, integer: bool,
                      n_bins: int, strategy: str, dtype: Any = np.float64) -> np.ndarray:
    """The ``n_bins + 1`` edges of the bins for distinct scores ``ascending`` with
    their weight (counts when ``integer``; not read, and may be None, for ``uniform``).

    ``uniform``: ``linspace(0, 1, n_bins + 1)``. ``quantile`` with counts:
    ``numpy.percentile`` of the rows (linear interpolation) at ``linspace(0, 100,
    n_bins + 1)``, read off the cumulative counts without the rows, bit for bit
    (``dtype``: the scores' dtype before the table, whose differences NumPy takes in
    it). ``quantile`` with weights: the inner edges are the weighted inverted-CDF
    quantiles (``numpy.percentile(..., weights=, method="inverted_cdf")``), the
    lowest score whose cumulative weight reaches ``k / n_bins`` of the total, so
    every inner edge is a score; the outer edges are the lowest and highest score.
    """
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    if weight is None:
        raise TypeError("quantile edges need the scores' weight, got None.")
    # as numpy.percentile gets them from calibration_curve: q * 100, then / 100
    q = np.true_divide(np.linspace(0.0, 1.0, n_bins + 1) * 100, 100)
    if integer:
        cum = np.cumsum(weight, dtype=np.int64)
        n = int(cum[-1])
        virtual = (n - 1) * q
        below = np.floor(virtual)
        above = below + 1
        top = virtual >= n - 1
        below[top] = above[top] = n - 1
        t = virtual - below
        # order statistic k is the first distinct score whose running count passes k
        # (k whole, searched as int64: a float key would convert the running counts)
        a = ascending[np.searchsorted(cum, below.astype(np.int64), side="right")].astype(dtype)
        b = ascending[np.searchsorted(cum, above.astype(np.int64), side="right")].astype(dtype)
        return _lerp(a, b, t)
    cdf = np.cumsum(weight, dtype=np.float64)
    cdf /= cdf[-1]
    idx = np.minimum(np.searchsorted(cdf, q, side="left"), len(ascending) - 1)
    edges = ascending[idx].astype(np.float64)
    edges[0], edges[-1] = ascending[0], ascending[-1]
    return edges


def _hosmer_lemeshow_pvalue(statistic: float, df: int) -> float:
    if df < 1 or math.isnan(statistic):
        return math.nan
    try:
        from scipy.stats import chi2
    except ImportError:
        raise ImportError("the Hosmer-Lemeshow p-value needs scipy: pip install scipy "
                          "(or pip install 'indist-fast[stats]')") from None
    return float(chi2.sf(statistic, df))


def _clipped(s: np.ndarray, dtype: Any) -> tuple[np.ndarray, np.ndarray]:
    """``p`` and ``1 - p`` as scikit-learn's ``log_loss`` clips them: ``1 - p`` taken in
    the scores' dtype, both clipped to ``[eps, 1 - eps]`` of that dtype."""
    d = np.dtype(dtype)
    eps = np.finfo(d).eps
    p = s.astype(d)
    one = d.type(1)
    return (np.clip(p, eps, one - eps).astype(np.float64),
            np.clip(one - p, eps, one - eps).astype(np.float64))


#: Scores per block of the per-score sums (their temporaries stay small).
BLOCK = 1 << 16


class _ScoreSums(NamedTuple):
    brier: float
    within_bin_variance: float
    within_bin_covariance: float
    log_loss: float


def _runs(values: np.ndarray, bounds: np.ndarray, i: int, j: int) -> np.ndarray:
    """Each score's bin value for the scores ``i:j``, bin ``k`` holding the scores
    ``bounds[k]:bounds[k + 1]``."""
    k0 = int(np.searchsorted(bounds, i, side="right")) - 1
    k1 = int(np.searchsorted(bounds, j, side="left"))
    lengths = np.minimum(bounds[k0 + 1:k1 + 1], j) - np.maximum(bounds[k0:k1], i)
    return np.repeat(values[k0:k1], lengths)


def _score_sums(s: np.ndarray, share_pos: np.ndarray, neg: np.ndarray, total: float,
                w: np.ndarray, bounds: np.ndarray, predicted: np.ndarray,
                observed: np.ndarray, dtype: Any, logits: np.ndarray) -> _ScoreSums:
    """The sums over the scores (ascending ``s`` with their shares of the weight, the
    negatives' taken block by block from ``neg / total``), and each score's clipped
    logit written to ``logits``."""
    d = np.dtype(dtype)
    eps = np.finfo(d).eps
    brier = wbv = wbc = loss = 0.0
    for i in range(0, len(s), BLOCK):
        j = min(i + BLOCK, len(s))
        sc, pc, wc = s[i:j], share_pos[i:j], w[i:j]
        nc = np.divide(neg[i:j], total)
        q = np.subtract(1.0, sc)
        a = np.multiply(q, q)
        a *= pc
        b = np.multiply(sc, sc)
        b *= nc
        brier += float(np.sum(a)) + float(np.sum(b))
        spread = np.subtract(sc, _runs(predicted, bounds, i, j))
        np.multiply(spread, spread, out=a)
        a *= wc
        wbv += float(np.sum(a))
        # sum w (p - f_k) (y - o_k): each bin's sum of w (p - f_k) is 0 (f_k is the
        # bin's weighted mean), so the o_k term adds 0 and only y's share is summed
        np.multiply(pc, spread, out=a)
        wbc += float(np.sum(a))
        if d == np.float64:
            p = np.clip(sc, eps, 1.0 - eps)
            np.clip(q, eps, 1.0 - eps, out=q)
        else:
            p, q = _clipped(sc, d)
        np.log(p, out=p)
        np.log(q, out=q)
        # a share of 0 adds 0: log p and log q are finite after clipping
        np.multiply(pc, p, out=a)
        np.multiply(nc, q, out=b)
        loss -= float(np.sum(a)) + float(np.sum(b))
        np.subtract(p, q, out=logits[i:j])
    return _ScoreSums(brier, wbv, wbc, loss)


def calibration_of(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray, n_rows: int,
                   n_bins: int, strategy: str, dtype: Any = np.float64) -> Calibration:
    """The ``Calibration`` of a score table whose scores lie in [0, 1], for checked
    ``n_bins`` and ``strategy``; ``dtype`` is the dtype the scores had before the
    table (float32 or float64), which scikit-learn's edges and clipping follow.

    Parameters
    ----------
    scores : ndarray of shape (m,)
        Distinct scores in [0, 1], descending.
    pos, neg : ndarray of shape (m,)
        Positive and negative weight (int64 counts, or float64 weights) at each score.
    n_rows : int
        Rows behind the table (zero-weight rows included).
    n_bins : int
        Bins (checked by ``check_binning``).
    strategy : {"uniform", "quantile"}
        Edge placement (checked by ``check_binning``).
    dtype : numpy dtype, default=float64
        The scores' dtype before the table.

    Returns
    -------
    Calibration

    Examples
    --------
    >>> from indist_fast import ScoreTable
    >>> from indist_fast.table.calibration_bins import calibration_of
    >>> t = ScoreTable.from_arrays([1, 0, 0, 1, 1, 0], [0.9, 0.2, 0.7, 0.1, 0.6, 0.5],
    ...                            [1, 2, 1, 1, 1, 1])
    >>> cal = calibration_of(t.scores, t.pos, t.neg, t.n_rows, 3, "uniform")
    >>> cal.prob_true.round(4).tolist(), cal.weight.tolist()
    ([0.3333, 0.5, 0.5], [3.0, 2.0, 2.0])
    """
    if len(scores):
        check_probabilities(float(scores[-1]), float(scores[0]), "the table's scores")
    with np.errstate(over="ignore"):
        wp, wn = float(pos.sum()), float(neg.sum())
    check_weight_total(wp, wn)
    total = wp + wn
    if not total > 0:
        raise ValueError("sample_weight is zero on every row: nothing to evaluate.")
    s = scores[::-1]                            # ascending, as bins and edges run
    pos_up, neg_up = pos[::-1], neg[::-1]
    share_pos = np.divide(pos_up, total)
    w = np.divide(neg_up, total)
    w += share_pos                              # shares of the total weight
    edges = calibration_edges(s, pos_up + neg_up if strategy == "quantile" else None,
                              pos.dtype.kind == "i", n_bins, strategy, dtype)
    # scikit-learn's rule, searchsorted(edges[1:-1], p) (side left): a score on an inner
    # edge belongs to the bin below it; the bins are runs of the ascending scores
    bounds = np.r_[0, np.searchsorted(s, edges[1:-1], side="right"), len(s)]
    kept = np.flatnonzero(bounds[1:] > bounds[:-1])
    starts = bounds[kept]
    # per-bin means from the bins' own sums (exact for counts, as calibration_curve's;
    # counts add exactly in float64)
    raw_w = np.add(pos_up, neg_up, dtype=np.float64)
    bin_weight = np.add.reduceat(raw_w, starts)
    observed = np.add.reduceat(pos_up, starts).astype(np.float64) / bin_weight
    raw_w *= s
    predicted = np.add.reduceat(raw_w, starts) / bin_weight
    del raw_w
    mass = bin_weight / total
    # a mean of values in [0, 1] may round just past them
    np.clip(predicted, 0.0, 1.0, out=predicted)
    gap = np.abs(observed - predicted)
    base = float(np.sum(share_pos))
    logits = np.empty(len(s))
    sums = _score_sums(s, share_pos, neg_up, total, w, np.r_[starts, len(s)], predicted,
                       observed, dtype, logits)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = mass * predicted
        hl_terms = (observed * mass - expected) ** 2 / (expected * (1.0 - predicted))
    hl_terms[(observed * mass - expected) == 0.0] = 0.0
    # the statistic is a ratio of shares: scale both by the total weight (weights read
    # as counts: a total near float64's limit gives an infinite statistic, p-value 0)
    with np.errstate(over="ignore"):
        hl = float(np.sum(hl_terms) * total)
    df = len(kept) - 2
    fit = fit_logits(logits, share_pos, neg_up, w, ascending=True)
    _warn_undefined(fit, df, len(kept))
    return Calibration(
        n_bins=n_bins, strategy=strategy, edges=edges, bin=kept.astype(np.int64),
        prob_pred=predicted, prob_true=observed,
        weight=bin_weight,
        n_rows=n_rows, weight_pos=wp, weight_neg=wn,
        ece=float(np.sum(mass * gap)), mce=float(np.max(gap)),
        brier=sums.brier,
        reliability=float(np.sum(mass * (predicted - observed) ** 2)),
        resolution=float(np.sum(mass * (observed - base) ** 2)),
        uncertainty=base * (1.0 - base),
        within_bin_variance=sums.within_bin_variance,
        within_bin_covariance=sums.within_bin_covariance,
        log_loss=sums.log_loss,
        slope=fit.slope, intercept=fit.intercept, hosmer_lemeshow=hl,
        hosmer_lemeshow_df=df, hosmer_lemeshow_pvalue=_hosmer_lemeshow_pvalue(hl, df))


def _warn_undefined(fit: RecalibrationFit, df: int, kept: int) -> None:
    """One warning naming every field the data leave undefined (NaN), and why."""
    parts = []
    if fit.undefined:
        parts.append(f"slope and intercept are NaN: {fit.undefined}")
    if df < 1:
        parts.append(f"hosmer_lemeshow_pvalue is NaN: {kept} non-empty bin"
                     f"{'s' if kept != 1 else ''} leave{'s' if kept == 1 else ''} no degree "
                     "of freedom (it needs 3 or more; use more bins)")
    if parts:
        warn("calibration: " + "; ".join(parts) + ".", IndistFastWarning)
