"""Hernandez-Orallo, Flach and Ferri, "Threshold Choice Methods: the Missing Link":
score histograms and ROC curves of two models (Figs 1-2), each threshold choice
method's loss curve Q(c) side by side (with the Brier curve, score-driven), the cost
curves with their lower envelope, and the expected losses (Table 2's layout).

The paper's two models (a naive Bayes model and a decision tree on a test set of its
own) are not published; two synthetic models stand in with the same contrast: one
ranks well but is overconfident (scores pushed to 0 and 1), the other is a tree-like
calibrated model with a few distinct scores.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import ORALLO, Writer, subplots

#: The methods drawn as loss curves, with their settings.
CURVES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("score-fixed", {"t": 0.5}), ("score-uniform", {}), ("score-driven", {}),
    ("rate-uniform", {}), ("rate-driven", {}), ("optimal", {}))


def models(seed: int = 3, n: int = 600) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The two stand-in models on one test set: ``{"A": (y, p), "B": (y, p)}``."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(np.int8)
    z = rng.normal(0.0, 1.0, n) + 1.5 * y                 # the shared evidence
    overconfident = 1.0 / (1.0 + np.exp(-(3.0 * z - 2.2)))
    # tree-like: six leaves cut at quantiles of a noisier view of z, each scoring
    # its share of positives on a separate training draw (calibrated, tied)
    y_train = (rng.random(4 * n) < 0.4).astype(np.int8)
    z_train = rng.normal(0.0, 1.3, 4 * n) + 1.5 * y_train
    cuts = np.quantile(z_train, np.linspace(0, 1, 7)[1:-1])
    leaf_train = np.searchsorted(cuts, z_train)
    share = np.array([y_train[leaf_train == k].mean() for k in range(6)])
    noisy = z + rng.normal(0.0, 0.8, n)
    tree = share[np.searchsorted(cuts, noisy)]
    return {"A": (y, overconfident), "B": (y, tree)}


def write(out: Writer) -> None:
    """Figs 1-2, the loss and cost curves of both models, and the expected losses."""
    import indist_fast as ifa
    from .. import threshold_choice as tc
    data = models()

    fig, axes = subplots(1, 2, figsize=(10, 3.8))
    for ax, (name, (y, p)) in zip(axes, data.items()):
        bins = np.linspace(0, 1, 21)
        ax.hist(p[y == 0], bins, color="tab:red", alpha=0.55, label="negative")
        ax.hist(p[y == 1], bins, color="tab:blue", alpha=0.55, label="positive")
        ax.set_title(f"model {name}", loc="left")
        ax.set_xlabel("score")
    axes[0].legend()
    out.figure(fig, "orallo_fig1_histograms.png", ORALLO, "Fig 1",
               "Score histograms by class of two stand-in models: A overconfident, B a "
               "calibrated six-leaf tree.")

    fig, axes = subplots(1, 2, figsize=(9, 4.3))
    for ax, (name, (y, p)) in zip(axes, data.items()):
        c = ifa.curves(y, p)
        hull = tc.roc_convex_hull(y, p)
        ax.plot(np.r_[0.0, c.fpr], np.r_[0.0, c.tpr], color="tab:blue", label="ROC")
        ax.plot(hull.fpr, hull.tpr, "k--", lw=1, label="convex hull")
        ax.plot([0, 1], [0, 1], color="0.7", lw=0.8)
        ax.set_title(f"model {name}: AUC {ifa.roc_auc(y, p):.3f}", loc="left")
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
        ax.set_aspect("equal")
    axes[0].legend(loc="lower right")
    out.figure(fig, "orallo_fig2_roc.png", ORALLO, "Fig 2",
               "ROC curves of the two stand-in models with their convex hulls.")

    c_grid = np.linspace(0, 1, 201)
    fig, axes = subplots(1, 2, figsize=(11, 4.3), sharey=True)
    for ax, (name, (y, p)) in zip(axes, data.items()):
        for method, kw in CURVES:
            q = tc.loss_curve(y, p, method, **kw)
            label = f"{method} (Brier curve)" if method == "score-driven" else method
            ax.plot(c_grid, q(c_grid), label=label)
        ax.set_title(f"model {name}", loc="left")
        ax.set_xlabel("cost proportion c")
    axes[0].set_ylabel("loss Q(c)")
    axes[0].legend(fontsize=8)
    out.figure(fig, "orallo_loss_curves.png", ORALLO, "Sections 4-6",
               "Loss Q(c) of each threshold choice method for the two models side by side; "
               "score-driven is the Brier curve, optimal the lower envelope.")

    fig, axes = subplots(1, 2, figsize=(11, 4.3), sharey=True)
    for ax, (name, (y, p)) in zip(axes, data.items()):
        cc = tc.cost_curves(y, p)
        lines = cc(c_grid)
        ax.plot(c_grid, lines.T, color="0.75", lw=0.6)
        ax.plot(cc.envelope_c, cc.envelope_loss, "k", lw=1.6, label="lower envelope")
        if cc.brier is not None:
            ax.plot(c_grid, cc.brier(c_grid), color="tab:orange", label="Brier curve")
        ax.set_title(f"model {name}", loc="left")
        ax.set_xlabel("cost proportion c")
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("loss Q(c)")
    axes[0].legend(fontsize=8)
    out.figure(fig, "orallo_cost_curves.png", ORALLO, "Section 7",
               "Cost lines of every operating point (grey), their lower envelope (optimal "
               "method) and the Brier curve, for the two models.")

    rows: list[list[Any]] = []
    for name, (y, p) in data.items():
        for row in tc.compare_methods(y, p, t=0.5).rows:
            rows.append([name, row.method, row.setting, row.expected_loss, row.equals])
    out.table("orallo_table2_expected_loss.csv", ["model", "method", "setting",
                                                  "expected_loss", "equals"], rows, ORALLO,
              "Table 2", "Expected loss under uniform cost proportions of every threshold "
              "choice method for the two stand-in models (Table 2's layout).")
