"""Unweighted ``evaluate`` by radix buckets (two threads) against the one-call small
path (one thread) at sizes near where one takes over from the other, as ratios to
``np.sort`` in paired runs; with BUSY=1 a process spinning on each core runs meanwhile
(a loaded machine: the helper thread waits for a core):

    python benchmarks/studies/busy_helper.py [SIZES ...]      [BUSY=1] [REP=31]

Run from outside the checkout.
"""

from __future__ import annotations

import multiprocessing
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _inputs import make  # noqa: E402
from _timing import paired_ratio  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast._core import fast  # noqa: E402


def _spin() -> None:
    while True:
        pass


def main() -> None:
    sizes = [int(float(a)) for a in sys.argv[1:]] or [10**5, 150_000, 300_000]
    reps = int(os.environ.get("REP", "31"))
    busy = [multiprocessing.Process(target=_spin, daemon=True)
            for _ in range(2 if os.environ.get("BUSY") == "1" else 0)]
    for p in busy:
        p.start()
    saved = fast.SMALL_ROWS, fast.RADIX_MIN_ROWS
    try:
        for n in sizes:
            y, s, _ = make(n, "continuous")
            for name, small, radix in (("small path", 10**12, 10**12), ("radix", 0, 0)):
                fast.SMALL_ROWS, fast.RADIX_MIN_ROWS = small, radix
                r, base, t = paired_ratio(lambda: np.sort(s),
                                          lambda: indist_fast.evaluate(y, s), reps)
                print(f"n={n:.1e} {name}: {r:.2f}x np.sort ({t * 1e6:.0f} us vs "
                      f"{base * 1e6:.0f} us)", flush=True)
    finally:
        fast.SMALL_ROWS, fast.RADIX_MIN_ROWS = saved
        for p in busy:
            p.terminate()


if __name__ == "__main__":
    main()
