"""Cases for the comparison and operating-point entry points: ``compare`` (two models,
mappings with Holm, unpaired data sets, DeLong and the bootstrap, every
alternative), ``best_threshold`` (every criterion and its parameters, over the table
of row inputs too), ``confusion`` at many thresholds, ``dominates`` and
``operating_point_intervals``; valid calls against the brute-force oracles of
``entry_oracles``, bad ones by the argument their error must name."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from . import inputs
from .cases import Case, Entry, _err, _ok, _row_case
from .checks import Oracle, Wrong, expect_close, expect_probability
from .entry_oracles import (best_threshold_oracle, check_best, check_bootstrap_difference,
                            check_confusion, check_delong_difference, check_dominance,
                            delong_moments, holm, normal_p)
from .inputs import RowInput
from .params import BAD_CONFIDENCE, BAD_SEED, INF, NAN

ALTERNATIVES = ("two-sided", "greater", "less")


def models(n: int = 30, seed: int = 4) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
    """Labels, three models' scores (with ties) and integer weights for the same rows."""
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=np.int64)
    y[rng.permutation(n)[: n // 3]] = 1
    scores = {"a": np.round(rng.random(n) + 0.5 * y, 1), "b": np.round(rng.random(n) + 0.3 * y, 1),
              "c": np.round(rng.random(n) + 0.05 * y, 2)}
    return y, scores, rng.integers(1, 4, n).astype(np.float64)


def _mask(y: Any) -> np.ndarray:
    return np.asarray(y) == 1


# --- compare -------------------------------------------------------------------------------------

def _compare_cases() -> list[Case]:
    from indist_fast import compare
    out: list[Case] = []
    for weighted in (False, True):
        for alt in ALTERNATIVES:
            for conf in (0.95, 0.8):
                def check(r: Any, weighted: bool = weighted, alt: str = alt,
                          conf: float = conf) -> None:
                    y, sc, w = models()
                    a, b, va, vb, cab = delong_moments(_mask(y), sc["a"], sc["b"],
                                                       w if weighted else None)
                    if list(r) != ["auc"] or not r.paired or r.n_boot != 0:
                        raise Wrong(f"metrics {list(r)}, paired {r.paired}, n_boot {r.n_boot}")
                    check_delong_difference(r["auc"], a, b, va + vb - 2 * cab, alt, conf)
                out.append(_ok("compare[paired,delong]", f"w={weighted}_{alt}_conf={conf}",
                               lambda weighted=weighted, alt=alt, conf=conf: (
                                   compare, (models()[0], models()[1]["a"], models()[1]["b"]),
                                   {"sample_weight": models()[2] if weighted else None,
                                    "alternative": alt, "confidence": conf}), check))
            # the same scores' rows as independent samples: the variances add
            out.append(_ok("compare[unpaired,delong]", f"same_rows_w={weighted}_{alt}",
                           lambda weighted=weighted, alt=alt: (
                               compare, (models()[0], models()[1]["a"], models()[1]["c"]),
                               {"sample_weight": models()[2] if weighted else None,
                                "alternative": alt, "paired": False}),
                           lambda r, weighted=weighted, alt=alt: _unpaired_check(
                               r, [(models()[0], models()[1]["a"],
                                    models()[2] if weighted else None),
                                   (models()[0], models()[1]["c"],
                                    models()[2] if weighted else None)], alt)))

    def datasets() -> list[tuple[Any, ...]]:
        y, sc, w = models()
        y2, sc2, w2 = models(23, seed=9)
        return [(y, sc["a"]), (y2, sc2["b"], w2)]
    for alt in ALTERNATIVES:
        out.append(_ok("compare[unpaired,delong]", f"two_datasets_{alt}", lambda alt=alt: (
            compare, tuple(datasets()), {"paired": False, "alternative": alt}),
            lambda r, alt=alt: _unpaired_check(r, datasets(), alt)))
    # several models: every pair, Holm over the pairs
    for corr in (None, "holm"):
        for alt in ("two-sided", "greater"):
            def several(r: Any, corr: Any = corr, alt: str = alt) -> None:
                y, sc, _ = models()
                keys = [("a", "b"), ("a", "c"), ("b", "c")]
                if list(r) != keys or r.correction != corr:
                    raise Wrong(f"pairs {list(r)}, correction {r.correction!r}")
                raw = []
                for i, j in keys:
                    a, b, va, vb, cab = delong_moments(_mask(y), sc[i], sc[j], None)
                    check_delong_difference(r[i, j]["auc"], a, b, va + vb - 2 * cab, alt,
                                            p_unadjusted=True)
                    raw.append(normal_p((a - b) / math.sqrt(va + vb - 2 * cab), alt))
                want = holm(raw) if corr == "holm" else raw
                for (i, j), p in zip(keys, want):
                    expect_close(f"{i} vs {j} p_value", r[i, j]["auc"].p_value, p, rtol=1e-6)
            out.append(_ok("compare[mapping]", f"correction={corr}_{alt}",
                           lambda corr=corr, alt=alt: (
                               compare, (models()[0], dict(models()[1])),
                               {"correction": corr, "alternative": alt}), several))

    def unpaired_map(r: Any) -> None:
        sets = {"x": (models()[0], models()[1]["a"]),
                "y": (models(23, 9)[0], models(23, 9)[1]["b"], models(23, 9)[2])}
        if list(r) != [("x", "y")]:
            raise Wrong(f"pairs {list(r)}")
        _unpaired_check(r["x", "y"], list(sets.values()), "two-sided")
    out.append(_ok("compare[mapping]", "unpaired_datasets", lambda: (
        compare, ({"x": (models()[0], models()[1]["a"]),
                   "y": (models(23, 9)[0], models(23, 9)[1]["b"], models(23, 9)[2])},),
        {"paired": False}), unpaired_map))
    # the bootstrap: the p-value and interval from the replicates; a model against
    # itself differs by 0 in every paired replicate
    metrics = ("auc", "average_precision", "threshold", "precision", "lift", "tpr", "fpr",
               "f1")
    for paired in (True, False):
        for alt in ALTERNATIVES:
            def boot(r: Any, alt: str = alt, paired: bool = paired) -> None:
                y, sc, w = models()
                a, b, *_ = delong_moments(_mask(y), sc["a"], sc["b"], w)
                if list(r) != list(metrics) or r.n_boot != 20 or r.paired != paired:
                    raise Wrong(f"metrics {list(r)}, n_boot {r.n_boot}")
                expect_close("auc estimate_a", r["auc"].estimate_a, a)
                expect_close("auc estimate_b", r["auc"].estimate_b, b)
                for m in metrics:
                    check_bootstrap_difference(r[m], 20, alt)
            out.append(_ok("compare[bootstrap]", f"paired={paired}_{alt}",
                           lambda alt=alt, paired=paired: (
                               compare, (models()[0], models()[1]["a"], models()[1]["b"]),
                               {"sample_weight": models()[2], "method": "bootstrap",
                                "metrics": metrics, "n_boot": 20, "alternative": alt,
                                "paired": paired, "seed": 3}), boot))

    def itself(r: Any) -> None:
        for m in r:
            d = r[m]
            reps = np.asarray(d.replicates)
            if d.estimate != 0 or np.any(reps[~np.isnan(reps)] != 0) or d.p_value != 1.0:
                raise Wrong(f"{m}: a model against itself: estimate {d.estimate}, p "
                            f"{d.p_value}, replicates {reps[:4]}")
    for strat in (True, False):
        out.append(_ok("compare[bootstrap]", f"itself_stratified={strat}", lambda strat=strat: (
            compare, (models()[0], models()[1]["a"], models()[1]["a"]),
            {"method": "bootstrap", "metrics": metrics, "n_boot": 10,
             "stratified": strat}), itself))
    out.append(_ok("compare[mixed]", "auc_delong_rest_bootstrap", lambda: (
        compare, (models()[0], models()[1]["a"], models()[1]["b"]),
        {"metrics": ("auc", "average_precision"), "n_boot": 10}),
        lambda r: None if (r["auc"].method, r["average_precision"].method) == (
            "delong", "bootstrap") else (_ for _ in ()).throw(Wrong("methods"))))
    out.append(_ok("compare[mixed]", "names", lambda: (
        compare, (models()[0], models()[1]["a"], models()[1]["b"]), {"names": ("new", "old")}),
        lambda r: None if (r.model_a, r.model_b) == ("new", "old") and "new" in str(r)
        else (_ for _ in ()).throw(Wrong("names not kept"))))

    # bad arguments
    y0, sc0, w0 = models()

    def call(**kw: Any) -> Callable[[], Any]:
        return lambda: (compare, (models()[0], models()[1]["a"], models()[1]["b"]), kw)
    bad: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
        ("method=x", {"method": "x"}, ("method",)),
        ("method=none", {"method": None}, ("method",)),
        ("alternative=up", {"alternative": "up"}, ("alternative",)),
        ("alternative=int", {"alternative": 1}, ("alternative",)),
        ("correction=bonferroni", {"correction": "bonferroni"}, ("correction",)),
        ("correction=holm_two_models", {"correction": "holm"}, ("correction",)),
        ("paired=str", {"paired": "yes"}, ("paired",)),
        ("stratified=str", {"stratified": "no", "method": "bootstrap", "n_boot": 5},
         ("stratified",)),
        ("n_boot=1", {"n_boot": 1, "method": "bootstrap"}, ("n_boot",)),
        ("n_boot=str", {"n_boot": "10", "method": "bootstrap"}, ("n_boot",)),
        ("n_boot=float", {"n_boot": 10.0, "method": "bootstrap"}, ("n_boot",)),
        ("n_boot_without_bootstrap", {"n_boot": 10}, ("n_boot",)),
        ("level=0", {"level": 0}, ("level",)),
        ("level=nan", {"level": NAN, "metrics": "precision", "n_boot": 5}, ("level",)),
        ("metrics=nope", {"metrics": "nope"}, ("metrics",)),
        ("metrics=empty", {"metrics": []}, ("metrics",)),
        ("metrics=int", {"metrics": [1]}, ("metrics",)),
        ("metrics=b", {"metrics": "b"}, ("metrics",)),
        ("metrics=none", {"metrics": None}, ("metrics",)),
        ("names=one", {"names": ("a",)}, ("names",)),
        ("names=same", {"names": ("a", "a")}, ("names",)),
        ("names=ints", {"names": (1, 2)}, ("names",)),
        ("names=str", {"names": "ab"}, ("names",)),
        ("progress=str", {"progress": "yes"}, ("progress",)),
        ("sample_weight=negative", {"sample_weight": -w0}, ("sample_weight",)),
        ("sample_weight=short", {"sample_weight": w0[:-1]}, ("sample_weight", "y_true")),
        ("pos_label=missing", {"pos_label": 7}, ("pos_label",)),
    ]
    for tag, conf in BAD_CONFIDENCE:
        bad.append((f"confidence={tag}", {"confidence": conf}, ("confidence",)))
    for tag, seed in BAD_SEED:
        bad.append((f"seed={tag}", {"seed": seed}, ("seed",)))
    for tag, kw, names in bad:
        out.append(_err("compare[params]", tag, call(**kw), *names))
    nan_b = np.r_[NAN, sc0["b"][1:]]
    for tag, args, kw, names in (
            ("score_b_nan", (y0, sc0["a"], nan_b), {}, ("score_b",)),
            ("score_a_nan", (y0, nan_b, sc0["a"]), {}, ("score_a",)),
            ("score_b_short", (y0, sc0["a"], sc0["b"][:-1]), {}, ("score_b", "y_true")),
            ("score_b_str", (y0, sc0["a"], np.array(["x"] * len(y0))), {}, ("score_b",)),
            ("score_b_2d", (y0, sc0["a"], np.c_[sc0["b"], sc0["b"]]), {}, ("score_b",)),
            ("score_b_missing", (y0, sc0["a"]), {}, ("score_b",)),
            ("y_one_class", (np.ones_like(y0), sc0["a"], sc0["b"]), {}, ("y_true",)),
            ("mapping_one_model", (y0, {"a": sc0["a"]}), {}, ("score_a", "models", "two")),
            ("mapping_int_key", (y0, {1: sc0["a"], 2: sc0["b"]}), {}, ("score_a", "name")),
            ("mapping_nan_model", (y0, {"a": sc0["a"], "b": nan_b}), {}, ("'b'", "score_a")),
            ("mapping_short_model", (y0, {"a": sc0["a"], "b": sc0["b"][:3]}), {},
             ("'b'", "score_a", "y_true")),
            ("mapping_with_score_b", (y0, {"a": sc0["a"], "b": sc0["b"]}, sc0["c"]), {},
             ("score_b",)),
            ("unpaired_dataset_1tuple", ((y0,), (y0, sc0["b"])), {"paired": False},
             ("y_true", "data set", "score_a")),
            ("unpaired_dataset_4tuple", ((y0, sc0["a"], w0, w0), (y0, sc0["b"])),
             {"paired": False}, ("y_true", "data set")),
            ("unpaired_one_class_b", ((y0, sc0["a"]), (np.ones_like(y0), sc0["b"])),
             {"paired": False}, ("y_true", "score_a", "B", "'b'")),
            ("unpaired_nan_in_b", ((y0, sc0["a"]), (y0, nan_b)), {"paired": False},
             ("y_score", "score_a", "data set")),
            ("paired_datasets", ((y0, sc0["a"]), (y0, sc0["b"])), {},
             ("paired", "y_true", "score_a"))):
        out.append(_err("compare[args]", tag, lambda args=args, kw=kw: (compare, args, kw),
                        *names))
    return out


def _unpaired_check(r: Any, sets: list[tuple[Any, ...]], alt: str) -> None:
    (y1, s1, *w1), (y2, s2, *w2) = sets
    a, _, va, _, _ = delong_moments(_mask(y1), np.asarray(s1, float), None,
                                    w1[0] if w1 else None)
    b, _, vb, _, _ = delong_moments(_mask(y2), np.asarray(s2, float), None,
                                    w2[0] if w2 else None)
    if r.paired:
        raise Wrong("an unpaired comparison reported as paired")
    check_delong_difference(r["auc"], a, b, va + vb, alt)


# --- best_threshold ------------------------------------------------------------------------------

CRITERIA: list[tuple[str, dict[str, Any]]] = [
    ("accuracy", {}), ("balanced_accuracy", {}), ("youden", {}), ("f1", {}),
    ("mcc", {}), ("kappa", {}),
    ("cost", {"c": 0.3}), ("cost", {"c": 0.0}), ("cost", {"c": 1.0}),
    ("cost", {"cost_fn": 1.0, "cost_fp": 5.0}), ("cost", {"cost_fn": 0.0, "cost_fp": 2}),
    ("cost", {"gain_tp": 2.0, "gain_tn": 1.0}),
    ("punzi", {}), ("punzi", {"a": 5.0, "background_scale": 0.5}),
    ("ams", {}), ("ams", {"b_reg": 0.0}), ("ams", {"signal_scale": 2.0, "background_scale": 3.0}),
    ("recall", {"target": 0.5}), ("recall", {"target": 1.0}), ("recall", {"target": 0.0}),
    ("precision", {"target": 0.6}), ("precision", {"target": 1.0}),
    ("fpr", {"target": 0.2}), ("fpr", {"target": 0.0}), ("tnr", {"target": 0.9}),
    ("indistinguishability", {}), ("indistinguishability", {"level": 0.3}),
]

# Over the whole table of row inputs (the others on the rows of ``models``): youden and
# f1 have their own entries in ``cases``.
ROW_CRITERIA = [("accuracy", {}), ("balanced_accuracy", {}), ("mcc", {}), ("kappa", {}),
                ("cost", {"c": 0.3}),
                ("cost", {"cost_fn": 1.0, "cost_fp": 5.0}),
                ("cost", {"gain_tp": 2.0, "gain_tn": 1.0}), ("punzi", {}), ("ams", {}),
                ("ams", {"b_reg": 0.0}), ("recall", {"target": 0.5}),
                ("precision", {"target": 0.6}), ("fpr", {"target": 0.2}),
                ("tnr", {"target": 0.9}), ("indistinguishability", {}),
                ("indistinguishability", {"level": 0.3})]


def _tag(name: str, params: dict[str, Any]) -> str:
    return name + "".join(f",{k}={v}" for k, v in params.items())


def _check_best_any(b: Any, o: Oracle, name: str, params: dict[str, Any]) -> None:
    if name == "indistinguishability":
        level = params.get("level", 0.5)
        ok = o.acceptable_points(level)
        c = o.curves()
        if float(b.threshold) not in [float(c["thresholds"][i]) for i in ok]:
            raise Wrong(f"threshold {b.threshold!r}, expected one of "
                        f"{[float(c['thresholds'][i]) for i in ok][:4]}")
        expect_probability("b", b.value, nan_ok=o.fractional)
        return
    check_best(b, o.y, o.s, o.w, name, params)


def _best_rule(name: str, params: dict[str, Any]
               ) -> Callable[[Oracle, RowInput], tuple[str, ...] | None]:
    """Inputs where no operating point qualifies: an error naming the parameter."""
    def rule(o: Oracle, ri: RowInput) -> tuple[str, ...] | None:
        if o.large and name not in ("recall", "precision", "fpr", "tnr"):
            return None
        if name == "indistinguishability":
            if not o.acceptable_points(params.get("level", 0.5)):
                return ("level", "indistinguishability") + ri.errors
            return None
        if best_threshold_oracle(o.y, o.s, o.w, name, params) is None:
            # (weights summing past the float range: the error names them instead)
            return (tuple(params) or ("criterion",)) + ri.errors
        return None
    return rule


def _best_entries() -> list[Entry]:
    from indist_fast import best_threshold
    out = []
    for name, params in CRITERIA:
        if (name, params) not in ROW_CRITERIA:
            continue

        def call(ri: RowInput, name: str = name, params: dict[str, Any] = params) -> Any:
            return best_threshold, (ri.y, ri.s, name), {
                "sample_weight": ri.w, "pos_label": ri.pos_label, **params}
        out.append(Entry(f"best_threshold[{_tag(name, params)}]", call,
                         lambda o, b, ri, name=name, params=params: (
                             None if o.large and name == "indistinguishability"
                             else _check_best_any(b, o, name, params)),
                         rule=_best_rule(name, params),
                         skip=lambda ri: ri.canon is not None and len(ri.canon[1]) > 3000))
    return out


def _best_param_cases() -> list[Case]:
    from indist_fast import best_threshold
    out: list[Case] = []
    y, sc, w = models()
    for name, params in CRITERIA:
        for weighted in (False, True):
            def make(name: str = name, params: dict[str, Any] = params,
                     weighted: bool = weighted) -> Any:
                y, sc, w = models()
                return best_threshold, (y, sc["a"], name), {
                    "sample_weight": w if weighted else None, **params}

            def check(b: Any, name: str = name, params: dict[str, Any] = params,
                      weighted: bool = weighted) -> None:
                y, sc, w = models()
                o = Oracle((_mask(y), sc["a"], w if weighted else None))
                _check_best_any(b, o, name, params)
                if b.criterion != name:
                    raise Wrong(f"criterion {b.criterion!r}")
            out.append(_ok("best_threshold[params]", f"{_tag(name, params)}_w={weighted}",
                           make, check))

    def callable_check(b: Any) -> None:
        # -(fn + 2 fp), maximised, and fn + 2 fp, minimised, choose what the cost
        # (cost_fn=1, cost_fp=2) does
        want = best_threshold_oracle(_mask(y), sc["a"], None, "cost",
                                     {"cost_fn": 1.0, "cost_fp": 2.0})
        if want is None or float(b.threshold) not in want[0]:
            raise Wrong(f"threshold {b.threshold!r}, expected one of {want}")
    out.append(_ok("best_threshold[params]", "callable_max", lambda: (
        best_threshold, (models()[0], models()[1]["a"],
                         lambda tp, fp, tn, fn: -(fn + 2 * fp)), {}), callable_check))
    out.append(_ok("best_threshold[params]", "callable_min", lambda: (
        best_threshold, (models()[0], models()[1]["a"],
                         lambda tp, fp, tn, fn: fn + 2 * fp), {"maximize": False}),
        callable_check))

    def bad_fn(kind: str) -> Callable[..., Any]:
        def fn(tp: Any, fp: Any, tn: Any, fn_: Any) -> Any:
            if kind == "raise":
                raise RuntimeError("inside")
            if kind == "mutate":
                tp[0] = 5.0
            return {"short": tp[:-1], "str": np.array(["a"] * len(tp)), "scalar": 1.0,
                    "nan": tp * np.nan, "none": None, "mutate": tp}[kind]
        return fn
    bad: list[tuple[str, Any, dict[str, Any], tuple[str, ...]]] = [
        ("criterion=unknown", "speed", {}, ("criterion",)),
        ("criterion=none", None, {}, ("criterion",)),
        ("criterion=int", 3, {}, ("criterion",)),
        ("criterion=upper", "F1", {}, ("criterion",)),
        ("unknown_param", "f1", {"beta": 2}, ("beta",)),
        ("target_missing", "recall", {}, ("target",)),
        ("target_above1", "recall", {"target": 1.5}, ("target",)),
        ("target_nan", "precision", {"target": NAN}, ("target",)),
        ("target_str", "fpr", {"target": "0.1"}, ("target",)),
        ("target_bool", "tnr", {"target": True}, ("target",)),
        ("c_above1", "cost", {"c": 2.0}, ("c",)),
        ("c_and_costs", "cost", {"c": 0.5, "cost_fn": 1, "cost_fp": 1},
         ("c=", "cost_fn", "exactly one")),
        ("cost_fn_alone", "cost", {"cost_fn": 1.0}, ("cost_fp",)),
        ("cost_none", "cost", {}, ("c=", "exactly one")),
        ("cost_fn_negative", "cost", {"cost_fn": -1.0, "cost_fp": 1.0}, ("cost_fn",)),
        ("cost_fp_inf", "cost", {"cost_fn": 1.0, "cost_fp": INF}, ("cost_fp",)),
        ("costs_zero", "cost", {"cost_fn": 0, "cost_fp": 0}, ("cost_fn", "cost_fp")),
        ("gain_tn_nan", "cost", {"gain_tp": 1.0, "gain_tn": NAN}, ("gain_tn",)),
        ("punzi_a_zero", "punzi", {"a": 0.0}, ("a",)),
        ("punzi_scale_neg", "punzi", {"background_scale": -1.0}, ("background_scale",)),
        ("ams_b_reg_neg", "ams", {"b_reg": -1.0}, ("b_reg",)),
        ("ams_signal_zero", "ams", {"signal_scale": 0.0}, ("signal_scale",)),
        ("ams_target", "ams", {"target": 0.5}, ("target",)),
        ("level_zero", "indistinguishability", {"level": 0.0}, ("level",)),
        ("level_str", "indistinguishability", {"level": "0.5"}, ("level",)),
        ("level_unreached", "indistinguishability", {"level": 0.999}, ("level",)),
        ("exclude_self_str", "f1", {"exclude_self": "no"}, ("exclude_self",)),
        ("maximize_named", "f1", {"maximize": False}, ("maximize",)),
        ("callable_maximize_str", lambda *a: a[0], {"maximize": "yes"}, ("maximize",)),
        ("callable_raises", bad_fn("raise"), {}, ("criterion", "callable")),
        ("callable_short", bad_fn("short"), {}, ("criterion", "callable")),
        ("callable_str", bad_fn("str"), {}, ("criterion", "callable")),
        ("callable_scalar", bad_fn("scalar"), {}, ("criterion", "callable")),
        ("callable_all_nan", bad_fn("nan"), {}, ("criterion", "NaN")),
        ("callable_none", bad_fn("none"), {}, ("criterion", "callable")),
        ("callable_mutates", bad_fn("mutate"), {}, ("criterion", "callable", "read-only")),
    ]
    for tag, crit, kw, names in bad:
        out.append(_err("best_threshold[params]", tag, lambda crit=crit, kw=kw: (
            best_threshold, (models()[0], models()[1]["a"], crit), kw), *names))
    # the top score a negative: no threshold has precision 1
    out.append(_err("best_threshold[params]", "target_unmet", lambda: (
        best_threshold, ([0, 1, 0, 1], [0.9, 0.8, 0.1, 0.2], "precision"), {"target": 1.0}),
        "target"))
    return out


# --- confusion, dominates, operating_point_intervals ---------------------------------------------

def _confusion_cases() -> list[Case]:
    from indist_fast import confusion
    out: list[Case] = []
    good = [("scalar_inf", INF), ("scalar_neg_inf", -INF), ("list", [0.2, 0.5, 0.9]),
            ("2d", np.array([[0.1, 0.5], [1.0, 2.0]])), ("float32", np.float32(0.45)),
            ("int", 1), ("empty", np.array([])), ("exact_scores", "SCORES"),
            ("between", "BETWEEN"), ("readonly", "RO"), ("unsorted", [0.9, 0.1, 0.5, 0.5])]
    for weighted in (False, True):
        for tag, t in good:
            def thresholds(t: Any = t) -> Any:
                s = models()[1]["a"]
                if isinstance(t, str):
                    u = np.unique(s)
                    if t == "SCORES":
                        return u
                    if t == "BETWEEN":
                        return (u[1:] + u[:-1]) / 2
                    ro = u.copy()
                    ro.setflags(write=False)
                    return ro
                return t
            out.append(_ok("confusion[thresholds]", f"{tag}_w={weighted}",
                           lambda thresholds=thresholds, weighted=weighted: (
                               confusion, (models()[0], models()[1]["a"], thresholds()),
                               {"sample_weight": models()[2] if weighted else None}),
                           lambda c, thresholds=thresholds, weighted=weighted: check_confusion(
                               c, _mask(models()[0]), models()[1]["a"],
                               models()[2] if weighted else None, thresholds())))
    for tag, t in (("nan", NAN), ("list_nan", [0.5, NAN]), ("str", "0.5"), ("none", None),
                   ("complex", 1j), ("dict", {"a": 1}), ("strs", ["a"]), ("bool", True),
                   ("ragged", [[0.1], [0.2, 0.3]]), ("object_none", np.array([None, 0.5]))):
        out.append(_err("confusion[thresholds]", f"bad_{tag}", lambda t=t: (
            confusion, (models()[0], models()[1]["a"], t), {}), "threshold"))
    out.append(_err("confusion[thresholds]", "exclude_self_str", lambda: (
        confusion, (models()[0], models()[1]["a"], 0.5), {"exclude_self": "no"}),
        "exclude_self"))
    return out


def _dominates_entry() -> Entry:
    from indist_fast import dominates

    def check(o: Oracle, d: Any, ri: RowInput) -> None:
        if not (d.a_dominates and d.b_dominates) or d.max_gap_a or d.max_gap_b:
            raise Wrong(f"a model against itself: {d}")
    return Entry("dominates[itself]", lambda ri: (dominates, (ri.y, ri.s, ri.s),
                                                  {"sample_weight": ri.w,
                                                   "pos_label": ri.pos_label}),
                 check, extra_errors=("score_a", "score_b"))


def _confusion_entry() -> Entry:
    """confusion at every distinct score, the midpoints between them and +-inf, over the
    table of row inputs (the thresholds from the input's canonical scores)."""
    from indist_fast import confusion

    def thresholds(ri: RowInput) -> np.ndarray:
        if ri.canon is None or not len(ri.canon[1]):
            return np.array([0.5])
        u = np.unique(ri.canon[1])[:400]
        with np.errstate(over="ignore", invalid="ignore"):
            mid = u[:-1] / 2 + u[1:] / 2
        return np.r_[-INF, u, mid[np.isfinite(mid)], INF]

    def check(o: Oracle, c: Any, ri: RowInput) -> None:
        if o.huge or o.large:
            return
        check_confusion(c, o.y, o.s, o.w, thresholds(ri))
    return Entry("confusion[all_thresholds]", lambda ri: (
        confusion, (ri.y, ri.s, thresholds(ri)), {"sample_weight": ri.w,
                                                  "pos_label": ri.pos_label}), check)


def _dominates_cases() -> list[Case]:
    from indist_fast import dominates
    out: list[Case] = []
    pairs = [("a_b", "a", "b"), ("b_a", "b", "a"), ("a_c", "a", "c"), ("b_c", "b", "c"),
             ("a_neg_a", "a", "-a"), ("a_monotone_a", "a", "exp_a"), ("a_tied", "a", "tied")]

    def score(key: str) -> np.ndarray:
        sc = models()[1]
        return {"-a": -sc["a"], "exp_a": np.exp(3 * sc["a"]),
                "tied": np.round(sc["a"])}.get(key, sc.get(key))  # type: ignore[arg-type]
    for weighted in (False, True):
        for tag, ka, kb in pairs:
            out.append(_ok("dominates", f"{tag}_w={weighted}",
                           lambda ka=ka, kb=kb, weighted=weighted: (
                               dominates, (models()[0], score(ka), score(kb)),
                               {"sample_weight": models()[2] if weighted else None}),
                           lambda d, ka=ka, kb=kb, weighted=weighted: check_dominance(
                               d, _mask(models()[0]), score(ka), score(kb),
                               models()[2] if weighted else None)))
    # a curve that dominates another: its scores lifted for the positives
    def lifted() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        y, sc, _ = models()
        return y, sc["b"] + 0.3 * y, sc["b"]
    out.append(_ok("dominates", "lifted_positives", lambda: (dominates, lifted(), {}),
                   lambda d: (check_dominance(d, _mask(lifted()[0]), *lifted()[1:], None),
                              None if d.a_dominates else (_ for _ in ()).throw(
                                  Wrong("lifted positives must dominate")))))
    out.append(_ok("dominates", "atol=0.5", lambda: (
        dominates, (models()[0], score("a"), score("c")), {"atol": 0.5}),
        lambda d: check_dominance(d, _mask(models()[0]), score("a"), score("c"), None, 0.5)))
    y0, sc0, _ = models()
    for tag, args, kw, names in (
            ("atol_neg", (y0, sc0["a"], sc0["b"]), {"atol": -1.0}, ("atol",)),
            ("atol_nan", (y0, sc0["a"], sc0["b"]), {"atol": NAN}, ("atol",)),
            ("atol_str", (y0, sc0["a"], sc0["b"]), {"atol": "0"}, ("atol",)),
            ("score_b_nan", (y0, sc0["a"], np.r_[NAN, sc0["b"][1:]]), {}, ("score_b",)),
            ("score_a_nan", (y0, np.r_[NAN, sc0["b"][1:]], sc0["a"]), {}, ("score_a",)),
            ("score_b_short", (y0, sc0["a"], sc0["b"][:-2]), {}, ("score_b", "y_true")),
            ("score_b_none", (y0, sc0["a"], None), {}, ("score_b",)),
            ("score_b_str", (y0, sc0["a"], ["x"] * len(y0)), {}, ("score_b",)),
            ("one_class", (np.zeros_like(y0), sc0["a"], sc0["b"]), {}, ("y_true",)),
            ("weights_neg", (y0, sc0["a"], sc0["b"]), {"sample_weight": -np.ones(len(y0))},
             ("sample_weight",))):
        out.append(_err("dominates", tag, lambda args=args, kw=kw: (dominates, args, kw),
                        *names))
    return out


def _wilson(k: float, n: float, conf: float) -> tuple[float, float]:
    from statistics import NormalDist
    z = NormalDist().inv_cdf(0.5 + conf / 2)
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def _opi_cases() -> list[Case]:
    from indist_fast import operating_point_intervals as opi
    out: list[Case] = []
    for t in (0.5, 0.95, -INF, INF, 1.3):
        for conf in (0.95, 0.5):
            def check(r: Any, t: float = t, conf: float = conf) -> None:
                y, sc, _ = models()
                tp, fp, tn, fn = (float(v) for v in _counts(y, sc["a"], t))
                for name, k, n in (("tpr", tp, tp + fn), ("fpr", fp, fp + tn),
                                   ("precision", tp, tp + fp)):
                    iv = getattr(r, name)
                    if n == 0:
                        expect_close(f"{name} estimate", iv.estimate, math.nan)
                        continue
                    expect_close(f"{name} estimate", iv.estimate, k / n)
                    lo, hi = _wilson(k, n, conf)
                    expect_close(f"{name} low", iv.low, lo, rtol=1e-7)
                    expect_close(f"{name} high", iv.high, hi, rtol=1e-7)
            out.append(_ok("operating_point_intervals", f"t={t}_conf={conf}",
                           lambda t=t, conf=conf: (opi, (models()[0], models()[1]["a"], t),
                                                   {"confidence": conf}), check))
    out.append(_ok("operating_point_intervals", "n_boot=20", lambda: (
        opi, (models()[0], models()[1]["a"], 0.5), {"n_boot": 20, "seed": 1}),
        lambda r: None if r.bootstrap is not None else (_ for _ in ()).throw(
            Wrong("no bootstrap"))))
    bad = [("threshold_nan", (NAN,), {}, ("threshold",)),
           ("threshold_str", ("0.5",), {}, ("threshold",)),
           ("threshold_list", ([0.5],), {}, ("threshold",)),
           ("n_boot_one", (0.5,), {"n_boot": 1}, ("n_boot",)),
           ("stratified_str", (0.5,), {"stratified": "x", "n_boot": 5}, ("stratified",)),
           ("progress_str", (0.5,), {"progress": "x"}, ("progress",))]
    # checked on every call: with and without the bootstrap
    for tag, conf in BAD_CONFIDENCE:
        bad.append((f"confidence={tag}", (0.5,), {"confidence": conf}, ("confidence",)))
    for tag, seed in BAD_SEED:
        bad.append((f"seed={tag}", (0.5,), {"seed": seed}, ("seed",)))
        bad.append((f"seed={tag}_n_boot", (0.5,), {"seed": seed, "n_boot": 5}, ("seed",)))
    for tag, extra, kw, names in bad:
        out.append(_err("operating_point_intervals", tag, lambda extra=extra, kw=kw: (
            opi, (models()[0], models()[1]["a"], *extra), kw), *names))
    return out


def _counts(y: Any, s: np.ndarray, t: float) -> tuple[float, float, float, float]:
    from .entry_oracles import counts_at
    return counts_at(_mask(y), s, None, t)


def entry_point_cases(tmp: str) -> list[Case]:
    """Every case of this module, the pages', the population models' and the CLI's
    (``tmp``: the suite's folder, where the CLI's data file is written)."""
    from .entry_cli import cli_cases
    from .entry_pages import page_and_population_cases
    out = (_compare_cases() + _best_param_cases() + _confusion_cases() + _dominates_cases()
           + _opi_cases())
    for entry in _best_entries() + [_dominates_entry(), _confusion_entry()]:
        for builder in inputs.ALL:
            case = _row_case(entry, builder)
            if case is not None:
                out.append(case)
    return out + page_and_population_cases() + cli_cases(tmp)
