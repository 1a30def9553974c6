"""``ReportTable``: the reports of many (segment, model) pairs as one columnar table."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np

from .._core.records import SegmentSweeps, crossing_fields
from .._core.rates import operating_rates
from .._core.validation import check_weight_total
from .report import Report, plain_value
from .values import value_text

__all__ = ["ReportTable", "REPORT_COLUMNS", "EXTRA_COLUMNS", "DRIFT_COLUMNS"]


class BootstrapSettings(NamedTuple):
    """Checked ``n_boot``, ``confidence`` and seed of ``evaluate_many`` (a table's intervals
    were drawn with them), and whether to show the replicates' progress bar."""

    n_boot: int
    confidence: float
    seed: np.random.SeedSequence
    entropy: int
    progress: bool | None = None


#: The ``Report`` fields a table holds per row, under the same names.
REPORT_COLUMNS = ("n_rows", "weight_pos", "weight_neg", "base_rate", "auc",
                  "average_precision", "n_thresholds", "threshold", "b", "precision", "lift",
                  "tpr", "fpr", "f1", "reached")


#: Columns ``evaluate_many(extra=...)`` adds on request: readings of each segment's
#: score table that the sweeps do not track (KS, and calibration's with its defaults).
EXTRA_COLUMNS = ("ks", "ece", "mce", "brier", "log_loss")

#: Columns ``over_time`` adds: DeLong's standard error of each period's AUC, and the
#: drift flags of ``ReportTable.drift`` (False where a period was not tested).
DRIFT_COLUMNS = ("auc_std_error", "drift_auc", "drift_precision")

_POINT = ("threshold", "b", "precision", "lift", "tpr", "fpr", "f1", "reached")


def _point_columns(sweeps: SegmentSweeps, k: int) -> dict[str, np.ndarray]:
    """The operating point of crossing ``k`` in every segment, as ``OperatingPoint``."""
    point = crossing_fields(sweeps.crossings[:, k, :])
    rates = operating_rates(point.tp, point.fp, sweeps.weight_pos, sweeps.weight_neg)
    return {"threshold": point.threshold, "b": point.b, "precision": rates.precision,
            "lift": rates.lift, "tpr": rates.tpr, "fpr": rates.fpr, "f1": rates.f1,
            "reached": ~np.isnan(point.index)}


def _report_columns(sweeps: SegmentSweeps, levels: tuple[float, ...]
                    ) -> dict[str, np.ndarray]:
    """The report fields of every segment of one model, computed as ``Report`` does:
    level 0.5 under the plain names, other levels as ``<field>_at_<level>``."""
    wp, wn = sweeps.weight_pos, sweeps.weight_neg
    with np.errstate(divide="ignore", invalid="ignore"):
        base_rate = wp / (wp + wn)
    main = levels.index(0.5) if 0.5 in levels else len(levels)
    cols = {"n_rows": sweeps.n_rows, "weight_pos": wp, "weight_neg": wn,
            "base_rate": base_rate, "auc": sweeps.auc,
            "average_precision": sweeps.average_precision, "n_thresholds": sweeps.n_groups,
            **_point_columns(sweeps, main)}
    for k, level in enumerate(levels):
        if level != 0.5:
            cols.update({f"{name}_at_{level:g}": col
                         for name, col in _point_columns(sweeps, k).items()})
    one_class = ~((wp > 0) & (wn > 0))
    if one_class.any():       # no report exists for them: every metric is NaN
        for name, col in cols.items():
            if name.startswith("reached"):
                cols[name] = col & ~one_class
            elif name not in ("n_rows", "weight_pos", "weight_neg", "n_thresholds"):
                cols[name] = np.where(one_class, np.nan, col)
    cols["one_class"] = one_class
    return cols


