# Stubs for the compiled module indist_fast._core._keys (src/_keys.pyx):
# weighted rows as packed uint64 keys; DeLong components.
# Fused label/score/count types appear as ndarray; the Cython signatures are quoted.
# Results are the named records of indist_fast._core.records.
import numpy as np
from numpy.typing import NDArray

from .records import (KeySweep, PieceSweep)
from .records import Table as _Table

_Costs = tuple[float, float, float] | None

# def index_bits_for(Py_ssize_t n)
def index_bits_for(n: int) -> int: ...

# def scatter_keys(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
#                  double pos_value, double pivot, Py_ssize_t start, Py_ssize_t stop,
#                  int index_bits, uint64_t[::1] keys_out, double[:, ::1] rows_out,
#                  Py_ssize_t lo, Py_ssize_t hi)
def scatter_keys(y: np.ndarray, s: np.ndarray, w: NDArray[np.float64] | None, pos_value: float,
                 pivot: float, start: int, stop: int, index_bits: int,
                 keys_out: NDArray[np.uint64], rows_out: NDArray[np.float64],
                 lo: int, hi: int) -> None: ...

# def summarize_keys(const uint64_t[::1] keys_hi, const uint64_t[::1] keys_lo,
#                    const double[:, ::1] rows, int index_bits, double weight_pos,
#                    double weight_neg, const double[::1] levels, bint exclude_self,
#                    object costs=None)
def summarize_keys(keys_hi: NDArray[np.uint64], keys_lo: NDArray[np.uint64],
                   rows: NDArray[np.float64], index_bits: int, weight_pos: float,
                   weight_neg: float, levels: NDArray[np.float64], exclude_self: bool,
                   costs: _Costs = ...) -> KeySweep: ...

# def summarize_keys_from(const uint64_t[::1] keys, const double[:, ::1] rows,
#                         int index_bits, double weight_pos, double weight_neg,
#                         const double[::1] levels, bint exclude_self, double tp_above,
#                         double tp_above_err, double fp_above, double gap_above,
#                         Py_ssize_t split=-1)
def summarize_keys_from(keys: NDArray[np.uint64], rows: NDArray[np.float64], index_bits: int,
                        weight_pos: float, weight_neg: float, levels: NDArray[np.float64],
                        exclude_self: bool, tp_above: float, tp_above_err: float,
                        fp_above: float, gap_above: float,
                        split: int = ...) -> PieceSweep: ...

# def table_from_keys(const uint64_t[::1] keys_hi, const uint64_t[::1] keys_lo,
#                     const double[:, ::1] rows, int index_bits)
def table_from_keys(keys_hi: NDArray[np.uint64], keys_lo: NDArray[np.uint64],
                    rows: NDArray[np.float64], index_bits: int) -> _Table: ...

# def delong_components(const uint64_t[::1] keys, const double[:, ::1] rows, int index_bits,
#                       double pos_above, double neg_above, double weight_pos,
#                       double weight_neg, double[::1] component_out)
def delong_components(keys: NDArray[np.uint64], rows: NDArray[np.float64], index_bits: int,
                      pos_above: float, neg_above: float, weight_pos: float,
                      weight_neg: float, component_out: NDArray[np.float64]) -> float: ...

# def simd_blocks(on=None)
def simd_blocks(on: bool | None = None) -> bool: ...

# (Cython: the doctests of the docstrings, empty)
__test__: dict[str, str]
