"""Columns by role: the checks every format makes on the columns asked for, the
errors that name a column, and labels given as text.

A key of ``cols`` names a role: ``label``, ``score``, ``weight``; more models are
``score#1``, ``score#2``...; segment columns ``by#0``, ``by#1``...
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator

import numpy as np

from .._core.validation import check_columns
from .source import describe_path

__all__ = ["naming_columns", "LabelText", "typed_pos_label", "CSV_NULLS", "CSV_TRUE",
           "CSV_FALSE", "role_of", "text_allowed", "check_names", "check_present",
           "check_dtype", "null_error"]

# pyarrow's CSV defaults (``ConvertOptions``), spelled out so that the standard-library
# reader, used without pyarrow, reads the same file the same way; labels typed on the
# command line take the same true and false words.
CSV_NULLS = frozenset(["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
                       "1.#IND", "1.#QNAN", "N/A", "NA", "NULL", "NaN", "n/a", "nan", "null"])
CSV_TRUE = frozenset(["1", "True", "TRUE", "true"])
CSV_FALSE = frozenset(["0", "False", "FALSE", "false"])


def role_of(key: str) -> str:
    """The role a key of ``cols`` names in messages: ``"score#2"`` (a second model's
    column) is a ``score``, ``"by#0"`` a ``by`` (segment) column."""
    return key.partition("#")[0]


def text_allowed(key: str) -> bool:
    """Labels and segment columns may hold text; scores and weights must be numbers."""
    return role_of(key) in ("label", "by")


def check_names(cols: dict[str, str | None]) -> None:
    """Every column asked for named by a ``str`` (a weight may be None)."""
    for key, name in cols.items():
        role = role_of(key)
        if not (isinstance(name, str) or (name is None and role == "weight")):
            raise TypeError(f"{role} must be a column name (str)"
                            + (" or None" if role == "weight" else "")
                            + f", got {name!r}.")


def check_present(path: str, cols: dict[str, str | None], available: list[str],
                  plain: str = "none") -> None:
    """Every used column present, and present once: a CSV header (or a Parquet schema)
    may repeat a name, and the readers would then pick one copy silently."""
    check_columns(((role_of(k), name) for k, name in cols.items()), available, path, plain)
    for key, name in cols.items():
        if name is not None and available.count(name) > 1:
            raise ValueError(f"path: {path} has {available.count(name)} columns named "
                             f"{name!r} (the {role_of(key)} column); rename the duplicates so the "
                             "column meant is unambiguous.")


def check_dtype(path: str, key: str, name: str, dtype: np.dtype) -> None:
    """A NumPy column of a kind its role can take (labels and segments may be text,
    not the rest)."""
    role = role_of(key)
    # segments may be timestamps too (a day, or evaluate_file's time= column)
    kinds = ("biufUSM" if role == "by" else "biufUS") if text_allowed(key) else "biuf"
    if dtype.kind not in kinds or dtype.subdtype is not None:
        want = ("booleans, numbers, strings or datetimes" if role == "by"
                else "booleans, numbers or strings" if text_allowed(key)
                else "numbers or booleans")
        raise TypeError(f"{role}: column {name!r} of {path} has dtype {dtype}; a {role} "
                        f"column must hold {want}.")


def null_error(path: str, key: str, name: str | None, row: int) -> ValueError:
    """The error for a null in a used column, first at file row ``row``."""
    return ValueError(f"{role_of(key)}: column {name!r} of {path} has a missing (null) value at "
                      f"row {row} (counting data rows from 0); drop those rows first, or "
                      "pass drop_nulls=True (CLI: --drop-nulls) to skip them.")


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
