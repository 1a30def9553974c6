"""Rows from the named columns of a pandas or polars DataFrame or a pyarrow Table."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, ParamSpec, TypeVar

import numpy as np

from .._core.validation import Rows, check_columns, prepare_rows

P = ParamSpec("P")
R = TypeVar("R")


def columns_by_keyword(func: Callable[P, R]) -> Callable[P, R]:
    """``func(y_true, y_score, *, ..., label=, score=)`` with a TypeError that says what
    to do when the columns of a table come positionally: ``f(df, "y", "p")`` (Python's
    own error only counts the arguments), ``f(df, "p")`` (a string of scores) or
    ``f(y, s, w)`` (weights are keyword-only).

    Examples
    --------
    >>> import pandas as pd
    >>> import indist_fast
    >>> df = pd.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.8, 0.6, 0.3]})
    >>> indist_fast.roc_auc(df, "y", "p")
    Traceback (most recent call last):
    ...
    TypeError: roc_auc() takes arrays positionally, ... roc_auc(df, label='y', score='p') ...
    >>> indist_fast.roc_auc(df, label="y", score="p")
    1.0
    """
    name = func.__name__
    keywords = [k for k, p in inspect.signature(func).parameters.items()
                if p.kind is p.KEYWORD_ONLY]
    roles = {"weight": "weight= names a weight column", "by": "by= the segment columns"}
    more = "; ".join(text for k, text in roles.items() if k in keywords)

    @functools.wraps(func)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        if len(args) >= 2 and isinstance(args[1], str):
            names = [a for a in args[1:] if isinstance(a, str)]
            if len(names) >= 2:
                label, score = names[0], names[1]
                raise TypeError(
                    f"{name}() takes arrays positionally, got the column names "
                    f"{', '.join(map(repr, names))}: pass them by keyword, "
                    f"{name}(df, label={label!r}, score={score!r}) ({more}), or pass the "
                    f"columns, {name}(df[{label!r}], df[{score!r}]).")
            raise TypeError(
                f"{name}() got the string {args[1]!r} as the scores: for a column of a "
                f"table pass the table and the column names by keyword, {name}(df, "
                f"label=<its label column>, score={args[1]!r}), or pass the columns, "
                f"{name}(df[<label>], df[{args[1]!r}]).")
        if len(args) > 2:
            raise TypeError(
                f"{name}() takes y_true and the scores positionally and the rest by "
                f"keyword ({', '.join(k + '=' for k in keywords[:3])} ...): got "
                f"{len(args)} positional arguments.")
        return func(*args, **kwargs)
    return checked


def frame_columns(data: Any, label: str, score: str, weight: str | None
                  ) -> tuple[Any, Any, Any]:
    """Columns of a pandas or polars DataFrame or a pyarrow Table, as NumPy arrays
    (zero-copy where the library allows it)."""
    y, s, w = table_columns(data, [("label", label), ("score", score), ("weight", weight)])
    return y, s, w


def table_columns(data: Any, roles: list[tuple[str, str | None]],
                  checked_only: tuple[str, ...] = ()) -> list[Any]:
    """The named columns (``(role, name)`` pairs; None for an unused one) of a pandas or
    polars DataFrame or a pyarrow Table, as NumPy arrays; the roles in ``checked_only``
    are checked to be there but not read (None), for a caller that reads them its own
    way (a time-zone-aware pandas column would become an array of objects)."""
    columns = getattr(data, "column_names", None)          # pyarrow.Table
    if columns is None:
        columns = getattr(data, "columns", None)           # pandas, polars
    names = [] if columns is None or isinstance(data, np.ndarray) else list(columns)
    if not names:
        raise TypeError("label=/score= need a DataFrame (pandas, polars) or a pyarrow "
                        f"Table as the first argument, got {type(data).__name__}.")
    check_columns(roles, names, "the table")
    out: list[Any] = []
    for role, name in roles:
        if name is None or role in checked_only:
            out.append(None)
            continue
        if hasattr(data, "column_names"):                  # pyarrow.Table
            out.append(arrow_values(data.column(name)))
            continue
        column = data[name]
        to_numpy = getattr(column, "to_numpy", None)
        out.append(to_numpy() if to_numpy is not None else np.asarray(column))
    return out


def arrow_values(array: Any) -> np.ndarray:
    """A pyarrow array or chunked array (dictionary-encoded too) as NumPy values, its
    nulls as None, NaN or NaT: numbers without nulls viewed, the rest copied (text has
    no NumPy view). A chunked dictionary array's own ``to_numpy`` reads a null as one
    of the values, and an array's refuses to copy unless told.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from indist_fast.io.frames import arrow_values
    >>> arrow_values(pa.chunked_array([pa.array(["a", None]).dictionary_encode()]))
    array(['a', None], dtype=object)
    """
    import pyarrow as pa
    if isinstance(array, pa.ChunkedArray):
        array = array.chunk(0) if array.num_chunks == 1 else array.combine_chunks()
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    out: np.ndarray = array.to_numpy(zero_copy_only=False)
    return out


def prepare_frame_or_rows(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
                          label: str | None, score: str | None, weight: str | None) -> Rows:
    """Rows from arrays, or from the named columns of a table passed as ``y_true``."""
    if label is None and score is None and weight is None:
        if y_score is None:
            raise TypeError("y_score is missing: pass the scores, or a table with label= "
                            "and score= column names.")
        return prepare_rows(y_true, y_score, sample_weight, pos_label)
    if label is None or score is None:
        raise TypeError("pass both label= and score= column names with a table.")
    if y_score is not None or sample_weight is not None:
        raise TypeError("with label=/score= columns, pass the table alone (not y_score or "
                        "sample_weight arrays).")
    y, s, w = frame_columns(y_true, label, score, weight)
    return prepare_rows(y, s, w, pos_label)
