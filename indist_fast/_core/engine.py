"""Which engine runs: the compiled kernels or the NumPy reference.

The facade decides, not the user: the kernels when they import, the reference (with
one warning) when they do not. ``INDIST_FAST_BACKEND=numpy|cython`` forces one;
forcing ``cython`` when the kernels are missing is an error, not a silent fallback.
"""

from __future__ import annotations

import contextlib
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, Sequence, cast

from ..errors import warn

if TYPE_CHECKING:
    import numpy as np
    from .records import (Array, Costs, DeLongComponents, DeLongSums, PairedMoments,
                          Part, RangeSweep, Release, ReplicateCounts, SegmentSweeps, SortedClasses,
                          SweepResult, Table, WindowBase, WindowStep)

__all__ = ["backend", "engine", "use_backend"]

_ENV = "INDIST_FAST_BACKEND"
_NAMES = ("cython", "numpy")


def _load(name: str | None) -> tuple[str, ModuleType]:
    if name == "numpy":
        from . import reference
        return "numpy", reference
    try:
        from . import fast
    except ImportError as exc:
        if name == "cython":
            raise ImportError(f"{_ENV}=cython, but the compiled kernels do not import "
                              f"({exc}); reinstall with `pip install .`.") from exc
        warn(f"indist_fast: compiled kernels unavailable ({exc}); using the slower NumPy "
             "reference.", RuntimeWarning)
        from . import reference
        return "numpy", reference
    return "cython", fast


def _requested() -> str | None:
    name = os.environ.get(_ENV, "").strip().lower() or None
    if name is not None and name not in _NAMES:
        raise ValueError(f"{_ENV} must be one of {_NAMES}, got {name!r}.")
    return name


