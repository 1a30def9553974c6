"""The compiled twin's radix paths: rows written once into buckets of their scores'
leading bits, each bucket sorted and swept in cache (``_radix`` for unweighted rows,
``_radix_weighted`` for weighted ones). ``fast`` calls them from ``RADIX_MIN_ROWS``
(``WEIGHTED_RADIX_MIN_ROWS``) rows on; ``summarize_parts`` takes the buckets of rows
that arrive in parts (Parquet row groups).
"""

from __future__ import annotations

import math
import threading
from typing import Callable, NamedTuple, Sequence

import numpy as np

from . import _radix, _radix_weighted, threads
from .page_release import OwnedRows, small_pages
from .records import (Array, Checkpoint, Costs, Part, PieceSweep, Release, SweepResult,
                      Table)
from .scratch import Loan, aligned_empty


# Rows a radix bucket is sized for: its words stay in the core's L1/L2 cache while it
# is sorted and swept.
RADIX_BUCKET_ROWS = 4096
RADIX_FANOUT_BITS = 11
# A radix bucket's words go to blocks of this many bytes (a page: a block's reads
# and writes stay on one page; each writer leaves at most one part-filled block a
# bucket, 8 MB of 2048 buckets).
RADIX_BLOCK_BYTES = 4096


def _radix_plan(sample: Array, n: int) -> tuple[Array, int, Array] | None:
    """``radix_plan`` of ``n`` rows from ``sample`` (their scores, or some of them), or
    None past 2**16 buckets (ids are 16-bit).

    Past 2**RADIX_FANOUT_BITS buckets of rows, buckets grow instead: the fill's line
    per bucket and the counts must stay in cache (1e8 rows: 0.68x np.sort with 2048 or
    4096 buckets, 0.73x with 8192, 1.01x with 36k of 4096 rows; handed-over rows, whose
    words have small pages, 1.15 s with 4096, 1.08 s with 2048).
    """
    target = max(RADIX_BUCKET_ROWS, n >> RADIX_FANOUT_BITS)
    table, base, tops = _radix.radix_plan(np.ascontiguousarray(sample), target, n)
    return None if len(tops) > 1 << 16 else (table, base, tops)


def _radix_summary(y: Array, s: Array, pos_value: float, neg_value: float, levels: Array,
                   exclude_self: bool, release: Release = None) -> SweepResult | None:
    """``summarize`` of unweighted rows by radix buckets, or None when a row is bad or
    a class is missing: the caller takes the general path.

    One sample sizes the buckets (``radix_plan``); one pass on two threads checks each
    half's rows, counts them per bucket and writes each row's word into its bucket's
    blocks (``radix_fill``); each bucket is then gathered in cache, sorted and swept.
    Bucket ranges go to the two threads; the lower range starts from the upper one's
    counted totals (``_two_pieces``). With ``release`` the rows go by groups, each
    group released behind the pass (memory-mapped rows come back from the file; rows
    handed over, ``OwnedRows``, shrink as the words grow), after a first pass that only
    checks them (``radix_check``): past the fill, rows may be gone.
    """
    groups = threads._passes(len(s), release)
    if release is not None and not _clean_rows(y, s, pos_value, neg_value, groups, release):
        return None
    with Loan() as loan:
        k = _filled(y, s, pos_value, neg_value, groups, release, loan)
        if k is None:
            return None
        return _sweep_buckets(k, len(s), levels, exclude_self)


