"""Ratio table: ``indist_fast.compare`` of two models against one ``evaluate``.

    python benchmarks/studies/compare_models.py [--sizes 1e5 5e6] [--repeat 5] [--n-boot 1000]
                                        [--no-bootstrap]

Each repeat is a paired run: ``evaluate`` of model A, then the comparison, timed back
to back, so both see the same load of a shared machine; a row reports the median
over repeats of each run's ratio. Rows:

- ``delong``: ``compare(y, a, b, metrics="auc")`` (DeLong's paired test) over one
  ``evaluate``; ``per score`` halves it (target: <= 3 per score, as two models are
  ranked);
- ``delong_test``: ``indist_fast.delong_test(y, a, b)``, the same work;
- ``bootstrap``: ``compare(y, a, b, method="bootstrap", n_boot=N)`` of AUC, average
  precision and C(r_b), N paired replicates (each drawn once for both models).
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _timing import paired_ratio  # noqa: E402

import indist_fast  # noqa: E402


def two_models(n: int, seed: int = 0):
    """Labels (10% positives) and two correlated models' scores."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    noise = rng.normal(size=(2, n))
    a = 1.5 * y + noise[0]
    b = 1.2 * y + 0.6 * noise[0] + 0.8 * noise[1]
    return y, a, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e5, 5e6])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--no-bootstrap", action="store_true")
    args = parser.parse_args()
    print(f"{'n':>10} {'case':>12} {'evaluate s':>11} {'case s':>9} {'ratio':>7} "
          f"{'per score':>9}")
    for n in (int(s) for s in args.sizes):
        y, a, b = two_models(n)
        evaluate = lambda: indist_fast.evaluate(y, a)   # noqa: E731
        cases = {
            "delong": lambda: indist_fast.compare(y, a, b, metrics="auc"),
            "delong_test": lambda: indist_fast.delong_test(y, a, b),
        }
        if not args.no_bootstrap:
            cases["bootstrap"] = lambda: indist_fast.compare(
                y, a, b, method="bootstrap", n_boot=args.n_boot, seed=0)
        evaluate()                                      # warm up (thread pool, imports)
        for name, fn in cases.items():
            ratio, t_base, t_case = paired_ratio(evaluate, fn, args.repeat)
            print(f"{n:>10.0e} {name:>12} {t_base:>11.3f} {t_case:>9.3f} {ratio:>7.2f} "
                  f"{ratio / 2:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
