"""The source papers' figures and tables, regenerated (``indist-fast paper OUTDIR``).

One writer per source: ``sumpter`` (the indistinguishability papers, 000 and 001),
``beam`` (resolving power, 004), ``orallo`` (threshold choice methods, 002) and
``roc_post`` (the ROC blog post, 003). Each writes PNG figures (matplotlib, the
``plot`` extra, imported only here) and CSV tables into one folder, and
``write_all`` adds ``manifest.csv``: file, paper (the seed file name), figure or
table number, one-line caption.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from ._common import MANIFEST_FIELDS, ManifestRow, Writer

__all__ = ["write_all", "ManifestRow", "MANIFEST_FIELDS", "WRITERS"]

#: The writers in the order they run.
WRITERS = ("sumpter", "beam", "orallo", "roc_post")


def write_all(outdir: Any, quick: bool = False, n_rep: int | None = None,
              seed: int = 0, progress: bool | None = None) -> list[ManifestRow]:
    """Write every figure and table into ``outdir`` (created if missing) and its
    ``manifest.csv``.

    Each file is written whole (a temporary file renamed), and the manifest last, after
    an old one is removed first: a folder without a manifest holds an interrupted run.

    Parameters
    ----------
    outdir : str or os.PathLike
        The folder to write into.
    quick : bool, default=False
        Small simulations (Beam's noise intervals), for tests: the same files, with
        noisier numbers (their captions say so).
    n_rep : int, optional
        Replicate samples of every simulated condition (Beam's noise intervals);
        by default 500 (100 at N = 100,000), 20 with ``quick``. The paper draws 10,000.
    seed : int, default=0
        Seed of the simulations (each condition draws from its own stream of it).
    progress : bool, optional
        A bar counting the files written: by default on a terminal or in Jupyter only;
        False silences it.

    Returns
    -------
    list of ManifestRow
        One row per file written (``manifest.csv`` itself excluded).

    Examples
    --------
    >>> import tempfile
    >>> from indist_fast.paper import write_all
    >>> rows = write_all(tempfile.mkdtemp(), quick=True)   # doctest: +SKIP
    """
    from importlib import import_module

    from .._core.progress import progress_bar
    from .._core.validation import check_count, check_flag
    from ..inference.bootstrap import MAX_REPLICATES
    if not isinstance(outdir, (str, os.PathLike)):
        raise TypeError(f"outdir must be a path (str or os.PathLike), got {outdir!r}.")
    quick = check_flag(quick, "quick")
    if n_rep is not None:
        n_rep = check_count(n_rep, "n_rep", minimum=2, maximum=MAX_REPLICATES)
    seed = check_count(seed, "seed", minimum=0, maximum=2**63 - 1)
    path = _writable_folder(os.fspath(outdir))
    # The manifest is written last: without one, the folder holds an interrupted run
    # (its files whole, each from this run or the one before).
    with contextlib.suppress(FileNotFoundError):
        os.remove(os.path.join(path, "manifest.csv"))
    with progress_bar(progress, None, "paper", unit="files") as bar:
        out = Writer(path, quick, n_rep, seed, bar=bar)
        for name in WRITERS:
            import_module(f".{name}", __name__).write(out)
        out.manifest()
    return list(out.rows)


def _writable_folder(path: str) -> str:
    """``path`` as a folder that exists (created with its parents) and takes files;
    ValueError naming ``outdir`` otherwise (a file in the way, no permission)."""
    parent = path
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent.rstrip(os.sep))
    if parent and not os.path.isdir(parent):
        raise ValueError(f"outdir must be a folder, but {parent!r} is a file"
                         + ("" if parent == path else f" (on the way to {path!r})") + ".")
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".indist_fast_write_test")
        with open(probe, "w", encoding="utf-8"):
            pass
        os.remove(probe)
    except OSError as exc:
        raise ValueError(f"outdir {path!r} cannot be written: {exc.strerror or exc}.") from None
    return path
