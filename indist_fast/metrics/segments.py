"""Every metric per segment, for several models, from one call: ``evaluate_many``.

Segments are numbered once (hash factorisation with pandas, a sort without it); each
score column then costs one engine call that places its rows by segment and class in a
counting pass, sorts each piece in cache and sweeps every segment on its own, so a
hundred thousand small segments cost about as much as one sort of the rows, not a
hundred thousand calls.
"""

from __future__ import annotations

import contextlib
import datetime
import math
import re
from collections.abc import Mapping
from typing import Any, Callable, ContextManager, Iterable, Iterator, NoReturn

import numpy as np

from .._core.engine import engine
from .._core.records import SegmentSweeps
from .._core.validation import (Rows, first_missing, check_flag, check_levels,
                               check_weight_span, prepare_rows, with_scores)
from ..errors import warn_one_class
from ..inference.segment_bootstrap import (bootstrap_settings, interval_columns,
                                          segment_intervals, segment_slots)
from ..io.frames import arrow_values, columns_by_keyword, table_columns
from ..results.report_table import (EXTRA_COLUMNS, REPORT_COLUMNS, BootstrapSettings,
                                    ReportTable)
from .segment_extras import extra_columns
from .segment_tables import append_totals
from ..table.score_table import DEFAULT_LEVELS, with_main_level

__all__ = ["evaluate_many", "evaluate_many_checked"]

# Column names a ReportTable uses itself: segment columns may not take them.
RESERVED = (frozenset(REPORT_COLUMNS) | {"model", "one_class"} | set(interval_columns())
            | set(EXTRA_COLUMNS))


