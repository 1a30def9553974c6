"""``evaluate_file`` with several models or segments (a ``ReportTable``): the columns
evaluated in memory by ``evaluate_many`` when they fit ``memory_limit``; segments made
of partition keys read and swept a set of files at a time; else rows numbered by
segment as they stream, parked on disk in buckets that each fit the limit, and every
bucket swept in memory (a segment larger than the limit alone, model by model, as
one score is). The table is put in sorted segment order at the end."""

from __future__ import annotations

import contextlib
import itertools
import tempfile
from typing import Any, ContextManager, Iterator

import numpy as np

from .._core.engine import engine
from .._core.records import SegmentSweeps, SweepResult
from .._core.validation import (Rows, combine_codings, labels_as_coded, prepare_rows,
                                raise_nan_score, raise_row_errors, with_scores)
from ..errors import warn_one_class
from ..io import Source, describe_path, naming_columns, typed_pos_label
from ..io.columns import role_of
from ..metrics.segments import evaluate_many_checked, factorize_column
from ..results.report_table import BootstrapSettings, ReportTable
from ..table.score_table import ScoreTable, with_main_level
from .file_stream import (CountedChunks, Progress, drain, no_rows, read_while_it_fits,
                          rows_in_files)
from .run_files import RunFile, Spill
from .streaming import Accumulator
from .weighted_runs import WeightedRuns

__all__ = ["TablePlan"]

# Working bytes per row of a bucket evaluated in memory, beyond its columns: the codes
# renumbered (8), ``summarize_segments``' placement of one model's rows by segment and
# class (scores and weights copied, an index) and NumPy's temporaries.
_TABLE_BYTES_PER_ROW = 40
# Working bytes per row of a chunk on its way to the buckets, beyond its scores: the
# Arrow batch and its NumPy columns, the label check, segment codes and their
# factorisation (a sort of int64 keys, its inverse), the order by bucket and the
# copies written (measured: about 100 at two models).
_PARK_BYTES_PER_ROW = 72


def _concat_sweeps(parts: list[SegmentSweeps]) -> SegmentSweeps:
    """The segments of several ``SegmentSweeps`` one after another."""
    return SegmentSweeps(*(np.concatenate(fields) for fields in zip(*parts)))


