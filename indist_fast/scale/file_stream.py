"""A file's chunks on their way to an evaluation: the progress bar, the rows the chunk
being processed starts at (so that an error names the row in its file), and the
chunks read while they fit a budget."""

from __future__ import annotations

import contextlib
import re
from typing import Any, Iterable, Iterator

import numpy as np

from .._core.progress import progress_bar
from ..io import Source, describe_path

__all__ = ["Progress", "CountedChunks", "name_rows", "rows_in_files", "no_rows", "drain",
           "read_while_it_fits"]


class Progress:
    """A bar over rows where the source knows them up front (one file of known
    length), else over the bytes of its files read so far (compressed CSV, datasets of
    files); shown as ``_core.progress`` decides."""

    def __init__(self, enabled: bool | None, src: Source) -> None:
        self.src = src
        self.by_rows = src.n_rows is not None and src.locate is None
        self.bar = progress_bar(enabled, src.n_rows if self.by_rows else src.n_bytes,
                                "reading", unit="rows" if self.by_rows else "B",
                                unit_scale=True)

    def update(self, n: int) -> None:
        """``n`` more rows are done."""
        if self.by_rows:
            self.bar.update(n)
        elif self.bar.shown and self.src.done_bytes is not None:
            self.bar.update(max(0, self.src.done_bytes() - self.bar.n))

    def close(self) -> None:
        self.bar.close()


class CountedChunks:
    """Chunks that remember the row the one being processed starts at.

    A bad row found while a chunk is processed (NaN score, third label, negative
    weight) is named by its row in the chunk; ``name_file_row`` makes it the row in
    the file (in a dataset: the row in its file, and the file), as in memory. Errors
    of the readers already count file rows.
    """

    def __init__(self, chunks: Iterable[tuple[Any, ...]], src: Source | None = None) -> None:
        self.chunks = iter(chunks)
        self.src = src
        self.start = self.end = 0
        self.reading = False

    def __iter__(self) -> "CountedChunks":
        return self

    def __next__(self) -> tuple[Any, ...]:
        self.reading = True
        chunk = next(self.chunks)
        self.reading = False
        self.start, self.end = self.end, self.end + len(chunk[1])
        return chunk

    def name_file_row(self, exc: BaseException) -> None:
        if self.reading:
            return
        whole = self.start == 0 and self.src is not None and self.src.n_rows == self.end
        if exc.args and isinstance(exc.args[0], str) and not whole:
            # Said of one chunk: later chunks may hold pos_label (then the chunk's two
            # other labels are one too many), so say which rows were looked at.
            exc.args = (exc.args[0].replace(
                "is not a value of y_true (",
                f"is not a value of y_true in the chunk read at row 0 "
                f"({self.end - self.start:,} rows; "),) + exc.args[1:]
        name_rows(exc, self.start, self.src)


_AT_ROW = re.compile(r"\bat row (\d+)(?! of )")


def name_rows(exc: BaseException, start: int, src: Source | None) -> None:
    """Rows ``at row N`` of a message counted from ``start`` in the stream of rows, and
    in a dataset, named by their file: ``at row 7 of logs/day=2/part-0.parquet``."""
    if not (exc.args and isinstance(exc.args[0], str)):
        return
    locate = None if src is None else src.locate
    unkept = None if src is None else src.unkept
    if not start and locate is None and unkept is None:
        return

    def where(m: re.Match[str]) -> str:
        row = start + int(m.group(1))
        try:
            if locate is not None:
                name, local = locate(row)
                return f"at row {local} of {name}"
            return f"at row {row if unkept is None else unkept(row)}"
        except Exception:   # the file could not be read again: say what the row is
            return f"at row {row} of the rows without a null"
    exc.args = (_AT_ROW.sub(where, exc.args[0]),) + exc.args[1:]


@contextlib.contextmanager
def rows_in_files(src: Source) -> Iterator[None]:
    """Errors of an evaluation of every row at once, with their rows named in files."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        name_rows(exc, 0, src)
        raise


def no_rows(path: Any, drop_nulls: bool) -> ValueError:
    return ValueError(f"path: {describe_path(path)} holds no rows"
                      + (" without a null." if drop_nulls else "."))


def drain(items: list[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
    """Yield and forget: a buffered chunk is freed once it has been used."""
    items.reverse()
    while items:
        yield items.pop()


def read_while_it_fits(chunks: Iterator[tuple[Any, ...]], budget: int, bar: Progress
                        ) -> tuple[list[tuple[Any, ...]], Iterator[tuple[Any, ...]] | None]:
    """Chunks read until their bytes pass ``budget``: ``(read, rest)``, ``rest`` None
    when the stream ended first (sizes are not always known up front: CSV)."""
    read: list[tuple[Any, ...]] = []
    size = 0
    for chunk in chunks:
        read.append(chunk)
        size += sum(np.asarray(a).nbytes for a in chunk if a is not None)
        if size > budget:
            return read, chunks
    for chunk in read:
        bar.update(len(chunk[1]))
    return read, None
