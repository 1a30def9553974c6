"""The compiled twin's two threads: a pool of one helper thread, the row blocks each
pass splits into, and one sweep in two pieces (``_two_pieces``).

Shared by ``fast`` and ``fast_radix``. The size constants are read at call time (as
``threads.PARALLEL_MIN_ROWS``), so tests can lower them here to reach the threaded paths.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Callable, Sequence, TypeVar

import numpy as np

from .page_release import OwnedRows
from .records import Checkpoint, PieceSweep, Release, SweepResult
from .rates import b_from_gap, clamp_probability, first_crossings

# Below this many rows a second thread costs more than it saves. These size constants
# are read at call time, so tests can lower them to reach the threaded paths.
PARALLEL_MIN_ROWS = 50_000
# Whether a job the helper thread has not started is taken back by the calling thread
# once its own is done (``_on_two_threads``); tests that check the helper ran turn it
# off (with few rows the calling thread is often done first).
TAKE_BACK_JOBS = True

_T = TypeVar("_T")
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _forget_pool() -> None:
    # A forked child inherits the pool object but not its thread: jobs would wait
    # forever. Start a fresh pool on first use instead.
    global _pool
    _pool = None


os.register_at_fork(after_in_child=_forget_pool)


# Set on a thread that runs one of several independent evaluations (one per thread, see
# ``summarize_models``): its jobs then run in turn, with the same split and so the same
# results, instead of waiting on the other thread.
_serial = threading.local()


def _on_two_threads(jobs: Sequence[Callable[[], _T]]) -> list[_T]:
    """Run the jobs, all but the first offered to the helper thread; results in order.

    A job the helper has not started by the time the first is done runs here instead:
    on a loaded machine the helper may wait for a core long after this thread is free
    (3e5 rows took 3-5x ``np.sort`` by radix buckets, waiting, while other work kept
    both cores busy). Every job is independent of the others' timing."""
    global _pool
    if len(jobs) == 1 or getattr(_serial, "on", False):
        return [job() for job in jobs]
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="indist_fast")
    futures = [_pool.submit(job) for job in jobs[1:]]
    try:
        out = [jobs[0]()]
        for job, f in zip(jobs[1:], futures):
            out.append(job() if TAKE_BACK_JOBS and f.cancel() else f.result())
    except BaseException:
        for f in futures:
            f.cancel()
        wait(futures)   # (the helper may write into buffers lent for this call only)
        raise
    return out


def _blocks(n: int, offset: int = 0) -> list[tuple[int, int]]:
    """Rows ``offset .. offset + n`` as one block, or two halves for two threads."""
    if n < PARALLEL_MIN_ROWS:
        return [(offset, offset + n)]
    return [(offset, offset + n // 2), (offset + n // 2, offset + n)]


# Rows per block when the caller releases input pages behind each pass.
RELEASE_BLOCK_ROWS = 1 << 23
OWNED_BLOCK_ROWS = 1 << 21


def _passes(n: int, release: Release) -> list[list[tuple[int, int]]]:
    """Row blocks for the passes over the rows (the radix path's check and fill, the
    class pieces' count and scatter), in groups run on two threads.

    Without ``release`` one group covers every row. With it, groups of at most
    ``RELEASE_BLOCK_ROWS`` rows, so the caller can drop each group's input pages
    (memory-mapped files) as soon as a pass is done with them; ``OWNED_BLOCK_ROWS``
    for rows handed over (``OwnedRows``), whose group's words are all written before
    its rows go back: a smaller step is a smaller overshoot of the peak.
    """
    if release is None:
        return [_blocks(n)]
    step = OWNED_BLOCK_ROWS if isinstance(release, OwnedRows) else RELEASE_BLOCK_ROWS
    return [_blocks(b - a, offset=a) for a, b in
            ((a, min(n, a + step)) for a in range(0, n, step))]


def _two_pieces(sweep_hi: Callable[[], PieceSweep], sweep_lo: Callable[[], PieceSweep],
                again: Callable[[float, Checkpoint | None], list[Callable[[], PieceSweep]]],
                tp_hi: float, wp: float, wn: float, n_levels: int) -> SweepResult | None:
    """One sweep in two pieces on two threads: the upper piece with the levels, the
    lower one without, from the upper piece's totals as counted (its offset of B's G =
    2 Num - Den, see ``sweep.pxd``, is only known afterwards). When a level is not
    reached above, the lower piece is swept again for crossings (``again``, given G
    above and the checkpoint the lower piece's first sweep recorded: two halves on two
    threads when there is one). None when the counted totals are not exactly the TP the
    sweeps end at (rare: see ``_summarize_keys``); the caller then sweeps in one piece.
    """
    hi_out, lo_out = _on_two_threads([sweep_hi, sweep_lo])
    # Each piece's TP must end where the next one starts, and the last at W_P.
    if hi_out.tp_end != tp_hi or lo_out.tp_end != wp:
        return None
    hi, gap_hi = hi_out.result, hi_out.gap
    lo, gap_lo, den_last = lo_out.result, lo_out.gap, lo_out.den
    pieces = [(hi.crossings, 0)]
    if np.isnan(hi.crossings[:, 0]).any():
        cp = lo_out.checkpoint
        outs = _on_two_threads(again(gap_hi, cp))
        above = [hi.n_groups] if cp is None else [hi.n_groups, hi.n_groups + cp.n_groups]
        pieces += [(out.result.crossings, a) for out, a in zip(outs, above)]
    crossings = first_crossings(pieces, n_levels)
    return SweepResult(hi.n_groups + lo.n_groups, hi.n_undefined + lo.n_undefined, wp, wn,
                       clamp_probability(hi.auc + lo.auc),
                       clamp_probability(hi.average_precision + lo.average_precision),
                       b_from_gap(gap_hi + gap_lo, den_last), crossings)
