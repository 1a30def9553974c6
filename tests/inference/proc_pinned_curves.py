"""Values computed by R's pROC 1.18 (R 4.2) for the curve readings and curve tests:
partial AUCs, ``coords`` at a specificity or sensitivity, Venkatraman's statistic,
the unpaired DeLong test with Welch's degrees of freedom (deterministic), and the
bootstrap and permutation results (``ci.se``, ``ci.sp``, ``ci.thresholds``, the
specificity and sensitivity tests, Venkatraman's p-value, ``ci.auc`` of a partial AUC;
statistical: one seeded R run each).

The data sets are made by seeded NumPy (``data_sets``) and handed to R as exact
literals; ``R_EXACT`` and ``R_BOOT`` are the R code, formatted by ``r_code``. To
regenerate the values: ``python tests/inference/proc_pinned_curves.py`` (needs
Rscript with pROC) prints ``PINNED``.
"""

from __future__ import annotations

import math

import numpy as np

NAN = math.nan

#: Partial AUC ranges (low, high), each read with both focuses, raw and corrected.
RANGES = ((0.8, 1.0), (0.6, 0.9), (0.1, 0.35))
#: Where the sensitivity (at specificities) and specificity (at sensitivities) are read.
POINTS = (0.0, 0.25, 0.5, 0.9, 1.0)
#: Points of the bootstrap intervals and tests.
BAND_POINTS = (0.5, 0.9)
THRESHOLD = 0.5
N_BOOT = 2000


def data_sets() -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Labels and two models' scores of the same rows, per data set."""
    out = {}
    rng = np.random.default_rng(20261128)
    n = 200
    y = rng.random(n) < 0.4
    out["binormal"] = (y, rng.normal(size=n) + 1.2 * y, rng.normal(size=n) + 0.6 * y)
    n = 150
    y = rng.random(n) < 0.5
    out["tied"] = (y, np.round(rng.normal(size=n) + y, 1), np.round(rng.normal(size=n)
                                                                     + 0.5 * y, 0))
    y = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0], bool)
    out["tiny"] = (y, np.array([.1, .9, .3, .7, .35, .4, .2, .8, .6, .5, .05, .3]),
                   np.array([.2, .6, .1, .9, .3, .5, .4, .7, .8, .45, .15, .35]))
    n = 400
    y = np.zeros(n, bool)
    y[rng.choice(n, 20, replace=False)] = True
    out["rare"] = (y, rng.normal(size=n) + 1.5 * y, rng.normal(size=n) + y)
    return out


def halves(y: np.ndarray) -> int:
    """The unpaired tests compare model A on the first ``k`` rows with model B on the
    rest: ``k`` about half, both halves holding both classes."""
    return len(y) // 2


# R: the deterministic readings, one number (or vector) per line.
R_EXACT = """
y <- {y}; a <- {a}; b <- {b}; k <- {k}
r1 <- roc(y, a, direction="<", quiet=TRUE)
r2 <- roc(y, b, direction="<", quiet=TRUE)
for (p in list({ranges})) for (f in c("specificity", "sensitivity")) for (cr in c(FALSE, TRUE))
  cat(sprintf("%.17g", suppressWarnings(auc(r1, partial.auc=p, partial.auc.focus=f,
                                             partial.auc.correct=cr))), "\\n")
x <- {points}
cat(sprintf("%.17g", coords(r1, x, input="specificity", ret="sensitivity",
                            transpose=FALSE)[, 1]), "\\n")
cat(sprintf("%.17g", coords(r1, x, input="sensitivity", ret="specificity",
                            transpose=FALSE)[, 1]), "\\n")
cat(sprintf("%.17g", roc.test(r1, r2, method="venkatraman", boot.n=1,
                              progress="none")$statistic), "\\n")
u1 <- roc(y[1:k], a[1:k], direction="<", quiet=TRUE)
u2 <- roc(y[(k+1):length(y)], b[(k+1):length(y)], direction="<", quiet=TRUE)
t <- roc.test(u1, u2, method="delong", paired=FALSE)
cat(sprintf("%.17g", c(t$statistic, t$parameter, t$p.value)), "\\n")
cat(sprintf("%.17g", roc.test(u1, u2, method="venkatraman", paired=FALSE, boot.n=1,
                              progress="none")$statistic), "\\n")
"""

