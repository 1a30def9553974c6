"""Cases for the population models (Mixture, Binormal's curves), nine_populations and
the paper writer's arguments."""

from __future__ import annotations

from typing import Any

import numpy as np

from .cases import Case, _err, _ok
from .checks import Wrong, expect_close, expect_probabilities, expect_probability
from .params import INF, NAN


def _mixture() -> Any:
    from indist_fast.population import Mixture
    return Mixture([(2, 1.0, 0.5), (1, 3.0, 1.5)], [(5, 0.0, 1.0), (1, 2.5, 0.3)])


def _curve_check(out: Any) -> None:
    x, y, t = (np.asarray(a) for a in out)
    if not (len(x) == len(y) == len(t) and (np.diff(t) < 0).all()):
        raise Wrong("curve arrays differ in length or thresholds are not descending")
    expect_probabilities("curve", x)
    expect_probabilities("curve", y)


def population_cases() -> list[Case]:
    from indist_fast.population import Binormal, Mixture
    out: list[Case] = []
    good = [(1, 0.0, 1.0)]
    bad = (("empty", ([], good), "positives"), ("str", ("abc", good), "positives"),
           ("none", (good, None), "negatives"), ("pair", ([(1, 0)], good), "positives[0]"),
           ("weight0", ([(0, 0, 1)], good), "positives[0] weight"),
           ("weight_neg", ([(-1, 0, 1)], good), "positives[0] weight"),
           ("weight_inf", ([(INF, 0, 1)], good), "positives[0] weight"),
           ("weight_bool", ([(True, 0, 1)], good), "positives[0] weight"),
           ("mean_nan", ([(1, NAN, 1)], good), "positives[0] mean"),
           ("mean_str", (good, [(1, "0", 1)]), "negatives[0] mean"),
           ("sd0", (good, [(1, 0, 1), (1, 0, 0)]), "negatives[1] sd"),
           ("sd_inf", (good, [(1, 0, INF)]), "negatives[0] sd"),
           ("weights_overflow", ([(1e308, 0, 1), (1e308, 0, 1)], good), "positives"),
           ("array_2d", (np.ones((2, 2)), good), "positives[0]"))
    for tag, args, name in bad:
        out.append(_err("population.Mixture", tag, lambda args=args: (Mixture, args, {}),
                        name, backends=False))
    for tag, args in (("one_each", (good, [(3, 1.0, 2.0)])),
                      ("arrays", (np.array([[1.0, 0.5, 1.0]]), [(1, 0, 1)])),
                      ("tiny_weights", ([(1e-300, 0, 1)], [(1e-300, 1, 1)]))):
        out.append(_ok("population.Mixture", tag, lambda args=args: (Mixture, args, {}),
                       lambda m: expect_probability("auc", m.auc), backends=False))
    m = _mixture
    for meth, args, kw, name in (
            ("tpr", (NAN,), {}, "r"), ("tpr", ([0.0, NAN],), {}, "r"), ("fpr", ("x",), {}, "r"),
            ("fpr", (None,), {}, "r"), ("tpr", (True,), {}, "r"),
            ("precision", (0.0, 1.5), {}, "prevalence"), ("b", (NAN,), {}, "r"),
            ("b_minus", (0.0, 0.0), {}, "prevalence"), ("b_plus", ("x",), {}, "r"),
            ("indistinguishability_threshold", (), {"level": 1.5}, "level"),
            ("precision_at_indistinguishability", (NAN,), {}, "prevalence"),
            ("average_precision", ("x",), {}, "prevalence"),
            ("population", ("nope",), {}, "metric"), ("roc_curve", (1,), {}, "n"),
            ("roc_curve", (2.5,), {}, "n"), ("pr_curve", (), {"n": 0}, "n"),
            ("pr_curve", (1.0,), {}, "prevalence"), ("sample", (1,), {"rng": None}, "n"),
            ("sample", (10,), {"rng": 3.5}, "rng"), ("sample", (10, 0.001),
                                                   {"rng": np.random.default_rng(0)},
                                                   "prevalence")):
        out.append(_err(f"population.Mixture.{meth}", "_".join(map(str, args)) or "kw",
                        lambda meth=meth, args=args, kw=kw: (getattr(m(), meth), args, kw),
                        name, backends=False))
    for r in (-INF, -3.0, 0.0, 2.5, 40.0, INF):
        for meth in ("precision", "b", "b_plus", "b_minus", "tpr", "fpr"):
            out.append(_ok(f"population.Mixture.{meth}", f"r={r}",
                           lambda meth=meth, r=r: (getattr(m(), meth), (r,), {}),
                           lambda v, meth=meth: expect_probability(meth, v, nan_ok=True),
                           backends=False))
    out.append(_ok("population.Mixture.b", "b(-inf)=pi1/2+pi0*A", lambda: (m().b, (-INF,), {}),
                   lambda v: expect_close("B(-inf)", v, m().prevalence / 2
                                          + (1 - m().prevalence) * m().auc, rtol=1e-9),
                   backends=False))
    out.append(_ok("population.Mixture.roc_curve", "default", lambda: (m().roc_curve, (), {}),
                   _curve_check, backends=False))
    out.append(_ok("population.Mixture.pr_curve", "default", lambda: (m().pr_curve, (), {}),
                   _curve_check, backends=False))
    for tag, args, name in (("auc_0", (0.0,), "auc"), ("auc_1", (1.0,), "auc"),
                            ("auc_nan", (NAN,), "auc"), ("auc_str", ("x",), "auc"),
                            ("auc_true", (True,), "auc")):
        out.append(_err("population.Mixture.with_auc", tag,
                        lambda args=args: (m().with_auc, args, {}), name, backends=False))
    for auc in (1e-9, 0.3, 0.9, 1 - 1e-9):
        out.append(_ok("population.Mixture.with_auc", f"auc={auc}",
                       lambda auc=auc: (m().with_auc, (auc,), {}),
                       lambda v, auc=auc: expect_close("auc", v.auc, auc, rtol=1e-9),
                       backends=False))
    for tag, args in (("nan", (NAN,)), ("inf", (INF,)), ("str", ("1",)), ("none", (None,))):
        out.append(_err("population.Mixture.shifted", tag,
                        lambda args=args: (m().shifted, args, {}), "delta", backends=False))
    for r in ([[-INF, 0.0], [1.0, INF]], np.linspace(-3, 3, 5)):
        out.append(_ok("population.Mixture.b", f"array{np.shape(r)}",
                       lambda r=r: (m().b, (r,), {}),
                       lambda v: expect_probabilities("b", np.asarray(v).ravel(), nan_ok=False),
                       backends=False))
    b = lambda: Binormal(1.0, 2.0)
    for meth, args, name in (("tpr", (NAN,), "r"), ("fpr", ("x",), "r"),
                             ("roc_curve", (0,), "n"), ("pr_curve", (), "prevalence"),
                             ("pr_curve", (0.0,), "prevalence"), ("pr_curve", (0.3, -1), "n")):
        out.append(_err(f"population.Binormal.{meth}", "_".join(map(str, args)) or "none",
                        lambda meth=meth, args=args: (getattr(b(), meth), args, {}), name,
                        backends=False))
    out.append(_ok("population.Binormal.roc_curve", "default", lambda: (b().roc_curve, (), {}),
                   _curve_check, backends=False))
    out.append(_ok("population.Binormal.pr_curve", "p=0.01", lambda: (b().pr_curve, (0.01,), {}),
                   _curve_check, backends=False))
    out.append(_ok("population.Binormal.tpr", "array", lambda: (
        b().tpr, (np.array([-INF, 0.0, INF]),), {}),
        lambda v: None if np.asarray(v).tolist()[::2] == [1.0, 0.0] else _throw(v),
        backends=False))

    def nine(pops: Any) -> None:
        if sorted(pops) != list("abcdefghi"):
            raise Wrong(f"keys {sorted(pops)}")
        for p in pops.values():
            expect_probability("auc", p.auc)
    out.append(_ok("datasets.nine_populations", "default", lambda: (
        __import__("indist_fast.datasets", fromlist=["x"]).nine_populations, (), {}), nine,
        backends=False))

    def samples() -> Any:
        from indist_fast.datasets import nine_samples
        return nine_samples
    for tag, seed in (("str", "x"), ("neg", -1), ("float", 1.5), ("nan", NAN)):
        out.append(_err("datasets.nine_samples", f"seed={tag}", lambda seed=seed: (
            samples(), (seed,), {}), "seed", backends=False))

    def fits(sets: Any) -> None:
        from indist_fast.datasets import nine_datasets
        scored = nine_datasets(5)
        for name, (y, x, intercept, slope) in sets.items():
            if not (slope > 0 and np.array_equal(intercept + slope * x, scored[name][1])):
                raise Wrong(f"set {name}: the fit does not give nine_datasets' scores")
    out.append(_ok("datasets.nine_samples", "seed=5", lambda: (samples(), (5,), {}), fits,
                   backends=False))

    def write_all() -> Any:
        from indist_fast.paper import write_all
        return write_all
    for tag, args, kw, name in (("int", (3,), {}, "outdir"), ("none", (None,), {}, "outdir"),
                                ("quick_str", ("/nonexistent/never",), {"quick": "yes"},
                                 "quick")):
        out.append(_err("paper.write_all", tag, lambda args=args, kw=kw: (write_all(), args, kw),
                        name, backends=False))
    return out


def _throw(v: Any) -> None:
    raise Wrong(f"unexpected {v!r}")
