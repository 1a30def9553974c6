"""Two models on one data set: ROC, precision-recall and B(r) overlaid, legends naming them.

Run from the repository root (needs matplotlib; ``PYTHONPATH=.`` when the package is
built in place rather than installed)::

    python examples/overlay_models.py                      # writes docs/overlay_two_models.png
    python examples/overlay_models.py --out /tmp/fig.png

The data are simulated at a 5% base rate. Model "A" separates the bulk of easy
negatives well but leaves a tail of hard negatives among the positives; model "B" ranks
easy and hard negatives alike, moderately. A has the higher AUC; B has the higher
precision where its positives are indistinguishable from what it labels, C(r_b), the
number that matters when only the top of the ranking is acted on.
"""

from __future__ import annotations

import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import indist_fast  # noqa: E402
from indist_fast import plot  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, os.pardir, "docs", "overlay_two_models.png")


def simulate(n: int = 20_000, base_rate: float = 0.05, seed: int = 7) -> tuple[
        np.ndarray, dict[str, np.ndarray]]:
    """Labels and two models' probabilities for the same rows."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < base_rate
    hard = ~y & (rng.random(n) < 0.08)          # negatives that look like positives to A
    # A: easy negatives far below, hard negatives mixed in with the positives
    a = np.where(y, rng.normal(1.5, 1.0, n), np.where(hard, rng.normal(1.5, 1.0, n),
                                                      rng.normal(-2.0, 1.0, n)))
    # B: one moderate shift for every negative, hard or not
    b = np.where(y, rng.normal(2.2, 1.0, n), rng.normal(0.0, 1.0, n))
    to_probability = lambda x: 1.0 / (1.0 + np.exp(-(x - 2.0)))  # noqa: E731
    return y, {"model A": to_probability(a), "model B": to_probability(b)}


def figure(y: np.ndarray, models: dict[str, np.ndarray]) -> plt.Figure:
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.4))
    colors = {"model A": "tab:blue", "model B": "tab:orange"}
    plot.roc(y, models, ax=axes[0], color=colors)
    plot.pr(y, models, ax=axes[1], color=colors)
    plot.b_curve(y, models, ax=axes[2], color=colors)
    axes[0].set_title("ROC")
    axes[1].set_title("precision-recall")
    axes[2].set_title("B(r): r_b where B crosses 1/2")
    fig.suptitle(f"Two models, {len(y):,} rows, base rate {y.mean():.1%}")
    fig.tight_layout()
    return fig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT, help="PNG to write")
    args = parser.parse_args()
    y, models = simulate()
    for name, s in models.items():
        r = indist_fast.evaluate(y, s)
        print(f"{name}: AUC {r.auc:.3f}  AP {r.average_precision:.3f}  "
              f"r_b {r.threshold:.3f}  C(r_b) {r.precision:.3f}")
    figure(y, models).savefig(args.out, dpi=90)
    print(f"figure: {os.path.normpath(args.out)}")


if __name__ == "__main__":
    main()