def summarize_parts(parts: Sequence[Part], rows: Sequence[int], sample: Array,
                    levels: Array, exclude_self: bool) -> SweepResult | None:
    """``summarize`` of unweighted rows labelled 1 and 0 that come in blocks: writer
    ``j`` (one a thread) writes the ``rows[j]`` rows of ``parts[j]()`` into the radix
    buckets block by block as they come, so the rows are never held whole (a file's
    row groups, each decoded on the thread that writes it). ``sample``: scores to size
    the buckets by (``radix_plan``), of the rows' dtype.

    None when a block is None, the rows are not ``rows`` or not of ``sample``'s dtype,
    a row is bad (a NaN score, a label other than 1 and 0) or a class is missing: the
    caller then takes the long way, which finds and names the problem.
    """
    n = sum(rows)
    if len(parts) != len(rows) or not 1 <= len(parts) <= 2 or n < 1 or min(rows) < 0:
        raise ValueError("parts and rows must be one or two writers' blocks and rows")
    plan = _radix_plan(sample, n)
    if plan is None:
        return None
    table, base, tops = plan
    nb = len(tops)
    with Loan() as loan:
        words, links, state, free, block = _radix_blocks(sample.dtype, nb, list(rows), False,
                                                         loan)

        declined = threading.Event()        # a writer gave up: the other stops too

        def fill(j: int, ys: tuple[Array, Array], lines: Array, finish: bool) -> None:
            _radix.radix_fill(ys[0], ys[1], 1.0, 0.0, table, base, 0, len(ys[1]), words,
                                links, state[j], free[j], lines, block, finish)

        def write(j: int) -> Callable[[], bool]:
            def run() -> bool:
                try:
                    return written(j)
                except BaseException:       # (a read error: the other writer stops too)
                    declined.set()
                    raise
            return run

        def written(j: int) -> bool:
            """Whether writer ``j`` wrote all its rows, every one clean."""
            lines = np.empty(64 * nb + 64, dtype=np.uint8)
            held: tuple[Array, Array] | None = None
            count = 0
            for item in parts[j]():
                if (declined.is_set() or item is None or item[1].dtype != sample.dtype
                        or count + len(item[1]) > rows[j]):
                    declined.set()
                    return False
                count += len(item[1])
                if held is not None:
                    fill(j, held, lines, False)
                    if free[j][2]:          # a bad row: the long way reads them all again
                        declined.set()
                        return False
                held = item
            if held is not None:    # the last block also writes out the part-filled lines
                fill(j, held, lines, True)
            return count == rows[j] and not free[j][2]
        if not all(threads._on_two_threads([write(j) for j in range(len(parts))])):
            return None
        return _sweep_buckets(_Buckets(words, links, state, block, tops), n, levels,
                              exclude_self)


class _Buckets(NamedTuple):
    """What ``radix_fill`` wrote: the blocks, their chains and the writers' state."""
    words: Array
    links: Array
    state: Array
    block: int
    tops: Array


def _radix_table(y: Array, s: Array, pos_value: float, neg_value: float) -> Table | None:
    """``build_table`` of unweighted rows by radix buckets (``_radix_summary``'s plan and
    fill, then each bucket sorted in cache and written out as groups: no sweep), or
    None when a row is bad: the caller takes the general path, which names it.

    Two bucket ranges of about half the rows each are written on two threads into
    one set of columns, the lower range from the upper range's rows on; the lower
    range's groups move up behind the upper's only when ties made the upper range
    shorter than its rows (distinct scores: nothing moves)."""
    n = len(s)
    with Loan() as loan:
        k = _filled(y, s, pos_value, neg_value, threads._passes(n, None), None, loan)
        if k is None:
            return None
        nb = len(k.tops)
        scores = np.empty(max(n, 1), dtype=np.float64)
        pos = np.empty(max(n, 1), dtype=np.int64)
        neg = np.empty(max(n, 1), dtype=np.int64)

        def write(top: int, bottom: int, offset: int) -> Callable[[], int]:
            return lambda: _radix.radix_table(k.words, k.links, k.state, k.block, k.tops,
                                              top, bottom, scores, pos, neg, offset)
        if n < threads.PARALLEL_MIN_ROWS or nb < 2 or getattr(threads._serial, "on", False):
            m = write(nb, 0, 0)()
        else:
            sizes = (k.state[:, 2] * k.block + k.state[:, 1]).sum(axis=0)
            mid, _ = _middle_buckets(sizes, n)
            rows_hi = int(sizes[mid:].sum())
            m_hi, m_lo = threads._on_two_threads([write(nb, mid, 0), write(mid, 0, rows_hi)])
            if m_hi < rows_hi:
                for column in (scores, pos, neg):
                    column[m_hi:m_hi + m_lo] = column[rows_hi:rows_hi + m_lo]
            m = m_hi + m_lo
    for column in (scores, pos, neg):
        column.resize(m, refcheck=False)     # in place: a copy would double the peak
    return Table(scores, pos, neg)


