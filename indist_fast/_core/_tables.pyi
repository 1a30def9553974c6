# Stubs for the compiled module indist_fast._core._tables (src/_tables.pyx):
# score tables: sweep, merge, DeLong sums, paired moments.
# Fused label/score/count types appear as ndarray; the Cython signatures are quoted.
# Results are the named records of indist_fast._core.records.
import numpy as np
from numpy.typing import NDArray

from .records import (DeLongSums, SweepResult)
from .records import Table as _Table

_Costs = tuple[float, float, float] | None

# def sweep_table(const double[::1] scores, const count_t[::1] tp,
#                 const count_t[::1] fp, const double[::1] levels, bint exclude_self,
#                 object costs=None)
def sweep_table(scores: NDArray[np.float64], tp: np.ndarray, fp: np.ndarray,
                levels: NDArray[np.float64], exclude_self: bool,
                costs: _Costs = ...) -> SweepResult: ...

# def merge_tables(const double[::1] s1, const count_t[::1] tp1, const count_t[::1] fp1,
#                  const double[::1] s2, const count_t[::1] tp2, const count_t[::1] fp2)
def merge_tables(s1: NDArray[np.float64], tp1: np.ndarray, fp1: np.ndarray,
                 s2: NDArray[np.float64], tp2: np.ndarray, fp2: np.ndarray) -> _Table: ...

# def delong_sums(const count_t[::1] tp, const count_t[::1] fp)
def delong_sums(tp: np.ndarray, fp: np.ndarray) -> DeLongSums: ...

# def paired_moments(const label_t[::1] y, double pos_value, const double[::1] w,
#                    double weight_total, const double[::1] a, const double[::1] b)
def paired_moments(y: np.ndarray, pos_value: float, w: NDArray[np.float64] | None,
                   weight_total: float, a: NDArray[np.float64],
                   b: NDArray[np.float64]) -> tuple[float, float, float, float]: ...

# def simd_blocks(on=None)
def simd_blocks(on: bool | None = None) -> bool: ...

# (Cython: the doctests of the docstrings, empty)
__test__: dict[str, str]
