"""The score table of a file's rows, read chunk by chunk: ``score_table_file``.

``evaluate_file`` gives a ``Report``; its table is what every other reading needs
(calibration, KS, gains, top-k, curves, custom metrics). A chunk at a time becomes a
``ScoreTable`` and the tables merge exactly (``Accumulator``), so memory holds one
chunk and the table: an entry per distinct score, 24 bytes each -- small for rounded
or calibrated scores, as large as the rows for a continuous score of distinct values.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from .._core.validation import check_flag
from ..io import naming_columns, open_source, typed_pos_label
from ..table.score_table import ScoreTable
from .file_stream import CountedChunks, Progress, no_rows
from .streaming import Accumulator

__all__ = ["score_table_file"]

# Rows per chunk: a chunk's columns and the sort that makes its table (about 72 bytes
# a row at its peak with weights) stay near 70 MB, while the per-chunk overhead
# (a table merge) stays small against the sort.
_CHUNK_ROWS = 1_000_000


def score_table_file(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
                     label: str, score: str, weight: str | None = None,
                     pos_label: Any = None, progress: bool | None = None,
                     drop_nulls: bool = False, filesystem: Any = None) -> ScoreTable:
    """The ``ScoreTable`` of a score column in files: every reading of a table, from disk.

    The table of the file's rows is the one ``ScoreTable.from_arrays`` gives on the
    same columns as NumPy arrays (weights of equal scores added in another order: equal
    to rounding, exactly equal for counts and integer weights). Read it for what a
    ``Report`` does not hold: ``table.calibration()``, ``table.ks()``, ``table.gains()``,
    ``table.top_k(k)``, curves, or ``merge`` it with tables of other files.

    Parameters
    ----------
    path : str, path-like, or a list of them
        A file or a dataset of files, as ``evaluate_file`` reads them (Parquet, CSV,
        Arrow IPC, ``.npy``, ``.npz``; folders, hive partitions, globs, lists; URIs
        in object stores such as ``"s3://bucket/logs/"``).
    label, score, weight : str
        Column names (weight optional).
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    progress : bool or None, default=None
        A progress bar on stderr over the rows (or bytes) read; None shows it when
        stderr is a terminal or in Jupyter.
    drop_nulls : bool, default=False
        Skip rows with a null in a used column (default: a null is an error naming
        the column and row), as in ``evaluate_file``.
    filesystem : pyarrow.fs.FileSystem or fsspec.AbstractFileSystem, default=None
        The filesystem ``path`` is in, as in ``evaluate_file``.

    Returns
    -------
    ScoreTable
        Memory: a chunk of rows at a time plus the table (24 bytes per distinct score).

    Raises
    ------
    FileNotFoundError
        No file at ``path``.
    ValueError, TypeError
        Bad arguments or contents, named as ``evaluate_file`` names them (the column,
        the file and the row).

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> from indist_fast import ScoreTable, score_table_file
    >>> y, p = [0, 1, 1, 0, 1], [0.1, 0.9, 0.4, 0.5, 0.9]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     np.savez(os.path.join(folder, "log.npz"), y=y, p=p)
    ...     t = score_table_file(os.path.join(folder, "log.npz"), label="y", score="p",
    ...                          progress=False)
    >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
    ([0.9, 0.5, 0.4, 0.1], [2, 0, 1, 0], [0, 1, 0, 1])
    >>> t.evaluate().auc == ScoreTable.from_arrays(y, p).evaluate().auc
    True
    """
    if progress is not None:
        progress = check_flag(progress, "progress")
    drop_nulls = check_flag(drop_nulls, "drop_nulls")
    cols = {"label": label, "score": score, "weight": weight}
    src = open_source(path, cols, drop_nulls=drop_nulls, filesystem=filesystem)
    bar = Progress(progress, src)
    try:
        with naming_columns(path, cols):
            chunks = CountedChunks(src.chunks(_CHUNK_ROWS), src)
            acc: Accumulator | None = None
            try:
                for y, s, w in chunks:
                    if len(s):
                        if acc is None:         # the label column's type is known now
                            acc = Accumulator(pos_label=typed_pos_label(pos_label, y))
                        acc.update(y, s, w)
                    bar.update(len(s))
                    del y, s, w
            except ValueError as exc:
                chunks.name_file_row(exc)
                raise
            if acc is None or acc.n_rows == 0:
                raise no_rows(path, drop_nulls)
            return acc.table
    finally:
        bar.close()
