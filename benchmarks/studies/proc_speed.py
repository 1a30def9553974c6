"""How much faster than R's pROC are ``ci_bands`` and Venkatraman's test?

    python benchmarks/studies/proc_speed.py                     # both, the sizes below
    python benchmarks/studies/proc_speed.py --only bands --rows 1e5 --boot 2000
    python benchmarks/studies/proc_speed.py --only venkatraman --rows 1e4 --perm 2000

One run, one data set per question, written to a CSV in a temporary folder that both
sides read:

- bands: ``ci_bands(y, s, specificities=0, 0.1, .., 1, n_boot=B)`` against pROC's
  ``ci.se(roc(y, s), specificities=seq(0, 1, .1), boot.n=B)`` (the question asked of
  pROC: 2,000 replicates at 1e5 rows, target >= 20x);
- venkatraman: ``compare(y, a, b, method="venkatraman", n_perm=P)`` (paired) against
  ``roc.test(roc(y, a), roc(y, b), method="venkatraman", boot.n=P)`` (2,000
  permutations at 1e4 rows, target >= 20x).

R times itself with ``system.time`` (elapsed) around the call alone, after reading the
CSV and building the ``roc`` objects; Python times the call alone, after reading the
same CSV. The printed ratio is R's time over ours from this one run (the machine's
load falls on both). Needs ``Rscript`` with pROC (Debian: r-base-core, r-cran-proc).
pROC's Venkatraman test costs about a second per permutation at 1e4 rows: 2,000 take
half an hour; ``--perm 200`` gives the same ratio in minutes (both sides are linear in
the permutations).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time

import numpy as np

import indist_fast

R_PRELUDE = "suppressPackageStartupMessages(library(pROC))\n"


def r_seconds(code: str) -> float:
    """Run ``code`` (which must ``cat`` one elapsed time) in Rscript; return it."""
    done = subprocess.run(["Rscript", "--vanilla", "-"], input=R_PRELUDE + code,
                          capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def write_csv(folder: str, columns: dict[str, np.ndarray]) -> str:
    path = os.path.join(folder, "data.csv")
    header = ",".join(columns)
    np.savetxt(path, np.column_stack(list(columns.values())), delimiter=",",
               header=header, comments="", fmt="%.17g")
    return path


def read_csv(path: str) -> dict[str, np.ndarray]:
    data = np.genfromtxt(path, delimiter=",", names=True)
    return {name: np.asarray(data[name]) for name in data.dtype.names}


def bands(rows: int, boot: int, folder: str) -> None:
    rng = np.random.default_rng(0)
    y = (rng.random(rows) < 0.3).astype(float)
    path = write_csv(folder, {"y": y, "s": rng.normal(size=rows) + y})
    d = read_csv(path)
    points = np.linspace(0, 1, 11)
    t = time.perf_counter()
    indist_fast.ci_bands(d["y"], d["s"], specificities=points, n_boot=boot, progress=False)
    ours = time.perf_counter() - t
    theirs = r_seconds(
        f"d <- read.csv('{path}')\n"
        "r <- roc(d$y, d$s, direction='<', quiet=TRUE)\n"
        f"t <- system.time(ci.se(r, specificities=seq(0, 1, 0.1), boot.n={boot}, "
        "progress='none'))\n"
        "cat(t[['elapsed']])\n")
    print(f"ci_bands vs ci.se, {rows:,} rows, {boot:,} replicates: indist_fast "
          f"{ours:.2f} s, pROC {theirs:.1f} s, ratio {theirs / ours:.0f}x")


def venkatraman(rows: int, perm: int, folder: str) -> None:
    rng = np.random.default_rng(1)
    y = (rng.random(rows) < 0.3).astype(float)
    path = write_csv(folder, {"y": y, "a": rng.normal(size=rows) + y,
                              "b": rng.normal(size=rows) + 0.8 * y})
    d = read_csv(path)
    t = time.perf_counter()
    indist_fast.compare(d["y"], d["a"], d["b"], method="venkatraman", n_perm=perm)
    ours = time.perf_counter() - t
    theirs = r_seconds(
        f"d <- read.csv('{path}')\n"
        "r1 <- roc(d$y, d$a, direction='<', quiet=TRUE)\n"
        "r2 <- roc(d$y, d$b, direction='<', quiet=TRUE)\n"
        f"t <- system.time(roc.test(r1, r2, method='venkatraman', boot.n={perm}, "
        "progress='none'))\n"
        "cat(t[['elapsed']])\n")
    print(f"Venkatraman (paired), {rows:,} rows, {perm:,} permutations: indist_fast "
          f"{ours:.2f} s, pROC {theirs:.1f} s, ratio {theirs / ours:.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("bands", "venkatraman"))
    parser.add_argument("--rows", type=float, help="rows (default 1e5 bands, 1e4 Venkatraman)")
    parser.add_argument("--boot", type=int, default=2000)
    parser.add_argument("--perm", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.only in (None, "bands"):
            bands(int(args.rows or 1e5), args.boot, folder)
        if args.only in (None, "venkatraman"):
            venkatraman(int(args.rows or 1e4), args.perm, folder)


if __name__ == "__main__":
    main()
