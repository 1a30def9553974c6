"""Datasets of files: a folder (read recursively; ``key=value`` folder names are hive
partition keys, usable as segment columns), a glob pattern or a list of paths, read
one file after another as one ``Source``."""

from __future__ import annotations

import bisect
import os
import re
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from .columns import role_of, text_allowed
from .registry import FAMILIES, FORMATS, check_file, format_of, unsupported
from .source import Source, check_input_path
from .stores import StorePath, file_size, has_magic, store_glob, store_kind, store_tree

__all__ = ["dataset_files", "open_dataset", "check_any_path"]

_NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"

#: A dataset's files, each with its partition keys (None for a null partition).
Files = list[tuple[str, dict[str, str | None]]]


def _hidden(name: str) -> bool:
    """Names pyarrow's datasets skip too: ``_SUCCESS``, ``.crc`` files, ``_temporary``."""
    return name.startswith((".", "_"))


def _folder_files(folder: str) -> list[str]:
    """Every data file under ``folder``, in sorted order, hidden ones skipped."""
    found: list[str] = []
    if isinstance(folder, StorePath):
        found = [f for f, rel in store_tree(folder) if not any(map(_hidden, rel.split("/")))]
    else:
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not _hidden(d))
            found.extend(os.path.join(root, f) for f in sorted(files) if not _hidden(f))
    if not found:
        raise ValueError(f"path: {folder} is a directory with no data files in it (or "
                         f"under it); expected files ending in {', '.join(sorted(FORMATS))}.")
    return found


def _partition_keys(path: str, base: str) -> dict[str, str | None]:
    """``key=value`` folder names between ``base`` and the file (hive partitions), the
    values URL-decoded as pyarrow writes them; None for a null partition."""
    from urllib.parse import unquote
    if isinstance(path, StorePath):            # the names in the store, not the URI's
        path, base = path.inner, base and base.inner    # type: ignore[attr-defined]
    rel = os.path.relpath(os.path.dirname(path), base) if base else os.path.dirname(path)
    keys: dict[str, str | None] = {}
    for part in rel.replace(os.sep, "/").split("/"):
        key, eq, value = part.partition("=")
        if eq and key:
            value = unquote(value)
            keys[unquote(key)] = None if value == _NULL_PARTITION else value
    return keys


def check_any_path(path: Any) -> str:
    """``path`` (a file, folder or pattern) as a ``str``; a ``TypeError`` naming
    ``path`` for anything else."""
    if isinstance(path, (str, bytes, os.PathLike)):
        return os.fsdecode(os.fspath(path))
    raise TypeError("path must be a file name, folder or glob pattern (str or path-like) "
                    f"or a list of them, got {type(path).__name__}.")


def dataset_files(path: Any) -> Files | None:
    """The files of a folder, glob pattern or list with their partition keys; None
    when ``path`` names one file."""
    import glob
    if isinstance(path, (list, tuple)):
        if not path:
            raise ValueError("path: the list of files is empty.")
        out: Files = []
        for item in path:
            if isinstance(item, (list, tuple)):
                raise TypeError("path must be a file name, folder or glob pattern (str or "
                                "path-like) or a list of them; got a nested list.")
            out.extend(dataset_files(item) or [(check_file(check_input_path(item)),
                                                _partition_keys(check_input_path(item), ""))])
        return out
    name = check_any_path(path)
    if isinstance(name, StorePath):
        return _store_files(name)
    if os.path.isdir(name):
        return [(f, _partition_keys(f, name)) for f in _folder_files(name)]
    if os.path.exists(name) or not glob.has_magic(name):
        return None
    matches = sorted(glob.glob(name, recursive=True))
    if not matches:
        raise ValueError(f"path: the pattern {name} matches no file.")
    out = []
    seen: set[str] = set()          # ``a/**`` matches a folder and the files in it
    for match in matches:
        inside = _folder_files(match) if os.path.isdir(match) else [match]
        for f in inside:
            if not _hidden(os.path.basename(f)) and f not in seen:
                seen.add(f)
                out.append((f, _partition_keys(f, "")))
    return out


def _store_files(name: StorePath) -> Files | None:
    """``dataset_files`` of a folder or pattern in a store (one request: the listing),
    the files and their order those of the same folder or pattern on disk."""
    kind = store_kind(name)
    if kind == "folder":
        return [(f, _partition_keys(f, name)) for f in _folder_files(name)]
    if kind == "file" or not has_magic(name.inner):
        return None                                # check_file names what is missing
    out: Files = []
    seen: set[str] = set()
    for match, inside in store_glob(name):
        for f, below in inside:
            hidden = _hidden(f.inner.rsplit("/", 1)[-1]) if not below else any(
                map(_hidden, below.split("/")))
            if not hidden and f not in seen:
                seen.add(f)
                out.append((f, _partition_keys(f, "")))
    if not out:
        raise ValueError(f"path: the pattern {name} matches no file.")
    return out


