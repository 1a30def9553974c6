"""NumPy reference twin of the compiled kernels.

Same functions, arguments and return values as ``indist_fast._fast`` (which drives
``indist_fast._kernels``). It is the fallback when the kernels cannot be imported and
the oracle the tests hold the kernels to. Clarity beats speed here; the arithmetic
follows the kernels' operation order (sequential cumulative sums) so that both
backends pick the same operating point.

Sweeps return an ``indist_fast._result.SweepResult``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._result import SweepResult
from ._validation import raise_row_errors

__all__ = ["build_table", "summarize", "sweep_table", "merge_tables", "curve_columns"]


class CurveColumns(NamedTuple):
    """Cumulative quantities per operating point (SPEC §1, §3), in descending order."""

    tp: np.ndarray
    fp: np.ndarray
    b_num: np.ndarray
    b_plus_num: np.ndarray
    b_minus_num: np.ndarray
    b_den: np.ndarray


def curve_columns(scores: np.ndarray, tp: np.ndarray, fp: np.ndarray,
                  exclude_self: bool) -> CurveColumns:
    """Prefix sums of a score table: TP_j, FP_j and the numerators/denominator of B_j."""
    tp = tp.astype(np.float64, copy=False)
    fp = fp.astype(np.float64, copy=False)
    self_pairs = 1.0 if exclude_self else 0.0
    cum_tp = np.cumsum(tp)
    cum_fp = np.cumsum(fp)
    above = np.concatenate(([0.0], cum_tp[:-1]))   # positive weight strictly above
    half = tp * 0.5
    b_plus = np.cumsum(tp * (above + half) - half * self_pairs)
    b_minus = np.cumsum(fp * (above + half))
    b_num = np.cumsum((tp + fp) * (above + half) - half * self_pairs)
    weight_pos = cum_tp[-1] if len(cum_tp) else 0.0
    b_den = weight_pos * (cum_tp + cum_fp) - cum_tp * self_pairs
    return CurveColumns(cum_tp, cum_fp, b_num, b_plus, b_minus, b_den)


def sweep_table(scores: np.ndarray, tp: np.ndarray, fp: np.ndarray,
                levels: np.ndarray, exclude_self: bool) -> tuple:
    """AUC, AP and the level crossings of a score table (see module docstring)."""
    cols = curve_columns(scores, tp, fp, exclude_self)
    tpg = tp.astype(np.float64, copy=False)
    fpg = fp.astype(np.float64, copy=False)
    m = len(scores)
    weight_pos = float(cols.tp[-1]) if m else 0.0
    weight_neg = float(cols.fp[-1]) if m else 0.0
    above = cols.tp - tpg
    auc_num = np.sum(fpg * (above + tpg * 0.5))
    ap_num = np.sum(tpg * (cols.tp / (cols.tp + cols.fp))) if m else 0.0
    defined = cols.b_den > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(defined, cols.b_num / cols.b_den, np.nan)
    crossings = np.full((len(levels), 5), np.nan)
    for k, level in enumerate(levels):
        hits = np.flatnonzero(defined & (cols.b_num >= level * cols.b_den))
        if len(hits):
            j = hits[0]
            crossings[k] = [j, scores[j], cols.tp[j], cols.fp[j], b[j]]
    both = weight_pos > 0 and weight_neg > 0
    return SweepResult(
        m, int(np.count_nonzero(~defined)), weight_pos, weight_neg,
        auc_num / (weight_pos * weight_neg) if both else np.nan,
        ap_num / weight_pos if weight_pos > 0 else np.nan,
        float(b[-1]) if m else np.nan, crossings)


def build_table(y: np.ndarray, s: np.ndarray, w: np.ndarray | None,
                pos_value: float, neg_value: float) -> tuple:
    """Distinct scores (descending) with positive and negative weight at each.

    Counts are int64 without weights and float64 with them; zero-weight rows are
    dropped. Raises ValueError for NaN scores, third labels and bad weights.
    """
    is_pos = y == pos_value
    nan_rows = np.flatnonzero(np.isnan(s))
    bad_labels = np.flatnonzero(~is_pos & (y != neg_value))
    bad_weights = (np.flatnonzero(~(np.isfinite(w) & (w >= 0))) if w is not None
                   else np.empty(0, np.intp))
    raise_row_errors(_first(bad_labels), _first(nan_rows), _first(bad_weights), y, s, w)
    s = s.astype(np.float64)
    if w is not None:
        keep = w > 0
        s, is_pos, w = s[keep], is_pos[keep], w[keep]
    scores, inverse = np.unique(s, return_inverse=True)
    m = len(scores)
    if w is None:
        tp = np.bincount(inverse[is_pos], minlength=m).astype(np.int64)
        fp = np.bincount(inverse[~is_pos], minlength=m).astype(np.int64)
    else:
        tp = np.bincount(inverse[is_pos], weights=w[is_pos], minlength=m)
        fp = np.bincount(inverse[~is_pos], weights=w[~is_pos], minlength=m)
    return scores[::-1].copy(), tp[::-1].copy(), fp[::-1].copy()


def summarize(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, pos_value: float,
              neg_value: float, levels: np.ndarray, exclude_self: bool) -> SweepResult:
    """Sweep result of raw rows: ``sweep_table(*build_table(...))``."""
    return sweep_table(*build_table(y, s, w, pos_value, neg_value), levels, exclude_self)


def merge_tables(s1: np.ndarray, tp1: np.ndarray, fp1: np.ndarray,
                 s2: np.ndarray, tp2: np.ndarray, fp2: np.ndarray) -> tuple:
    """Merge two descending score tables, adding the weights of equal scores."""
    scores, inverse = np.unique(np.concatenate((s1, s2)), return_inverse=True)
    m = len(scores)
    tp = np.zeros(m, dtype=np.result_type(tp1, tp2))
    fp = np.zeros(m, dtype=tp.dtype)
    np.add.at(tp, inverse, np.concatenate((tp1, tp2)))
    np.add.at(fp, inverse, np.concatenate((fp1, fp2)))
    return scores[::-1].copy(), tp[::-1].copy(), fp[::-1].copy()


def _first(rows: np.ndarray) -> int:
    return int(rows[0]) if len(rows) else -1
