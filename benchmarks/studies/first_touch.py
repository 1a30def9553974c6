"""What keeping the radix paths' blocks from call to call saves (``_core/scratch.py``):
``evaluate`` with the default scratch limit (blocks kept; about 180 MB at 1e7 weighted
rows, 96 MB unweighted) against ``set_scratch_limit(0)`` (fresh blocks every call,
zeroed by the operating system on first touch), each as the median ratio to
``np.sort`` over paired runs:

    python benchmarks/studies/first_touch.py 1e7 [weighted|plain]      [REP=7]

Run from outside the checkout.
"""

from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _inputs import make  # noqa: E402
from _timing import paired_ratio  # noqa: E402

import indist_fast  # noqa: E402


def main() -> None:
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**7
    variant = sys.argv[2] if len(sys.argv) > 2 else "weighted"
    reps = int(os.environ.get("REP", "7"))
    y, s, w = make(n, variant)
    default = indist_fast.set_scratch_limit(0)
    try:
        for name, limit in (("fresh", 0), ("kept", default)) * 2:
            indist_fast.set_scratch_limit(limit)
            r, base, t = paired_ratio(lambda: np.sort(s),
                                      lambda: indist_fast.evaluate(y, s, sample_weight=w), reps)
            print(f"n={n:.0e} {variant}, blocks {name}: {r:.2f}x np.sort "
                  f"({t * 1e3:.1f} ms vs {base * 1e3:.1f} ms)", flush=True)
    finally:
        indist_fast.set_scratch_limit(default)


if __name__ == "__main__":
    main()