class Engine(Protocol):
    """What ``fast`` (the compiled kernels) and ``reference`` (NumPy) both provide, with
    the same signatures; ``tests/test_engine_contract.py`` holds them to it."""

    def build_table(self, y: Array, s: Array, w: Array | None, pos_value: float,
                    neg_value: float) -> Table: ...

    def summarize(self, y: Array, s: Array, w: Array | None, pos_value: float,
                  neg_value: float, levels: Array, exclude_self: bool, costs: Costs = None,
                  release: Release = None) -> SweepResult: ...

    def summarize_plain(self, y: Any, s: Any, levels: Array, exclude_self: bool,
                        max_rows: int) -> SweepResult | None: ...

    def summarize_parts(self, parts: Sequence[Part], rows: Sequence[int], sample: Array,
                        levels: Array, exclude_self: bool) -> SweepResult | None: ...

    def auc_plain(self, y: Any, s: Any, max_rows: int) -> float | None: ...

    def sweep_table(self, scores: Array, tp: Array, fp: Array, levels: Array,
                    exclude_self: bool, costs: Costs = None) -> SweepResult: ...

    def merge_tables(self, s1: Array, tp1: Array, fp1: Array, s2: Array, tp2: Array,
                     fp2: Array) -> Table: ...

    def sorted_classes(self, y: Array, s: Array, pos_value: float, neg_value: float,
                       release: Release = None) -> SortedClasses: ...

    def summarize_runs(self, runs: list[tuple[Array, bool]], levels: Array,
                       exclude_self: bool, costs: Costs = None,
                       held_bytes: int = 1 << 26) -> SweepResult: ...

    def replicate_counts(self, bit_generator: np.random.BitGenerator, pos_group: Array,
                         pos_weight: Array | None, neg_group: Array,
                         neg_weight: Array | None, n_groups: int,
                         stratified: bool) -> ReplicateCounts: ...

    def replicate_sweeps(self, bit_generators: list[np.random.BitGenerator],
                         pos_group: Array, pos_weight: Array | None, neg_group: Array,
                         neg_weight: Array | None, scores: Array, stratified: bool,
                         levels: Array, exclude_self: bool,
                         done: Callable[[int], None] | None = None) -> Array: ...

    def segment_order(self, codes: Array, s: Array,
                      n_segments: int) -> tuple[Array, Array]: ...

    def segment_replicate_sweeps(self, entropy: int, spawn_key: tuple[int, ...],
                                 segments: Array, keys: Array, n_boot: int,
                                 pos_start: Array, pos_group: Array,
                                 pos_weight: Array | None, neg_start: Array,
                                 neg_group: Array, neg_weight: Array | None,
                                 group_start: Array, scores: Array, stratified: bool,
                                 levels: Array, exclude_self: bool) -> Array: ...

    def delong_sums(self, tp: Array, fp: Array) -> DeLongSums: ...

    def delong_components(self, y: Array, scores: list[Array], w: Array | None,
                          pos_value: float, neg_value: float) -> list[DeLongComponents]: ...

    def paired_moments(self, y: Array, pos_value: float, w: Array | None,
                       weight_total: float, a: Array, b: Array) -> PairedMoments: ...

    def summarize_segments(self, y: Array, s: Array, w: Array | None, codes: Array,
                           n_segments: int, pos_value: float, neg_value: float,
                           levels: Array, exclude_self: bool) -> SegmentSweeps: ...

    def summarize_models(self, y: Array, scores: list[Array], w: Array | None, codes: Array,
                         n_segments: int, pos_value: float, neg_value: float,
                         levels: Array, exclude_self: bool) -> list[SegmentSweeps]: ...

    def sweep_range(self, scores: Array, tp: Array, fp: Array, levels: Array,
                    exclude_self: bool, weight_pos: float, weight_neg: float,
                    tp_above: float, fp_above: float, b_above: float) -> RangeSweep: ...

    def transpose_sums(self, p: Array) -> tuple[Array, Array]: ...

    def packed_keys(self, codes: Array, col: Array, bits: int) -> tuple[Array, bool]: ...

    def sorted_pair_counts(self, keys: Array, bits: int, positive: int) -> tuple[Array, int]: ...

    def ordered_pair_counts(self, order: Array, col: Array, codes: Array, w: Array | None,
                            positive: int, n_classes: int) -> Array: ...

    def window_step(self, base_s: Array, base_top: Array, base_pc: Array, base_nc: Array,
                    d_s: Array, d_p: Array, d_n: Array, d_c: Array, x_s: Array,
                    x_code: Array, x_w: Array | None, total_pos: float, out_s: Array,
                    out_p: Array, out_n: Array, out_c: Array) -> WindowStep: ...

    def window_merge(self, a_s: Array, a_p: Array, a_n: Array, a_c: Array, b_s: Array,
                     b_p: Array, b_n: Array, b_c: Array, s: Array, p: Array, n: Array,
                     c: Array, pc: Array, nc: Array) -> WindowBase: ...

    def window_top(self, base_s: Array) -> Array: ...


_active: tuple[str, ModuleType] | None = None


def engine() -> Engine:
    """The engine module that runs: ``fast`` (compiled) or ``reference`` (NumPy)."""
    global _active
    if _active is None:
        _active = _load(_requested())
    return cast(Engine, _active[1])


def backend() -> str:
    """Name of the active backend: ``"cython"`` or ``"numpy"``.

    Returns
    -------
    str
        ``"cython"`` when the compiled kernels load (the default), else ``"numpy"``.

    Examples
    --------
    >>> import indist_fast
    >>> indist_fast.backend() in ("cython", "numpy")
    True
    """
    engine()
    assert _active is not None
    return _active[0]


@contextlib.contextmanager
def use_backend(name: str) -> Iterator[None]:
    """Run a block on one backend (for tests and comparisons)."""
    global _active
    if name not in _NAMES:
        raise ValueError(f"name must be one of {_NAMES}, got {name!r}.")
    previous = _active
    _active = _load(name)
    try:
        yield
    finally:
        _active = previous
