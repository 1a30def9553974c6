"""CSV files, also compressed (``.csv.gz``, ``.bz2``, ``.zst``, ``.lz4``, ``.br``):
parsed by pyarrow a block of whole lines at a time, or, without pyarrow, whole by the
standard library, which reads them as pyarrow does. Empty fields and pyarrow's null
markers (``NA``, ``NaN``, ``null``...) are nulls in every column, text ones included.
"""

from __future__ import annotations

import codecs
import csv
import functools
import io
import os
import re
from typing import IO, Any, Callable, Iterator

import numpy as np

from .arrow_files import batch_chunks, check_arrow_types, plain_numpy
from .columns import (CSV_FALSE, CSV_NULLS, CSV_TRUE, check_present, null_error, role_of,
                      text_allowed)
from .source import Source, one_line, reading
from .stores import StorePath, file_size, open_input

__all__ = ["open_csv", "CSV_CODECS", "CSV_NULLS", "CSV_TRUE", "CSV_FALSE"]

_CSV_MIN_BLOCK = 1 << 20           # pyarrow's default; a block must hold whole lines
#: Compressed CSV: the codec pyarrow reads each ending (after ``.csv``) with.
CSV_CODECS = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bz2", ".zst": "zstd",
              ".zstd": "zstd", ".lz4": "lz4", ".br": "brotli"}


def _csv_codec(path: str) -> str | None:
    """The compression of a CSV file from its name (``d.csv.gz``: gzip), or None."""
    return CSV_CODECS.get(os.path.splitext(path)[1].lower())


def _csv_open(path: str) -> tuple[Any, Any]:
    """``(text, raw)``: a binary stream of the CSV text, decompressed where the name
    says so, and the file under it (whose position counts the bytes read on disk)."""
    codec = _csv_codec(path)
    raw = open_input(path)
    if codec is None:
        return raw, raw
    try:
        import pyarrow as pa
    except ImportError:
        raw.close()
        raise ImportError(f"reading {codec} compressed CSV needs pyarrow: pip install "
                          "pyarrow") from None
    if isinstance(path, StorePath):                   # already a pyarrow file
        return pa.CompressedInputStream(raw, codec), raw
    return pa.CompressedInputStream(pa.PythonFile(raw, mode="r"), codec), raw


def _csv_header(path: str) -> list[str]:
    """The column names of a CSV file (its first line). The first block is decoded
    whole, as a text-mode file would: bytes that are not UTF-8 there fail early."""
    with reading(path, ".csv"):
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


def open_csv(path: str, cols: dict[str, str | None], drop_nulls: bool) -> Source:
    """The columns ``cols`` of a CSV file (rows not known before reading)."""
    header = _csv_header(path)
    check_present(path, cols, header)
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
                      if name is not None and not text_allowed(key)
                      and not any(n == name for k, n in cols.items() if text_allowed(k))})

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
                check_arrow_types(path, cols, table.schema)
                _check_integer_text(table, functools.partial(_as_text, block, read_options),
                                    path, cols, done)
                del block                 # text and table are not held together
                done += table.num_rows
                parts = table.to_batches()
                del table
                while parts:
                    yield parts.pop(0)

    chunks, unkept = batch_chunks(batches, cols, path, ".csv", drop_nulls)

    position: list[Any] = [None]          # the file being read, for progress
    size = file_size(path)

    def done_bytes() -> int:
        raw = position[0]
        return size if raw is None or raw.closed else int(raw.tell())

    return Source(None, 24, chunks, n_bytes=size, done_bytes=done_bytes, unkept=unkept)


# Integers float64 cannot hold (2**53 + 1 reads as 2**53) would tie with their
# neighbours and change the metrics, as in-memory int64 scores would; float text
# ("9007199254740993.0") is read as a float, as everywhere.
_EXACT_INT = 2**53
_INTEGER_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*")


