"""Cases for the pages (``report_html`` with several models, groups, segments and the
bootstrap; ``segment_page``; ``roc_demo``) and for the population models' exact
values (``Binormal``: r_b at any separation, rates, sampling; ``Mixture``), valid
calls against oracles (brute-force AUCs, SciPy's normal distribution, symmetry) and
bad arguments by name."""

from __future__ import annotations

import math
import os
import re
import tempfile
from typing import Any

import numpy as np

from .cases import Case, _either, _err, _ok
from .checks import Oracle, Wrong, expect_close
from .entry_oracles import binormal_b, binormal_r_b
from .entry_points import _mask, models
from .params import BAD_CONFIDENCE, BAD_SEED, INF, NAN


def _auc_cells(page: Any) -> list[float]:
    if not isinstance(page, str) or not page.startswith("<!DOCTYPE html>"):
        raise Wrong(f"returned {type(page).__name__}, not an HTML page")
    return [float(v) for v in re.findall(r'<td data-metric="auc" data-value="([^"]*)"', page)]


def _groups() -> np.ndarray:
    y = models()[0]
    return np.where(np.arange(len(y)) % 3 == 0, "u", "v")


def _segment_aucs(names: tuple[str, ...], weighted: bool) -> list[float]:
    y, sc, w = models()
    g = _groups()
    out = []
    for grp in np.unique(g):
        keep = g == grp
        for name in names:
            out.append(Oracle((_mask(y)[keep], sc[name][keep],
                               w[keep] if weighted else None)).auc())
    return out


def _same(what: str, got: list[float], want: list[float]) -> None:
    if len(got) != len(want) or not np.allclose(sorted(got), sorted(want), rtol=1e-9,
                                                   atol=1e-12):
        raise Wrong(f"{what}: AUC cells {got}, expected {want}")


