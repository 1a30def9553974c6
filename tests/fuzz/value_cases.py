"""Cases for values at the edges of what the inputs hold: integer scores beyond 2**53
(object arrays, CSV, the CLI), dates and timestamps as segments (ISO text out),
pyarrow arrays as ``groups``, segment columns mixing value types, NaT as a missing
segment value."""

from __future__ import annotations

import datetime
import json
import os
from typing import Any, Callable

import numpy as np

from .cases import Case, _err, _ok
from .checks import Oracle, Wrong, expect_close
from .files import _run_cli

BIG = 2**53
Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([.1, .9, .3, .4, .2, .5, .8, .6])
HALVES = ["a"] * 4 + ["b"] * 4


def _segment_check(want_values: list[Any], name: str = "group") -> Callable[[Any], None]:
    """Each row of the table is the brute-force AUC of its half of the rows, and the
    segment values are ``want_values`` in JSON (``to_dict``), which must dump."""
    def check(table: Any) -> None:
        d = table.to_dict()
        json.dumps(d)
        if d[name] != want_values:
            raise Wrong(f"{name}: {d[name]!r}, expected {want_values!r}")
        for k, half in enumerate((slice(0, 4), slice(4, 8))):
            expect_close(f"auc[{k}]", d["auc"][k], Oracle((Y[half] == 1, S[half], None)).auc())
        table.to_arrow()
    return check


def _many(groups: Callable[[], Any]) -> Callable[[], Any]:
    def make() -> Any:
        import indist_fast
        return indist_fast.evaluate_many, (Y, S), {"groups": groups()}
    return make


def _csv(tmp: str, name: str, text: str) -> str:
    path = os.path.join(tmp, name)
    with open(path, "w") as fh:
        fh.write(text)
    return path


