"""A file's rows in memory, for the commands that need them whole (compare, threshold,
losses, resolving power, the bootstrap of one report, ``--plot``, ``--html``).

The library's reader (``open_source``) reads every used column in one pass, so
``--drop-nulls`` drops a row from all of them at once and the models keep the same
rows; ``evaluate`` without these needs reads out of core through ``evaluate_file``.
"""

from __future__ import annotations

import argparse
import contextlib
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from .._core.progress import progress_bar
from .._core.validation import prepare_rows, raise_nan_score
from ..io import describe_path, naming_columns, open_source, typed_pos_label
from ..metrics.segments import segment_codes
from .arguments import progress

# Rows per chunk read (the readers bound their own memory per chunk).
_CHUNK_ROWS = 1 << 22


@dataclass(frozen=True)
class FileRows:
    """The used columns of a file, and which rows are positive.

    ``scores`` maps each score column to its values, in the order given; ``by`` each
    segment column to its values; ``positive`` is the label read with
    ``pos_label`` (the typed ``--pos-label``), as the evaluation reads it.
    """

    label: np.ndarray
    scores: dict[str, np.ndarray]
    weight: np.ndarray | None
    by: dict[str, np.ndarray]
    pos_label: Any
    positive: np.ndarray

    @property
    def n_rows(self) -> int:
        return len(self.label)

    def take(self, rows: np.ndarray) -> "FileRows":
        """The same columns at ``rows`` (indices into these rows)."""
        return FileRows(self.label[rows], {k: v[rows] for k, v in self.scores.items()},
                        None if self.weight is None else self.weight[rows],
                        {k: v[rows] for k, v in self.by.items()}, self.pos_label,
                        self.positive[rows])

    def class_weights(self) -> tuple[float, float]:
        """Weight of the positives and of the negatives (counts without weights)."""
        w = np.ones(self.n_rows) if self.weight is None else self.weight
        pos = float(np.sum(w[self.positive], dtype=np.float64))
        return pos, float(np.sum(w, dtype=np.float64)) - pos

    def segments(self) -> list[tuple[dict[str, Any], "FileRows"]]:
        """Each segment of the ``by`` columns (sorted by their values, as the
        tables of ``evaluate_many`` are), with its rows; one segment of every row
        without ``by``."""
        if not self.by:
            return [({}, self)]
        names = list(self.by)
        codes, n_segments, values = segment_codes([self.by[k] for k in names], names,
                                                  self.n_rows)
        order = np.argsort(codes, kind="stable")      # row order kept within a segment
        ends = np.cumsum(np.bincount(codes, minlength=n_segments))
        out = []
        for k in range(n_segments):
            start = ends[k - 1] if k else 0
            if ends[k] > start:                       # (codes no row holds are skipped)
                out.append(({name: values[name][k:k + 1].tolist()[0] for name in names},
                             self.take(order[start:ends[k]])))
        return out


def score_names(args: argparse.Namespace) -> list[str]:
    return list(args.score) if isinstance(args.score, list) else [args.score]


@contextlib.contextmanager
def read_rows(args: argparse.Namespace, scores: Sequence[str] | None = None,
              by: Sequence[str] = ()) -> Iterator[FileRows]:
    """The file's label, ``scores`` (default: every ``--score``), weight and ``by``
    columns in memory, read once; errors raised in the block about the in-memory
    arguments are named by their column and file, as ``evaluate_file``'s are."""
    scores = score_names(args) if scores is None else list(scores)
    weight = getattr(args, "weight", None)
    cols: dict[str, str | None] = {
        "label": args.label, "score": scores[0], "weight": weight,
        **{f"score#{k}": s for k, s in enumerate(scores[1:], 1)},
        **{f"by#{k}": b for k, b in enumerate(by)}}
    src = open_source(args.file, cols, drop_nulls=args.drop_nulls)
    if src.whole is not None:
        columns = list(src.whole())
    else:
        parts = []
        with progress_bar(progress(args), src.n_rows, "reading", unit="rows",
                          unit_scale=True) as bar:
            for chunk in src.chunks(_CHUNK_ROWS):
                parts.append(chunk)
                bar.update(len(chunk[1]))
        columns = [None if c[0] is None else np.concatenate(c) for c in zip(*parts)]
    if not columns or columns[1] is None or len(columns[1]) == 0:
        raise ValueError(f"path: {describe_path(args.file)} holds no rows"
                         + (" once the rows with nulls are dropped (--drop-nulls)."
                            if args.drop_nulls else "."))
    label, weights = columns[0], columns[2]
    score_columns = dict(zip(scores, [columns[1], *columns[3:2 + len(scores)]]))
    for name, s in score_columns.items():
        if s.dtype.kind == "f":    # NaN named by its column and row before any segment
            nan = np.flatnonzero(np.isnan(s))
            with naming_columns(args.file, {"score": name}):
                raise_nan_score(int(nan[0]) if len(nan) else -1)
    with naming_columns(args.file, cols):
        pos_label = typed_pos_label(args.pos_label, label)
        # the labels and weights checked once, as the evaluation reads them
        checked = prepare_rows(label, columns[1], weights, pos_label)
        rows = FileRows(label, score_columns, weights, dict(zip(by, columns[2 + len(scores):])),
                        pos_label, checked.y == checked.pos_value)
        del checked
        yield rows
