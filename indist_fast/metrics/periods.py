"""Time cut into periods: the period of every row from a time column and a frequency,
as ``over_time`` and ``evaluate_file(time=...)`` use them.

A period is a segment key like any other, computed from the time: ``floor((t - origin)
/ freq)``. Fixed lengths only (seconds, minutes, hours, days, weeks), so that every
period of a frequency has the same length and a period's key depends on its row alone
(chunks of a file get the same keys wherever they are cut). Periods start at the Unix
epoch, 1970-01-01 00:00 UTC (as pandas' ``Series.dt.floor``), weeks on Mondays (as
pandas' ``"W"`` periods).
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Periods", "check_freq", "check_window", "time_values", "FREQ_UNITS"]

#: The units a ``freq`` string may end with, in seconds (``"1D"``, ``"6h"``, ``"15min"``).
FREQ_UNITS = {"s": 1, "min": 60, "h": 3600, "H": 3600, "D": 86400, "d": 86400,
              "W": 7 * 86400, "w": 7 * 86400}

_NS = 10**9
# 1970-01-05 was a Monday: weeks start there, so that "1W" periods run Monday-Sunday.
_MONDAY_NS = 4 * 86400 * _NS


def _duration_seconds(value: Any, name: str) -> tuple[float, bool]:
    """A positive duration in seconds, and whether it was given in weeks."""
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d*)\s*([A-Za-z]+)\s*", value)
        if m is None or m.group(2) not in FREQ_UNITS:
            raise ValueError(f"{name} must be a duration like '1D', '6h', '15min', '30s' or "
                             f"'1W' (units s, min, h, D, W: periods of a fixed length), a "
                             f"timedelta or a number of seconds; got {value!r}.")
        count = int(m.group(1) or 1)
        if count <= 0:
            raise ValueError(f"{name} must be a positive duration, got {value!r}.")
        return float(count * FREQ_UNITS[m.group(2)]), m.group(2) in "Ww"
    if isinstance(value, np.timedelta64):
        if np.isnat(value):
            raise ValueError(f"{name} must be a positive duration, got NaT.")
        value = value.astype("timedelta64[ns]").astype(np.int64) / _NS
    elif isinstance(value, datetime.timedelta):        # pandas' Timedelta too
        value = value.total_seconds()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                     np.floating)):
        raise TypeError(f"{name} must be a duration like '1D', a timedelta or a number of "
                        f"seconds, got {type(value).__name__}.")
    seconds = float(value)
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"{name} must be a positive finite duration, got {value!r}.")
    return seconds, False


@dataclass(frozen=True)
class Periods:
    """A checked frequency: periods of ``seconds`` each, counted from ``origin`` seconds
    after the epoch (0, or a Monday for weeks).

    Attributes
    ----------
    seconds : float
        The length of a period.
    origin : float
        Where period 0 starts, in seconds after 1970-01-01 00:00 UTC.
    text : str
        ``freq`` as given, for messages.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.metrics.periods import check_freq
    >>> days = check_freq("1D")
    >>> days.keys(np.array([0.0, 86399.0, 86400.0])).tolist()
    [0, 0, 1]
    """

    seconds: float
    origin: float
    text: str

    def keys(self, t: np.ndarray) -> np.ndarray:
        """The period number of each time.

        Parameters
        ----------
        t : ndarray
            Times as ``time_values`` gives them (``datetime64[ns]`` or float seconds).

        Returns
        -------
        ndarray of int64
            ``floor((t - origin) / seconds)``.

        Examples
        --------
        >>> import numpy as np
        >>> from indist_fast.metrics.periods import check_freq
        >>> t = np.array(["2024-01-01T05", "2024-01-02T01"], dtype="datetime64[ns]")
        >>> check_freq("1D").keys(t).tolist()
        [19723, 19724]
        """
        if t.dtype.kind == "M":
            if self.seconds != int(self.seconds):
                raise ValueError(f"freq: periods of datetimes must last whole seconds, got "
                                 f"{self.text}.")
            ns = t.astype("datetime64[ns]", copy=False).view(np.int64)
            keys: np.ndarray = np.floor_divide(ns - int(self.origin) * _NS,
                                               int(self.seconds) * _NS)
            return keys
        return np.floor_divide(t - self.origin, self.seconds).astype(np.int64)

    def starts(self, keys: np.ndarray, datetimes: bool) -> np.ndarray:
        """Each period's start.

        Parameters
        ----------
        keys : ndarray of int64
            Period numbers (``keys``' output).
        datetimes : bool
            Whether the times were datetimes.

        Returns
        -------
        ndarray
            ``datetime64[s]`` for datetimes, else float seconds.

        Examples
        --------
        >>> import numpy as np
        >>> from indist_fast.metrics.periods import check_freq
        >>> str(check_freq("1D").starts(np.array([19723]), True)[0])
        '2024-01-01T00:00:00'
        """
        if datetimes:
            return (keys * int(self.seconds) + int(self.origin)).astype("datetime64[s]")
        out: np.ndarray = keys * self.seconds + self.origin
        return out


def check_freq(freq: Any) -> Periods:
    """``freq`` checked: a string (``"1D"``, ``"6h"``, ``"15min"``, ``"30s"``, ``"1W"``),
    a ``datetime.timedelta``, a ``numpy.timedelta64`` or a number of seconds.

    Parameters
    ----------
    freq : str, timedelta or number
        The length of a period.

    Returns
    -------
    Periods

    Examples
    --------
    >>> from indist_fast.metrics.periods import check_freq
    >>> check_freq("6h").seconds, check_freq("1W").origin
    (21600.0, 345600.0)
    """
    seconds, weeks = _duration_seconds(freq, "freq")
    text = freq if isinstance(freq, str) else f"{seconds:g}s"
    return Periods(seconds, 4 * 86400.0 if weeks else 0.0, text)


def check_window(window: Any, periods: Periods) -> int:
    """The number of periods a rolling ``window`` spans (a whole multiple of ``freq``);
    1 without a window.

    Parameters
    ----------
    window : str, timedelta, number or None
        The window's length, in ``freq``'s forms.
    periods : Periods
        The checked ``freq``.

    Returns
    -------
    int

    Examples
    --------
    >>> from indist_fast.metrics.periods import check_freq, check_window
    >>> check_window("7D", check_freq("1D")), check_window(None, check_freq("1D"))
    (7, 1)
    """
    if window is None:
        return 1
    seconds, _ = _duration_seconds(window, "window")
    k = seconds / periods.seconds
    if abs(k - round(k)) > 1e-9 * k or round(k) < 1:
        raise ValueError(f"window must be a whole number of periods of freq "
                         f"({periods.text}); got {window!r}, {k:g} periods.")
    if round(k) > 10_000:
        raise ValueError(f"window spans {round(k):,} periods of freq ({periods.text}); at "
                         "most 10,000 (each row is counted in every window it falls in).")
    return int(round(k))


def time_values(t: Any, n: int, name: str = "t") -> np.ndarray:
    """The times as ``datetime64[ns]`` (UTC; time-zone-aware values converted) or as
    float64 seconds since the epoch; missing or non-finite times refused by row.

    Parameters
    ----------
    t : array-like of shape (n,)
        Datetimes (NumPy, pandas, polars, pyarrow, ``datetime`` objects) or numbers of
        seconds.
    n : int
        The number of rows expected.
    name : str, default="t"
        How errors name the argument.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.metrics.periods import time_values
    >>> time_values(np.array(["2024-01-01T06"], dtype="datetime64[h]"), 1).dtype
    dtype('<M8[ns]')
    >>> time_values([0, 86400.5], 2).tolist()
    [0.0, 86400.5]
    """
    dtype = getattr(t, "dtype", None)
    if getattr(dtype, "tz", None) is not None:            # pandas, time-zone aware
        t = t.dt.tz_convert(None) if hasattr(t, "dt") else t.tz_convert(None)
    if type(t).__module__.partition(".")[0] == "pyarrow":
        # (an Array copies only when asked to: its timestamps have no NumPy view)
        values = (t.to_numpy(zero_copy_only=False) if hasattr(t, "is_valid")
                  else t.to_numpy())
    else:
        to_numpy = getattr(t, "to_numpy", None)          # pandas and polars
        values = np.asarray(to_numpy() if to_numpy is not None else t)
    if values.ndim != 1:
        raise ValueError(f"{name} must be 1-D (a time per row), got shape {values.shape}.")
    if len(values) != n:
        raise ValueError(f"{name} has {len(values)} rows, the labels {n}.")
    if values.dtype == object:
        values = _objects(values, name)
    kind = values.dtype.kind
    if kind == "M":
        out: np.ndarray = values.astype("datetime64[ns]", copy=False)
        bad = np.isnat(out)
        if bad.any():
            raise ValueError(f"{name} has a missing time (NaT) at row "
                             f"{int(np.flatnonzero(bad)[0])}; drop or fill those rows first.")
        return out
    if kind in "iuf":
        secs: np.ndarray = values.astype(np.float64)
        bad = ~np.isfinite(secs)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{name} has a non-finite time ({values[row]!r}) at row {row}; "
                             "times are datetimes or seconds since the epoch.")
        return secs
    raise TypeError(f"{name} must hold datetimes or numbers of seconds, got dtype "
                    f"{values.dtype}" + (" (text: parse it first, e.g. pandas.to_datetime)"
                                         if kind in "US" else "") + ".")


def _objects(values: np.ndarray, name: str) -> np.ndarray:
    """``datetime`` objects (aware ones converted to UTC) as ``datetime64[ns]``."""
    out = np.empty(len(values), dtype="datetime64[ns]")
    for i, v in enumerate(values.tolist()):
        if isinstance(v, datetime.datetime):
            if v.tzinfo is not None:
                v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            out[i] = np.datetime64(v, "ns")
        elif isinstance(v, datetime.date):
            out[i] = np.datetime64(v, "ns")
        elif isinstance(v, np.datetime64):
            out[i] = v
        else:
            raise TypeError(f"{name} must hold datetimes or numbers of seconds; row {i} "
                            f"holds {v!r}.")
    return out
