# Stubs for the compiled module indist_fast._core._window (src/_window.pyx):
# sliding windows: signed runs, the change of U per batch.
# Results are the named records of indist_fast._core.records.
import numpy as np
from numpy.typing import NDArray

from .records import (WindowBase, WindowStep)

# def window_top(const double[::1] base_s)
def window_top(base_s: NDArray[np.float64]) -> NDArray[np.float64]: ...

# def window_step(const double[::1] base_s, const double[::1] base_top, const double[::1] base_pc,
#                 const double[::1] base_nc, const double[::1] d_s, const double[::1] d_p,
#                 const double[::1] d_n, const int64_t[::1] d_c, const double[::1] x_s,
#                 const uint8_t[::1] x_code, const double[::1] x_w, double total_pos,
#                 double[::1] out_s, double[::1] out_p, double[::1] out_n,
#                 int64_t[::1] out_c)
def window_step(base_s: NDArray[np.float64], base_top: NDArray[np.float64],
                base_pc: NDArray[np.float64],
                base_nc: NDArray[np.float64], d_s: NDArray[np.float64],
                d_p: NDArray[np.float64], d_n: NDArray[np.float64], d_c: NDArray[np.int64],
                x_s: NDArray[np.float64], x_code: NDArray[np.uint8],
                x_w: NDArray[np.float64] | None, total_pos: float, out_s: NDArray[np.float64],
                out_p: NDArray[np.float64], out_n: NDArray[np.float64],
                out_c: NDArray[np.int64]) -> WindowStep: ...

# def window_merge(const double[::1] a_s, const double[::1] a_p, const double[::1] a_n,
#                  const int64_t[::1] a_c, const double[::1] b_s, const double[::1] b_p,
#                  const double[::1] b_n, const int64_t[::1] b_c, double[::1] s,
#                  double[::1] p, double[::1] n, int64_t[::1] c, double[::1] pc,
#                  double[::1] nc)
def window_merge(a_s: NDArray[np.float64], a_p: NDArray[np.float64], a_n: NDArray[np.float64],
                 a_c: NDArray[np.int64], b_s: NDArray[np.float64], b_p: NDArray[np.float64],
                 b_n: NDArray[np.float64], b_c: NDArray[np.int64], s: NDArray[np.float64],
                 p: NDArray[np.float64], n: NDArray[np.float64], c: NDArray[np.int64],
                 pc: NDArray[np.float64], nc: NDArray[np.float64]) -> WindowBase: ...

# (Cython: the doctests of the docstrings, empty)
__test__: dict[str, str]
