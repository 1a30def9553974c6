"""What the first touch of fresh blocks costs a weighted ``evaluate``: the one-pass
path's blocks (about 180 MB at 1e7 rows) fresh on every call, as they are, against one
set of blocks kept from call to call (a stand-in for ``fast._aligned_empty``; the
library does not keep them), each as the median ratio to ``np.sort`` over paired runs:

    python benchmarks/first_touch.py 1e7       [REP=7]

Run from outside the checkout.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _inputs import make  # noqa: E402
from _timing import paired_ratio  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast._core import fast  # noqa: E402


def main() -> None:
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**7
    reps = int(os.environ.get("REP", "7"))
    y, s, w = make(n, "weighted")
    fresh = fast._aligned_empty
    kept: dict[tuple[int, str], np.ndarray] = {}

    def reused(size: int, dtype: type) -> np.ndarray:
        key = (size, np.dtype(dtype).str)
        if key not in kept:
            kept[key] = fresh(size, dtype)
        return kept[key]
    try:
        for name, allocate in (("fresh", fresh), ("kept", reused)) * 2:
            fast._aligned_empty = allocate
            r, base, t = paired_ratio(lambda: np.sort(s),
                                      lambda: indist_fast.evaluate(y, s, sample_weight=w), reps)
            print(f"n={n:.0e} weighted, blocks {name}: {r:.2f}x np.sort "
                  f"({t * 1e3:.1f} ms vs {base * 1e3:.1f} ms)", flush=True)
    finally:
        fast._aligned_empty = fresh


if __name__ == "__main__":
    main()
