# Stubs for the compiled module indist_fast._core._radix (src/_radix.pyx):
# unweighted radix buckets: plan, check, fill, sweep.
# Fused label/score/count types appear as ndarray; the Cython signatures are quoted.
# Results are the named records of indist_fast._core.records.
import numpy as np
from numpy.typing import NDArray

from .records import (PieceSweep)

# def radix_plan(const score_t[::1] s, Py_ssize_t target, Py_ssize_t n_rows=-1)
def radix_plan(s: np.ndarray, target: int, n_rows: int = -1
               ) -> tuple[NDArray[np.uint64], int, NDArray[np.uint8]]: ...

# def radix_check(const label_t[::1] y, const score_t[::1] s, double pos_value,
#                 double neg_value, Py_ssize_t start, Py_ssize_t stop)
def radix_check(y: np.ndarray, s: np.ndarray, pos_value: float, neg_value: float, start: int,
                stop: int) -> tuple[int, int]: ...

# def radix_fill(const label_t[::1] y, const score_t[::1] s, double pos_value,
#                double neg_value, const uint64_t[::1] table, int64_t base,
#                Py_ssize_t start, Py_ssize_t stop, object words, int64_t[::1] links,
#                int64_t[:, ::1] state, int64_t[::1] free, uint8_t[::1] lines,
#                Py_ssize_t block, bint finish)
def radix_fill(y: np.ndarray, s: np.ndarray, pos_value: float, neg_value: float,
               table: NDArray[np.uint64], base: int, start: int, stop: int, words: np.ndarray,
               links: NDArray[np.int64], state: NDArray[np.int64], free: NDArray[np.int64],
               lines: NDArray[np.uint8], block: int, finish: bool) -> None: ...

# def radix_sweep_from(object words, const int64_t[::1] links, const int64_t[:, :, ::1] state,
#                      Py_ssize_t block, const uint8_t[::1] tops, Py_ssize_t top,
#                      Py_ssize_t bottom, Py_ssize_t split, double weight_pos,
#                      double weight_neg, const double[::1] levels, bint exclude_self,
#                      double tp_above, double fp_above, double gap_above, bint checkpoint)
def radix_sweep_from(words: np.ndarray, links: NDArray[np.int64], state: NDArray[np.int64],
                     block: int, tops: NDArray[np.uint8], top: int, bottom: int, split: int,
                     weight_pos: float, weight_neg: float, levels: NDArray[np.float64],
                     exclude_self: bool, tp_above: float, fp_above: float, gap_above: float,
                     checkpoint: bool) -> PieceSweep: ...

# def radix_table(object words, const int64_t[::1] links, const int64_t[:, :, ::1] state,
#                 Py_ssize_t block, const uint8_t[::1] tops, Py_ssize_t top,
#                 Py_ssize_t bottom, double[::1] scores, int64_t[::1] pos, int64_t[::1] neg,
#                 Py_ssize_t offset)
def radix_table(words: np.ndarray, links: NDArray[np.int64], state: NDArray[np.int64],
                block: int, tops: NDArray[np.uint8], top: int, bottom: int,
                scores: NDArray[np.float64], pos: NDArray[np.int64], neg: NDArray[np.int64],
                offset: int) -> int: ...

# def bucket_ids(const score_t[::1] s, const uint64_t[::1] table, int64_t base,
#                Py_ssize_t start, Py_ssize_t stop, uint16_t[::1] ids, object words=None)
def bucket_ids(s: np.ndarray, table: NDArray[np.uint64], base: int, start: int, stop: int,
               ids: NDArray[np.uint16], words: np.ndarray | None = None) -> int: ...

# def sort_buckets(uint64_t[::1] keys, const int64_t[::1] starts, Py_ssize_t bottom,
#                  Py_ssize_t top)
def sort_buckets(keys: NDArray[np.uint64], starts: NDArray[np.int64], bottom: int,
                 top: int) -> None: ...

# def simd_blocks(on=None)
def simd_blocks(on: bool | None = None) -> bool: ...

# (Cython: the doctests of the docstrings, empty)
__test__: dict[str, str]
