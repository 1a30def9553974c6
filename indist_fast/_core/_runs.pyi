# Stubs for the compiled module indist_fast._core._runs (src/_runs.pyx):
# sorted runs merged in one streaming sweep (out of core).
# Fused label/score/count types appear as ndarray; the Cython signatures are quoted.
# Results are the named records of indist_fast._core.records.
import numpy as np
from numpy.typing import NDArray

from .records import (RangeSweep, SweepResult)

_Costs = tuple[float, float, float] | None

# def summarize_runs(list runs, const double[::1] levels, bint exclude_self,
#                    object costs=None, Py_ssize_t held_bytes=1 << 26)
def summarize_runs(runs: list[tuple[np.ndarray, bool]], levels: NDArray[np.float64],
                   exclude_self: bool, costs: _Costs = ...,
                   held_bytes: int = ...) -> SweepResult: ...

# def sweep_range(const double[::1] scores, const count_t[::1] tp, const count_t[::1] fp,
#                 const double[::1] levels, bint exclude_self, double weight_pos,
#                 double weight_neg, double tp_above, double fp_above, double b_above)
def sweep_range(scores: NDArray[np.float64], tp: np.ndarray, fp: np.ndarray,
                levels: NDArray[np.float64], exclude_self: bool, weight_pos: float,
                weight_neg: float, tp_above: float, fp_above: float,
                b_above: float) -> RangeSweep: ...

# def simd_blocks(on=None)
def simd_blocks(on: bool | None = None) -> bool: ...

# (Cython: the doctests of the docstrings, empty)
__test__: dict[str, str]