def _page_cases() -> list[Case]:
    from indist_fast import evaluate_many
    from indist_fast.html import report_html, roc_demo, segment_page
    out: list[Case] = []
    for weighted in (False, True):
        def models_page(page: Any, weighted: bool = weighted) -> None:
            y, sc, w = models()
            want = [Oracle((_mask(y), sc[k], w if weighted else None)).auc()
                    for k in ("a", "b")]
            cells = _auc_cells(page)
            _same("summary", cells[:2], want)
            _same("segments", cells[2:], _segment_aucs(("a", "b"), weighted))
        out.append(_ok("html.report_html[models,groups]", f"w={weighted}",
                       lambda weighted=weighted: (report_html, (models()[0], {
                           "a": models()[1]["a"], "b": models()[1]["b"]}), {
                           "groups": _groups(), "max_points": 20,
                           "sample_weight": models()[2] if weighted else None}),
                       models_page, slow=True, backends=False))
        out.append(_ok("html.report_html[segments]", f"w={weighted}",
                       lambda weighted=weighted: (report_html, (models()[0], models()[1]["a"]), {
                           "segments": evaluate_many(models()[0], models()[1]["a"],
                                                     groups=_groups(), sample_weight=(
                                                         models()[2] if weighted else None)),
                           "sample_weight": models()[2] if weighted else None}),
                       lambda p, weighted=weighted: _same(
                           "segments", _auc_cells(p)[1:], _segment_aucs(("a",), weighted)),
                       slow=True))
    out.append(_ok("html.report_html[n_boot]", "n_boot=10", lambda: (
        report_html, (models()[0], models()[1]["a"]), {"n_boot": 10, "seed": 2,
                                                        "confidence": 0.8}),
        lambda p: (_same("summary", _auc_cells(p),
                         [Oracle((_mask(models()[0]), models()[1]["a"], None)).auc()]),
                   None if "80%" in p else (_ for _ in ()).throw(Wrong("no 80% note"))),
        slow=True))
    for tag, kw in (("log_true", {"log": True}), ("log_false", {"log": False}),
                    ("max_points_2", {"max_points": 2}), ("bins_1", {"bins": 1}),
                    ("title_markup", {"title": "<b>&"})):
        out.append(_ok("html.report_html[params]", f"valid_{tag}", lambda kw=kw: (
            report_html, (models()[0], models()[1]["a"]), kw),
            lambda p, kw=kw: (_same("summary", _auc_cells(p)[:1], [
                Oracle((_mask(models()[0]), models()[1]["a"], None)).auc()]),
                None if "title" not in kw or "<b>&" not in p else
                (_ for _ in ()).throw(Wrong("title not escaped"))), slow=True))

    def to_file(which: str) -> Any:
        folder = tempfile.mkdtemp(prefix="fuzz_page_")
        path = os.path.join(folder, "page.html")
        if which == "report":
            return report_html(models()[0], models()[1]["a"], path=path)
        if which == "segments":
            return segment_page(evaluate_many(models()[0], models()[1]["a"],
                                              groups=_groups()), path)
        return roc_demo(path)

    def written(p: Any) -> None:
        text = open(p).read()
        if not text.startswith("<!DOCTYPE html>"):
            raise Wrong(f"{p}: not a page")
        os.remove(p)
        os.rmdir(os.path.dirname(p))
    for which, entry in (("report", "report_html"), ("segments", "segment_page"),
                         ("roc_demo", "roc_demo")):
        out.append(_ok(f"html.{entry}[path]", "written", lambda which=which: (
            to_file, (which,), {}), written, backends=False, slow=True))
    # report_html's other arguments, checked whether or not the bootstrap runs
    y, sc, _ = models()
    bad: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
        ("groups_short", {"groups": _groups()[:-1]}, ("groups",)),
        ("groups_2d_column", {"groups": np.ones((len(y), 1))}, ("groups",)),
        ("groups_nan", {"groups": np.r_[NAN, np.ones(len(y) - 1)]}, ("groups",)),
        ("groups_and_segments", {"groups": _groups(), "segments": "TABLE"},
         ("groups", "segments")),
        ("segments_report", {"segments": "REPORT"}, ("segments",)),
        ("max_points_above", {"max_points": 20001}, ("max_points",)),
        ("bins_huge", {"bins": 10**9}, ("bins",)),
        ("log_int", {"log": 1}, ("log",)),
        ("title_bytes", {"title": b"x"}, ("title",)),
        ("progress_str", {"progress": "yes", "n_boot": 5}, ("progress",)),
        ("path_folder", {"path": tempfile.gettempdir()}, ("path",)),
        ("n_boot_str", {"n_boot": "5"}, ("n_boot",)),
        ("pos_label_missing", {"pos_label": 3}, ("pos_label",)),
    ]
    for tag, conf in BAD_CONFIDENCE:
        bad.append((f"confidence={tag}", {"confidence": conf}, ("confidence",)))
        bad.append((f"confidence={tag}_n_boot", {"confidence": conf, "n_boot": 5},
                    ("confidence",)))
    for tag, seed in BAD_SEED:
        bad.append((f"seed={tag}", {"seed": seed}, ("seed",)))
    for tag, kw, names in bad:
        def make(kw: dict[str, Any] = kw) -> Any:
            kw = dict(kw)
            y, sc, _ = models()
            if kw.get("segments") == "TABLE":
                kw["segments"] = evaluate_many(y, sc["a"], groups=_groups())
            elif kw.get("segments") == "REPORT":
                from indist_fast import evaluate
                kw["segments"] = evaluate(y, sc["a"])
            return report_html, (y, sc["a"]), kw
        out.append(_err("html.report_html[params]", tag, make, *names))

    # segment_page
    def table(weighted: bool = False, several: bool = False) -> Any:
        y, sc, w = models()
        scores = {"a": sc["a"], "b": sc["b"]} if several else sc["a"]
        return evaluate_many(y, scores, groups=_groups(), sample_weight=w if weighted else None)
    for weighted in (False, True):
        for several in (False, True):
            names = ("a", "b") if several else ("a",)
            out.append(_ok("html.segment_page", f"w={weighted}_models={len(names)}",
                           lambda weighted=weighted, several=several: (
                               segment_page, (table(weighted, several),), {}),
                           lambda p, names=names, weighted=weighted: _same(
                               "segments", _auc_cells(p), _segment_aucs(names, weighted))))
    out.append(_ok("html.segment_page", "title", lambda: (
        segment_page, (table(),), {"title": "Q3 <segments>"}),
        lambda p: None if "Q3 &lt;segments&gt;" in p else (_ for _ in ()).throw(
            Wrong("title missing or not escaped"))))
    out.append(_ok("html.segment_page", "one_class_segment", lambda: (
        segment_page, (evaluate_many([0, 1, 1, 1, 1, 1], [.1, .9, .8, .3, .2, .7],
                                     groups=list("aabbbb")),), {}),
        lambda p: _same("segments", [v for v in _auc_cells(p) if not math.isnan(v)], [1.0])))
    for tag, args, kw, names in (
            ("table_none", (None,), {}, ("table",)),
            ("table_report", ("REPORT",), {}, ("table",)),
            ("table_dict", ({"auc": [0.5]},), {}, ("table",)),
            ("table_frame", ("FRAME",), {}, ("table",)),
            ("title_int", ("TABLE",), {"title": 3}, ("title",)),
            ("path_int", ("TABLE", 5), {}, ("path",)),
            ("path_no_folder", ("TABLE", "/no/such/folder/s.html"), {}, ("path",)),
            ("path_folder", ("TABLE", tempfile.gettempdir()), {}, ("path",))):
        def make_sp(args: tuple[Any, ...] = args, kw: dict[str, Any] = kw) -> Any:
            from indist_fast import evaluate
            first = {"REPORT": lambda: evaluate(*models()[:1], models()[1]["a"]),
                     "FRAME": lambda: table().to_pandas(), "TABLE": table}
            a0 = first[args[0]]() if isinstance(args[0], str) else args[0]
            return segment_page, (a0, *args[1:]), kw
        out.append(_err("html.segment_page", tag, make_sp, *names))

    # roc_demo: extreme but valid values give a page holding them
    for tag, kw in (("far_apart", {"mu_pos": 40.0}), ("tiny_sd", {"sd_pos": 1e-6}),
                    ("rare", {"prevalence": 1e-6}), ("threshold_far", {"threshold": -1e6}),
                    ("negative_means", {"mu_pos": -3.0, "mu_neg": -1.0}),
                    ("ints", {"mu_pos": 2, "sd_neg": 3, "threshold": 0})):
        out.append(_ok("html.roc_demo", f"valid_{tag}", lambda kw=kw: (roc_demo, (), kw),
                       lambda p: None if 'id="threshold"' in p else (_ for _ in ()).throw(
                           Wrong("no threshold slider"))))
    for tag, kw, names in (("threshold_inf", {"threshold": INF}, ("threshold",)),
                           ("sd_pos_inf", {"sd_pos": INF}, ("sd_pos",)),
                           ("mu_pos_bool", {"mu_pos": True}, ("mu_pos",)),
                           ("prevalence_nan", {"prevalence": NAN}, ("prevalence",)),
                           ("prevalence_str", {"prevalence": "0.3"}, ("prevalence",)),
                           ("mu_neg_complex", {"mu_neg": 1j}, ("mu_neg",))):
        out.append(_err("html.roc_demo", tag, lambda kw=kw: (roc_demo, (), kw), *names))
    return out