@columns_by_keyword
def evaluate_many(y_true: Any, scores: Any = None, *, groups: Any = None,
                  sample_weight: Any = None, pos_label: Any = None,
                  levels: Iterable[float] = DEFAULT_LEVELS, exclude_self: bool = True,
                  label: str | None = None, score: str | Iterable[str] | None = None,
                  by: str | Iterable[str] | None = None, weight: str | None = None,
                  total: bool = False, n_boot: int | None = None, seed: Any = 0,
                  confidence: float = 0.95, progress: bool | None = None,
                  extra: str | Iterable[str] | None = None) -> ReportTable:
    """``indist_fast.evaluate`` for every segment and every model at once.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), or a table
        Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``. With
        ``label=``/``score=``, a pandas or polars DataFrame or a pyarrow Table instead.
    scores : array-like of shape (n_samples,) or (n_samples, n_models), or a mapping
        The models' scores (higher meaning more likely positive; ±inf allowed, NaN
        not): one array (model ``"score"``), the columns of a 2-D array (models ``0 ..
        k-1``) or a mapping from model name to array.
    groups : array-like of shape (n_samples,), or a sequence of such arrays, default=None
        Segment of each row: ints, strings, categoricals; several arrays segment by
        their combinations. A list of single values (NumPy scalars included) is one
        column; a list of arrays is several. None: one segment of all rows.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative finite frequency weights.
    pos_label : scalar, default=None
        The positive label; needed when labels are not bool, {0, 1} or {-1, 1}.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points each ``report()`` holds in ``Report.at``.
    exclude_self : bool, default=True
        Drop the pairs of a positive copy with itself from ``B``.
    label, score, weight : str, default=None
        Column names when ``y_true`` is a table; ``score`` may list several models.
    by : str or sequence of str, default=None
        Segment column names when ``y_true`` is a table.
    total : bool, default=False
        Also give each model's report over all rows (segment columns None there, so
        they hold Python objects; ``to_pandas`` makes them nullable columns).
    n_boot : int, default=None
        Bootstrap replicates per (segment, model) row: adds the percentile intervals
        ``<metric>_low`` and ``<metric>_high`` of ``auc``, ``average_precision``,
        ``threshold`` and ``precision`` (stratified, at level 0.5), those of
        ``indist_fast.bootstrap`` on the segment's rows alone. None: no intervals.
    seed : int, sequence of int, numpy SeedSequence or None, default=0
        Seed of the intervals (used with ``n_boot``): the same call gives the same
        intervals; None draws fresh entropy from the OS (reported in
        ``ReportTable.seed_entropy``). With ``seed_seq =
        SeedSequence(seed)`` (or ``seed`` itself when it is one), the segment in table
        position ``g`` (0, 1, ... in the table's segment order; the totals rows come
        next, as position ``n_segments``) is resampled as ``bootstrap(its rows,
        seed=SeedSequence(seed_seq.entropy, spawn_key=seed_seq.spawn_key + (g,)))``,
        bit for bit. The models of a segment share its seed: the same random
        stream. With weights, that resamples the same rows for every model (paired
        replicates); without, ``bootstrap`` lays a class's rows out in score order,
        which differs by model, so the replicates are not paired by row.
    confidence : float, default=0.95
        Coverage of the percentile intervals.
    progress : bool or None, default=None
        A progress bar over the bootstrap replicates (with ``n_boot``; tqdm, on
        stderr), one per model. None: shown when stderr is a terminal or in Jupyter
        (``INDIST_FAST_PROGRESS=0`` turns that off); True always; False never.
    extra : str or sequence of str, default=None
        More columns, each read from the segment's score table: ``"ks"`` (the KS
        statistic, ``ScoreTable.ks``), ``"ece"``, ``"mce"``, ``"brier"``,
        ``"log_loss"`` (``ScoreTable.calibration`` with its defaults: 10 uniform
        bins; they need scores in [0, 1]). Each equals the array function on the
        segment's rows; NaN for a segment of one class. They cost one more sort of the
        rows by (segment, score) per model.

    Returns
    -------
    ReportTable
        One row per (segment, model), segments in sorted order. A segment holding one
        class (or weight 0 on every row) gets NaN metrics and intervals and
        ``one_class=True`` (one warning counts them); its ``report()`` raises the
        error ``evaluate`` raises on its rows.

    Examples
    --------
    >>> import indist_fast
    >>> y = [0, 1, 1, 0, 1, 0, 0, 1]
    >>> t = indist_fast.evaluate_many(y, {"m1": [.1, .9, .8, .3, .6, .2, .4, .7],
    ...                                   "m2": [.5, .4, .9, .1, .8, .3, .6, .2]},
    ...                               groups=["de", "de", "de", "de", "se", "se", "se", "se"])
    >>> t.columns["group"].tolist(), t.columns["model"].tolist()
    (['de', 'de', 'se', 'se'], ['m1', 'm2', 'm1', 'm2'])
    >>> t.columns["auc"].tolist()
    [1.0, 0.75, 1.0, 0.5]

    With ``n_boot``, percentile intervals per row (``bootstrap`` on the segment):

    >>> t = indist_fast.evaluate_many(y, [.1, .9, .8, .3, .6, .2, .4, .7], n_boot=100,
    ...                               seed=0, groups=[1, 1, 1, 1, 1, 2, 2, 2])
    >>> [name for name in t.columns if name.startswith("auc")]
    ['auc', 'auc_low', 'auc_high']

    With ``extra``, readings of each segment's table that a ``Report`` does not hold:

    >>> t = indist_fast.evaluate_many(y, [.1, .9, .8, .3, .6, .2, .4, .7],
    ...                               groups=[1, 1, 1, 1, 2, 2, 2, 2], extra=["ks", "brier"])
    >>> t.columns["ks"].tolist(), t.columns["brier"].round(4).tolist()
    ([1.0, 1.0], [0.0375, 0.1125])
    """
    lv = check_levels(levels)
    exclude_self = check_flag(exclude_self, "exclude_self")
    total = check_flag(total, "total")
    boot = bootstrap_settings(n_boot, seed, confidence, progress)
    extra = check_extra(extra)
    y, models, w, group_arrays, by_names = _inputs(y_true, scores, groups, sample_weight,
                                                   label, score, by, weight)
    return evaluate_many_checked(y, models, w, group_arrays, by_names, pos_label, lv,
                                 exclude_self, total, boot, label=label, weight=weight,
                                 extra=extra)


