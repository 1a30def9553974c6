"""The binormal resolving-power study: relative resolution of AUPRC and C(r_b) vs AUROC.

    python benchmarks/studies/resolving_power_study.py [--n 10000] [--repeats 3] [--reps 10000]
                                               [--workers 2] [--out DIR]

Beam, "Resolving power", section 5 and appendix B: prevalence 0.01 ... 0.5, AUROC
0.65 ... 0.95, ``--reps`` replicate samples of N rows per cell, the whole simulation
repeated and the relative resolution ``(delta_M - delta_AUROC) / delta_AUROC``
averaged over the runs (negative: the metric resolves finer than AUROC). The paper's
main study is N = 10,000 averaged over three runs; its appendix adds N = 1,000 (three
runs) and N = 100,000 (one run)::

    python benchmarks/studies/resolving_power_study.py --n 1000 100000 --repeats 3 1

``--repeats`` takes one count for every N or one per N. Prints one table per N and
metric, and writes ``resolving_power_study.png`` (one row of panels per N, when
matplotlib is installed) and ``resolving_power_study.csv`` (every run's value) to
``--out`` (default: beside this script). The full study is heavy (N = 100,000 with
10,000 replicates is 28 x 10^9 rows per run): try ``--reps 200`` first.
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from concurrent.futures import ProcessPoolExecutor

PREVALENCES = (0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
AUROCS = (0.65, 0.75, 0.85, 0.95)
METRICS = (("average_precision", "AUPRC"), ("precision", "C(r_b)"))


def cell(args: tuple[int, int, float, float, int]) -> tuple[int, int, float, float, list]:
    """One run of one cell: the relative resolution of each metric."""
    n, run, auc, prevalence, reps = args
    import warnings
    from indist_fast.metrics.resolving_power import Binormal, compare_metrics
    # one seed per (N, run, cell): runs are independent, and a rerun repeats them
    seed = [n, run, AUROCS.index(auc), PREVALENCES.index(prevalence)]
    with warnings.catch_warnings():
        # a metric whose interval the signal curve cannot reach is NaN, with its note
        warnings.simplefilter("ignore")
        table = compare_metrics(Binormal.for_auc(auc), n=n, prevalence=prevalence, n_rep=reps,
                        seed=seed)
    return n, run, auc, prevalence, [table[m].relative for m, _ in METRICS]


def _repeats_per_n(ns: list[int], repeats: list[int]) -> dict[int, int]:
    if len(repeats) == 1:
        repeats = repeats * len(ns)
    if len(repeats) != len(ns):
        raise SystemExit(f"--repeats takes one count or one per N ({len(ns)}), got "
                         f"{len(repeats)}.")
    if min(repeats) < 1 or min(ns) < 2:
        raise SystemExit("--n must be at least 2 and --repeats at least 1.")
    return dict(zip(ns, repeats))


def _runs(r: int) -> str:
    return f"mean of {r} runs" if r > 1 else "one run"


def _mean(values: list[float]) -> float:
    kept = [v for v in values if v == v]
    return sum(kept) / len(kept) if kept else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10_000],
                        help="rows per sample; several for the appendix (default 10000)")
    parser.add_argument("--repeats", type=int, nargs="+", default=[3],
                        help="runs averaged, one count or one per N (default 3)")
    parser.add_argument("--reps", type=int, default=10_000,
                        help="replicate samples per cell and run (default 10000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)),
                        help="folder of the figure and the CSV")
    args = parser.parse_args()
    runs = _repeats_per_n(args.n, args.repeats)
    jobs = [(n, run, a, p, args.reps) for n, r in runs.items() for run in range(r)
            for a in AUROCS for p in PREVALENCES]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(cell, jobs))
    elapsed = time.perf_counter() - t0
    values: dict[tuple[int, int, float, float], list[float]] = {}
    for n, _, a, p, rel in results:
        for k, v in enumerate(rel):
            values.setdefault((n, k, a, p), []).append(v)
    mean = {key: _mean(v) for key, v in values.items()}
    for n, r in runs.items():
        for k, (_, title) in enumerate(METRICS):
            print(f"\nN = {n:,}, {_runs(r)}: relative resolution of {title} against "
                  "AUROC ((delta_M - delta_AUROC) / delta_AUROC; negative = finer than "
                  "AUROC)")
            print(f"{'AUROC':>6} " + " ".join(f"{p:>8g}" for p in PREVALENCES))
            for a in AUROCS:
                print(f"{a:>6g} " + " ".join(f"{mean[n, k, a, p]:>+8.1%}"
                                             for p in PREVALENCES))
    print(f"\n{len(jobs)} cell runs x {args.reps} replicates in {elapsed:.0f} s "
          f"({args.workers} workers)")
    os.makedirs(args.out, exist_ok=True)
    table = os.path.join(args.out, "resolving_power_study.csv")
    with open(table, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["n", "run", "auroc", "prevalence", "metric", "relative_resolution"])
        for n, run, a, p, rel in results:
            for (metric, _), v in zip(METRICS, rel):
                out.writerow([n, run, a, p, metric, v])
    print(f"table: {table}")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(len(runs), 2, figsize=(10, 4 * len(runs)), sharey="row",
                             squeeze=False)
    for row, (n, r) in zip(axes, runs.items()):
        for k, (ax, (_, title)) in enumerate(zip(row, METRICS)):
            for a in AUROCS:
                ax.plot(PREVALENCES, [100 * mean[n, k, a, p] for p in PREVALENCES], "o-",
                        label=f"AUROC {a:g}")
            ax.axhline(0, color="grey", lw=0.8)
            ax.set_xscale("log")
            ax.set_xlabel("prevalence")
            ax.set_title(f"{title} vs AUROC, N = {n:,} ({_runs(r)})")
        row[0].set_ylabel("relative resolution (%)")
    axes[0][1].legend()
    fig.tight_layout()
    figure = os.path.join(args.out, "resolving_power_study.png")
    fig.savefig(figure, dpi=80)
    print(f"figure: {figure}")


if __name__ == "__main__":
    main()