def _filled(y: Array, s: Array, pos_value: float, neg_value: float,
            groups: list[list[tuple[int, int]]], release: Release, loan: Loan
            ) -> _Buckets | None:
    """The rows' words in radix buckets (``radix_fill`` on two threads, group by group,
    each released behind when ``release`` is given), or None when the plan finds no
    buckets or a row is bad. The words live on ``loan``."""
    plan = _radix_plan(s, len(s))
    if plan is None:
        return None
    table, base, tops = plan
    rows = [sum(g[j][1] - g[j][0] for g in groups) for j in range(len(groups[0]))]
    words, links, state, free, block = _radix_blocks(
        s.dtype, len(tops), rows, isinstance(release, OwnedRows), loan)
    lines = [np.empty(64 * len(tops) + 64, dtype=np.uint8) for _ in groups[0]]

    def fill(j: int, b: tuple[int, int], finish: bool) -> Callable[[], None]:
        return lambda: _radix.radix_fill(y, s, pos_value, neg_value, table, base, *b,
                                           words, links, state[j], free[j], lines[j],
                                           block, finish)
    for i, group in enumerate(groups):
        threads._on_two_threads([fill(j, b, i == len(groups) - 1) for j, b in enumerate(group)])
        if release is not None:
            release(group[0][0], group[-1][1])
    if any(f[2] for f in free):
        return None
    return _Buckets(words, links, state, block, tops)


def _sweep_buckets(k: _Buckets, n: int, levels: Array, exclude_self: bool
                   ) -> SweepResult | None:
    """The sweep of ``n`` rows filled into buckets, on two threads (``_two_pieces``), or
    None when a class is missing."""
    nb = len(k.tops)
    pos = k.state[:, 3].sum(axis=0)
    sizes = (k.state[:, 2] * k.block + k.state[:, 1]).sum(axis=0)
    wp, wn = float(pos.sum()), float(sizes.sum() - pos.sum())
    if wp == 0 or wn == 0:
        return None

    def sweep(top: int, bottom: int, split: int, lv: Array, tp: float, fp: float, gap: float,
              checkpoint: bool = False) -> Callable[[], PieceSweep]:
        return lambda: _radix.radix_sweep_from(k.words, k.links, k.state, k.block, k.tops,
                                                 top, bottom, split, wp, wn, lv, exclude_self,
                                                 tp, fp, gap, checkpoint)
    if n < threads.PARALLEL_MIN_ROWS or getattr(threads._serial, "on", False):
        return sweep(nb, 0, 0, levels, 0.0, 0.0, 0.0)().result
    mid, quarter = _middle_buckets(sizes, n)
    tp_hi = float(pos[mid:].sum())
    fp_hi = float(sizes[mid:].sum()) - tp_hi

    def again(gap_hi: float, cp: Checkpoint | None) -> list[Callable[[], PieceSweep]]:
        assert cp is not None
        return [sweep(mid, quarter, quarter, levels, tp_hi, fp_hi, gap_hi),
                sweep(quarter, 0, 0, levels, cp.tp, cp.fp, gap_hi + cp.gap)]

    two = threads._two_pieces(sweep(nb, mid, mid, levels, 0.0, 0.0, 0.0),
                      sweep(mid, 0, quarter, np.empty(0), tp_hi, fp_hi, 0.0, True),
                      again, tp_hi, wp, wn, len(levels))
    # (Counts are exact, so the pieces meet; were they not to: one sweep of them all.
    # The rows may be released already: no None past here.)
    return two if two is not None else sweep(nb, 0, 0, levels, 0.0, 0.0, 0.0)().result


def _clean_rows(y: Array, s: Array, pos_value: float, neg_value: float,
                groups: list[list[tuple[int, int]]], release: Release) -> bool:
    """Whether every row is clean and both classes are there (``radix_check``), by
    groups on two threads; memory-mapped rows are released behind (rows handed over
    are kept whole)."""
    pos = bad = 0

    def check(b: tuple[int, int]) -> Callable[[], tuple[int, int]]:
        return lambda: _radix.radix_check(y, s, pos_value, neg_value, *b)
    for group in groups:
        for n_pos, n_bad in threads._on_two_threads([check(b) for b in group]):
            pos, bad = pos + n_pos, bad + n_bad
        if not isinstance(release, OwnedRows):
            assert release is not None
            release(group[0][0], group[-1][1])
    return bad == 0 and 0 < pos < len(s)


def _radix_blocks(dtype: np.dtype, nb: int, rows: list[int], small: bool,
                  loan: Loan | None = None) -> tuple[Array, Array, Array, list[Array], int]:
    """The blocks ``radix_fill`` writes for ``nb`` buckets, writer ``j`` writing
    ``rows[j]`` rows: ``(words, links, state, free, block)`` (see ``_owned_blocks``).
    ``small``: the words are fresh and get small pages (they must grow only as fast as
    rows handed over shrink); else ``loan``, when given, lends them."""
    item = 4 if dtype == np.float32 else 8
    block = RADIX_BLOCK_BYTES // item
    first, links, free = _owned_blocks(nb, rows, block)
    kind = np.uint32 if item == 4 else np.uint64
    if loan is None or small:
        words = aligned_empty(len(links) * block, kind)
        if small:
            small_pages(words)
    else:
        words = loan.aligned(len(links) * block, kind)
    state = np.zeros((len(rows), 4, nb), dtype=np.int64)
    for j in range(len(rows)):
        state[j, 0] = np.arange(first[j], first[j] + nb)
    return words, links, state, free, block


