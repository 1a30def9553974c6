# Stubs for the compiled module indist_fast._core._multiclass (src/_multiclass.pyx):
# several classes: score columns, pair counts of one sorted column.
import numpy as np
from numpy.typing import NDArray

# def transpose_rows(const double[:, ::1] p, double[:, ::1] columns, double[::1] sums,
#                    Py_ssize_t start, Py_ssize_t stop)
def transpose_rows(p: NDArray[np.float64], columns: NDArray[np.float64],
                   sums: NDArray[np.float64], start: int, stop: int) -> None: ...

# def packed_keys(const int64_t[::1] codes, const double[::1] col, int bits, uint64_t lo,
#                 bint exact, bint signed)
def packed_keys(codes: NDArray[np.int64], col: NDArray[np.float64], bits: int, lo: int,
                exact: bool, signed: bool) -> NDArray[np.uint64]: ...

# def sorted_pair_counts(const uint64_t[::1] keys, int bits, int64_t positive)
def sorted_pair_counts(keys: NDArray[np.uint64], bits: int,
                       positive: int) -> tuple[NDArray[np.int64], int]: ...

# def ordered_pair_counts(const cnp.npy_intp[::1] order, const double[::1] col,
#                         const int64_t[::1] codes, const double[::1] w, int64_t positive,
#                         Py_ssize_t n_classes)
def ordered_pair_counts(order: NDArray[np.intp], col: NDArray[np.float64],
                        codes: NDArray[np.int64], w: NDArray[np.float64] | None,
                        positive: int, n_classes: int) -> NDArray[np.float64]: ...

# (Cython: the doctests of the docstrings, empty)
__test__: dict[str, str]
