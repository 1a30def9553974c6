"""File cases: every format, good and broken, through every reader and the CLI.

``write_files(tmp)`` writes them once (in the parent); ``file_cases(tmp)`` refers to
them by path. Each file has an expectation: the canonical rows it holds, or the
names (argument, column or the path itself) an error must mention.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .cases import Case
from .checks import Oracle, Wrong, check_report, expect_close, expect_probability
from .inputs import _base, _weights

NAN = float("nan")


@dataclass
class FileSpec:
    name: str                       # file name inside the tmp dir
    write: Callable[[str], None]
    rows: tuple[np.ndarray, np.ndarray, np.ndarray] | None   # positive, score, weight
    names: tuple[str, ...] = ()     # error names (besides the path)
    pos_label: Any = None
    label: str = "y"
    weighted_only: bool = False     # the defect sits in the weight column
    either: bool = False            # a correct result or an error naming `names`


# Files whose structure reads fine but whose values are invalid: read_columns (which
# reads, not validates) may return them or refuse them.
VALUE_DEFECTS = {"nan_score", "neg_weight", "nan_weight", "three_labels", "one_class",
                 "nan_text", "coding_change", "bool_nulls", "null_label", "null_score",
                 "null_weight", "string_score", "mixed_score", "latin1", "list_scores",
                 "duplicate_columns", "empty_rows", "header_only"}


def _data(n: int = 12) -> dict[str, np.ndarray]:
    y, s = _base(n, 11)
    return {"y": y, "s": s, "w": _weights(n, 12)}


def _rows(d: dict[str, np.ndarray], pos: Any = 1) -> tuple[np.ndarray, ...]:
    return (np.asarray(d["y"]) == pos, np.asarray(d["s"], np.float64),
            np.asarray(d["w"], np.float64))


def _npy(cols: dict[str, np.ndarray]) -> Callable[[str], None]:
    def write(path: str) -> None:
        n = len(next(iter(cols.values())))
        arr = np.empty(n, dtype=[(k, v.dtype) for k, v in cols.items()])
        for k, v in cols.items():
            arr[k] = v
        np.save(path, arr)
    return write


def _npz(cols: dict[str, Any], compressed: bool = False) -> Callable[[str], None]:
    def write(path: str) -> None:
        (np.savez_compressed if compressed else np.savez)(path, **cols)
    return write


def _csv(text: str | Callable[[], str]) -> Callable[[str], None]:
    def write(path: str) -> None:
        with open(path, "w", newline="") as fh:
            fh.write(text() if callable(text) else text)
    return write


def _csv_cols(cols: dict[str, Any], sep: str = ",", end: str = "\n") -> str:
    keys = list(cols)
    lines = [sep.join(keys)]
    for i in range(len(cols[keys[0]])):
        lines.append(sep.join(_fmt(cols[k][i]) for k in keys))
    return end.join(lines) + end


def _fmt(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    return str(v)


def _parquet(cols: Callable[[], Any], row_group_size: int | None = None) -> Callable[[str], None]:
    def write(path: str) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq
        table = cols()
        if not isinstance(table, pa.Table):
            table = pa.table(table)
        pq.write_table(table, path, row_group_size=row_group_size)
    return write


def _bytes(data: bytes) -> Callable[[str], None]:
    def write(path: str) -> None:
        with open(path, "wb") as fh:
            fh.write(data)
    return write


def _truncated(inner: Callable[[str], None], keep: float = 0.6) -> Callable[[str], None]:
    def write(path: str) -> None:
        root, ext = os.path.splitext(path)
        full = root + ".full" + ext          # numpy appends the extension otherwise
        inner(full)
        with open(full, "rb") as fh:
            data = fh.read()
        os.remove(full)
        with open(path, "wb") as fh:
            fh.write(data[: int(len(data) * keep)])
    return write


def _garbage(seed: int) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, 500, dtype=np.uint8).tobytes()


def specs() -> list[FileSpec]:
    d = _data()
    good = _rows(d)
    # single-letter column names are quoted: a bare "y" would match any message
    Y, S, W = (("y_true", "label", "'y'"), ("y_score", "score", "'s'"),
               ("sample_weight", "weight", "'w'"))
    out: list[FileSpec] = []
    add = out.append
    n = len(d["y"])
    nan_s = dict(d, s=np.r_[NAN, d["s"][1:]])
    neg_w = dict(d, w=np.r_[-1.0, d["w"][1:]])
    nan_w = dict(d, w=np.r_[NAN, d["w"][1:]])
    three = dict(d, y=np.r_[2, d["y"][1:]])
    onecls = dict(d, y=np.ones(n, int))
    inf_s = dict(d, s=np.where(d["y"] == 1, np.inf, d["s"]))
    pm1 = dict(d, y=d["y"] * 2 - 1)
    zero_w = dict(d, w=np.where(np.arange(n) % 3 == 0, 0.0, d["w"]))
    f32 = dict(d, s=d["s"].astype(np.float32))
    f32_rows = (good[0], d["s"].astype(np.float32).astype(np.float64), good[2])
    boolean = dict(d, y=d["y"] == 1)
    # --- .npy (structured)
    for tag, cols, rows, names in (("good", d, good, ()), ("pm1", pm1, good, ()),
                                   ("bool", boolean, good, ()), ("f32", f32, f32_rows, ()),
                                   ("inf", inf_s, _rows(inf_s), ()),
                                   ("zero_w", zero_w, _rows(zero_w), ()),
                                   ("nan_score", nan_s, None, S), ("neg_weight", neg_w, None, W),
                                   ("nan_weight", nan_w, None, W),
                                   ("three_labels", three, None, Y),
                                   ("one_class", onecls, None, Y)):
        add(FileSpec(f"{tag}.npy", _npy(cols), rows, names,
                     weighted_only=tag in ("neg_weight", "nan_weight")))
    add(FileSpec("str_labels.npy", _npy(dict(d, y=np.where(d["y"] == 1, "p", "n"))), good,
                 pos_label="p"))
    add(FileSpec("missing_label.npy", _npy({"label": d["y"], "s": d["s"], "w": d["w"]}), None,
                 Y))
    add(FileSpec("plain_array.npy", lambda p: np.save(p, d["s"]), None, Y + ("columns",)))
    add(FileSpec("object.npy", lambda p: np.save(p, np.array([{"y": 1}], dtype=object),
                                                 allow_pickle=True), None, ("pickle", "object")))
    add(FileSpec("empty_rows.npy", _npy({k: v[:0] for k, v in d.items()}), None,
                 ("rows", "empty") + Y))
    add(FileSpec("2d_struct.npy", lambda p: np.save(p, np.zeros((3, 4), dtype=[
        ("y", "i8"), ("s", "f8"), ("w", "f8")])), None, Y + S + ("1d", "shape")))
    add(FileSpec("empty.npy", _bytes(b""), None))
    add(FileSpec("garbage.npy", _bytes(_garbage(1)), None))
    add(FileSpec("truncated.npy", _truncated(_npy(d)), None))
    add(FileSpec("truncated_header.npy", _truncated(_npy(d), 0.35), None))
    # --- .npz
    for compressed in (False, True):
        z = "zc" if compressed else "z"
        for tag, cols, rows, names in (("good", d, good, ()), ("pm1", pm1, good, ()),
                                       ("bool", boolean, good, ()),
                                       ("f32", f32, f32_rows, ()),
                                       ("inf", inf_s, _rows(inf_s), ()),
                                       ("nan_score", nan_s, None, S),
                                       ("neg_weight", neg_w, None, W),
                                       ("three_labels", three, None, Y),
                                       ("one_class", onecls, None, Y)):
            add(FileSpec(f"{tag}_{z}.npz", _npz(cols, compressed), rows, names,
                         weighted_only=tag == "neg_weight"))
        add(FileSpec(f"lengths_{z}.npz", _npz(dict(d, s=d["s"][:-2]), compressed), None,
                     ("length",) + Y + S))
        add(FileSpec(f"member_2d_{z}.npz", _npz(dict(d, s=np.ones((n, 2))), compressed), None,
                     S + ("1d",)))
        add(FileSpec(f"member_object_{z}.npz", _npz(dict(d, y=np.array(
            [None] * n, dtype=object)), compressed), None, Y + ("object", "pickle")))
        add(FileSpec(f"member_str_labels_{z}.npz", _npz(dict(
            d, y=np.where(d["y"] == 1, "p", "n")), compressed), good, pos_label="p"))
        add(FileSpec(f"missing_label_{z}.npz", _npz({"s": d["s"], "w": d["w"]}, compressed),
                     None, Y))
        add(FileSpec(f"scalar_member_{z}.npz", _npz(dict(d, s=np.float64(1.0)), compressed),
                     None, S + ("1d",)))
        add(FileSpec(f"truncated_{z}.npz", _truncated(_npz(d, compressed)), None))
        add(FileSpec(f"empty_rows_{z}.npz", _npz({k: v[:0] for k, v in d.items()}, compressed),
                     None, ("rows", "empty") + Y))
    add(FileSpec("empty.npz", _bytes(b""), None))
    add(FileSpec("garbage.npz", _bytes(_garbage(2)), None))
    add(FileSpec("zip_not_npy.npz", lambda p: __import__("zipfile").ZipFile(p, "w").writestr(
        "y.txt", "hello"), None, Y))
    # --- .csv
    for tag, cols, rows, names in (("good", d, good, ()), ("pm1", pm1, good, ()),
                                   ("inf", inf_s, _rows(inf_s), ()),
                                   ("zero_w", zero_w, _rows(zero_w), ()),
                                   ("nan_score", nan_s, None, S), ("neg_weight", neg_w, None, W),
                                   ("three_labels", three, None, Y),
                                   ("one_class", onecls, None, Y)):
        add(FileSpec(f"{tag}.csv", _csv(_csv_cols(cols)), rows, names,
                     weighted_only=tag == "neg_weight"))
    add(FileSpec("bool_words.csv", _csv(_csv_cols(dict(d, y=np.where(d["y"] == 1, "true",
                                                                       "false")))), good,
                 ("pos_label",), pos_label="true", either=True))
    add(FileSpec("str_labels.csv", _csv(_csv_cols(dict(d, y=np.where(d["y"] == 1, "p", "n")))),
                 good, pos_label="p"))
    add(FileSpec("crlf.csv", _csv(_csv_cols(d, end="\r\n")), good))
    add(FileSpec("quoted.csv", _csv(lambda: "y,s,w\n" + "".join(
        f'"{a}","{float(b)!r}","{float(c)!r}"\n' for a, b, c in zip(d["y"], d["s"], d["w"]))), good))
    add(FileSpec("trailing_blank.csv", _csv(_csv_cols(d) + "\n\n"), good))
    add(FileSpec("extra_column.csv", _csv(_csv_cols(dict(d, z=np.arange(n)))), good))
    add(FileSpec("reordered.csv", _csv(_csv_cols({"w": d["w"], "s": d["s"], "y": d["y"]})),
                 good))
    add(FileSpec("nan_text.csv", _csv(lambda: _csv_cols(d).replace(
        repr(float(d["s"][3])), "nan", 1)), None, S))
    add(FileSpec("null_score.csv", _csv(lambda: "y,s,w\n" + "".join(
        f"{a},{'' if i == 2 else repr(float(b))},{float(c)!r}\n"
        for i, (a, b, c) in enumerate(zip(d["y"], d["s"], d["w"])))), None, S))
    add(FileSpec("null_label.csv", _csv(lambda: "y,s,w\n" + "".join(
        f"{'' if i == 2 else a},{float(b)!r},{float(c)!r}\n"
        for i, (a, b, c) in enumerate(zip(d["y"], d["s"], d["w"])))), None, Y))
    add(FileSpec("null_weight.csv", _csv(lambda: "y,s,w\n" + "".join(
        f"{a},{float(b)!r},{'' if i == 2 else repr(float(c))}\n"
        for i, (a, b, c) in enumerate(zip(d["y"], d["s"], d["w"])))), None, W,
        weighted_only=True))
    add(FileSpec("string_score.csv", _csv(_csv_cols(dict(d, s=np.array(["hi"] * n)))), None,
                 S))
    add(FileSpec("mixed_score.csv", _csv(lambda: _csv_cols(d).replace(
        repr(float(d["s"][5])), "abc", 1)), None, S))
    add(FileSpec("missing_label.csv", _csv(_csv_cols({"label": d["y"], "s": d["s"],
                                                      "w": d["w"]})), None, Y))
    add(FileSpec("semicolons.csv", _csv(_csv_cols(d, sep=";")), None, Y))
    add(FileSpec("ragged.csv", _csv("y,s,w\n1,0.5,1\n0,0.2\n1,0.9,1,7\n0,0.1,1\n"), None,
                 ("line", "row", "field", "column")))
    add(FileSpec("header_only.csv", _csv("y,s,w\n"), None, ("rows", "empty") + Y))
    add(FileSpec("empty.csv", _bytes(b""), None, ("empty",)))
    add(FileSpec("blank_lines.csv", _bytes(b"\n\n\n"), None, ("empty",) + Y))
    add(FileSpec("garbage.csv", _bytes(_garbage(3)), None))
    add(FileSpec("binary_zeros.csv", _bytes(b"\x00" * 300), None))
    add(FileSpec("latin1.csv", _bytes("y,s,w\n1,0.5,1\n0,\xe9,1\n".encode("latin-1")), None,
                 S))
    add(FileSpec("bom_header.csv", _csv("\ufeff" + _csv_cols(d)), good, Y, either=True))
    add(FileSpec("duplicate_columns.csv", _csv("y,s,s\n1,0.5,0.4\n0,0.3,0.2\n"), None,
                 S + ("duplicate",)))
    # --- .parquet
    import_ok = True
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        import_ok = False
    if import_ok:
        def tbl(**over: Any) -> Callable[[], Any]:
            def make() -> Any:
                import pyarrow as pa
                cols = {"y": d["y"], "s": d["s"], "w": d["w"]}
                cols.update(over)
                return pa.table({k: (v if isinstance(v, (pa.Array, pa.ChunkedArray))
                                     else pa.array(v)) for k, v in cols.items()})
            return make

        def pa_(fn: str, *a: Any, **k: Any) -> Any:
            import pyarrow as pa
            return getattr(pa, fn)(*a, **k)

        for tag, over, rows, names, pos in (
                ("good", {}, good, (), None), ("pm1", {"y": pm1["y"]}, good, (), None),
                ("bool", {"y": d["y"] == 1}, good, (), None),
                ("f32", {"s": f32["s"]}, f32_rows, (), None),
                ("inf", {"s": inf_s["s"]}, _rows(inf_s), (), None),
                ("zero_w", {"w": zero_w["w"]}, _rows(zero_w), (), None),
                ("str_labels", {"y": np.where(d["y"] == 1, "p", "n")}, good, (), "p"),
                ("nan_score", {"s": nan_s["s"]}, None, S, None),
                ("neg_weight", {"w": neg_w["w"]}, None, W, None),
                ("three_labels", {"y": three["y"]}, None, Y, None),
                ("one_class", {"y": onecls["y"]}, None, Y, None),
                ("string_score", {"s": np.array(["a"] * n)}, None, S, None),
                ("int8_labels", {"y": d["y"].astype(np.int8)}, good, (), None),
                ("int_scores", {"s": (d["s"] * 10).astype(np.int64)},
                 (good[0], (d["s"] * 10).astype(np.int64).astype(float), good[2]), (), None)):
            add(FileSpec(f"{tag}.parquet", _parquet(tbl(**over)), rows, names, pos,
                         weighted_only=tag == "neg_weight"))
        add(FileSpec("dict_labels.parquet", _parquet(lambda: tbl(y=pa_("array", np.where(
            d["y"] == 1, "p", "n")).dictionary_encode())()), good, (), "p"))
        add(FileSpec("null_label.parquet", _parquet(lambda: tbl(y=pa_("array", [None] + list(
            d["y"][1:])))()), None, Y))
        add(FileSpec("null_score.parquet", _parquet(lambda: tbl(s=pa_("array", [None] + list(
            d["s"][1:])))()), None, S))
        add(FileSpec("null_weight.parquet", _parquet(lambda: tbl(w=pa_("array", [None] + list(
            d["w"][1:])))()), None, W, weighted_only=True))
        add(FileSpec("bool_nulls.parquet", _parquet(lambda: tbl(y=pa_("array", [None] + list(
            d["y"][1:] == 1)))()), None, Y))
        add(FileSpec("decimal_scores.parquet", _parquet(lambda: tbl(s=pa_("array", [
            __import__("decimal").Decimal(f"{v:.1f}") for v in d["s"]]))()), good, S,
            either=True))
        add(FileSpec("list_scores.parquet", _parquet(lambda: tbl(s=pa_("array", [
            [v] for v in d["s"]]))()), None, S))
        add(FileSpec("coding_change.parquet", _parquet(tbl(y=np.r_[d["y"][:6],
                                                                   d["y"][6:] * 2 - 1]), 6),
                     None, Y))
        add(FileSpec("row_groups.parquet", _parquet(tbl(), 5), good))
        add(FileSpec("missing_label.parquet", _parquet(lambda: tbl()().rename_columns(
            ["label", "s", "w"])), None, Y))
        add(FileSpec("empty_rows.parquet", _parquet(lambda: tbl()().slice(0, 0)), None,
                     ("rows", "empty") + Y))
        add(FileSpec("truncated.parquet", _truncated(_parquet(tbl())), None))
        add(FileSpec("empty.parquet", _bytes(b""), None))
        add(FileSpec("garbage.parquet", _bytes(_garbage(4)), None))
        add(FileSpec("csv_in_disguise.parquet", _csv(_csv_cols(d)), None))
        add(FileSpec("pq_ext.pq", _parquet(tbl()), good))
    # --- paths that are not files
    add(FileSpec("dir.csv", lambda p: os.mkdir(p), None))
    add(FileSpec("dir.npz", lambda p: os.mkdir(p), None))
    add(FileSpec("missing.csv", lambda p: None, None))
    add(FileSpec("missing.parquet", lambda p: None, None))
    add(FileSpec("notes.txt", _csv(_csv_cols(d)), None, ("extension", ".txt")))
    add(FileSpec("noext", _csv(_csv_cols(d)), None, ("extension",)))
    add(FileSpec("UPPER.CSV", _csv(_csv_cols(d)), good))
    return out


def write_files(tmp: str) -> None:
    for spec in specs():
        spec.write(os.path.join(tmp, spec.name))


def _report_check(rows: tuple[np.ndarray, ...], weighted: bool) -> Callable[[Any], None]:
    def check(r: Any) -> None:
        y, s, w = rows
        check_report(Oracle((y, s, w if weighted else None)), r)
    return check


def _read_check(rows: tuple[np.ndarray, ...], pos_label: Any) -> Callable[[Any], None]:
    def check(res: Any) -> None:
        y, s, w = res
        want_y, want_s, want_w = rows
        y = np.asarray(y)
        # a reader may type "true"/"false" text as booleans: True is the positive label
        got_pos = y if y.dtype.kind == "b" else y == (1 if pos_label is None else pos_label)
        if len(got_pos) != len(want_y):
            raise Wrong(f"{len(got_pos)} labels read, expected {len(want_y)}")
        if not np.array_equal(got_pos, want_y):
            raise Wrong("labels read differ from the file's")
        if not np.array_equal(np.asarray(s, np.float64), want_s):
            raise Wrong("scores read differ from the file's")
        if w is None or not np.array_equal(np.asarray(w, np.float64), want_w):
            raise Wrong("weights read differ from the file's")
    return check


def _cli_check(rows: tuple[np.ndarray, ...], weighted: bool, command: str
               ) -> Callable[[Any], None]:
    def check(res: Any) -> None:
        data = _cli_json(res)
        y, s, w = rows
        o = Oracle((y, s, w if weighted else None))
        if command == "evaluate":
            expect_close("auc", data["auc"], o.auc())
            expect_close("average_precision", data["average_precision"], o.average_precision())
            ok = o.acceptable_points(0.5)
            thr = data["threshold"]
            if ok and thr not in [float(o.curves()["thresholds"][i]) for i in ok]:
                raise Wrong(f"threshold {thr!r}")
        else:
            for row in data["rows"]:
                if row["expected_loss"] is not None:
                    expect_probability(row["method"], row["expected_loss"])
    return check


def _cli_json(res: Any) -> Any:
    code, out, err = res
    if code != 0:
        raise Wrong(f"exit code {code}: {err.strip()[-300:]}")
    if "Traceback" in err:
        raise Wrong("traceback on stderr")
    return json.loads(out)


def _compare_check(rows: tuple[np.ndarray, ...]) -> Callable[[Any], None]:
    """``compare --score s --score w --weight w``: each model's weighted AUC by brute
    force, and the difference between them."""
    def check(res: Any) -> None:
        d = _cli_json(res)["differences"]["auc"]
        y, s, w = rows
        a, b = Oracle((y, s, w)).auc(), Oracle((y, w, w)).auc()
        expect_close("estimate_a", d["estimate_a"], a)
        expect_close("estimate_b", d["estimate_b"], b)
        expect_close("estimate", d["estimate"], a - b)
    return check


def _threshold_check(rows: tuple[np.ndarray, ...]) -> Callable[[Any], None]:
    """``threshold --target recall=0.5``: the highest threshold whose weighted recall is
    at least 1/2, by brute force over the distinct scores."""
    def check(res: Any) -> None:
        got = _cli_json(res)
        y, s, w = rows
        recall = {t: w[y & (s >= t)].sum() / w[y].sum() for t in np.unique(s)}
        want = max(t for t, r in recall.items() if r >= 0.5)
        expect_close("threshold", got["threshold"], want)
        expect_close("tp", got["tp"], w[y & (s >= want)].sum())
    return check


def _run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``indist_fast.cli.main`` in this process: exit code, stdout, stderr."""
    import contextlib
    import io
    from indist_fast.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:        # argparse errors
            code = exc.code if isinstance(exc.code, int) else 1
    return int(code or 0), out.getvalue(), err.getvalue()


