"""The binormal resolving-power study: relative resolution of AUPRC and C(r_b) vs AUROC.

    python benchmarks/resolving_power_study.py [--reps 10000] [--workers 2]

N = 10,000 rows per sample; prevalence 0.01 ... 0.5; AUROC 0.65 ... 0.95; 10,000
replicate samples per cell. Prints, per cell, the relative resolution
``(delta_M - delta_AUROC) / delta_AUROC`` (negative: the metric resolves finer than
AUROC), the total time, and writes ``resolving_power_study.png`` beside this script
when matplotlib is installed.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor


PREVALENCES = (0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
AUROCS = (0.65, 0.75, 0.85, 0.95)
N = 10_000


def cell(args: tuple[float, float, int, int]) -> tuple[float, float, float, float]:
    auc, prevalence, reps, seed = args
    from indist_fast.resolving_power import Binormal, compare
    table = compare(Binormal.for_auc(auc), n=N, prevalence=prevalence, n_rep=reps,
                    seed=seed)
    return auc, prevalence, table["average_precision"].relative, table["precision"].relative


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    jobs = [(a, p, args.reps, 1000 * i + j) for i, a in enumerate(AUROCS)
            for j, p in enumerate(PREVALENCES)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(cell, jobs))
    elapsed = time.perf_counter() - t0
    ap = {(a, p): r for a, p, r, _ in results}
    cr = {(a, p): r for a, p, _, r in results}
    for title, table in (("AUPRC", ap), ("C(r_b)", cr)):
        print(f"\nrelative resolution of {title} against AUROC "
              "((delta_M - delta_AUROC) / delta_AUROC; negative = finer than AUROC)")
        print(f"{'AUROC':>6} " + " ".join(f"{p:>8g}" for p in PREVALENCES))
        for a in AUROCS:
            print(f"{a:>6g} " + " ".join(f"{table[a, p]:>+8.1%}" for p in PREVALENCES))
    print(f"\n{len(jobs)} cells x {args.reps} replicates of N={N:,} in {elapsed:.0f} s "
          f"({args.workers} workers)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, (title, table) in zip(axes, (("AUPRC", ap), ("C(r_b)", cr))):
        for a in AUROCS:
            ax.plot(PREVALENCES, [100 * table[a, p] for p in PREVALENCES], "o-",
                    label=f"AUROC {a:g}")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("prevalence")
        ax.set_title(f"{title} vs AUROC")
    axes[0].set_ylabel("relative resolution (%)")
    axes[1].legend()
    fig.tight_layout()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "resolving_power_study.png")
    fig.savefig(out, dpi=80)
    print(f"figure: {out}")


if __name__ == "__main__":
    main()
