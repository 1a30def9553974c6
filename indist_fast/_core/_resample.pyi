# Stubs for the compiled module indist_fast._core._resample (src/_resample.pyx).
import numpy as np
from numpy.typing import NDArray

from .records import ReplicateCounts

# def replicate_counts(object bit_generator, const int64_t[::1] pos_group,
#                      const double[::1] pos_weight, const int64_t[::1] neg_group,
#                      const double[::1] neg_weight, Py_ssize_t n_groups, bint stratified)
def replicate_counts(bit_generator: np.random.BitGenerator, pos_group: NDArray[np.int64],
                     pos_weight: NDArray[np.float64] | None, neg_group: NDArray[np.int64],
                     neg_weight: NDArray[np.float64] | None, n_groups: int,
                     stratified: bool) -> ReplicateCounts: ...

# def replicate_sweeps(list bit_generators, const int64_t[::1] pos_group,
#                      const double[::1] pos_weight, const int64_t[::1] neg_group,
#                      const double[::1] neg_weight, const double[::1] scores,
#                      bint stratified, const double[::1] levels, bint exclude_self,
#                      double[:, ::1] out)
def replicate_sweeps(bit_generators: list[np.random.BitGenerator],
                     pos_group: NDArray[np.int64], pos_weight: NDArray[np.float64] | None,
                     neg_group: NDArray[np.int64], neg_weight: NDArray[np.float64] | None,
                     scores: NDArray[np.float64], stratified: bool,
                     levels: NDArray[np.float64], exclude_self: bool,
                     out: NDArray[np.float64]) -> None: ...

# def child_raw(const uint32_t[::1] prefix, uint32_t g, uint32_t k, Py_ssize_t n)
def child_raw(prefix: NDArray[np.uint32], g: int, k: int, n: int) -> NDArray[np.uint64]: ...

# def segment_replicate_sweeps(const uint32_t[::1] prefix, const int64_t[::1] segments,
#                              const int64_t[::1] keys, Py_ssize_t n_boot, ...)
def segment_replicate_sweeps(prefix: NDArray[np.uint32], segments: NDArray[np.int64],
                             keys: NDArray[np.int64], n_boot: int,
                             pos_start: NDArray[np.int64], pos_group: NDArray[np.int64],
                             pos_weight: NDArray[np.float64] | None,
                             neg_start: NDArray[np.int64], neg_group: NDArray[np.int64],
                             neg_weight: NDArray[np.float64] | None,
                             group_start: NDArray[np.int64], scores: NDArray[np.float64],
                             stratified: bool, levels: NDArray[np.float64],
                             exclude_self: bool, out: NDArray[np.float64]) -> None: ...

# def segment_order(const int64_t[::1] codes, const double[::1] s, Py_ssize_t n_segments)
def segment_order(codes: NDArray[np.int64], s: NDArray[np.float64],
                  n_segments: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...

__test__: dict[str, str]

# def simd_blocks(on=None)
def simd_blocks(on: bool | None = None) -> bool: ...
