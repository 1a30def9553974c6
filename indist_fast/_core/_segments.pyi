# Stubs for the compiled module indist_fast._core._segments (src/_segments.pyx):
# every segment of the rows in one call.
# Fused label/score/count types appear as ndarray; the Cython signatures are quoted.
# Results are the named records of indist_fast._core.records.
import numpy as np
from numpy.typing import NDArray

# def count_segments(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
#                    const int64_t[::1] codes, double pos_value, double neg_value,
#                    int64_t[::1] counts, Py_ssize_t start, Py_ssize_t stop)
def count_segments(y: np.ndarray, s: np.ndarray, w: NDArray[np.float64] | None,
                   codes: NDArray[np.int64], pos_value: float, neg_value: float,
                   counts: NDArray[np.int64], start: int, stop: int) -> tuple[int, int]: ...

# def place_segments(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
#                    const int64_t[::1] codes, double pos_value, int64_t[::1] cursor,
#                    double[::1] scores, double[::1] weights, Py_ssize_t start,
#                    Py_ssize_t stop)
def place_segments(y: np.ndarray, s: np.ndarray, w: NDArray[np.float64] | None,
                   codes: NDArray[np.int64], pos_value: float, cursor: NDArray[np.int64],
                   scores: NDArray[np.float64], weights: NDArray[np.float64] | None,
                   start: int, stop: int) -> None: ...

# def pad_pieces(double[::1] scores, const int64_t[::1] begin, const int64_t[::1] size,
#                const int64_t[::1] length)
def pad_pieces(scores: NDArray[np.float64], begin: NDArray[np.int64], size: NDArray[np.int64],
               length: NDArray[np.int64]) -> None: ...

# def sweep_placed_segments(const double[::1] scores, const double[::1] weights,
#                           const int64_t[::1] begin, const int64_t[::1] size,
#                           const int64_t[::1] n_rows, const double[::1] levels,
#                           bint exclude_self, double[:, ::1] out,
#                           double[:, :, ::1] crossings, Py_ssize_t first=0,
#                           Py_ssize_t stop=-1)
def sweep_placed_segments(scores: NDArray[np.float64], weights: NDArray[np.float64] | None,
                          begin: NDArray[np.int64], size: NDArray[np.int64],
                          n_rows: NDArray[np.int64], levels: NDArray[np.float64],
                          exclude_self: bool, out: NDArray[np.float64],
                          crossings: NDArray[np.float64], first: int = ...,
                          stop: int = ...) -> None: ...

__test__: dict[str, str]

# def simd_blocks(on=None)
def simd_blocks(on: bool | None = None) -> bool: ...