def _run_cli_process(argv: list[str]) -> tuple[int, str, str]:
    """``python -m indist_fast.cli`` in a fresh process."""
    # in the folder of the package under test: from the checkout's root, `-m` would
    # import the uncompiled tree when the kernels are installed, not built in place
    import indist_fast
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(indist_fast.__file__)))
    proc = subprocess.run([sys.executable, "-m", "indist_fast.cli", *argv],
                          capture_output=True, text=True, timeout=60, cwd=package_root,
                          env=dict(os.environ, PYTHONPATH=package_root))
    return proc.returncode, proc.stdout, proc.stderr


def file_cases(tmp: str) -> list[Case]:
    from indist_fast import evaluate_file
    from indist_fast.io import read_columns
    out: list[Case] = []
    for spec in specs():
        path = os.path.join(tmp, spec.name)
        pos = spec.pos_label
        path_names = ("path", path, spec.name)
        readers: list[tuple[str, bool, Callable[[], Any], str]] = [
            ("io.read_columns", True, lambda path=path: (
                read_columns, (path,), {"label": "y", "score": "s", "weight": "w"}), "read"),
            ("evaluate_file", False, lambda path=path, pos=pos: (
                evaluate_file, (path,), {"label": "y", "score": "s", "pos_label": pos}),
             "report"),
            ("evaluate_file[weight]", True, lambda path=path, pos=pos: (
                evaluate_file, (path,), {"label": "y", "score": "s", "weight": "w",
                                         "pos_label": pos}), "report"),
            ("evaluate_file[out_of_core]", False, lambda path=path, pos=pos: (
                evaluate_file, (path,), {"label": "y", "score": "s", "pos_label": pos,
                                         "memory_limit": 100}), "report"),
            ("evaluate_file[out_of_core,weight]", True, lambda path=path, pos=pos: (
                evaluate_file, (path,), {"label": "y", "score": "s", "weight": "w",
                                         "pos_label": pos, "memory_limit": "100B"}), "report"),
            ("cli.evaluate", True, lambda path=path, pos=pos: (
                _run_cli, (["evaluate", path, "--label", "y", "--score", "s", "--weight", "w",
                            "--json", "--no-progress"]
                           + ([] if pos is None else ["--pos-label", str(pos)]),), {}), "cli"),
            ("cli.losses", False, lambda path=path, pos=pos: (
                _run_cli, (["losses", path, "--label", "y", "--score", "s", "--json"]
                           + ([] if pos is None else ["--pos-label", str(pos)]),), {}),
             "cli-losses"),
        ]
        for entry, weighted, make, kind in readers:
            if spec.weighted_only and not weighted:
                continue                    # the defect is in a column not read
            cid = f"{entry}/{spec.name}"
            is_cli = kind.startswith("cli")
            if spec.rows is not None:
                if kind == "read":
                    check = _read_check(spec.rows, pos)
                elif kind == "report":
                    check = _report_check(spec.rows, weighted)
                else:
                    check = _cli_check(spec.rows, weighted,
                                       "evaluate" if kind == "cli" else "losses")
                out.append(Case(cid, entry, make, names=spec.names + path_names,
                                either=spec.either, check=check,
                                kind="cli" if is_cli else "call"))
                continue
            names = spec.names + path_names
            stem = spec.name.split(".")[0]
            stem = stem[:-3] if stem.endswith("_zc") else stem[:-2] if stem.endswith("_z") \
                else stem
            if kind == "read" and stem in VALUE_DEFECTS:
                out.append(Case(cid, entry, make, names=names, either=True, check=None))
                continue
            out.append(Case(cid, entry, make, names=names, valid=False,
                            kind="cli" if is_cli else "call"))
    # evaluate_file arguments
    good = os.path.join(tmp, "good.csv")
    for tag, limit in (("str", "lots"), ("neg", -1), ("zero", 0), ("bool", True),
                       ("float", 1.5), ("unit", "1XB"), ("nan", float("nan")), ("list", [1])):
        out.append(Case(f"evaluate_file/memory_limit={tag}", "evaluate_file", lambda limit=limit: (
            evaluate_file, (good,), {"label": "y", "score": "s", "memory_limit": limit}),
            names=("memory_limit",), valid=False))
    for tag, kw, names in (
            ("tmp_dir_missing", {"memory_limit": 100, "tmp_dir": os.path.join(tmp, "nodir")},
             ("tmp_dir", "nodir")),
            ("tmp_dir_file", {"memory_limit": 100, "tmp_dir": good}, ("tmp_dir", "good.csv")),
            ("levels_bad", {"levels": [2]}, ("levels",)),
            ("label_none", {"label": None}, ("label",)),
            ("score_int", {"score": 3}, ("score",)),
            ("progress_str", {"progress": "yes"}, ("progress",))):
        out.append(Case(f"evaluate_file/{tag}", "evaluate_file", lambda kw=kw: (
            evaluate_file, (good,), {"label": "y", "score": "s", **kw}), names=names,
            valid=False))
    for tag, p in (("none", None), ("int", 5), ("list", ["a.csv"]), ("bytes_missing", b"nope.csv"),
                   ("empty_str", "")):
        for entry, fn in (("evaluate_file", evaluate_file), ("io.read_columns", read_columns)):
            shown = (os.fsdecode(p),) if isinstance(p, (str, bytes)) and p else ()
            out.append(Case(f"{entry}/path={tag}", entry, lambda fn=fn, p=p: (
                fn, (p,), {"label": "y", "score": "s"}), names=("path",) + shown, valid=False))
    # URIs that cannot be read, found without a network; a filesystem of another kind
    def local_fs() -> Any:
        import pyarrow.fs
        return pyarrow.fs.LocalFileSystem()

    for tag, p, kw, names in (
            ("uri_unknown_scheme", "zz://bucket/x.parquet", lambda: {},
             ("path", "zz://bucket/x.parquet")),
            ("uri_file_missing", "file://" + os.path.join(tmp, "nope.parquet"), lambda: {},
             ("path", "nope.parquet")),
            ("uri_bucket_wildcard", "s3://logs*/x.parquet", lambda: {}, ("path", "logs*")),
            ("filesystem_str", good, lambda: {"filesystem": "s3"}, ("filesystem",)),
            ("npz_through_filesystem", os.path.join(tmp, "good_z.npz"),
             lambda: {"filesystem": local_fs()}, ("path", "good_z.npz")),
            ("missing_through_filesystem", os.path.join(tmp, "nope.csv"),
             lambda: {"filesystem": local_fs()}, ("path", "nope.csv"))):
        out.append(Case(f"evaluate_file/{tag}", "evaluate_file", lambda p=p, kw=kw: (
            evaluate_file, (p,), {"label": "y", "score": "s", **kw()}), names=names,
            valid=False))
    out.append(Case("evaluate_file/pathlib", "evaluate_file", lambda: (
        evaluate_file, (__import__("pathlib").Path(good),), {"label": "y", "score": "s"}),
        check=_report_check(_rows(_data()), False)))
    # CLI arguments (in process) and a few real processes
    cli_bad = [
        ("no_args", [], ("command", "usage")),
        ("unknown_command", ["frobnicate"], ("command", "choice")),
        ("evaluate_no_label", ["evaluate", good, "--score", "s"], ("--label",)),
        ("evaluate_missing_file", ["evaluate", os.path.join(tmp, "nope.csv"), "--label", "y",
                                   "--score", "s"], ("nope.csv", "path")),
        ("evaluate_bad_level", ["evaluate", good, "--label", "y", "--score", "s", "--levels",
                                "2"], ("levels", "level")),
        ("evaluate_level_text", ["evaluate", good, "--label", "y", "--score", "s", "--levels",
                                 "x"], ("--levels",)),
        ("evaluate_bootstrap_zero", ["evaluate", good, "--label", "y", "--score", "s",
                                     "--bootstrap", "0"], ("bootstrap", "n_boot")),
        ("evaluate_bootstrap_huge", ["evaluate", good, "--label", "y", "--score", "s",
                                     "--bootstrap", str(10**12)], ("bootstrap", "n_boot")),
        ("evaluate_memory_bad", ["evaluate", good, "--label", "y", "--score", "s",
                                 "--memory-limit", "lots"], ("memory_limit", "memory-limit")),
        ("evaluate_seed_neg", ["evaluate", good, "--label", "y", "--score", "s", "--bootstrap",
                               "5", "--seed", "-1"], ("seed",)),
        ("evaluate_pos_label_missing", ["evaluate", good, "--label", "y", "--score", "s",
                                        "--pos-label", "7"], ("pos_label", "pos-label")),
        ("evaluate_plot_bad_dir", ["evaluate", good, "--label", "y", "--score", "s", "--plot",
                                   os.path.join(tmp, "nodir", "x.png")], ("plot", "nodir")),
        ("losses_bad_q", ["losses", good, "--label", "y", "--score", "s", "--q", "2"], ("q",)),
        ("losses_bad_beta", ["losses", good, "--label", "y", "--score", "s", "--beta", "0",
                             "1"], ("beta", "cost_distribution")),
        ("losses_bad_condition", ["losses", good, "--label", "y", "--score", "s",
                                  "--condition", "x"], ("--condition", "condition")),
        ("losses_t_nan", ["losses", good, "--label", "y", "--score", "s", "--t", "nan"], ("t",)),
        ("resolving_power_n_rep", ["resolving-power", good, "--label", "y", "--score", "s",
                                   "--n-rep", "0"], ("n_rep", "n-rep")),
        ("resolving_power_missing_col", ["resolving-power", good, "--label", "q", "--score",
                                         "s"], ("label",)),
        ("resolving_power_garbage", ["resolving-power", os.path.join(tmp, "garbage.csv"),
                                     "--label", "y", "--score", "s", "--n-rep", "5"],
         ("garbage.csv", "path")),
        ("demo_seed_neg", ["demo", "--seed", "-1"], ("seed",)),
        ("demo_seed_text", ["demo", "--seed", "x"], ("--seed",)),
        ("compare_one_score", ["compare", good, "--label", "y", "--score", "s"],
         ("--score",)),
        ("compare_metric_b", ["compare", good, "--label", "y", "--score", "s", "--score", "w",
                              "--metric", "b"], ("--metric",)),
        ("compare_n_boot_one", ["compare", good, "--label", "y", "--score", "s", "--score",
                                "w", "--n-boot", "1"], ("--n-boot",)),
        ("compare_bad_level", ["compare", good, "--label", "y", "--score", "s", "--score", "w",
                               "--level", "2"], ("level",)),
        ("compare_bad_confidence", ["compare", good, "--label", "y", "--score", "s", "--score",
                                    "w", "--confidence", "1.5"], ("confidence",)),
        ("compare_missing_by", ["compare", good, "--label", "y", "--score", "s", "--score",
                                "w", "--by", "nope"], ("nope",)),
        ("compare_holm_two", ["compare", good, "--label", "y", "--score", "s", "--score", "w",
                              "--correction", "holm"], ("--correction",)),
        ("threshold_no_criterion", ["threshold", good, "--label", "y", "--score", "s"],
         ("--criterion",)),
        ("threshold_unknown_criterion", ["threshold", good, "--label", "y", "--score", "s",
                                         "--criterion", "speed"], ("--criterion",)),
        ("threshold_bad_target", ["threshold", good, "--label", "y", "--score", "s",
                                  "--target", "speed=1"], ("--target",)),
        ("threshold_target_range", ["threshold", good, "--label", "y", "--score", "s",
                                    "--target", "recall=2"], ("target",)),
        ("threshold_foreign_option", ["threshold", good, "--label", "y", "--score", "s",
                                      "--criterion", "f1", "--cost-fn", "1"], ("--cost-fn",)),
        ("threshold_negative_cost", ["threshold", good, "--label", "y", "--score", "s",
                                     "--criterion", "cost", "--cost-fn", "-1", "--cost-fp",
                                     "1"], ("cost_fn",)),
        ("threshold_cost_alone", ["threshold", good, "--label", "y", "--score", "s",
                                  "--criterion", "cost", "--cost-fn", "1"], ("--cost-fp",)),
    ]
    for tag, argv, names in cli_bad:
        out.append(Case(f"cli/{tag}", "cli", lambda argv=argv: (_run_cli, (argv,), {}),
                        names=names, valid=False, kind="cli"))
    rows = _rows(_data())
    out.append(Case("cli/resolving_power_valid", "cli", lambda: (_run_cli, ([
        "resolving-power", good, "--label", "y", "--score", "s", "--n-rep", "20", "--json"],),
        {}), check=lambda res: None if res[0] == 0 and json.loads(res[1])["rows"] else
        (_ for _ in ()).throw(Wrong(f"exit {res[0]}: {res[2][-200:]}")), kind="cli"))
    out.append(Case("cli/evaluate_bootstrap_valid", "cli", lambda: (_run_cli, ([
        "evaluate", good, "--label", "y", "--score", "s", "--bootstrap", "10", "--seed", "1",
        "--json"],), {}), check=_cli_check(rows, False, "evaluate"), kind="cli"))
    out.append(Case("cli/compare_valid", "cli", lambda: (_run_cli, ([
        "compare", good, "--label", "y", "--score", "s", "--score", "w", "--weight", "w",
        "--json"],), {}), check=_compare_check(rows), kind="cli", backends=False))
    out.append(Case("cli/threshold_valid", "cli", lambda: (_run_cli, ([
        "threshold", good, "--label", "y", "--score", "s", "--weight", "w", "--target",
        "recall=0.5", "--json"],), {}), check=_threshold_check(rows), kind="cli"))
    out.append(Case("cli/evaluate_plot_valid", "cli", lambda: (_run_cli, ([
        "evaluate", good, "--label", "y", "--score", "s", "--json", "--plot",
        os.path.join(tmp, "sheet.png")],), {}), check=_cli_check(rows, False, "evaluate"),
        kind="cli", backends=False, slow=True))
    for tag, argv, names in (
            ("garbage_csv", ["evaluate", os.path.join(tmp, "garbage.csv"), "--label", "y",
                             "--score", "s"], ("garbage.csv", "path")),
            ("dir_csv", ["evaluate", os.path.join(tmp, "dir.csv"), "--label", "y", "--score",
                         "s"], ("dir.csv", "path")),
            ("empty_npy", ["evaluate", os.path.join(tmp, "empty.npy"), "--label", "y",
                           "--score", "s"], ("empty.npy", "path")),
            ("truncated_parquet", ["evaluate", os.path.join(tmp, "truncated.parquet"),
                                   "--label", "y", "--score", "s"],
             ("truncated.parquet", "path")),
            ("nan_score", ["evaluate", os.path.join(tmp, "nan_score.csv"), "--label", "y",
                           "--score", "s"], ("y_score", "score")),
            ("losses_garbage", ["losses", os.path.join(tmp, "garbage.npz"), "--label", "y",
                                "--score", "s"], ("garbage.npz", "path")),
            ("missing_column", ["evaluate", good, "--label", "nope", "--score", "s"],
             ("label",))):
        out.append(Case(f"cli[process]/{tag}", "cli[process]", lambda argv=argv: (
            _run_cli_process, (argv,), {}), names=names, valid=False, kind="cli",
            backends=False, slow=True))
    out.append(Case("cli[process]/evaluate_valid", "cli[process]", lambda: (
        _run_cli_process, (["evaluate", good, "--label", "y", "--score", "s", "--json"],), {}),
        check=_cli_check(rows, False, "evaluate"), kind="cli", backends=False, slow=True))
    return out
