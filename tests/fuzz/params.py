"""Entry points x bad (and unusual but valid) values of their non-row arguments."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from .cases import Case, _either, _err, _ok
from .checks import Oracle, Wrong, check_report, expect_close, expect_probability
from .inputs import _base, _weights

NAN, INF = float("nan"), float("inf")


def _rows(weighted: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    y, s = _base(12)
    return y, s, (_weights(12) if weighted else None)


def _oracle(weighted: bool = False) -> Oracle:
    y, s, w = _rows(weighted)
    return Oracle((y == 1, s.astype(np.float64), w))


BAD_LEVEL = [("zero", 0), ("one", 1), ("neg", -0.5), ("above1", 1.5), ("nan", NAN),
             ("inf", INF), ("str", "0.5"), ("none", None), ("bool", True), ("list", [0.5]),
             ("complex", 0.5 + 0j), ("array", np.array([0.5]))]
BAD_LEVELS = [("zero", [0]), ("one", [1]), ("nan", [0.5, NAN]), ("str", "0.5"),
              ("scalar", 0.5), ("bools", [True]), ("nones", [None]), ("neg", [-0.1]),
              ("sixteen", list(np.linspace(0.05, 0.95, 16))), ("inf", [INF]),
              ("2d", np.array([[0.4, 0.5]])), ("dict_bad", {2.0: 1}), ("strs", ["a"]),
              ("none", None), ("gen_bad", (x for x in [2.0])), ("complex", [0.5j])]
GOOD_LEVELS = [("empty", ()), ("one_level", (0.7,)), ("np_array", np.array([0.45, 0.55])),
               ("dupes", [0.4, 0.4, 0.5]), ("tiny", (1e-12, 1 - 1e-12)),
               ("np_floats", [np.float32(0.25)]), ("fifteen", list(np.linspace(0.05, 0.95, 15))),
               ("generator", (x for x in [0.3]))]
BAD_COUNT = [("zero", 0), ("neg", -1), ("float", 2.5), ("float_int", 10.0), ("str", "10"),
             ("bool", True), ("nan", NAN), ("inf", INF), ("huge", 10**12), ("2**70", 2**70),
             ("np_neg", np.int64(-3)), ("list", [5]),
             ("none", None), ("complex", 5j)]
BAD_SEED = [("str", "abc"), ("neg", -1), ("float", 1.5), ("neg_list", [1, -2]),
            ("object", object()), ("nan", NAN)]
GOOD_SEED = [("np_int", np.int64(3)), ("big", 2**100), ("seedsequence", "SS")]
BAD_CONFIDENCE = [("zero", 0), ("one", 1), ("above1", 1.5), ("neg", -0.1), ("nan", NAN),
                  ("str", "0.9"), ("bool", True), ("none", None)]
BAD_FLAG = [("str", "no"), ("none", None), ("float", 0.5), ("list", [True])]


def _reject_report(entry: str, fn: Callable[..., Any], arg: str, values: list, base: dict,
                   names: tuple[str, ...] | None = None, weighted: bool = False,
                   **kw: Any) -> list[Case]:
    out = []
    for tag, value in values:
        def make(value=value, tag=tag) -> Any:
            y, s, w = _rows(weighted)
            if isinstance(value, str) and value == "SS":
                value = np.random.SeedSequence(5)
            if tag in ("gen_bad", "generator"):
                value = (x for x in ([2.0] if tag == "gen_bad" else [0.3]))
            return fn, (y, s), {**base, **({"sample_weight": w} if weighted else {}),
                                arg: value}
        out.append(_err(entry, f"{arg}={tag}", make, *(names or (arg,)), **kw))
    return out


def param_cases() -> list[Case]:
    import indist_fast as ifa
    from indist_fast.inference import sampling as smp
    from indist_fast.metrics import threshold_choice as tc

    out: list[Case] = []
    o, ow = _oracle(), _oracle(True)

    # levels
    for entry, fn in (("evaluate", ifa.evaluate),):
        out += _reject_report(entry, fn, "levels", BAD_LEVELS, {})
        for tag, value in GOOD_LEVELS:
            def make(value=value, tag=tag) -> Any:
                v = (x for x in [0.3]) if tag == "generator" else value
                return ifa.evaluate, _rows()[:2], {"levels": v}
            levels = tuple(dict.fromkeys(float(x) for x in
                                         ([0.3] if tag == "generator" else value)))
            out.append(_ok(entry, f"levels={tag}", make,
                           lambda r, levels=levels: check_report(o, r, levels)))
    for name in ("indistinguishability_threshold", "precision_at_indistinguishability"):
        out += _reject_report(name, getattr(ifa, name), "level", BAD_LEVEL, {})
        out += _reject_report(name, getattr(ifa, name), "exclude_self", BAD_FLAG, {})
    out += _reject_report("bootstrap", ifa.bootstrap, "level", BAD_LEVEL, {"n_boot": 5})
    # exclude_self
    for entry, fn, base in (("evaluate", ifa.evaluate, {}), ("curves", ifa.curves, {}),
                            ("bootstrap", ifa.bootstrap, {"n_boot": 5})):
        out += _reject_report(entry, fn, "exclude_self", BAD_FLAG, base)
    out.append(_ok("evaluate", "exclude_self=np.bool_", lambda: (
        ifa.evaluate, _rows()[:2], {"exclude_self": np.bool_(False)}),
        lambda r: check_report(o, r, exclude_self=False)))
    # n_boot, seed, confidence
    out += _reject_report("evaluate", ifa.evaluate, "n_boot",
                          [v for v in BAD_COUNT if v[0] != "none"], {"seed": 0})
    out += _reject_report("bootstrap", ifa.bootstrap, "n_boot", BAD_COUNT, {"seed": 0})
    out += _reject_report("evaluate", ifa.evaluate, "seed", BAD_SEED, {"n_boot": 5})
    out += _reject_report("bootstrap", ifa.bootstrap, "seed", BAD_SEED, {"n_boot": 5})
    out += _reject_report("evaluate", ifa.evaluate, "confidence", BAD_CONFIDENCE, {"n_boot": 5})
    out += _reject_report("bootstrap", ifa.bootstrap, "confidence", BAD_CONFIDENCE,
                          {"n_boot": 5})
    out += _reject_report("bootstrap", ifa.bootstrap, "stratified", BAD_FLAG, {"n_boot": 5})
    out += _reject_report("delong", ifa.delong, "confidence", BAD_CONFIDENCE, {})
    for tag, seed in GOOD_SEED:
        def make(seed=seed) -> Any:
            sd = np.random.SeedSequence(5) if isinstance(seed, str) else seed
            return ifa.bootstrap, _rows()[:2], {"n_boot": 5, "seed": sd}
        out.append(_ok("bootstrap", f"seed={tag}", make, lambda r: expect_close(
            "auc estimate", r["auc"].estimate, o.auc())))
    out.append(_ok("bootstrap", "seed=none", lambda: (
        ifa.bootstrap, _rows()[:2], {"n_boot": 5, "seed": None}),
        lambda r: expect_close("auc estimate", r["auc"].estimate, o.auc()), backends=False))
    out.append(_either("bootstrap", "seed=list", lambda: (
        ifa.bootstrap, _rows()[:2], {"n_boot": 5, "seed": [1, 2, 3]}),
        ("seed",), lambda r: expect_close("auc estimate", r["auc"].estimate, o.auc())))
    out.append(_either("bootstrap", "seed=generator", lambda: (
        ifa.bootstrap, _rows()[:2], {"n_boot": 5, "seed": np.random.default_rng(0)}),
        ("seed",), lambda r: expect_close("auc estimate", r["auc"].estimate, o.auc())))
    for tag, n in (("np_int", np.int64(4)), ("two", 2), ("uint8", np.uint8(3))):
        out.append(_ok("bootstrap", f"n_boot={tag}", lambda n=n: (
            ifa.bootstrap, _rows()[:2], {"n_boot": n, "seed": 1}),
            lambda r, n=n: None if len(r["auc"].replicates) == int(n) else
            (_ for _ in ()).throw(Wrong("replicate count"))))
    # bootstrap metrics
    for tag, metrics in (("unknown", ["nope"]), ("empty", []), ("int", [123]),
                         ("dict_int", {"x": 5}), ("none", None), ("int_scalar", 7),
                         ("bytes", [b"auc"])):
        out.append(_err("bootstrap", f"metrics={tag}", lambda metrics=metrics: (
            ifa.bootstrap, _rows()[:2], {"n_boot": 5, "metrics": metrics}), "metrics"))
    out.append(_ok("bootstrap", "metrics=callable", lambda: (
        ifa.bootstrap, _rows()[:2], {"n_boot": 5, "seed": 0,
                                    "metrics": {"m": lambda t: t.weight_pos}}),
        lambda r: expect_close("callable estimate", r["m"].estimate, o.weight_pos)))
    out.append(_err("bootstrap", "metrics=callable_raises", lambda: (
        ifa.bootstrap, _rows()[:2], {"n_boot": 5, "metrics": {"m": lambda t: 1 / 0}}),
        "metrics", "m"))
    out.append(_err("bootstrap", "metrics=callable_returns_str", lambda: (
        ifa.bootstrap, _rows()[:2], {"n_boot": 5, "metrics": {"m": lambda t: "x"}}),
        "metrics", "m"))

    # sampling
    for name, extra in (("sample_auc", ()), ("sample_b", (0.5,)),
                        ("sample_b_curve", ([0.5],))):
        fn = getattr(smp, name)
        for tag, n in BAD_COUNT:
            out.append(_err(f"sampling.{name}", f"n_pairs={tag}", lambda fn=fn, extra=extra,
                            n=n: (fn, (*_rows()[:2], *extra, n), {"seed": 0}), "n_pairs"))
        for tag, seed in BAD_SEED:
            out.append(_err(f"sampling.{name}", f"seed={tag}", lambda fn=fn, extra=extra,
                            seed=seed: (fn, (*_rows()[:2], *extra, 10), {"seed": seed}),
                            "seed"))
        if name != "sample_auc":
            for tag, flag in BAD_FLAG:
                out.append(_err(f"sampling.{name}", f"replace={tag}",
                                lambda fn=fn, extra=extra, flag=flag: (
                                    fn, (*_rows()[:2], *extra, 10), {"replace": flag}),
                                "replace"))
    for tag, t in (("nan", NAN), ("str", "0.5"), ("none", None), ("list", [0.5]),
                   ("complex", 1j), ("above_all", 2.0), ("inf", INF)):
        out.append(_err("sampling.sample_b", f"threshold={tag}", lambda t=t: (
            smp.sample_b, (*_rows()[:2], t, 10), {"seed": 0}), "threshold"))
    for tag, t in (("nan", [NAN]), ("strs", ["a"]), ("ragged", [[0.1], [0.2, 0.3]]),
                   ("none", None), ("2d", [[0.5, 0.4]]), ("above_all", [2.0]),
                   ("dict", {"a": 1}), ("complex", [1j])):
        out.append(_err("sampling.sample_b_curve", f"thresholds={tag}", lambda t=t: (
            smp.sample_b_curve, (*_rows()[:2], t, 10), {"seed": 0}), "thresholds", "threshold"))
    out.append(_either("sampling.sample_b_curve", "thresholds=empty", lambda: (
        smp.sample_b_curve, (*_rows()[:2], [], 10), {"seed": 0}), ("thresholds",),
        lambda c: None if len(c.estimate) == 0 else (_ for _ in ()).throw(Wrong("len"))))
    for tag, w in (("neg", -1.0), ("nan", NAN), ("inf", INF)):
        for name in ("sample_auc", "sample_b"):
            fn = getattr(smp, name)

            def make(fn=fn, w=w, name=name) -> Any:
                y, s, ww = _rows(True)
                ww[1] = w
                return fn, (y, s, *((0.5,) if name == "sample_b" else ()), 100), {
                    "seed": 0, "sample_weight": ww}
            out.append(_err(f"sampling.{name}", f"sample_weight_one_{tag}", make,
                            "sample_weight"))
    # without replacement: distinct pairs, unweighted only
    out.append(_err("sampling.sample_b", "replace=False_weighted", lambda: (
        smp.sample_b, (*_rows()[:2], 0.5, 10), {"replace": False,
                                                 "sample_weight": _weights(12)}),
        "replace", "sample_weight"))
    out.append(_err("sampling.sample_b", "replace=False_too_many", lambda: (
        smp.sample_b, (*_rows()[:2], 0.5, 10**6), {"replace": False}), "n_pairs"))
    out.append(_ok("sampling.sample_b", "replace=False", lambda: (
        smp.sample_b, (*_rows()[:2], 0.5, 5), {"replace": False, "seed": 0}),
        lambda e: expect_probability("estimate", e.estimate)))

    # threshold choice
    for tag, m in (("unknown", "best"), ("none", None), ("int", 3), ("upper", "OPTIMAL"),
                   ("list", ["optimal"])):
        out.append(_err("threshold_choice.expected_loss", f"method={tag}", lambda m=m: (
            tc.expected_loss, (*_rows()[:2], m), {}), "method"))
        out.append(_err("threshold_choice.loss_curve", f"method={tag}", lambda m=m: (
            tc.loss_curve, (*_rows()[:2], m), {}), "method"))
    bad_t = [("nan", NAN), ("str", "0.5"), ("bool", True), ("list", [0.5]), ("complex", 1j)]
    bad_q = [("neg", -0.1), ("above1", 1.1), ("nan", NAN), ("str", "0.3"), ("bool", True),
             ("inf", INF), ("list", [0.3])]
    for entry, fn, base in (("threshold_choice.expected_loss", tc.expected_loss,
                             ("score-fixed",)),
                            ("threshold_choice.loss_curve", tc.loss_curve, ("score-fixed",)),
                            ("threshold_choice.compare_methods", tc.compare_methods, ())):
        for tag, t in bad_t:
            out.append(_err(entry, f"t={tag}", lambda fn=fn, base=base, t=t: (
                fn, (*_rows()[:2], *base), {"t": t}), "t"))
    for entry, fn, base in (("threshold_choice.expected_loss", tc.expected_loss,
                             ("rate-fixed",)),
                            ("threshold_choice.loss_curve", tc.loss_curve, ("rate-fixed",)),
                            ("threshold_choice.compare_methods", tc.compare_methods, ())):
        for tag, q in bad_q:
            out.append(_err(entry, f"q={tag}", lambda fn=fn, base=base, q=q: (
                fn, (*_rows()[:2], *base), {"q": q}), "q"))
    out.append(_err("threshold_choice.expected_loss", "score-fixed_without_t", lambda: (
        tc.expected_loss, (*_rows()[:2], "score-fixed"), {}), "t"))
    out.append(_err("threshold_choice.expected_loss", "rate-fixed_without_q", lambda: (
        tc.expected_loss, (*_rows()[:2], "rate-fixed"), {}), "q"))
    for tag, t in (("inf", INF), ("neg_inf", -INF), ("np_float32", np.float32(0.45)),
                   ("int", 0), ("above_all", 7)):
        out.append(_ok("threshold_choice.expected_loss", f"score-fixed_t={tag}",
                       lambda t=t: (tc.expected_loss, (*_rows()[:2], "score-fixed"),
                                    {"t": t}),
                       lambda v, t=t: expect_close("error rate", v, o.error_rate(float(t)))))
    for tag, q in (("zero", 0.0), ("one", 1.0), ("int1", 1), ("np", np.float64(0.5))):
        out.append(_ok("threshold_choice.expected_loss", f"rate-fixed_q={tag}",
                       lambda q=q: (tc.expected_loss, (*_rows()[:2], "rate-fixed"),
                                    {"q": q}),
                       lambda v: expect_probability("rate-fixed loss", v)))
    cond_entries = [("threshold_choice.expected_loss", tc.expected_loss, ("optimal",)),
                    ("threshold_choice.compare_methods", tc.compare_methods, ()),
                    ("threshold_choice.cost_curves", tc.cost_curves, ()),
                    ("threshold_choice.loss_curve", tc.loss_curve, ("optimal",)),
                    ("threshold_choice.brier_curve", tc.brier_curve, ())]
    for entry, fn, base in cond_entries:
        for tag, cond in (("unknown", "x"), ("none", None), ("upper", "COST"), ("int", 1)):
            out.append(_err(entry, f"condition={tag}", lambda fn=fn, base=base, cond=cond: (
                fn, (*_rows()[:2], *base), {"condition": cond}), "condition"))
    bad_dist = [("zero", (0, 1)), ("one_value", (1,)), ("str", "beta"), ("nan", (NAN, 1)),
                ("inf", (INF, 1)), ("neg", (-1, 2)), ("bool", (True, 1)), ("three", (1, 2, 3)),
                ("dict", {"a": 1}), ("int", 5), ("strs", ("a", "b"))]
    for entry, fn, base in (("threshold_choice.expected_loss", tc.expected_loss,
                             ("optimal",)),
                            ("threshold_choice.compare_methods", tc.compare_methods, ())):
        for tag, dist in bad_dist:
            out.append(_err(entry, f"cost_distribution={tag}",
                            lambda fn=fn, base=base, dist=dist: (
                                fn, (*_rows()[:2], *base), {"cost_distribution": dist}),
                            "cost_distribution"))
    for tag, ab in (("a", (0, 1)), ("b", (1, NAN)), ("a_str", ("x", 1))):
        out.append(_err("threshold_choice.CostDistribution", tag, lambda ab=ab: (
            tc.CostDistribution, ab, {}), "cost_distribution", "a", "b"))
    pi1, pi0 = o.pis()
    for method in tc.METHODS:
        for dist in ((2.0, 3.0), (0.5, 0.5)):
            mu = dist[0] / sum(dist)

            def check(v: Any, method: str = method, mu: float = mu) -> None:
                v = float(v)
                if not (0 <= v <= 2 or (math.isnan(v) and method == "indistinguishability")):
                    raise Wrong(f"expected loss {v!r} outside [0, 2]")
                if method == "score-fixed":
                    c = o.curves()
                    i = np.flatnonzero(c["thresholds"] >= 0.5)
                    tpr = c["tpr"][i[-1]] if len(i) else 0.0
                    fpr = c["fpr"][i[-1]] if len(i) else 0.0
                    expect_close("Beta score-fixed loss", v,
                                 2 * (mu * pi1 * (1 - tpr) + (1 - mu) * pi0 * fpr))
            out.append(_ok(f"threshold_choice.expected_loss[{method}]",
                           f"cost_distribution=beta{dist}", lambda method=method, dist=dist: (
                               tc.expected_loss, _rows()[:2], {
                                   "method": method, "t": 0.5, "q": 0.3,
                                   "cost_distribution": dist}), check))
        out.append(_ok(f"threshold_choice.expected_loss[{method}]", "condition=skew",
                       lambda method=method: (tc.expected_loss, _rows()[:2], {
                           "method": method, "t": 0.5, "q": 0.3, "condition": "skew"}),
                       lambda v, method=method: expect_probability(
                           "skew loss", v, nan_ok=method == "indistinguishability")))
    # HullCalibration.predict
    for tag, scores in (("nan", [NAN]), ("strs", ["a"]), ("2d", [[0.1, 0.2]]),
                        ("none", None)):
        out.append(_err("threshold_choice.HullCalibration.predict", tag, lambda scores=scores: (
            tc.hull_calibration(*_rows()[:2]).predict, (scores,), {}), "scores"))
    out.append(_ok("threshold_choice.HullCalibration.predict", "inf", lambda: (
        tc.hull_calibration(*_rows()[:2]).predict, ([INF, -INF, 0.5],), {}),
        lambda p: expect_probability("prediction", np.max(p))))
    # LossCurve call with bad c
    out.append(_either("threshold_choice.LossCurve", "c=nan", lambda: (
        tc.brier_curve(*_rows()[:2]), ([NAN],), {}), ("c",),
        lambda v: None))
    out.append(_err("threshold_choice.LossCurve", "c=str", lambda: (
        tc.brier_curve(*_rows()[:2]), (["a"],), {}), "c"))
    out.append(_err("threshold_choice.LossCurve.expected", "distribution=str", lambda: (
        tc.brier_curve(*_rows()[:2]).expected, ("uniform",), {}), "distribution"))

    # DeLong test: the second model's scores
    for tag, sb, names in (("nan", np.r_[NAN, np.ones(11)], ("score_b",)),
                           ("short", np.ones(11), ("score_b", "y_true")),
                           ("strs", np.array(["a"] * 12), ("score_b",)),
                           ("2d", np.ones((12, 2)), ("score_b",)),
                           ("none", None, ("score_b",))):
        out.append(_err("delong_test", f"score_b={tag}", lambda sb=sb: (
            ifa.delong_test, (_rows()[0], _rows()[1], sb), {}), *names))
        out.append(_err("delong_test", f"score_a={tag}", lambda sb=sb: (
            ifa.delong_test, (_rows()[0], sb, _rows()[1]), {}),
            *[n.replace("score_b", "score_a") for n in names]))
    out.append(_ok("delong_test", "different_models", lambda: (
        ifa.delong_test, (_rows()[0], _rows()[1], -_rows()[1]), {}),
        lambda t: (expect_probability("p_value", t.p_value),
                   expect_close("auc_b", t.auc_b, 1 - o.auc()))))

    # hanley_mcneil_se
    for tag, args, names in (
            ("auc_neg", (-0.1, 10, 10), ("auc",)), ("auc_above1", (1.1, 10, 10), ("auc",)),
            ("auc_nan", (NAN, 10, 10), ("auc",)), ("auc_str", ("0.8", 10, 10), ("auc",)),
            ("auc_none", (None, 10, 10), ("auc",)), ("n_pos_zero", (0.8, 0, 10), ("n_pos",)),
            ("n_pos_neg", (0.8, -5, 10), ("n_pos",)), ("n_pos_nan", (0.8, NAN, 10), ("n_pos",)),
            ("n_pos_inf", (0.8, INF, 10), ("n_pos",)), ("n_neg_half", (0.8, 10, 0.5), ("n_neg",)),
            ("n_neg_bool", (0.8, 10, True), ("n_neg",)), ("n_neg_inf", (0.8, 10, INF), ("n_neg",)),
            ("n_neg_str", (0.8, 10, "10"), ("n_neg",)), ("auc_inf", (INF, 1, 1), ("auc",))):
        out.append(_err("hanley_mcneil_se", tag, lambda args=args: (
            ifa.hanley_mcneil_se, args, {}), *names))
    for a, npos, nneg in ((0.8, 100, 100), (0.5, 1, 1), (1.0, 5, 7), (0.0, 3, 2),
                          (0.73, np.int64(40), np.float64(60.0))):
        def hm(a=a, npos=npos, nneg=nneg) -> float:
            q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
            return math.sqrt(max(0.0, (a * (1 - a) + (npos - 1) * (q1 - a * a)
                                       + (nneg - 1) * (q2 - a * a)) / (npos * nneg)))
        out.append(_ok("hanley_mcneil_se", f"valid_{a}_{npos}_{nneg}",
                       lambda a=a, npos=npos, nneg=nneg: (ifa.hanley_mcneil_se,
                                                         (a, npos, nneg), {}),
                       lambda v, hm=hm: expect_close("se", v, hm())))
    # evaluate_many's groups: a list of single values (NumPy scalars too) is one column
    g = [np.int64(k % 3) for k in range(12)]
    out.append(_ok("evaluate_many", "groups=numpy_scalars", lambda: (
        ifa.evaluate_many, _rows()[:2], {"groups": g}),
        lambda t: None if len(t) == len(set(g)) or t.columns["one_class"].any() else
        (_ for _ in ()).throw(Wrong(f"{len(t)} rows for {len(set(g))} groups"))))
    for tag, groups, names in (
            ("mixed", [np.arange(12), 3], ("groups",)),
            ("row_tuples", [(k, "x") for k in range(12)], ("groups", "list(zip")),
            ("proba_scores", None, ("scores", "proba[:, 1]"))):
        def make(groups=groups, tag=tag) -> Any:
            y, s, _ = _rows()
            if tag == "proba_scores":
                p = (s - s.min()) / (s.max() - s.min())
                return ifa.evaluate_many, (y, np.c_[1 - p, p]), {}
            return ifa.evaluate_many, (y, s), {"groups": groups}
        out.append(_err("evaluate_many", f"groups={tag}", make, *names))

    # the scorecard figures: KS's method, top_k's k, gains' n_bins
    for tag, method in (("str", "Exact"), ("int", 1), ("approx", "approx"), ("list", ["auto"])):
        out.append(_err("ks", f"method={tag}", lambda m=method: (
            ifa.ks, _rows()[:2], {"method": m}), "method"))
    out.append(_err("ks", "method=exact_fractional_weights", lambda: (
        ifa.ks, _rows()[:2], {"sample_weight": np.linspace(0.5, 2.0, 12)}), "sample_weight"))
    for tag, k in (("zero", 0), ("neg", -1), ("above_rows", 13), ("share_zero", 0.0),
                   ("share_above1", 1.5), ("nan", NAN), ("inf", INF), ("bool", True),
                   ("str", "3"), ("none", None), ("list", [3])):
        out.append(_err("top_k", f"k={tag}", lambda k=k: (
            ifa.top_k, (*_rows()[:2], k), {}), "k"))
    for tag, k in (("one", 1), ("all", 12), ("share_all", 1.0), ("np_int", np.int64(5)),
                   ("np_float", np.float32(0.25))):
        out.append(_ok("top_k", f"k={tag}", lambda k=k: (ifa.top_k, (*_rows()[:2], k), {}),
                       lambda top: expect_probability("precision", top.precision)))
    for tag, n_bins in BAD_COUNT:
        out.append(_err("gains", f"n_bins={tag}", lambda n=n_bins: (
            ifa.gains, _rows()[:2], {"n_bins": n}), "n_bins"))
    return out
