"""Parquet files: read in bounded batches, decoded whole on two threads when the
columns are plain (``read_all``), or handed to the engine a row group at a time
(``RowGroups``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from .arrow_files import (arrow_to_numpy, batch_chunks, check_arrow_types, numpy_dtype,
                          plain_arrow, plain_dtype, plain_numpy, row_bytes)
from .columns import check_present
from .source import Source, reading
from .stores import StorePath

__all__ = ["open_parquet", "RowGroups"]


def open_parquet(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    """The columns ``cols`` of a Parquet file."""
    try:
        import pyarrow.parquet  # noqa: F401  (the error below names the package)
    except ImportError:
        raise ImportError("reading .parquet needs pyarrow: pip install pyarrow") from None
    with reading(path, ".parquet"), _parquet_file(path) as pf:
        schema = pf.schema_arrow
        n_rows = pf.metadata.num_rows
        sizes = [pf.metadata.row_group(g).num_rows for g in range(pf.num_row_groups)]
    check_present(path, cols, schema.names)
    check_arrow_types(path, cols, schema)
    wanted = list(dict.fromkeys(c for c in cols.values() if c))
    per_row = sum(row_bytes(schema.field(c).type) for c in wanted)

    def batches(rows: int) -> Iterator[Any]:
        if isinstance(path, StorePath):
            yield from _store_batches(path, wanted, rows, max(rows * per_row, 1))
            return
        # A fresh file per pass, reading column chunks page by page through a bounded
        # buffer: by default a whole row group (any size) is read into memory at once.
        with _parquet_file(path, buffer_size=1 << 20, pre_buffer=False) as f:
            yield from f.iter_batches(batch_size=rows, columns=wanted)

    chunks, unkept = batch_chunks(batches, cols, path, ".parquet", drop_nulls)
    plain = all(plain_arrow(schema.field(c).type) for c in wanted)
    # ``_parquet_read_all`` looked up when called: tests count its calls.
    return Source(n_rows, per_row, chunks, unkept=unkept,
                  read_all=(lambda: _parquet_read_all(path, cols, schema)) if plain else None,
                  row_groups=_row_groups(path, cols, schema, sizes) if plain else None)


# Labels the kernels read as they are (bool as uint8), scores of float32 or float64.
_GROUP_LABELS = {np.dtype(t) for t in ("u1", "i1", "i4", "i8", "f4", "f8")}
_GROUP_SCORES = {np.dtype("f4"), np.dtype("f8")}
# Row groups whose scores size the engine's buckets, spread over the file, and scores
# taken from each.
_SAMPLE_GROUPS = 4
_SAMPLE_SCORES = 2048


@dataclass(frozen=True)
class RowGroups:
    """A Parquet file's label and score columns (plain types, kernel dtypes), read a
    row group at a time on the thread that asks: the engine's ``summarize_parts``
    writes each group into its buckets as it is decoded, so the columns are never held
    whole (nor allocated: 5 bytes a row of fresh pages for a float32 score).

    Parameters
    ----------
    path : str
        The file.
    label, score : str
        Column names.
    sizes : tuple of int
        Rows of each row group.

    Examples
    --------
    >>> import os, tempfile
    >>> import pyarrow as pa, pyarrow.parquet as pq
    >>> from indist_fast.io.parquet_files import RowGroups
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = os.path.join(tmp.name, "d.parquet")
    >>> pq.write_table(pa.table({"y": [0, 1, 1, 0], "s": [.1, .8, .6, .3]}), path,
    ...                row_group_size=2)
    >>> [(y.tolist(), s.tolist()) for y, s in RowGroups(path, "y", "s", (2, 2)).blocks([1])]
    [([1, 0], [0.6, 0.3])]
    >>> tmp.cleanup()
    """

    path: str
    label: str
    score: str
    sizes: tuple[int, ...]

    def blocks(self, groups: Sequence[int]) -> Iterator[tuple[np.ndarray, np.ndarray] | None]:
        """Each chunk of ``groups``, in order, as ``(y, s)`` arrays the kernels take.

        Parameters
        ----------
        groups : sequence of int
            Row groups, by index.

        Yields
        ------
        tuple of ndarray or None
            Views of the decoded buffers (bool labels as uint8); None, and no more, for
            a group with a null.

        Examples
        --------
        See ``RowGroups``.
        """
        wanted = list(dict.fromkeys((self.label, self.score)))
        with reading(self.path, ".parquet"), _parquet_file(self.path) as f:
            for g in groups:
                table = f.read_row_group(g, columns=wanted, use_threads=False)
                y, s = (_one_chunk(table.column(c)) for c in (self.label, self.score))
                if y.null_count or s.null_count:
                    yield None
                    return
                yield plain_numpy(y), plain_numpy(s)

    def sample(self) -> np.ndarray | None:
        """Scores of up to four row groups spread over the file, for the engine to
        size its buckets by.

        Returns
        -------
        ndarray or None
            None when one of them holds a null.

        Examples
        --------
        See ``RowGroups``.
        """
        k = len(self.sizes)
        picked = sorted({round(i * (k - 1) / max(_SAMPLE_GROUPS - 1, 1))
                         for i in range(min(_SAMPLE_GROUPS, k))})
        out = []
        with reading(self.path, ".parquet"), _parquet_file(self.path) as f:
            for g in picked:
                col = _one_chunk(f.read_row_group(g, columns=[self.score],
                                                  use_threads=False).column(0))
                if col.null_count:
                    return None
                s = plain_numpy(col)
                out.append(s[::max(1, len(s) // _SAMPLE_SCORES)])
        return np.concatenate(out)


# Bytes of column chunks a store is asked for at once: requests large enough that a
# store's latency does not dominate, few enough to bound the memory they take.
_STORE_SPAN_MIN = 8 << 20
_STORE_SPAN_MAX = 64 << 20


def _store_batches(path: StorePath, wanted: list[str], rows: int, budget: int
                   ) -> Iterator[Any]:
    """``iter_batches`` of a file in a store, over spans of consecutive row groups of
    a bounded size: each span's column chunks are fetched in a few coalesced requests
    (``pre_buffer``) and dropped when the next span starts (the read cache lives until
    the next ``iter_batches``); page by page, as on disk, a file of many small row
    groups would take a request per column chunk."""
    limit = min(_STORE_SPAN_MAX, max(_STORE_SPAN_MIN, budget))
    with _parquet_file(path, pre_buffer=True) as f:
        meta = f.metadata
        names = set(wanted)
        span: list[int] = []
        held = 0
        for g in range(meta.num_row_groups):
            group = meta.row_group(g)
            size = sum(group.column(c).total_compressed_size for c in range(group.num_columns)
                       if group.column(c).path_in_schema in names)
            if span and held + size > limit:
                yield from f.iter_batches(batch_size=rows, row_groups=span, columns=wanted)
                span, held = [], 0
            span.append(g)
            held += size
        if span:
            yield from f.iter_batches(batch_size=rows, row_groups=span, columns=wanted)


def _parquet_file(path: str, **options: Any) -> Any:
    """A ``pyarrow.parquet.ParquetFile``, opened through its store for a store's file."""
    import pyarrow.parquet as pq
    if isinstance(path, StorePath):
        return pq.ParquetFile(path.inner, filesystem=path.filesystem, **options)
    return pq.ParquetFile(path, **options)


