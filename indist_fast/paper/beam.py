"""Beam, "Resolving power": the height example (Fig 1), interval mapping through a
signal curve (Figs 2 and 7), the binormal signal curves (Fig 3), the relative
resolution of AUPRC against AUROC (Fig 4; Fig 9 at N = 1,000, three runs averaged,
and N = 100,000, one run, as the paper's appendix B), Hanley and McNeil's standard
error (Fig 5) and the linear approximation (Fig 8, appendix A).

AUPRC here is the step-sum average precision (``average_precision``); the paper
estimated it with PRROC's Davis-Goadrich interpolation, a slightly different number."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..errors import IndistFastWarning
from ._common import BEAM, Writer, subplots

PREVALENCES = (0.01, 0.05, 0.10, 0.20, 0.30, 0.40, 0.50)
QUALITY = {"poor": 0.65, "fair": 0.75, "good": 0.85, "excellent": 0.95}
METRICS = ("auc", "average_precision")
#: Women and men's heights (cm), the paper's Fig 1.
HEIGHT = ((164.7, 7.1), (178.4, 7.6), 171.0)


def _settings(quick: bool, n_rep: int | None, seed: int) -> dict[str, Any]:
    """Replicates and runs. The paper draws 10,000 replicates and averages three runs
    (one at N = 100,000); by default 500 replicates (100 at N = 100,000) keep the whole
    command within a few minutes at the price of noisier quantiles (the CSVs show each
    condition's intervals). ``n_rep`` sets every condition's replicates."""
    if quick:
        cfg = {"n_rep": 20, "runs": 1, "n_rep_large": 10, "runs_small": 1}
    else:
        cfg = {"n_rep": 500, "runs": 3, "n_rep_large": 100, "runs_small": 3}
    if n_rep is not None:
        cfg["n_rep"] = cfg["n_rep_large"] = n_rep
    cfg["seed"] = seed
    return cfg


def _reps(n_rep: int, runs: int = 1) -> str:
    return f"{n_rep:,} replicates" + (f" x {runs} runs" if runs > 1 else "")


def write(out: Writer) -> None:
    """Every Beam figure and table this library can compute."""
    cfg = _settings(out.quick, out.n_rep, out.seed)
    _fig1(out)
    _fig3(out)
    _fig5(out)
    main = _study(10_000, cfg["n_rep"], cfg["runs"], cfg["seed"])
    _fig4(out, main, cfg)
    _fig9(out, cfg)
    _fig2(out, cfg)
    _fig7(out, cfg)
    _fig8(out, cfg)


def _fig1(out: Writer) -> None:
    from ..population import Mixture
    (mw, sw), (mm, sm), t = HEIGHT
    # men are the positive class (the taller); equal weights
    pop = Mixture([(1.0, mm, sm)], [(1.0, mw, sw)])
    x = np.linspace(130, 215, 400)
    fig, ax = subplots(figsize=(6, 3.8))
    for (m, s), color, label in (((mw, sw), "tab:orange", "women"),
                                 ((mm, sm), "tab:blue", "men")):
        ax.plot(x, np.exp(-0.5 * ((x - m) / s) ** 2) / (s * math.sqrt(2 * math.pi)),
                color=color, label=label)
    ax.axvline(t, color="k", ls="--", lw=1)
    # left of both curves, where the densities are near 0
    ax.text(0.02, 0.96, f"threshold {t:g} cm (dashed)\nhit rate {pop.tpr(t):.3f}\n"
            f"false alarms {pop.fpr(t):.3f}", fontsize=8, va="top", transform=ax.transAxes)
    ax.set_title(f"Height as a classifier of sex: AUROC {pop.auc:.3f}")
    ax.set_xlabel("height (cm)")
    ax.set_ylabel("density")
    ax.legend()
    out.figure(fig, "beam_fig1_height.png", BEAM, "Fig 1",
               "Binormal height model (women 164.7 +- 7.1 cm, men 178.4 +- 7.6 cm), the "
               "171 cm threshold and its rates; AUROC 0.906.")


def _fig3(out: Writer) -> None:
    from ..population import Binormal
    grid = np.linspace(0.5, 0.99, 50)
    rows = []
    fig, ax = subplots(figsize=(5.5, 5))
    for p in PREVALENCES:
        auprc = [Binormal.for_auc(a).average_precision(p) for a in grid]
        ax.plot(grid, auprc, label=f"prevalence {p:g}")
        rows += [[p, float(a), v] for a, v in zip(grid, auprc)]
    ax.set_xlabel("AUROC")
    ax.set_ylabel("AUPRC (population)")
    ax.set_title("Binormal signal curves")
    ax.legend(fontsize=8)
    out.figure(fig, "beam_fig3_signal_curves.png", BEAM, "Fig 3",
               "Binormal signal curves: population AUPRC against AUROC for each prevalence.")
    out.table("beam_fig3_signal_curves.csv", ["prevalence", "auroc", "auprc"], rows, BEAM,
              "Fig 3", "The signal curves' values (equal-variance binormal, exact AUPRC).")


def _fig5(out: Writer) -> None:
    from ..inference.delong import hanley_mcneil_se
    n = 10_000
    grid = np.linspace(0.5, 0.99, 99)
    rows = []
    fig, ax = subplots(figsize=(5.5, 4.5))
    for p in PREVALENCES:
        n_pos = round(n * p)
        se = [hanley_mcneil_se(float(a), n_pos, n - n_pos) for a in grid]
        ax.plot(grid, se, label=f"prevalence {p:g}")
        rows += [[p, float(a), s, float(a) - 1.96 * s, float(a) + 1.96 * s]
                 for a, s in zip(grid, se)]
    ax.set_xlabel("AUROC")
    ax.set_ylabel("Hanley-McNeil standard error")
    ax.set_title("Standard error of AUROC, N = 10,000")
    ax.legend(fontsize=8)
    out.figure(fig, "beam_fig5_hanley_mcneil.png", BEAM, "Fig 5",
               "Hanley and McNeil's standard error of AUROC against AUROC, by prevalence "
               "(N = 10,000).")
    out.table("beam_fig5_hanley_mcneil.csv", ["prevalence", "auroc", "se", "normal_low",
                                              "normal_high"], rows, BEAM, "Fig 5",
              "Standard errors and the normal-approximation 95% intervals AUROC +- 1.96 SE.")


def _relative(n: int, p: float, auc: float, n_rep: int, seed: Any) -> tuple[float, Any]:
    """AUPRC's relative resolution against AUROC for one binormal condition."""
    from ..population import Binormal
    from ..metrics.resolving_power import compare_metrics
    with warnings.catch_warnings():
        # an interval the signal curve cannot reach is NaN in the table, with its note
        warnings.simplefilter("ignore", IndistFastWarning)
        table = compare_metrics(Binormal.for_auc(auc), METRICS, n=n, prevalence=p, n_rep=n_rep,
                        seed=seed)
    return table["average_precision"].relative, table


def _study(n: int, n_rep: int, runs: int, seed: int
           ) -> dict[tuple[float, float], dict[str, Any]]:
    """Every prevalence and quality: relative resolution averaged over ``runs``, and
    the first run's AUROC interval."""
    out = {}
    for i, p in enumerate(PREVALENCES):
        for j, auc in enumerate(QUALITY.values()):
            rel, tables = [], []
            for run in range(runs):
                r, t = _relative(n, p, auc, n_rep, (seed, n, i, j, run))
                rel.append(r)
                tables.append(t)
            out[(p, auc)] = {"relative": float(np.nanmean(rel)) if not all(
                math.isnan(r) for r in rel) else math.nan, "runs": rel, "table": tables[0]}
    return out


def _grid_panel(ax: Any, study: dict[tuple[float, float], dict[str, Any]], title: str) -> None:
    aucs = list(QUALITY.values())
    for p in PREVALENCES:
        ax.plot(aucs, [100 * study[(p, a)]["relative"] for a in aucs], marker="o",
                label=f"prevalence {p:g}")
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xticks(aucs, [f"{k}\n{a:g}" for k, a in QUALITY.items()])
    ax.set_xlabel("model quality (AUROC)")
    ax.set_ylabel("AUPRC vs AUROC resolution (%)")
    ax.set_title(title, fontsize=10)


def _study_rows(study: dict[tuple[float, float], dict[str, Any]], n: int, n_rep: int,
                seed: int) -> list[list[Any]]:
    rows = []
    for (p, auc), cell in study.items():
        t = cell["table"]
        rows.append([n, p, auc, n_rep, len(cell["runs"]), seed, cell["relative"],
                     cell["runs"][0],
                     *t["auc"].interval, *t["average_precision"].interval,
                     *t["average_precision"].auc_interval])
    return rows


_STUDY_HEADER = ["n", "prevalence", "auroc", "replicates", "runs", "seed",
                 "relative_resolution_mean_of_runs", "relative_resolution_run1",
                 "auroc_low",
                 "auroc_high", "auprc_low", "auprc_high", "auprc_on_auroc_low",
                 "auprc_on_auroc_high"]


def _fig4(out: Writer, study: dict[tuple[float, float], dict[str, Any]],
          cfg: dict[str, Any]) -> None:
    fig, ax = subplots(figsize=(6.5, 4.8))
    _grid_panel(ax, study, f"N = 10,000; {_reps(cfg['n_rep'], cfg['runs'])}"
                + (" averaged" if cfg["runs"] > 1 else "")
                + (" (quick run)" if out.quick else ""))
    ax.legend(fontsize=7, ncol=2)
    reps = _reps(cfg["n_rep"], cfg["runs"])
    out.figure(fig, "beam_fig4_relative_resolution.png", BEAM, "Fig 4",
               "Relative resolution of AUPRC (step-sum average precision) against AUROC "
               "by prevalence and model quality, binormal, N = 10,000 (positive: AUPRC "
               "resolves worse).", reps)
    out.table("beam_fig4_relative_resolution.csv", _STUDY_HEADER,
              _study_rows(study, 10_000, cfg["n_rep"], cfg["seed"]),
              BEAM, "Fig 4", "Relative resolution (mean of the runs, as plotted, and the "
              "first run's) with the first run's noise intervals behind it (AUPRC's also "
              "mapped onto the AUROC scale).", reps)


def _fig9(out: Writer, cfg: dict[str, Any]) -> None:
    # appendix B: three runs averaged at N = 1,000, one run at N = 100,000
    small = _study(1_000, cfg["n_rep"], cfg["runs_small"], cfg["seed"])
    large = _study(100_000, cfg["n_rep_large"], 1, cfg["seed"])
    fig, axes = subplots(2, 1, figsize=(6.5, 8.5))
    quick = " (quick run)" if out.quick else ""
    _grid_panel(axes[0], small, f"N = 1,000; {_reps(cfg['n_rep'], cfg['runs_small'])}"
                + (" averaged" if cfg["runs_small"] > 1 else "") + quick)
    _grid_panel(axes[1], large, f"N = 100,000; {_reps(cfg['n_rep_large'])}, one run"
                + quick)
    axes[0].legend(fontsize=7, ncol=2)
    reps = (f"{_reps(cfg['n_rep'], cfg['runs_small'])} at N = 1,000; "
            f"{_reps(cfg['n_rep_large'])} at N = 100,000")
    out.figure(fig, "beam_fig9_sample_sizes.png", BEAM, "Fig 9",
               "The Fig 4 study at N = 1,000 (top, runs averaged) and N = 100,000 (bottom, "
               "one run, as in the paper's appendix B).", reps)
    out.table("beam_fig9_sample_sizes.csv", _STUDY_HEADER,
              _study_rows(small, 1_000, cfg["n_rep"], cfg["seed"])
              + _study_rows(large, 100_000, cfg["n_rep_large"], cfg["seed"]), BEAM, "Fig 9",
              "Relative resolution at N = 1,000 (mean over runs) and 100,000 (one run).",
              reps)


def _mapping_panel(ax: Any, signal: Any, tables: list[Any], colors: list[str]) -> None:
    """The signal curve with each model's AUPRC interval mapped onto AUROC."""
    ax.plot(signal.auc, signal.values["average_precision"], "k", lw=1.2)
    for t, color in zip(tables, colors):
        row, ref = t["average_precision"], t["auc"]
        (m_lo, m_hi), (a_lo, a_hi) = row.interval, row.auc_interval
        for m, a in ((m_lo, a_lo), (m_hi, a_hi)):
            if math.isfinite(a):
                ax.plot([signal.auc[0], a, a], [m, m, 0], color=color, ls="--", lw=0.9)
        ax.axvspan(*ref.interval, color=color, alpha=0.12)
        ax.text(0.02, 0.97 - 0.1 * colors.index(color),
                f"AUROC {t.auc:.3f}: AUROC delta {ref.delta:.3f}, AUPRC delta {row.delta:.3f}",
                transform=ax.transAxes, fontsize=8, color=color, va="top")
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    ax.legend(handles=[Line2D([], [], color="k", lw=1.2, label="signal curve"),
                       Patch(color="0.5", alpha=0.25, label="AUROC's 95% noise interval"),
                       Line2D([], [], color="0.3", ls="--", lw=0.9,
                              label="AUPRC's 95% interval, mapped to AUROC")],
              loc="lower right", fontsize=7)
    ax.set_xlabel("AUROC")
    ax.set_ylabel("AUPRC")
    ax.set_ylim(bottom=0)


def _fig2(out: Writer, cfg: dict[str, Any]) -> None:
    from ..population import Binormal
    from ..metrics.resolving_power import signal_curve
    p, n = 0.05, 10_000
    tables = [_relative(n, p, auc, cfg["n_rep"], (cfg["seed"], 2, k))[1]
              for k, auc in enumerate((0.7, 0.9))]
    signal = signal_curve(Binormal(0.0), METRICS, np.linspace(0.5, 0.99, 99), prevalence=p)
    fig, ax = subplots(figsize=(6, 5))
    _mapping_panel(ax, signal, tables, ["tab:blue", "tab:orange"])
    ax.set_title(f"Mapping 95% intervals through the signal curve\n(prevalence {p:g}, "
                 f"N = {n:,}; {_reps(cfg['n_rep'])}{', quick run' if out.quick else ''})",
                 fontsize=9)
    out.figure(fig, "beam_fig2_interval_mapping.png", BEAM, "Fig 2",
               "AUPRC's 95% noise interval mapped through the binormal signal curve onto "
               "AUROC (dashed) beside AUROC's own interval (shaded), at AUROC 0.7 and 0.9.",
               _reps(cfg["n_rep"]))


def _fig7(out: Writer, cfg: dict[str, Any]) -> None:
    from ..population import Binormal
    from ..metrics.resolving_power import Empirical, compare_metrics, signal_curve
    # the readmissions data are not public: a binormal sample with its AUROC (.646) and
    # about its AUPRC (.166) stands in as the empirical population
    y, s = Binormal.for_auc(0.646).sample(2_000, 0.1, np.random.default_rng(7))
    model = Empirical(y, s, scale="scores")       # Beam shifts the scores as given
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndistFastWarning)
        table = compare_metrics(model, METRICS, n_rep=cfg["n_rep"], seed=(cfg["seed"], 7))
    signal = signal_curve(model, METRICS, np.linspace(0.54, 0.92, 77))
    fig, ax = subplots(figsize=(6, 5))
    _mapping_panel(ax, signal, [table], ["tab:blue"])
    ax.plot([table.auc], [_model_ap(model)], "ko")
    ax.set_title("Empirical signal curve (positive scores shifted), stand-in data",
                 fontsize=9)
    out.figure(fig, "beam_fig7_empirical_mapping.png", BEAM, "Fig 7",
               f"Empirical signal curve (every positive score shifted) of a 2,000-row sample "
               f"(AUROC {table.auc:.3f}) of a binormal population with the readmissions "
               f"model's AUROC .646 and prevalence .1, standing in for those unpublished "
               f"data, with the AUPRC interval mapped onto AUROC.", _reps(cfg["n_rep"]))


