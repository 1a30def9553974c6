"""An exact sliding window: the report of the last ``size`` rows or ``duration`` seconds.

Counts in a score table can be taken away as well as added, so a window keeps the
Mann-Whitney sum U (pairs ranked right, ties half) and the class totals up to date as
rows come and go: a row joining or leaving changes U by the other class's weight
below, at and above its score. Those rank queries run against a base (the window's
distinct scores at the last rebuild, with cumulative weights) plus a delta run (rows
that came or left since, with signed weights and row counts), both ascending: a batch
is sorted once, its scores searched in the base (through an index of every 64th score,
small enough to stay in the cache, then within one block of 64 fetched a few queries
ahead), and merged into the delta in one pass (``window_step``). When the delta outgrows about
``2 sqrt(base * batch)`` entries it is merged into the base (``window_merge``), which
balances the delta's per-batch merge against the base's rebuild: O(batch log batch +
sqrt(window * batch)) per batch, ``auc()`` O(1). The work waits for the next reading
and is done for every batch since in one pass: rows that came and left in between
cancel, and a window not read for more rows than it holds is rebuilt from its rows.

Unweighted, U and the totals are integers accumulated in Python ints: ``auc()`` is
exact. Weighted, they are float64 sums whose rounding drifts as rows come and go; each
rebuild sums U afresh from the base, so the drift never outlives one rebuild (a
relative error of order 1e-13, checked against ``report``). ``report()`` and
``table()`` are built from the rows held, exactly as ``evaluate`` builds them.
"""

from __future__ import annotations

import datetime as _dt
import math
import threading
from typing import Any, Iterable

import numpy as np

from .._core.engine import engine
from .._core.records import WindowBase
from .._core.validation import (LabelCoding, Rows, check_count, check_flag, check_levels,
                                check_pos_label, check_real, check_two_classes,
                                checked_classes, combine_codings, labels_as_coded,
                                prepare_rows)
from ..metrics.evaluation import evaluate
from ..results.report import Report
from ..table.score_table import DEFAULT_LEVELS, ScoreTable
from .row_ring import RingRows, RowRing
from .streaming import _empty

__all__ = ["Window"]

# The delta run is merged into the base once it holds more than
# _REBUILD_FACTOR * sqrt(base * batch) entries (and at least _MIN_DELTA): the delta's
# merge costs its length per batch, the rebuild the base's length once per
# delta / batch batches; they balance near a factor of 2 (a 1e6-row window in batches of
# 1,000, read after each: factors 0.7, 1.4 and 2.8 took 1.05x, 1x and 1.08x the time).
_REBUILD_FACTOR = 1.5
_MIN_DELTA = 1024
# Batches held back between readings before they are joined into one chunk.
_PENDING_CHUNKS = 256

# A row's code in window_step: bit 0 positive, bit 1 leaving.
_LEAVING = np.uint8(2)

_EMPTY_F = np.empty(0, np.float64)
_EMPTY_I = np.empty(0, np.int64)