def _partition_types(files: Files) -> dict[str, np.dtype]:
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


def _one_family(where: str, files: Files) -> None:
    """Every file of a known format, and all of one family."""
    formats: dict[str, str] = {}
    for f, _ in files:
        ext = format_of(f)
        if ext not in FORMATS:
            raise unsupported(f)
        formats.setdefault(FAMILIES.get(ext, ext), f)
    if len(formats) > 1:
        shown = ", ".join(f"{fam} ({f})" for fam, f in formats.items())
        raise ValueError(f"path: {where} mixes file formats: {shown}; give the files of "
                         "one format (a glob pattern such as '*.parquet' selects them).")


def _open_files(where: str, files: Files, cols: dict[str, str | None], drop_nulls: bool
                ) -> list[tuple[str, Source, dict[str, Any], dict[str, Any]]]:
    """Each file's source of the columns it holds, the columns its partition keys
    fill (``by`` columns only) as one-value arrays, and the partition values of the
    columns the file holds as well (its rows must agree with them)."""
    types = _partition_types(files)
    opened = []
    for f, keys in files:
        check_file(f)
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
        opener = FORMATS[format_of(f)]
        own = {k: n for k, n in cols.items() if k not in constants}
        checked: dict[str, Any] = {}
        for key in list(constants):
            # the file holds the column too (polars writes both): read from the file,
            # each row checked against the folder name, so neither wins silently
            if _also_in_file(opener, f, {**own, key: cols[key]}, drop_nulls):
                checked[key] = constants.pop(key)[0]
        own = {k: n for k, n in cols.items() if k not in constants}
        try:
            opened.append((f, opener(f, own, drop_nulls), constants, checked))
        except ValueError as exc:
            if keys and exc.args and "available columns" in str(exc.args[0]):
                exc.args = (f"{str(exc.args[0]).rstrip('.')}; partition keys: "
                            f"{', '.join(map(repr, keys))}.",) + exc.args[1:]
            raise
    return opened


def _also_in_file(opener: Callable[..., Source], f: str, cols: dict[str, str | None],
                  drop_nulls: bool) -> bool:
    """Whether the file has the columns too: its opener takes them (it checks the
    names before reading a row; any refusal means no)."""
    try:
        opener(f, cols, drop_nulls)
    except Exception:
        return False
    return True


def _check_partition(values: np.ndarray, value: Any, where: str, f: str, name: str | None,
                     first_row: int) -> None:
    """A file column that is also a partition key holds the folder's value on every row."""
    same = np.asarray(values == value)
    if same.ndim == 0:                              # types that cannot compare equal
        same = np.zeros(len(values), dtype=bool)
    if not same.all():
        k = int(np.argmin(same))
        held = values[k].item() if isinstance(values[k], np.generic) else values[k]
        raise ValueError(f"by: column {name!r} is both a partition key of {where} and a "
                         f"column of {f}, and they disagree: row {first_row + k} holds "
                         f"{held!r}, the folder name says {name}={value}; rename one "
                         "of them so the column meant is unambiguous.")


def open_dataset(where: str, files: Files, cols: dict[str, str | None],
                 drop_nulls: bool) -> Source:
    """One source over many files, read one after another; segment (``by``) columns
    may be partition keys, filled in as constants."""
    _one_family(where, files)
    opened = _open_files(where, files, cols, drop_nulls)
    sizes = [file_size(f) for f, _ in files]
    known = all(src.n_rows is not None for _, src, _, _ in opened)
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
            (f, src, constants, checked), size = opened[i], sizes[i]
            starts.append((row, f, src.unkept))
            in_file = 0
            for chunk in src.chunks(rows):
                own = iter(chunk)
                n = len(chunk[1])                  # the score column: never a constant
                out = tuple(np.repeat(constants[k], n) if k in constants else next(own)
                            for k in cols)
                for k, value in checked.items():
                    _check_partition(out[list(cols).index(k)], value, where, f, cols[k],
                                     in_file)
                for k, arr in zip(cols, out):
                    if arr is None or not text_allowed(k):
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

    per_row = max(src.bytes_per_row for _, src, _, _ in opened) + 8 * sum(
        1 for k in cols if role_of(k) == "by")
    return Source(sum(src.n_rows for _, src, _, _ in opened) if known else None,  # type: ignore
                  per_row, chunks, n_bytes=sum(sizes),
                  done_bytes=lambda: int(done[0] + done[1]), locate=locate,
                  parts=[(constants, src.n_rows) for _, src, constants, _ in opened],
                  chunks_of=chunks_of)
