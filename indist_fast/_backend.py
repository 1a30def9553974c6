"""Which engine runs: the compiled kernels or the NumPy reference.

The facade decides, not the user: the kernels when they import, the reference (with
one warning) when they do not. ``INDIST_FAST_BACKEND=numpy|cython`` forces one;
forcing ``cython`` when the kernels are missing is an error, not a silent fallback.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, cast

if TYPE_CHECKING:
    import numpy as np
    from ._result import SweepResult

__all__ = ["backend", "engine", "use_backend"]

_ENV = "INDIST_FAST_BACKEND"
_NAMES = ("cython", "numpy")


def _load(name: str | None) -> tuple[str, ModuleType]:
    if name == "numpy":
        from . import _reference
        return "numpy", _reference
    try:
        from . import _fast
    except ImportError as exc:
        if name == "cython":
            raise ImportError(f"{_ENV}=cython, but the compiled kernels do not import "
                              f"({exc}); reinstall with `pip install .`.") from exc
        warnings.warn(f"indist_fast: compiled kernels unavailable ({exc}); using the "
                      "slower NumPy reference.", RuntimeWarning, stacklevel=3)
        from . import _reference
        return "numpy", _reference
    return "cython", _fast


def _requested() -> str | None:
    name = os.environ.get(_ENV, "").strip().lower() or None
    if name is not None and name not in _NAMES:
        raise ValueError(f"{_ENV} must be one of {_NAMES}, got {name!r}.")
    return name


class Engine(Protocol):
    """What ``indist_fast._fast`` and ``indist_fast._reference`` both provide."""

    def build_table(self, y: Any, s: Any, w: Any, pos_value: float,
                    neg_value: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

    def summarize(self, y: Any, s: Any, w: Any, pos_value: float, neg_value: float,
                  levels: np.ndarray, exclude_self: bool, costs: Any = ...,
                  release: Callable[[int, int], None] | None = ...) -> SweepResult: ...

    def sweep_table(self, scores: np.ndarray, tp: np.ndarray, fp: np.ndarray,
                    levels: np.ndarray, exclude_self: bool, costs: Any = ...) -> SweepResult: ...

    def merge_tables(self, s1: np.ndarray, tp1: np.ndarray, fp1: np.ndarray, s2: np.ndarray,
                     tp2: np.ndarray, fp2: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

    def replicate_counts(self, bit_generator: np.random.BitGenerator, pos_group: np.ndarray,
                         pos_weight: np.ndarray | None, neg_group: np.ndarray,
                         neg_weight: np.ndarray | None, n_groups: int, stratified: bool
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...

    def replicate_sweeps(self, bit_generators: list[np.random.BitGenerator],
                         pos_group: np.ndarray, pos_weight: np.ndarray | None,
                         neg_group: np.ndarray, neg_weight: np.ndarray | None,
                         scores: np.ndarray, stratified: bool, levels: np.ndarray,
                         exclude_self: bool) -> np.ndarray: ...

    def delong_sums(self, tp: np.ndarray, fp: np.ndarray) -> tuple[float, float, float]: ...

    def sweep_range(self, scores: np.ndarray, tp: np.ndarray, fp: np.ndarray,
                    levels: np.ndarray, exclude_self: bool, weight_pos: float,
                    weight_neg: float, tp_above: float, fp_above: float,
                    b_above: float) -> tuple[SweepResult, float]: ...


_active: tuple[str, ModuleType] | None = None


def engine() -> Engine:
    """The engine module that runs: ``indist_fast._fast`` or ``indist_fast._reference``."""
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