@dataclass(frozen=True, repr=False)
class ReportTable:
    """One row per (segment..., model): every ``Report`` field, as columns.

    Attributes
    ----------
    by : tuple of str
        The segment columns' names (``group`` for an unnamed array); empty without
        segments.
    columns : Mapping[str, ndarray]
        The segment columns, ``model``, the ``Report`` fields (``REPORT_COLUMNS``, the
        operating point at level 0.5), the operating point of every other level as
        ``<field>_at_<level>`` (``threshold_at_0.4``, ``precision_at_0.6``, ...),
        ``one_class`` (True where a segment holds a single class, or weight 0 on every
        row: its metrics are NaN) and, when asked for with ``n_boot``, the percentile
        bootstrap intervals ``auc_low``, ``auc_high``, ``average_precision_low``,
        ``average_precision_high``, ``threshold_low``, ``threshold_high`` (of the
        threshold ``r_b`` at level 0.5), ``precision_low``, ``precision_high`` (of
        ``C(r_b)``): each the interval ``indist_fast.bootstrap`` gives on the segment's
        rows alone with the seed ``evaluate_many`` documents (NaN for a segment of one
        class, and where no replicate defines the metric); when asked for with
        ``extra``, the ``EXTRA_COLUMNS`` named (``ks``, ``ece``, ``mce``, ``brier``,
        ``log_loss``). With ``total=True`` the
        segment columns hold Python objects (None on the totals rows);
        ``to_pandas`` gives them as nullable columns of their type.
    levels : tuple of float
        The levels of ``B`` the reports were asked for.
    exclude_self : bool
        The form of ``B`` used.
    n_boot : int or None
        Bootstrap replicates behind the interval columns (None: no intervals).
    confidence : float or None
        Nominal coverage of the intervals.
    seed_entropy : int or None
        Entropy of the intervals' seed: pass it as ``seed`` to repeat them.
    drift : Drift or None
        From ``over_time``: each period tested against the reference period (the
        same flags are the columns ``drift_auc`` and ``drift_precision``); None
        elsewhere.

    Examples
    --------
    >>> import indist_fast
    >>> t = indist_fast.evaluate_many([0, 1, 1, 0, 1, 0, 0, 1],
    ...                               {"a": [.1, .9, .8, .3, .6, .2, .4, .7],
    ...                                "b": [.5, .4, .9, .1, .8, .3, .6, .2]},
    ...                               groups=["x", "x", "x", "x", "y", "y", "y", "y"])
    >>> len(t), t.columns["model"].tolist()
    (4, ['a', 'b', 'a', 'b'])
    >>> t.report(model="a", group="x").auc == indist_fast.roc_auc([0, 1, 1, 0], [.1, .9, .8, .3])
    True
    """

    by: tuple[str, ...]
    columns: Mapping[str, np.ndarray]
    levels: tuple[float, ...]
    exclude_self: bool
    n_boot: int | None = None
    confidence: float | None = None
    seed_entropy: int | None = None
    # ``over_time``'s tests of each period against a reference period (``Drift``).
    drift: Any = field(default=None, compare=False)
    # Where ``report`` finds a row's sweep: blocks of rows, each the models' sweeps over
    # its segments, segment-major (row i of a block: segment i // n_models, model
    # i % n_models). Set by ``_with_sources``: a table is only built from sweeps.
    _sources: tuple[tuple[SegmentSweeps, ...], ...] = field(init=False, repr=False,
                                                          compare=False, default=())
    # ``report``'s row of each (segment values..., model), built on its first call.
    _index: dict[tuple[Any, ...], int] | None = field(init=False, repr=False,
                                                      compare=False, default=None)

    def _with_sources(self, sources: tuple[tuple[SegmentSweeps, ...], ...]) -> "ReportTable":
        object.__setattr__(self, "_sources", sources)
        return self

    def _with_drift(self, drift: Any) -> "ReportTable":
        object.__setattr__(self, "drift", drift)
        return self

    def _sweep_of(self, row: int) -> tuple[SegmentSweeps, int]:
        for block in self._sources:
            size = len(block) * len(block[0].n_rows)
            if row < size:
                return block[row % len(block)], row // len(block)
            row -= size
        # (a row no sweep backs: an average of other rows, e.g. a multi-label "macro")
        raise ValueError("this row averages other rows' numbers: it has no Report of "
                         "its own; report() the rows it averages.")

    @classmethod
    def _from_sweeps(cls, by: Sequence[str], segments: Mapping[str, np.ndarray],
                    models: Sequence[Any], sweeps: Sequence[SegmentSweeps],
                    levels: tuple[float, ...], exclude_self: bool,
                    intervals: Sequence[Mapping[str, np.ndarray]] | None = None,
                    boot: "BootstrapSettings | None" = None,
                    extra: Sequence[Mapping[str, np.ndarray]] | None = None
                    ) -> "ReportTable":
        """Rows segment-major, models in the order given.

        Parameters
        ----------
        by : sequence of str
            Names of the segment columns.
        segments : Mapping[str, ndarray]
            Each segment column's value per segment code.
        models : sequence
            The models' names, one per entry of ``sweeps``.
        sweeps : sequence of SegmentSweeps
            One per model, over the same segments.
        levels : tuple of float
            The levels asked for (the sweeps' crossings hold them, then 0.5 if missing).
        exclude_self : bool
            The form of ``B`` used.
        intervals : sequence of Mapping[str, ndarray], optional
            Per model, interval columns by segment (``segment_intervals``).
        boot : BootstrapSettings, optional
            The settings the intervals were drawn with.
        extra : sequence of Mapping[str, ndarray], optional
            Per model, the ``EXTRA_COLUMNS`` asked for, by segment.

        Returns
        -------
        ReportTable
        """
        for sw in sweeps:       # no table of segments whose weights overflow float64
            with np.errstate(over="ignore"):
                over = np.flatnonzero(~np.isfinite(sw.weight_pos + sw.weight_neg))
            if len(over):
                check_weight_total(float(sw.weight_pos[over[0]]), float(sw.weight_neg[over[0]]))
        n_seg, n_mod = (len(sweeps[0].n_rows) if sweeps else 0), len(models)
        per_model = [_report_columns(sw, levels) for sw in sweeps]
        columns: dict[str, np.ndarray] = {}
        for name in by:
            columns[name] = np.repeat(np.asarray(segments[name]), n_mod)
        model_values = np.empty(n_mod, dtype=object)
        model_values[:] = list(models)
        columns["model"] = np.tile(model_values, n_seg)
        if intervals is not None:
            per_model = [{**cols, **iv} for cols, iv in zip(per_model, intervals)]
        if extra is not None:
            per_model = [{**cols, **ex} for cols, ex in zip(per_model, extra)]
        for name in per_model[0] if per_model else ():
            # (n_mod, n_seg) stacked, then read segment-major
            columns[name] = np.stack([cols[name] for cols in per_model]).T.reshape(-1)
        settings = (None, None, None) if boot is None else (boot.n_boot, boot.confidence,
                                                            boot.entropy)
        return cls(tuple(by), columns, levels, exclude_self, *settings)._with_sources(
            (tuple(sweeps),))

    def __len__(self) -> int:
        return len(self.columns["model"])

    def __repr__(self) -> str:
        # a summary: the columns hold one value per row, often hundreds of thousands
        models = self._models()
        shown = ", ".join(map(repr, models[:5])) + (", ..." if len(models) > 5 else "")
        return (f"ReportTable({len(self):,} rows, by={list(self.by)}, models=[{shown}], "
                f"levels={list(self.levels)}, exclude_self={self.exclude_self})")

    def _row(self, model: Any, segment: Mapping[str, Any]) -> int:
        unknown = set(segment) - set(self.by)
        if unknown:
            raise TypeError(f"segment columns are {list(self.by)}; got {sorted(unknown)}.")
        missing = set(self.by) - set(segment)
        if missing:
            raise TypeError(f"name every segment column: missing {sorted(missing)}.")
        key = model
        if model is None:
            models = self._models()
            if len(models) > 1:
                raise TypeError(f"model= is needed: the table holds the models "
                                f"{sorted(map(str, models))}.")
            key = models[0] if models else None
        row = self._indexed(tuple(segment[name] for name in self.by) + (key,))
        if row is not None:
            return row
        # Equal values need not hash alike (a Timestamp and a datetime64): compare.
        rows = np.arange(len(self))
        # segments first: their columns are typed arrays, the model column objects
        for name, value in segment.items():
            rows = _matching(self.columns[name], rows, value)
        if model is not None:
            rows = _matching(self.columns["model"], rows, model)
        if len(rows) == 0:
            raise KeyError(f"no row for model={model!r} and {dict(segment)!r}.")
        return int(rows[0])

    def _indexed(self, key: tuple[Any, ...]) -> int | None:
        """The row of ``key`` by hash (one pass over the columns on the first call)."""
        if self._index is None:
            columns = [self.columns[name] for name in self.by + ("model",)]
            index: dict[tuple[Any, ...], int] = {}
            # (tolist turns datetime64[ns] into ints, which an int would then match)
            if not any(col.dtype.kind in "mM" for col in columns):
                for row, values in enumerate(zip(*(col.tolist() for col in columns))):
                    index.setdefault(values, row)
            object.__setattr__(self, "_index", index)
        assert self._index is not None
        try:
            return self._index.get(key)
        except TypeError:                         # an unhashable value
            return None

    def _models(self) -> list[Any]:
        return list(dict.fromkeys(self.columns["model"].tolist()))

    def report(self, model: Any = None, **segment: Any) -> Report:
        """The ``Report`` of one row, as ``indist_fast.evaluate`` gives it on its rows.

        Parameters
        ----------
        model : optional
            The model's name; may be left out when the table holds one model.
        **segment
            One value per segment column, e.g. ``country="se", day=3``.

        Returns
        -------
        Report
            Raises ValueError for a segment of one class, as ``evaluate`` does.

        Examples
        --------
        >>> import indist_fast
        >>> t = indist_fast.evaluate_many([0, 1, 1, 0], [.1, .9, .8, .3], groups=[1, 1, 1, 1])
        >>> t.report(group=1).auc
        1.0
        """
        sweeps, g = self._sweep_of(self._row(model, segment))
        levels = self.levels
        return Report.from_sweep(sweeps.sweep(g), levels, int(sweeps.n_rows[g]),
                                 self.exclude_self)

    def to_dict(self) -> dict[str, list[Any]]:
        """Plain JSON types, a list per column (NaN becomes None).

        Returns
        -------
        dict

        Examples
        --------
        >>> import indist_fast
        >>> t = indist_fast.evaluate_many([0, 1, 1, 0], [.1, .9, .8, .3], groups=[1, 1, 2, 2])
        >>> t.to_dict()["group"], t.to_dict()["auc"]
        ([1, 2], [1.0, 1.0])
        """
        # (datetime64 read by element: tolist turns datetime64[ns] into ints)
        return {name: [plain_value(v) for v in (col if col.dtype.kind == "M" else col.tolist())]
                for name, col in self.columns.items()}

    def to_pandas(self) -> Any:
        """The table as a ``pandas.DataFrame`` (needs pandas).

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import indist_fast
        >>> t = indist_fast.evaluate_many([0, 1, 1, 0], [.1, .9, .8, .3], groups=[1, 1, 2, 2])
        >>> t.to_pandas()[["group", "auc"]].shape
        (2, 2)
        """
        import pandas as pd
        return pd.DataFrame({name: _nullable(col) if name in self.by else col
                             for name, col in self.columns.items()})

    def to_polars(self) -> Any:
        """The table as a ``polars.DataFrame`` (needs polars).

        Returns
        -------
        polars.DataFrame

        Examples
        --------
        >>> import indist_fast
        >>> t = indist_fast.evaluate_many([0, 1, 1, 0], [.1, .9, .8, .3], groups=[1, 1, 2, 2])
        >>> t.to_polars().shape[0]
        2
        """
        import polars as pl
        return pl.DataFrame({name: (col.tolist() if col.dtype == object else col)
                             for name, col in self.columns.items()})

    def to_arrow(self) -> Any:
        """The table as a ``pyarrow.Table`` (needs pyarrow).

        Returns
        -------
        pyarrow.Table

        Examples
        --------
        >>> import indist_fast
        >>> t = indist_fast.evaluate_many([0, 1, 1, 0], [.1, .9, .8, .3], groups=[1, 1, 2, 2])
        >>> t.to_arrow().num_rows
        2
        """
        import pyarrow as pa
        return pa.table({name: (col.tolist() if col.dtype == object else col)
                         for name, col in self.columns.items()})

    def __str__(self) -> str:
        shown = list(self.by) + ["model", "n_rows", "auc", "average_precision", "threshold",
                                 "precision", "lift", "reached"]
        if "auc_low" in self.columns:                  # (n_boot given)
            shown[shown.index("auc") + 1:shown.index("auc") + 1] = ["auc_low", "auc_high"]
        shown += [name for name in EXTRA_COLUMNS + DRIFT_COLUMNS[1:] if name in self.columns]
        rows = list(range(len(self)))
        if len(rows) > 20:
            rows = rows[:10] + [-1] + rows[-10:]

        def cell(name: str, i: int) -> str:
            v = self.columns[name][i]
            if v is None and name in self.by:       # a total row: every segment
                return "(all)"
            if isinstance(v, (float, np.floating)):
                return "nan" if math.isnan(v) else f"{v:.4f}"
            if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
                return f"{int(v):,}"
            return value_text(v)
        table = [[cell(n, i) if i >= 0 else "..." for n in shown] for i in rows]
        widths = [max([len(n)] + [len(r[k]) for r in table]) for k, n in enumerate(shown)]
        lines = ["  ".join(n.rjust(wd) for n, wd in zip(shown, widths))]
        lines += ["  ".join(c.rjust(wd) for c, wd in zip(r, widths)) for r in table]
        flagged = int(np.count_nonzero(self.columns["one_class"]))
        lines.append(f"{len(self):,} rows" + (f"; {flagged:,} of one class (metrics NaN)"
                                              if flagged else ""))
        if len(self) > 20:                           # say how to see what "..." hides
            lines[-1] += (f"; {len(self) - 20:,} not shown: .to_pandas() (or to_dict, "
                          f"to_polars, to_arrow) holds every row and column")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from .html_tables import report_table_html
        return report_table_html(self, max_rows=20) + f"<p>{len(self):,} rows</p>"


def _matching(column: np.ndarray, rows: np.ndarray, value: Any) -> np.ndarray:
    """The ``rows`` whose value in ``column`` equals ``value``: one vectorised
    comparison (element by element only where NumPy cannot compare the types)."""
    values = column[rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # e.g. str column vs int: all False
        try:
            equal = values == value
        except (TypeError, ValueError):
            equal = None
    if not (isinstance(equal, np.ndarray) and equal.dtype == bool
            and equal.shape == values.shape):
        equal = np.array([v == value for v in values.tolist()], dtype=bool)
    out: np.ndarray = rows[equal]
    return out


_NULLABLE = {"i": "Int64", "u": "UInt64", "f": "Float64", "b": "boolean"}


def _nullable(column: np.ndarray) -> Any:
    """A segment column holding None (the totals rows) as a pandas nullable array of
    its values' type; others as they are."""
    if column.dtype != object:
        return column
    import pandas as pd
    given = column[np.array([v is not None for v in column.tolist()], dtype=bool)]
    kind = np.asarray(given.tolist()).dtype.kind if len(given) else "O"
    if len(given) == len(column) or kind not in _NULLABLE:
        return column
    return pd.array(column.tolist(), dtype=_NULLABLE[kind])