def _model_ap(model: Any) -> float:
    """The starting model's average precision (the dot on Fig 7)."""
    import indist_fast as ifa
    y, s = model.scores(0.0)
    return float(ifa.average_precision(y, s))


def _fig8(out: Writer, cfg: dict[str, Any]) -> None:
    """Appendix A: the linear approximation. Axes flipped (AUPRC across, AUROC up), the
    signal curve near the evaluation point and its tangent there; the resolution read
    from standard errors and the slope beside the one read through the curve."""
    from ..population import Binormal
    from ..metrics.resolving_power import signal_curve
    p, n, at = 0.05, 10_000, 0.8
    _, table = _relative(n, p, at, cfg["n_rep"], (cfg["seed"], 8))
    signal = signal_curve(Binormal.for_auc(at), METRICS, np.linspace(0.6, 0.95, 71),
                          prevalence=p)
    ap = signal.values["average_precision"]
    here = float(np.interp(at, signal.auc, ap))
    slope = signal.slope("average_precision", at)          # d AUPRC / d AUROC
    fig, ax = subplots(figsize=(6, 5))
    ax.plot(ap, signal.auc, "k", lw=1.2, label="signal curve")
    # the tangent within the curve's AUROC range (beyond it the line leaves [0, 1])
    y = np.array([max(signal.auc[0], at - here / slope), signal.auc[-1]])   # AUPRC >= 0
    ax.plot(here + (y - at) * slope, y, color="tab:red", lw=1,
            label=f"tangent at AUROC {at:g}: dAUROC/dAUPRC = {1 / slope:.2f} "
                  f"(dAUPRC/dAUROC = {slope:.2f})")
    ax.plot([here], [at], "ko")
    row = table["average_precision"]
    ax.text(0.97, 0.05, f"AUPRC resolution on the AUROC scale\n"
            f"linear (2 x 1.96 SE of AUPRC / (dAUPRC/dAUROC)): {row.linear_delta:.4f}\n"
            f"through the curve: {row.delta:.4f}\nAUROC's own: {table['auc'].delta:.4f}",
            transform=ax.transAxes, ha="right", va="bottom", fontsize=8)
    ax.set_xlabel("AUPRC")
    ax.set_ylabel("AUROC")
    ax.set_title(f"Linear approximation (binormal, prevalence {p:g}, N = {n:,})",
                 fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    out.figure(fig, "beam_fig8_linear_approximation.png", BEAM, "Fig 8",
               "Appendix A's linear approximation with the axes flipped: the signal curve's "
               "tangent at the evaluation point maps AUPRC's standard error onto AUROC "
               "(the paper illustrates it with its toy metric AUSGC; here AUPRC).",
               _reps(cfg["n_rep"]))
