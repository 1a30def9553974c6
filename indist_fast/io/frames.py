"""Rows from the named columns of a pandas or polars DataFrame or a pyarrow Table."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.validation import Rows, check_columns, prepare_rows


def frame_columns(data: Any, label: str, score: str, weight: str | None
                  ) -> tuple[Any, Any, Any]:
    """Columns of a pandas or polars DataFrame or a pyarrow Table, as NumPy arrays
    (zero-copy where the library allows it)."""
    y, s, w = table_columns(data, [("label", label), ("score", score), ("weight", weight)])
    return y, s, w


def table_columns(data: Any, roles: list[tuple[str, str | None]]) -> list[Any]:
    """The named columns (``(role, name)`` pairs; None for an unused one) of a pandas or
    polars DataFrame or a pyarrow Table, as NumPy arrays."""
    columns = getattr(data, "column_names", None)          # pyarrow.Table
    if columns is None:
        columns = getattr(data, "columns", None)           # pandas, polars
    names = [] if columns is None or isinstance(data, np.ndarray) else list(columns)
    if not names:
        raise TypeError("label=/score= need a DataFrame (pandas, polars) or a pyarrow "
                        f"Table as the first argument, got {type(data).__name__}.")
    check_columns(roles, names, "the table")
    out: list[Any] = []
    for _, name in roles:
        if name is None:
            out.append(None)
            continue
        column = data.column(name) if hasattr(data, "column_names") else data[name]
        to_numpy = getattr(column, "to_numpy", None)
        out.append(to_numpy() if to_numpy is not None else np.asarray(column))
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
