# Stubs for the compiled module indist_fast._core._sorted (src/_sorted.pyx):
# unweighted rows split by class and pivot, sorted pieces merged; the small path.
# Fused label/score/count types appear as ndarray; the Cython signatures are quoted.
# Results are the named records of indist_fast._core.records.
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .records import (PieceSweep, RowCounts, SweepResult)
from .records import Table as _Table

_Costs = tuple[float, float, float] | None

# def count_rows(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
#                double pos_value, double neg_value, double pivot,
#                Py_ssize_t start, Py_ssize_t stop)
def count_rows(y: np.ndarray, s: np.ndarray, w: NDArray[np.float64] | None,
               pos_value: float, neg_value: float, pivot: float, start: int,
               stop: int) -> RowCounts: ...

# def scatter_scores(const label_t[::1] y, const score_t[::1] s, double pos_value,
#                    double pivot, Py_ssize_t start, Py_ssize_t stop,
#                    score_t[::1] pos_out, score_t[::1] neg_out, Py_ssize_t pos_lo,
#                    Py_ssize_t pos_hi, Py_ssize_t neg_lo, Py_ssize_t neg_hi)
def scatter_scores(y: np.ndarray, s: np.ndarray, pos_value: float, pivot: float,
                   start: int, stop: int, pos_out: np.ndarray, neg_out: np.ndarray,
                   pos_lo: int, pos_hi: int, neg_lo: int, neg_hi: int) -> None: ...

# def summarize_sorted(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
#                      const score_t[::1] pos_lo, const score_t[::1] neg_lo,
#                      const double[::1] levels, bint exclude_self, object costs=None)
def summarize_sorted(pos_hi: np.ndarray, neg_hi: np.ndarray, pos_lo: np.ndarray,
                     neg_lo: np.ndarray, levels: NDArray[np.float64], exclude_self: bool,
                     costs: _Costs = ...) -> SweepResult: ...

# def table_from_sorted(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
#                       const score_t[::1] pos_lo, const score_t[::1] neg_lo)
def table_from_sorted(pos_hi: np.ndarray, neg_hi: np.ndarray, pos_lo: np.ndarray,
                      neg_lo: np.ndarray) -> _Table: ...

# def summarize_sorted_from(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
#                           const score_t[::1] pos_lo, const score_t[::1] neg_lo,
#                           double weight_pos, double weight_neg, const double[::1] levels,
#                           bint exclude_self, double tp_above, double fp_above,
#                           double gap_above, bint checkpoint)
def summarize_sorted_from(pos_hi: np.ndarray, neg_hi: np.ndarray, pos_lo: np.ndarray,
                          neg_lo: np.ndarray, weight_pos: float, weight_neg: float,
                          levels: NDArray[np.float64], exclude_self: bool, tp_above: float,
                          fp_above: float, gap_above: float, checkpoint: bool) -> PieceSweep: ...

# def summarize_small(const label_t[::1] y, const score_t[::1] s, double pos_value,
#                     double neg_value, const double[::1] levels, bint exclude_self)
def summarize_small(y: np.ndarray, s: np.ndarray, pos_value: float, neg_value: float,
                    levels: NDArray[np.float64], exclude_self: bool) -> SweepResult | None: ...

# def auc_small(object y, object s, Py_ssize_t max_rows)
def auc_small(y: Any, s: Any, max_rows: int) -> float | None: ...

# def summarize_plain(object y, object s, const double[::1] levels, bint exclude_self,
#                     Py_ssize_t max_rows)
def summarize_plain(y: Any, s: Any, levels: NDArray[np.float64], exclude_self: bool,
                    max_rows: int) -> SweepResult | None: ...

# def sweep_scale(double weight_pos, double weight_neg)
def sweep_scale(weight_pos: float, weight_neg: float) -> float: ...
# def simd_blocks(on=None)
def simd_blocks(on: bool | None = None) -> bool: ...

# (Cython: the doctests of the docstrings, empty)
__test__: dict[str, str]
