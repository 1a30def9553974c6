"""The source papers' figures and tables, regenerated (``indist-fast paper OUTDIR``).

One writer per source: ``sumpter`` (the indistinguishability papers, 000 and 001),
``beam`` (resolving power, 004), ``orallo`` (threshold choice methods, 002) and
``roc_post`` (the ROC blog post, 003). Each writes PNG figures (matplotlib, the
``plot`` extra, imported only here) and CSV tables into one folder, and
``write_all`` adds ``manifest.csv``: file, paper (the seed file name), figure or
table number, one-line caption.
"""

from __future__ import annotations

import os
from typing import Any

from ._common import MANIFEST_FIELDS, ManifestRow, Writer

__all__ = ["write_all", "ManifestRow", "MANIFEST_FIELDS", "WRITERS"]

#: The writers in the order they run.
WRITERS = ("sumpter", "beam", "orallo", "roc_post")


def write_all(outdir: Any, quick: bool = False) -> list[ManifestRow]:
    """Write every figure and table into ``outdir`` (created if missing) and its
    ``manifest.csv``.

    Parameters
    ----------
    outdir : str or os.PathLike
        The folder to write into.
    quick : bool, default=False
        Small simulations (Beam's noise intervals), for tests: the same files, with
        noisier numbers.

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

    from .._core.validation import check_flag
    if not isinstance(outdir, (str, os.PathLike)):
        raise TypeError(f"outdir must be a path (str or os.PathLike), got {outdir!r}.")
    quick = check_flag(quick, "quick")
    path = os.fspath(outdir)
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"outdir must be a folder, got the file {path!r}.")
    os.makedirs(path, exist_ok=True)
    out = Writer(path, quick)
    for name in WRITERS:
        import_module(f".{name}", __name__).write(out)
    out.manifest()
    return list(out.rows)
