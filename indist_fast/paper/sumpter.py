"""Sumpter, "Precision at the indistinguishability threshold" (and its 2022 version):
Figs 2-6 over the nine example sets, each empirical curve drawn with its population
curve (``datasets.nine_populations``), and the table of A, r_b and C(r_b)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import LevelNotReachedWarning
from ._common import SUMPTER, Writer, grid3x3

#: C(r_b) as the paper prints it, by column of the grid (difficult negatives at 5, 7, 9).
PRINTED_C = {5.0: 0.85, 7.0: 0.69, 9.0: 0.50}
LEVELS = (0.4, 0.5, 0.6)


@dataclass
class _Set:
    """One data set: its sample, score map, empirical curves and report, population."""

    name: str
    y: np.ndarray
    score: np.ndarray
    intercept: float
    slope: float
    curves: Any
    report: Any
    population: Any
    x: np.ndarray          # population grid in X
    pop: dict[str, np.ndarray]

    def to_score(self, x: Any) -> Any:
        return self.intercept + self.slope * np.asarray(x)


def _population_curves(mix: Any, x: np.ndarray) -> dict[str, np.ndarray]:
    """v, u, C, B, B+, B-, F1 of a population at each X threshold."""
    v, u = mix.tpr(x), mix.fpr(x)
    c, b = mix.precision(x), mix.b(x)           # (both take arrays)
    b_plus = v * c / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(c + v > 0, 2 * c * v / (c + v), np.nan)
    return {"tpr": v, "fpr": u, "precision": c, "b": b, "b_plus": b_plus,
            "b_minus": b - b_plus, "f1": f1}


def _sets(quick: bool) -> list[_Set]:
    import indist_fast as ifa
    from ..datasets import nine_populations, nine_samples
    pops = nine_populations()
    x = np.linspace(-2.0, 17.0, 60 if quick else 160)
    out = []
    for name, (y, xs, a, b) in nine_samples(0).items():
        score = a + b * xs
        with warnings.catch_warnings():
            # set c never reaches B = 0.6: its r60 is NaN in the table, not a warning
            warnings.simplefilter("ignore", LevelNotReachedWarning)
            report = ifa.evaluate(y, score, levels=LEVELS)
        out.append(_Set(name, y, score, a, b, ifa.curves(y, score), report, pops[name], x,
                        _population_curves(pops[name], x)))
    return out


def write(out: Writer) -> None:
    """Figs 2-6 and the table of the nine sets (seed 0 samples, exact populations)."""
    sets = _sets(out.quick)
    with warnings.catch_warnings():
        # set c's population never reaches B = 0.6 either: NaN in the table, said there
        warnings.simplefilter("ignore", LevelNotReachedWarning)
        _table(out, sets)
    _fig2(out, sets)
    _fig3(out, sets)
    _fig4(out, sets)
    _fig5(out, sets)
    _fig6(out, sets)


def _pop_threshold(s: _Set, level: float) -> float:
    return float(s.population.indistinguishability_threshold(level=level))


def _table(out: Writer, sets: list[_Set]) -> None:
    from ..datasets import NINE_LAYOUT
    header = ["set", "positives", "negatives", "A", "A_population", "r_b", "r_b_population",
              "C_r_b", "C_r_b_population", "C_r_b_printed", "r40", "C_r40", "C_r40_population",
              "r60", "C_r60", "C_r60_population", "C_at_score_0", "tpr_at_score_0",
              "C_at_score_0_population", "lift_r_b"]
    rows = []
    for s in sets:
        rep, mix = s.report, s.population
        pos = int(s.y.sum())
        r_default = -s.intercept / s.slope            # log-odds 0 in X
        at0 = s.score >= 0
        row: list[Any] = [s.name, pos, len(s.y) - pos, rep.auc, mix.auc, rep.threshold,
                          float(s.to_score(_pop_threshold(s, 0.5))), rep.precision,
                          mix.precision_at_indistinguishability(),
                          PRINTED_C[NINE_LAYOUT[s.name][0]]]
        for level in (0.4, 0.6):
            p = rep.at[level]
            row += [p.threshold, p.precision,
                    mix.precision_at_indistinguishability(level=level)]
        row += [float(s.y[at0].mean()) if at0.any() else math.nan,
                float(at0[s.y == 1].mean()), mix.precision(r_default), rep.lift]
        rows.append(row)
    out.table("sumpter_nine_sets.csv", header, rows, SUMPTER, "Figs 2-6 (values)",
              "A, r_b, r40, r60 and C there for the nine sets: sample (seed 0) and exact "
              "population, the paper's printed C(r_b), and the logistic default score 0.")


def _fig2(out: Writer, sets: list[_Set]) -> None:
    fig, axes = grid3x3("Score distributions; r_b (sample, population) and the default "
                        "threshold score 0 (eq. 8)")
    for ax, s in zip(axes.flat, sets):
        bins = np.linspace(s.score.min(), s.score.max(), 50)
        ax.hist(s.score[s.y == 0], bins, color="tab:green", alpha=0.6, label="negative")
        ax.hist(s.score[s.y == 1], bins, color="gold", alpha=0.7, label="positive")
        ax.axvline(s.report.threshold, color="k", ls=":", label="r_b (sample)")
        ax.axvline(float(s.to_score(_pop_threshold(s, 0.5))), color="0.5", ls="--", lw=1,
                   label="r_b (population)")
        ax.axvline(0.0, color="tab:red", ls="-.", lw=1, label="score 0 (eq. 8)")
        ax.set_yscale("log")
        ax.set_xlabel("score (log-odds)")
        ax.set_ylabel("rows")
    axes.flat[0].legend(fontsize=7)
    out.figure(fig, "sumpter_fig2_scores.png", SUMPTER, "Fig 2",
               "Score histograms of the nine sets (log counts) with r_b of the sample and "
               "of the population, and the 'misguided' default threshold score 0 (eqs 7-8).")


def _fig3(out: Writer, sets: list[_Set]) -> None:
    fig, axes = grid3x3("ROC curves: sample (step) and population (dashed)")
    for ax, s in zip(axes.flat, sets):
        c = s.curves
        ax.plot(np.r_[0.0, c.fpr], np.r_[0.0, c.tpr], color="tab:blue", lw=1.2)
        fpr, tpr, _ = s.population.roc_curve(n=200)
        ax.plot(fpr, tpr, "k--", lw=1)
        ax.plot([0, 1], [0, 1], color="0.7", lw=0.8)
        ax.text(0.95, 0.05, f"A = {s.report.auc:.3f}\npopulation {s.population.auc:.3f}",
                ha="right", va="bottom", fontsize=9)
        ax.set_xlabel("false positive rate u")
        ax.set_ylabel("true positive rate v")
    out.figure(fig, "sumpter_fig3_roc.png", SUMPTER, "Fig 3",
               "ROC curves of the nine sets with A, sample against exact population.")


def _fig4(out: Writer, sets: list[_Set]) -> None:
    fig, axes = grid3x3("B(r): sample (blue) and population (black, eq. 15 corrected)")
    for ax, s in zip(axes.flat, sets):
        c = s.curves
        ax.plot(c.thresholds, c.b, color="tab:blue", lw=1.2)
        ax.plot(s.to_score(s.x), s.pop["b"], "k", lw=1)
        ax.axhline(0.5, color="0.4", ls=":")
        ax.axvline(s.report.threshold, color="0.4", ls=":")
        ax.set_xlim(s.score.min(), s.score.max())
        ax.set_ylim(0, 1)
        ax.set_xlabel("threshold r (score)")
        ax.set_ylabel("B(r)")
    out.figure(fig, "sumpter_fig4_b.png", SUMPTER, "Fig 4",
               "B(r) of each set against the threshold, the population curve in black, "
               "the 1/2 line and r_b dotted.")


def _fig5(out: Writer, sets: list[_Set]) -> None:
    fig, axes = grid3x3("Against B(r): precision C (black), tpr v (blue), fpr u (red); "
                        "r_b solid, r40/r60 dotted; C at each in the panel titles")
    for ax, s in zip(axes.flat, sets):
        c = s.curves
        ax.plot(c.b, c.precision, "k", lw=1.2)
        ax.plot(c.b, c.tpr, color="tab:blue", lw=1.2)
        ax.plot(c.b, c.fpr, color="tab:red", lw=1.2)
        ax.plot(s.pop["b"], s.pop["precision"], color="0.5", ls="--", lw=1)
        for level in LEVELS:
            ax.axvline(level, color="0.3", ls="-" if level == 0.5 else ":", lw=0.9)
        # the values in the panel's title: a box inside the axes sits on some curve
        ax.set_title(f"({s.name})  " + ", ".join(
            f"C({name}) {p.precision:.3f}" if p.reached else f"{name}: B < {lv:g}"
            for name, lv, p in (("r_b", 0.5, s.report.at[0.5]), ("r40", 0.4, s.report.at[0.4]),
                                ("r60", 0.6, s.report.at[0.6]))), loc="left", fontsize=8)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("B(r)")
        ax.set_ylabel("C, v, u")
    out.figure(fig, "sumpter_fig5_c_vs_b.png", SUMPTER, "Fig 5",
               "Precision, tpr and fpr against B(r) (parametrised by r), population "
               "precision dashed; lines at B = 0.4, 0.5, 0.6 (r40, r_b, r60).")


def _fig6(out: Writer, sets: list[_Set]) -> None:
    fig, axes = grid3x3("B (black) = B+ (gold) + B- (green); F1 (red); population dashed")
    for ax, s in zip(axes.flat, sets):
        c = s.curves
        xs = s.to_score(s.x)
        for key, color in (("b", "k"), ("b_plus", "goldenrod"), ("b_minus", "tab:green"),
                           ("f1", "tab:red")):
            ax.plot(c.thresholds, getattr(c, key), color=color, lw=1.2)
            ax.plot(xs, s.pop[key], color=color, ls="--", lw=0.8)
        ax.axhline(0.5, color="0.4", ls=":")
        ax.axvline(s.report.threshold, color="0.4", ls=":")
        ax.set_xlim(s.score.min(), s.score.max())
        ax.set_ylim(0, 1)
        ax.set_xlabel("threshold r (score)")
        ax.set_ylabel("B, B+, B-, F1")
    from matplotlib.lines import Line2D
    axes.flat[0].legend(handles=[Line2D([], [], color=c, label=k) for k, c in (
        ("B", "k"), ("B+", "goldenrod"), ("B-", "tab:green"), ("F1", "tab:red"))]
        + [Line2D([], [], color="0.4", ls="--", lw=0.8, label="population")], fontsize=7)
    out.figure(fig, "sumpter_fig6_b_split.png", SUMPTER, "Fig 6",
               "B(r) split into B+ (labelled copy positive) and B- (negative), with F1 "
               "and the 1/2 line; dashed lines are the populations.")