# R: the bootstrap and permutation results (one seeded run; compared statistically).
R_BOOT = """
y <- {y}; a <- {a}; b <- {b}; k <- {k}
r1 <- roc(y, a, direction="<", quiet=TRUE)
r2 <- roc(y, b, direction="<", quiet=TRUE)
set.seed(1)
x <- {band_points}
cat(sprintf("%.17g", ci.se(r1, specificities=x, boot.n={n_boot}, progress="none")), "\\n")
cat(sprintf("%.17g", ci.sp(r1, sensitivities=x, boot.n={n_boot}, progress="none")), "\\n")
ct <- ci.thresholds(r1, thresholds={threshold}, boot.n={n_boot}, progress="none")
cat(sprintf("%.17g", c(ct$sensitivity, ct$specificity)), "\\n")
t <- roc.test(r1, r2, method="specificity", specificity=0.9, boot.n={n_boot}, progress="none")
cat(sprintf("%.17g", c(t$statistic, t$p.value)), "\\n")
t <- roc.test(r1, r2, method="sensitivity", sensitivity=0.9, boot.n={n_boot}, progress="none")
cat(sprintf("%.17g", c(t$statistic, t$p.value)), "\\n")
t <- roc.test(r1, r2, method="venkatraman", boot.n={n_boot}, progress="none")
cat(sprintf("%.17g", t$p.value), "\\n")
p1 <- roc(y, a, direction="<", quiet=TRUE, partial.auc=c(1, 0.8))
cat(sprintf("%.17g", ci.auc(p1, method="bootstrap", boot.n={n_boot}, progress="none")), "\\n")
"""


def r_code(template: str, name: str) -> str:
    """``template`` with data set ``name`` and the settings filled in."""
    from rproc import r_vector
    y, a, b = data_sets()[name]
    return template.format(
        y=r_vector(y.astype(float)), a=r_vector(a), b=r_vector(b), k=halves(y),
        ranges=", ".join(f"c({hi!r}, {lo!r})" for lo, hi in RANGES),
        points=r_vector(POINTS), band_points=r_vector(BAND_POINTS), threshold=THRESHOLD,
        n_boot=N_BOOT)


