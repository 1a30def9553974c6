"""The ROC blog post: a binormal ROC curve with a few thresholds marked on it and on
the class score densities (the interactive demo's picture, still)."""

from __future__ import annotations

import math

import numpy as np

from ._common import ROC_POST, Writer, subplots

#: Signal N(1.5, 1) against background N(0, 1); the marked thresholds.
MU = 1.5
THRESHOLDS = (-0.5, 0.5, 1.0, 2.0)


def write(out: Writer) -> None:
    """The ROC with marked thresholds and the table of their rates."""
    from ..population import Binormal
    model = Binormal(MU)
    fig, (left, right) = subplots(1, 2, figsize=(10, 4.3))
    x = np.linspace(-4, 5.5, 400)
    for m, color, label in ((0.0, "tab:red", "background N(0, 1)"),
                            (MU, "tab:blue", f"signal N({MU:g}, 1)")):
        left.plot(x, np.exp(-0.5 * (x - m) ** 2) / math.sqrt(2 * math.pi), color=color,
                  label=label)
    fpr, tpr, _ = model.roc_curve(n=300)
    right.plot(fpr, tpr, "k")
    right.plot([0, 1], [0, 1], color="0.7", lw=0.8)
    rows = []
    for k, t in enumerate(THRESHOLDS):
        color = ("C2", "C4", "C5", "C6")[k]     # C3 is the background's red
        u, v = model.fpr(t), model.tpr(t)
        left.axvline(t, color=color, ls="--", lw=1)
        right.plot([u], [v], "o", color=color, label=f"threshold {t:g}: tpr {v:.2f}, "
                   f"fpr {u:.2f}")
        rows.append([t, v, u, model.precision(t, 0.5)])
    left.set_xlabel("score")
    left.set_ylabel("density")
    left.legend(fontsize=8)
    right.set_xlabel("false positive rate")
    right.set_ylabel("true positive rate")
    right.set_title(f"binormal ROC, AUC {model.auc:.3f}", fontsize=10)
    right.legend(fontsize=8, loc="lower right")
    right.set_aspect("equal")
    out.figure(fig, "roc_post_binormal_roc.png", ROC_POST, "ROC demo",
               "Class score densities with four thresholds and the binormal ROC curve with "
               "the same thresholds marked.")
    out.table("roc_post_thresholds.csv", ["threshold", "tpr", "fpr",
                                          "precision_at_prevalence_0.5"],
              rows, ROC_POST, "ROC demo", "The marked thresholds' rates, and the precision "
              "each would have if half the population were signal.")