class TablePlan:
    """``evaluate_file`` with several models or segments: in memory when the columns
    fit ``limit``, else rows parked on disk by segment buckets and each bucket swept in
    memory (see ``evaluate_file``)."""

    def __init__(self, path: Any, cols: dict[str, str | None], pos_label: Any,
                 levels: tuple[float, ...], exclude_self: bool, limit: int,
                 folder: str | None, drop_nulls: bool, total: bool,
                 boot: BootstrapSettings | None) -> None:
        self.path, self.cols, self.pos_label = path, cols, pos_label
        # totals and intervals (evaluate_many's): the in-memory path alone gives them;
        # checked by evaluate_file, so not again by evaluate_many
        self.total, self.boot = total, boot
        self.needs_rows = total or boot is not None
        self.levels, self.exclude_self, self.limit = levels, exclude_self, limit
        self.folder = folder or tempfile.gettempdir()
        self.drop_nulls = drop_nulls
        self.score_keys = [k for k in cols if role_of(k) == "score"]
        self.by_keys = [k for k in cols if role_of(k) == "by"]
        self.models = [cols[k] for k in self.score_keys]
        self.by = [str(cols[k]) for k in self.by_keys]
        weighted = cols["weight"] is not None
        # bytes of a parked row: codes, class, weight, scores (float64 at most)
        self.row_bytes = 8 + 1 + 8 * weighted + 8 * len(self.models)
        # Half the limit for a bucket swept in memory, a quarter for a chunk being
        # parked; the rest is the readers' buffers and the interpreter's own.
        self.cap = max(1_000, self.limit // 2 // (self.row_bytes + _TABLE_BYTES_PER_ROW))

    # -- entry -----------------------------------------------------------------------------------
    def evaluate(self, src: Source, progress: bool | None) -> ReportTable:
        per_row = src.bytes_per_row + self.row_bytes + _TABLE_BYTES_PER_ROW
        rows_per_chunk = max(10_000, self.limit // 4 // (
            _PARK_BYTES_PER_ROW + 16 * len(self.models) + 8 * len(self.by)))
        bar = Progress(progress, src)
        try:
            if src.n_rows is None:
                budget = self.limit // 4
            else:
                budget = self.limit if src.n_rows * per_row <= self.limit else -1
            if not self.needs_rows and self._by_partitions(src, rows_per_chunk, bar):
                return self._table()
            buffered, rest = read_while_it_fits(src.chunks(rows_per_chunk), budget, bar)
            if buffered:
                self.pos_label = typed_pos_label(self.pos_label, buffered[0][0])
            if rest is None:
                return self._in_memory(buffered, src)
            if self.needs_rows:
                raise ValueError(f"total=/n_boot: they need every row in memory, and the rows "
                                 f"exceed memory_limit "
                                 f"({self.limit:,} bytes); raise memory_limit, or leave them "
                                 "out for the out-of-core table.")
            chunks = CountedChunks(itertools.chain(drain(buffered), rest), src)
            try:
                return self._out_of_core(chunks, bar)
            except (ValueError, TypeError) as exc:
                chunks.name_file_row(exc)
                raise
        finally:
            bar.close()

    # -- segments that are partitions -----------------------------------------------------------
    def _by_partitions(self, src: Source, rows_per_chunk: int, bar: Progress) -> bool:
        """Segments made only of partition keys are sets of whole files: each is read
        and swept on its own, in memory (as ``evaluate_many`` sweeps one segment), so
        memory holds one segment and no rows are parked. False (nothing done) when
        the segments are not partitions, or one of them may not fit ``limit``."""
        parts = src.parts
        if not self.by_keys or parts is None or src.chunks_of is None or any(
                k not in constants for constants, _ in parts for k in self.by_keys):
            return False
        groups: dict[tuple[Any, ...], list[int]] = {}
        for i, (constants, _) in enumerate(parts):
            key = tuple(constants[k].tolist()[0] for k in self.by_keys)
            groups.setdefault(key, []).append(i)
        per_row = src.bytes_per_row + self.row_bytes + _TABLE_BYTES_PER_ROW
        for files in groups.values():
            sizes = [parts[i][1] for i in files]
            if any(n is None for n in sizes) or sum(n or 0 for n in sizes) * per_row > self.limit:
                return False
        eng = engine()
        self._start()
        coding = None
        for key, files in groups.items():
            buffered = []
            for chunk in src.chunks_of(files, rows_per_chunk):
                buffered.append(chunk)
                bar.update(len(chunk[1]))
            if buffered:
                self.pos_label = typed_pos_label(self.pos_label, buffered[0][0])
            if sum(len(chunk[1]) for chunk in buffered) == 0:
                continue                      # every row dropped: no segment
            columns = {k: None if c[0] is None else np.concatenate(c)
                       for k, c in zip(self.cols, zip(*buffered))}
            del buffered
            # The rows are checked once, by the engine's sweep of each model, which
            # names the row (in its file) and, under the model's column, the argument.
            with rows_in_files(src):
                with labels_as_coded(columns["label"], coding):
                    rows = prepare_rows(columns["label"], columns["score"],
                                        columns["weight"], self.pos_label)
                    coding = combine_codings(coding, rows.coding)
                    codes = np.zeros(rows.n_rows, dtype=np.int64)
                    models = [rows] + [with_scores(rows, columns[k])
                                       for k in self.score_keys[1:]]
                    sweeps = []
                    for k, r in zip(self.score_keys, models):
                        with self._naming_model(str(self.cols[k])):
                            sweeps.append(eng.summarize_segments(
                                r.y, r.s, r.w, codes, 1, r.pos_value, r.neg_value,
                                self.levels_all, self.exclude_self))
            code = self.index[key] = len(self.index)
            for j, k in enumerate(self.by_keys):
                self.values[j].append(parts[files[0]][0][k])
            self.done_codes.append(np.array([code]))
            for model, sw in enumerate(sweeps):
                self.done[model].append(sw)
            del columns, rows, codes, models, sweeps
        if not self.index:
            raise no_rows(self.path, self.drop_nulls)
        return True

    def _start(self) -> None:
        """Empty segment numbering and results."""
        self.index: dict[Any, int] = {}
        self.values: list[list[np.ndarray]] = [[] for _ in self.by_keys]
        self.done_codes: list[np.ndarray] = []
        self.done: list[list[SegmentSweeps]] = [[] for _ in self.models]
        self.levels_all = with_main_level(self.levels)

    # -- in memory ------------------------------------------------------------------------------
    def _in_memory(self, buffered: list[tuple[Any, ...]], src: Source) -> ReportTable:
        if sum(len(chunk[1]) for chunk in buffered) == 0:
            raise no_rows(self.path, self.drop_nulls)
        columns = {k: None if c[0] is None else np.concatenate(c)
                   for k, c in zip(self.cols, zip(*buffered))}
        buffered.clear()
        # The rows are checked once, by the engine's sweeps, which name the row; each
        # model's errors are named under its own column.
        with rows_in_files(src), self._naming_segments():
            return evaluate_many_checked(
                columns["label"], {self.cols[k]: columns[k] for k in self.score_keys},
                columns["weight"], [columns[k] for k in self.by_keys], self.by,
                self.pos_label, self.levels, self.exclude_self, self.total, self.boot,
                naming=self._naming_model)

    def _naming_model(self, model: str) -> ContextManager[None]:
        """Errors about a model's scores (``y_score``) under its own column."""
        return naming_columns(self.path, {"score": model})

    def _check_nan(self, s: np.ndarray, key: str) -> None:
        """A NaN score named by its own model's column (the evaluation names the first
        model's), with ``evaluate``'s message."""
        if s.dtype.kind != "f":
            return
        bad = np.flatnonzero(np.isnan(s))
        if len(bad):
            with naming_columns(self.path, {"score": self.cols[key]}):
                raise_nan_score(int(bad[0]))

    @contextlib.contextmanager
    def _naming_segments(self) -> Iterator[None]:
        """Errors about a segment column (a missing value...) under ``by``, its column
        and the file, as the readers' errors are."""
        try:
            yield
        except (ValueError, TypeError) as exc:
            if exc.args and isinstance(exc.args[0], str):
                name = next((b for b in self.by if exc.args[0].startswith(f"{b} ")), None)
                if name is not None:
                    exc.args = (f"by: column {name!r} of {describe_path(self.path)}: "
                                f"{exc.args[0]}",) + exc.args[1:]
            raise

    # -- out of core ---------------------------------------------------------------------------
    def _out_of_core(self, chunks: CountedChunks, bar: Progress) -> ReportTable:
        eng = engine()
        self._start()
        self.seg_rows = np.zeros(0, dtype=np.int64)
        self.seg_pos = np.zeros(0, dtype=np.float64)          # class weights per segment
        self.seg_neg = np.zeros(0, dtype=np.float64)
        self.bucket_of = np.zeros(0, dtype=np.int64)
        self.bucket_rows = [0]
        coding = None
        with Spill(self.folder) as spill:
            for chunk in chunks:
                parts = dict(zip(self.cols, chunk))
                with labels_as_coded(parts["label"], coding):
                    rows = prepare_rows(parts["label"], parts["score"], parts["weight"],
                                        self.pos_label)
                    coding = combine_codings(coding, rows.coding)
                    positive = self._checked_classes(rows, parts)
                scores = [rows.s] + [with_scores(rows, parts[k]).s
                                     for k in self.score_keys[1:]]
                with self._naming_segments():
                    codes = self._codes(parts, rows.n_rows)
                self._count(codes, positive, rows.w)
                self._park(spill, codes, positive, rows.w, scores)
                bar.update(rows.n_rows)
                del chunk, parts, rows, positive, scores, codes
            if not self.index:
                raise no_rows(self.path, self.drop_nulls)
            for b in sorted(spill.buckets):
                self._bucket(spill, spill.buckets[b], np.flatnonzero(self.bucket_of == b),
                             eng)
        return self._table()

    def _checked_classes(self, rows: Rows, parts: dict[str, Any]) -> np.ndarray:
        """Each row's class (uint8, 1 positive), after the checks the in-memory sweep
        makes on every row: a third label, a NaN score (in any model), a bad weight."""
        # Here and not in the engine: its sweep of a bucket sees rows in bucket order,
        # so it could not name a bad row's place in the file, and a third label must be
        # refused before the rows are parked as two classes.
        positive = rows.y == rows.pos_value
        bad = np.flatnonzero(~positive & (rows.y != rows.neg_value))
        if len(bad):
            raise_row_errors(int(bad[0]), -1, -1, rows.y, rows.s, None,
                             pos_value=rows.pos_value)
        for k in self.score_keys:
            self._check_nan(np.asarray(parts[k]) if k != "score" else rows.s, k)
        if rows.w is not None:
            bad = np.flatnonzero(~(np.isfinite(rows.w) & (rows.w >= 0)))
            if len(bad):
                raise_row_errors(-1, -1, int(bad[0]), rows.y, rows.s, rows.w,
                                 pos_value=rows.pos_value)
        classes: np.ndarray = positive.view(np.uint8)
        return classes

    def _codes(self, parts: dict[str, Any], n: int) -> np.ndarray:
        """Global segment codes of a chunk's rows: numbered as segments first appear
        (their sorted order is settled at the end)."""
        if not self.by_keys:
            if not self.index:
                self.index[()] = 0
                self._new_segments(1)
            return np.zeros(n, dtype=np.int64)
        local = [factorize_column(parts[k], name, n) for k, name in zip(self.by_keys, self.by)]
        combined = np.zeros(n, dtype=np.int64)
        for codes, uniques in local:
            combined = combined * len(uniques) + codes
        present, inverse = np.unique(combined, return_inverse=True)
        picks, rest = [], present
        for codes, uniques in reversed(local):
            picks.append(rest % len(uniques))
            rest = rest // len(uniques)
        picks.reverse()
        keys = list(zip(*(u[p].tolist() for (_, u), p in zip(local, picks))))
        glob = np.empty(len(present), dtype=np.int64)
        new = []
        for i, key in enumerate(keys):
            code = self.index.get(key)
            if code is None:
                code = self.index[key] = len(self.index)
                new.append(i)
            glob[i] = code
        if new:
            for j, ((_, uniques), p) in enumerate(zip(local, picks)):
                self.values[j].append(uniques[p[new]])
            self._new_segments(len(new))
        out: np.ndarray = glob[inverse.reshape(-1)]
        return out

    def _new_segments(self, k: int) -> None:
        """Room for the ``k`` segments just numbered, placed in the open bucket (a new one once it
        holds ``cap`` rows: segments arriving in turn, as partitions do, fill buckets
        one after another; buckets that outgrow ``cap`` are split at the end)."""
        if self.bucket_rows[-1] >= self.cap:
            self.bucket_rows.append(0)
        first, need = len(self.index) - k, len(self.index)
        if need > len(self.seg_rows):          # room doubles: appends cost O(1) a segment
            more = max(need, 2 * len(self.seg_rows)) - len(self.seg_rows)
            self.seg_rows = np.concatenate((self.seg_rows, np.zeros(more, dtype=np.int64)))
            self.seg_pos = np.concatenate((self.seg_pos, np.zeros(more)))
            self.seg_neg = np.concatenate((self.seg_neg, np.zeros(more)))
            self.bucket_of = np.concatenate((self.bucket_of,
                                             np.full(more, -1, dtype=np.int64)))
        self.bucket_of[first:need] = len(self.bucket_rows) - 1

    def _count(self, codes: np.ndarray, positive: np.ndarray, w: np.ndarray | None) -> None:
        m = len(self.seg_rows)
        weights = np.ones(len(codes)) if w is None else w
        self.seg_rows += np.bincount(codes, minlength=m)
        self.seg_pos += np.bincount(codes, weights=weights * positive, minlength=m)
        self.seg_neg += np.bincount(codes, weights=weights * (1 - positive), minlength=m)
        added = np.bincount(self.bucket_of[codes], minlength=len(self.bucket_rows))
        self.bucket_rows = [r + int(a) for r, a in zip(self.bucket_rows, added)]

    def _park(self, spill: Spill, codes: np.ndarray, positive: np.ndarray,
              w: np.ndarray | None, scores: list[np.ndarray]) -> None:
        code_dtype = np.int32 if len(self.index) < 2**31 else np.int64
        buckets = self.bucket_of[codes]
        columns = [codes.astype(code_dtype), positive, w, *scores]
        if buckets.min() == buckets.max():
            spill.put(int(buckets[0]), columns)
            return
        order = np.argsort(buckets, kind="stable")
        bounds = np.searchsorted(buckets[order], np.arange(buckets.max() + 2))
        for b in range(len(bounds) - 1):
            lo, hi = bounds[b], bounds[b + 1]
            if hi > lo:
                take = order[lo:hi]
                spill.put(b, [None if c is None else c[take] for c in columns])

    def _bucket(self, spill: Spill, pieces: list[Any], segs: np.ndarray, eng: Any) -> None:
        """Sweep the segments ``segs`` parked in ``pieces``: in memory when they fit,
        else split into buckets that do (sizes are known now), a lone segment too
        large model by model out of core."""
        n = int(self.seg_rows[segs].sum())
        if n <= self.cap:
            columns = [None if c[0] is None else np.concatenate(c)
                       for c in zip(*(spill.read(p) for p in pieces))]
            codes, positive, w, scores = columns[0], columns[1], columns[2], columns[3:]
            lookup = np.zeros(len(self.index), dtype=np.int64)
            lookup[segs] = np.arange(len(segs))
            local = lookup[codes]
            del codes, columns
            self.done_codes.append(segs)
            for k, s in enumerate(scores):
                self.done[k].append(eng.summarize_segments(
                    positive, s, w, local, len(segs), 1.0, 0.0, self.levels_all,
                    self.exclude_self))
            return
        if len(segs) == 1:
            self._one_segment(spill, pieces, int(segs[0]), eng)
            return
        sub = np.zeros(len(self.index), dtype=np.int64)       # segment -> new bucket
        first = max(spill.buckets) + 1
        groups: list[list[int]] = [[]]
        filled = 0
        for seg in segs.tolist():
            if groups[-1] and filled + self.seg_rows[seg] > self.cap:
                groups.append([])
                filled = 0
            groups[-1].append(seg)
            filled += int(self.seg_rows[seg])
        for g, members in enumerate(groups):
            sub[members] = first + g
        for piece in pieces:
            columns = spill.read(piece)
            target = sub[columns[0]]
            for b in np.unique(target).tolist():
                keep = target == b
                spill.put(b, [None if c is None else c[keep] for c in columns])
        for g, members in enumerate(groups):
            self._bucket(spill, spill.buckets.pop(first + g), np.array(members), eng)

    def _one_segment(self, spill: Spill, pieces: list[Any], seg: int, eng: Any) -> None:
        """A segment larger than the memory limit: each model out of core, as one score
        is (sorted runs and one merge; weighted, score tables parked and swept by range)."""
        n = int(self.seg_rows[seg])
        two_classes = self.seg_pos[seg] > 0 and self.seg_neg[seg] > 0
        for k in range(len(self.models)):
            if not two_classes:
                # a table of the distinct scores: only its counts are reported
                acc = Accumulator(pos_label=1)
                for piece in pieces:
                    columns = spill.read(piece)
                    acc.update(columns[1], columns[3 + k], columns[2])
                result = _one_class_sweep(acc.table, self.levels_all)
            elif self.cols["weight"] is not None:
                # each piece's table parked on disk, swept by score range
                with WeightedRuns(self.folder, self.limit // 2) as tables:
                    for piece in pieces:
                        columns = spill.read(piece)
                        tables.add(ScoreTable.from_arrays(columns[1], columns[3 + k],
                                                          columns[2], 1))
                        del columns
                    result = tables.sweep(self.levels_all, self.exclude_self)
            else:
                with RunFile(self.folder, n) as runs:
                    for piece in pieces:
                        columns = spill.read(piece)
                        pos, neg = eng.sorted_classes(columns[1], columns[3 + k], 1.0, 0.0)
                        runs.add(((pos, True), (neg, False)))
                        del columns, pos, neg
                    mapped = runs.mapped()
                try:
                    result = eng.summarize_runs(mapped, self.levels_all, self.exclude_self,
                                                held_bytes=self.limit // 4)
                finally:
                    del mapped
            self.done[k].append(SegmentSweeps.from_sweep(result, n))
        self.done_codes.append(np.array([seg]))

    def _table(self) -> ReportTable:
        """The swept segments in sorted order of their values, as ``evaluate_many``."""
        m = len(self.index)
        if self.by_keys:
            values = [np.concatenate(v) for v in self.values]
            ranks = [factorize_column(v, name, m)[0] for v, name in zip(values, self.by)]
            order = np.lexsort(ranks[::-1])
        else:
            values, order = [], np.zeros(1, dtype=np.int64)
        swept = np.concatenate(self.done_codes)
        where = np.empty(m, dtype=np.int64)
        where[swept] = np.arange(len(swept))
        sweeps = [_concat_sweeps(parts).take(where[order]) for parts in self.done]
        segments = {name: v[order] for name, v in zip(self.by, values)}
        table = ReportTable._from_sweeps(self.by, segments, self.models, sweeps, self.levels,
                                        self.exclude_self)
        warn_one_class(int(np.count_nonzero(table.columns["one_class"])), len(table))
        return table


def _one_class_sweep(table: Any, levels: np.ndarray) -> SweepResult:
    """The sweep of a segment of one class: its counts; its metrics are undefined
    (the table reports them as NaN)."""
    nan = float("nan")
    return SweepResult(len(table.scores), 0, float(np.sum(table.pos)),
                       float(np.sum(table.neg)), nan, nan, nan,
                       np.full((len(levels), 5), nan))

