"""What a file format provides (``Source``), and what every format shares: paths
checked and named, and a reader's own errors for bad bytes turned into ``ValueError``
naming the file.

A format is one module with an opener ``open_<format>(path, cols, drop_nulls) ->
Source`` and one line in ``registry.FORMATS``; see ``Source`` for what it must fill.
"""

from __future__ import annotations

import contextlib
import csv
import os
import sys
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence

import numpy as np

__all__ = ["Source", "RowGroupReader", "Opener", "check_input_path", "describe_path",
           "one_line", "reading", "guarded"]


class RowGroupReader(Protocol):
    """Plain label and score columns (no weight), decoded a row group at a time on the
    thread that asks (``parquet_files.RowGroups`` is the one there is)."""

    @property
    def sizes(self) -> tuple[int, ...]:
        """Rows of each row group."""
        ...

    def blocks(self, groups: Sequence[int]) -> Iterator[tuple[np.ndarray, np.ndarray] | None]:
        """``(y, s)`` of each of ``groups`` in order; None, and no more, at a null."""
        ...

    def sample(self) -> np.ndarray | None:
        """Scores spread over the file (None at a null), to size the engine's buckets."""
        ...


@dataclass
class Source:
    """A file's (or a dataset's) used columns, as a format hands them to the readers.

    ``cols`` (role -> column name, None for an unused weight) orders every tuple of
    columns a source gives: ``(label, score, weight, score#1, ..., by#0, ...)``, None
    in the place of an unused column. A format must provide ``n_rows``,
    ``bytes_per_row`` and ``chunks``; every other field is an optional fast path or
    a service the format can offer, None where it cannot. The source is not frozen:
    ``open_source`` fills ``n_bytes`` for a format that leaves it None.

    The opener checks what it can before any row is read (the columns present, once:
    ``columns.check_present``; of types their roles take) and every error it or its
    chunks raise is a ``ValueError`` or ``TypeError`` whose message starts with
    ``path:`` or the column's role, rows counted in the file from 0 (``reading``
    turns a library's errors for bad bytes into one; ``columns.null_error`` is the
    error for a null).

    Attributes
    ----------
    n_rows : int or None
        Rows of the file, or None when they are not known before reading (CSV).
    bytes_per_row : int
        NumPy bytes a row of the used columns takes once read (sizes chunks).
    chunks : callable
        ``chunks(rows)`` iterates over tuples of NumPy columns of at most ``rows``
        rows each, nulls raised (or dropped with ``drop_nulls``), each pass reading
        the file again from its start.
    whole : callable, optional
        The whole columns without a copy (memory-mapped ``.npz`` members).
    read_all : callable, optional
        The whole columns decoded into fresh arrays (faster than chunks when they fit),
        or None from it at a null: the chunks then say where, or drop it.
    release : callable, optional
        ``release(start, stop)`` drops the resident pages of mapped rows.
    n_bytes : int, optional
        Bytes on disk.
    done_bytes : callable, optional
        Bytes read so far (progress where rows are not known up front).
    locate : callable, optional
        ``locate(row)``: the file, and the row in it, of a row of the stream (datasets).
    unkept : callable, optional
        With ``drop_nulls``: the file row of the k-th row the chunks yield.
    parts : list, optional
        A dataset's files: the columns each fills from its partition keys (one value
        each) and its rows if known.
    chunks_of : callable, optional
        ``chunks_of(files, rows)``: the chunks of some of ``parts``, by index.
    row_groups : RowGroupReader, optional
        Label and score columns by row group, decoded as they are evaluated.

    Examples
    --------
    A format of columns already in memory, one chunk per ``rows`` rows:

    >>> import numpy as np
    >>> from indist_fast.io import Source
    >>> y, s = np.array([0, 1, 1, 0]), np.array([.1, .8, .6, .3])
    >>> src = Source(4, 16, lambda rows: ((y[i:i + rows], s[i:i + rows], None)
    ...                                   for i in range(0, 4, rows)))
    >>> [chunk[1].tolist() for chunk in src.chunks(3)]
    [[0.1, 0.8, 0.6], [0.3]]
    """

    n_rows: int | None
    bytes_per_row: int
    chunks: Callable[[int], Iterator[tuple[Any, ...]]]
    whole: Callable[[], tuple[Any, ...]] | None = None
    read_all: Callable[[], tuple[Any, ...] | None] | None = None
    release: Callable[[int, int], None] | None = None
    n_bytes: int | None = None
    done_bytes: Callable[[], int] | None = None
    locate: Callable[[int], tuple[str, int]] | None = None
    unkept: Callable[[int], int] | None = None
    parts: list[tuple[dict[str, np.ndarray], int | None]] | None = None
    chunks_of: Callable[[Iterable[int], int], Iterator[tuple[Any, ...]]] | None = None
    row_groups: RowGroupReader | None = None


