"""Hernandez-Orallo, Flach and Ferri, "Threshold Choice Methods: the Missing Link":
score histograms and ROC curves of two models (Figs 1-2), each threshold choice
method's loss curve Q(c) side by side (with the Brier curve, score-driven), the cost
curves with their lower envelope, and the expected losses (Table 2's layout).

The paper's two models (a naive Bayes model and a decision tree on a test set of its
own) are not published; two synthetic models stand in, tuned to its Table 1 (AUC .79
and .67, Brier .33 and .24): one ranks better but is miscalibrated, the other is a
calibrated tree with six distinct scores. The tables print the paper's values beside
ours, and show its point: the better model depends on the threshold choice method
(B under the fixed and score-driven methods, A under the rate-driven one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import ORALLO, Writer, subplots

#: The methods drawn as loss curves, with their settings.
CURVES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("score-fixed", {"t": 0.5}), ("score-uniform", {}), ("score-driven", {}),
    ("rate-uniform", {}), ("rate-driven", {}), ("optimal", {}))


#: The paper's Table 1 (AUC, Brier score) and Table 2 (expected loss of three threshold
#: choice methods under uniform cost proportions), models A and B.
PAPER_TABLE1 = {"auc": (0.79, 0.67), "brier_score": (0.33, 0.24)}
PAPER_TABLE2 = {"score-fixed": (0.510, 0.375), "score-driven": (0.328, 0.231),
                "rate-driven": (0.188, 0.248)}


def models(seed: int = 3, n: int = 1000) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The two stand-in models on one balanced test set: ``{"A": (y, p), "B": (y, p)}``.

    Tuned to the paper's Table 1 on a balanced set (the prevalence its rate-driven
    losses imply: 1/3 + pi0 pi1 (1 - 2 AUC) gives .188 and .248 at AUC .79 and .67
    only with pi0 pi1 = 1/4). A ranks well (AUROC about .79) but is miscalibrated: its
    positives are a narrow normal, and a steep shifted logistic leaves the 0.5
    threshold where it errs on about half the rows (Brier about .33). B is a
    calibrated six-leaf tree of a weaker view (AUROC about .67, Brier about .23): its
    leaves score their share of positives on a separate training draw.
    """
    from statistics import NormalDist
    rng = np.random.default_rng(seed)
    y = np.repeat(np.array([1, 0], dtype=np.int8), [n // 2, n - n // 2])
    rng.shuffle(y)
    narrow = 0.3
    mu = NormalDist().inv_cdf(0.79) * float(np.hypot(1.0, narrow))
    z = np.where(y == 1, mu + narrow * rng.normal(0.0, 1.0, n), rng.normal(0.0, 1.0, n))
    miscalibrated = 1.0 / (1.0 + np.exp(-(3.25 * z - 4.0)))
    # tree-like: six leaves cut at quantiles of a weaker view, each scoring its share of
    # positives on a separate training draw (calibrated, tied)
    view = 0.5
    y_train = (rng.random(8 * n) < 0.5).astype(np.int8)
    z_train = view * y_train + rng.normal(0.0, 1.0, 8 * n)
    cuts = np.quantile(z_train, np.linspace(0, 1, 7)[1:-1])
    leaf_train = np.searchsorted(cuts, z_train)
    share = np.array([y_train[leaf_train == k].mean() for k in range(6)])
    tree = share[np.searchsorted(cuts, view * y + rng.normal(0.0, 1.0, n))]
    return {"A": (y, miscalibrated), "B": (y, tree)}


def write(out: Writer) -> None:
    """Figs 1-2, the loss and cost curves of both models, and the expected losses."""
    import indist_fast as ifa
    from ..metrics import threshold_choice as tc
    data = models()

    fig, axes = subplots(1, 2, figsize=(10, 3.8))
    for ax, (name, (y, p)) in zip(axes, data.items()):
        bins = np.linspace(0, 1, 21)
        # side by side in each bin (overlaid bars would mix their colours)
        ax.hist([p[y == 0], p[y == 1]], bins, color=["tab:red", "tab:blue"],
                label=["negative", "positive"])
        ax.set_title(f"model {name}", loc="left")
        ax.set_xlabel("score")
        ax.set_ylabel("rows")
    axes[0].legend()
    out.figure(fig, "orallo_fig1_histograms.png", ORALLO, "Fig 1",
               "Score histograms by class of two stand-in models tuned to Table 1: A "
               "miscalibrated (AUC ~.79), B a calibrated six-leaf tree (AUC ~.66).")

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
    from matplotlib.lines import Line2D
    axes[0].legend(handles=[Line2D([], [], color="0.75", lw=0.6,
                                   label="cost line of one operating point")]
                   + axes[0].get_legend_handles_labels()[0], fontsize=8, framealpha=1.0,
                   loc="upper right")
    out.figure(fig, "orallo_cost_curves.png", ORALLO, "Section 7",
               "Cost lines of every operating point (grey), their lower envelope (optimal "
               "method) and the Brier curve, for the two models.")

    out.table("orallo_table1_metrics.csv", ["model", "metric", "value", "paper_value"],
              [[name, metric, float(fn(y, p)), PAPER_TABLE1[metric][k]]
               for k, (name, (y, p)) in enumerate(data.items())
               for metric, fn in (("auc", ifa.roc_auc), ("brier_score", tc.brier_score))],
              ORALLO, "Table 1", "AUC and Brier score of the two stand-in models beside the "
              "paper's (its models are not published).")
    rows: list[list[Any]] = []
    for k, (name, (y, p)) in enumerate(data.items()):
        for row in tc.compare_methods(y, p, t=0.5).rows:
            paper = PAPER_TABLE2[row.method][k] if row.method in PAPER_TABLE2 else ""
            rows.append([name, row.method, row.setting, row.expected_loss, paper, row.equals])
    out.table("orallo_table2_expected_loss.csv", ["model", "method", "setting",
                                                  "expected_loss", "paper_value", "equals"],
              rows, ORALLO, "Table 2", "Expected loss under uniform cost proportions of "
              "every threshold choice method for the two stand-in models, the paper's "
              "values beside (fixed, score-driven, rate-driven): B wins fixed and "
              "score-driven, A rate-driven.")