def _one_chunk(col: Any) -> Any:
    """A column of a row group as one Arrow array (a copy only if it came in pieces)."""
    return col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()


def _row_groups(path: str, cols: dict[str, str | None], schema: Any,
                sizes: list[int]) -> RowGroups | None:
    """``RowGroups`` of a file whose label and score columns the kernels read as they
    are, with no weight and two row groups or more (one writer a thread); else None."""
    label, score = cols.get("label"), cols.get("score")
    if (cols.get("weight") is not None or label is None or score is None or len(sizes) < 2
            or any(k not in ("label", "score", "weight") and v is not None
                   for k, v in cols.items())):
        return None
    if not (plain_arrow(schema.field(label).type) and plain_arrow(schema.field(score).type)):
        return None
    if (plain_dtype(schema.field(label).type) not in _GROUP_LABELS
            or plain_dtype(schema.field(score).type) not in _GROUP_SCORES):
        return None
    return RowGroups(path, label, score, tuple(sizes))


def _parquet_read_all(path: str, cols: dict[str, str | None], schema: Any
                      ) -> tuple[Any, ...] | None:
    """Every row group of a Parquet file of plain columns, decoded on two threads
    straight into one array per column (no chunks to concatenate: the peak is the
    columns and a row group per thread). None when a column holds a null."""
    from concurrent.futures import ThreadPoolExecutor
    names = {role: name for role, name in cols.items() if name is not None}
    wanted = list(dict.fromkeys(names.values()))
    with reading(path, ".parquet"), _parquet_file(path) as pf:
        sizes = [pf.metadata.row_group(g).num_rows for g in range(pf.num_row_groups)]
    starts = np.concatenate(([0], np.cumsum(sizes, dtype=np.int64)))
    out = {role: np.empty(int(starts[-1]), dtype=numpy_dtype(schema.field(name).type))
           for role, name in names.items()}

    def read(groups: list[int]) -> bool:
        with reading(path, ".parquet"), _parquet_file(path) as f:
            for g in groups:
                table = f.read_row_group(g, columns=wanted, use_threads=False)
                for role, name in names.items():
                    col = table.column(name)
                    if col.null_count:
                        return False
                    at = int(starts[g])
                    for piece in col.chunks:
                        out[role][at:at + len(piece)] = arrow_to_numpy(piece)
                        at += len(piece)
        return True

    halves = [list(range(0, len(sizes), 2)), list(range(1, len(sizes), 2))]
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="indist_fast_read") as pool:
        if not all(pool.map(read, halves)):
            return None
    # Arrow's allocator keeps the decoded row groups' memory for reuse: give it back,
    # the evaluation that follows allocates through NumPy.
    import pyarrow as pa
    getattr(pa.default_memory_pool(), "release_unused", lambda: None)()
    return tuple(out.get(role) for role in cols)
