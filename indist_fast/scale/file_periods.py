"""``evaluate_file(time=..., freq=...)``: a file's metrics per period of time.

The period is a segment key computed from the time column as the chunks stream
(``metrics.periods``: a row's period depends on its time alone, so chunks cut anywhere
agree), so the segment machinery of ``TablePlan`` gives the table in memory or out of
core. One score without other segments whose columns fit the memory limit goes to
``over_time`` itself, which adds the drift tests (they need every row: DeLong's
variance reads each period's score table).
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, Iterator

import numpy as np

from ..io import Source, naming_columns, open_source, typed_pos_label
from ..metrics.over_time import over_time_checked
from ..metrics.periods import Periods, time_values
from ..results.report_table import BootstrapSettings, ReportTable
from .file_plan import TablePlan
from .file_stream import Progress, no_rows, read_while_it_fits, rows_in_files

__all__ = ["evaluate_periods"]

# Bytes of working memory per byte of the columns read for ``over_time``: the
# validated rows, the period codes, the sort by (period, score) of the drift tests.
_OVER_TIME_FACTOR = 4


def _with_periods(src: Source, at: int, periods: Periods, name: str) -> Source:
    """``src`` with the column at position ``at`` (the times) read as each row's period
    start; the fast paths that bypass the chunks (memory maps, partitions, row groups)
    are left out."""
    def mapped(chunk: tuple[Any, ...]) -> tuple[Any, ...]:
        times = time_values(chunk[at], len(chunk[1]), name)
        starts = periods.starts(periods.keys(times), times.dtype.kind == "M")
        return chunk[:at] + (starts,) + chunk[at + 1:]

    def chunks(rows: int) -> Iterator[tuple[Any, ...]]:
        return (mapped(chunk) for chunk in src.chunks(rows))

    return dataclasses.replace(src, chunks=chunks, whole=None, read_all=None, parts=None,
                               chunks_of=None, row_groups=None)


@contextlib.contextmanager
def _naming_time(time: str) -> Iterator[None]:
    """Errors about the time column name ``time``, the argument the user gave it under
    (the readers see it as the first segment column and would say ``by``)."""
    try:
        yield
    except (ValueError, TypeError) as err:
        text = str(err)
        if text.startswith(f"by: column {time!r}"):
            raise type(err)("time" + text[2:]) from None
        raise


def evaluate_periods(path: Any, cols: dict[str, str | None], periods: Periods,
                     pos_label: Any, lv: tuple[float, ...], exclude_self: bool, limit: int,
                     folder: str | None, drop_nulls: bool, total: bool,
                     boot: BootstrapSettings | None, progress: bool | None,
                     filesystem: Any = None) -> ReportTable:
    """The ``ReportTable`` by period (then by the other segments) of ``cols``, whose
    first segment column (``by#0``) holds the times.

    Parameters
    ----------
    path : str, path-like or list
        As ``evaluate_file`` takes it.
    cols : dict
        Role to column name, ``by#0`` the time column.
    periods : Periods
        ``check_freq(freq)``.
    pos_label, lv, exclude_self, limit, folder, drop_nulls, total, boot, progress, filesystem
        ``evaluate_file``'s checked arguments.

    Returns
    -------
    ReportTable
        ``period`` in place of the time column; with one score and no other segment,
        when the columns fit ``limit``, ``over_time``'s table (drift tests included).
    """
    time = str(cols["by#0"])
    with _naming_time(time):
        return _evaluate_periods(path, cols, periods, pos_label, lv, exclude_self, limit,
                                 folder, drop_nulls, total, boot, progress, filesystem)


def _evaluate_periods(path: Any, cols: dict[str, str | None], periods: Periods,
                      pos_label: Any, lv: tuple[float, ...], exclude_self: bool, limit: int,
                      folder: str | None, drop_nulls: bool, total: bool,
                      boot: BootstrapSettings | None, progress: bool | None,
                      filesystem: Any) -> ReportTable:
    time = str(cols["by#0"])
    name = f"time: column {time!r}"
    src = open_source(path, cols, drop_nulls=drop_nulls, filesystem=filesystem)
    single = (not total and sum(k.startswith("score") for k in cols) == 1
              and sum(k.startswith("by#") for k in cols) == 1)
    if single:
        bar = Progress(progress, src)
        try:
            rows = max(10_000, limit // 8 // max(1, src.bytes_per_row))
            buffered, rest = read_while_it_fits(src.chunks(rows), limit // _OVER_TIME_FACTOR,
                                                bar)
        finally:
            bar.close()
        if rest is None:
            if sum(len(chunk[1]) for chunk in buffered) == 0:
                raise no_rows(path, drop_nulls)
            columns = {k: None if c[0] is None else np.concatenate(c)
                       for k, c in zip(cols, zip(*buffered))}
            buffered.clear()
            with naming_columns(path, cols), rows_in_files(src):
                labels = columns["label"]
                assert labels is not None           # (a label column is always read)
                pos_label = typed_pos_label(pos_label, labels)
                return over_time_checked(columns["label"], columns["score"],
                                         columns["by#0"], columns["weight"], pos_label, lv,
                                         exclude_self, periods, 1, None, 0.05, boot, name,
                                         str(cols["score"]))
        del buffered, rest
    plan = TablePlan(path, cols, pos_label, lv, exclude_self, limit, folder, drop_nulls,
                     total, boot)
    at = list(cols).index("by#0")
    with naming_columns(path, cols):
        table = plan.evaluate(_with_periods(src, at, periods, name), progress)
    renamed = {("period" if key == time else key): value
               for key, value in table.columns.items()}
    by = tuple("period" if key == time else key for key in table.by)
    out = ReportTable(by, renamed, table.levels, table.exclude_self, table.n_boot,
                      table.confidence, table.seed_entropy)
    return out._with_sources(table._sources)