def _owned_blocks(nb: int, rows: list[int], block: int) -> tuple[Array, Array, list[Array]]:
    """Which blocks of ``block`` items each writer owns, writer ``j`` writing ``rows[j]``
    rows into ``nb`` buckets: ``(first, links, free)``. Writer ``j`` owns blocks
    ``first[j]:first[j + 1]``, a block per bucket (its first ones, ``links`` -1: each
    bucket's chain starts there) and one per ``block`` of its rows: enough, since only
    a bucket's open block is part-filled. ``free[j]``: the next block it takes, its
    end, and 0 bad rows."""
    owned = [nb + r // block + 1 for r in rows]
    first = np.concatenate(([0], np.cumsum(owned))).astype(np.int64)
    links = np.empty(int(first[-1]), dtype=np.int64)
    free = []
    for j in range(len(rows)):
        links[first[j]:first[j] + nb] = -1
        free.append(np.array([first[j] + nb, first[j + 1], 0], dtype=np.int64))
    return first, links, free


# A writer's row per bucket in ``radix_fill_weighted`` (its ``W_*``): the open block,
# the rows in it, the full blocks behind it, then the bits of the positive weight (a
# compensated pair) and of the negative weight.
_W_STATE, _W_HEAD, _W_FILL, _W_FULL, _W_SUMS = 8, 0, 1, 2, slice(3, 6)


class _WeightedBuckets(NamedTuple):
    """What ``radix_fill_weighted`` wrote: the rows' blocks, their chains, the writers'
    state, the block size in rows, the buckets' class sums (writer, bucket, positive /
    its error / negative) and the rows of each bucket."""
    rows: Array
    links: Array
    state: Array
    block: int
    sums: Array
    sizes: Array


def _weighted_buckets(y: Array, s: Array, w: Array, pos_value: float, neg_value: float,
                      loan: Loan) -> _WeightedBuckets | None:
    """Weighted rows written into radix buckets on two threads, each half's rows checked
    and those of positive weight written as (score, signed weight), with each bucket's
    class sums (``radix_fill_weighted``); None when a row is bad (NaN score, third
    label, bad weight) or there are too many buckets. The blocks are ``loan``'s."""
    plan = _radix_plan(s, len(s))
    if plan is None:
        return None
    table, base, tops = plan
    nb, blocks = len(tops), threads._blocks(len(s))
    block = RADIX_BLOCK_BYTES // 16
    first, links, free = _owned_blocks(nb, [b - a for a, b in blocks], block)
    rows = loan.aligned(2 * len(links) * block, np.float64)
    state = np.zeros((len(blocks), nb, _W_STATE), dtype=np.int64)
    for j in range(len(blocks)):
        state[j, :, _W_HEAD] = np.arange(first[j], first[j] + nb)

    def fill(j: int, b: tuple[int, int]) -> Callable[[], None]:
        lines = np.empty(64 * nb + 64, dtype=np.uint8)
        return lambda: _radix_weighted.radix_fill_weighted(
            y, s, w, pos_value, neg_value, table, base, *b, rows, links, state[j], free[j],
            lines, block, True)
    threads._on_two_threads([fill(j, b) for j, b in enumerate(blocks)])
    if any(f[2] for f in free):
        return None
    sizes = (state[:, :, _W_FULL] * block + state[:, :, _W_FILL]).sum(axis=0)
    return _WeightedBuckets(rows, links, state, block,
                            state[:, :, _W_SUMS].view(np.float64), sizes)


def _radix_weighted_summary(y: Array, s: Array, w: Array, pos_value: float,
                            neg_value: float, levels: Array, exclude_self: bool,
                            costs: Costs = None) -> SweepResult | None:
    """``summarize`` of weighted rows by radix buckets, or None when a row is bad, a
    class has no weight or the weights add up to infinity: the caller takes the key
    path, which names the problem or sweeps those.

    One pass on two threads checks each half's rows and writes those of positive
    weight into their buckets' blocks as (score, signed weight), adding up each
    bucket's weight by class (``radix_fill_weighted``); each bucket is then gathered in
    cache, ordered and swept (``radix_sweep_weighted_from``), the upper and lower
    buckets on two threads from the counted totals (``_two_pieces``). W_P is the
    correctly rounded total of the buckets' compensated sums, and the sweep's TP a
    compensated sum: when they do not end equal (rare), the buckets are swept again in
    one piece with the sweep's own total (see ``_summarize_keys``).
    """
    with Loan() as loan:
        k = _weighted_buckets(y, s, w, pos_value, neg_value, loan)
        if k is None:
            return None
        rows, links, state, block, sums, sizes = k
        nb, n = len(sizes), int(sizes.sum())

        def positive(buckets: slice) -> tuple[float, float]:
            """The positive weight of ``buckets``: its rounded total and remainder."""
            return _exact_pair(sums[:, buckets, :2])
        wp = _exact_total(sums[:, :, :2])
        with np.errstate(over="ignore"):           # (an infinite total is declined next)
            wn = float(sums[:, :, 2].sum())
        if not (wp > 0 and wn > 0 and math.isfinite(wp) and math.isfinite(wn)):
            return None

        def sweep(top: int, bottom: int, split: int, lv: Array, tp: tuple[float, float],
                  fp: float, gap: float, checkpoint: bool = False, total: float = wp,
                  cost: Costs = None) -> Callable[[], PieceSweep]:
            return lambda: _radix_weighted.radix_sweep_weighted_from(
                rows, links, state, block, top, bottom, split, total, wn, lv, exclude_self,
                tp[0], tp[1], fp, gap, checkpoint, cost)

        if (costs is None and n >= threads.PARALLEL_MIN_ROWS
                and not getattr(threads._serial, "on", False)):
            mid, quarter = _middle_buckets(sizes, n)
            tp_hi = positive(slice(mid, nb))
            fp_hi = float(sums[:, mid:, 2].sum())

            def again(gap_hi: float, cp: Checkpoint | None) -> list[Callable[[], PieceSweep]]:
                assert cp is not None
                return [sweep(mid, quarter, quarter, levels, tp_hi, fp_hi, gap_hi),
                        sweep(quarter, 0, 0, levels, (cp.tp, cp.tp_err), cp.fp, gap_hi + cp.gap)]

            two = threads._two_pieces(sweep(nb, mid, mid, levels, (0.0, 0.0), 0.0, 0.0),
                              sweep(mid, 0, quarter, np.empty(0), tp_hi, fp_hi, 0.0, True),
                              again, tp_hi[0] + tp_hi[1], wp, wn, len(levels))
            if two is not None:
                return two
        out = sweep(nb, 0, 0, levels, (0.0, 0.0), 0.0, 0.0, cost=costs)()
        if out.tp_end != wp:
            out = sweep(nb, 0, 0, levels, (0.0, 0.0), 0.0, 0.0, total=out.tp_end, cost=costs)()
        return out.result


def _exact_total(values: Array) -> float:
    """The sum of ``values`` correctly rounded (``math.fsum``: a Python loop over the
    buckets' compensated pairs cost 5-10 ms at 1e7 rows), infinite when it overflows:
    a bucket's sum that overflowed has an infinite sum and a NaN error term (the rows
    themselves are checked, none is NaN)."""
    return _fsum(values.ravel().tolist())


def _fsum(parts: list[float]) -> float:
    try:
        total = math.fsum(parts)
    except OverflowError:
        return math.inf
    return math.inf if math.isnan(total) else total


def _exact_pair(values: Array) -> tuple[float, float]:
    """``_exact_total`` of ``values`` and what it leaves out (correctly rounded too):
    a piece's sweep starts its compensated TP from both. From the total alone, the
    half ulp it rounded off made the lower piece end an ulp off W_P in about a quarter
    of weighted calls (8 of 30 from 4e5 to 5e6 rows), each then swept again in one
    piece."""
    parts = values.ravel().tolist()
    total = _fsum(parts)
    if not math.isfinite(total):
        return math.inf, 0.0
    parts.append(-total)
    return total, math.fsum(parts)


def _middle_buckets(sizes: Array, n: int) -> tuple[int, int]:
    """Bucket ``mid`` (from which up the buckets hold about half the ``n`` rows) and
    ``quarter`` (from which up to ``mid`` about a quarter), for the two pieces of a
    sweep and the halves of its second sweep."""
    nb = len(sizes)
    starts = np.concatenate(([0], np.cumsum(sizes)))
    mid = min(max(int(np.searchsorted(starts, n // 2)), 1), nb - 1)
    quarter = min(max(int(np.searchsorted(starts, starts[mid] // 2)), 0), mid)
    return mid, quarter
