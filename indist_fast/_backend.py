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
from typing import Iterator

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


_active: tuple[str, ModuleType] | None = None


def engine() -> ModuleType:
    """The module whose ``build_table``/``summarize``/``sweep_table``/``merge_tables`` run."""
    global _active
    if _active is None:
        _active = _load(_requested())
    return _active[1]


def backend() -> str:
    """Name of the active backend: ``"cython"`` or ``"numpy"``.

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