def evaluate_many_checked(y: Any, models: dict[Any, Any], w: Any, group_arrays: list[Any],
                          by_names: list[str], pos_label: Any, lv: tuple[float, ...],
                          exclude_self: bool, total: bool, boot: BootstrapSettings | None,
                          *, label: str | None = None, weight: str | None = None,
                          naming: Callable[[Any], ContextManager[None]] | None = None,
                          extra: tuple[str, ...] = ()) -> ReportTable:
    """``evaluate_many`` once its settings are checked: for callers that checked them
    already (``evaluate_file``), so that nested calls do not check them again (as
    scikit-learn's ``prefer_skip_nested_validation``). The rows are checked here.

    Parameters
    ----------
    y : array-like
        The labels.
    models : dict
        Model name to its scores (the order of the table's models).
    w : array-like or None
        Sample weights.
    group_arrays : list of array-like
        The segment columns; empty for one segment of all rows.
    by_names : list of str
        Their names, one each.
    pos_label : scalar or None
        The positive label.
    lv : tuple of float
        Levels, as ``check_levels`` gives them.
    exclude_self, total : bool
        As ``check_flag`` gives them.
    boot : BootstrapSettings or None
        As ``bootstrap_settings`` gives them.
    label, weight : str, default=None
        The column names in the table form (errors name the columns).
    naming : callable, default=None
        ``naming(model)``: a context in which errors about a model's rows are named
        (its scores are the argument ``y_score``); by default as ``evaluate_many``
        names them.
    extra : tuple of str, default=()
        The columns ``check_extra`` gives.

    Returns
    -------
    ReportTable

    Examples
    --------
    >>> from indist_fast.metrics.segments import evaluate_many_checked
    >>> t = evaluate_many_checked([0, 1, 1, 0], {"m": [.1, .9, .8, .3]}, None, [[1, 1, 2, 2]],
    ...                           ["g"], None, (0.5,), True, False, None)
    >>> t.columns["g"].tolist(), t.columns["auc"].tolist()
    ([1, 2], [1.0, 1.0])
    """
    if naming is None:
        names = {name: _score_name(name, len(models), label is not None) for name in models}
        columns = None if label is None else {
            "y_true": f"label column {label!r}",
            **({} if weight is None else {"sample_weight": f"weight column {weight!r}"})}
        naming = lambda model: naming_scores(names[model], columns)  # noqa: E731
    rows: list[Rows] = []
    for name, s in models.items():
        with naming(name):
            rows.append(prepare_rows(y, s, w, pos_label) if not rows
                        else with_scores(rows[0], s))
    n = rows[0].n_rows
    clash = sorted(set(by_names) & RESERVED)
    if clash:
        raise ValueError(f"groups/by: segment column name(s) {clash} would hide the table's "
                         f"own columns of that name; rename them (reserved: model, "
                         f"one_class and the Report fields).")
    codes, n_segments, segment_values = segment_codes(group_arrays, by_names, n)
    _check_weight_spans(rows[0], codes, n_segments, segment_values, total)
    all_levels = with_main_level(lv)
    sweeps = _model_sweeps(rows, list(models), codes, n_segments, all_levels, exclude_self,
                           naming)
    present = sweeps[0].n_rows > 0            # codes may number values no row holds
    if not present.all():
        sweeps = [sw.take(present) for sw in sweeps]
        segment_values = {k: v[present] for k, v in segment_values.items()}
        codes = (np.cumsum(present) - 1)[codes]       # renumbered in table order
    n_table = int(np.count_nonzero(present))
    intervals = None if boot is None else [
        segment_intervals(segment_slots(r, codes, n_table), boot, exclude_self=exclude_self)
        for r in rows]
    readings = None
    if extra:
        readings = []
        for name, r in zip(models, rows):
            with naming(name):
                readings.append(extra_columns(r, codes, n_table, extra))
    table = ReportTable._from_sweeps(by_names, segment_values, list(models), sweeps, lv,
                                    exclude_self, intervals, boot, readings)
    warn_one_class(int(np.count_nonzero(table.columns["one_class"])), len(table))
    if total:
        table = _with_totals(table, rows, all_levels, exclude_self, list(models), boot,
                             n_table, extra)
    return table


