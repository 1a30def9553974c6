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
PINNED: dict[str, dict[str, list[float]]] = {}


if __name__ == "__main__":                       # regenerate PINNED
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from rproc import r_numbers
    values = {name: {"exact": r_numbers(r_code(R_EXACT, name)).tolist(),
                     "boot": r_numbers(r_code(R_BOOT, name)).tolist()}
              for name in data_sets()}
    print("PINNED: dict[str, dict[str, list[float]]] = " + repr(values).replace("nan", "NAN"))
