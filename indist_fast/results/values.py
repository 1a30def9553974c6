"""Segment values as text: dates and timestamps in ISO 8601, for JSON, CSV and HTML
alike. It imports nothing of the library (the HTML tables use it too)."""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np

__all__ = ["date_text", "value_text"]


def date_text(value: Any) -> str | None:
    """A date or timestamp as ISO 8601 text, as JSON, CSV and HTML show it (None for
    NaT): ``2024-01-02`` for dates, ``2024-01-02T10:30:00`` for times, the fraction
    of a second only when there is one, the offset of an aware timestamp.

    Examples
    --------
    >>> import datetime
    >>> import numpy as np
    >>> from indist_fast.results.values import date_text
    >>> date_text(np.datetime64("2024-01-02T10:30", "ns")), date_text(datetime.date(2024, 1, 2))
    ('2024-01-02T10:30:00', '2024-01-02')
    """
    if isinstance(value, np.datetime64):
        if np.isnat(value):
            return None
        unit = np.datetime_data(value.dtype)[0]
        if unit in ("Y", "M", "W", "D", "generic"):
            return str(np.datetime_as_string(value))
        seconds = value.astype("datetime64[s]")
        return str(np.datetime_as_string(seconds if seconds == value else value))
    text: str = value.isoformat()          # date, datetime, pandas Timestamp
    return text


def value_text(value: Any) -> str:
    """A segment value as text: dates and timestamps in ISO 8601 (``date_text``),
    anything else as ``str`` gives it.

    Examples
    --------
    >>> import datetime
    >>> from indist_fast.results.values import value_text
    >>> value_text(datetime.datetime(2024, 1, 2, 10, 30)), value_text(3)
    ('2024-01-02T10:30:00', '3')
    """
    if isinstance(value, (datetime.date, np.datetime64)):
        return str(date_text(value))
    return str(value)
