"""How much faster than R's pROC are var_auc, cov_auc, coords and smooth_roc?

    python benchmarks/studies/proc_toolbox.py [--rows 1e4] [--boot 2000] [--repeat 3]

Writes the labels and two models' scores to a CSV in a temporary folder, times each pROC
call inside R (``system.time``, the ``roc`` objects built beforehand, untimed) and the
matching indist_fast call here (from the arrays: its one sort included), and prints per
case both medians over ``--repeat`` runs and their ratio, pROC / indist_fast, from the
same run on the same machine. Needs ``Rscript`` with pROC (Debian: r-base-core,
r-cran-proc). The bootstraps draw different replicates on each side (R's generator
and indist_fast's seeded one): the same amount of work, not the same numbers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _timing import cpu_name, seconds  # noqa: E402

import indist_fast  # noqa: E402


def data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    a = rng.normal(size=n) + y
    return y, a, 0.5 * a + rng.normal(size=n) + 0.5 * y


def cases(boot: int, sens: np.ndarray) -> dict[str, tuple[str, object]]:
    """name -> (R expression timed, Python call timed)."""
    s = "c(" + ",".join(repr(float(v)) for v in sens) + ")"
    return {
        f"var bootstrap {boot}": (
            f'var(r1, method = "bootstrap", boot.n = {boot}, progress = "none")',
            lambda y, a, b: indist_fast.var_auc(y, a, method="bootstrap", n_boot=boot,
                                                progress=False)),
        f"cov bootstrap {boot}": (
            f'cov(r1, r2, method = "bootstrap", boot.n = {boot}, progress = "none")',
            lambda y, a, b: indist_fast.cov_auc(y, a, b, method="bootstrap", n_boot=boot,
                                                progress=False)),
        "var delong": ('var(r1, method = "delong")',
                       lambda y, a, b: indist_fast.var_auc(y, a)),
        "var obuchowski": ('var(r1, method = "obuchowski")',
                           lambda y, a, b: indist_fast.var_auc(y, a, method="obuchowski")),
        f"coords {len(sens)} sensitivities": (
            f'coords(r1, {s}, input = "sensitivity", ret = "all")',
            lambda y, a, b: indist_fast.coords(y, a, sens, input="sensitivity", ret="all")),
        "smooth binormal": ('smooth(r1, method = "binormal")',
                            lambda y, a, b: indist_fast.smooth_roc(y, a)),
        "smooth density": ('smooth(r1, method = "density")',
                           lambda y, a, b: indist_fast.smooth_roc(y, a, method="density")),
    }


def r_seconds(csv: str, expr: str, repeat: int) -> float:
    code = (f'suppressPackageStartupMessages(library(pROC)); d <- read.csv("{csv}"); '
            'r1 <- roc(d$y, d$a, direction = "<", quiet = TRUE); '
            'r2 <- roc(d$y, d$b, direction = "<", quiet = TRUE); '
            f'times <- replicate({repeat}, system.time({expr})[["elapsed"]]); '
            'cat(median(times))')
    done = subprocess.run(["Rscript", "--vanilla", "-"], input=code, capture_output=True,
                          text=True, check=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e4)
    parser.add_argument("--boot", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore", indist_fast.IndistFastWarning)
    n = int(args.rows)
    y, a, b = data(n)
    sens = np.linspace(0.01, 0.99, 1000)
    print(f"# {cpu_name()}, {os.cpu_count()} logical CPUs, numpy {np.__version__}, "
          f"{n:,} rows, median of {args.repeat} repeats")
    print(f"{'case':>28} {'pROC s':>9} {'indist_fast s':>14} {'ratio':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "rows.csv")
        np.savetxt(csv, np.column_stack([y, a, b]), delimiter=",", header="y,a,b",
                   comments="", fmt=["%d", "%.17g", "%.17g"])
        for name, (expr, call) in cases(args.boot, sens).items():
            r = r_seconds(csv, expr, args.repeat)
            ours = float(np.median([seconds(lambda: call(y, a, b))
                                    for _ in range(args.repeat)]))
            print(f"{name:>28} {r:>9.4f} {ours:>14.5f} {r / ours:>8.1f}")


if __name__ == "__main__":
    main()
