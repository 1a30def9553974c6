# Stubs for the compiled module indist_fast._core._kernels (src/_kernels.pyx).
# Fused label/score/count types appear as ndarray; the Cython signatures are quoted.
# Results are the named records of indist_fast._core.records.
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .records import (CostSettings, DeLongSums, KeySweep, PieceSweep, RangeSweep, RowCounts,
                      SweepResult)
from .records import Table as _Table

_Costs = tuple[float, float, float] | None

# def count_rows(const label_t[::1] y, const score_t[::1] s, const double[::1] w,
#                double pos_value, double neg_value, double pivot,
#                Py_ssize_t start, Py_ssize_t stop)
def count_rows(y: np.ndarray, s: np.ndarray, w: NDArray[np.float64] | None,
               pos_value: float, neg_value: float, pivot: float, start: int,
               stop: int) -> RowCounts: ...

# def scatter_scores(const label_t[::1] y, const score_t[::1] s, double pos_value,
#                    double pivot, Py_ssize_t start, Py_ssize_t stop,
#                    score_t[::1] pos_out, score_t[::1] neg_out, Py_ssize_t pos_lo,
#                    Py_ssize_t pos_hi, Py_ssize_t neg_lo, Py_ssize_t neg_hi)
def scatter_scores(y: np.ndarray, s: np.ndarray, pos_value: float, pivot: float,
                   start: int, stop: int, pos_out: np.ndarray, neg_out: np.ndarray,
                   pos_lo: int, pos_hi: int, neg_lo: int, neg_hi: int) -> None: ...

# def summarize_sorted(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
#                      const score_t[::1] pos_lo, const score_t[::1] neg_lo,
#                      const double[::1] levels, bint exclude_self, object costs=None)
def summarize_sorted(pos_hi: np.ndarray, neg_hi: np.ndarray, pos_lo: np.ndarray,
                     neg_lo: np.ndarray, levels: NDArray[np.float64], exclude_self: bool,
                     costs: _Costs = ...) -> SweepResult: ...

# def table_from_sorted(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
#                       const score_t[::1] pos_lo, const score_t[::1] neg_lo)
def table_from_sorted(pos_hi: np.ndarray, neg_hi: np.ndarray, pos_lo: np.ndarray,
                      neg_lo: np.ndarray) -> _Table: ...

# def summarize_sorted_from(const score_t[::1] pos_hi, const score_t[::1] neg_hi,
#                           const score_t[::1] pos_lo, const score_t[::1] neg_lo,
#                           double weight_pos, double weight_neg, const double[::1] levels,
#                           bint exclude_self, double tp_above, double fp_above,
#                           double gap_above, bint checkpoint)
def summarize_sorted_from(pos_hi: np.ndarray, neg_hi: np.ndarray, pos_lo: np.ndarray,
                          neg_lo: np.ndarray, weight_pos: float, weight_neg: float,
                          levels: NDArray[np.float64], exclude_self: bool, tp_above: float,
                          fp_above: float, gap_above: float, checkpoint: bool) -> PieceSweep: ...

# def summarize_small(const label_t[::1] y, const score_t[::1] s, double pos_value,
#                     double neg_value, const double[::1] levels, bint exclude_self)
def summarize_small(y: np.ndarray, s: np.ndarray, pos_value: float, neg_value: float,
                    levels: NDArray[np.float64], exclude_self: bool) -> SweepResult | None: ...

# def auc_small(object y, object s, Py_ssize_t max_rows)
def auc_small(y: Any, s: Any, max_rows: int) -> float | None: ...

# def summarize_plain(object y, object s, const double[::1] levels, bint exclude_self,
#                     Py_ssize_t max_rows)
def summarize_plain(y: Any, s: Any, levels: NDArray[np.float64], exclude_self: bool,
                    max_rows: int) -> SweepResult | None: ...

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

# def bucket_ids(const score_t[::1] s, const uint64_t[::1] table, int64_t base,
#                Py_ssize_t start, Py_ssize_t stop, uint16_t[::1] ids, object words=None)
def bucket_ids(s: np.ndarray, table: NDArray[np.uint64], base: int, start: int, stop: int,
               ids: NDArray[np.uint16], words: np.ndarray | None = None) -> int: ...

# def sort_buckets(uint64_t[::1] keys, const int64_t[::1] starts, Py_ssize_t bottom,
#                  Py_ssize_t top)
def sort_buckets(keys: NDArray[np.uint64], starts: NDArray[np.int64], bottom: int,
                 top: int) -> None: ...

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

# def sweep_table(const double[::1] scores, const count_t[::1] tp,
#                 const count_t[::1] fp, const double[::1] levels, bint exclude_self,
#                 object costs=None)
def sweep_table(scores: NDArray[np.float64], tp: np.ndarray, fp: np.ndarray,
                levels: NDArray[np.float64], exclude_self: bool,
                costs: _Costs = ...) -> SweepResult: ...

# def resolve_costs(costs, double weight_pos, double weight_neg)
def resolve_costs(costs: tuple[float, float, float], weight_pos: float,
                  weight_neg: float) -> CostSettings: ...

# def merge_tables(const double[::1] s1, const count_t[::1] tp1, const count_t[::1] fp1,
#                  const double[::1] s2, const count_t[::1] tp2, const count_t[::1] fp2)
def merge_tables(s1: NDArray[np.float64], tp1: np.ndarray, fp1: np.ndarray,
                 s2: NDArray[np.float64], tp2: np.ndarray, fp2: np.ndarray) -> _Table: ...

# def delong_sums(const count_t[::1] tp, const count_t[::1] fp)
def delong_sums(tp: np.ndarray, fp: np.ndarray) -> DeLongSums: ...

# def delong_components(const uint64_t[::1] keys, const double[:, ::1] rows, int index_bits,
#                       double pos_above, double neg_above, double weight_pos,
#                       double weight_neg, double[::1] component_out)
def delong_components(keys: NDArray[np.uint64], rows: NDArray[np.float64], index_bits: int,
                      pos_above: float, neg_above: float, weight_pos: float,
                      weight_neg: float, component_out: NDArray[np.float64]) -> float: ...

# def paired_moments(const label_t[::1] y, double pos_value, const double[::1] w,
#                    double weight_total, const double[::1] a, const double[::1] b)
def paired_moments(y: np.ndarray, pos_value: float, w: NDArray[np.float64] | None,
                   weight_total: float, a: NDArray[np.float64],
                   b: NDArray[np.float64]) -> tuple[float, float, float, float]: ...

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

# def sweep_scale(double weight_pos, double weight_neg)
def sweep_scale(weight_pos: float, weight_neg: float) -> float: ...
