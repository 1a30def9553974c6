"""Read label, score and weight columns from .npy, .npz, .csv and .parquet files."""

from __future__ import annotations

import csv
import os
import zipfile
from typing import Any

import numpy as np

__all__ = ["read_columns"]


def _pick(available: list[str], wanted: dict[str, str | None], path: str) -> None:
    for role, name in wanted.items():
        if name is not None and name not in available:
            raise ValueError(f"{role}: column {name!r} is not in {path}; available columns: "
                             f"{', '.join(map(repr, available)) or 'none'}.")


def _from_npy(path: str, cols: dict[str, str | None]) -> dict[str, Any]:
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as exc:       # bad header, or fewer bytes than the header says
        raise _Unreadable(str(exc)) from exc
    names = list(arr.dtype.names or [])
    if not names:
        raise ValueError(f"{path} holds a plain array of shape {arr.shape}; an .npy file "
                         "needs a structured array with named fields (or use .npz).")
    _pick(names, cols, path)
    return {role: (arr[name] if name else None) for role, name in cols.items()}


def _from_npz(path: str, cols: dict[str, str | None]) -> dict[str, Any]:
    # Our own handle: np.load leaks its file when the zip directory is corrupt.
    with open(path, "rb") as fh:
        try:
            data = np.load(fh, allow_pickle=False)
        except (ValueError, zipfile.BadZipFile) as exc:
            raise _Unreadable(str(exc)) from exc
        with data:
            _pick(list(data.files), cols, path)
            try:
                return {role: (data[name] if name else None) for role, name in cols.items()}
            except (ValueError, zipfile.BadZipFile, EOFError) as exc:
                raise _Unreadable(str(exc)) from exc


def _from_parquet(path: str, cols: dict[str, str | None]) -> dict[str, Any]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError("reading .parquet needs pyarrow: pip install 'indist-fast[io]'") from None
    schema = pq.read_schema(path)
    _pick(list(schema.names), cols, path)
    table = pq.read_table(path, columns=[c for c in cols.values() if c])
    return {role: (table.column(name).to_numpy() if name else None)
            for role, name in cols.items()}


def _from_csv(path: str, cols: dict[str, str | None]) -> dict[str, Any]:
    try:
        import pyarrow.csv as pcsv
    except ImportError:
        pcsv = None
    if pcsv is not None:
        table = pcsv.read_csv(path)
        _pick(list(table.column_names), cols, path)
        return {role: (table.column(name).to_numpy() if name else None)
                for role, name in cols.items()}
    with open(path, newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None:
            raise ValueError(f"{path} is empty: expected a header row.")
        _pick(header, cols, path)
        index = {role: header.index(name) for role, name in cols.items() if name}
        values: dict[str, list[str]] = {role: [] for role in index}
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise ValueError(f"{path}, line {line}: {len(row)} fields, header has "
                                 f"{len(header)}.")
            for role, i in index.items():
                values[role].append(row[i])
    out: dict[str, Any] = {role: None for role in cols}
    for role, raw in values.items():
        try:
            out[role] = np.array(raw, dtype=np.float64)
        except ValueError:
            if role != "label":
                raise ValueError(f"{role}: column {cols[role]!r} of {path} is not numeric.") from None
            out[role] = np.array(raw)
    return out


class _Unreadable(Exception):
    """The bytes are not a valid file of the format its extension names."""


_READERS = {".npy": _from_npy, ".npz": _from_npz, ".csv": _from_csv,
            ".parquet": _from_parquet, ".pq": _from_parquet}


def read_columns(path: str | os.PathLike[str], *, label: str, score: str,
                 weight: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Read ``(y_true, y_score, sample_weight)`` columns from a file.

    Parameters
    ----------
    path : str or path-like
        ``.npy`` (a structured array, memory-mapped), ``.npz``, ``.csv`` or
        ``.parquet`` (needs pyarrow).
    label, score : str
        Column (field, array) names of the labels and the scores.
    weight : str, default=None
        Column of sample weights, if any.

    Returns
    -------
    tuple of ndarray
        Labels, scores and weights (None without a weight column).
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    ext = os.path.splitext(path)[1].lower()
    if ext not in _READERS:
        raise ValueError(f"path: cannot read {ext or 'extensionless'} files; use one of "
                         f"{', '.join(sorted(_READERS))}.")
    cols = {"label": label, "score": score, "weight": weight}
    try:
        data = _READERS[ext](path, cols)
    except (_Unreadable, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path} could not be read as {ext}: {exc}") from exc
    return data["label"], data["score"], data["weight"]
