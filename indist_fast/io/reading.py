"""Columns read from a file or a dataset of files: ``open_source`` opens them as
one ``Source`` (the registry picks the format by the file's ending), ``read_columns``
reads them whole."""

from __future__ import annotations

import os
from typing import Any, Sequence

import numpy as np

from .._core.validation import check_flag
from .columns import check_names
from .folders import check_any_path, dataset_files, open_dataset
from .registry import FORMATS, check_file, format_of
from .source import Source, describe_path
from .stores import file_size, locate

__all__ = ["open_source", "read_columns"]

_READ_CHUNK_ROWS = 1 << 22


def open_source(path: Any, cols: dict[str, str | None], *, drop_nulls: bool = False,
                filesystem: Any = None) -> Source:
    """The columns ``cols`` (role -> name, or None) of a file or a dataset of files.

    Parameters
    ----------
    path : str, path-like, or a list or tuple of them
        A file (``.parquet``, ``.csv``, ``.csv.gz``/``.bz2``/``.zst``, ``.feather``/
        ``.arrow``/``.ipc``, ``.npy`` structured, ``.npz``), a folder (read
        recursively; ``key=value`` folder names are hive partitions), a glob pattern,
        or a list of these; or a URI of any of these in an object store
        (``s3://bucket/logs/``, ``gs://``, ``abfs://``, ``hdfs://``, ``file://``: the
        schemes pyarrow or fsspec resolve).
    cols : dict of str to str or None
        Role (``label``, ``score``, ``weight``; more models as ``score#1``, ...,
        segment columns as ``by#0``, ...) to column name; None for no weights. Segment
        columns may be partition keys.
    drop_nulls : bool, default=False
        Skip the rows with a null in a used column instead of raising.
    filesystem : pyarrow.fs.FileSystem or fsspec.AbstractFileSystem, default=None
        The filesystem ``path`` is in (then a path in it, a URI's scheme dropped);
        by default each URI's own, with credentials from the environment.

    Returns
    -------
    Source
        The reader: ``chunks(n)`` yields tuples of columns in the order of ``cols``
        (``(y, score, weight)``), at most ``n`` rows each; ``whole()``, where not None,
        gives the whole columns without copying.

    Examples
    --------
    >>> import os, tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = os.path.join(tmp.name, "scores.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("y,p\\n0,0.1\\n1,0.8\\n1,0.6\\n0,0.3\\n")
    >>> from indist_fast.io import open_source
    >>> src = open_source(path, {"label": "y", "score": "p", "weight": None})
    >>> [(y.tolist(), s.tolist()) for y, s, _ in src.chunks(1000)]
    [([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3])]
    >>> tmp.cleanup()
    """
    check_names(cols)
    drop_nulls = check_flag(drop_nulls, "drop_nulls")
    where = path
    path = locate(path, filesystem)
    files = dataset_files(path)
    if files is None:
        name = check_file(check_any_path(path))
        src = FORMATS[format_of(name)](name, cols, drop_nulls)
        if src.n_bytes is None:
            src.n_bytes = file_size(name)
        return src
    return open_dataset(describe_path(where), files, cols, drop_nulls)


def read_columns(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
                 label: str, score: str,
                 weight: str | None = None, drop_nulls: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Read ``(y_true, y_score, sample_weight)`` columns from a file or a dataset of files.

    Parameters
    ----------
    path : str, path-like, or a list of them
        ``.npy`` (a structured array), ``.npz``, ``.csv`` (also ``.csv.gz``, ``.bz2``,
        ``.zst``), ``.parquet`` or ``.feather``/``.arrow`` (these need pyarrow); or a
        folder (read recursively), a glob pattern or a list of such files, read one
        after another.
    label, score : str
        Column (field, array) names of the labels and the scores.
    weight : str, default=None
        Column of sample weights, if any.
    drop_nulls : bool, default=False
        Skip the rows with a null (missing value) in a used column of a Parquet or
        CSV file; by default such a row is an error naming the column and the row.

    Returns
    -------
    tuple of ndarray
        Labels, scores and weights (None without a weight column); memory-mapped
        where the file allows it.

    Raises
    ------
    FileNotFoundError
        No file at ``path``.
    ValueError, TypeError
        A file that cannot be read, holds no rows, lacks a column, has a column of
        the wrong type or a null; the message starts with ``path`` or the column role.

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> from indist_fast.io import read_columns
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "scores.npz")
    ...     np.savez(path, y=[0, 1, 1, 0], p=[0.1, 0.8, 0.6, 0.3])
    ...     y, s, w = read_columns(path, label="y", score="p")
    ...     print(y.tolist(), s.tolist(), w)
    [0, 1, 1, 0] [0.1, 0.8, 0.6, 0.3] None
    """
    src = open_source(path, {"label": label, "score": score, "weight": weight},
                      drop_nulls=drop_nulls)
    if src.whole is not None:
        y, s, w = src.whole()
    else:
        parts = list(src.chunks(_READ_CHUNK_ROWS))
        y, s, w = ((None if c[0] is None else np.concatenate(c)) for c in zip(*parts)) \
            if parts else (None, None, None)
    if s is None or len(s) == 0:
        raise ValueError(f"path: {describe_path(path)} holds no rows.")
    assert y is not None
    return y, s, w
