"""What calibration, KS, gains and top-k cost next to one ``evaluate``.

    python benchmarks/studies/table_readings.py [--sizes 1e7] [--repeat 5] [--digits 0 4]

Targets: building one ``ScoreTable`` and reading ``calibration()``, ``ks()`` and
``gains()`` from it at most 1.5x one ``evaluate`` of the same rows; each array function
alone (``calibration``, ``ks``, ``gains``, ``top_k``: validation, one table, one
reading) at most 1.2x. Each repeat times ``evaluate(y, p)`` and then the case back to
back, so both see the same load of a shared machine; a row reports the median times
and the median over repeats of ``t(case) / t(evaluate)``.

Rows: 10% positives, probabilities ``p = sigmoid(normal + 1.5 y - 1)`` as float64;
``--digits 0`` keeps them continuous (an entry per row in the table: the table's
build is the cost), ``--digits 4`` rounds them to 4 decimals (calibrated scores as
services log them: ~10^4 distinct values).
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


def rows(n: int, digits: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    p = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.5 * y - 1.0)))
    return y, (np.round(p, digits) if digits else p)


def table_and_readings(y: np.ndarray, p: np.ndarray) -> None:
    table = indist_fast.ScoreTable.from_arrays(y, p)
    table.calibration()
    table.ks()
    table.gains()


def cases(y: np.ndarray, p: np.ndarray) -> dict[str, tuple[object, float]]:
    """Each case and its target ratio."""
    return {
        "table + 3 readings": (partial(table_and_readings, y, p), 1.5),
        "ScoreTable alone": (partial(indist_fast.ScoreTable.from_arrays, y, p), 0.0),
        "calibration": (partial(indist_fast.calibration, y, p), 1.2),
        "ks": (partial(indist_fast.ks, y, p), 1.2),
        "gains": (partial(indist_fast.gains, y, p), 1.2),
        "top_k 1%": (partial(indist_fast.top_k, y, p, 0.01), 1.2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e7])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--digits", nargs="+", type=int, default=[0, 4])
    args = parser.parse_args()
    warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
    print(f"# {cpu_name()}, {os.cpu_count()} logical CPUs, numpy {np.__version__}, "
          f"median of {args.repeat} repeats; ratio = t(case) / t(evaluate), same repeat")
    print(f"{'n':>9} {'digits':>6} {'case':>20} {'evaluate s':>11} {'case s':>8} "
          f"{'ratio':>6} {'target':>7}")
    for n in (int(s) for s in args.sizes):
        for digits in args.digits:
            y, p = rows(n, digits)
            indist_fast.evaluate(y, p)                 # warm up (thread pool, imports)
            table_and_readings(y, p)
            for name, (case, target) in cases(y, p).items():
                base, other = [], []
                for _ in range(args.repeat):
                    base.append(seconds(partial(indist_fast.evaluate, y, p)))
                    other.append(seconds(case))
                ratio = float(np.median(np.array(other) / np.array(base)))
                print(f"{n:>9.0e} {digits or 'all':>6} {name:>20} {np.median(base):11.3f} "
                      f"{np.median(other):8.3f} {ratio:6.2f} "
                      f"{('<= ' + str(target)) if target else '':>7}", flush=True)


if __name__ == "__main__":
    main()