#: A format's opener: ``(path, cols, drop_nulls) -> Source``, raising ``ValueError``
#: or ``TypeError`` that start with ``path`` or the role of a column.
Opener = Callable[[str, dict[str, str | None], bool], Source]


def check_input_path(path: Any) -> str:
    """``path`` as a ``str``; a ``TypeError`` naming ``path`` for anything else.

    Parameters
    ----------
    path : str, bytes or path-like
        A file name.

    Returns
    -------
    str
        The file name as text.

    Examples
    --------
    >>> import pathlib
    >>> from indist_fast.io import check_input_path
    >>> check_input_path(pathlib.Path("data") / "scores.csv")
    'data/scores.csv'
    """
    if isinstance(path, (str, bytes, os.PathLike)):
        return os.fsdecode(os.fspath(path))
    raise TypeError(f"path must be a file name (str or path-like), got {type(path).__name__}.")


def describe_path(path: Any) -> str:
    """``path`` as text for messages: a file, folder or pattern, or the first of a list.

    Parameters
    ----------
    path : str, path-like, or a list or tuple of them
        What ``evaluate_file`` was given.

    Returns
    -------
    str

    Examples
    --------
    >>> from indist_fast.io import describe_path
    >>> describe_path(["a.parquet", "b.parquet", "c.parquet"])
    'a.parquet (and 2 more files)'
    """
    if isinstance(path, (list, tuple)):
        names = [describe_path(p) for p in path]
        if len(names) <= 1:
            return names[0] if names else "[]"
        return f"{names[0]} (and {len(names) - 1} more file{'s' * (len(names) > 2)})"
    try:
        return check_input_path(path)
    except TypeError:
        return repr(path)


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (its type's name when it has none).

    Parameters
    ----------
    exc : BaseException
        The error to show.

    Returns
    -------
    str

    Examples
    --------
    >>> from indist_fast.io import one_line
    >>> one_line(ValueError("bad\\n  bytes"))
    'bad bytes'
    """
    return " ".join(str(exc).split()) or type(exc).__name__


def _read_errors() -> tuple[type[BaseException], ...]:
    """What the readers raise for bad bytes (pyarrow's types only if it is loaded)."""
    errors: list[type[BaseException]] = [OSError, EOFError, zipfile.BadZipFile, zlib.error,
                                         UnicodeDecodeError, csv.Error]
    pa = sys.modules.get("pyarrow")
    if pa is not None:
        errors.append(pa.ArrowException)
    return tuple(errors)


@contextlib.contextmanager
def reading(path: str, kind: str) -> Iterator[None]:
    """Turn a reader's own error for bad bytes into a ``ValueError`` naming ``path``."""
    try:
        yield
    except _read_errors() as exc:
        raise ValueError(f"path: {path} could not be read as {kind}: {one_line(exc)}") from exc


def guarded(make: Callable[[], Iterable[Any]], path: str, kind: str) -> Iterator[Any]:
    """The items of ``make()``, with every read done under ``reading``: a generator's
    bad bytes surface at ``next``, outside any ``with`` of its caller."""
    with reading(path, kind):
        items = iter(make())
    while True:
        with reading(path, kind):
            try:
                item = next(items)
            except StopIteration:
                return
        yield item
