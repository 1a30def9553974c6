"""Read label, score, weight and segment columns from .npy, .npz, .csv (also
compressed), .parquet and Arrow IPC (.feather, .arrow) files, and from datasets of
them: folders (hive partitions ``key=value`` give segment columns), glob patterns,
lists of paths.

Every format is a *source*: its columns in chunks of bounded size, and, where the
file allows it (``.npz`` members stored without compression), the whole columns
memory-mapped without a copy. ``read_columns`` reads them whole;
``indist_fast.evaluate_file`` streams them.

Columns reach the evaluation as the NumPy arrays ``indist_fast.evaluate`` would get
from the same data in memory: Arrow booleans as ``bool``, strings (also
dictionary-encoded, i.e. categorical) as Python strings, decimals as the nearest
``float64``. A null in a used column is an error naming the column and its first
row, unless ``drop_nulls=True`` skips the rows holding one. In CSV files, empty
fields and pyarrow's null markers (``NA``, ``NaN``, ``null``...) are nulls in every
column, text ones included, with or without pyarrow installed.

Every problem with a file is a ``ValueError`` (or ``TypeError`` for a column of the
wrong type, ``FileNotFoundError`` for a missing file) whose message starts with the
argument at fault: ``path``, or the role of a column (``label``, ``score``,
``weight``). Errors found in the rows by the evaluation itself (a NaN score, a
third label) are the in-memory ones under the role, column and file:
``score: column 'p' of d.parquet: y_score contains NaN ...`` (``naming_columns``).
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import csv
import io
import mmap
import os
import re
import sys
import zipfile
import zlib
from dataclasses import dataclass
from typing import IO, Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .._core.validation import check_columns, check_flag

__all__ = ["read_columns", "open_source", "check_path", "describe_path", "naming_columns",
           "LabelText", "typed_pos_label"]

_READ_CHUNK_ROWS = 1 << 22
_CSV_MIN_BLOCK = 1 << 20           # pyarrow's default; a block must hold whole lines
# pyarrow's CSV defaults (``ConvertOptions``), spelled out so that the standard-library
# reader, used without pyarrow, reads the same file the same way.
CSV_NULLS = frozenset(["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
                       "1.#IND", "1.#QNAN", "N/A", "NA", "NULL", "NaN", "n/a", "nan", "null"])
CSV_TRUE = frozenset(["1", "True", "TRUE", "true"])
CSV_FALSE = frozenset(["0", "False", "FALSE", "false"])


def check_path(path: Any) -> str:
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
    >>> from indist_fast.io import check_path
    >>> check_path(pathlib.Path("data") / "scores.csv")
    'data/scores.csv'
    """
    if isinstance(path, (str, bytes, os.PathLike)):
        return os.fsdecode(os.fspath(path))
    raise TypeError(f"path must be a file name (str or path-like), got {type(path).__name__}.")


def role_of(key: str) -> str:
    """The role a key of ``cols`` names in messages: ``"score#2"`` (a second model's
    column) is a ``score``, ``"by#0"`` a ``by`` (segment) column."""
    return key.partition("#")[0]


def _text_allowed(key: str) -> bool:
    """Labels and segment columns may hold text; scores and weights must be numbers."""
    return role_of(key) in ("label", "by")


def _check_names(cols: dict[str, str | None]) -> None:
    for key, name in cols.items():
        role = role_of(key)
        if not (isinstance(name, str) or (name is None and role == "weight")):
            raise TypeError(f"{role} must be a column name (str)"
                            + (" or None" if role == "weight" else "")
                            + f", got {name!r}.")


def _missing_columns(path: str, cols: dict[str, str | None], available: list[str],
                     plain: str = "none") -> None:
    """Every used column present, and present once: a CSV header (or a Parquet schema)
    may repeat a name, and the readers would then pick one copy silently."""
    check_columns(((role_of(k), name) for k, name in cols.items()), available, path, plain)
    for key, name in cols.items():
        if name is not None and available.count(name) > 1:
            raise ValueError(f"path: {path} has {available.count(name)} columns named "
                             f"{name!r} (the {role_of(key)} column); rename the duplicates so the "
                             "column meant is unambiguous.")


def _check_dtype(path: str, key: str, name: str, dtype: np.dtype) -> None:
    """A NumPy column of a kind its role can take (labels and segments may be text,
    not the rest)."""
    kinds = "biufUS" if _text_allowed(key) else "biuf"
    role = role_of(key)
    if dtype.kind not in kinds or dtype.subdtype is not None:
        want = ("booleans, numbers or strings" if _text_allowed(key)
                else "numbers or booleans")
        raise TypeError(f"{role}: column {name!r} of {path} has dtype {dtype}; a {role} "
                        f"column must hold {want}.")


def one_line(exc: BaseException) -> str:
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
def _reading(path: str, kind: str) -> Iterator[None]:
    """Turn a reader's own error for bad bytes into a ``ValueError`` naming ``path``."""
    try:
        yield
    except _read_errors() as exc:
        raise ValueError(f"path: {path} could not be read as {kind}: {one_line(exc)}") from exc


def _guarded(make: Callable[[], Iterable[Any]], path: str, kind: str) -> Iterator[Any]:
    """The items of ``make()``, with every read done under ``_reading``."""
    with _reading(path, kind):
        items = iter(make())
    while True:
        with _reading(path, kind):
            try:
                item = next(items)
            except StopIteration:
                return
        yield item


@dataclass
class Source:
    n_rows: int | None                      # None when unknown before reading (CSV)
    bytes_per_row: int
    chunks: Callable[[int], Iterator[tuple[Any, ...]]]
    whole: Callable[[], tuple[Any, ...]] | None = None        # zero-copy columns
    # The whole columns decoded into fresh arrays (faster than chunks, when they fit),
    # or None from it when a null turns up: the chunks then say where, or drop them.
    read_all: Callable[[], tuple[Any, ...] | None] | None = None
    release: Callable[[int, int], None] | None = None        # drop mapped rows' pages
    # Bytes on disk, and those read so far (progress where rows are not known).
    n_bytes: int | None = None
    done_bytes: Callable[[], int] | None = None
    # Which file, and which row of it, a row of the stream is (datasets of files).
    locate: Callable[[int], tuple[str, int]] | None = None
    # drop_nulls: the file row of the k-th row the chunks yield (errors name file rows).
    unkept: Callable[[int], int] | None = None
    # A dataset's files: the columns each fills from its partition keys (one value)
    # and its rows if known; and the chunks of some of them, by index.
    parts: list[tuple[dict[str, np.ndarray], int | None]] | None = None
    chunks_of: Callable[[Iterable[int], int], Iterator[tuple[Any, ...]]] | None = None
    # Plain label and score columns (no weight) by row group, decoded as they are
    # evaluated (``RowGroups``).
    row_groups: RowGroups | None = None


