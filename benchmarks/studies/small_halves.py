"""What two threads could do for one service-sized call: ``summarize_small`` (the one-call
path below 1.5e5 rows) of all the rows, against its two halves each summarised in one
call on the two threads at once (``_on_two_threads``), as ratios to ``np.sort`` of all
the scores, with how late the helper thread starts its half. An upper bound for a split
on two threads, which would add a pivot and the join:

    python benchmarks/studies/small_halves.py 1e5 [PAIRS]

Run from outside the checkout.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _inputs import make  # noqa: E402

from indist_fast._core import _sorted, threads  # noqa: E402


def main() -> None:
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 100_000
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    y, s, _ = make(n, "continuous")
    y = y.view(np.uint8)
    h = n // 2
    levels = np.array([0.5])
    started: dict[str, float] = {}

    def whole() -> None:
        _sorted.summarize_small(y, s, 1.0, 0.0, levels, True)

    def half(a: int, b: int, name: str):
        def run() -> None:
            started[name] = time.perf_counter()
            _sorted.summarize_small(y[a:b], s[a:b], 1.0, 0.0, levels, True)
        return run

    jobs = [half(0, h, "caller"), half(h, n, "helper")]
    for _ in range(50):
        threads._on_two_threads(jobs)
        whole()
    one, two, sort, late = [], [], [], []
    for _ in range(pairs):
        t = time.perf_counter()
        np.sort(s)
        sort.append(time.perf_counter() - t)
        t = time.perf_counter()
        whole()
        one.append(time.perf_counter() - t)
        t = time.perf_counter()
        threads._on_two_threads(jobs)
        two.append(time.perf_counter() - t)
        late.append(started["helper"] - started["caller"])
    sort_a, one_a, two_a = (np.array(v) for v in (sort, one, two))
    print(f"n={n:.0e}: np.sort {np.median(sort_a) * 1e3:.3f} ms; one call "
          f"{np.median(one_a / sort_a):.2f}x; two halves on two threads "
          f"{np.median(two_a / sort_a):.2f}x; the helper starts "
          f"{np.median(late) * 1e6:.0f} us after the caller (median of {pairs})")


if __name__ == "__main__":
    main()