# --- population models ---------------------------------------------------------------------------

def _population_cases() -> list[Case]:
    from scipy import integrate, stats
    from indist_fast.population import Binormal, Mixture
    out: list[Case] = []
    # r_b and B at any separation, against the oracle's root of small terms
    for mu, sigma, p in ((0.5, 1.0, 0.5), (2.0, 1.0, 0.5), (8.0, 1.0, 0.5), (16.0, 1.0, 0.5),
                         (20.0, 1.0, 0.5), (30.0, 1.0, 0.5), (2.0, 0.5, 0.2),
                         (3.0, 2.0, 0.5), (12.0, 1.5, 0.1)):
        out.append(_ok("population.Binormal.indistinguishability_threshold",
                       f"mu={mu}_sigma={sigma}_p={p}", lambda mu=mu, sigma=sigma, p=p: (
                           Binormal(mu, sigma).indistinguishability_threshold, (p,), {}),
                       lambda r, mu=mu, sigma=sigma, p=p: expect_close(
                           "r_b", r, binormal_r_b(mu, sigma, p), rtol=1e-9),
                       backends=False, slow=True))
        out.append(_ok("population.Mixture.indistinguishability_threshold",
                       f"binormal_mu={mu}_sigma={sigma}_p={p}", lambda mu=mu, sigma=sigma, p=p: (
                           Binormal(mu, sigma).as_mixture(p).indistinguishability_threshold,
                           (), {}),
                       lambda r, mu=mu, sigma=sigma, p=p: expect_close(
                           "r_b", r, binormal_r_b(mu, sigma, p), rtol=1e-9),
                       backends=False, slow=True))
        for r in (mu / 2, mu / 2 + 1.0, -1.0):
            out.append(_ok("population.Binormal.b", f"mu={mu}_sigma={sigma}_p={p}_r={r}",
                           lambda mu=mu, sigma=sigma, p=p, r=r: (
                               Binormal(mu, sigma).b, (r, p), {}),
                           lambda v, mu=mu, sigma=sigma, p=p, r=r: expect_close(
                               "B", v, binormal_b(r, mu, sigma, p), rtol=1e-9),
                           backends=False))
    for mu, sigma in ((1.0, 1.0), (2.5, 0.3), (-1.0, 2.0), (6.0, 1.0)):
        for r in (-2.0, 0.0, 1.3, 5.0):
            def rates(v: Any, mu: float = mu, sigma: float = sigma, r: float = r) -> None:
                tpr, fpr = v
                expect_close("tpr", tpr, stats.norm.sf(r, mu, sigma), rtol=1e-9)
                expect_close("fpr", fpr, stats.norm.sf(r), rtol=1e-9)
            out.append(_ok("population.Binormal.rates", f"mu={mu}_sigma={sigma}_r={r}",
                           lambda mu=mu, sigma=sigma, r=r: (
                               lambda: (Binormal(mu, sigma).tpr(r), Binormal(mu, sigma).fpr(r)),
                               (), {}), rates, backends=False))
        for p in (0.01, 0.3):
            def prec(v: Any, mu: float = mu, sigma: float = sigma, p: float = p) -> None:
                tp, fp = p * stats.norm.sf(1.0, mu, sigma), (1 - p) * stats.norm.sf(1.0)
                expect_close("precision", v, tp / (tp + fp), rtol=1e-9)
            out.append(_ok("population.Binormal.precision", f"mu={mu}_sigma={sigma}_p={p}",
                           lambda mu=mu, sigma=sigma, p=p: (Binormal(mu, sigma).precision,
                                                            (1.0, p), {}), prec, backends=False))

            def b_integral(v: Any, mu: float = mu, sigma: float = sigma, p: float = p) -> None:
                # B(-inf) = pi1/2 + pi0 A (every row labelled positive)
                expect_close("B(-inf)", v, p / 2 + (1 - p) * Binormal(mu, sigma).auc, rtol=1e-9)
            out.append(_ok("population.Binormal.b", f"-inf_mu={mu}_sigma={sigma}_p={p}",
                           lambda mu=mu, sigma=sigma, p=p: (Binormal(mu, sigma).b,
                                                            (-INF, p), {}),
                           b_integral, backends=False))
        out.append(_ok("population.Binormal.auc", f"mu={mu}_sigma={sigma}",
                       lambda mu=mu, sigma=sigma: (lambda: Binormal(mu, sigma).auc, (), {}),
                       lambda a, mu=mu, sigma=sigma: expect_close("auc", a, integrate.quad(
                           lambda x: stats.norm.pdf(x) * stats.norm.sf(x, mu, sigma),
                           -40, 40, epsabs=1e-13, epsrel=1e-12, limit=200)[0], rtol=1e-8),
                       backends=False))
    for auc in (1e-6, 0.3, 0.75, 0.999999):
        for sigma in (0.5, 1.0, 3.0):
            out.append(_ok("population.Binormal.for_auc", f"auc={auc}_sigma={sigma}",
                           lambda auc=auc, sigma=sigma: (Binormal.for_auc, (auc, sigma), {}),
                           lambda m, auc=auc, sigma=sigma: (
                               expect_close("auc", m.auc, auc, rtol=1e-9),
                               expect_close("sigma", m.sigma, sigma)), backends=False))

    def sample_check(n: int, p: float, mu: float = 1.0) -> Any:
        def check(v: Any) -> None:
            y, s = v
            if len(y) != n or int(np.sum(y)) != round(n * p) or s.dtype != np.float64:
                raise Wrong(f"{len(y)} rows, {int(np.sum(y))} positives")
            if n >= 10000:          # the sample's AUC within 6 standard errors
                a = Binormal(mu).auc
                from sklearn.metrics import roc_auc_score
                got = roc_auc_score(y, s)
                se = math.sqrt(a * (1 - a) * (1 / y.sum() + 1 / (~y).sum()))
                if abs(got - a) > 6 * se:
                    raise Wrong(f"sample AUC {got}, population {a}")
        return check
    for n, p in ((2, 0.5), (10, 0.3), (20000, 0.2), (7, 0.5)):
        out.append(_ok("population.Binormal.sample", f"n={n}_p={p}", lambda n=n, p=p: (
            Binormal(1.0).sample, (n, p), {"rng": 5}), sample_check(n, p), backends=False))
    out.append(_ok("population.Binormal.sample", "same_seed_same_rows", lambda: (
        lambda: [Binormal(1.0).sample(50, 0.3, rng=9)[1] for _ in range(2)], (), {}),
        lambda v: None if np.array_equal(*v) else (_ for _ in ()).throw(
            Wrong("seed 9 gave two samples")), backends=False))
    out.append(_ok("population.Mixture.sample", "n=20000", lambda: (
        Binormal(1.0).as_mixture(0.2).sample, (20000,), {"rng": 3}), sample_check(20000, 0.2),
        backends=False))
    # bad arguments
    for tag, make, names in (
            ("mu_nan", lambda: (Binormal, (NAN,), {}), ("mu",)),
            ("mu_inf", lambda: (Binormal, (INF,), {}), ("mu",)),
            ("mu_str", lambda: (Binormal, ("1",), {}), ("mu",)),
            ("mu_none", lambda: (Binormal, (None,), {}), ("mu",)),
            ("sigma_zero", lambda: (Binormal, (1.0, 0.0), {}), ("sigma",)),
            ("sigma_neg", lambda: (Binormal, (1.0, -1.0), {}), ("sigma",)),
            ("sigma_inf", lambda: (Binormal, (1.0, INF), {}), ("sigma",)),
            ("for_auc_zero", lambda: (Binormal.for_auc, (0.0,), {}), ("auc",)),
            ("for_auc_one", lambda: (Binormal.for_auc, (1.0,), {}), ("auc",)),
            ("for_auc_sigma_nan", lambda: (Binormal.for_auc, (0.7, NAN), {}), ("sigma",)),
            ("with_auc_str", lambda: (Binormal(1.0).with_auc, ("0.7",), {}), ("auc",)),
            ("as_mixture_zero", lambda: (Binormal(1.0).as_mixture, (0.0,), {}),
             ("prevalence",)),
            ("as_mixture_none", lambda: (Binormal(1.0).as_mixture, (None,), {}),
             ("prevalence",)),
            ("sample_n_1", lambda: (Binormal(1.0).sample, (1, 0.5), {"rng": 0}), ("n",)),
            ("sample_n_float", lambda: (Binormal(1.0).sample, (10.0, 0.5), {"rng": 0}), ("n",)),
            ("sample_n_huge", lambda: (Binormal(1.0).sample, (10**12, 0.5), {"rng": 0}),
             ("n",)),
            ("sample_prevalence_one", lambda: (Binormal(1.0).sample, (10, 1.0), {"rng": 0}),
             ("prevalence",)),
            ("sample_no_positive", lambda: (Binormal(1.0).sample, (10, 0.01), {"rng": 0}),
             ("prevalence", "n")),
            ("sample_rng_str", lambda: (Binormal(1.0).sample, (10, 0.5), {"rng": "x"}),
             ("rng",)),
            ("sample_rng_neg", lambda: (Binormal(1.0).sample, (10, 0.5), {"rng": -1}),
             ("rng",)),
            ("r_b_prevalence_missing", lambda: (Binormal(1.0).indistinguishability_threshold,
                                                (), {}), ("prevalence",)),
            ("r_b_level_one", lambda: (Binormal(1.0).indistinguishability_threshold,
                                       (0.5,), {"level": 1.0}), ("level",)),
            ("b_prevalence_nan", lambda: (Binormal(1.0).b, (0.0, NAN), {}), ("prevalence",)),
            ("precision_r_str", lambda: (Binormal(1.0).precision, ("x", 0.5), {}), ("r",)),
            ("average_precision_prevalence_str", lambda: (
                Binormal(1.0).average_precision, ("0.5",), {}), ("prevalence",)),
            ("population_metric_unknown", lambda: (Binormal(1.0).population, ("b", 0.5), {}),
             ("metric",))):
        out.append(_err("population.Binormal[params]", tag, make, *names,
                        backends=False))
    out.append(_either("population.Mixture", "prevalence_extreme", lambda: (
        lambda: Mixture([(1e-12, 2.0, 1.0)], [(1.0, 0.0, 1.0)]).indistinguishability_threshold(),
        (), {}), ("level", "prevalence"), lambda r: None if math.isfinite(r) else
        (_ for _ in ()).throw(Wrong(f"r_b {r!r}")), backends=False))
    return out


def page_and_population_cases() -> list[Case]:
    return _page_cases() + _population_cases()
