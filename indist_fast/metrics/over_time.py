"""Metrics over time: ``over_time``, a ``ReportTable`` by period with drift flags.

A period is a segment computed from the time column (``periods``), so the table is
``evaluate_many`` by period, the same numbers; a rolling ``window`` counts each row in
every window it falls in (``k`` windows for a window of ``k`` periods), so that each
window's row is ``evaluate`` on exactly its rows. The drift tests add one sort of the
rows by (period, score), for DeLong's variance of each period's AUC.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any, ContextManager, Iterable

import numpy as np

from .._core.validation import (Rows, check_flag, check_levels, check_real, checked_classes,
                                prepare_rows)
from ..errors import IndistFastWarning
from ..inference.drift import drift_record, segment_delong
from ..inference.segment_bootstrap import (bootstrap_settings, segment_intervals,
                                          segment_slots)
from ..io.frames import table_columns
from ..results.report_table import BootstrapSettings, ReportTable
from ..table.score_table import DEFAULT_LEVELS
from .periods import Periods, check_freq, check_window, time_values
from .segments import _dense_codes, evaluate_many_checked

__all__ = ["over_time", "over_time_checked", "period_rows"]


def over_time(y_true: Any, y_score: Any = None, t: Any = None, *, freq: Any = "1D",
              window: Any = None, sample_weight: Any = None, pos_label: Any = None,
              reference: Any = None, alpha: float = 0.05, n_boot: int | None = 0,
              seed: Any = 0, confidence: float = 0.95,
              levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
              progress: bool | None = None, label: str | None = None,
              score: str | None = None, time: str | None = None,
              weight: str | None = None) -> ReportTable:
    """Every metric per period of time, and the periods that drifted from a reference.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), or a table
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
        With ``label=``/``score=``/``time=``, a pandas or polars DataFrame or a pyarrow
        Table instead.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    t : array-like of shape (n_samples,)
        The time of each row: datetimes (NumPy ``datetime64``, pandas timestamps,
        time-zone-aware ones converted to UTC, ``datetime`` objects) or numbers of
        seconds (since the Unix epoch, or any origin). Rows need not be in order.
    freq : str, timedelta or number, default="1D"
        The length of a period: ``"<n><unit>"`` with unit ``s``, ``min``, ``h``, ``D``
        or ``W`` (``"1D"``, ``"6h"``, ``"15min"``, ``"7D"``, ``"1W"``), a
        ``datetime.timedelta`` or ``numpy.timedelta64``, or a number of seconds.
        Periods have a fixed length (no months) and start at the Unix epoch,
        1970-01-01 00:00 UTC, as pandas' ``Series.dt.floor(freq)``; weeks start on
        Mondays (pandas' ``"W"`` periods). Datetimes need periods of whole seconds.
    window : str, timedelta, number or None, default=None
        A rolling window, a whole number ``k`` of periods long (``freq="1D",
        window="7D"``): each period's row then holds the rows of that period and the
        ``k - 1`` before it (the window ending at the period's end). The table keeps
        the periods that hold rows. None: each period alone.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    reference : time, pair of times, or None, default=None
        The reference of the drift tests: the period holding this time (in ``t``'s
        form; a string such as ``"2024-05-01"`` for datetimes), or the rows of every
        period starting within ``[start, end)`` of a pair ``(start, end)``, tested as
        one sample (a longer reference is less noisy: against one period, every
        period is compared with the same chance deviation, so an unusual reference
        period flags many). Its own periods are not tested. None: the first period.
        With ``window``, the reference holds its periods' rows (not their windows).
    alpha : float, default=0.05
        The level of each drift test (each period on its own: about ``alpha`` of the
        periods are flagged when nothing changed).
    n_boot : int, default=0
        Bootstrap replicates per period: adds the intervals ``evaluate_many`` adds
        (``auc_low``, ``precision_low``, ...) and the drift test of ``C(r_b)``. 0:
        neither.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the intervals, as in ``evaluate_many`` (periods in table order; the
        drift test's replicates of ``C(r_b)`` use the same seed, the reference as the
        position after the last period). None draws fresh entropy from the OS.
    confidence : float, default=0.95
        Coverage of the intervals.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points each report holds.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    progress : bool or None, default=None
        A progress bar over the bootstrap replicates, as in ``evaluate_many``.
    label, score, time, weight : str, default=None
        Column names when ``y_true`` is a table.

    Returns
    -------
    ReportTable
        One row per period holding rows, in time order, by ``period`` (its start:
        ``datetime64[s]`` for datetimes, seconds for numbers): ``evaluate_many``'s
        columns (``auc``, ``average_precision``, ``precision`` = ``C(r_b)``,
        ``threshold`` = ``r_b``, ``base_rate``, ``n_rows``, ...) exactly as
        ``evaluate_many(y, s, groups=period)`` gives them, then ``auc_std_error``
        (DeLong's), ``drift_auc`` and ``drift_precision`` (the flags). ``.drift`` holds
        the tests (``Drift``: differences, z, p-values, the tests' names): a period's
        AUC against the reference's by DeLong's variances of two independent samples,
        ``C(r_b)`` by the bootstrap standard errors. With ``window``, windows that share
        periods with the reference window are not independent samples: their tests are
        conservative.

    Examples
    --------
    >>> import numpy as np, indist_fast
    >>> rng = np.random.default_rng(1)
    >>> t = np.arange("2024-03-01", "2024-03-04", dtype="datetime64[h]").repeat(50)
    >>> y = rng.integers(0, 2, len(t))
    >>> s = y + rng.normal(size=len(t)) * np.where(t < np.datetime64("2024-03-03"), 1, 4)
    >>> r = indist_fast.over_time(y, s, t, freq="1D")
    >>> [str(p) for p in r.columns["period"]]
    ['2024-03-01T00:00:00', '2024-03-02T00:00:00', '2024-03-03T00:00:00']
    >>> r.columns["auc"].round(3).tolist(), r.columns["drift_auc"].tolist()
    ([0.757, 0.781, 0.535], [False, False, True])
    """
    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
    periods = check_freq(freq)
    k = check_window(window, periods)
    alpha = check_real(alpha, "alpha", low=0.0, high=1.0, low_open=True, high_open=True)
    if n_boot is not None and not isinstance(n_boot, (bool, np.bool_)) and n_boot == 0:
        n_boot = None
    boot = bootstrap_settings(n_boot, seed, confidence, progress)
    y_true, y_score, t, sample_weight = _columns(y_true, y_score, t, sample_weight, label,
                                                 score, time, weight)
    return over_time_checked(y_true, y_score, t, sample_weight, pos_label, lv, exclude_self,
                             periods, k, reference, alpha, boot,
                             "t" if time is None else f"time column {time!r}",
                             "score" if score is None else score)


def over_time_checked(y_true: Any, y_score: Any, t: Any, sample_weight: Any, pos_label: Any,
                      lv: tuple[float, ...], exclude_self: bool, periods: Periods, k: int,
                      reference: Any, alpha: float, boot: BootstrapSettings | None,
                      time_name: str = "t", model: str = "score") -> ReportTable:
    """``over_time`` once its settings are checked (``evaluate_file(time=)`` checked
    them already); the rows and ``reference`` are checked here.

    Parameters
    ----------
    y_true, y_score, t, sample_weight, pos_label
        As ``over_time`` takes them (arrays).
    lv : tuple of float
        Levels, as ``check_levels`` gives them.
    exclude_self : bool
        As ``check_flag`` gives it.
    periods : Periods
        ``check_freq(freq)``.
    k : int
        ``check_window(window, periods)``.
    reference : time or None
        As ``over_time`` takes it.
    alpha : float
        The checked level of the tests.
    boot : BootstrapSettings or None
        As ``bootstrap_settings`` gives them.
    time_name : str, default="t"
        How errors name the times.
    model : str, default="score"
        The model column's value: the score column's name when the rows came from a
        table (as ``evaluate_many`` names it).

    Returns
    -------
    ReportTable

    Examples
    --------
    >>> from indist_fast.metrics.over_time import over_time_checked
    >>> from indist_fast.metrics.periods import check_freq
    >>> r = over_time_checked([0, 1, 0, 1], [.1, .9, .8, .2], [0, 5, 86400, 86405], None,
    ...                       None, (0.5,), True, check_freq("1D"), 1, None, 0.05, None)
    >>> r.columns["period"].tolist(), r.columns["auc"].tolist()
    ([0.0, 86400.0], [1.0, 0.0])
    """
    rows = prepare_rows(y_true, y_score, sample_weight, pos_label)
    # every row checked here, where errors can name its row: windows repeat rows
    checked_classes(rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value)
    times = time_values(t, rows.n_rows, time_name)
    codes, keys = _dense_codes(periods.keys(times))     # periods numbered in time order
    starts = periods.starts(keys, times.dtype.kind == "M")
    in_reference = _reference(reference, periods, keys, starts, times.dtype)
    # the reference's rows (its periods', without the window), tested as one sample
    reference_rows = _subset(rows, np.flatnonzero(in_reference[codes]))
    take, codes = period_rows(codes, keys, k)
    if take is not None:
        rows = _subset(rows, take)
    table = evaluate_many_checked(rows.y, {model: rows.s}, rows.w, [codes], ["period"],
                                  rows.pos_value, lv, exclude_self, False, boot,
                                  naming=_as_given)
    n = len(keys)
    _, variance = segment_delong(rows, codes, n)
    ref_auc, ref_variance = segment_delong(reference_rows, np.zeros(reference_rows.n_rows,
                                                                    dtype=np.int64), 1)
    columns = dict(table.columns)
    columns["period"] = starts
    spread = None
    if boot is not None:
        # Unstratified: a period's class counts vary from one period to the next, and
        # C(r_b) moves with them (stratified replicates, which hold the counts, gave
        # standard errors a quarter too small and flagged 15% of unchanged periods).
        # The reference is resampled as the position after the last period.
        periods_iv = segment_intervals(segment_slots(rows, codes, n), boot,
                                       exclude_self=exclude_self, stratified=False)
        reference_iv = segment_intervals(
            segment_slots(reference_rows, np.zeros(reference_rows.n_rows, dtype=np.int64), 1),
            boot, first_key=n, exclude_self=exclude_self, stratified=False)
        spread = {name: np.concatenate((periods_iv[name], reference_iv[name]))
                  for name in periods_iv}
    ref_precision = columns["precision"][in_reference][0] if in_reference.sum() == 1 and \
        take is None else _precision(reference_rows, lv, exclude_self)
    labels = starts[in_reference]
    drift = drift_record(starts, labels[0] if len(labels) == 1 else (labels[0], labels[-1]),
                         in_reference, alpha,
                         (columns["auc"], variance, ref_auc[0], ref_variance[0]),
                         (columns["precision"], ref_precision), spread, boot)
    columns["auc_std_error"] = np.sqrt(variance)
    columns["drift_auc"] = drift.auc_drift
    columns["drift_precision"] = drift.precision_drift
    out = ReportTable(table.by, columns, table.levels, table.exclude_self, table.n_boot,
                      table.confidence, table.seed_entropy)
    return out._with_sources(table._sources)._with_drift(drift)


def _as_given(model: Any) -> ContextManager[None]:
    """Errors about the scores keep their argument's name, ``y_score``."""
    return contextlib.nullcontext()


def _subset(rows: Rows, take: np.ndarray) -> Rows:
    return Rows(rows.y[take], rows.s[take], None if rows.w is None else rows.w[take],
                rows.pos_value, rows.neg_value, rows.coding)


def _precision(rows: Rows, lv: tuple[float, ...], exclude_self: bool) -> float:
    """``C(r_b)`` of the reference's rows (NaN for one class)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)   # (as its periods' rows warn)
        table = evaluate_many_checked(rows.y, {"score": rows.s}, rows.w,
                                      [np.zeros(rows.n_rows, dtype=np.int64)], ["g"],
                                      rows.pos_value, lv, exclude_self, False, None)
    return float(table.columns["precision"][0])


def _columns(y_true: Any, y_score: Any, t: Any, sample_weight: Any, label: str | None,
             score: str | None, time: str | None, weight: str | None
             ) -> tuple[Any, Any, Any, Any]:
    """The label, score, time and weight columns: the arrays given, or a table's."""
    if label is None and score is None and time is None:
        if isinstance(y_score, str) or isinstance(t, str):
            raise TypeError("over_time() got column names positionally: pass a table with "
                            "label=, score= and time= (and weight=) by keyword.")
        if y_score is None or t is None:
            raise TypeError("over_time() needs y_true, y_score and t (the time of each "
                            "row), or a table with label=, score= and time= column names.")
        return y_true, y_score, t, sample_weight
    if label is None or score is None or time is None:
        raise TypeError("with a table, pass all of label=, score= and time= column names.")
    if y_score is not None or t is not None or sample_weight is not None:
        raise TypeError("with label=/score=/time= columns, pass the table alone (not "
                        "y_score, t or sample_weight arrays).")
    y, s, w, _ = table_columns(y_true, [("label", label), ("score", score),
                                        ("weight", weight), ("time", time)],
                               checked_only=("time",))
    # the time column as the library holds it: its time zone is kept for time_values
    raw = y_true.column(time) if hasattr(y_true, "column_names") else y_true[time]
    return y, s, raw, w


def period_rows(codes: np.ndarray, keys: np.ndarray, k: int
                ) -> tuple[np.ndarray | None, np.ndarray]:
    """The rows of every window of ``k`` periods ending at a period of ``keys``: the
    rows to take (None when ``k == 1``: every row once) and the window of each taken row.

    Parameters
    ----------
    codes : ndarray of int64
        Each row's period, an index into ``keys``.
    keys : ndarray of int64
        The periods holding rows, ascending.
    k : int
        Periods per window.

    Returns
    -------
    take : ndarray of int64 or None
    codes : ndarray of int64

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.metrics.over_time import period_rows
    >>> take, codes = period_rows(np.array([0, 1, 2]), np.array([5, 6, 8]), 2)
    >>> take.tolist(), codes.tolist()
    ([0, 0, 1, 2], [0, 1, 1, 2])
    """
    if k == 1:
        return None, codes
    # (n, k): row i's window j ends j periods after its own; read row by row, so each
    # window's rows come in their own order, as evaluate_many (and its bootstrap)
    # would get them from the window's rows alone (its placement by segment is stable)
    ends = keys[codes][:, None] + np.arange(k)
    at = np.minimum(np.searchsorted(keys, ends), len(keys) - 1)
    held = keys[at] == ends
    take = np.broadcast_to(np.arange(len(codes))[:, None], held.shape)[held]
    return take, at[held]


def _reference(reference: Any, periods: Periods, keys: np.ndarray, starts: np.ndarray,
               kind: np.dtype) -> np.ndarray:
    """Which periods the reference holds: the first (None), the period holding a time,
    or the periods starting within ``[start, end)`` of a pair of times."""
    held: np.ndarray = np.zeros(len(keys), dtype=bool)
    if reference is None:
        held[0] = True
        return held
    pair = isinstance(reference, (tuple, list))
    if pair and len(reference) != 2:
        raise ValueError(f"reference must be a time or a pair (start, end) of times, got "
                         f"{len(reference)} values.")
    values = [_time_of(v, kind, periods) for v in (reference if pair else [reference])]
    if pair:
        held = (starts >= values[0]) & (starts < values[1])
        if not held.any():
            raise ValueError(f"reference {reference!r}: no period holding rows starts in "
                             "[start, end).")
        return held
    key = periods.keys(np.array([values[0]]))[0]
    at = int(np.searchsorted(keys, key))
    if at == len(keys) or keys[at] != key:
        raise ValueError(f"reference {reference!r} falls in a period that holds no rows.")
    held[at] = True
    return held


def _time_of(value: Any, kind: np.dtype, periods: Periods) -> Any:
    """One time of ``reference`` in the form of the periods' starts (``datetime64[s]``
    or seconds)."""
    if isinstance(value, str) and kind.kind == "M":
        try:
            value = np.datetime64(value)
        except ValueError:
            raise ValueError(f"reference must hold times, got {value!r}.") from None
    t = time_values(np.array([value]) if not isinstance(value, np.ndarray) else value,
                    1, "reference")
    if (t.dtype.kind == "M") != (kind.kind == "M"):
        raise TypeError(f"reference must hold times of t's kind ("
                        f"{'datetimes' if kind.kind == 'M' else 'seconds'}), got "
                        f"{value!r}.")
    return t[0].astype("datetime64[s]") if t.dtype.kind == "M" else t[0]
