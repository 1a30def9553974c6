"""pROC 1.18's ``power.roc.test`` on a grid of cases (regenerate: ``python
tests/inference/proc_pinned_power.py``, needs Rscript with pROC).

Each case is the keyword arguments of ``power_roc_test``, the quantity solved for, and
the R expression printing it. Two curves go to pROC as its parameter list with
``A = qnorm(auc) sqrt(1 + B^2)``. The AUC pROC solves for with ``uniroot``'s default
tolerance (about 1e-4); the pinned AUCs call pROC's own objective with ``tol = 1e-15``.
"""

_TWO = ("list(A1 = qnorm({auc}) * sqrt(1 + {b1}^2), B1 = {b1}, "
        "A2 = qnorm({auc2}) * sqrt(1 + {b2}^2), B2 = {b2}, rn = {rn}, ra = {ra}, "
        "delta = {auc} - {auc2})")


def _two(auc, auc2, b1=1.0, b2=1.0, rn=0.0, ra=0.0):
    return _TWO.format(auc=auc, auc2=auc2, b1=b1, b2=b2, rn=rn, ra=ra)


_AUC = ("uniroot(pROC:::power.roc.test.optimize.auc.function, c(0.5, 1 - 1e-16), "
        "ncontrols = {nn}, ncases = {nc}, zalpha = qnorm(1 - {a}), zbeta = qnorm({p}), "
        "tol = 1e-15)$root")

#: (keyword arguments, solved field, R expression).
CASES = [
    ({"auc": 0.8, "n_cases": 20, "n_controls": 30}, "power",
     "power.roc.test(auc = 0.8, ncases = 20, ncontrols = 30)$power"),
    ({"auc": 0.65, "n_cases": 50, "n_controls": 50, "alternative": "one-sided"}, "power",
     "power.roc.test(auc = 0.65, ncases = 50, ncontrols = 50, alternative = 'one.sided')$power"),
    ({"auc": 0.75, "power": 0.9, "kappa": 2.0}, "n_cases",
     "power.roc.test(auc = 0.75, power = 0.9, kappa = 2)$ncases"),
    ({"auc": 0.9, "power": 0.8, "sig_level": 0.01}, "n_cases",
     "power.roc.test(auc = 0.9, power = 0.8, sig.level = 0.01)$ncases"),
    ({"auc": 0.8, "n_cases": 20, "n_controls": 30, "power": 0.8, "sig_level": None},
     "sig_level",
     "power.roc.test(auc = 0.8, ncases = 20, ncontrols = 30, power = 0.8, sig.level = NULL)$sig.level"),
    ({"auc": 0.7, "n_cases": 40, "kappa": 0.5, "power": 0.7, "sig_level": None,
      "alternative": "one-sided"}, "sig_level",
     "power.roc.test(auc = 0.7, ncases = 40, kappa = 0.5, power = 0.7, sig.level = NULL, "
     "alternative = 'one.sided')$sig.level"),
    ({"n_cases": 30, "n_controls": 30, "power": 0.8}, "auc",
     _AUC.format(nn=30, nc=30, a=0.025, p=0.8)),
    ({"n_cases": 15, "n_controls": 60, "power": 0.9, "sig_level": 0.01,
      "alternative": "one-sided"}, "auc", _AUC.format(nn=60, nc=15, a=0.01, p=0.9)),
    ({"auc": 0.85, "auc2": 0.75, "power": 0.8, "r_cases": 0.5, "r_controls": 0.5},
     "n_cases", f"power.roc.test({_two(0.85, 0.75, rn=0.5, ra=0.5)}, power = 0.8)$ncases"),
    ({"auc": 0.85, "auc2": 0.75, "n_cases": 100, "r_cases": 0.5, "r_controls": 0.4,
      "alternative": "one-sided"}, "power",
     f"power.roc.test({_two(0.85, 0.75, rn=0.4, ra=0.5)}, ncases = 100, "
     "alternative = 'one.sided')$power"),
    ({"auc": 0.8, "auc2": 0.7, "n_cases": 80, "n_controls": 160, "power": 0.6,
      "sig_level": None, "slope": 0.8, "slope2": 1.2, "r_cases": 0.3, "r_controls": 0.6},
     "sig_level",
     f"power.roc.test({_two(0.8, 0.7, b1=0.8, b2=1.2, rn=0.6, ra=0.3)}, ncases = 80, "
     "ncontrols = 160, power = 0.6, sig.level = NULL)$sig.level"),
    ({"auc": 0.72, "auc2": 0.8, "power": 0.85, "kappa": 3.0, "slope": 1.3,
      "r_cases": 0.2, "r_controls": 0.1}, "n_cases",
     f"power.roc.test({_two(0.72, 0.8, b1=1.3, rn=0.1, ra=0.2)}, power = 0.85, kappa = 3)$ncases"),
]

#: R's printed value of each case, in order.
PINNED = [0.9744538116243583,
 0.8513550537997746,
 19.16321223387078,
 9.692874439614389,
 0.003228033300385791,
 0.01774784915169747,
 0.7009258349372292,
 0.7868807469346715,
 99.21477564149858,
 0.8519475473916898,
 0.0296943684693336,
 235.99154239603934]

if __name__ == "__main__":
    import pathlib
    import pprint
    import re
    import sys
    sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
    from rproc import r_numbers
    values = [float(r_numbers(f'cat(sprintf("%.17g", {expr}))')[0]) for _, _, expr in CASES]
    path = pathlib.Path(__file__)
    path.write_text(re.sub(r"PINNED = \[.*?\]\n", f"PINNED = {pprint.pformat(values)}\n",
                           path.read_text(), flags=re.S))