# --- .npy -----------------------------------------------------------------------------------------

def _npy_source(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, EOFError, OSError) as exc:
        raise ValueError(f"path: {path} could not be read as .npy: {one_line(exc)}") from exc
    if not isinstance(arr, np.ndarray):          # np.load opened a zip (an .npz)
        arr.close()
        raise ValueError(f"path: {path} could not be read as .npy: it is an .npz archive.")
    names = list(arr.dtype.names or [])
    _missing_columns(path, cols, names, "none (a plain array)")
    if arr.ndim != 1:
        raise ValueError(f"path: {path} holds a structured array of shape {arr.shape}; "
                         "expected one dimension (one record per row).")
    for role, name in cols.items():
        if name is not None:
            _check_dtype(path, role, name, arr.dtype[name])

    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
        for start in range(0, len(arr), rows):
            part = arr[start:start + rows]
            yield tuple(None if n is None else np.ascontiguousarray(part[n])
                        for n in cols.values())

    return Source(len(arr), arr.dtype.itemsize, chunks, release=page_release(arr))


# --- .npz -----------------------------------------------------------------------------------------

def _member_header(fh: IO[bytes], path: str, key: str, name: str) -> tuple[int, np.dtype]:
    """Length and dtype of the .npy member ``name`` whose bytes ``fh`` is at."""
    try:
        version = np.lib.format.read_magic(fh)
        read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                       else np.lib.format.read_array_header_2_0)
        shape, _, dtype = read_header(fh)
    except (ValueError, EOFError) as exc:
        raise ValueError(f"path: {path} could not be read as .npz: member {name!r}: "
                         f"{one_line(exc)}") from exc
    if len(shape) != 1:
        raise ValueError(f"{role_of(key)}: member {name!r} of {path} must be a 1d array, "
                         f"got shape {shape}.")
    _check_dtype(path, key, name, dtype)
    return shape[0], dtype


def _npz_mapped(path: str, info: zipfile.ZipInfo, role: str, name: str) -> np.ndarray:
    """An uncompressed member, memory-mapped in place."""
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        local = fh.read(30)
        if local[:4] != b"PK\x03\x04":
            raise ValueError(f"path: {path} could not be read as .npz: member {name!r} has "
                             "a corrupt local header.")
        start = (info.header_offset + 30 + int.from_bytes(local[26:28], "little")
                 + int.from_bytes(local[28:30], "little"))
        fh.seek(start)
        n, dtype = _member_header(fh, path, role, name)
        offset = fh.tell()
    if offset + dtype.itemsize * n > os.path.getsize(path):
        raise ValueError(f"path: {path} is truncated: member {name!r} needs more bytes than "
                         "the file holds.")
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=(n,))


def _read_exact(fh: IO[bytes], size: int, path: str, name: str) -> bytes:
    data = fh.read(size)
    if len(data) != size:
        raise ValueError(f"path: {path} is truncated: member {name!r} ends early.")
    return data


