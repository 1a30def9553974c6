# Stubs for the compiled module indist_fast._core._radix_weighted (src/_radix_weighted.pyx):
# weighted radix buckets: fill, sweep, table.
# Fused label/score/count types appear as ndarray; the Cython signatures are quoted.
# Results are the named records of indist_fast._core.records.
import numpy as np
from numpy.typing import NDArray

from .records import (PieceSweep)
from .records import Table as _Table

# def radix_fill_weighted(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
#                         double pos_value, double neg_value, const uint64_t[::1] table,
#                         int64_t base, Py_ssize_t start, Py_ssize_t stop, double[::1] rows,
#                         int64_t[::1] links, int64_t[:, ::1] state, int64_t[::1] free,
#                         uint8_t[::1] lines, Py_ssize_t block, bint finish)
def radix_fill_weighted(y: np.ndarray, s: np.ndarray, w: NDArray[np.float64], pos_value: float,
                        neg_value: float, table: NDArray[np.uint64], base: int, start: int,
                        stop: int, rows: NDArray[np.float64], links: NDArray[np.int64],
                        state: NDArray[np.int64], free: NDArray[np.int64],
                        lines: NDArray[np.uint8], block: int, finish: bool) -> None: ...

# def radix_sweep_weighted_from(double[::1] rows, const int64_t[::1] links,
#                               const int64_t[:, :, ::1] state, Py_ssize_t block,
#                               Py_ssize_t top, Py_ssize_t bottom, Py_ssize_t split,
#                               double weight_pos, double weight_neg,
#                               const double[::1] levels, bint exclude_self, double tp_above,
#                               double tp_above_err, double fp_above, double gap_above,
#                               bint checkpoint, object costs=None)
def radix_sweep_weighted_from(rows: NDArray[np.float64], links: NDArray[np.int64],
                              state: NDArray[np.int64], block: int, top: int, bottom: int,
                              split: int, weight_pos: float, weight_neg: float,
                              levels: NDArray[np.float64], exclude_self: bool,
                              tp_above: float, tp_above_err: float, fp_above: float,
                              gap_above: float, checkpoint: bool,
                              costs: object = None) -> PieceSweep: ...

# def radix_table_weighted(const double[::1] rows, const int64_t[::1] links,
#                          const int64_t[:, :, ::1] state, Py_ssize_t block)
def radix_table_weighted(rows: NDArray[np.float64], links: NDArray[np.int64],
                         state: NDArray[np.int64], block: int) -> _Table: ...

# def simd_blocks(on=None)
def simd_blocks(on: bool | None = None) -> bool: ...

# (Cython: the doctests of the docstrings, empty)
__test__: dict[str, str]
