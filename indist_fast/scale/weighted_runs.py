"""Weighted rows beyond ``memory_limit``: each chunk's score table is parked on disk (in
one unnamed temporary file, ``Spill``), and the whole table is then swept by score
range (``ranges``): every range is merged from each chunk's slice of it, so memory
holds one range, never the table of every distinct score (24 bytes each: as many as
the rows for continuous scores).

Ranges are cut from a sample of each parked table (every ``step``-th score, kept in
memory as it is parked): a range holds at most ``range_entries`` parked entries. The
first pass merges each range, takes its totals and parks the merged range; the
second reads the merged ranges back, highest first, for their shares of AUC, AP and
``B`` and for ``B``'s crossings (``ranges.range_shares``, ``range_crossings``).
"""

from __future__ import annotations

import numpy as np

from .._core.records import SweepResult
from .._core.validation import LabelCoding, check_two_classes, combine_codings
from ..table.score_table import ScoreTable
from .ranges import (RangeTotals, combine_ranges, range_crossings, range_shares,
                     range_totals)
from .run_files import Spill

__all__ = ["WeightedRuns"]

# Bytes per parked entry while a range is merged: the slices read back, the pairwise
# merges' outputs and the merged range, with room to spare.
_MERGE_BYTES = 24 * 5


class WeightedRuns:
    """Score tables parked on disk, then swept by range within ``budget`` bytes.

    Parameters
    ----------
    folder : str
        The folder of the unnamed temporary file.
    budget : int
        Bytes a range may take while it is merged and swept.
    """

    def __init__(self, folder: str, budget: int) -> None:
        self.spill = Spill(folder)
        self.range_entries = max(1 << 12, budget // _MERGE_BYTES)
        # a sample point every `step` entries: a range then overshoots its size by at
        # most a step per parked table (64 tables before it doubles)
        self.step = max(1, self.range_entries // 128)
        self.lengths: list[int] = []
        self.samples: list[np.ndarray] = []
        self.n_rows = 0
        self.coding: LabelCoding | None = None

    def __enter__(self) -> "WeightedRuns":
        return self

    def __exit__(self, *exc: object) -> None:
        self.spill.__exit__(*exc)

    def add(self, table: ScoreTable) -> None:
        """Park a chunk's table (strictly descending scores, float64 weights)."""
        self.coding = combine_codings(self.coding, table.coding)
        self.n_rows += table.n_rows
        if not len(table):
            return
        self.spill.put(len(self.lengths), [table.scores, np.asarray(table.pos, np.float64),
                                           np.asarray(table.neg, np.float64)])
        self.lengths.append(len(table))
        self.samples.append(np.array(table.scores[::self.step]))

    def sweep(self, levels: np.ndarray, exclude_self: bool) -> SweepResult:
        """The sweep of every parked row, as one sweep of their merged table."""
        splitters = self._splitters()
        bounds = [self._bounds(j, splitters) for j in range(len(self.lengths))]
        merged = len(self.lengths)                  # the merged ranges' bucket numbers
        totals: list[RangeTotals] = []
        for r in range(len(splitters) + 1):
            table = ScoreTable.concat(self._slice(j, b[r], b[r + 1])
                                      for j, b in enumerate(bounds))
            totals.append(range_totals(table))
            self.spill.put(merged + r, [table.scores, table.pos, table.neg])
            del table
        wp = float(np.cumsum([t.weight_pos for t in totals])[-1])
        wn = float(np.cumsum([t.weight_neg for t in totals])[-1])
        check_two_classes(wp, wn)
        tp = fp = g = 0.0
        shares, crossings = [], []
        for r, t in enumerate(totals):
            scores, pos, neg = _present(self.spill.read(self.spill.buckets.pop(merged + r)[0]))
            table = ScoreTable._trusted(scores, pos, neg, 0, self.coding)
            shares.append(range_shares(table, wp, wn, tp, fp, exclude_self))
            crossings.append(range_crossings(table, wp, wn, tp, fp, g, levels,
                                             exclude_self))
            g += shares[-1][1]                  # (as ranges.b_offsets sums them)
            tp, fp = tp + t.weight_pos, fp + t.weight_neg
            del table, scores, pos, neg
        return combine_ranges(totals, shares, crossings, len(levels))

    def _splitters(self) -> np.ndarray:
        """Descending scores that cut the parked tables into ranges of at most about
        ``range_entries`` entries."""
        if not self.samples:
            return np.empty(0)
        sample = -np.sort(-np.concatenate(self.samples))
        per = max(1, (self.range_entries // 2) // self.step)
        return np.unique(sample[per::per])[::-1].copy()

    def _bounds(self, j: int, splitters: np.ndarray) -> list[int]:
        """Where each range starts in parked table ``j`` (and its length at the end):
        the entries above a splitter, found in the window its sample brackets."""
        sample, n = self.samples[j], self.lengths[j]
        out = [0]
        for cut in splitters:
            # samples 0..k-1 (entries 0, step, ...) are >= cut: the range ends after
            # entry (k-1) step and at entry k step at the latest
            k = int(np.searchsorted(-sample, -cut, side="right"))
            lo, hi = max(0, (k - 1) * self.step), min(n, k * self.step)
            window = self._read(j, 0, lo, hi)
            out.append(lo + int(np.searchsorted(-window, -cut, side="right")))
        out.append(n)
        return out

    def _read(self, j: int, column: int, start: int, stop: int) -> np.ndarray:
        spec = self.spill.buckets[j][0][column]
        assert spec is not None
        offset, dtype, _ = spec
        return _present(self.spill.read([(offset + start * dtype.itemsize, dtype,
                                          stop - start)]))[0]

    def _slice(self, j: int, start: int, stop: int) -> ScoreTable:
        scores, pos, neg = (self._read(j, c, start, stop) for c in range(3))
        return ScoreTable._trusted(scores, pos, neg, 0, self.coding)


def _present(arrays: list[np.ndarray | None]) -> list[np.ndarray]:
    """The arrays ``Spill.read`` gives back for columns that were all written."""
    assert all(a is not None for a in arrays)
    return [a for a in arrays if a is not None]