#: R's numbers per data set: ``exact`` from R_EXACT, ``boot`` from R_BOOT, in print order.
PINNED: dict[str, dict[str, list[float]]] = {
 'binormal': {'boot': [0.7671232876712328, 0.1780821917808219, 0.9041095890410958,
                       0.3013698630136986, 0.9726027397260274, 0.5205479452054794,
                       0.7165354330708661, 0.30708661417322836, 0.8267716535433071,
                       0.5118110236220472, 0.905511811023622, 0.6299212598425197,
                       0.589041095890411, 0.6986301369863014, 0.7948630136986282,
                       0.6141732283464567, 0.7007874015748031, 0.7718503937007862,
                       1.2698351182060694, 0.2041433684600395, 1.2838434270148043,
                       0.19919674518647398, 0.0125, 0.04105058785460034,
                       0.06412468989321538, 0.09048053068708871],
              'exact': [0.06376874123611258, 0.6215798367669795, 0.08788695933556248,
                        0.6885748870432291, 0.17968935389925575, 0.7326430086650128,
                        0.1949951461546759, 0.7666558803437241, 0.24344191565095452,
                        0.9417059168973738, 0.23480207097400493, 0.8649072975467107, 1.0,
                        0.9726027397260274, 0.9041095890410958, 0.2876712328767123,
                        0.1232876712328767, 1.0, 0.952755905511811, 0.84251968503937,
                        0.5354330708661418, 0.13385826771653545, 2580.0, 2.681167062598813,
                        186.34578402828296, 0.007994866460225411, 0.09293667291733701]},
 'rare': {'boot': [0.95, 0.35, 1.0, 0.6, 1.0, 0.8, 0.8, 0.5184210526315789,
                   0.9315789473684211, 0.7342105263157894, 0.9763157894736842,
                   0.8026315789473685, 0.85, 0.95, 1.0, 0.6473684210526316,
                   0.6973684210526315, 0.7421052631578947, 1.4865283262409712,
                   0.13713943010839583, 2.743931584119484, 0.006070818877079009, 0.0695,
                   0.06723684210526314, 0.1014473684210526, 0.1378980263157894],
          'exact': [0.10078947368421048, 0.7244152046783625, 0.13671052631578945,
                    0.8241959064327485, 0.23881578947368426, 0.8640350877192983,
                    0.2323684210526316, 0.8497076023391813, 0.24999999999999997, 1.0,
                    0.2451315789473684, 0.9567251461988304, 1.0, 1.0, 1.0, 0.6, 0.1, 1.0,
                    0.9868421052631579, 0.9289473684210526, 0.7289473684210527,
                    0.531578947368421, 2006.0, 1.4509092258564775, 357.3870534626331,
                    0.14768227464947237, 0.014999893431773966]},
 'tied': {'boot': [0.7586389961389961, 0.3905337837837838, 0.8687258687258688,
                   0.5276705276705276, 0.9459459459459459, 0.6662162162162162,
                   0.7921052631578948, 0.14473684210526316, 0.9210526315789473,
                   0.40499999999999986, 0.9868421052631579, 0.6184649122807016,
                   0.6486486486486487, 0.7567567567567568, 0.8513513513513513,
                   0.5921052631578947, 0.6973684210526315, 0.8026315789473685,
                   2.7565188871436797, 0.005842023868570672, 1.1110361310033159,
                   0.2665527974571029, 0.0185, 0.06943558114035087, 0.09705795315992681,
                   0.12463193456614503],
          'exact': [0.0959559032716927, 0.7109886201991464, 0.07219061166429586,
                    0.6449739212897108, 0.20341465149359889, 0.7853658922079975,
                    0.1984859530583215, 0.7744132290184922, 0.235094831673779,
                    0.8675096148780359, 0.24458155523944997, 0.9518360465728888, 1.0,
                    0.9324324324324325, 0.8716216216216216, 0.5216216216216216,
                    0.08108108108108109, 1.0, 0.9736842105263158, 0.9210526315789473,
                    0.38421052631578945, 0.06578947368421052, 1638.0, 1.6073058147505597,
                    146.61028134249227, 0.11013881999563038, 0.07766206708422015]},
 'tiny': {'boot': [0.6, 0.2, 1.0, 0.6, 1.0, 1.0, 0.5714285714285714, 0.42857142857142855,
                   1.0, 0.8571428571428571, 1.0, 1.0, 0.4, 0.8, 1.0, 0.5714285714285714,
                   0.8571428571428571, 1.0, 1.7784198070144122, 0.07533493198379729,
                   1.6624077611220507, 0.09643104381407275, 0.323, 0.05142857142857141,
                   0.1428571428571428, 0.19999999999999996],
          'exact': [0.1314285714285714, 0.8095238095238095, 0.14285714285714282,
                    0.8412698412698413, 0.25428571428571434, 0.8984126984126984,
                    0.24285714285714288, 0.873015873015873, 0.24999999999999997, 1.0,
                    0.24999999999999997, 1.0, 1.0, 1.0, 1.0, 0.6, 0.6, 1.0, 1.0, 1.0,
                    0.7142857142857143, 0.7142857142857143, 10.0, 0.47036043419179846,
                    8.417270929466051, 0.6500452521430395, 0.10127314814814818]}}


if __name__ == "__main__":                       # regenerate PINNED
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from rproc import r_numbers
    values = {name: {"exact": r_numbers(r_code(R_EXACT, name)).tolist(),
                     "boot": r_numbers(r_code(R_BOOT, name)).tolist()}
              for name in data_sets()}
    print("PINNED: dict[str, dict[str, list[float]]] = " + repr(values).replace("nan", "NAN"))