class Window:
    """The exact report of the last ``size`` rows, or of the last ``duration`` seconds.

    Batches come in with ``update``; the rows past the window leave (the oldest first,
    a batch partly when it straddles the edge). ``auc()`` is read in constant time
    after each update; ``report()`` and ``table()`` equal ``evaluate`` and
    ``ScoreTable.from_arrays`` on exactly the rows in the window.

    Parameters
    ----------
    size : int, default=None
        Keep the last ``size`` rows.
    duration : float or datetime.timedelta, default=None
        Keep the rows whose time ``t`` is at least the latest time minus ``duration``
        (seconds, or a ``timedelta``); every update then needs ``t``. With ``size`` as
        well, a row leaves by whichever comes first.
    levels : sequence of float, default=(0.4, 0.5, 0.6)
        Levels of ``B`` whose operating points ``report()`` gives.
    pos_label : scalar, default=None
        The positive label, as in ``indist_fast.evaluate`` (needed for text labels).

    Attributes
    ----------
    coding : LabelCoding or None
        The labels fixed by the first batch (later batches must agree).
    weighted : bool or None
        Whether the batches carry ``sample_weight`` (fixed by the first batch).

    Notes
    -----
    Cost: ``update`` keeps the rows (O(b) for a batch of ``b``); the rank work waits
    for the next reading, which does it for every batch since the last one in one
    sorted pass: O(b log b + sqrt(n b)) amortized per batch of ``b`` rows into a window
    of ``n`` when read after every batch, less when read rarely (rows that came and
    left in between cancel; past ``n`` rows held back, the sums are rebuilt from the
    rows, O(n log n)). ``auc()`` is then O(1); ``report()`` is one ``evaluate`` of the
    window's rows. Memory (``nbytes``): 9 bytes per row in the ring (score and
    class; 8 more each with weights and times; a duration window's ring may be up to
    four times its rows while it shrinks), and 48 bytes per distinct score in the rank
    structure (one more per 8 for its search index), twice (the kernels write a new
    base beside the one they read) with room for the delta run and a quarter more:
    about 170 bytes per row for 1e5 distinct
    scores in batches of 1,000, plus the rows held back between two readings (at most
    the window's rows again).

    Unweighted, ``auc()`` is exact (integer sums; the kernels add a batch's pairs in
    float64, exact while they stay below 2**53: a window rebuilt whole, after a pickle
    or a merge, of up to 1e8 rows); weighted, it agrees with
    ``report().auc`` to about 1e-12 (float sums refreshed at each rebuild of the rank
    structure). Times are float seconds (datetimes become seconds since 1970, to about
    a microsecond); they must not decrease, within a batch or across batches.

    Examples
    --------
    >>> from indist_fast import Window
    >>> w = Window(size=4, levels=(0.5,))
    >>> w.update([0, 1, 1], [0.1, 0.9, 0.4])
    >>> w.update([0, 1], [0.5, 0.8])      # the oldest row (0, 0.1) leaves
    >>> w.n_rows, round(w.auc(), 4)
    (4, 0.6667)
    >>> w.report().auc == w.auc()
    True
    """

    def __init__(self, size: int | None = None, duration: float | _dt.timedelta | None = None,
                 *, levels: Iterable[float] = DEFAULT_LEVELS, pos_label: Any = None) -> None:
        if size is None and duration is None:
            raise ValueError("size or duration must be given: a window keeps the last "
                             "size rows or the last duration seconds.")
        self.size = None if size is None else check_count(size, "size", maximum=10**12)
        self.duration = None if duration is None else _check_duration(duration)
        self.levels = check_levels(levels)
        self.pos_label = check_pos_label(pos_label)
        self.coding: LabelCoding | None = None
        self.weighted: bool | None = None
        self._time_kind: str | None = None
        self._last_t = -math.inf
        self._lock = threading.Lock()
        self._ring: RowRing | None = None
        self._base_columns = _Columns(_BASE_COLUMNS)
        self._delta_columns = _Columns(_DELTA_COLUMNS)
        self._set_base(_empty_base())
        self._clear_pending()

    # --- state -------------------------------------------------------------------------

    def _set_base(self, base: WindowBase) -> None:
        """Make ``base`` the rank structure (delta empty) and take U and the totals from
        it, as integers when unweighted."""
        self._base = base
        self._top = engine().window_top(base.scores)
        self._delta = (_EMPTY_F, _EMPTY_F, _EMPTY_F, _EMPTY_I)
        self._batch_mean = 1.0
        if self.weighted:
            self._u2: float | int = base.u2
            self._pos: float | int = float(base.pos_below[-1])
            self._neg: float | int = float(base.neg_below[-1])
        else:
            # float64 holds these integers exactly below 2**53
            self._u2 = int(base.u2)
            self._pos, self._neg = int(base.pos_below[-1]), int(base.neg_below[-1])

    def _clear_pending(self) -> None:
        self._pending: list[tuple[RingRows, RingRows | None]] = []
        self._pending_rows = 0
        self._stale = False

    def _defer(self, batch: RingRows, gone: RingRows | None) -> None:
        """Hold the rows that came and left until the next reading: rows that come and
        go between two readings then cancel, and the rest join in one sorted pass.
        Once the rows held back outnumber the window, a rebuild from the window's rows
        is cheaper: they are dropped for it."""
        if self._stale:
            return
        # (copied: the weights may be the caller's array)
        self._pending.append((RingRows(batch.scores, batch.positive,
                                       None if batch.weights is None else batch.weights.copy(),
                                       None), gone))
        self._pending_rows += len(batch.scores) + (0 if gone is None else len(gone.scores))
        if self._pending_rows > max(_MIN_DELTA, self.n_rows):
            self._pending, self._pending_rows, self._stale = [], 0, True
        elif len(self._pending) > _PENDING_CHUNKS:
            # many small batches: one chunk each way (a list entry weighs more than a row)
            came = _joined([b for b, _ in self._pending])
            went = [g for _, g in self._pending if g is not None]
            self._pending = [(came, _joined(went) if went else None)]

    def _settle(self) -> None:
        """Bring U, the totals and the rank structure up to the rows held."""
        if self._stale:
            self._rebuild_from_rows()
        elif self._pending:
            came = [b for b, _ in self._pending]
            went = [g for _, g in self._pending if g is not None]
            self._clear_pending()
            self._step(_joined(came), _joined(went) if went else None)

    def _rebuild_from_rows(self) -> None:
        self._clear_pending()
        rows = self._ring.rows() if self._ring is not None else None
        if rows is None or len(rows.scores) == 0:
            self._set_base(_empty_base())
            return
        # every row comes into an empty window, then the delta becomes the base
        self._set_base(_empty_base())
        self._step(rows, None)
        self._rebase()

    @property
    def n_rows(self) -> int:
        """Rows in the window (zero-weight rows included)."""
        return 0 if self._ring is None else len(self._ring)

    @property
    def weight_pos(self) -> float:
        """Positive weight in the window (the row count when unweighted)."""
        with self._lock:
            self._settle()
            return float(self._pos)

    @property
    def weight_neg(self) -> float:
        """Negative weight in the window (the row count when unweighted)."""
        with self._lock:
            self._settle()
            return float(self._neg)

    @property
    def nbytes(self) -> int:
        """Bytes the window holds: the rows' ring and the rank structure."""
        ring = 0 if self._ring is None else self._ring.nbytes
        pending = sum(a.nbytes for came, went in self._pending for rows in (came, went)
                      if rows is not None for a in rows if a is not None)
        return (ring + pending + self._base_columns.nbytes + self._delta_columns.nbytes
                + self._top.nbytes)

    # --- updates -------------------------------------------------------------------------

    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None,
               t: Any = None) -> None:
        """Add a batch of rows and drop the rows that leave the window.

        A batch that is refused (bad rows, another label coding, weights given or
        omitted unlike the first batch, times out of order) leaves the window as it was.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
        y_score : array-like of shape (n_samples,)
            Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative finite frequency weights (every batch or none).
        t : scalar or array-like of shape (n_samples,), default=None
            The rows' times: seconds (numbers) or datetimes, one for the batch or one
            per row, never decreasing. Required by a ``duration`` window.

        Examples
        --------
        >>> from indist_fast import Window
        >>> w = Window(duration=60)
        >>> w.update([0, 1], [0.2, 0.8], t=0)
        >>> w.update([1, 0], [0.3, 0.6], t=[30, 70])   # t=70: rows before t=10 leave
        >>> w.n_rows
        2
        """
        if _empty(y_true) and _empty(y_score) and (sample_weight is None
                                                   or _empty(sample_weight)):
            return
        with labels_as_coded(y_true, self.coding):
            rows = prepare_rows(y_true, y_score, sample_weight, self.pos_label)
            coding = combine_codings(self.coding, rows.coding)
        positive = checked_classes(rows.y, rows.s, rows.w, rows.pos_value, rows.neg_value)
        weighted = rows.w is not None
        with self._lock:
            if self.weighted is not None and weighted != self.weighted:
                raise ValueError(
                    "sample_weight must be given with every batch or with none: "
                    + ("the first batch had weights, this one has none." if self.weighted
                       else "the first batch had none, this one has weights."))
            times = self._times(t, rows.n_rows)
            self.coding = coding
            if self._ring is None:
                self.weighted = weighted
                self._ring = RowRing(weighted, times is not None or self.duration is not None,
                                     self.size)
            self._add(RingRows(rows.s.astype(np.float64), positive, rows.w, times))

    def _times(self, t: Any, n: int) -> np.ndarray | None:
        """The batch's times as float seconds, checked: given when the window needs
        them, one kind (seconds or datetimes) throughout, never decreasing."""
        if t is None:
            if self.duration is not None:
                raise ValueError("t is required: a window of duration= keeps rows by "
                                 "their time.")
            if self._ring is not None and self._ring.timed:
                raise ValueError("t must be given with every batch once one batch had it.")
            return None
        if self._ring is not None and not self._ring.timed:
            raise ValueError("t must be given with every batch or with none: the first "
                             "batch had none.")
        seconds, kind = _seconds(t)
        if self._time_kind is not None and kind != self._time_kind:
            raise TypeError(f"t must be {self._time_kind} like the earlier batches, got "
                            f"{kind}.")
        if seconds.ndim == 0:
            seconds = np.full(n, float(seconds))
        elif len(seconds) != n:
            raise ValueError(f"t must hold one time for the batch or one per row: "
                             f"{len(seconds)} times for {n} rows.")
        back = np.flatnonzero(seconds[1:] < seconds[:-1])
        if len(back):
            i = int(back[0])
            raise ValueError(f"t must not decrease: row {i + 1} has t={float(seconds[i + 1])!r} "
                             f"after t={float(seconds[i])!r} (rows out of time order).")
        if seconds[0] < self._last_t:
            raise ValueError(f"t must not decrease: the batch starts at "
                             f"t={float(seconds[0])!r}, before the window's latest "
                             f"t={self._last_t!r}.")
        self._time_kind = kind
        return seconds

    def _add(self, batch: RingRows) -> None:
        ring = self._ring
        assert ring is not None
        k = len(batch.scores)
        start = 0
        cutoff = -math.inf
        if batch.times is not None:
            self._last_t = float(batch.times[-1])
            if self.duration is not None:
                cutoff = self._last_t - self.duration
                start = int(np.searchsorted(batch.times, cutoff, "left"))
        if self.size is not None:
            start = max(start, k - self.size)
        if start:
            batch = batch.map(lambda column: column[start:])
            k -= start
        leaving = 0
        if self.size is not None:
            leaving = max(0, len(ring) + k - self.size)
        if self.duration is not None:
            leaving = max(leaving, ring.count_before(cutoff))
        gone = ring.pop_front(leaving) if leaving else None
        if k:
            ring.append(*batch)
        self._defer(batch, gone)

    def _step(self, batch: RingRows, gone: RingRows | None) -> None:
        """Move U, the totals and the delta run by the rows that came and left."""
        s, code, w = batch.scores, batch.positive.view(np.uint8), batch.weights
        if gone is not None:
            s = np.concatenate([s, gone.scores])
            code = np.concatenate([code, gone.positive.view(np.uint8) | _LEAVING])
            w = None if w is None else np.concatenate([w, gone.weights])
        if len(s) == 0:
            return
        order = np.argsort(s)
        b = self._base
        # + 0.0: -0.0 and 0.0 are one score; the kernels keep the first one's sign
        step = engine().window_step(b.scores, self._top, b.pos_below, b.neg_below,
                                    *self._delta,
                                    s[order] + 0.0, code[order],
                                    None if w is None else w[order], float(self._pos),
                                    *self._delta_columns.spare(len(self._delta[0]) + len(s)))
        if self.weighted:
            self._u2 += step.du2
            self._pos += step.dpos
            self._neg += step.dneg
        else:
            self._u2 += int(step.du2)
            self._pos += int(step.dpos)
            self._neg += int(step.dneg)
        self._delta = (step.scores, step.pos, step.neg, step.rows)
        self._batch_mean += (len(s) - self._batch_mean) / 8.0
        limit = max(_MIN_DELTA, _REBUILD_FACTOR * math.sqrt(len(b.scores) * self._batch_mean))
        if len(step.scores) > limit:
            self._rebase()

    def _rebase(self) -> None:
        """Merge the delta run into the base (row counts decide which scores stay)."""
        b = self._base
        base = engine().window_merge(b.scores, b.pos, b.neg, b.rows, *self._delta,
                                     *self._base_columns.spare(len(b.scores)
                                                               + len(self._delta[0])))
        if self.weighted:
            self._set_base(base)
        else:
            # keep the integer sums: exact even past 2**53, where the base's float is not
            u2, pos, neg = self._u2, self._pos, self._neg
            self._set_base(base)
            self._u2, self._pos, self._neg = u2, pos, neg

    # --- readings -------------------------------------------------------------------------

    def auc(self) -> float:
        """AUC of the rows in the window, from the sums kept up to date.

        The rank work of the batches since the last reading is done here, in one pass
        (read after every batch, it is the work of that batch; read rarely, rows that
        came and left in between cancel, and past the window's size the sums are
        rebuilt from the rows held).

        Returns
        -------
        float
            The AUC of ``evaluate`` on the window's rows (ties count half).

        Examples
        --------
        >>> from indist_fast import Window
        >>> w = Window(size=3)
        >>> w.update([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.85])
        >>> w.auc()
        0.5
        """
        if self.n_rows == 0:
            raise ValueError("the window holds no rows: add batches with update() first.")
        with self._lock:
            self._settle()
            u2, pos, neg = self._u2, self._pos, self._neg
        check_two_classes(float(pos), float(neg))
        if not self.weighted:
            return float(u2 / (2 * pos * neg))
        return float(min(1.0, max(0.0, u2 / (2.0 * pos * neg))))

    def table(self) -> ScoreTable:
        """The score table of the rows in the window.

        Returns
        -------
        ScoreTable
            Equal to ``ScoreTable.from_arrays`` on the window's rows.

        Examples
        --------
        >>> from indist_fast import Window
        >>> w = Window(size=2)
        >>> w.update([0, 1, 1], [0.1, 0.9, 0.4])
        >>> w.table().scores.tolist(), w.table().pos.tolist()
        ([0.9, 0.4], [1, 1])
        """
        if self.n_rows == 0:
            raise ValueError("the window holds no rows: add batches with update() first.")
        assert self._ring is not None
        held = self._ring.rows()
        return ScoreTable.from_rows(Rows(held.positive.view(np.uint8), held.scores,
                                         held.weights, 1.0, 0.0, self.coding))

    def report(self, *, exclude_self: bool = True) -> Report:
        """The report of ``indist_fast.evaluate`` on exactly the rows in the window.

        Parameters
        ----------
        exclude_self : bool, default=True
            Drop the pairs of a positive copy with itself from ``B``.

        Returns
        -------
        Report
            Equal (``==``) to ``evaluate(y, s, w, levels=window.levels)`` on the rows.

        Examples
        --------
        >>> import indist_fast
        >>> w = indist_fast.Window(size=5, levels=(0.5,))
        >>> w.update([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> w.report() == indist_fast.evaluate([0, 1, 1, 0, 1], [0.4, 0.35, 0.8, 0.2, 0.9],
        ...                                    levels=(0.5,))
        True
        """
        exclude_self = check_flag(exclude_self, "exclude_self")
        if self.n_rows == 0:
            raise ValueError("the window holds no rows: add batches with update() first.")
        assert self._ring is not None
        held = self._ring.rows()
        # evaluate itself on the held rows: past a few hundred thousand rows it sums on
        # both cores in pieces, and a table's sweep would round the last digit of the
        # average precision otherwise.
        return evaluate(held.positive.view(np.uint8), held.scores,
                        sample_weight=held.weights, levels=self.levels,
                        exclude_self=exclude_self)

    # --- merge and pickle ---------------------------------------------------------------

    def merge(self, other: "Window") -> "Window":
        """Add the rows of another window over time (another stream on the same clock).

        Rows of both are taken in time order (this window's first at equal times), then
        the rows older than the later latest time minus ``duration`` leave. Count
        windows are refused: the last ``size`` rows of two streams have no order.

        Parameters
        ----------
        other : Window
            A window of the same ``duration`` (and no ``size``), levels, label coding and
            weighting; it is left unchanged.

        Returns
        -------
        Window
            This window, for chaining.

        Examples
        --------
        >>> from indist_fast import Window
        >>> a, b = Window(duration=10), Window(duration=10)
        >>> a.update([0, 1], [0.2, 0.8], t=[0, 5])
        >>> b.update([1, 0], [0.3, 0.6], t=[12, 13])
        >>> a.merge(b).n_rows, b.n_rows        # t=0 leaves at t=13
        (3, 2)
        """
        if not isinstance(other, Window):
            raise TypeError(f"other must be a Window, got {type(other).__name__}.")
        if other is self:
            raise ValueError("other is this window: merging it into itself would count "
                             "every row twice.")
        if self.size is not None or other.size is not None:
            raise ValueError("merge needs windows of duration= alone: the last size rows "
                             "of two streams have no common order.")
        if self.duration != other.duration:
            raise ValueError(f"other must have the same duration: {other.duration!r} "
                             f"seconds against {self.duration!r}.")
        if self.levels != other.levels:
            raise ValueError(f"other must have the same levels: {other.levels!r} against "
                             f"{self.levels!r}.")
        if other._ring is None:
            return self
        if self._ring is None:
            self.__setstate__(other.__getstate__())
            return self
        if self.weighted != other.weighted:
            raise ValueError("other must be weighted like this window (sample_weight given "
                             "with both or neither).")
        if self._time_kind != other._time_kind:
            raise TypeError(f"other's times must be {self._time_kind} like this window's, "
                            f"not {other._time_kind}.")
        coding = combine_codings(self.coding, other.coding)
        mine, theirs = self._ring.rows(), other._ring.rows()
        assert mine.times is not None and theirs.times is not None
        times = np.concatenate([mine.times, theirs.times])
        order = np.argsort(times, kind="stable")
        joined = mine.joined(theirs)
        last_t = max(self._last_t, other._last_t)
        start = int(np.searchsorted(times[order], last_t - (self.duration or 0.0), "left"))
        with self._lock:
            self.coding = coding
            self._last_t = last_t
            self._ring = RowRing(bool(self.weighted), True, None)
            self._ring.append(*joined.map(lambda column: column[order[start:]]))
            self._rebuild_from_rows()
        return self

    def __getstate__(self) -> dict[str, Any]:
        return {"size": self.size, "duration": self.duration, "levels": self.levels,
                "pos_label": self.pos_label, "coding": self.coding,
                "weighted": self.weighted, "time_kind": self._time_kind,
                "last_t": self._last_t,
                "rows": None if self._ring is None else tuple(self._ring.rows())}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.size, self.duration = state["size"], state["duration"]
        self.levels, self.pos_label = state["levels"], state["pos_label"]
        self.coding, self.weighted = state["coding"], state["weighted"]
        self._time_kind, self._last_t = state["time_kind"], state["last_t"]
        self._lock = threading.Lock()
        self._base_columns = _Columns(_BASE_COLUMNS)
        self._delta_columns = _Columns(_DELTA_COLUMNS)
        rows = state["rows"]
        self._ring = None
        if rows is not None:
            self._ring = RowRing(rows[2] is not None, rows[3] is not None, self.size)
            self._ring.append(*rows)
        self._rebuild_from_rows()

    def __repr__(self) -> str:
        span = " and ".join(([f"size={self.size}"] if self.size is not None else [])
                            + ([f"duration={self.duration:g}s"]
                               if self.duration is not None else []))
        return f"Window({span}: {self.n_rows} rows)"


