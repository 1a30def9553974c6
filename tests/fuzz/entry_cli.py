"""Cases for the command line's subcommands (``indist_fast.cli.main`` in this process):
evaluate (several models, ``--by``, ``--levels``, ``--total``, ``--csv``, ``--html``),
compare (DeLong and the bootstrap, every alternative, Holm over three models, by
segment), threshold (every criterion with its options), losses and
resolving-power; valid runs against the brute-force oracles, bad options by the
option their one-line error must name (never a traceback)."""

from __future__ import annotations

import csv
import json
import math
import os
import re
from typing import Any, Callable

import numpy as np

from .cases import Case
from .checks import Oracle, Wrong, expect_close, expect_probability
from .entry_oracles import check_best, check_delong_difference, delong_moments, holm, normal_p
from .entry_points import _mask, models
from .files import _cli_json, _run_cli

_COLUMNS = ("y", "a", "b", "c", "g", "w")


def data_file(tmp: str) -> str:
    """The rows of ``entry_points.models`` with a segment column, written once (a worker
    that finds the file reads it; two writing at once each replace it whole)."""
    folder = os.path.join(tmp, "entry_cli")
    path = os.path.join(folder, "models.csv")
    if os.path.exists(path):
        return path
    os.makedirs(folder, exist_ok=True)
    y, sc, w = models()
    g = _segment()
    part = f"{path}.{os.getpid()}"
    with open(part, "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(_COLUMNS)
        for row in zip(y, sc["a"], sc["b"], sc["c"], g, w):
            out.writerow([repr(v.item()) if hasattr(v, "item") and not isinstance(v, str)
                          else v for v in row])
    os.replace(part, path)
    return path


def _segment() -> np.ndarray:
    n = len(models()[0])
    return np.where(np.arange(n) % 3 == 0, "u", "v")


def _oracle(score: str, weighted: bool, keep: np.ndarray | None = None) -> Oracle:
    y, sc, w = models()
    k = np.ones(len(y), bool) if keep is None else keep
    return Oracle((_mask(y)[k], sc[score][k], w[k] if weighted else None))


def _cli(tmp: str, command: str, *argv: str) -> Callable[[], Any]:
    return lambda: (_run_cli, ([command, data_file(tmp), "--label", "y", *argv],), {})


def _case(tmp: str, tag: str, command: str, argv: tuple[str, ...],
          check: Callable[[Any], None] | None = None, names: tuple[str, ...] = (),
          **kw: Any) -> Case:
    entry = f"cli.{command}[options]"
    if check is None:
        return Case(f"{entry}/{tag}", entry, _cli(tmp, command, *argv), names=names,
                    valid=False, kind="cli", **kw)
    # (the JSON text is compared with the oracle, not between the backends: the last
    # digit of a float may differ, which the library's own cases compare within 1e-9)
    return Case(f"{entry}/{tag}", entry, _cli(tmp, command, *argv), check=check, kind="cli",
                backends=False, **kw)


# --- evaluate -------------------------------------------------------------------------------------

def _evaluate_cases(tmp: str) -> list[Case]:
    out: list[Case] = []
    for weighted in (False, True):
        wargs = ("--weight", "w") if weighted else ()

        def one(res: Any, weighted: bool = weighted) -> None:
            d = _cli_json(res)
            expect_close("auc", d["auc"], _oracle("a", weighted).auc())
            expect_close("average_precision", d["average_precision"],
                         _oracle("a", weighted).average_precision())

        def by(res: Any, weighted: bool = weighted, scores: tuple[str, ...] = ("a",)) -> None:
            d = _cli_json(res)
            got = {(g, m): a for g, m, a in zip(d["g"], d["model"], d["auc"])}
            for g in ("u", "v"):
                for m in scores:
                    want = _oracle(m, weighted, _segment() == g).auc()
                    if (g, m) not in got:
                        raise Wrong(f"no row for segment {g}, model {m}: {sorted(got)}")
                    expect_close(f"auc of {g}/{m}", got[g, m], want)

        def several(res: Any, weighted: bool = weighted) -> None:
            d = _cli_json(res)
            got = dict(zip(d["model"], d["auc"]))
            for m in ("a", "b", "c"):
                expect_close(f"auc of {m}", got[m], _oracle(m, weighted).auc())
        out += [
            _case(tmp, f"one_model_w={weighted}", "evaluate",
                  ("--score", "a", *wargs, "--json"), one),
            _case(tmp, f"levels_w={weighted}", "evaluate",
                  ("--score", "a", *wargs, "--levels", "0.3", "0.7", "--json"), one),
            _case(tmp, f"by_w={weighted}", "evaluate",
                  ("--score", "a", *wargs, "--by", "g", "--json"), by),
            _case(tmp, f"by_two_models_w={weighted}", "evaluate",
                  ("--score", "a", "--score", "b", *wargs, "--by", "g", "--json"),
                  lambda res, weighted=weighted: by(res, weighted, ("a", "b"))),
            _case(tmp, f"three_models_w={weighted}", "evaluate",
                  ("--score", "a", "--score", "b", "--score", "c", *wargs, "--json"),
                  several),
            _case(tmp, f"total_w={weighted}", "evaluate",
                  ("--score", "a", *wargs, "--by", "g", "--total", "--json"),
                  lambda res, weighted=weighted: _total(res, weighted)),
        ]
    # --csv and --html: the written file holds the oracle's AUC
    for kind in ("csv", "html"):
        out.append(Case(f"cli.evaluate[options]/{kind}_file", "cli.evaluate[options]",
                        lambda kind=kind: (_write_and_read, (tmp, kind), {}),
                        check=_written_check(kind), kind="call", backends=False,
                        slow=kind == "html"))
    good = ("--score", "a")
    for tag, argv, names in (
            ("levels_nan", (*good, "--levels", "nan"), ("levels", "level")),
            ("levels_one", (*good, "--levels", "1"), ("levels", "level")),
            ("bootstrap_text", (*good, "--bootstrap", "x"), ("--bootstrap",)),
            ("bootstrap_one", (*good, "--bootstrap", "1"), ("bootstrap", "n_boot")),
            ("seed_text", (*good, "--bootstrap", "5", "--seed", "x"), ("--seed",)),
            ("by_missing", (*good, "--by", "nope"), ("nope",)),
            ("by_twice", (*good, "--by", "g", "--by", "g"), ("--by",)),
            ("score_twice", ("--score", "a", "--score", "a"), ("--score",)),
            ("score_missing_column", ("--score", "zz"), ("zz", "score")),
            ("weight_text_column", (*good, "--weight", "g"), ("weight", "g")),
            ("label_twice", (*good, "--label", "y"), ("--label",)),
            ("csv_folder", (*good, "--csv", tmp), ("--csv",)),
            ("csv_no_folder", (*good, "--csv", os.path.join(tmp, "nodir", "o.csv")),
             ("--csv",)),
            ("html_no_folder", (*good, "--html", os.path.join(tmp, "nodir", "o.html")),
             ("--html", "html")),
            ("html_folder", (*good, "--html", tmp), ("--html", "html")),
            ("plot_bad_type", (*good, "--plot", os.path.join(tmp, "x.nope")), ("--plot",)),
            ("memory_limit_neg", (*good, "--memory-limit", "-5"),
             ("memory_limit", "memory-limit")),
            ("pos_label_absent", (*good, "--pos-label", "7"), ("pos_label", "pos-label")),
            ("label_is_score", ("--score", "a", "--label", "a"), ("--label",))):
        out.append(_case(tmp, tag, "evaluate", argv, names=names))
    return out


def _total(res: Any, weighted: bool) -> None:
    d = _cli_json(res)
    rows = list(zip(d["g"], d["auc"]))
    alls = [a for g, a in rows if g is None or str(g).lower() in ("all", "(all)", "total", "")]
    if len(rows) != 3 or len(alls) != 1:
        raise Wrong(f"--total: rows {rows}")
    expect_close("auc over all rows", alls[0], _oracle("a", weighted).auc())


def _write_and_read(tmp: str, kind: str) -> tuple[int, str, str, str]:
    out_path = os.path.join(tmp, "entry_cli", f"out_{os.getpid()}.{kind}")
    code, stdout, err = _run_cli(["evaluate", data_file(tmp), "--label", "y", "--score", "a",
                                  "--by", "g", f"--{kind}", out_path, "--quiet"])
    try:
        with open(out_path) as fh:
            text = fh.read()
    except OSError as exc:
        text = f"(not written: {exc})"
    else:
        os.remove(out_path)
    return code, stdout, err, text


def _written_check(kind: str) -> Callable[[Any], None]:
    def check(res: Any) -> None:
        code, _, err, text = res
        if code != 0 or "Traceback" in err:
            raise Wrong(f"exit {code}: {err.strip()[-200:]}")
        want = sorted(_oracle("a", False, _segment() == g).auc() for g in ("u", "v"))
        if kind == "csv":
            got = sorted(float(r["auc"]) for r in csv.DictReader(text.splitlines()))
        else:               # the summary's AUC (every row), then the segments'
            cells = [float(v) for v in re.findall(
                r'<td data-metric="auc" data-value="([^"]*)"', text)]
            if not cells:
                raise Wrong("--html file: no AUC cell")
            expect_close("--html summary auc", cells[0], _oracle("a", False).auc())
            got = sorted(cells[1:])
        if len(got) != len(want) or not np.allclose(got, want, rtol=1e-9):
            raise Wrong(f"--{kind} file: AUCs {got}, expected {want}")
    return check


# --- compare --------------------------------------------------------------------------------------

def _compare_cases(tmp: str) -> list[Case]:
    out: list[Case] = []
    for weighted in (False, True):
        wargs = ("--weight", "w") if weighted else ()
        for alt in ("two-sided", "greater", "less"):
            def pair(res: Any, weighted: bool = weighted, alt: str = alt) -> None:
                d = _cli_json(res)["differences"]["auc"]
                y, sc, w = models()
                a, b, va, vb, cab = delong_moments(_mask(y), sc["a"], sc["b"],
                                                   w if weighted else None)
                check_delong_difference(_Obj(d), a, b, va + vb - 2 * cab, alt)
            out.append(_case(tmp, f"delong_{alt}_w={weighted}", "compare",
                             ("--score", "a", "--score", "b", *wargs, "--alternative", alt,
                              "--json"), pair))

    def three(res: Any) -> None:
        d = _cli_json(res)
        y, sc, _ = models()
        keys = [("a", "b"), ("a", "c"), ("b", "c")]
        raw = []
        for i, j in keys:
            a, b, va, vb, cab = delong_moments(_mask(y), sc[i], sc[j], None)
            raw.append(normal_p((a - b) / math.sqrt(va + vb - 2 * cab), "two-sided"))
        for (i, j), p in zip(keys, holm(raw)):
            got = d["pairs"][f"{i} vs {j}"]["differences"]["auc"]["p_value"]
            expect_close(f"{i} vs {j} Holm p", got, p, rtol=1e-6)
    out.append(_case(tmp, "holm_three_models", "compare",
                     ("--score", "a", "--score", "b", "--score", "c", "--correction", "holm",
                      "--json"), three))

    def boot(res: Any) -> None:
        d = _cli_json(res)["differences"]
        for m in ("auc", "average_precision", "precision"):
            if d[m]["method"] != "bootstrap":
                raise Wrong(f"{m} compared by {d[m]['method']}")
            expect_probability(f"{m} p_value", d[m]["p_value"])
            if not d[m]["p_value"] >= 1 / 21 - 1e-12:
                raise Wrong(f"{m}: p {d[m]['p_value']} below 1/(B+1)")
        expect_close("auc estimate_a", d["auc"]["estimate_a"], _oracle("a", False).auc())
    out.append(_case(tmp, "bootstrap", "compare",
                     ("--score", "a", "--score", "b", "--method", "bootstrap", "--metric", "auc",
                      "--metric", "average_precision", "--metric", "precision", "--n-boot",
                      "20", "--seed", "4", "--json"), boot))

    def by(res: Any) -> None:
        text = res[1]
        if res[0] != 0 or "Traceback" in res[2]:
            raise Wrong(f"exit {res[0]}: {res[2][-200:]}")
        data = json.loads(text)
        flat = json.dumps(data)
        for g in ("u", "v"):
            keep = _segment() == g
            y, sc, _ = models()
            a = Oracle((_mask(y)[keep], sc["a"][keep], None)).auc()
            if f"{a!r}"[:10] not in flat and f"{a}"[:10] not in flat:
                raise Wrong(f"segment {g}: AUC {a} of model a not in the output")
    out.append(_case(tmp, "by_segment", "compare",
                     ("--score", "a", "--score", "b", "--by", "g", "--json"), by))
    two = ("--score", "a", "--score", "b")
    for tag, argv, names in (
            ("alternative_up", (*two, "--alternative", "up"), ("--alternative",)),
            ("method_x", (*two, "--method", "x"), ("--method",)),
            ("n_boot_text", (*two, "--n-boot", "x"), ("--n-boot",)),
            ("n_boot_delong_only", (*two, "--n-boot", "50"), ("n_boot", "--n-boot")),
            ("confidence_nan", (*two, "--confidence", "nan"), ("confidence",)),
            ("confidence_text", (*two, "--confidence", "x"), ("--confidence",)),
            ("level_one", (*two, "--metric", "precision", "--level", "1"), ("level",)),
            ("seed_neg", (*two, "--method", "bootstrap", "--seed", "-3"), ("--seed", "seed")),
            ("correction_bonferroni", (*two, "--correction", "bonferroni"), ("--correction",)),
            ("score_twice", ("--score", "a", "--score", "a"), ("--score",)),
            ("metric_unknown", (*two, "--metric", "speed"), ("--metric",)),
            ("by_missing", (*two, "--by", "nope"), ("nope",)),
            ("weight_missing_column", (*two, "--weight", "neg"), ("neg", "weight"))):
        out.append(_case(tmp, tag, "compare", argv, names=names))
    return out


class _Obj:
    """A JSON difference read as the dataclass it came from."""

    def __init__(self, d: dict[str, Any]) -> None:
        for k, v in d.items():
            setattr(self, k, math.nan if v is None else v)
        self.p_value_unadjusted = d.get("p_value_unadjusted", d.get("p_value"))


# --- threshold, losses, resolving-power -----------------------------------------------------------

_OPTION = {"c": "--c", "cost_fn": "--cost-fn", "cost_fp": "--cost-fp", "gain_tp": "--gain-tp",
           "gain_tn": "--gain-tn", "a": "--a", "background_scale": "--background-scale",
           "b_reg": "--b-reg", "signal_scale": "--signal-scale", "level": "--level"}


def _threshold_cases(tmp: str) -> list[Case]:
    from .entry_points import CRITERIA
    out: list[Case] = []
    for name, params in CRITERIA:
        argv: list[str] = []
        if "target" in params:
            argv += ["--target", f"{name}={params['target']}"]
        else:
            argv += ["--criterion", name]
            for k, v in params.items():
                argv += [_OPTION[k], str(v)]
        for weighted in (False, True):
            def check(res: Any, name: str = name, params: dict[str, Any] = params,
                      weighted: bool = weighted) -> None:
                d = _cli_json(res)
                o = _oracle("a", weighted)
                if name == "indistinguishability":
                    ok = o.acceptable_points(params.get("level", 0.5))
                    c = o.curves()
                    if d["threshold"] not in [float(c["thresholds"][i]) for i in ok]:
                        raise Wrong(f"threshold {d['threshold']!r}")
                    return
                check_best(_Obj(d), o.y, o.s, o.w, name, params)
            tag = name + "".join(f",{k}={v}" for k, v in params.items())
            out.append(_case(tmp, f"{tag}_w={weighted}", "threshold",
                             ("--score", "a", *(("--weight", "w") if weighted else ()),
                              *argv, "--json"), check))
    s = ("--score", "a")
    for tag, argv, names in (
            ("target_text", (*s, "--target", "recall=x"), ("--target",)),
            ("target_no_rate", (*s, "--target", "0.5"), ("--target", "--criterion")),
            ("target_above1", (*s, "--target", "fpr=1.5"), ("target",)),
            ("target_unmet", ("--score", "c", "--target", "precision=1"), ("target",
                                                                          "precision")),
            ("target_and_criterion", (*s, "--target", "recall=0.5", "--criterion", "f1"),
             ("--target", "--criterion")),
            ("c_above1", (*s, "--criterion", "cost", "--c", "2"), ("c", "--c")),
            ("c_and_costs", (*s, "--criterion", "cost", "--c", "0.5", "--cost-fn", "1",
                             "--cost-fp", "1"), ("--c", "--cost-fn", "c=", "cost_fn")),
            ("gain_alone", (*s, "--criterion", "cost", "--gain-tp", "1"), ("--gain-tn",
                                                                            "gain_tn")),
            ("punzi_a_zero", (*s, "--criterion", "punzi", "--a", "0"), ("a", "--a")),
            ("punzi_text", (*s, "--criterion", "punzi", "--a", "x"), ("--a",)),
            ("ams_b_reg_neg", (*s, "--criterion", "ams", "--b-reg", "-1"), ("b_reg",
                                                                             "--b-reg")),
            ("ams_with_a", (*s, "--criterion", "ams", "--a", "1"), ("--a",)),
            ("level_one", (*s, "--criterion", "indistinguishability", "--level", "1"),
             ("level", "--level")),
            ("level_with_f1", (*s, "--criterion", "f1", "--level", "0.4"), ("--level",)),
            ("score_twice", ("--score", "a", "--score", "b", "--criterion", "f1"),
             ("--score",))):
        out.append(_case(tmp, tag, "threshold", argv, names=names))
    return out


def _losses_cases(tmp: str) -> list[Case]:
    from indist_fast.metrics import threshold_choice as tc
    out: list[Case] = []
    for tag, argv, kw in (
            ("default", (), {}), ("t=0.4", ("--t", "0.4"), {"t": 0.4}),
            ("q=0.3", ("--q", "0.3"), {"q": 0.3}), ("skew", ("--condition", "skew"),
                                                    {"condition": "skew"}),
            ("beta", ("--beta", "2", "3"), {"cost_distribution": (2.0, 3.0)}),
            ("weighted", ("--weight", "w"), {"weighted": True})):
        def check(res: Any, kw: dict[str, Any] = kw) -> None:
            d = _cli_json(res)
            kw = dict(kw)
            y, sc, w = models()
            weighted = kw.pop("weighted", False)
            kw.setdefault("t", 0.5)
            want = tc.compare_methods(y, sc["c"], sample_weight=w if weighted else None,
                                      **kw)
            got = {r["method"]: r["expected_loss"] for r in d["rows"]}
            for row in want.rows:
                g = got.get(row.method, "missing")
                if g is None and math.isnan(row.expected_loss):
                    continue
                if g == "missing" or not math.isclose(float(g), row.expected_loss,
                                                       rel_tol=1e-9, abs_tol=1e-12):
                    raise Wrong(f"{row.method}: {g!r}, the library gives {row.expected_loss!r}")
            o = _oracle("c", weighted)
            if "rate-uniform" in got and not kw.get("cost_distribution") \
                    and kw.get("condition", "cost") == "cost":
                pi1, pi0 = o.pis()
                expect_close("rate-uniform", got["rate-uniform"],
                             0.5 + pi0 * pi1 * (1 - 2 * o.auc()))
        out.append(_case(tmp, tag, "losses", ("--score", "c", *argv, "--json"), check))
    s = ("--score", "c")
    for tag, argv, names in (
            ("q_nan", (*s, "--q", "nan"), ("q",)), ("q_text", (*s, "--q", "x"), ("--q",)),
            ("t_inf_text", (*s, "--t", "x"), ("--t",)),
            ("beta_neg", (*s, "--beta", "-1", "2"), ("beta", "cost_distribution")),
            ("beta_one_value", (*s, "--beta", "2"), ("--beta",)),
            ("condition_x", (*s, "--condition", "x"), ("--condition",))):
        out.append(_case(tmp, tag, "losses", argv, names=names))
    return out


def _resolving_power_cases(tmp: str) -> list[Case]:
    out: list[Case] = []
    for scale in ("normal", "scores"):
        def check(res: Any) -> None:
            d = _cli_json(res)
            expect_close("auc", d["auc"], _oracle("a", False).auc())
            if d["n_rep"] != 20 or not d["rows"]:
                raise Wrong(f"n_rep {d['n_rep']}, {len(d['rows'])} rows")
            for row in d["rows"]:
                lo, hi = row["interval"]
                if not lo <= hi:
                    raise Wrong(f"{row['metric']}: interval {row['interval']}")
        out.append(_case(tmp, f"scale={scale}", "resolving-power",
                         ("--score", "a", "--n-rep", "20", "--seed", "2", "--scale", scale,
                          "--json"), check, slow=True))
    s = ("--score", "a")
    for tag, argv, names in (
            ("scale_x", (*s, "--scale", "x"), ("--scale",)),
            ("n_rep_text", (*s, "--n-rep", "x"), ("--n-rep",)),
            ("n_rep_one", (*s, "--n-rep", "1"), ("n_rep", "--n-rep")),
            ("seed_text", (*s, "--seed", "x"), ("--seed",)),
            ("weight_given", (*s, "--weight", "w"), ("--weight",))):
        out.append(_case(tmp, tag, "resolving-power", argv, names=names))
    return out


def cli_cases(tmp: str) -> list[Case]:
    return (_evaluate_cases(tmp) + _compare_cases(tmp) + _threshold_cases(tmp)
            + _losses_cases(tmp) + _resolving_power_cases(tmp))