def _score_name(model: Any, n_models: int, table_form: bool) -> str:
    """How messages name a model's scores: the argument, or its column."""
    if table_form:
        return f"score column {model!r}"
    return f"scores[{model!r}]" if n_models > 1 or model != "score" else "scores"


@contextlib.contextmanager
def naming_scores(name: str, columns: Mapping[str, str] | None = None) -> Iterator[None]:
    """Errors about ``y_score`` (the shared validation's name for it) name the model
    whose scores they are about; with ``columns`` (the table form), errors about
    ``y_true`` and ``sample_weight`` name their columns too."""
    names = {"y_score": name, **(columns or {})}
    try:
        yield
    except (ValueError, TypeError) as exc:
        message = str(exc)
        if type(exc) not in (ValueError, TypeError) or not any(
                re.search(rf"\b{k}\b", message) for k in names):
            raise
        renamed = re.sub(r"\b(" + "|".join(names) + r")\b", lambda m: names[m.group(1)],
                         message)
        raise type(exc)(renamed) from None


def _model_sweeps(rows: list[Rows], models: list[Any], codes: np.ndarray, n_segments: int,
                  levels: np.ndarray, exclude_self: bool,
                  naming: Callable[[Any], ContextManager[None]]) -> list[SegmentSweeps]:
    """Every model's segment sweeps in one engine call (two models at a time on two
    threads); on bad scores the models are run again one by one, so that the error
    names the model at fault."""
    first = rows[0]
    try:
        return engine().summarize_models(first.y, [r.s for r in rows], first.w, codes,
                                         n_segments, first.pos_value, first.neg_value,
                                         levels, exclude_self)
    except (ValueError, TypeError):
        pass
    sweeps = []
    for model, r in zip(models, rows):
        with naming(model):
            sweeps.append(_sweeps(r, codes, n_segments, levels, exclude_self))
    return sweeps


def _sweeps(rows: Rows, codes: np.ndarray, n_segments: int, levels: np.ndarray,
            exclude_self: bool) -> SegmentSweeps:
    return engine().summarize_segments(rows.y, rows.s, rows.w, codes, n_segments,
                                       rows.pos_value, rows.neg_value, levels, exclude_self)


def _check_weight_spans(rows: Rows, codes: np.ndarray, n_segments: int,
                        values: dict[str, np.ndarray], total: bool) -> None:
    """``evaluate``'s refusal of class totals too far apart to sweep, per segment (and
    over all rows with ``total``): the sweeps' per-segment scale would lose the lighter
    class, which then passed for a segment of one class."""
    if rows.w is None:
        return
    # Cheap first: rows within 2**1400 of each other cannot make totals 2**1499 apart
    # (a total is at most 2**64 rows of the heaviest).
    heaviest = float(np.max(rows.w, initial=0.0))
    lightest = float(np.min(rows.w, where=rows.w > 0, initial=np.inf))
    if not heaviest > 0 or math.log2(heaviest) - math.log2(lightest) < 1400:
        return
    positive = rows.y == rows.pos_value
    with np.errstate(over="ignore"):          # (infinite totals are refused later)
        pos = np.bincount(codes, weights=np.where(positive, rows.w, 0.0), minlength=n_segments)
        neg = np.bincount(codes, weights=np.where(positive, 0.0, rows.w), minlength=n_segments)
    for k in range(n_segments):
        where = ", ".join(f"{name}={v[k].item() if isinstance(v[k], np.generic) else v[k]!r}"
                          for name, v in values.items())
        check_weight_span(float(pos[k]), float(neg[k]), f"in the segment {where}: " if where
                          else "")
    if total and n_segments > 1:
        check_weight_span(float(pos.sum()), float(neg.sum()), "over all rows: ")


