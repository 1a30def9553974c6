"""Exact streaming evaluation: an accumulator of score tables.

Every chunk becomes a ``ScoreTable`` (one sort of the chunk) and tables merge
exactly, so any chunking in any order gives the numbers of one in-memory
``evaluate``. Tables are kept like a binary counter (level ``i`` summarises about
``2**i`` chunks), so ``k`` updates cost O(total log k) merging, not O(total k).

The label coding of the first chunk (``{0, 1}``, ``{-1, 1}``, or ``pos_label`` and
the other label seen) holds for every later chunk and merged accumulator: a chunk
coded otherwise raises ValueError at its ``update`` and leaves the accumulator as it
was.
"""

from __future__ import annotations

import threading
from typing import Any, Iterable

from .._core.validation import (LabelCoding, check_flag, check_levels, check_pos_label,
                               combine_codings, labels_as_coded)
from ..results.report import Report
from ..table.score_table import DEFAULT_LEVELS, ScoreTable

__all__ = ["Accumulator"]


class Accumulator:
    """Collect labelled scores chunk by chunk; read the exact report at any time.

    Parameters
    ----------
    pos_label : scalar, default=None
        The positive label, as in ``indist_fast.evaluate`` (needed for text labels).

    Attributes
    ----------
    coding : LabelCoding or None
        The labels fixed by the chunks so far (None before the first).

    Examples
    --------
    >>> from indist_fast import Accumulator
    >>> acc = Accumulator()
    >>> acc.update([0, 1, 1], [0.1, 0.9, 0.4])
    >>> acc.update([0, 1], [0.5, 0.2])
    >>> round(acc.result(levels=(0.5,)).auc, 4)
    0.6667
    """

    def __init__(self, *, pos_label: Any = None) -> None:
        # refused now, not at the first update (perhaps far from this line)
        self.pos_label = check_pos_label(pos_label)
        self.coding: LabelCoding | None = None
        self._levels: list[ScoreTable | None] = []
        self._lock = threading.Lock()

    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None) -> None:
        """Add a chunk of rows (validated like ``evaluate``'s input); an empty chunk,
        which streaming sources often send, adds nothing.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary labels: bool, {0, 1}, {-1, 1}, or any two values with ``pos_label``.
        y_score : array-like of shape (n_samples,)
            Real scores, higher meaning more likely positive; ±inf allowed, NaN not.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative finite frequency weights: weight 3 acts as three copies of the row.

        Examples
        --------
        >>> from indist_fast import Accumulator
        >>> acc = Accumulator()
        >>> acc.update([0, 1, 1], [0.1, 0.9, 0.4], sample_weight=[1, 2, 1])
        >>> acc.update([], [])
        >>> acc.n_rows
        3
        """
        if _empty(y_true) and _empty(y_score) and (sample_weight is None
                                                   or _empty(sample_weight)):
            return
        # A third label is named as in memory: by the coding earlier chunks set.
        with labels_as_coded(y_true, self.coding):
            self.add_table(ScoreTable.from_arrays(y_true, y_score, sample_weight,
                                                  self.pos_label))

    def add_table(self, table: ScoreTable) -> None:
        """Add the table of a chunk summarised elsewhere (another process, a file).

        Raises ValueError when the table's label coding disagrees with the chunks
        added before (checked here, not later at a merge, so the accumulator is
        left unchanged).

        Parameters
        ----------
        table : ScoreTable
            The chunk's table, e.g. from ``ScoreTable.from_arrays``.

        Examples
        --------
        >>> from indist_fast import Accumulator, ScoreTable
        >>> acc = Accumulator()
        >>> acc.add_table(ScoreTable.from_arrays([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3]))
        >>> acc.result(levels=(0.5,)).auc
        1.0
        """
        if not isinstance(table, ScoreTable):
            raise TypeError(f"table must be a ScoreTable, got {type(table).__name__}.")
        with self._lock:
            self.coding = combine_codings(self.coding, table.coding)
            carry: ScoreTable = table
            for i, held in enumerate(self._levels):
                if held is None:
                    self._levels[i] = carry
                    return
                carry = held.merge(carry)
                self._levels[i] = None
            self._levels.append(carry)

    def merge(self, other: "Accumulator") -> "Accumulator":
        """Add everything ``other`` has collected (``other`` is left unchanged).

        Parameters
        ----------
        other : Accumulator
            Another accumulator (with the same label coding), not this one.

        Returns
        -------
        Accumulator
            This accumulator, for chaining.

        Examples
        --------
        >>> from indist_fast import Accumulator
        >>> a, b = Accumulator(), Accumulator()
        >>> a.update([0, 1], [0.1, 0.9])
        >>> b.update([1, 0], [0.4, 0.5])
        >>> a.merge(b).n_rows, b.n_rows
        (4, 2)
        """
        if not isinstance(other, Accumulator):
            raise TypeError(f"other must be an Accumulator, got {type(other).__name__}.")
        if other is self:
            raise ValueError("other is this accumulator: merging it into itself would count "
                             "every row twice.")
        self.add_table(other.table)       # the table carries other's label coding
        return self

    @property
    def table(self) -> ScoreTable:
        """The score table of every row so far."""
        with self._lock:
            held = [t for t in self._levels if t is not None]
            table = ScoreTable.concat(held)
            self._levels = [table] if held else []
            return table

    @property
    def n_rows(self) -> int:
        with self._lock:
            return sum(t.n_rows for t in self._levels if t is not None)

    def result(self, levels: Iterable[float] = DEFAULT_LEVELS, *,
               exclude_self: bool = True) -> Report:
        """The report of ``indist_fast.evaluate`` on every row so far.

        Parameters
        ----------
        levels : sequence of float, default=(0.4, 0.5, 0.6)
            Levels of ``B`` whose operating points are reported in ``Report.at``.
        exclude_self : bool, default=True
            Drop the pairs of a positive copy with itself from ``B``.

        Returns
        -------
        Report
            The same report as ``evaluate`` on all the rows at once.

        Examples
        --------
        >>> import indist_fast
        >>> acc = indist_fast.Accumulator()
        >>> acc.update([0, 0, 1], [0.1, 0.4, 0.35])
        >>> acc.update([1, 0, 1], [0.8, 0.2, 0.9])
        >>> acc.result() == indist_fast.evaluate([0, 0, 1, 1, 0, 1],
        ...                                      [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        True
        """
        # before merging the held tables, and whether or not there are rows
        levels = check_levels(levels)
        exclude_self = check_flag(exclude_self, "exclude_self")
        if self.n_rows == 0:
            raise ValueError("the accumulator holds no rows yet: add chunks with update() "
                             "or add_table() first.")
        return self.table.evaluate(levels, exclude_self=exclude_self)

    def __getstate__(self) -> dict[str, Any]:
        return {"pos_label": self.pos_label, "table": self.table, "coding": self.coding}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.pos_label = state["pos_label"]
        self.coding = state.get("coding", state["table"].coding)
        self._lock = threading.Lock()
        self._levels = [state["table"]] if state["table"].n_rows else []

    def __repr__(self) -> str:
        return f"Accumulator({self.n_rows} rows)"


def _empty(values: Any) -> bool:
    """A sized, zero-length chunk column (anything else goes through the row checks)."""
    try:
        return len(values) == 0
    except TypeError:
        return False