def value_cases(tmp: str) -> list[Case]:
    import indist_fast
    out: list[Case] = []

    # integers beyond 2**53: refused on every path, exact ones kept
    for tag, scores in (("object_int_2**53+1", [BIG + 1, BIG, 1, 2]),
                        ("object_int_-2**53-1", [-(BIG + 1), -BIG, 1, 2]),
                        ("object_int_10**30", [10**30 + 1, 10**30, 1, 2])):
        out.append(_err("evaluate", tag, lambda scores=scores: (
            indist_fast.evaluate, ([0, 1, 0, 1], np.array(scores, dtype=object)), {}),
            "y_score"))
    exact = np.array([BIG, BIG - 1, 1, 2**60], dtype=object)
    out.append(_ok("evaluate", "object_int_exact_2**53", lambda: (
        indist_fast.evaluate, ([0, 1, 0, 1], exact), {"levels": [0.5]}),
        lambda r: expect_close("auc", r.auc, Oracle((np.array([0, 1, 0, 1]) == 1,
                                                     exact.astype(float), None)).auc())))
    big_csv = f"y,m1\n0,{BIG + 1}\n1,{BIG}\n0,1\n1,2\n"
    out.append(_err("evaluate_file", "csv_int_2**53+1", lambda: (
        indist_fast.evaluate_file, (_csv(tmp, "big_int.csv", big_csv),),
        {"label": "y", "score": "m1"}), "score", "m1"))
    out.append(Case("cli/evaluate_csv_int_2**53+1", "cli", lambda: (_run_cli, ([
        "evaluate", _csv(tmp, "big_int.csv", big_csv), "--label", "y", "--score", "m1",
        "--json"],), {}), names=("m1",), valid=False, kind="cli"))

    # dates and timestamps as segments: ISO text in JSON
    t1, t2 = datetime.datetime(2024, 1, 1, 10), datetime.datetime(2024, 1, 2, 11, 30)
    for tag, groups, want in (
            ("datetime64_ns", lambda: np.array([t1] * 4 + [t2] * 4, dtype="datetime64[ns]"),
             ["2024-01-01T10:00:00", "2024-01-02T11:30:00"]),
            ("datetime64_D", lambda: np.array([t1] * 4 + [t2] * 4, dtype="datetime64[D]"),
             ["2024-01-01", "2024-01-02"]),
            ("date_objects", lambda: [t1.date()] * 4 + [t2.date()] * 4,
             ["2024-01-01", "2024-01-02"]),
            ("datetime_objects", lambda: [t1] * 4 + [t2] * 4,
             ["2024-01-01T10:00:00", "2024-01-02T11:30:00"])):
        out.append(_ok("evaluate_many", f"groups_{tag}", _many(groups), _segment_check(want)))
    days = "".join(f"{y},{s},2024-01-0{1 + k // 4}\n" for k, (y, s) in enumerate(zip(Y, S)))

    def cli_dates(res: Any) -> None:
        code, stdout, err = res
        if code != 0:
            raise Wrong(f"exit code {code}: {err.strip()[-300:]}")
        got = json.loads(stdout)["day"]
        if got != ["2024-01-01", "2024-01-02"]:
            raise Wrong(f"day: {got!r}")
    out.append(Case("cli/evaluate_by_date_json", "cli", lambda: (_run_cli, ([
        "evaluate", _csv(tmp, "days.csv", "y,m1,day\n" + days), "--label", "y", "--score",
        "m1", "--by", "day", "--json"],), {}), check=cli_dates, kind="cli"))

    # pyarrow arrays as groups, in evaluate_many and report_html
    def arrow(kind: str) -> Callable[[], Any]:
        def make() -> Any:
            import pyarrow as pa
            if kind == "array":
                return pa.array(HALVES)
            if kind == "dictionary":
                return pa.array(HALVES).dictionary_encode()
            return pa.chunked_array([pa.array(HALVES[:3]).dictionary_encode(),
                                     pa.array(HALVES[3:]).dictionary_encode()])
        return make
    for kind in ("array", "dictionary", "chunked_dictionary"):
        out.append(_ok("evaluate_many", f"groups_arrow_{kind}", _many(arrow(kind)),
                       _segment_check(["a", "b"])))

        def page(html: Any) -> None:
            if 'data-value="a"' not in html or 'data-value="b"' not in html:
                raise Wrong("the segment table lacks a segment")
        out.append(_ok("report_html", f"groups_arrow_{kind}", lambda kind=kind: (
            __import__("indist_fast.html", fromlist=["report_html"]).report_html, (Y, S),
            {"groups": arrow(kind)()}), page, backends=False))
    out.append(_err("evaluate_many", "groups_arrow_null", _many(
        lambda: __import__("pyarrow").array(["a", None] + HALVES[2:])), "group"))

    # value types mixed in one segment column: refused by name; ints with floats kept
    out.append(_err("evaluate_many", "groups_mixed_int_str", _many(
        lambda: np.array([1] * 4 + ["a"] * 4, dtype=object)), "group"))
    out.append(_err("evaluate_many", "groups_mixed_int_str_mapping", _many(
        lambda: {"region": np.array([1] * 4 + ["1"] * 4, dtype=object)}), "region"))
    out.append(_ok("evaluate_many", "groups_mixed_int_float", _many(
        lambda: np.array([1] * 4 + [2.5] * 4, dtype=object)), _segment_check([1, 2.5])))

    # NaT is a missing value, as NaN and None are
    nat = ["2024-01-01", "NaT"] + ["2024-01-02"] * 6
    out.append(_err("evaluate_many", "groups_datetime64_nat", _many(
        lambda: np.array(nat, dtype="datetime64[ns]")), "group"))
    out.append(_err("evaluate_many", "groups_pandas_datetime_none", _many(
        lambda: __import__("pandas").Series(__import__("pandas").to_datetime(
            ["2024-01-01", None] + ["2024-01-02"] * 6), name="when")), "when"))
    return out