def _with_totals(table: ReportTable, rows: list[Rows], levels: np.ndarray,
                 exclude_self: bool, models: list[Any], boot: BootstrapSettings | None,
                 n_segments: int, extra: tuple[str, ...]) -> ReportTable:
    """``table`` followed by one row per model over all rows (segment columns None;
    their intervals resample at table position ``n_segments``)."""
    codes = np.zeros(rows[0].n_rows, dtype=np.int64)
    whole = [_sweeps(r, codes, 1, levels, exclude_self) for r in rows]
    intervals = None if boot is None else [
        segment_intervals(segment_slots(r, codes, 1), boot, first_key=n_segments,
                          exclude_self=exclude_self) for r in rows]
    readings = None if not extra else [extra_columns(r, codes, 1, extra) for r in rows]
    totals = ReportTable._from_sweeps(table.by, {name: np.array([None], dtype=object)
                                                for name in table.by},
                                     models, whole, table.levels, exclude_self, intervals,
                                     boot, readings)
    return append_totals(table, totals)


def _inputs(y_true: Any, scores: Any, groups: Any, sample_weight: Any, label: str | None,
            score: Any, by: Any, weight: str | None
            ) -> tuple[Any, dict[Any, Any], Any, list[Any], list[str]]:
    """Labels, ``{model: scores}``, weights, the group arrays and their names."""
    if label is not None or score is not None or by is not None or weight is not None:
        if label is None and score is None and by is not None:
            raise TypeError("by= names segment columns of a table: pass the table with "
                            "label=, score= and by= column names, or arrays with groups= "
                            "(evaluate_many(y_true, scores, groups=g)).")
        if label is None or score is None:
            raise TypeError("pass both label= and score= column names with a table.")
        if scores is not None or groups is not None or sample_weight is not None:
            raise TypeError("with label=/score= columns, pass the table alone (not scores, "
                            "groups or sample_weight arrays).")
        score_names = column_names(score, "score")
        by_names = [] if by is None else column_names(by, "by")
        cols = table_columns(y_true, [("label", label), ("weight", weight)]
                             + [("score", s) for s in score_names]
                             + [("by", b) for b in by_names])
        y, w = cols[0], cols[1]
        models = dict(zip(score_names, cols[2:2 + len(score_names)]))
        return y, models, w, cols[2 + len(score_names):], by_names
    if scores is None:
        raise TypeError("scores is missing: pass the scores (an array, a 2-D array of "
                        "models, or a mapping name -> array), or a table with label= "
                        "and score= column names.")
    return y_true, _models(scores), sample_weight, *_group_arrays(groups)


def column_names(value: Any, name: str) -> list[str]:
    if isinstance(value, str):
        names = [value]
    elif isinstance(value, Iterable) and not isinstance(value, (Mapping, bytes, set,
                                                                  frozenset)):
        names = list(value)               # a list, a tuple, a pandas Index (not a set:
                                          # its order would set the models' order)
    else:
        names = []
    if not names or not all(isinstance(v, str) for v in names):
        raise TypeError(f"{name} must be a column name or a non-empty list of them, "
                        f"got {value!r}.")
    if len(set(names)) < len(names):
        raise ValueError(f"{name} names a column twice: {names}.")
    return names


