"""Progress bars for the steps that can take seconds (reading files, bootstrap
replicates, resolving-power simulations, the papers' runs, pages with intervals).

One policy for the whole package: ``progress=None`` (every public default) shows a bar
when someone is watching, that is when stderr is a terminal or the code runs in a
Jupyter kernel, and nothing otherwise (logs, pipes, CI, tests); ``True`` forces a bar,
``False`` silences it; the environment variable ``INDIST_FAST_PROGRESS=0`` silences
every default. The bars are tqdm's (a dependency), ``tqdm.auto`` so that Jupyter gets
its widget where ipywidgets is installed and a text bar otherwise.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from .validation import check_flag

__all__ = ["wants_progress", "Bar", "progress_bar"]


def _in_jupyter() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None or "ipykernel" not in sys.modules:
        return False
    try:
        return shell.get_ipython() is not None
    except Exception:                                   # an IPython without a shell
        return False


def wants_progress(progress: Any, name: str = "progress") -> bool:
    """Whether to draw a bar for the caller's ``progress`` argument (None: watched)."""
    if progress is not None:
        return check_flag(progress, name)
    if os.environ.get("INDIST_FAST_PROGRESS", "").strip().lower() in ("0", "false", "no", "off"):
        return False
    try:
        tty = sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):                # a closed or replaced stderr
        tty = False
    return tty or _in_jupyter()


class Bar:
    """A tqdm bar, or nothing: ``update``/``close`` cost nothing when no bar is shown.

    A context manager; ``bar.n`` is the amount done so far (0 without a bar).
    """

    def __init__(self, total: float | None, desc: str, unit: str = "it",
                 enabled: bool = False, unit_scale: bool = False) -> None:
        self._bar: Any = None
        if enabled:
            from tqdm.auto import tqdm
            self._bar = tqdm(total=total, desc=desc, unit=unit, unit_scale=unit_scale,
                             file=sys.stderr, leave=False, dynamic_ncols=True)

    @property
    def shown(self) -> bool:
        return self._bar is not None

    @property
    def n(self) -> float:
        return 0 if self._bar is None else self._bar.n

    def update(self, n: float = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> "Bar":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress_bar(progress: Any, total: float | None, desc: str, unit: str = "it",
                 unit_scale: bool = False) -> Bar:
    """A ``Bar`` over ``total`` units if ``progress`` asks for one (see ``wants_progress``).

    ``desc`` says what is being counted, as a user reads it ("bootstrap", "reading").
    """
    return Bar(total, desc, unit, wants_progress(progress), unit_scale)
