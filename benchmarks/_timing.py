"""Timing helpers every benchmark script shares: paired ratios, microsecond calls, and
the peak memory of a child process.

A shared machine's load drifts within seconds, so a ratio is taken per pair (baseline
then case, back to back) and the median of the pairs' ratios is reported, never a
ratio of two separately chosen best times.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import time
from typing import Callable

import numpy as np


def seconds(fn: Callable[[], object]) -> float:
    """Wall time of one call."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def per_call(fn: Callable[[], object], min_time: float = 0.02) -> float:
    """Seconds per call of a fast function: as many calls as fill ``min_time``
    (timeit's way), so a microsecond call is not lost in the clock's resolution."""
    number = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_time:
            return dt / number
        number *= 2 if dt <= 0 else max(2, int(min_time / dt * 1.2))


def paired_ratio(baseline: Callable[[], object], fn: Callable[[], object], repeat: int,
                 inner: bool = False, settle: float = 0.0) -> tuple[float, float, float]:
    """Median over ``repeat`` paired runs of ``fn / baseline``, and the median times.

    ``inner``: time each side with ``per_call`` (microsecond calls). ``settle``: seconds
    to wait, untimed, before each call, so that another library's worker threads
    (which spin for a while after a call) are parked before the next one is timed."""
    timer = per_call if inner else seconds
    base, other = [], []
    for _ in range(repeat):
        time.sleep(settle)
        base.append(timer(baseline))
        time.sleep(settle)
        other.append(timer(fn))
    ratios = np.array(other) / np.array(base)
    return float(np.median(ratios)), float(np.median(base)), float(np.median(other))


# The child ends by printing its result and its peak resident set (VmHWM: ru_maxrss
# would report the parent's peak across fork+exec when the parent is larger).
_CHILD_TAIL = r"""
import json as _json
with open("/proc/self/status") as _fh:
    _hwm = next(int(line.split()[1]) * 1024 for line in _fh if line.startswith("VmHWM"))
print(_json.dumps({"seconds": SECONDS, "peak_bytes": _hwm, "result": RESULT}))
"""


def in_child(code: str, *args: str) -> dict:
    """Run ``code`` in a fresh interpreter; it must set ``SECONDS`` (the timed part)
    and ``RESULT`` (anything JSON). Returns them with ``peak_bytes`` (VmHWM)."""
    out = subprocess.run([sys.executable, "-c", code + _CHILD_TAIL, *args],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            return next(line.split(":", 1)[1].strip() for line in fh
                        if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown CPU"