def check_extra(extra: Any) -> tuple[str, ...]:
    """``extra`` as a tuple of known column names (a str is one name)."""
    if extra is None:
        return ()
    names = column_names(extra, "extra")
    unknown = [name for name in names if name not in EXTRA_COLUMNS]
    if unknown:
        raise ValueError(f"extra: unknown column {unknown[0]!r}; choose from "
                         f"{', '.join(EXTRA_COLUMNS)}.")
    return tuple(names)


def _models(scores: Any) -> dict[Any, Any]:
    if isinstance(scores, Mapping):
        if not scores:
            raise ValueError("scores is an empty mapping: name at least one model.")
        return dict(scores)
    columns = getattr(scores, "columns", None)            # a DataFrame of models
    if columns is not None and not isinstance(scores, np.ndarray):
        return {name: scores[name] for name in list(columns)}
    arr = scores if isinstance(scores, np.ndarray) else None
    if arr is None:
        try:
            arr = np.asarray(scores)
        except ValueError:                       # ragged
            arr = None
    if arr is not None and arr.ndim == 2:
        if arr.shape[1] == 0:
            raise ValueError("scores has no columns: need at least one model.")
        if _class_probabilities(arr):
            raise ValueError("scores has two columns that sum to 1 on every row: that is "
                             "what predict_proba returns (one model, both classes). Pass "
                             "the positive class's probabilities, proba[:, 1]; for two "
                             "models whose scores sum to 1, pass a mapping {name: scores}.")
        return {k: arr[:, k] for k in range(arr.shape[1])}
    return {"score": scores}


def _class_probabilities(arr: np.ndarray) -> bool:
    """Whether a 2-D scores array looks like ``predict_proba``'s output: two columns of
    probabilities summing to 1 on every row (within rounding)."""
    if arr.shape[1] != 2 or arr.dtype.kind != "f" or not len(arr):
        return False
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.abs(arr[:, 0] + arr[:, 1] - 1.0) <= 1e-9)
                    and np.all(arr >= 0))


def _group_arrays(groups: Any) -> tuple[list[Any], list[str]]:
    """The group arrays and their names: a mapping's keys, a Series' name, else
    ``group`` (one array) or ``group0, group1, ...``."""
    if groups is None:
        return [], []
    if isinstance(groups, Mapping):
        if not groups:
            raise ValueError("groups is an empty mapping: name at least one segment column.")
        return list(groups.values()), [str(k) for k in groups]
    columns = [_is_column(g) for g in groups] if isinstance(groups, (list, tuple)) else []
    if any(columns) and not all(columns):
        k = columns.index(False)
        raise TypeError(f"groups mixes arrays and single values (item {k} is "
                        f"{groups[k]!r}): pass one group column (a value per row) or a "
                        "list of group columns (an array of n values each).")
    if columns and all(columns):
        names = [_series_name(g, f"group{k}") for k, g in enumerate(groups)]
        if len(set(names)) < len(names):
            names = [f"group{k}" for k in range(len(groups))]
        return list(groups), names
    shape = getattr(groups, "shape", None)
    if shape is not None and len(shape) != 1:
        # one array of several dimensions: named here, not as its column "group"
        raise ValueError(f"groups must be one column (n values) or a list or mapping of "
                         f"columns, got an array of shape {tuple(shape)}: pass a 1-D "
                         "array, or list(a.T) for the columns of a 2-D one.")
    return [groups], [_series_name(groups, "group")]


def _argument_name(name: str, k: int, count: int) -> str:
    """How an error names a group column: by the argument the caller passed (``groups``,
    ``groups[1]``) when the column took a default name, else by its own name."""
    if count == 1 and name == "group":
        return "groups"
    return f"groups[{k}]" if name == f"group{k}" else name


