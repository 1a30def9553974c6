"""The rows of a sliding window in arrival order: a ring of columns.

A window forgets its oldest rows first, however the batches that brought them were
cut, so it keeps the rows themselves (score, class, and the weight and time when the
window has them), not per-batch summaries: the oldest ``k`` rows leave as one slice.
The columns grow by doubling (a count window stops at its size) and shrink by half
when a quarter full, so the memory per row held stays within twice the columns' width.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import numpy as np

__all__ = ["RowRing", "RingRows"]

_MIN_CAPACITY = 1024


class RingRows(NamedTuple):
    """Columns of consecutive rows (the weights and times None when not kept)."""

    scores: np.ndarray
    positive: np.ndarray
    weights: np.ndarray | None
    times: np.ndarray | None

    def map(self, fn: Callable[[np.ndarray], np.ndarray]) -> "RingRows":
        """``fn`` applied to every column kept."""
        return RingRows(fn(self.scores), fn(self.positive),
                        None if self.weights is None else fn(self.weights),
                        None if self.times is None else fn(self.times))

    def joined(self, other: "RingRows") -> "RingRows":
        """These rows, then ``other``'s (a column kept by only one of them is dropped)."""
        def both(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
            return None if a is None or b is None else np.concatenate([a, b])
        return RingRows(np.concatenate([self.scores, other.scores]),
                        np.concatenate([self.positive, other.positive]),
                        both(self.weights, other.weights), both(self.times, other.times))


class RowRing:
    """Rows in arrival order; rows join at the back and leave from the front.

    Parameters
    ----------
    weighted, timed : bool
        Whether rows carry a weight and a time.
    limit : int or None
        The most rows ever held (a count window's size), which caps the columns.

    Examples
    --------
    >>> import numpy as np
    >>> from indist_fast.scale.row_ring import RowRing
    >>> ring = RowRing(weighted=False, timed=True)
    >>> ring.append(np.array([0.2, 0.7]), np.array([False, True]), None, np.array([1., 2.]))
    >>> ring.count_before(1.5), len(ring), ring.pop_front(1).scores.tolist(), len(ring)
    (1, 2, [0.2], 1)
    """

    def __init__(self, weighted: bool, timed: bool, limit: int | None = None) -> None:
        self.weighted, self.timed, self.limit = weighted, timed, limit
        self._head = 0
        self._n = 0
        self._cols = self._allocate(_MIN_CAPACITY if limit is None
                                    else min(_MIN_CAPACITY, limit))

    def _allocate(self, capacity: int) -> list[Any]:
        return [np.empty(capacity, np.float64), np.empty(capacity, np.bool_),
                np.empty(capacity, np.float64) if self.weighted else None,
                np.empty(capacity, np.float64) if self.timed else None]

    @property
    def capacity(self) -> int:
        return len(self._cols[0])

    @property
    def nbytes(self) -> int:
        return sum(c.nbytes for c in self._cols if c is not None)

    def __len__(self) -> int:
        return self._n

    def _spans(self, start: int, k: int) -> list[slice]:
        """The (at most two) slices of the columns holding rows ``start .. start + k``
        counted from the front."""
        cap = self.capacity
        a = (self._head + start) % cap
        if a + k <= cap:
            return [slice(a, a + k)]
        return [slice(a, cap), slice(0, a + k - cap)]

    def _take(self, start: int, k: int) -> RingRows:
        spans = self._spans(start, k)
        if len(spans) == 1:
            return self._columns().map(lambda col: col[spans[0]].copy())
        return self._columns().map(lambda col: np.concatenate([col[sp] for sp in spans]))

    def _columns(self) -> RingRows:
        return RingRows(*self._cols)

    def _resize(self, capacity: int) -> None:
        rows = self._take(0, self._n)
        self._cols = self._allocate(capacity)
        for col, values in zip(self._cols, rows):
            if col is not None:
                col[:self._n] = values
        self._head = 0

    def append(self, scores: np.ndarray, positive: np.ndarray, weights: np.ndarray | None,
               times: np.ndarray | None) -> None:
        """Add rows at the back (the caller keeps a count window within its limit)."""
        k = len(scores)
        if self._n + k > self.capacity:
            wanted = max(2 * self.capacity, self._n + k)
            self._resize(wanted if self.limit is None else min(wanted, self.limit))
        start = self._n
        self._n += k
        done = 0
        for sp in self._spans(start, k):
            width = sp.stop - sp.start
            for col, values in zip(self._cols, (scores, positive, weights, times)):
                if col is not None and values is not None:
                    col[sp] = values[done:done + width]
            done += width

    def pop_front(self, k: int) -> RingRows:
        """Remove the ``k`` oldest rows and return them."""
        rows = self._take(0, k)
        self._head = (self._head + k) % self.capacity
        self._n -= k
        if self._n < self.capacity // 4 and self.capacity > _MIN_CAPACITY:
            self._resize(max(_MIN_CAPACITY, self.capacity // 2))
        return rows

    def rows(self) -> RingRows:
        """Every row held, oldest first (copies)."""
        return self._take(0, self._n)

    def count_before(self, cutoff: float) -> int:
        """How many of the oldest rows have a time below ``cutoff`` (times never
        decrease from front to back)."""
        times = self._cols[3]
        count = 0
        for sp in self._spans(0, self._n):
            below = int(np.searchsorted(times[sp], cutoff, "left"))
            count += below
            if below < sp.stop - sp.start:
                break
        return count
