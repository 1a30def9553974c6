"""Does ``compare(y, a, b)`` with its defaults cost at most 3x evaluating both scores?

    python benchmarks/studies/compare_defaults.py [--sizes 1e6] [--repeat 7] [--unpaired]
                                                  [--with-bootstrap N]

The defaults compare the AUC alone, by DeLong's paired test (one sort per model, then
one pass over the rows); the bootstrap of the other metrics is asked for by name. Each
repeat times, back to back, ``evaluate(y, a)``, ``evaluate(y, b)`` and then the case, so
that all three see the same load of a shared machine; a row reports the medians of the
times and the median over repeats of each repeat's

    ratio = t(case) / (t(evaluate(y, a)) + t(evaluate(y, b)))

(target: at most 3 for ``compare(y, a, b)``). Cases: ``default`` is ``compare(y, a, b)``;
``unpaired`` is ``compare(y, a, b, paired=False)`` (``--unpaired``); ``bootstrap N``
(``--with-bootstrap N``) names average precision and C(r_b), so N paired replicates are
drawn as the defaults did before (N=2000 took 202 s at 2e6 rows on a user's machine).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from functools import partial

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _timing import cpu_name, seconds  # noqa: E402

import indist_fast  # noqa: E402


def two_models(n: int, seed: int = 0):
    """Labels (10% positives) and two correlated models' distinct scores."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    noise = rng.normal(size=(2, n))
    return y, 1.5 * y + noise[0], 1.2 * y + 0.6 * noise[0] + 0.8 * noise[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e6])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--unpaired", action="store_true")
    parser.add_argument("--with-bootstrap", type=int, default=0, metavar="N")
    args = parser.parse_args()
    warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
    print(f"# {cpu_name()}, {os.cpu_count()} logical CPUs, numpy {np.__version__}, "
          f"median of {args.repeat} repeats")
    print(f"{'n':>8} {'case':>14} {'evaluate a+b s':>15} {'case s':>9} {'ratio':>7}")
    for n in (int(s) for s in args.sizes):
        y, a, b = two_models(n)
        cases = {"default": {}}
        if args.unpaired:
            cases["unpaired"] = {"paired": False}
        if args.with_bootstrap:
            cases[f"bootstrap {args.with_bootstrap}"] = {
                "metrics": ("auc", "average_precision", "precision"),
                "n_boot": args.with_bootstrap}
        indist_fast.evaluate(y, a)                      # warm up (thread pool, imports)
        indist_fast.compare(y, a, b, progress=False)
        for name, kwargs in cases.items():
            base, other = [], []
            for _ in range(args.repeat if not name.startswith("bootstrap") else 1):
                base.append(seconds(partial(indist_fast.evaluate, y, a))
                            + seconds(partial(indist_fast.evaluate, y, b)))
                other.append(seconds(partial(indist_fast.compare, y, a, b, progress=False,
                                             **kwargs)))
            ratio = float(np.median(np.array(other) / np.array(base)))
            print(f"{n:>8.0e} {name:>14} {np.median(base):>15.3f} {np.median(other):>9.3f} "
                  f"{ratio:>7.2f}", flush=True)


if __name__ == "__main__":
    main()