def _inexact_integer(text: str) -> bool:
    """Whether ``text`` is an integer that float64 does not hold exactly."""
    if len(text) < 16 or _INTEGER_TEXT.fullmatch(text) is None:     # 2**53 has 16 digits
        return False
    try:
        value = int(text)
        return abs(value) >= _EXACT_INT and int(float(value)) != value
    except (OverflowError, ValueError):  # beyond float64's range (or int's 4,300 digits)
        return True


def _inexact_integer_error(path: str, key: str, name: str | None, row: int,
                           text: str) -> ValueError:
    shown = text.strip()
    if len(shown) > 40:
        shown = f"{shown[:24]}... ({len(shown)} characters)"
    return ValueError(f"{role_of(key)}: column {name!r} of {path} holds the integer "
                      f"{shown} at row {row} (counting data rows from 0), which "
                      "float64 cannot tell apart from its neighbours: distinct scores would "
                      "become ties and the metrics change. Rescale or rank them first (any "
                      "order-preserving map gives the same results), or write them as "
                      "floats (9.0e15, with a decimal point or exponent) if those ties are "
                      "intended.")


def _as_text(block: Any, read_options: dict[str, Any], name: str) -> Any:
    """Column ``name`` of a CSV block parsed again, as text."""
    import pyarrow as pa
    import pyarrow.csv as pcsv
    return pcsv.read_csv(
        pa.py_buffer(block), read_options=pcsv.ReadOptions(block_size=len(block) + 1,
                                                           **read_options),
        convert_options=pcsv.ConvertOptions(include_columns=[name],
                                            column_types={name: pa.string()}))


def _check_integer_text(table: Any, as_text: Callable[[str], Any], path: str,
                        cols: dict[str, str | None], done: int) -> None:
    """No score of a parsed block an integer float64 rounded: only blocks holding a
    score of magnitude 2**53 or more (rare) are parsed again, that column as text."""
    import pyarrow as pa
    for key, name in cols.items():
        if (name is None or role_of(key) != "score"
                or table.schema.field(name).type != pa.float64()):
            continue
        rows: list[int] = []
        start = 0
        for chunk in table.column(name).chunks:
            # Viewed, no temporaries (fmax/fmin skip NaN); a null's slot holds some
            # number, but its text is no integer.
            values = plain_numpy(chunk)
            if len(values) and (np.fmax.reduce(values) >= _EXACT_INT
                                or np.fmin.reduce(values) <= -_EXACT_INT):
                big = (values >= _EXACT_INT) | (values <= -_EXACT_INT)
                rows.extend((start + np.flatnonzero(big)).tolist())
            start += len(values)
        if rows:
            text = as_text(name).column(name)
            for row in rows:
                value = text[row].as_py()
                if _inexact_integer(value):
                    raise _inexact_integer_error(path, key, name, done + row, value)


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
    with reading(path, ".csv"), open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.reader(fh)
        next(reader)
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise ValueError(f"path: {path}, line {line}: {len(row)} fields, the header "
                                 f"has {len(header)}.")
            for role, i in index.items():
                values[role].append(row[i])
    nulls = {role: [v in CSV_NULLS for v in raw] for role, raw in values.items()}
    for role, raw in values.items():
        if role_of(role) == "score":
            at = next((i for i, v in enumerate(raw) if _inexact_integer(v)), -1)
            if at >= 0:
                raise _inexact_integer_error(path, role, cols[role], at, raw[at])
    bad = [i for i in range(len(values["score"])) if any(n[i] for n in nulls.values())]
    if bad and not drop_nulls:
        role = next(r for r in index if nulls[r][bad[0]])
        raise null_error(path, role, cols[role], bad[0])
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
    if text_allowed(key):
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
        if not text_allowed(key):
            raise ValueError(f"{role_of(key)}: column {name!r} of {path} is not "
                             "numeric.") from None
    return np.array(raw, dtype=object)