# The kernels' output columns (dtype, entries beyond the run's length): a base's
# scores, weights, row counts and cumulative weights; a delta run's first four.
_BASE_COLUMNS = ((np.float64, 0), (np.float64, 0), (np.float64, 0), (np.int64, 0),
                 (np.float64, 1), (np.float64, 1))
_DELTA_COLUMNS = _BASE_COLUMNS[:4]


class _Columns:
    """Two sets of output columns used in turn: a kernel writes one while the run it
    reads lives in the other. Reused, since fresh arrays of a million entries cost a
    page fault per page at every rebuild (a third of its time)."""

    def __init__(self, layout: tuple[tuple[Any, int], ...]) -> None:
        self.layout = layout
        self.sets: list[list[np.ndarray] | None] = [None, None]
        self.turn = 0

    def spare(self, need: int) -> list[np.ndarray]:
        """The set not holding the current run, with room for ``need`` entries (grown
        by a quarter beyond it; shrunk when four times too large)."""
        self.turn ^= 1
        columns = self.sets[self.turn]
        if columns is None or len(columns[0]) < need or len(columns[0]) > 4 * need + 4096:
            size = need + need // 4 + 1024
            columns = [np.empty(size + extra, dtype) for dtype, extra in self.layout]
            self.sets[self.turn] = columns
        return columns

    @property
    def nbytes(self) -> int:
        return sum(c.nbytes for cols in self.sets if cols is not None for c in cols)


