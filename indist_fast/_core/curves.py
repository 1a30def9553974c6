"""Every operating point of a score table at once: the vectorised sweep.

The facade reads whole curves (``Curves``, threshold choice) from these columns; the
NumPy reference twin builds its sweep on them too, so the kernels' sweep
(``sweep.pxd``) is held to the same operations in the same order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .rates import clamp_b, weight_scale


class CurveColumns(NamedTuple):
    """Cumulative quantities per operating point (definitions page, "B(r)"), descending.

    ``tp``, ``fp`` are TP_j, FP_j; ``b``, ``b_plus``, ``b_minus`` are B and its split
    (rounding past 0 or 1 absorbed by ``clamp_b``, otherwise B's exact value, which
    fractional weights can carry outside [0, 1]; NaN where ``defined`` is False, i.e.
    Den_j <= 0); ``gap`` is
    G_j = 2 Num_j - Den_j and ``den`` is Den_j, both in the sweep's scaled units.
    """

    tp: np.ndarray
    fp: np.ndarray
    b: np.ndarray
    b_plus: np.ndarray
    b_minus: np.ndarray
    defined: np.ndarray
    gap: np.ndarray
    den: np.ndarray


def _columns(tp: np.ndarray, fp: np.ndarray, exclude_self: bool, weight_pos: float,
             weight_neg: float, tp_above: float = 0.0, fp_above: float = 0.0,
             gap_above: float = 0.0) -> tuple[CurveColumns, float, np.ndarray, np.ndarray]:
    """The sweep of ``sweep.pxd`` over groups, vectorised with the same operations in
    the same order (``_tables.sweep_table`` and ``sweep_range`` agree with it to the
    bit): ``(columns, scale, tp_g, fp_g)`` with the group weights scaled (see
    ``indist_fast._core.rates.weight_scale``).

    TP is ``tp_above`` plus the groups' weights summed in order, and B is
    ``1/2 + G / (2 Den)`` with ``G = 2 Num - Den = sum_g (tp_g + fp_g) (above_g -
    (W_P - TP_g))``: the self-pair terms cancel, and G is exactly 0 where B is 1/2 by
    structure (all scores tied, all positive weight in the top group, mirror groups),
    given that ``weight_pos`` is the TP the groups end at.
    """
    s = _Scaled.of(tp, fp, exclude_self, weight_pos, weight_neg, tp_above, fp_above,
                   gap_above)
    scale, tpg, fpg, cum_tp, cum_fp, above, gap = (s.scale, s.tpg, s.fpg, s.cum_tp,
                                                   s.cum_fp, s.above, s.gap)
    half = tpg * 0.5
    self_pairs = s.self_pairs
    den = s.den(slice(None))
    defined = den > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        b = _b(gap, den)
        b_plus = np.where(defined, clamp_b(
            np.cumsum(tpg * (above + half) - half * self_pairs) / den), np.nan)
        b_minus = np.where(defined, clamp_b(np.cumsum(fpg * (above + half)) / den), np.nan)
    cols = CurveColumns(cum_tp / scale, cum_fp / scale, b, b_plus, b_minus, defined, gap,
                        den)
    return cols, scale, tpg, fpg


class _Scaled(NamedTuple):
    """The running sums every column of ``_columns`` starts from, in the sweep's scaled
    units (one place, so a subset of the columns is the same to the bit)."""

    scale: float
    wp: float
    self_pairs: float
    tpg: np.ndarray
    fpg: np.ndarray
    cum_tp: np.ndarray
    cum_fp: np.ndarray
    above: np.ndarray
    gap: np.ndarray

    @classmethod
    def of(cls, tp: np.ndarray, fp: np.ndarray, exclude_self: bool, weight_pos: float,
           weight_neg: float, tp_above: float = 0.0, fp_above: float = 0.0,
           gap_above: float = 0.0) -> "_Scaled":
        scale = weight_scale(weight_pos, weight_neg)
        wp = weight_pos * scale
        tp = tp.astype(np.float64, copy=False)
        fp = fp.astype(np.float64, copy=False)
        cum_tp = np.cumsum(tp)
        if tp_above != 0.0:
            cum_tp += tp_above
        # (x * 1.0 is x to the bit: the usual scale of 1 costs no passes)
        if scale != 1.0:
            cum_tp *= scale
        tpg, fpg = (tp, fp) if scale == 1.0 else (tp * scale, fp * scale)
        cum_fp = np.cumsum(np.r_[fp_above * scale, fpg])[1:]
        above = np.r_[tp_above * scale, cum_tp[:-1]]
        gap = np.cumsum(np.r_[gap_above, (tpg + fpg) * (above - (wp - cum_tp))])[1:]
        return cls(scale, wp, scale if exclude_self else 0.0, tpg, fpg, cum_tp, cum_fp,
                   above, gap)

    def den(self, k: "slice | np.ndarray") -> np.ndarray:
        """Den_j at points ``k``."""
        cum_tp = self.cum_tp[k]
        out: np.ndarray = self.wp * (cum_tp + self.cum_fp[k]) - cum_tp * self.self_pairs
        return out


def _b(gap: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        b: np.ndarray = np.where(den > 0, clamp_b(0.5 + 0.5 * (gap / den)), np.nan)
    return b


def b_at(tp: np.ndarray, fp: np.ndarray, exclude_self: bool, weight_pos: float,
         weight_neg: float, k: np.ndarray) -> np.ndarray:
    """``_columns(...)[0].b[k]`` without the other columns (B+, B-) or B at every other
    point: the running sums over all groups, then B at ``k`` only."""
    s = _Scaled.of(tp, fp, exclude_self, weight_pos, weight_neg)
    return _b(s.gap[k], s.den(k))


def curve_columns(scores: np.ndarray, tp: np.ndarray, fp: np.ndarray,
                  exclude_self: bool) -> CurveColumns:
    """Every operating point of a score table: TP_j, FP_j and B, B+, B-.

    See the definitions page of the documentation, "B(r)".
    """
    tp = tp.astype(np.float64, copy=False)
    fp = fp.astype(np.float64, copy=False)
    weight_pos = float(np.cumsum(tp)[-1]) if len(tp) else 0.0
    weight_neg = float(np.cumsum(fp)[-1]) if len(fp) else 0.0
    return _columns(tp, fp, exclude_self, weight_pos, weight_neg)[0]
