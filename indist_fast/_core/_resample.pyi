# Stubs for the compiled module indist_fast._core._resample (src/_resample.pyx).
import numpy as np
from numpy.typing import NDArray

from .results import ReplicateCounts

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

__test__: dict[str, str]