def _npz_source(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    with _reading(path, ".npz"), zipfile.ZipFile(path) as zf:
        members = {n[:-4]: zf.getinfo(n) for n in zf.namelist() if n.endswith(".npy")}
        _missing_columns(path, cols, list(members))
        used = {role: name for role, name in cols.items() if name is not None}
        compressed = any(members[n].compress_type != zipfile.ZIP_STORED for n in used.values())
        if not compressed:
            mapped = {role: _npz_mapped(path, members[name], role, name)
                      for role, name in used.items()}
            specs = {role: (len(a), a.dtype) for role, a in mapped.items()}
        else:
            specs = {}
            for role, name in used.items():
                with zf.open(members[name]) as fh:
                    specs[role] = _member_header(fh, path, role, name)
    lengths = {n for n, _ in specs.values()}
    if len(lengths) != 1:
        raise ValueError(f"path: the columns of {path} differ in length: "
                         + ", ".join(f"{role_of(k)} {n}" for k, (n, _) in specs.items())
                         + ".")
    n_rows = lengths.pop()
    per_row = sum(dtype.itemsize for _, dtype in specs.values())
    if not compressed:
        arrays = tuple(mapped.get(role) for role in cols)

        def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
            for start in range(0, n_rows, rows):
                yield tuple(None if a is None else a[start:start + rows] for a in arrays)

        return Source(n_rows, per_row, chunks, whole=lambda: arrays,
                       release=page_release(*mapped.values()))

    def streamed(rows: int) -> Iterator[tuple[Any, ...]]:
        # Compressed members are inflated as they are read: memory stays at one chunk.
        with zipfile.ZipFile(path) as zf, contextlib.ExitStack() as stack:
            handles = {}
            for role, name in used.items():
                handles[role] = stack.enter_context(zf.open(members[name]))
                _member_header(handles[role], path, role, name)
            for start in range(0, n_rows, rows):
                k = min(rows, n_rows - start)
                yield tuple(None if name is None else np.frombuffer(
                    _read_exact(handles[role], k * specs[role][1].itemsize, path, name),
                    dtype=specs[role][1]) for role, name in cols.items())
            for role, fh in handles.items():      # reading to the end checks the CRC
                if fh.read(1):
                    raise ValueError(f"path: {path} could not be read as .npz: member "
                                     f"{used[role]!r} is longer than its header says.")

    return Source(n_rows, per_row, lambda rows: _guarded(lambda: streamed(rows), path, ".npz"))


# --- Arrow (Parquet, CSV) ---------------------------------------------------------------------------

def _arrow_kind(t: Any) -> str | None:
    """``"bool"``, ``"number"``, ``"text"`` or ``"null"`` for an Arrow type, else None."""
    import pyarrow as pa
    types = pa.types
    if types.is_dictionary(t):
        return _arrow_kind(t.value_type)
    if types.is_boolean(t):
        return "bool"
    if types.is_integer(t) or types.is_floating(t) or types.is_decimal(t):
        return "number"
    if (types.is_string(t) or types.is_large_string(t) or types.is_binary(t)
            or types.is_large_binary(t) or getattr(types, "is_string_view", bool)(t)
            or getattr(types, "is_binary_view", bool)(t)):
        return "text"
    if types.is_null(t):
        return "null"
    if types.is_date(t) or types.is_timestamp(t):
        return "date"
    return None


def _check_arrow_types(path: str, cols: dict[str, str | None], schema: Any) -> None:
    """Every used column of a type its role can take (labels may be text, the rest
    must be numbers or booleans), before any row is read."""
    for key, name in cols.items():
        if name is None:
            continue
        t = schema.field(name).type
        kind = _arrow_kind(t)
        role = role_of(key)
        if kind is None or (kind == "text" and not _text_allowed(key)) or (
                kind == "date" and role != "by"):
            want = ("booleans, numbers, strings or dates" if role == "by"
                    else "booleans, numbers or strings" if _text_allowed(key)
                    else "numbers (integer, floating point or decimal) or booleans")
            raise TypeError(f"{role}: column {name!r} of {path} has Arrow type {t}; a {role} "
                            f"column must hold {want}.")


def _row_bytes(t: Any) -> int:
    """NumPy bytes per row of a column of Arrow type ``t`` once converted (never
    ``byte_width``, which variable-width and bit-packed types do not have)."""
    import pyarrow as pa
    if pa.types.is_boolean(t):
        return 1
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        return int(t.bit_width) // 8
    return 8                 # float64 (decimals), object pointers (text, categories)


def _to_numpy(col: Any) -> np.ndarray:
    """A null-free Arrow array as the NumPy array ``evaluate`` takes in memory.

    Numbers are viewed from the Arrow buffer: pyarrow's own ``to_numpy`` imports
    pandas on its first call (some 30 MB and half a second).
    """
    import pyarrow as pa
    t = col.type
    if _plain_arrow(t):
        plain = _plain_numpy(col)
        return plain.view(np.bool_) if pa.types.is_boolean(t) else plain
    import pyarrow.compute as pc     # (not above: it imports pandas, half a second)
    if pa.types.is_dictionary(t):
        d = col.dictionary          # few values: text ones become one object each
        values = (np.array(d.to_pylist(), dtype=object) if _arrow_kind(d.type) == "text"
                  else _to_numpy(d))
        out: np.ndarray = values[_to_numpy(col.indices)]
        return out
    if pa.types.is_decimal(t):
        # Through the exact decimal text: Arrow's direct cast is not always rounded
        # to nearest, while float(Decimal) (what the in-memory path does) is.
        return _to_numpy(pc.cast(pc.cast(col, pa.string()), pa.float64()))
    if _arrow_kind(t) == "text":
        # Each distinct label becomes one Python object shared by its rows: 8 bytes a
        # row instead of a string object per row.
        return _to_numpy(pc.dictionary_encode(col))
    if pa.types.is_null(t):
        return np.empty(0, dtype=np.float64)
    if _arrow_kind(t) == "date":          # days (date32), or time units since the epoch
        unit = "D" if pa.types.is_date32(t) else "ms" if pa.types.is_date64(t) else t.unit
        ints = _to_numpy(pc.cast(col, pa.int32() if unit == "D" else pa.int64()))
        return ints.astype(f"datetime64[{unit}]")
    raise TypeError(f"no NumPy type for Arrow type {t}")


def _plain_dtype(t: Any) -> np.dtype:
    """The NumPy dtype of an Arrow boolean (as uint8), integer or float type."""
    import pyarrow as pa
    if pa.types.is_boolean(t):
        return np.dtype(np.uint8)
    kind = "f" if pa.types.is_floating(t) else "i" if pa.types.is_signed_integer(t) else "u"
    return np.dtype(f"{kind}{t.bit_width // 8}")


def _plain_numpy(col: Any) -> np.ndarray:
    """A null-free Arrow array of a ``_plain_arrow`` type as NumPy: numbers viewed from
    the Arrow buffer, booleans unpacked from their bits to uint8 0 and 1."""
    dtype = _plain_dtype(col.type)
    if len(col) == 0:
        return np.empty(0, dtype=dtype)
    if dtype == np.uint8 and col.type.bit_width == 1:
        bits = np.frombuffer(col.buffers()[1], dtype=np.uint8)
        return np.unpackbits(bits, count=col.offset + len(col), bitorder="little")[col.offset:]
    return np.frombuffer(col.buffers()[1], dtype=dtype, count=len(col),
                         offset=col.offset * dtype.itemsize)


def _without_null_dictionary(col: Any) -> Any:
    """Dictionary arrays whose dictionary holds a null, decoded (so the null shows)."""
    import pyarrow as pa
    if pa.types.is_dictionary(col.type) and col.dictionary.null_count:
        return col.dictionary_decode()
    return col


def _null_error(path: str, key: str, name: str | None, row: int) -> ValueError:
    return ValueError(f"{role_of(key)}: column {name!r} of {path} has a missing (null) value at "
                      f"row {row} (counting data rows from 0); drop those rows first, or "
                      "pass drop_nulls=True (CLI: --drop-nulls) to skip them.")


def _valid(columns: Iterable[Any]) -> Any:
    """The rows (an Arrow boolean array) where none of ``columns`` is null."""
    import pyarrow.compute as pc
    keep = None
    for c in columns:
        keep = c.is_valid() if keep is None else pc.and_(keep, c.is_valid())
    return keep


def _arrow_unkept(batches: Callable[[], Iterable[Any]], cols: dict[str, str | None]
                  ) -> Callable[[int], int]:
    """``Source.unkept`` of Arrow batches read with ``drop_nulls``: the file is read
    again up to the row asked for (an error path: nothing is kept while evaluating)."""
    def unkept(k: int) -> int:
        row = kept = 0
        for batch in batches():
            used = [_without_null_dictionary(batch.column(batch.schema.get_field_index(n)))
                    for n in dict.fromkeys(n for n in cols.values() if n)]
            with_nulls = [c for c in used if c.null_count]
            keep = _valid(with_nulls) if with_nulls else None
            n_kept = batch.num_rows if keep is None else keep.true_count
            if kept + n_kept > k:
                if keep is None:
                    return row + k - kept
                at = np.flatnonzero(keep.to_numpy(zero_copy_only=False))
                return row + int(at[k - kept])
            kept += n_kept
            row += batch.num_rows
        raise IndexError(f"row {k} is past the rows kept")
    return unkept


def _arrow_source(batches: Callable[[int], Iterable[Any]], cols: dict[str, str | None],
                  path: str, kind: str, drop_nulls: bool
                  ) -> tuple[Callable[[int], Iterator[tuple[Any, ...]]],
                             Callable[[int], int] | None]:
    """``Source.chunks`` and ``Source.unkept`` of a file read as Arrow batches of at
    most the given number of rows."""
    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
        return _arrow_chunks(_guarded(lambda: batches(rows), path, kind), cols, path,
                             drop_nulls)
    unkept = (_arrow_unkept(lambda: _guarded(lambda: batches(1 << 16), path, kind), cols)
              if drop_nulls else None)
    return chunks, unkept


def _arrow_chunks(batches: Iterable[Any], cols: dict[str, str | None], path: str,
                  drop_nulls: bool) -> Iterator[tuple[Any, ...]]:
    """NumPy chunks of record batches; nulls are an error naming the column and the
    first row (counted from the file's first data row), or dropped."""
    import pyarrow.compute as pc
    row = 0
    for batch in batches:
        columns = {role: None if name is None else
                   _without_null_dictionary(batch.column(batch.schema.get_field_index(name)))
                   for role, name in cols.items()}
        with_nulls = {role: c for role, c in columns.items() if c is not None and c.null_count}
        if with_nulls and drop_nulls:
            keep = _valid(with_nulls.values())
            columns = {role: None if c is None else c.filter(keep)
                       for role, c in columns.items()}
        elif with_nulls:
            first = {role: pc.index(c.is_null(), True).as_py() for role, c in with_nulls.items()}
            role = min(first, key=lambda r: first[r])
            raise _null_error(path, role, cols[role], row + first[role])
        row += batch.num_rows
        if columns["score"] is not None and len(columns["score"]) == 0:
            continue     # every row dropped (or an empty batch): no chunk, no typing
        chunk = tuple(None if c is None else _to_numpy(c) for c in columns.values())
        del batch, columns, with_nulls        # only the caller holds this chunk
        yield chunk
        del chunk


def _parquet_source(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError("reading .parquet needs pyarrow: pip install pyarrow") from None
    with _reading(path, ".parquet"), pq.ParquetFile(path) as pf:
        schema = pf.schema_arrow
        n_rows = pf.metadata.num_rows
        sizes = [pf.metadata.row_group(g).num_rows for g in range(pf.num_row_groups)]
    _missing_columns(path, cols, schema.names)
    _check_arrow_types(path, cols, schema)
    wanted = list(dict.fromkeys(c for c in cols.values() if c))
    per_row = sum(_row_bytes(schema.field(c).type) for c in wanted)

    def batches(rows: int) -> Iterator[Any]:
        # A fresh file per pass, reading column chunks page by page through a bounded
        # buffer: by default a whole row group (any size) is read into memory at once.
        with pq.ParquetFile(path, buffer_size=1 << 20, pre_buffer=False) as f:
            yield from f.iter_batches(batch_size=rows, columns=wanted)

    chunks, unkept = _arrow_source(batches, cols, path, ".parquet", drop_nulls)
    plain = all(_plain_arrow(schema.field(c).type) for c in wanted)
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
    whole (nor allocated: 5 bytes a row of fresh pages for a float32 score)."""

    path: str
    label: str
    score: str
    sizes: tuple[int, ...]

    def blocks(self, groups: Sequence[int]) -> Iterator[tuple[np.ndarray, np.ndarray] | None]:
        """Each chunk of ``groups``, in order, as ``(y, s)`` arrays the kernels take
        (views of the decoded buffers; bool labels as uint8); None, and no more, for
        a group with a null."""
        import pyarrow.parquet as pq
        wanted = list(dict.fromkeys((self.label, self.score)))
        with _reading(self.path, ".parquet"), pq.ParquetFile(self.path) as f:
            for g in groups:
                table = f.read_row_group(g, columns=wanted, use_threads=False)
                y, s = (_one_chunk(table.column(c)) for c in (self.label, self.score))
                if y.null_count or s.null_count:
                    yield None
                    return
                yield _plain_numpy(y), _plain_numpy(s)

    def sample(self) -> np.ndarray | None:
        """Scores of up to ``_SAMPLE_GROUPS`` row groups spread over the file, for the
        engine to size its buckets by; None when one holds a null."""
        import pyarrow.parquet as pq
        k = len(self.sizes)
        picked = sorted({round(i * (k - 1) / max(_SAMPLE_GROUPS - 1, 1))
                         for i in range(min(_SAMPLE_GROUPS, k))})
        out = []
        with _reading(self.path, ".parquet"), pq.ParquetFile(self.path) as f:
            for g in picked:
                col = _one_chunk(f.read_row_group(g, columns=[self.score],
                                                  use_threads=False).column(0))
                if col.null_count:
                    return None
                s = _plain_numpy(col)
                out.append(s[::max(1, len(s) // _SAMPLE_SCORES)])
        return np.concatenate(out)


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
    if not (_plain_arrow(schema.field(label).type) and _plain_arrow(schema.field(score).type)):
        return None
    if (_plain_dtype(schema.field(label).type) not in _GROUP_LABELS
            or _plain_dtype(schema.field(score).type) not in _GROUP_SCORES):
        return None
    return RowGroups(path, label, score, tuple(sizes))


def _plain_arrow(t: Any) -> bool:
    """Booleans, integers and floats: columns whose chunks are copied as they are."""
    import pyarrow as pa
    return bool(pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_floating(t))


def _parquet_read_all(path: str, cols: dict[str, str | None], schema: Any
                      ) -> tuple[Any, ...] | None:
    """Every row group of a Parquet file of plain columns, decoded on two threads
    straight into one array per column (no chunks to concatenate: the peak is the
    columns and a row group per thread). None when a column holds a null."""
    import pyarrow.parquet as pq
    from concurrent.futures import ThreadPoolExecutor
    names = {role: name for role, name in cols.items() if name is not None}
    wanted = list(dict.fromkeys(names.values()))
    with _reading(path, ".parquet"), pq.ParquetFile(path) as pf:
        sizes = [pf.metadata.row_group(g).num_rows for g in range(pf.num_row_groups)]
    starts = np.concatenate(([0], np.cumsum(sizes, dtype=np.int64)))
    out = {role: np.empty(int(starts[-1]), dtype=_numpy_dtype(schema.field(name).type))
           for role, name in names.items()}

    def read(groups: list[int]) -> bool:
        with _reading(path, ".parquet"), pq.ParquetFile(path) as f:
            for g in groups:
                table = f.read_row_group(g, columns=wanted, use_threads=False)
                for role, name in names.items():
                    col = table.column(name)
                    if col.null_count:
                        return False
                    at = int(starts[g])
                    for piece in col.chunks:
                        out[role][at:at + len(piece)] = _to_numpy(piece)
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


def _numpy_dtype(t: Any) -> np.dtype:
    """The dtype ``_to_numpy`` gives a column of Arrow type ``t``."""
    import pyarrow as pa
    if _plain_arrow(t):
        return np.dtype(np.bool_) if pa.types.is_boolean(t) else _plain_dtype(t)
    return _to_numpy(pa.array([], type=t)).dtype


def _ipc_source(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    """An Arrow IPC file (Feather v2, ``.arrow``): only the used columns are read (and
    decompressed), one record batch at a time; an IPC stream is read as it comes."""
    try:
        import pyarrow as pa
        import pyarrow.ipc as ipc
    except ImportError:
        raise ImportError("reading Arrow IPC files needs pyarrow: pip install "
                          "pyarrow") from None
    kind = "Arrow IPC (Feather)"

    def reader(fields: list[int] | None, mm: Any) -> Any:
        options = ipc.IpcReadOptions(included_fields=fields)
        try:
            return ipc.open_file(mm, options=options)
        except pa.ArrowInvalid:                       # not a file: maybe a stream
            mm.seek(0)
            return ipc.open_stream(mm, options=options)

    with _reading(path, kind), pa.memory_map(path) as mm:
        first = reader([], mm)
        schema = first.schema
        n_rows = first.count_rows() if hasattr(first, "get_batch") else None
    _missing_columns(path, cols, schema.names)
    _check_arrow_types(path, cols, schema)
    wanted = list(dict.fromkeys(c for c in cols.values() if c))
    fields = [schema.get_field_index(c) for c in wanted]
    per_row = sum(_row_bytes(schema.field(c).type) for c in wanted)

    def batches(rows: int) -> Iterator[Any]:
        with pa.memory_map(path) as mm:
            r = reader(fields, mm)
            stream = (r.get_batch(i) for i in range(r.num_record_batches)) \
                if hasattr(r, "get_batch") else r
            for batch in stream:
                for start in range(0, batch.num_rows, rows):
                    yield batch.slice(start, rows)

    chunks, unkept = _arrow_source(batches, cols, path, kind, drop_nulls)
    return Source(n_rows, per_row, chunks, n_bytes=os.path.getsize(path), unkept=unkept)


# Compressed CSV: the codec pyarrow reads each ending with.
_CSV_CODECS = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bz2", ".zst": "zstd",
               ".zstd": "zstd", ".lz4": "lz4", ".br": "brotli"}


def _csv_codec(path: str) -> str | None:
    """The compression of a CSV file from its name (``d.csv.gz``: gzip), or None."""
    return _CSV_CODECS.get(os.path.splitext(path)[1].lower())


def _csv_open(path: str) -> tuple[Any, Any]:
    """``(text, raw)``: a binary stream of the CSV text, decompressed where the name
    says so, and the file under it (whose position counts the bytes read on disk)."""
    codec = _csv_codec(path)
    raw = open(path, "rb")
    if codec is None:
        return raw, raw
    try:
        import pyarrow as pa
    except ImportError:
        raw.close()
        raise ImportError(f"reading {codec} compressed CSV needs pyarrow: pip install "
                          "pyarrow") from None
    return pa.CompressedInputStream(pa.PythonFile(raw, mode="r"), codec), raw


def _csv_header(path: str) -> list[str]:
    """The column names of a CSV file (its first line). The first block is decoded
    whole, as a text-mode file would: bytes that are not UTF-8 there fail early."""
    with _reading(path, ".csv"):
        text, raw = _csv_open(path)
        with raw, text:
            block = bytes(text.read(8192))
            while b"\n" not in block and (more := bytes(text.read(1 << 16))):
                block += more
        decoded = codecs.getincrementaldecoder("utf-8-sig")().decode(block, final=False)
    header = next(csv.reader(io.StringIO(decoded, newline="")), None)
    if not header:
        raise ValueError(f"path: {path} is empty: expected a header row with the column "
                         "names.")
    return header


def _csv_source(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    header = _csv_header(path)
    _missing_columns(path, cols, header)
    if _csv_codec(path) is not None:
        import pyarrow  # noqa: F401  (compressed files are read by pyarrow only)
    try:
        import pyarrow as pa
        import pyarrow.csv as pcsv
    except ImportError:
        data, kept = _csv_stdlib(path, cols, header, drop_nulls)
        y, s, w = data["label"], data["score"], data["weight"]
        return Source(len(s), 24, lambda rows: iter([(y, s, w)]),
                       unkept=None if kept is None else lambda k: int(kept[k]))
    read_options = {"column_names": header, "use_threads": False}
    convert = pcsv.ConvertOptions(
        # Without it a null marker in a text column is read as the label "" or "NA".
        strings_can_be_null=True,
        null_values=sorted(CSV_NULLS), true_values=sorted(CSV_TRUE),
        false_values=sorted(CSV_FALSE),
        include_columns=list(dict.fromkeys(c for c in cols.values() if c)),
        # Scores and weights are float64 in every block, whatever the first one looks
        # like; labels keep pyarrow's inference (bool, integers, floats, text).
        column_types={name: pa.float64() for key, name in cols.items()
                      if name is not None and not _text_allowed(key)
                      and not any(n == name for k, n in cols.items() if _text_allowed(k))})

    def batches(rows: int) -> Iterator[Any]:
        # Text, parsed columns and their NumPy chunk all live at once: half the rows
        # keep a block's peak near the chunk budget of ``rows`` rows.
        size = max(_CSV_MIN_BLOCK, min(rows * _csv_line_bytes(path) // 2, 1 << 30))
        done = 0
        fh, raw = _csv_open(path)
        position[0] = raw
        with raw, fh:
            next_block = _csv_block_reader(fh, size, _past_first_line(fh))
            while block := next_block():
                try:
                    table = pcsv.read_csv(
                        pa.py_buffer(block), convert_options=convert,
                        read_options=pcsv.ReadOptions(block_size=len(block) + 1,
                                                      **read_options),
                        memory_pool=_returning_pool())
                except pa.ArrowInvalid as exc:
                    raise _csv_error(exc, path, header, cols, done) from exc
                del block                 # text and table are not held together
                _check_arrow_types(path, cols, table.schema)
                done += table.num_rows
                parts = table.to_batches()
                del table
                while parts:
                    yield parts.pop(0)

    chunks, unkept = _arrow_source(batches, cols, path, ".csv", drop_nulls)

    position: list[Any] = [None]          # the file being read, for progress
    size = os.path.getsize(path)

    def done_bytes() -> int:
        raw = position[0]
        return size if raw is None or raw.closed else int(raw.tell())

    return Source(None, 24, chunks, n_bytes=size, done_bytes=done_bytes, unkept=unkept)


def _returning_pool() -> Any:
    """The C allocator's pool: it gives large freed blocks back to the system, where
    pyarrow's default (mimalloc or jemalloc) keeps tens of MB of them resident."""
    import pyarrow as pa
    return pa.system_memory_pool()


def _csv_line_bytes(path: str) -> int:
    """Bytes per line in the first megabyte of a CSV file: blocks of ``rows`` times
    as many bytes hold about ``rows`` rows."""
    text, raw = _csv_open(path)
    with raw, text:
        sample = bytes(text.read(_CSV_MIN_BLOCK))
    return max(1, -(-len(sample) // max(1, sample.count(b"\n"))))


def _past_first_line(fh: Any) -> bytes:
    """Read past the header line of ``fh``; the bytes read after it (compressed
    streams have no ``readline``)."""
    data = b""
    while (cut := data.find(b"\n")) < 0:
        more = bytes(fh.read(1 << 16))
        if not more:
            return b""
        data += more
    return data[cut + 1:]


def _csv_block_reader(fh: IO[bytes], size: int, rest: bytes = b""
                      ) -> Callable[[], bytes | memoryview]:
    """A function returning the next lines of ``fh``, about ``size`` bytes of them,
    ending at a newline (empty at the end of the file).

    pyarrow's streaming CSV reader reads ahead of its parser as fast as the disk
    allows (the whole file, if parsing is slower), so memory would not stay bounded;
    blocks parsed one at a time do. Like pyarrow's default (``newlines_in_values``
    off), blocks end at a newline. The caller holds the only reference to a block.
    ``rest``: bytes already read from ``fh``, to come first.
    """

    def read() -> bytes | memoryview:
        nonlocal rest
        while data := fh.read(size):
            if rest:
                data = rest + data
            cut = data.rfind(b"\n") + 1
            if cut == 0:                 # a line longer than a block: read on
                rest = data
                continue
            rest = data[cut:]
            return memoryview(data)[:cut]
        block, rest = rest, b""
        return block

    return read


def _csv_error(exc: Exception, path: str, header: list[str], cols: dict[str, str | None],
               done: int) -> ValueError:
    """A pyarrow CSV error, with its row counted in the file (data rows from 0) and the
    role of its column named where it is about one."""
    text = re.sub(r"Row #(\d+)", lambda m: f"row {done + int(m.group(1)) - 1}",
                  one_line(exc))
    m = re.match(r"In CSV column #(\d+): (.*)", text)
    if m and int(m.group(1)) < len(header):
        name = header[int(m.group(1))]
        role = next((role_of(r) for r, n in cols.items() if n == name), None)
        if role is not None:
            return ValueError(f"{role}: column {name!r} of {path} could not be read: "
                              f"{m.group(2)}")
    return ValueError(f"path: {path} could not be read as .csv: {text}")


def _csv_stdlib(path: str, cols: dict[str, str | None], header: list[str],
                drop_nulls: bool) -> tuple[dict[str, Any], np.ndarray | None]:
    """The whole CSV with the standard library (when pyarrow is missing), read as
    pyarrow reads it: the same null markers, and a label column typed as pyarrow
    infers it (integers, else booleans, else floats, else text); and the file rows
    kept when rows with a null were dropped."""
    index = {role: header.index(name) for role, name in cols.items() if name}
    values: dict[str, list[str]] = {role: [] for role in index}
    with _reading(path, ".csv"), open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.reader(fh)
        next(reader)
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise ValueError(f"path: {path}, line {line}: {len(row)} fields, the header "
                                 f"has {len(header)}.")
            for role, i in index.items():
                values[role].append(row[i])
    nulls = {role: [v in CSV_NULLS for v in raw] for role, raw in values.items()}
    bad = [i for i in range(len(values["score"])) if any(n[i] for n in nulls.values())]
    if bad and not drop_nulls:
        role = next(r for r in index if nulls[r][bad[0]])
        raise _null_error(path, role, cols[role], bad[0])
    dropped = set(bad)
    out: dict[str, Any] = {role: None for role in cols}
    for role, raw in values.items():
        kept = [v for i, v in enumerate(raw) if i not in dropped] if dropped else raw
        out[role] = _csv_column(kept, path, role, cols[role])
    if not dropped:
        return out, None
    return out, np.flatnonzero(~np.isin(np.arange(len(values["score"])), bad))


def _csv_column(raw: list[str], path: str, key: str, name: str | None) -> np.ndarray:
    """Null-free CSV fields as the NumPy array pyarrow's inference would give."""
    if _text_allowed(key):
        if all(re.fullmatch(r"[+-]?[0-9]+", v) for v in raw) and raw:
            try:
                return np.array([int(v) for v in raw], dtype=np.int64)
            except OverflowError:
                pass
        if all(v in CSV_TRUE or v in CSV_FALSE for v in raw) and raw:
            return np.array([v in CSV_TRUE for v in raw], dtype=bool)
    try:
        return np.array([float(v) for v in raw], dtype=np.float64)
    except ValueError:
        if not _text_allowed(key):
            raise ValueError(f"{role_of(key)}: column {name!r} of {path} is not "
                             "numeric.") from None
    return np.array(raw, dtype=object)


# --- errors in the rows, and labels given as text ---------------------------------------------------

# The in-memory argument each role of a file column is passed as.
_ARGUMENTS = {"y_true": "label", "pos_label": "label", "y_score": "score",
              "sample_weight": "weight"}
_ARGUMENT_AT_START = re.compile(r"(?:y_true|y_score|sample_weight|pos_label)\b")


@contextlib.contextmanager
def naming_columns(path: Any, cols: dict[str, str | None]) -> Iterator[None]:
    """Errors about the in-memory arguments (``y_true``, ``y_score``,
    ``sample_weight``, ``pos_label``) raised by the evaluation of a file's columns,
    prefixed with the role, column and file they came from, as the readers' own
    errors are: ``score: column 'p' of d.parquet: y_score contains NaN ...``.

    Parameters
    ----------
    path : str or path-like
        The file the columns came from.
    cols : dict of str to str or None
        Role (``label``, ``score``, ``weight``) to column name.

    Yields
    ------
    None
        Errors raised in the block are re-raised with the prefix.

    Examples
    --------
    >>> import indist_fast
    >>> from indist_fast.io import naming_columns
    >>> try:
    ...     with naming_columns("d.csv", {"label": "y", "score": "p"}):
    ...         indist_fast.evaluate([0, 1], [0.1, float("nan")])
    ... except ValueError as exc:
    ...     print(str(exc)[:48])
    score: column 'p' of d.csv: y_score contains NaN
    """
    try:
        yield
    except (ValueError, TypeError) as exc:
        if exc.args and isinstance(exc.args[0], str):
            m = _ARGUMENT_AT_START.match(exc.args[0])
            role = _ARGUMENTS.get(m.group(0)) if m else None
            if role is not None and cols.get(role) is not None:
                exc.args = (f"{role}: column {cols[role]!r} of {describe_path(path)}: "
                            f"{exc.args[0]}",) + exc.args[1:]
        raise


class LabelText(str):
    """A positive label given as text (on the command line), to be read as a value
    of the label column's type once that is known: see ``typed_pos_label``.

    Parameters
    ----------
    object : str
        The label as typed.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.io import LabelText, typed_pos_label
    >>> typed_pos_label(LabelText("1"), np.array([0, 1]))
    1
    """

    __slots__ = ()


def typed_pos_label(pos_label: Any, y: np.ndarray) -> Any:
    """``pos_label`` as a value of the label column ``y`` if it is a ``LabelText``.

    Booleans take pyarrow's true and false words (``True``, ``true``, ``1``...),
    numbers the text as an int or a float, text labels the text itself. Anything
    else, or text that fits none of these, is returned as given (a plain ``str``),
    so that ``evaluate`` reports the mismatch as it would in memory.

    Parameters
    ----------
    pos_label : scalar or LabelText
        The positive label; only a ``LabelText`` is converted.
    y : ndarray
        The label column, whose dtype decides the conversion.

    Returns
    -------
    scalar
        ``pos_label`` as a bool, int, float, bytes or str.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.io import LabelText, typed_pos_label
    >>> typed_pos_label(LabelText("true"), np.array([True, False]))
    True
    >>> typed_pos_label(LabelText("2.5"), np.array([0.0, 2.5]))
    2.5
    >>> typed_pos_label("1", np.array([0, 1]))      # plain text stays text
    '1'
    """
    if not isinstance(pos_label, LabelText):
        return pos_label
    text = str(pos_label)
    kind = np.asarray(y).dtype.kind
    if kind == "b":
        if text in CSV_TRUE or text in CSV_FALSE:
            return text in CSV_TRUE
    elif kind in "iuf":
        for convert in (int, float):
            try:
                return convert(text)
            except ValueError:
                pass
    elif kind == "S" or (kind == "O" and len(y) and isinstance(y[0], bytes)):
        return text.encode()              # a binary label column
    return text


# --- any format ---------------------------------------------------------------------------------

_SOURCES: dict[str, Callable[[str, dict[str, str | None], bool], Source]] = {
    ".npy": _npy_source, ".npz": _npz_source, ".csv": _csv_source,
    ".parquet": _parquet_source, ".pq": _parquet_source, ".feather": _ipc_source,
    ".arrow": _ipc_source, ".ipc": _ipc_source,
    **{".csv" + ending: _csv_source for ending in _CSV_CODECS}}
# Files of one dataset must share a family (``d.csv`` and ``e.csv.gz`` may mix).
_FAMILIES = {".pq": ".parquet", ".arrow": ".feather", ".ipc": ".feather",
             **{".csv" + ending: ".csv" for ending in _CSV_CODECS}}
_NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"


def _format_of(path: str) -> str:
    """The key of ``_SOURCES`` for a file name (``.csv.gz`` as one ending), else its
    last ending."""
    name = os.path.basename(path).lower()
    for ending in sorted(_SOURCES, key=len, reverse=True):
        if name.endswith(ending):
            return ending
    return os.path.splitext(name)[1]


def _unsupported(path: str) -> ValueError:
    ext = _format_of(path)
    return ValueError(f"path: cannot read {ext or 'extensionless'} files ({path}); use one "
                      f"of {', '.join(sorted(_SOURCES))}.")


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
        return check_path(path)
    except TypeError:
        return repr(path)


def _hidden(name: str) -> bool:
    """Names pyarrow's datasets skip too: ``_SUCCESS``, ``.crc`` files, ``_temporary``."""
    return name.startswith((".", "_"))


def _folder_files(folder: str) -> list[str]:
    """Every data file under ``folder``, in sorted order, hidden ones skipped."""
    found: list[str] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not _hidden(d))
        found.extend(os.path.join(root, f) for f in sorted(files) if not _hidden(f))
    if not found:
        raise ValueError(f"path: {folder} is a directory with no data files in it (or "
                         f"under it); expected files ending in {', '.join(sorted(_SOURCES))}.")
    return found


def _partition_keys(path: str, base: str) -> dict[str, str | None]:
    """``key=value`` folder names between ``base`` and the file (hive partitions), the
    values URL-decoded as pyarrow writes them; None for a null partition."""
    from urllib.parse import unquote
    rel = os.path.relpath(os.path.dirname(path), base) if base else os.path.dirname(path)
    keys: dict[str, str | None] = {}
    for part in rel.replace(os.sep, "/").split("/"):
        key, eq, value = part.partition("=")
        if eq and key:
            value = unquote(value)
            keys[unquote(key)] = None if value == _NULL_PARTITION else value
    return keys


def _dataset_files(path: Any) -> list[tuple[str, dict[str, str | None]]] | None:
    """The files of a folder, glob pattern or list with their partition keys; None
    when ``path`` names one file."""
    import glob
    if isinstance(path, (list, tuple)):
        if not path:
            raise ValueError("path: the list of files is empty.")
        out: list[tuple[str, dict[str, str | None]]] = []
        for item in path:
            if isinstance(item, (list, tuple)):
                raise TypeError("path must be a file name, folder or glob pattern (str or "
                                "path-like) or a list of them; got a nested list.")
            out.extend(_dataset_files(item) or [(_one_file(check_path(item)),
                                                 _partition_keys(check_path(item), ""))])
        return out
    name = _check_any_path(path)
    if os.path.isdir(name):
        return [(f, _partition_keys(f, name)) for f in _folder_files(name)]
    if os.path.exists(name) or not glob.has_magic(name):
        return None
    matches = sorted(glob.glob(name, recursive=True))
    if not matches:
        raise ValueError(f"path: the pattern {name} matches no file.")
    out = []
    for match in matches:
        inside = _folder_files(match) if os.path.isdir(match) else [match]
        out.extend((f, _partition_keys(f, "")) for f in inside if not
                   _hidden(os.path.basename(f)))
    return out


def _check_any_path(path: Any) -> str:
    if isinstance(path, (str, bytes, os.PathLike)):
        return os.fsdecode(os.fspath(path))
    raise TypeError("path must be a file name, folder or glob pattern (str or path-like) "
                    f"or a list of them, got {type(path).__name__}.")


def _one_file(path: str) -> str:
    """``path`` checked to be a readable file of a supported format."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"path: no such file: {path}")
    if os.path.isdir(path):
        raise ValueError(f"path: {path} is a directory, not a file.")
    if not os.path.isfile(path):         # a pipe or a device: the readers seek and reread
        raise ValueError(f"path: {path} is not a regular file.")
    if _format_of(path) not in _SOURCES:
        raise _unsupported(path)
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise ValueError(f"path: cannot open {path}: {exc.strerror or exc}.") from exc
    return path


def open_source(path: Any, cols: dict[str, str | None], *, drop_nulls: bool = False) -> Source:
    """The columns ``cols`` (role -> name, or None) of a file or a dataset of files.

    Parameters
    ----------
    path : str, path-like, or a list or tuple of them
        A file (``.parquet``, ``.csv``, ``.csv.gz``/``.bz2``/``.zst``, ``.feather``/
        ``.arrow``/``.ipc``, ``.npy`` structured, ``.npz``), a folder (read
        recursively; ``key=value`` folder names are hive partitions), a glob pattern,
        or a list of these.
    cols : dict of str to str or None
        Role (``label``, ``score``, ``weight``; more models as ``score#1``, ...,
        segment columns as ``by#0``, ...) to column name; None for no weights. Segment
        columns may be partition keys.
    drop_nulls : bool, default=False
        Skip the rows with a null in a used column instead of raising.

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
    _check_names(cols)
    drop_nulls = check_flag(drop_nulls, "drop_nulls")
    files = _dataset_files(path)
    if files is None:
        name = _one_file(_check_any_path(path))
        src = _SOURCES[_format_of(name)](name, cols, drop_nulls)
        if src.n_bytes is None:
            src.n_bytes = os.path.getsize(name)
        return src
    return _dataset_source(describe_path(path), files, cols, drop_nulls)


def _partition_types(files: list[tuple[str, dict[str, str | None]]]
                     ) -> dict[str, np.dtype]:
    """Each partition key's type as pyarrow infers it: int32 when every value is an
    integer that fits, else text."""
    values: dict[str, list[str]] = {}
    for _, keys in files:
        for key, value in keys.items():
            if value is not None:
                values.setdefault(key, []).append(value)
    types = {}
    for key, vals in values.items():
        ints = all(re.fullmatch(r"[+-]?[0-9]+", v) for v in vals) and all(
            -2**31 <= int(v) < 2**31 for v in vals)
        types[key] = np.dtype(np.int32) if ints else np.dtype(object)
    return types


def _kind_class(arr: np.ndarray) -> str:
    kind = arr.dtype.kind
    return ("booleans" if kind == "b" else "numbers" if kind in "iuf" else "dates"
            if kind == "M" else "text")


def _dataset_source(where: str, files: list[tuple[str, dict[str, str | None]]],
                    cols: dict[str, str | None], drop_nulls: bool) -> Source:
    """One source over many files, read one after another; segment (``by``) columns
    may be partition keys, filled in as constants."""
    formats: dict[str, str] = {}
    for f, _ in files:
        ext = _format_of(f)
        if ext not in _SOURCES:
            raise _unsupported(f)
        formats.setdefault(_FAMILIES.get(ext, ext), f)
    if len(formats) > 1:
        shown = ", ".join(f"{fam} ({f})" for fam, f in formats.items())
        raise ValueError(f"path: {where} mixes file formats: {shown}; give the files of "
                         "one format (a glob pattern such as '*.parquet' selects them).")
    types = _partition_types(files)
    opened = []
    for f, keys in files:
        _one_file(f)
        constants: dict[str, Any] = {}
        for key, name in cols.items():
            if name is None or name not in keys:
                continue
            if role_of(key) != "by":
                raise ValueError(f"{role_of(key)}: column {name!r} is a partition key of "
                                 f"{where} (a folder name {name}=...); only by= columns can "
                                 "come from partition keys.")
            text = keys[name]
            if text is None:
                raise ValueError(f"by: partition key {name!r} of {f} is null "
                                 f"({_NULL_PARTITION}); drop or fill those rows first.")
            value: Any = int(text) if types[name].kind == "i" else text
            constants[key] = np.array([value], dtype=types[name])
        own = {k: n for k, n in cols.items() if k not in constants}
        try:
            opened.append((f, _SOURCES[_format_of(f)](f, own, drop_nulls), constants))
        except ValueError as exc:
            if keys and exc.args and "available columns" in str(exc.args[0]):
                exc.args = (f"{str(exc.args[0]).rstrip('.')}; partition keys: "
                            f"{', '.join(map(repr, keys))}.",) + exc.args[1:]
            raise
    sizes = [os.path.getsize(f) for f, _ in files]
    known = all(src.n_rows is not None for _, src, _ in opened)
    # (first row in the stream, file, its unkept)
    starts: list[tuple[int, str, Callable[[int], int] | None]] = []
    done = [0, 0.0]                             # bytes of finished files, of the current

    first: dict[str, tuple[str, str]] = {}      # each column's kind, and where first seen

    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
        done[:] = [0, 0.0]
        return chunks_of(range(len(opened)), rows)

    def chunks_of(files: Iterable[int], rows: int) -> Iterator[tuple[Any, ...]]:
        """The chunks of some of the files (by index), rows counted from 0 again."""
        starts.clear()
        row = 0
        for i in files:
            (f, src, constants), size = opened[i], sizes[i]
            starts.append((row, f, src.unkept))
            in_file = 0
            for chunk in src.chunks(rows):
                own = iter(chunk)
                n = len(chunk[1])                  # the score column: never a constant
                out = tuple(np.repeat(constants[k], n) if k in constants else next(own)
                            for k in cols)
                for k, arr in zip(cols, out):
                    if arr is None or not _text_allowed(k):
                        continue
                    cls = _kind_class(arr)
                    seen = first.setdefault(k, (cls, f))
                    if seen[0] != cls:
                        raise ValueError(
                            f"path: the files of {where} disagree on column {cols[k]!r} "
                            f"(the {role_of(k)} column): {seen[0]} in {seen[1]}, {cls} in "
                            f"{f}; give every file the same column types.")
                row += n
                in_file += n
                if src.done_bytes is not None:
                    done[1] = src.done_bytes()
                elif src.n_rows:
                    done[1] = size * in_file / src.n_rows
                yield out
            done[:] = [done[0] + size, 0.0]

    def locate(row: int) -> tuple[str, int]:
        i = max(0, bisect.bisect_right([s for s, _, _ in starts], row) - 1)
        start, f, unkept = starts[i]
        return f, row - start if unkept is None else unkept(row - start)

    per_row = max(src.bytes_per_row for _, src, _ in opened) + 8 * sum(
        1 for k in cols if role_of(k) == "by")
    return Source(sum(src.n_rows for _, src, _ in opened) if known else None,  # type: ignore
                   per_row, chunks, n_bytes=sum(sizes),
                   done_bytes=lambda: int(done[0] + done[1]), locate=locate,
                   parts=[(constants, src.n_rows) for _, src, constants in opened],
                   chunks_of=chunks_of)


def page_release(*arrays: np.ndarray) -> Callable[[int, int], None]:
    """Drop the resident pages of rows ``start:stop`` of memory-mapped arrays.

    The pages stay in the page cache; the process just stops holding them, so its
    RSS counts the mapped file only where a pass is working.
    """
    maps = []
    for arr in arrays:
        mm = getattr(arr, "_mmap", None)
        if isinstance(arr, np.memmap) and mm is not None and hasattr(mm, "madvise"):
            maps.append((mm, arr.offset % mmap.ALLOCATIONGRANULARITY, arr.itemsize))

    def release(start: int, stop: int) -> None:
        for mm, base, size in maps:
            lo = base + start * size
            hi = base + stop * size
            lo = -(-lo // mmap.PAGESIZE) * mmap.PAGESIZE       # whole pages inside
            hi = hi // mmap.PAGESIZE * mmap.PAGESIZE
            if hi > lo:
                mm.madvise(mmap.MADV_DONTNEED, lo, hi - lo)

    return release


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
    >>> import os, tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> path = os.path.join(tmp.name, "scores.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("y,p\\n0,0.1\\n1,0.8\\n1,0.6\\n0,0.3\\n")
    >>> from indist_fast.io import read_columns
    >>> y, s, w = read_columns(path, label="y", score="p")
    >>> y.tolist(), s.tolist(), w
    ([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], None)
    >>> tmp.cleanup()
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
