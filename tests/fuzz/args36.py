"""Arguments a call leaves unused are still checked; the messages of five misuses name
the argument (or the data set, or the clashing column); population r_b at extreme
separation is the exact crossing."""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from .cases import Case, _err, _ok
from .checks import Wrong, expect_close
from .params import BAD_CONFIDENCE, BAD_FLAG, BAD_SEED, _rows

# (entry, function path, positional arguments after the rows, keyword base)
_BOOT_FREE = (("evaluate", "evaluate", (), {}),
              ("evaluate_many", "evaluate_many", (), {"groups": "G"}),
              ("report_html", "html.report_html", (), {}),
              ("operating_point_intervals", "operating_point_intervals", (0.5,), {}),
              ("compare", "compare", ("S2",), {}))


def _function(path: str) -> Any:
    import indist_fast
    if path.startswith("html."):
        from indist_fast import html
        return getattr(html, path[5:])
    return getattr(indist_fast, path)


def _call(path: str, extra: tuple, base: dict, arg: str, value: Any) -> Any:
    y, s, _ = _rows()
    g = np.arange(len(y)) % 2
    fill = {"G": g, "S2": s[::-1].copy()}
    extra = tuple(fill.get(x, x) if isinstance(x, str) else x for x in extra)
    kwargs = {k: fill.get(v, v) if isinstance(v, str) else v for k, v in base.items()}
    return _function(path), (y, s, *extra), {**kwargs, arg: value}


def _unused_cases() -> list[Case]:
    out: list[Case] = []
    for entry, path, extra, base in _BOOT_FREE:
        bad = [("seed", BAD_SEED), ("progress", BAD_FLAG)]
        if entry != "operating_point_intervals":     # its confidence is always used
            bad.append(("confidence", BAD_CONFIDENCE))
        for arg, values in bad:
            for tag, value in values:
                if arg == "progress" and tag == "none":
                    continue                         # None: a bar when watched
                out.append(_err(entry, f"unused_{arg}={tag}", lambda path=path, extra=extra,
                                base=base, arg=arg, value=value: _call(path, extra, base,
                                                                       arg, value), arg))
    # valid seeds without n_boot are accepted and change nothing
    for entry, path, extra, base in _BOOT_FREE[:2]:
        out.append(_ok(entry, "unused_seed=valid", lambda path=path, extra=extra, base=base: (
            _call(path, extra, base, "seed", 7)), None))

    import indist_fast
    from indist_fast.population import Binormal
    out.append(_err("Accumulator.result", "empty_levels=bad", lambda: (
        indist_fast.Accumulator().result, (), {"levels": [7]}), "levels"))
    for name in ("indistinguishability_threshold", "precision_at_indistinguishability"):
        out.append(_err(f"population.Binormal.{name}", "no_prevalence_level=bad",
                        lambda name=name: (getattr(Binormal(1.0), name), (), {"level": 7}),
                        "level"))
    return out


def _message_cases(tmp: str) -> list[Case]:
    import indist_fast
    from indist_fast.html import report_html
    out: list[Case] = []
    y, s, _ = _rows()
    out.append(_err("evaluate_many", "by_without_table", lambda: (
        indist_fast.evaluate_many, _rows()[:2], {"by": "g"}), "by="))
    for shape in ((len(y), 1), (len(y), 2)):
        out.append(_err("evaluate_many", f"groups_2d{shape}", lambda shape=shape: (
            indist_fast.evaluate_many, _rows()[:2], {"groups": np.ones(shape)}), "groups"))
        out.append(_err("html.report_html", f"groups_2d{shape}", lambda shape=shape: (
            report_html, _rows()[:2], {"groups": np.ones(shape)}), "groups"))

    def nan_set(which: int) -> Any:
        yy, ss, _ = _rows()
        bad = ss.astype(float)
        bad[1] = math.nan
        sets = [(yy, ss), (yy, ss)]
        sets[which] = (yy, bad)
        return indist_fast.compare, tuple(sets), {"paired": False}
    out.append(_err("compare", "unpaired_nan_in_a", lambda: nan_set(0), "data set 'a'"))
    out.append(_err("compare", "unpaired_nan_in_b", lambda: nan_set(1), "data set 'b'"))
    for tag, label in (("list", [1, 2]), ("tuple", (1,)), ("dict", {1: 2}),
                       ("array", np.array([0, 1])), ("nan", math.nan)):
        out.append(_err("Accumulator", f"pos_label={tag}", lambda label=label: (
            indist_fast.Accumulator, (), {"pos_label": label}), "pos_label"))

    def clash() -> Any:
        # one folder a process (inside the run's directory): the two backends'
        # messages name the same paths
        folder = os.path.join(tmp, f"args36-clash-{os.getpid()}")
        for day, rows in (("1", "0,0.1,5\n1,0.9,5\n"), ("2", "1,0.7,6\n0,0.2,6\n")):
            os.makedirs(os.path.join(folder, f"day={day}"), exist_ok=True)
            with open(os.path.join(folder, f"day={day}", "p.csv"), "w") as fh:
                fh.write("y,s,day\n" + rows)
        return indist_fast.evaluate_file, (folder,), {"label": "y", "score": "s",
                                                     "by": "day"}
    out.append(_err("evaluate_file", "partition_key_also_a_column", clash, "day"))
    return out


def _population_cases() -> list[Case]:
    from indist_fast.population import Binormal
    out: list[Case] = []
    # at prevalence 1/2 a Binormal is symmetric about mu/2: 1 - v(mu/2) = u(mu/2)
    for mu in (16, 20, 37, 60):
        out.append(_ok("population.Binormal.indistinguishability_threshold",
                       f"extreme_separation_mu={mu}", lambda mu=mu: (
                           Binormal(mu).indistinguishability_threshold, (0.5,), {}),
                       lambda r, mu=mu: None if abs(r - mu / 2) < 1e-9 else
                       (_ for _ in ()).throw(Wrong(f"r_b = {r!r}, expected {mu / 2}")),
                       backends=False))
    out.append(_ok("population.Binormal.precision_at_indistinguishability",
                   "extreme_separation", lambda: (
                       Binormal(20).precision_at_indistinguishability, (0.5,), {}),
                   lambda c: expect_close("C(r_b)", c, 1.0), backends=False))
    return out


def argument_cases(tmp: str) -> list[Case]:
    """Every case of this module; ``tmp`` is the run's directory (``suite.build_cases``)."""
    return _unused_cases() + _message_cases(tmp) + _population_cases()
