"""Scratch buffers kept between calls (``_core/scratch.py``, ``indist_fast.memory``):
what is kept and dropped, that the radix paths' results do not depend on what a kept
buffer held before, and that no lent buffer outlives its call."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import indist_fast
from cases import lower_thresholds
from indist_fast._core import fast as _fast
from indist_fast._core import fast_radix as _fast_radix
from indist_fast._core import threads as _threads
from indist_fast._core import reference as _reference
from indist_fast._core import scratch
from test_kernels import assert_sweeps_equal

MB = 1 << 20


@pytest.fixture
def pool(monkeypatch):
    """An empty pool with a 64 MB limit, keeping buffers from 1 KB on."""
    monkeypatch.setattr(scratch, "MIN_KEPT_BYTES", 1024)
    before = scratch.set_limit(64 * MB)
    scratch.release()
    yield
    scratch.release()
    scratch.set_limit(before)


def test_a_buffer_given_back_is_lent_again(pool):
    with scratch.Loan() as loan:
        a = loan.aligned(100_000, np.float64)
        assert a.ctypes.data % 64 == 0 and a.shape == (100_000,) and a.dtype == np.float64
        assert scratch.held() == 0                  # lent, not idle
    assert scratch.held() >= 800_000
    with scratch.Loan() as loan:
        b = loan.aligned(50_000, np.uint64)         # smaller: the same buffer
        c = loan.aligned(50_000, np.uint64)         # none idle: a new one
        assert b.ctypes.data == a.ctypes.data
        assert not np.shares_memory(b, c)
    assert scratch.held() >= 800_000 + 400_000


def test_small_buffers_are_not_kept(pool, monkeypatch):
    monkeypatch.setattr(scratch, "MIN_KEPT_BYTES", 1 * MB)
    with scratch.Loan() as loan:
        a = loan.aligned(1000, np.float64)
        assert a.ctypes.data % 64 == 0 and len(a) == 1000
    assert scratch.held() == 0


def test_the_limit_bounds_what_is_kept(pool):
    scratch.set_limit(1 * MB)
    with scratch.Loan() as loan:
        loan.aligned(2 * MB // 8, np.float64)       # past the limit: dropped
    assert scratch.held() == 0
    for _ in range(3):                              # three of ~0.5 MB: the oldest go
        with scratch.Loan() as loan:
            loan.aligned(60_000, np.float64)
            loan.aligned(60_000, np.float64)
        assert 0 < scratch.held() <= 1 * MB
    kept = scratch.held()
    assert indist_fast.scratch_memory() == indist_fast.ScratchMemory(1 * MB, kept)
    assert indist_fast.release_scratch() == kept and scratch.held() == 0
    assert indist_fast.scratch_memory().kept == 0
    with scratch.Loan() as loan:
        loan.aligned(60_000, np.float64)
    assert indist_fast.set_scratch_limit(0) == 1 * MB and scratch.held() == 0
    with scratch.Loan() as loan:
        loan.aligned(60_000, np.float64)
    assert scratch.held() == 0


def test_idle_buffers_are_dropped_before_a_larger_one_is_made(pool):
    """A call's peak memory is what it would be without keeping."""
    with scratch.Loan() as loan:
        loan.aligned(10_000, np.float64)
    assert scratch.held() > 0
    with scratch.Loan() as loan:
        loan.aligned(1_000_000, np.float64)
        assert scratch.held() == 0
    assert scratch.held() >= 8_000_000


def test_concurrent_loans_get_their_own_buffers(pool):
    with scratch.Loan() as loan:
        loan.aligned(100_000, np.float64)
    seen: list[tuple[int, int]] = []
    start = threading.Barrier(4)

    def borrow() -> None:
        start.wait()
        with scratch.Loan() as loan:
            a = loan.aligned(100_000, np.float64)
            seen.append((a.ctypes.data, a.ctypes.data + a.nbytes))
            time.sleep(0.05)
    threads = [threading.Thread(target=borrow) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    spans = sorted(seen)
    assert len(spans) == 4
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans


@pytest.mark.parametrize("weighted", [False, True])
def test_radix_results_do_not_depend_on_what_a_kept_buffer_held(pool, monkeypatch,
                                                                  weighted):
    """Kept buffers are filled with NaN bits between calls: every call must equal the
    reference, and a result must not change when a later call reuses the buffer."""
    log = lower_thresholds(monkeypatch)
    for module, name, value in ((_fast, "WEIGHTED_RADIX_MIN_ROWS", 4),
                                (_fast, "RADIX_MIN_ROWS", 4),
                                (_fast_radix, "RADIX_BUCKET_ROWS", 2),
                                (_fast_radix, "RADIX_BLOCK_BYTES", 64)):
        monkeypatch.setattr(module, name, value)
    rng = np.random.default_rng(5)
    levels = np.array([0.5, 0.2])
    results = []
    for n in (4000, 2500, 4000):
        y = (rng.random(n) < 0.3).astype(np.uint8)
        s = np.round(rng.normal(size=n), 2)
        w = rng.random(n) + 0.1 if weighted else None
        with scratch._lock:
            for raw in scratch._idle:
                raw.fill(0xFF)
        args = (y, s, w, 1.0, 0.0, levels, False)
        got = _fast.summarize(*args)
        assert_sweeps_equal(got, _reference.summarize(*args), 1e-12)
        results.append((got, _reference.summarize(*args)))
    for got, want in results:
        assert_sweeps_equal(got, want, 1e-12)
    kernel = "radix_fill_weighted" if weighted else "radix_fill"
    assert log.calls[kernel] and scratch.held() > 0


def test_the_helper_thread_ends_before_a_failed_call_returns():
    """Lent buffers go back when the call ends, even by an error: a job the helper
    started must end before the call returns."""
    started, done = threading.Event(), threading.Event()

    def slow() -> None:
        started.set()
        time.sleep(0.2)
        done.set()

    def fail() -> None:
        assert started.wait(5)
        raise RuntimeError("first job")
    with pytest.raises(RuntimeError, match="first job"):
        _threads._on_two_threads([fail, slow])
    assert done.is_set()


def test_a_job_the_helper_has_not_started_runs_on_the_calling_thread():
    """A busy helper (here: blocked) does not hold up the call."""
    _threads._on_two_threads([lambda: None, lambda: None])      # (the pool exists)
    release = threading.Event()
    blocker = _threads._pool.submit(release.wait, 10)
    try:
        ran_on = _threads._on_two_threads([threading.get_ident, threading.get_ident])
        assert ran_on == [threading.get_ident()] * 2
    finally:
        release.set()
        blocker.result()


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (1.0, TypeError),
                                        (True, TypeError), ("1", TypeError),
                                        (1 << 60, ValueError)])
def test_set_scratch_limit_refuses_bad_values(bad, error):
    with pytest.raises(error, match="nbytes"):
        indist_fast.set_scratch_limit(bad)
