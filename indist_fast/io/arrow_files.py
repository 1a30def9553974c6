"""Arrow columns as the NumPy arrays ``evaluate`` takes in memory, the chunks of any
format read as Arrow record batches (Parquet, CSV, IPC), and Arrow IPC files
(Feather v2, ``.arrow``, ``.ipc``) themselves.

Booleans become ``bool``, strings (also dictionary-encoded, i.e. categorical) Python
strings, decimals the nearest ``float64``. A null in a used column is an error naming
the column and its first row, unless ``drop_nulls`` skips the rows holding one.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

import numpy as np

from .columns import check_present, null_error, role_of, text_allowed
from .source import Source, guarded, reading
from .stores import StorePath, file_size

__all__ = ["open_ipc", "arrow_kind", "check_arrow_types", "row_bytes", "arrow_to_numpy",
           "plain_arrow", "plain_dtype", "plain_numpy", "numpy_dtype", "batch_chunks"]


def arrow_kind(t: Any) -> str | None:
    """``"bool"``, ``"number"``, ``"text"``, ``"null"`` or ``"date"`` for an Arrow
    type, else None."""
    import pyarrow as pa
    types = pa.types
    if types.is_dictionary(t):
        return arrow_kind(t.value_type)
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


def check_arrow_types(path: str, cols: dict[str, str | None], schema: Any) -> None:
    """Every used column of a type its role can take (labels may be text, the rest
    must be numbers or booleans), before any row is read."""
    for key, name in cols.items():
        if name is None:
            continue
        t = schema.field(name).type
        kind = arrow_kind(t)
        role = role_of(key)
        if kind is None or (kind == "text" and not text_allowed(key)) or (
                kind == "date" and role != "by"):
            want = ("booleans, numbers, strings or dates" if role == "by"
                    else "booleans, numbers or strings" if text_allowed(key)
                    else "numbers (integer, floating point or decimal) or booleans")
            raise TypeError(f"{role}: column {name!r} of {path} has Arrow type {t}; a {role} "
                            f"column must hold {want}.")


def row_bytes(t: Any) -> int:
    """NumPy bytes per row of a column of Arrow type ``t`` once converted (never
    ``byte_width``, which variable-width and bit-packed types do not have)."""
    import pyarrow as pa
    if pa.types.is_boolean(t):
        return 1
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        return int(t.bit_width) // 8
    return 8                 # float64 (decimals), object pointers (text, categories)


def arrow_to_numpy(col: Any) -> np.ndarray:
    """A null-free Arrow array as the NumPy array ``evaluate`` takes in memory.

    Numbers are viewed from the Arrow buffer: pyarrow's own ``to_numpy`` imports
    pandas on its first call (some 30 MB and half a second).
    """
    import pyarrow as pa
    t = col.type
    if plain_arrow(t):
        plain = plain_numpy(col)
        return plain.view(np.bool_) if pa.types.is_boolean(t) else plain
    import pyarrow.compute as pc     # (not above: it imports pandas, half a second)
    if pa.types.is_dictionary(t):
        d = col.dictionary          # few values: text ones become one object each
        values = (np.array(d.to_pylist(), dtype=object) if arrow_kind(d.type) == "text"
                  else arrow_to_numpy(d))
        out: np.ndarray = values[arrow_to_numpy(col.indices)]
        return out
    if pa.types.is_decimal(t):
        # Through the exact decimal text: Arrow's direct cast is not always rounded
        # to nearest, while float(Decimal) (what the in-memory path does) is.
        return arrow_to_numpy(pc.cast(pc.cast(col, pa.string()), pa.float64()))
    if arrow_kind(t) == "text":
        # Each distinct label becomes one Python object shared by its rows: 8 bytes a
        # row instead of a string object per row.
        return arrow_to_numpy(pc.dictionary_encode(col))
    if pa.types.is_null(t):
        return np.empty(0, dtype=np.float64)
    if arrow_kind(t) == "date":          # days (date32), or time units since the epoch
        unit = "D" if pa.types.is_date32(t) else "ms" if pa.types.is_date64(t) else t.unit
        ints = arrow_to_numpy(pc.cast(col, pa.int32() if unit == "D" else pa.int64()))
        return ints.astype(f"datetime64[{unit}]")
    raise TypeError(f"no NumPy type for Arrow type {t}")


def plain_arrow(t: Any) -> bool:
    """Booleans, integers and floats: columns whose chunks are copied as they are."""
    import pyarrow as pa
    return bool(pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_floating(t))


def plain_dtype(t: Any) -> np.dtype:
    """The NumPy dtype of an Arrow boolean (as uint8), integer or float type."""
    import pyarrow as pa
    if pa.types.is_boolean(t):
        return np.dtype(np.uint8)
    kind = "f" if pa.types.is_floating(t) else "i" if pa.types.is_signed_integer(t) else "u"
    return np.dtype(f"{kind}{t.bit_width // 8}")


def plain_numpy(col: Any) -> np.ndarray:
    """A null-free Arrow array of a ``plain_arrow`` type as NumPy: numbers viewed from
    the Arrow buffer, booleans unpacked from their bits to uint8 0 and 1."""
    dtype = plain_dtype(col.type)
    if len(col) == 0:
        return np.empty(0, dtype=dtype)
    if dtype == np.uint8 and col.type.bit_width == 1:
        bits = np.frombuffer(col.buffers()[1], dtype=np.uint8)
        return np.unpackbits(bits, count=col.offset + len(col), bitorder="little")[col.offset:]
    return np.frombuffer(col.buffers()[1], dtype=dtype, count=len(col),
                         offset=col.offset * dtype.itemsize)


def numpy_dtype(t: Any) -> np.dtype:
    """The dtype ``arrow_to_numpy`` gives a column of Arrow type ``t``."""
    import pyarrow as pa
    if plain_arrow(t):
        return np.dtype(np.bool_) if pa.types.is_boolean(t) else plain_dtype(t)
    return arrow_to_numpy(pa.array([], type=t)).dtype


def _without_null_dictionary(col: Any) -> Any:
    """Dictionary arrays whose dictionary holds a null, decoded (so the null shows)."""
    import pyarrow as pa
    if pa.types.is_dictionary(col.type) and col.dictionary.null_count:
        return col.dictionary_decode()
    return col


def _valid(columns: Iterable[Any]) -> Any:
    """The rows (an Arrow boolean array) where none of ``columns`` is null."""
    import pyarrow.compute as pc
    keep = None
    for c in columns:
        keep = c.is_valid() if keep is None else pc.and_(keep, c.is_valid())
    return keep


def _unkept(batches: Callable[[], Iterable[Any]], cols: dict[str, str | None]
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


def batch_chunks(batches: Callable[[int], Iterable[Any]], cols: dict[str, str | None],
                 path: str, kind: str, drop_nulls: bool
                 ) -> tuple[Callable[[int], Iterator[tuple[Any, ...]]],
                            Callable[[int], int] | None]:
    """``Source.chunks`` and ``Source.unkept`` of a file read as Arrow batches of at
    most the given number of rows (``batches(rows)``)."""
    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
        return _numpy_chunks(guarded(lambda: batches(rows), path, kind), cols, path,
                             drop_nulls)
    unkept = (_unkept(lambda: guarded(lambda: batches(1 << 16), path, kind), cols)
              if drop_nulls else None)
    return chunks, unkept


def _numpy_chunks(batches: Iterable[Any], cols: dict[str, str | None], path: str,
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
            raise null_error(path, role, cols[role], row + first[role])
        row += batch.num_rows
        if columns["score"] is not None and len(columns["score"]) == 0:
            continue     # every row dropped (or an empty batch): no chunk, no typing
        chunk = tuple(None if c is None else arrow_to_numpy(c) for c in columns.values())
        del batch, columns, with_nulls        # only the caller holds this chunk
        yield chunk
        del chunk


def open_ipc(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
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

    with reading(path, kind), _mapped(path) as mm:
        first = reader([], mm)
        schema = first.schema
        n_rows = first.count_rows() if hasattr(first, "get_batch") else None
    check_present(path, cols, schema.names)
    check_arrow_types(path, cols, schema)
    wanted = list(dict.fromkeys(c for c in cols.values() if c))
    fields = [schema.get_field_index(c) for c in wanted]
    per_row = sum(row_bytes(schema.field(c).type) for c in wanted)

    def batches(rows: int) -> Iterator[Any]:
        with _mapped(path) as mm:
            r = reader(fields, mm)
            stream = (r.get_batch(i) for i in range(r.num_record_batches)) \
                if hasattr(r, "get_batch") else r
            for batch in stream:
                for start in range(0, batch.num_rows, rows):
                    yield batch.slice(start, rows)

    chunks, unkept = batch_chunks(batches, cols, path, kind, drop_nulls)
    return Source(n_rows, per_row, chunks, n_bytes=file_size(path), unkept=unkept)


def _mapped(path: str) -> Any:
    """An IPC file to read: memory-mapped on the local disk, opened through its store
    (random access) in a store."""
    import pyarrow as pa
    if isinstance(path, StorePath):
        return path.filesystem.open_input_file(path.inner)
    return pa.memory_map(path)