def _joined(parts: list[RingRows]) -> RingRows:
    """Rows of several chunks, one after the other (scores, classes, weights)."""
    weights = [p.weights for p in parts]
    return RingRows(np.concatenate([p.scores for p in parts]),
                    np.concatenate([p.positive for p in parts]),
                    None if any(w is None for w in weights)
                    else np.concatenate([w for w in weights if w is not None]), None)


def _empty_base() -> WindowBase:
    zero = np.zeros(1)
    return WindowBase(0.0, _EMPTY_F, _EMPTY_F, _EMPTY_F, _EMPTY_I, zero, zero)


def _check_duration(duration: Any) -> float:
    if isinstance(duration, _dt.timedelta):
        duration = duration.total_seconds()
    elif isinstance(duration, np.timedelta64):
        duration = duration / np.timedelta64(1, "s")
    return check_real(duration, "duration", low=0.0, low_open=True,
                      kind="be a positive number of seconds or a timedelta")


def _seconds(t: Any) -> tuple[np.ndarray, str]:
    """Times as float64 seconds, and their kind ("seconds" or "datetimes")."""
    # Time-zone-aware times become UTC first (NumPy's datetimes have no zone, and
    # warn when handed one).
    if isinstance(t, _dt.datetime) and t.tzinfo is not None:
        t = t.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    elif getattr(getattr(t, "dtype", None), "tz", None) is not None:
        t = t.dt.tz_convert(None) if hasattr(t, "dt") else t.tz_convert(None)
    elif getattr(t, "tzinfo", None) is not None and hasattr(t, "tz_convert"):
        t = t.tz_convert(None)                      # a pandas Timestamp
    if isinstance(t, (_dt.datetime, np.datetime64)) or (
            hasattr(t, "dtype") and getattr(t.dtype, "kind", "") == "M"):
        arr = np.asarray(t, dtype="datetime64[ns]")
        kind = "datetimes"
    else:
        arr = np.asarray(t)
        if arr.dtype == object and arr.size and isinstance(arr.flat[0], _dt.datetime):
            arr = arr.astype("datetime64[ns]")
        if arr.dtype.kind == "M":
            arr = arr.astype("datetime64[ns]")
            kind = "datetimes"
        elif arr.dtype.kind in "iuf":
            kind = "seconds"
        else:
            raise TypeError(f"t must be numbers (seconds) or datetimes, got "
                            f"{arr.dtype} values.")
    if arr.ndim > 1:
        raise ValueError(f"t must be one time or a 1-d array of times, got shape "
                         f"{arr.shape}.")
    if kind == "datetimes":
        if np.isnat(arr).any():
            raise ValueError("t contains NaT (a missing time).")
        return arr.astype(np.int64) / 1e9, kind
    seconds = arr.astype(np.float64)
    if not np.isfinite(seconds).all():
        raise ValueError("t must be finite (NaN and inf are no times).")
    return seconds, kind