def _is_column(item: Any) -> bool:
    """Whether an item of a ``groups`` list is a whole column rather than one row's value
    (NumPy scalars have ``__array__`` too, but no dimension)."""
    if isinstance(item, (str, bytes)):
        return False
    if isinstance(item, (list, tuple)):
        return True
    ndim = getattr(item, "ndim", None)
    if ndim is not None:
        return bool(ndim >= 1)
    return hasattr(item, "__len__") and (hasattr(item, "__array__")
                                         or hasattr(item, "to_numpy"))   # polars, arrow


def _series_name(array: Any, default: str) -> str:
    name = getattr(array, "name", None)                  # pandas and polars Series
    return name if isinstance(name, str) and name else default


def segment_codes(arrays: list[Any], names: list[str], n: int
              ) -> tuple[np.ndarray, int, dict[str, np.ndarray]]:
    """Segment code of every row (segments in sorted order of their values), their
    number, and each column's value per segment."""
    if not arrays:
        return np.zeros(n, dtype=np.int64), 1, {}
    if len(arrays) == n and n > 1 and all(_length(a) != n for a in arrays):
        raise ValueError(f"groups is a list of {n} sequences and there are {n} rows: read "
                         f"as {n} group columns, none has {n} values. For one (composite) "
                         "value per row pass the columns instead, list(zip(*groups)), or "
                         "one array of values (strings, say).")
    if len(arrays) == 1:
        direct = _direct_codes(arrays[0], n)
        if direct is not None:
            return direct[0], len(direct[1]), {names[0]: direct[1]}
    codes = np.zeros(n, dtype=np.int64)
    uniques = []
    for k, (name, array) in enumerate(zip(names, arrays)):
        c, u = factorize_column(array, _argument_name(name, k, len(arrays)), n)
        codes = codes * len(u) + c        # < the product of the counts: no overflow
        uniques.append(u)
    if len(arrays) == 1:
        return codes, len(uniques[0]), {names[0]: uniques[0]}
    seg_codes, combined = _dense_codes(codes)
    values = {}
    rest = combined
    for name, u in reversed(list(zip(names, uniques))):
        values[name] = u[rest % len(u)]
        rest = rest // len(u)
    return seg_codes, len(combined), {name: values[name] for name in names}


def _length(array: Any) -> int | None:
    try:
        return len(array)
    except TypeError:
        return None


def _direct_codes(array: Any, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Non-negative integer groups of a small range are their own codes (segments no row
    holds are dropped after the sweep): no renumbering pass. None otherwise."""
    if not (isinstance(array, np.ndarray) and array.dtype.kind in "iu" and array.ndim == 1
            and len(array) == n and n):
        return None
    lo, hi = int(array.min()), int(array.max())
    if lo < 0 or hi > 4 * n + 1024:
        return None
    # (contiguous: a strided column, e.g. of a 2-D array, is copied for the kernels)
    return (np.ascontiguousarray(array, dtype=np.int64),
            np.arange(hi + 1).astype(array.dtype))


def _dense_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Integers renumbered 0..k-1 in sorted order, and the k distinct values: one
    counting pass when their range is small, a sort otherwise."""
    lo, hi = int(values.min()), int(values.max())
    if hi - lo <= 4 * len(values) + 1024:
        present = np.bincount(values - lo, minlength=hi - lo + 1) > 0
        lookup = np.cumsum(present) - 1
        return lookup[values - lo].astype(np.int64), np.flatnonzero(present) + lo
    uniques, codes = np.unique(values, return_inverse=True)
    return codes.astype(np.int64).reshape(-1), uniques


def factorize_column(array: Any, name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Codes (int64, in sorted order of the values) and the distinct values of one group
    column; missing values are an error naming the column and row."""
    values = array if isinstance(array, np.ndarray) else _to_numpy(array)
    if values.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {values.shape}.")
    if len(values) != n:
        raise ValueError(f"{name} has {len(values)} rows, the labels {n}.")
    if values.dtype.kind in "iu" and len(values):
        codes, uniques = _dense_codes(values.astype(np.int64, copy=False))
        return codes, uniques.astype(values.dtype)
    factorized = _hash_factorize(values)
    if factorized is not None:
        codes, uniques = factorized
        if len(codes) and codes.min() < 0:          # pandas' mark of a missing value
            _refuse_missing(name, int(np.flatnonzero(codes < 0)[0]), values)
        if values.dtype == object:
            _refuse_mixed(name, uniques)
        return codes, uniques
    missing = first_missing(values) if values.dtype == object else -1
    if missing >= 0:
        _refuse_missing(name, missing, values)
    try:
        uniques, codes = np.unique(values, return_inverse=True)
    except TypeError as exc:
        _refuse_mixed(name, values)
        raise TypeError(f"{name} mixes values that cannot be compared: {exc}") from None
    if values.dtype.kind in "fc" and len(uniques) and np.isnan(uniques[-1]):
        row = int(np.flatnonzero(np.isnan(values))[0])
        raise ValueError(f"{name} has a missing value (NaN) at row {row}; drop or fill "
                         "those rows first.")
    if values.dtype.kind in "mM" and len(uniques) and np.isnat(uniques[-1]):    # NaT sorts last
        _refuse_missing(name, int(np.flatnonzero(np.isnat(values))[0]), values)
    if values.dtype == object:
        _refuse_mixed(name, uniques)
    return codes.astype(np.int64).reshape(-1), uniques


def _refuse_missing(name: str, row: int, values: np.ndarray) -> NoReturn:
    value = values[row]
    shown = ("NaT" if isinstance(value, (np.datetime64, np.timedelta64)) and np.isnat(value)
             else repr(value))
    raise ValueError(f"{name} has a missing value ({shown}) at row {row}; drop or "
                     "fill those rows first.")


def _value_type(value: Any) -> str:
    """The type a segment value is written as: ints and floats are numbers alike
    (one Arrow column holds both), NumPy scalars count as their Python types."""
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    if isinstance(value, datetime.datetime):    # (pandas' Timestamp too; before date)
        return "datetime"
    for kind in (str, bytes, datetime.date):
        if isinstance(value, kind):
            return kind.__name__
    return type(value).__name__


def _refuse_mixed(name: str, values: np.ndarray) -> None:
    """Segment values of one type (numbers may mix ints and floats): a column mixing
    them (1 and "1") would print its segments alike and fit no table column."""
    listed_values = values.tolist()
    if len(set(map(type, listed_values))) <= 1:      # the common case, at C speed
        return
    examples: dict[str, Any] = {}
    for value in listed_values:
        examples.setdefault(_value_type(value), value)
    kinds = sorted(examples)
    if kinds in ([], ["float", "int"]) or len(kinds) == 1:
        return
    listed = ", ".join(kinds[:-1]) + f" and {kinds[-1]}"
    shown = " and ".join(repr(examples[k]) for k in kinds[:2])
    raise TypeError(f"{name} mixes values of types {listed} (e.g. {shown}): its segments "
                    "would not fit one column of a table (to_arrow, CSV reads 1 and '1' "
                    "alike). Convert it to one type first, e.g. to text with "
                    ".astype(str).")


def _hash_factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Codes in sorted order of the values by a hash pass (pandas.factorize; an object
    argsort is 20-50x slower), or None without pandas or for values it cannot sort."""
    if values.dtype.kind not in "OUS":
        return None
    try:
        import pandas as pd
        codes, uniques = pd.factorize(values, sort=True)
    except (ImportError, TypeError):
        return None
    return codes.astype(np.int64), np.asarray(uniques, dtype=values.dtype)


def _to_numpy(array: Any) -> np.ndarray:
    if type(array).__module__.partition(".")[0] == "pyarrow":
        return arrow_values(array)
    to_numpy = getattr(array, "to_numpy", None)       # pandas and polars series
    out = np.asarray(to_numpy() if to_numpy is not None else array)
    return out
